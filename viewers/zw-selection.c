/* zw-selection.c — the selection and zoom shared by every deploy view. */
#include "zw-selection.h"
#include "zw-view-private.h"

#include <math.h>

#include "report/zw-pipeline-pass.h"


struct _ZwSelection
{
  GObject parent_instance;
  ZwDeployReport *report;
  gint64 selected_value;
  gint64 selected_op;
  double zoom_start;
  double zoom_end;
  /* Back/Forward: every (op, value) the selection went through, and where we are in it */
  GArray *history;        /* HistoryEntry */
  guint history_pos;      /* index of the current entry (history->len == 0: none) */
  gboolean navigating;    /* going back or forward: not a new entry */
  ZwPipelineReport *pipeline;
  char *pipeline_value;   /* "NET:V_ID" or NULL */
};

typedef struct {
  gint64 op;
  gint64 value;
} HistoryEntry;

/* A long session's clicks: the oldest are dropped. */
#define MAX_HISTORY 256

enum {
  PROP_0,
  PROP_REPORT,
  PROP_SELECTED_VALUE,
  PROP_SELECTED_OP,
  PROP_ZOOM_START,
  PROP_ZOOM_END,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_PIPELINE,
  PROP_PIPELINE_VALUE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (ZwSelection, zw_selection, G_TYPE_OBJECT)

static void
zw_selection_finalize (GObject *object)
{
  ZwSelection *self = ZW_SELECTION (object);

  g_clear_pointer (&self->report, zw_deploy_report_unref);
  g_clear_pointer (&self->history, g_array_unref);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  g_free (self->pipeline_value);
  G_OBJECT_CLASS (zw_selection_parent_class)->finalize (object);
}

static void
zw_selection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwSelection *self = ZW_SELECTION (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      g_value_set_boxed (value, self->report);
      break;
    case PROP_SELECTED_VALUE:
      g_value_set_int64 (value, self->selected_value);
      break;
    case PROP_SELECTED_OP:
      g_value_set_int64 (value, self->selected_op);
      break;
    case PROP_ZOOM_START:
      g_value_set_double (value, self->zoom_start);
      break;
    case PROP_ZOOM_END:
      g_value_set_double (value, self->zoom_end);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, zw_selection_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, zw_selection_can_go_forward (self));
      break;
    case PROP_PIPELINE:
      g_value_set_pointer (value, self->pipeline);
      break;
    case PROP_PIPELINE_VALUE:
      g_value_set_string (value, self->pipeline_value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_selection_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwSelection *self = ZW_SELECTION (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      zw_selection_set_report (self, g_value_get_boxed (value));
      break;
    case PROP_SELECTED_VALUE:
      zw_selection_set_selected_value (self, g_value_get_int64 (value));
      break;
    case PROP_SELECTED_OP:
      zw_selection_set_selected_op (self, g_value_get_int64 (value));
      break;
    case PROP_ZOOM_START:
      zw_selection_set_zoom_start (self, g_value_get_double (value));
      break;
    case PROP_ZOOM_END:
      zw_selection_set_zoom_end (self, g_value_get_double (value));
      break;
    case PROP_PIPELINE:
      zw_selection_set_pipeline (self, g_value_get_pointer (value));
      break;
    case PROP_PIPELINE_VALUE:
      zw_selection_set_pipeline_value (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_selection_class_init (ZwSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = zw_selection_finalize;
  object_class->get_property = zw_selection_get_property;
  object_class->set_property = zw_selection_set_property;

  properties[PROP_REPORT] = g_param_spec_boxed ("report", NULL, NULL, ZW_TYPE_DEPLOY_REPORT, flags);
  properties[PROP_SELECTED_VALUE] = g_param_spec_int64 ("selected-value", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_SELECTED_OP] = g_param_spec_int64 ("selected-op", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_ZOOM_START] = g_param_spec_double ("zoom-start", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_ZOOM_END] = g_param_spec_double ("zoom-end", NULL, NULL, 0, G_MAXDOUBLE, 1, flags);
  properties[PROP_CAN_GO_BACK] = g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                                                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_FORWARD] = g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                                                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                              | G_PARAM_STATIC_STRINGS);
  properties[PROP_PIPELINE] = g_param_spec_pointer ("pipeline", NULL, NULL, flags);
  properties[PROP_PIPELINE_VALUE] = g_param_spec_string ("pipeline-value", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
zw_selection_init (ZwSelection *self)
{
  self->selected_value = -1;
  self->selected_op = -1;
  self->zoom_start = 0;
  self->zoom_end = 1;
  self->history = g_array_new (FALSE, FALSE, sizeof (HistoryEntry));
}

ZwSelection *
zw_selection_new (void)
{
  return g_object_new (ZW_TYPE_SELECTION, NULL);
}

ZwDeployReport *
zw_selection_get_report (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), NULL);
  return self->report;
}

/* The op-index extent of the time axis: at least one op so a range is never empty. */
static double
selection_n_ops (ZwSelection *self)
{
  return self->report != NULL ? MAX (1.0, (double) self->report->ops->len) : 1.0;
}

void
zw_selection_set_report (ZwSelection *self, ZwDeployReport *report)
{
  g_return_if_fail (ZW_IS_SELECTION (self));

  if (report == self->report)
    return;
  if (report != NULL)
    zw_deploy_report_ref (report);
  g_clear_pointer (&self->report, zw_deploy_report_unref);
  self->report = report;

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
  self->navigating = TRUE;
  zw_selection_set_selected_value (self, -1);
  zw_selection_set_selected_op (self, -1);
  self->navigating = FALSE;
  /* another report: the ids of the history mean nothing there */
  if (self->history->len > 0)
    {
      g_array_set_size (self->history, 0);
      self->history_pos = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
    }
  zw_selection_zoom_fit (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* A new selection (not Back/Forward): drops the entries ahead, appends the current one. */
static void
record_history (ZwSelection *self)
{
  HistoryEntry e = { self->selected_op, self->selected_value };
  gboolean could_back = zw_selection_can_go_back (self), could_forward = zw_selection_can_go_forward (self);

  if (self->navigating || (e.op < 0 && e.value < 0))
    return;
  if (self->history->len > 0)
    g_array_set_size (self->history, self->history_pos + 1);
  g_array_append_val (self->history, e);
  if (self->history->len > MAX_HISTORY)
    g_array_remove_index (self->history, 0);
  self->history_pos = self->history->len - 1;
  if (could_back != zw_selection_can_go_back (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (could_forward != zw_selection_can_go_forward (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

gboolean
zw_selection_can_go_back (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  return self->history->len > 0 && self->history_pos > 0;
}

gboolean
zw_selection_can_go_forward (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  return self->history->len > 0 && self->history_pos + 1 < self->history->len;
}

static gboolean
go_to (ZwSelection *self, guint pos)
{
  HistoryEntry e = g_array_index (self->history, HistoryEntry, pos);

  g_object_freeze_notify (G_OBJECT (self));
  self->history_pos = pos;
  self->navigating = TRUE;
  zw_selection_set_selected_op (self, e.op);
  zw_selection_set_selected_value (self, e.value);
  self->navigating = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

gboolean
zw_selection_go_back (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  return zw_selection_can_go_back (self) && go_to (self, self->history_pos - 1);
}

gboolean
zw_selection_go_forward (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  return zw_selection_can_go_forward (self) && go_to (self, self->history_pos + 1);
}

void
zw_selection_select (ZwSelection *self, gint64 op_id, gint64 v_id)
{
  g_return_if_fail (ZW_IS_SELECTION (self));

  /* one entry in the history for the pair */
  g_object_freeze_notify (G_OBJECT (self));
  self->navigating = TRUE;
  zw_selection_set_selected_op (self, op_id);
  zw_selection_set_selected_value (self, v_id);
  self->navigating = FALSE;
  record_history (self);
  g_object_thaw_notify (G_OBJECT (self));
}

gint64
zw_selection_get_selected_value (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), -1);
  return self->selected_value;
}

void
zw_selection_set_selected_value (ZwSelection *self, gint64 v_id)
{
  g_return_if_fail (ZW_IS_SELECTION (self));

  if (v_id < 0 || self->report == NULL || zw_deploy_report_find_value (self->report, v_id) == NULL)
    v_id = -1;
  if (v_id == self->selected_value)
    return;
  self->selected_value = v_id;
  record_history (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_VALUE]);
}

gint64
zw_selection_get_selected_op (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), -1);
  return self->selected_op;
}

void
zw_selection_set_selected_op (ZwSelection *self, gint64 op_id)
{
  g_return_if_fail (ZW_IS_SELECTION (self));

  /* Merged launches have op ids of their own (above the network's max): accept them. */
  if (op_id < 0 || self->report == NULL || !zw_report_op_range (self->report, op_id, NULL, NULL))
    op_id = -1;
  if (op_id == self->selected_op)
    return;
  self->selected_op = op_id;
  record_history (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_OP]);
}

double
zw_selection_get_zoom_start (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), 0);
  return self->zoom_start;
}

double
zw_selection_get_zoom_end (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), 1);
  return self->zoom_end;
}

void
zw_selection_set_zoom (ZwSelection *self, double start, double end)
{
  double n, min_width;

  g_return_if_fail (ZW_IS_SELECTION (self));

  if (!isfinite (start) || !isfinite (end))
    return;
  if (start > end)
    {
      double t = start;
      start = end;
      end = t;
    }
  n = selection_n_ops (self);
  min_width = MIN (1.0, n);
  if (end - start < min_width)
    {
      double mid = (start + end) / 2;
      start = mid - min_width / 2;
      end = mid + min_width / 2;
    }
  if (end - start > n)
    {
      start = 0;
      end = n;
    }
  /* Keep the width while shifting back inside [0, n]. */
  if (start < 0)
    {
      end -= start;
      start = 0;
    }
  if (end > n)
    {
      start -= end - n;
      end = n;
    }
  start = MAX (start, 0);

  g_object_freeze_notify (G_OBJECT (self));
  if (start != self->zoom_start)
    {
      self->zoom_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_START]);
    }
  if (end != self->zoom_end)
    {
      self->zoom_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
zw_selection_set_zoom_start (ZwSelection *self, double start)
{
  g_return_if_fail (ZW_IS_SELECTION (self));
  zw_selection_set_zoom (self, start, MAX (self->zoom_end, start + 1));
}

void
zw_selection_set_zoom_end (ZwSelection *self, double end)
{
  g_return_if_fail (ZW_IS_SELECTION (self));
  zw_selection_set_zoom (self, MIN (self->zoom_start, end - 1), end);
}

void
zw_selection_zoom_fit (ZwSelection *self)
{
  g_return_if_fail (ZW_IS_SELECTION (self));
  zw_selection_set_zoom (self, 0, selection_n_ops (self));
}

void
zw_selection_zoom_by (ZwSelection *self, double factor, double center)
{
  double start, end;

  g_return_if_fail (ZW_IS_SELECTION (self));
  g_return_if_fail (factor > 0);

  start = center - (center - self->zoom_start) / factor;
  end = center + (self->zoom_end - center) / factor;
  zw_selection_set_zoom (self, start, end);
}

void
zw_selection_pan (ZwSelection *self, double delta)
{
  g_return_if_fail (ZW_IS_SELECTION (self));
  zw_selection_set_zoom (self, self->zoom_start + delta, self->zoom_end + delta);
}

/* ---- pipelines ---- */

ZwPipelineReport *
zw_selection_get_pipeline (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), NULL);
  return self->pipeline;
}

void
zw_selection_set_pipeline (ZwSelection *self, ZwPipelineReport *pipeline)
{
  g_return_if_fail (ZW_IS_SELECTION (self));
  if (pipeline == self->pipeline)
    return;
  if (pipeline != NULL)
    zw_pipeline_report_ref (pipeline);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  self->pipeline = pipeline;
  if (self->pipeline_value != NULL)
    {
      g_clear_pointer (&self->pipeline_value, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PIPELINE_VALUE]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PIPELINE]);
}

gboolean
zw_selection_shows_pass (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  return self->pipeline != NULL && self->report == NULL;
}

const char *
zw_selection_get_pipeline_value (ZwSelection *self)
{
  g_return_val_if_fail (ZW_IS_SELECTION (self), NULL);
  return self->pipeline_value;
}

gboolean
zw_selection_set_pipeline_value (ZwSelection *self, const char *name)
{
  g_autofree char *net = NULL;
  g_autofree char *canonical = NULL;
  gint64 v_id = -1;
  gint index = -1;
  const ZwPipelineNetwork *n;

  g_return_val_if_fail (ZW_IS_SELECTION (self), FALSE);
  if (name != NULL && self->pipeline != NULL && zw_pipeline_value_parse (name, &net, &v_id)
      && (index = zw_pipeline_report_find_network (self->pipeline, net)) >= 0)
    {
      n = &g_array_index (self->pipeline->networks, ZwPipelineNetwork, index);
      if (n->report != NULL && zw_deploy_report_find_value (n->report, v_id) != NULL)
        canonical = zw_pipeline_value_name (net, v_id);
    }
  if (g_strcmp0 (canonical, self->pipeline_value) == 0)
    return canonical != NULL;
  g_free (self->pipeline_value);
  self->pipeline_value = g_steal_pointer (&canonical);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PIPELINE_VALUE]);
  return self->pipeline_value != NULL;
}
