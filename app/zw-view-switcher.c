/* zw-view-switcher.c — buttons where they fit, a drop-down where not (see the header). */
#include "zw-view-switcher.h"

struct _ZwViewSwitcher
{
  GtkWidget parent_instance;

  GtkWidget *buttons;    /* GtkStackSwitcher */
  GtkWidget *dropdown;   /* GtkDropDown of the pages' titles */
  GtkStack *stack;       /* borrowed */
  GPtrArray *names;      /* the pages' names, in the drop-down's order */
  gboolean compact;
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (ZwViewSwitcher, zw_view_switcher, GTK_TYPE_WIDGET)

static void
measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural, int *min_baseline,
         int *nat_baseline)
{
  ZwViewSwitcher *self = ZW_VIEW_SWITCHER (widget);
  int bmin, bnat, dmin, dnat;

  gtk_widget_measure (self->buttons, orientation, -1, &bmin, &bnat, NULL, NULL);
  gtk_widget_measure (self->dropdown, orientation, -1, &dmin, &dnat, NULL, NULL);
  (void) for_size;
  *min_baseline = *nat_baseline = -1;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* as narrow as the drop-down, as wide as the row of buttons wants */
      *minimum = dmin;
      *natural = MAX (bnat, dmin);
    }
  else
    {
      *minimum = MAX (bmin, dmin);
      *natural = MAX (bnat, dnat);
    }
}

static void
size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  ZwViewSwitcher *self = ZW_VIEW_SWITCHER (widget);
  int bmin, bnat, dmin, dnat;
  GtkWidget *shown, *hidden;
  int w;

  (void) baseline;
  gtk_widget_measure (self->buttons, GTK_ORIENTATION_HORIZONTAL, -1, &bmin, &bnat, NULL, NULL);
  self->compact = width < bmin;
  shown = self->compact ? self->dropdown : self->buttons;
  hidden = self->compact ? self->buttons : self->dropdown;
  gtk_widget_set_child_visible (hidden, FALSE);
  gtk_widget_set_child_visible (shown, TRUE);
  if (self->compact)
    {
      gtk_widget_measure (self->dropdown, GTK_ORIENTATION_HORIZONTAL, -1, &dmin, &dnat, NULL, NULL);
      w = CLAMP (dnat, dmin, width);
    }
  else
    w = MIN (bnat, width);
  /* centred, as the row was */
  gtk_widget_allocate (shown, w, height, -1, gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT ((width - w) / 2, 0)));
}

static void
on_selected (GtkDropDown *dropdown, GParamSpec *pspec, ZwViewSwitcher *self)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  (void) pspec;
  if (self->syncing || self->stack == NULL || i >= self->names->len)
    return;
  gtk_stack_set_visible_child_name (self->stack, g_ptr_array_index (self->names, i));
}

static void
on_visible_child (GtkStack *stack, GParamSpec *pspec, ZwViewSwitcher *self)
{
  const char *name = gtk_stack_get_visible_child_name (stack);

  (void) pspec;
  for (guint i = 0; name != NULL && i < self->names->len; i++)
    if (g_str_equal (g_ptr_array_index (self->names, i), name))
      {
        self->syncing = TRUE;
        gtk_drop_down_set_selected (GTK_DROP_DOWN (self->dropdown), i);
        self->syncing = FALSE;
      }
}

void
zw_view_switcher_set_stack (ZwViewSwitcher *self, GtkStack *stack)
{
  g_autoptr (GtkStringList) titles = gtk_string_list_new (NULL);

  g_return_if_fail (ZW_IS_VIEW_SWITCHER (self));
  g_return_if_fail (GTK_IS_STACK (stack) && self->stack == NULL);
  self->stack = stack;
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->buttons), stack);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (stack)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkStackPage *page = gtk_stack_get_page (stack, child);
      g_ptr_array_add (self->names, g_strdup (gtk_stack_page_get_name (page)));
      gtk_string_list_append (titles, gtk_stack_page_get_title (page));
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->dropdown), G_LIST_MODEL (titles));
  g_signal_connect_object (stack, "notify::visible-child-name", G_CALLBACK (on_visible_child), self, 0);
  on_visible_child (stack, NULL, self);
}

gboolean
zw_view_switcher_get_compact (ZwViewSwitcher *self)
{
  g_return_val_if_fail (ZW_IS_VIEW_SWITCHER (self), FALSE);
  return self->compact;
}

GtkWidget *
zw_view_switcher_get_buttons (ZwViewSwitcher *self)
{
  g_return_val_if_fail (ZW_IS_VIEW_SWITCHER (self), NULL);
  return self->buttons;
}

GtkWidget *
zw_view_switcher_get_dropdown (ZwViewSwitcher *self)
{
  g_return_val_if_fail (ZW_IS_VIEW_SWITCHER (self), NULL);
  return self->dropdown;
}

static void
zw_view_switcher_dispose (GObject *object)
{
  ZwViewSwitcher *self = ZW_VIEW_SWITCHER (object);

  g_clear_pointer (&self->buttons, gtk_widget_unparent);
  g_clear_pointer (&self->dropdown, gtk_widget_unparent);
  self->stack = NULL;
  G_OBJECT_CLASS (zw_view_switcher_parent_class)->dispose (object);
}

static void
zw_view_switcher_finalize (GObject *object)
{
  ZwViewSwitcher *self = ZW_VIEW_SWITCHER (object);

  g_ptr_array_unref (self->names);
  G_OBJECT_CLASS (zw_view_switcher_parent_class)->finalize (object);
}

static void
zw_view_switcher_class_init (ZwViewSwitcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_view_switcher_dispose;
  object_class->finalize = zw_view_switcher_finalize;
  widget_class->measure = measure;
  widget_class->size_allocate = size_allocate;
  gtk_widget_class_set_css_name (widget_class, "zwviewswitcher");
}

static void
zw_view_switcher_init (ZwViewSwitcher *self)
{
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->buttons = gtk_stack_switcher_new ();
  gtk_widget_add_css_class (self->buttons, "zw-view-switcher");
  gtk_widget_set_parent (self->buttons, GTK_WIDGET (self));
  self->dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_tooltip_text (self->dropdown, NULL);
  gtk_widget_set_parent (self->dropdown, GTK_WIDGET (self));
  g_signal_connect (self->dropdown, "notify::selected", G_CALLBACK (on_selected), self);
  gtk_widget_set_child_visible (self->dropdown, FALSE);
}

GtkWidget *
zw_view_switcher_new (void)
{
  return g_object_new (ZW_TYPE_VIEW_SWITCHER, NULL);
}
