/* zw-view.c — base class of the selection-driven views: property, notify hook, cache. */
#include "zw-view.h"
#include "zw-view-private.h"
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

typedef struct
{
  ZwSelection *selection;
  ZwViewCache cache;
} ZwViewPrivate;

enum { PROP_0, PROP_SELECTION, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (ZwView, zw_view, GTK_TYPE_WIDGET)

static void
on_selection_notify (ZwView *self, GParamSpec *pspec)
{
  ZW_VIEW_GET_CLASS (self)->selection_notify (self, pspec);
}

static void
zw_view_real_selection_notify (ZwView *self, GParamSpec *pspec)
{
  (void) pspec;
  zw_view_invalidate (self);
}

/* A ZwViewDrawFunc seen as the cache's (cr, size, colours, data) drawing. */
typedef struct {
  ZwViewDrawFunc draw;
  ZwSelection *selection;
  ZwViewPipelineDrawFunc draw_pipeline;
} DeployDraw;

static void
deploy_draw (cairo_t *cr, int width, int height, const ZwViewStyle *colors, gpointer user_data)
{
  DeployDraw *d = user_data;

  if (d->draw_pipeline != NULL && zw_selection_shows_pass (d->selection))
    d->draw_pipeline (cr, width, height, zw_selection_get_pipeline (d->selection), d->selection, colors);
  else
    d->draw (cr, width, height, zw_selection_get_report (d->selection), d->selection, colors);
}

static void
zw_view_real_render (ZwView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwViewPrivate *priv = zw_view_get_instance_private (self);
  ZwViewDrawFunc draw = ZW_VIEW_GET_CLASS (self)->draw;

  ZwViewPipelineDrawFunc draw_pipeline = ZW_VIEW_GET_CLASS (self)->draw_pipeline;

  if (draw_pipeline != NULL && zw_selection_shows_pass (priv->selection))
    draw_pipeline (cr, width, height, zw_selection_get_pipeline (priv->selection), priv->selection, colors);
  else if (draw != NULL)
    draw (cr, width, height, zw_selection_get_report (priv->selection), priv->selection, colors);
}

static void
zw_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ZwView *self = ZW_VIEW (widget);
  ZwViewClass *klass = ZW_VIEW_GET_CLASS (self);
  ZwViewPrivate *priv = zw_view_get_instance_private (self);
  DeployDraw d = { klass->draw, priv->selection, klass->draw_pipeline };

  if (!klass->draws_itself || klass->draw == NULL)
    {
      GTK_WIDGET_CLASS (zw_view_parent_class)->snapshot (widget, snapshot);
      return;
    }
  if (zw_view_cache_snapshot (&priv->cache, widget, snapshot, deploy_draw, &d) && klass->snapshot_overlay != NULL)
    klass->snapshot_overlay (self, snapshot, priv->cache.width, priv->cache.height, &priv->cache.style);
}

static void
zw_view_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (zw_view_parent_class)->css_changed (widget, change);
  /* The cache compares theme colours on the next snapshot. */
  gtk_widget_queue_draw (widget);
}

static void
zw_view_dispose (GObject *object)
{
  ZwView *self = ZW_VIEW (object);
  ZwViewPrivate *priv = zw_view_get_instance_private (self);
  GtkWidget *child;

  /* Subclasses unparent children whose teardown order matters before chaining up. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  zw_view_cache_invalidate (&priv->cache);
  /* The selection is usually shared and outlives us: stop hearing from it now. */
  if (priv->selection != NULL)
    g_signal_handlers_disconnect_by_data (priv->selection, self);
  g_clear_object (&priv->selection);
  G_OBJECT_CLASS (zw_view_parent_class)->dispose (object);
}

static void
zw_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwViewPrivate *priv = zw_view_get_instance_private (ZW_VIEW (object));

  switch (prop_id)
    {
    case PROP_SELECTION:
      g_value_set_object (value, priv->selection);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwView *self = ZW_VIEW (object);
  ZwViewPrivate *priv = zw_view_get_instance_private (self);
  ZwSelection *selection;

  switch (prop_id)
    {
    case PROP_SELECTION:
      /* Construct-only: NULL gives the view a selection of its own. */
      g_assert (priv->selection == NULL);
      selection = g_value_get_object (value);
      priv->selection = selection != NULL ? g_object_ref (selection) : zw_selection_new ();
      g_signal_connect_object (priv->selection, "notify", G_CALLBACK (on_selection_notify), self, G_CONNECT_SWAPPED);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_view_class_init (ZwViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_view_dispose;
  object_class->get_property = zw_view_get_property;
  object_class->set_property = zw_view_set_property;
  widget_class->snapshot = zw_view_snapshot;
  widget_class->css_changed = zw_view_css_changed;
  klass->selection_notify = zw_view_real_selection_notify;
  klass->render = zw_view_real_render;

  properties[PROP_SELECTION] = g_param_spec_object ("selection", NULL, NULL, ZW_TYPE_SELECTION,
                                                    G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
zw_view_init (ZwView *self)
{
  (void) self;
}

const char *
zw_view_data_to_string (ZwViewData data)
{
  static const char *names[ZW_VIEW_N_DATA] = {
    [ZW_VIEW_DATA_REPORT] = "report",
    [ZW_VIEW_DATA_PROFILE] = "profile",
    [ZW_VIEW_DATA_PROFILE_PAIR] = "profile-pair",
    [ZW_VIEW_DATA_DUMP] = "dump",
    [ZW_VIEW_DATA_DUMP_PAIR] = "dump-pair",
    [ZW_VIEW_DATA_COMPILE_PAIR] = "compile-pair",
    [ZW_VIEW_DATA_SWEEP] = "sweep",
    [ZW_VIEW_DATA_LOG] = "log",
    [ZW_VIEW_DATA_PIPELINE] = "pipeline",
  };

  return (guint) data < ZW_VIEW_N_DATA ? names[data] : NULL;
}

void
zw_view_class_set_info (ZwViewClass *klass, const char *name, const char *title, const char *key_title,
                        ZwViewData data)
{
  g_return_if_fail (ZW_IS_VIEW_CLASS (klass));
  g_return_if_fail (name != NULL && title != NULL && key_title != NULL);
  g_return_if_fail ((guint) data < ZW_VIEW_N_DATA);
  klass->name = name;
  klass->title = title;
  klass->key_title = key_title;
  klass->data = data;
}

gboolean
zw_view_can_render (ZwView *self)
{
  ZwViewClass *klass;

  g_return_val_if_fail (ZW_IS_VIEW (self), FALSE);
  klass = ZW_VIEW_GET_CLASS (self);
  return klass->render != NULL && (klass->render != zw_view_real_render || klass->draw != NULL);
}

gboolean
zw_view_render (ZwView *self, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwViewStyle style;

  g_return_val_if_fail (ZW_IS_VIEW (self), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  if (!zw_view_can_render (self))
    return FALSE;
  if (colors == NULL)
    {
      /* theme colours need a realized widget (a display); otherwise the light default */
      if (gtk_widget_get_realized (GTK_WIDGET (self)))
        zw_view_style_from_widget (&style, GTK_WIDGET (self));
      else
        zw_view_style_init_default (&style);
      colors = &style;
    }
  ZW_VIEW_GET_CLASS (self)->render (self, cr, width, height, colors);
  return TRUE;
}

GPtrArray *
zw_view_get_table (ZwView *self)
{
  ZwViewClass *klass;

  g_return_val_if_fail (ZW_IS_VIEW (self), NULL);
  klass = ZW_VIEW_GET_CLASS (self);
  return klass->table != NULL ? klass->table (self) : NULL;
}

ZwSelection *
zw_view_get_selection (ZwView *self)
{
  ZwViewPrivate *priv;

  g_return_val_if_fail (ZW_IS_VIEW (self), NULL);
  priv = zw_view_get_instance_private (self);
  return priv->selection;
}

ZwDeployReport *
zw_view_get_report (ZwView *self)
{
  g_return_val_if_fail (ZW_IS_VIEW (self), NULL);
  return zw_selection_get_report (zw_view_get_selection (self));
}

void
zw_view_invalidate (ZwView *self)
{
  ZwViewPrivate *priv;

  g_return_if_fail (ZW_IS_VIEW (self));
  priv = zw_view_get_instance_private (self);
  zw_view_cache_invalidate (&priv->cache);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const ZwViewStyle *
zw_view_get_style (ZwView *self)
{
  ZwViewPrivate *priv;

  g_return_val_if_fail (ZW_IS_VIEW (self), NULL);
  priv = zw_view_get_instance_private (self);
  return &priv->cache.style;
}

guint
zw_view_get_n_rebuilds (ZwView *self)
{
  ZwViewPrivate *priv;

  g_return_val_if_fail (ZW_IS_VIEW (self), 0);
  priv = zw_view_get_instance_private (self);
  return priv->cache.n_rebuilds;
}

GtkWidget *
zw_view_add_scrolled_area (ZwView *self, ZwExportDrawFunc draw, ZwDrawAreaOverlayFunc overlay, int width, int height)
{
  GtkWidget *area, *scrolled;

  g_return_val_if_fail (ZW_IS_VIEW (self), NULL);
  area = zw_draw_area_new (draw, overlay, self);
  gtk_widget_set_size_request (area, width, height);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), area);
  gtk_widget_set_parent (scrolled, GTK_WIDGET (self));
  return area;
}

void
zw_widget_add_pointer_handlers (GtkWidget *widget, const ZwPointerHandlers *h, gpointer user_data)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (h != NULL);

  if (h->motion != NULL || h->leave != NULL)
    {
      GtkEventController *motion = gtk_event_controller_motion_new ();
      if (h->motion != NULL)
        g_signal_connect (motion, "motion", h->motion, user_data);
      if (h->leave != NULL)
        g_signal_connect (motion, "leave", h->leave, user_data);
      gtk_widget_add_controller (widget, motion);
    }
  if (h->scroll != NULL)
    {
      GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
      g_signal_connect (scroll, "scroll", h->scroll, user_data);
      gtk_widget_add_controller (widget, scroll);
    }
  if (h->drag_begin != NULL || h->drag_update != NULL)
    {
      GtkGesture *drag = gtk_gesture_drag_new ();
      if (h->drag_any_button)
        gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
      if (h->drag_begin != NULL)
        g_signal_connect (drag, "drag-begin", h->drag_begin, user_data);
      if (h->drag_update != NULL)
        g_signal_connect (drag, "drag-update", h->drag_update, user_data);
      gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));
    }
  if (h->pressed != NULL || h->released != NULL)
    {
      GtkGesture *click = gtk_gesture_click_new ();
      if (h->pressed != NULL)
        g_signal_connect (click, "pressed", h->pressed, user_data);
      if (h->released != NULL)
        g_signal_connect (click, "released", h->released, user_data);
      gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
    }
}

char *
zw_format_axis_bytes (double bytes, double max)
{
  static const char *units[] = { N_("bytes"), N_("KiB"), N_("MiB"), N_("GiB") };
  guint u = 0;
  double scale = 1, v;

  while (u + 1 < G_N_ELEMENTS (units) && max >= scale * 1024)
    {
      scale *= 1024;
      u++;
    }
  v = bytes / scale;
  if (u == 0)
    return g_strdup_printf ("%.0f %s", v, _(units[u]));
  {
    /* steps of a fraction of the unit (0.25 MiB): up to two decimals, no trailing zeros */
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    char *end;
    g_snprintf (num, sizeof num, "%.2f", v);
    end = num + strlen (num) - 1;
    while (end > num && *end == '0')
      *end-- = '\0';
    if (end > num && (*end == '.' || *end == ','))
      *end = '\0';
    return g_strdup_printf ("%s %s", num, _(units[u]));
  }
}
