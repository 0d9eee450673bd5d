/* zw-run.c — one run of the workbench (see zw-run.h). */
#include "zw-run.h"

#include <glib/gi18n.h>
#include <string.h>
#include "zw-selection.h"
#include "zw-view.h"

struct _ZwRun
{
  GObject parent_instance;

  ZwDeployReport *report;
  ZwRunKind kind;
  char *path;
  guint index;
  guint64 ocm_bytes;             /* placed over time (summed) */
  guint64 ocm_peak;              /* live at once, at most */
  guint iterations;
  double total_ms;
  gboolean compare;
  ZwProfile *profile;
  char *dump_dir;
  gboolean synthetic_params;
  char *dump_format;
  ZwPipelineReport *pipeline;    /* ZW_RUN_PIPELINE */
  gboolean from_report;          /* a pipeline report read from disk, not a pass run here */
  ZwPipelineReport *apart_of;    /* the pass whose networks this row ran apart (else NULL) */
  guint apart_of_index;          /* that pass's row number */
};

G_DEFINE_FINAL_TYPE (ZwRun, zw_run, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_REPORT,
  PROP_KIND,
  PROP_INDEX,
  PROP_MERGE_HARDOP,
  PROP_ETM_OPTIMIZE,
  PROP_OCM_REQUESTED,
  PROP_OCM_CHOSEN,
  PROP_FTMP_BYTES,
  PROP_OCM_BYTES,
  PROP_N_LAUNCHES,
  PROP_ITERATIONS,
  PROP_TOTAL_MS,
  PROP_COMPARE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
zw_run_finalize (GObject *object)
{
  ZwRun *self = ZW_RUN (object);

  g_clear_pointer (&self->report, zw_deploy_report_unref);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->profile, zw_profile_free);
  g_clear_pointer (&self->dump_dir, g_free);
  g_clear_pointer (&self->dump_format, g_free);
  g_clear_pointer (&self->pipeline, zw_pipeline_report_unref);
  g_clear_pointer (&self->apart_of, zw_pipeline_report_unref);
  G_OBJECT_CLASS (zw_run_parent_class)->finalize (object);
}

static void
zw_run_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwRun *self = ZW_RUN (object);

  switch (prop_id)
    {
    case PROP_REPORT: g_value_set_boxed (value, self->report); break;
    case PROP_KIND: g_value_set_int (value, self->kind); break;
    case PROP_INDEX: g_value_set_uint (value, self->index); break;
    case PROP_MERGE_HARDOP: g_value_set_boolean (value, zw_run_get_merge_hardop (self)); break;
    case PROP_ETM_OPTIMIZE: g_value_set_boolean (value, zw_run_get_etm_optimize (self)); break;
    case PROP_OCM_REQUESTED: g_value_set_int (value, zw_run_get_ocm_requested (self)); break;
    case PROP_OCM_CHOSEN: g_value_set_int (value, zw_run_get_ocm_chosen (self)); break;
    case PROP_FTMP_BYTES: g_value_set_uint64 (value, zw_run_get_ftmp_bytes (self)); break;
    case PROP_OCM_BYTES: g_value_set_uint64 (value, self->ocm_bytes); break;
    case PROP_N_LAUNCHES: g_value_set_uint (value, zw_run_get_n_launches (self)); break;
    case PROP_ITERATIONS: g_value_set_uint (value, self->iterations); break;
    case PROP_TOTAL_MS: g_value_set_double (value, self->total_ms); break;
    case PROP_COMPARE: g_value_set_boolean (value, self->compare); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_run_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ZwRun *self = ZW_RUN (object);

  switch (prop_id)
    {
    case PROP_INDEX: zw_run_set_index (self, g_value_get_uint (value)); break;
    case PROP_COMPARE: zw_run_set_compare (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_run_class_init (ZwRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = zw_run_finalize;
  object_class->get_property = zw_run_get_property;
  object_class->set_property = zw_run_set_property;

  properties[PROP_REPORT] = g_param_spec_boxed ("report", NULL, NULL, ZW_TYPE_DEPLOY_REPORT, ro);
  properties[PROP_KIND] = g_param_spec_int ("kind", NULL, NULL, ZW_RUN_APPLY, ZW_RUN_PIPELINE, ZW_RUN_APPLY, ro);
  properties[PROP_INDEX] = g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, rw);
  properties[PROP_MERGE_HARDOP] = g_param_spec_boolean ("merge-hardop", NULL, NULL, TRUE, ro);
  properties[PROP_ETM_OPTIMIZE] = g_param_spec_boolean ("etm-optimize", NULL, NULL, TRUE, ro);
  /* ZwOcmOpt: BEST_SCORE (-1), NONE, the planners */
  properties[PROP_OCM_REQUESTED] = g_param_spec_int ("ocm-requested", NULL, NULL, ZW_OCM_BEST_SCORE, ZW_OCM_N_SLOTS - 1,
                                                     ZW_OCM_BEST_SCORE, ro);
  properties[PROP_OCM_CHOSEN] = g_param_spec_int ("ocm-chosen", NULL, NULL, ZW_OCM_BEST_SCORE, ZW_OCM_N_SLOTS - 1,
                                                  ZW_OCM_BEST_SCORE, ro);
  properties[PROP_FTMP_BYTES] = g_param_spec_uint64 ("ftmp-bytes", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_OCM_BYTES] = g_param_spec_uint64 ("ocm-bytes", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_N_LAUNCHES] = g_param_spec_uint ("n-launches", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_ITERATIONS] = g_param_spec_uint ("iterations", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_TOTAL_MS] = g_param_spec_double ("total-ms", NULL, NULL, -1, G_MAXDOUBLE, -1, ro);
  properties[PROP_COMPARE] = g_param_spec_boolean ("compare", NULL, NULL, FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
zw_run_init (ZwRun *self)
{
  self->total_ms = -1;
}

ZwRun *
zw_run_new (ZwDeployReport *report, ZwRunKind kind, guint iterations, double total_ms)
{
  ZwRun *self;

  g_return_val_if_fail (report != NULL, NULL);

  self = g_object_new (ZW_TYPE_RUN, NULL);
  self->report = zw_deploy_report_ref (report);
  self->kind = kind;
  self->iterations = iterations;
  self->total_ms = total_ms < 0 ? -1 : total_ms;
  self->ocm_bytes = zw_deploy_report_ocm_placed (report);
  self->ocm_peak = zw_deploy_report_ocm_peak (report);
  return self;
}

ZwRun *
zw_run_new_from_log (ZwDeployReport *report, const char *path)
{
  ZwRun *self = zw_run_new (report, ZW_RUN_LOG, 0, -1);

  self->path = g_strdup (path);
  return self;
}

ZwRun *
zw_run_new_from_profile (ZwProfile *profile, const char *path)
{
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();
  ZwRun *self;

  g_return_val_if_fail (profile != NULL && path != NULL, NULL);
  if (profile->network != NULL && *profile->network != '\0')
    report->network_name = g_strdup (profile->network);
  else
    {
      /* "yolov5s_time.txt" -> "yolov5s": the vendor names the file after the network */
      g_autofree char *base = g_path_get_basename (path);
      char *dot = strrchr (base, '.');
      if (dot != NULL)
        *dot = '\0';
      if (g_str_has_suffix (base, "_time"))
        base[strlen (base) - 5] = '\0';
      report->network_name = g_strdup (base);
    }
  self = zw_run_new (report, ZW_RUN_PROFILE, 0, profile->has_totals ? profile->total_ms : -1);
  self->path = g_strdup (path);
  zw_run_take_profile (self, profile);
  return self;
}

ZwRun *
zw_run_new_for_pipeline (ZwPipelineReport *pipeline, const char *path, gboolean from_report)
{
  g_autoptr (ZwDeployReport) report = zw_deploy_report_new ();
  ZwRun *self;

  g_return_val_if_fail (pipeline != NULL, NULL);
  report->network_name = g_strdup (pipeline->name);
  report->device_url = g_strdup (pipeline->device);
  self = zw_run_new (report, ZW_RUN_PIPELINE, from_report ? 0 : 1, pipeline->pass_ms);
  self->pipeline = zw_pipeline_report_ref (pipeline);
  self->path = g_strdup (path);
  self->from_report = from_report;
  return self;
}

ZwRun *
zw_run_new_for_pipeline_apart (ZwPipelineReport *apart, ZwRun *pass)
{
  ZwRun *self;

  g_return_val_if_fail (apart != NULL && ZW_IS_RUN (pass) && pass->pipeline != NULL, NULL);
  self = zw_run_new_for_pipeline (apart, pass->path, FALSE);
  self->apart_of = zw_pipeline_report_ref (pass->pipeline);
  self->apart_of_index = pass->index;
  return self;
}

ZwPipelineReport *
zw_run_get_apart_of (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->apart_of;
}

ZwPipelineReport *
zw_run_get_pipeline (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->pipeline;
}

gboolean
zw_run_get_synthetic_params (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), FALSE);
  return self->synthetic_params;
}

void
zw_run_set_synthetic_params (ZwRun *self, gboolean synthetic)
{
  g_return_if_fail (ZW_IS_RUN (self));
  self->synthetic_params = synthetic;
}

const char *
zw_run_get_network_name (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->report->network_name != NULL ? self->report->network_name : "";
}

ZwDeployReport *
zw_run_get_report (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->report;
}

ZwRunKind
zw_run_get_kind (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), ZW_RUN_APPLY);
  return self->kind;
}

const char *
zw_run_get_path (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->path;
}

void
zw_run_set_index (ZwRun *self, guint index)
{
  g_return_if_fail (ZW_IS_RUN (self));
  if (self->index == index)
    return;
  self->index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
}

guint
zw_run_get_index (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->index;
}

gboolean
zw_run_replaces (ZwRun *next, ZwRun *previous)
{
  g_return_val_if_fail (ZW_IS_RUN (next) && ZW_IS_RUN (previous), FALSE);
  /* an apply after an apply; a plan (no params) after a plan */
  return (next->kind == ZW_RUN_APPLY || next->kind == ZW_RUN_PLAN) && previous->kind == next->kind
         && !previous->compare
         && zw_run_get_dump_dir (previous) == NULL
         && g_strcmp0 (next->report->network_name, previous->report->network_name) == 0
         && g_strcmp0 (next->report->network_path, previous->report->network_path) == 0
         && g_strcmp0 (next->report->device_url, previous->report->device_url) == 0
         && next->synthetic_params == previous->synthetic_params;
}

gboolean
zw_run_get_merge_hardop (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), FALSE);
  return self->report->merge_hardop;
}

gboolean
zw_run_get_etm_optimize (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), FALSE);
  return self->report->etm_optimize;
}

ZwOcmOpt
zw_run_get_ocm_requested (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), ZW_OCM_NONE);
  return self->report->ocm_requested;
}

ZwOcmOpt
zw_run_get_ocm_chosen (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), ZW_OCM_NONE);
  return self->report->ocm_chosen;
}

guint64
zw_run_get_ftmp_bytes (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->report->ftmp_bytes;
}

guint64
zw_run_get_ocm_bytes (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->ocm_bytes;
}

guint64
zw_run_get_ocm_peak (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->ocm_peak;
}

guint
zw_run_get_n_launches (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->report->launches->len;
}

guint
zw_run_get_iterations (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), 0);
  return self->iterations;
}

double
zw_run_get_total_ms (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), -1);
  return self->total_ms;
}

gboolean
zw_run_get_compare (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), FALSE);
  return self->compare;
}

void
zw_run_set_compare (ZwRun *self, gboolean compare)
{
  g_return_if_fail (ZW_IS_RUN (self));
  compare = !!compare;
  if (self->compare == compare)
    return;
  self->compare = compare;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARE]);
}

static char *
dup_kind_title (ZwRun *self)
{
  switch (self->kind)
    {
    case ZW_RUN_FORWARD:
      if (self->dump_dir != NULL)
        /* TRANSLATORS: a forward that dumped its tensors (they are in the Tensors view) */
        return g_strdup_printf (_("#%u Forward ×%u + dump — %s"), self->index, self->iterations,
                                self->report->network_name);
      /* TRANSLATORS: a run in the history: its number and the forwards it ran */
      return g_strdup_printf (_("#%u Forward ×%u — %s"), self->index, self->iterations, self->report->network_name);
    case ZW_RUN_LOG:
      {
        g_autofree char *base = g_path_get_basename (self->path ? self->path : "");
        return g_strdup_printf (_("#%u Log — %s"), self->index, base);
      }
    case ZW_RUN_PROFILE:
      {
        g_autofree char *base = g_path_get_basename (self->path ? self->path : "");
        /* TRANSLATORS: a time profile file opened from disk, in the run history */
        return g_strdup_printf (_("#%u Time profile — %s"), self->index, base);
      }
    case ZW_RUN_PIPELINE:
      if (self->apart_of != NULL)
        /* TRANSLATORS: a pipeline pass's networks each run alone, in the history: its number,
         * the pipeline, the number of the pass's row */
        return g_strdup_printf (_("#%u Networks run apart — %s (of #%u)"), self->index, self->apart_of->name,
                                self->apart_of_index);
      if (self->from_report)
        /* TRANSLATORS: a pipeline report read from disk, in the run history */
        return g_strdup_printf (_("#%u Pipeline report — %s"), self->index, self->report->network_name);
      if (self->dump_dir != NULL)
        /* TRANSLATORS: one pass of a pipeline that dumped its values (they are in Tensors) */
        return g_strdup_printf (_("#%u Pipeline pass + dump — %s"), self->index, self->report->network_name);
      /* TRANSLATORS: one pass of a pipeline (its networks one after another), in the history */
      return g_strdup_printf (_("#%u Pipeline pass — %s"), self->index, self->report->network_name);
    case ZW_RUN_PLAN:
      /* TRANSLATORS: a network planned without its params (.raw): not deployed, not run */
      return g_strdup_printf (_("#%u Plan (no params) — %s"), self->index, self->report->network_name);
    case ZW_RUN_APPLY:
    default:
      return g_strdup_printf (_("#%u Apply — %s"), self->index, self->report->network_name);
    }
}

char *
zw_run_dup_title (ZwRun *self)
{
  char *title;

  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  title = dup_kind_title (self);
  if (self->synthetic_params)
    {
      /* TRANSLATORS: a run title, then a note that its weights are made up */
      char *marked = g_strdup_printf (_("%s (synthetic params)"), title);
      g_free (title);
      title = marked;
    }
  return title;
}

char *
zw_run_dup_ocm_peak_text (ZwRun *self)
{
  g_autofree char *peak = NULL, *capacity = NULL;

  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  peak = g_format_size_full (self->ocm_peak, G_FORMAT_SIZE_IEC_UNITS);
  capacity = g_format_size_full (self->report->ocm_capacity, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: the most OCM bytes live at once, of the board's OCM size */
  return g_strdup_printf (_("OCM peak %s / %s"), peak, capacity);
}

char *
zw_run_dup_details (ZwRun *self)
{
  g_autofree char *title = NULL;
  g_autofree char *summary = NULL;

  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  title = zw_run_dup_title (self);
  summary = zw_run_dup_summary (self);
  if (self->dump_dir != NULL)
    /* TRANSLATORS: a run's tooltip in the history: title, summary, where its dump is */
    return g_strdup_printf (_("%s\n%s\nTensors dumped in %s (kept while the window is open; Save Dump As… keeps a "
                              "copy)"),
                            title, summary, self->dump_dir);
  return g_strconcat (title, "\n", summary, NULL);
}

/* A pipeline's row: each network's options, then the board's whole ETM, the networks, the pass. */
static char *
dup_pipeline_summary (ZwRun *self)
{
  g_autoptr (GString) options = g_string_new (NULL);
  g_autofree char *etm = g_format_size_full (self->pipeline->board_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *time = NULL;
  guint n = self->pipeline->networks->len;

  for (guint i = 0; i < n; i++)
    {
      const ZwPipelineNetwork *net = &g_array_index (self->pipeline->networks, ZwPipelineNetwork, i);
      if (options->len > 0)
        g_string_append (options, "; ");
      if (net->report == NULL)
        /* TRANSLATORS: a network of a pipeline that runs host ops only */
        g_string_append_printf (options, _("%s: host"), net->name);
      else
        /* TRANSLATORS: a pipeline's network and its options: merge, ETM optimize, OCM option */
        g_string_append_printf (options, _("%s: merge %s · ETM opt %s · OCM %s"), net->name,
                                net->report->merge_hardop ? _("on") : _("off"),
                                net->report->etm_optimize ? _("on") : _("off"),
                                zw_ocm_opt_get_label (net->report->ocm_requested));
    }
  time = self->total_ms >= 0 ? g_strdup_printf (_("%.3f ms"), self->total_ms) : g_strdup (_("not run"));
  if (self->apart_of != NULL)
    /* TRANSLATORS: the networks of a pass run apart, in the history: the options, then the
     * ETM they take each on a board of its own summed, the networks, their times summed */
    return g_strdup_printf (ngettext ("%s\nETM %s apart · %u network · %s in all",
                                      "%s\nETM %s apart · %u networks · %s in all", n),
                            options->str, etm, n, time);
  /* TRANSLATORS: a pipeline's row in the history: the options, then the ETM the whole
   * pipeline takes on the board, its networks, one pass's simulated time */
  return g_strdup_printf (ngettext ("%s\nETM %s · %u network · pass %s", "%s\nETM %s · %u networks · pass %s", n),
                          options->str, etm, n, time);
}

char *
zw_run_dup_summary (ZwRun *self)
{
  g_autofree char *ftmp = NULL;
  g_autofree char *ocm = NULL;
  g_autofree char *ocm_opt = NULL;
  g_autofree char *time = NULL;
  g_autofree char *launches = NULL;

  g_return_val_if_fail (ZW_IS_RUN (self), NULL);

  if (self->kind == ZW_RUN_PIPELINE)
    return dup_pipeline_summary (self);
  if (self->kind == ZW_RUN_PROFILE)
    {
      guint n = self->profile != NULL ? self->profile->rows->len : 0;
      g_autofree char *ops = g_strdup_printf (ngettext ("%u op", "%u ops", n), n);
      time = self->total_ms >= 0 ? g_strdup_printf (_("%.3f ms"), self->total_ms) : g_strdup (_("no totals"));
      /* TRANSLATORS: a time profile in the run history: its rows and total, then its file */
      return g_strdup_printf (_("time profile · %s · %s\n%s"), ops, time, self->path);
    }
  ftmp = g_format_size_full (self->report->ftmp_bytes, G_FORMAT_SIZE_IEC_UNITS);
  ocm = zw_run_dup_ocm_peak_text (self);
  /* Best score before it chose (a report that never planned OCM) is just Best score */
  if (self->report->ocm_requested == ZW_OCM_BEST_SCORE && self->report->ocm_chosen != ZW_OCM_BEST_SCORE)
    /* TRANSLATORS: "Best score → Option 2": the OCM option Best score chose */
    ocm_opt = g_strdup_printf (_("%s → %s"), zw_ocm_opt_get_label (ZW_OCM_BEST_SCORE),
                               zw_ocm_opt_get_label (self->report->ocm_chosen));
  else
    ocm_opt = g_strdup (zw_ocm_opt_get_label (self->report->ocm_requested));
  time = self->total_ms >= 0 ? g_strdup_printf (_("%.3f ms"), self->total_ms) : g_strdup (_("not run"));

  launches = g_strdup_printf (ngettext ("%u launch", "%u launches", self->report->launches->len),
                              self->report->launches->len);
  /* TRANSLATORS: merge / ETM optimize / OCM option, then FTMP, the OCM peak of its capacity
   * ("OCM peak 1.8 / 2.0 MiB"), launches, time */
  return g_strdup_printf (_("merge %s · ETM opt %s · OCM %s\nFTMP %s · %s · %s · %s"),
                          self->report->merge_hardop ? _("on") : _("off"),
                          self->report->etm_optimize ? _("on") : _("off"), ocm_opt, ftmp, ocm, launches, time);
}

const ZwProfile *
zw_run_get_profile (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->profile;
}

void
zw_run_take_profile (ZwRun *self, ZwProfile *profile)
{
  g_return_if_fail (ZW_IS_RUN (self));
  g_clear_pointer (&self->profile, zw_profile_free);
  self->profile = profile;
}

const char *
zw_run_get_dump_dir (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->dump_dir;
}

const char *
zw_run_get_dump_format (ZwRun *self)
{
  g_return_val_if_fail (ZW_IS_RUN (self), NULL);
  return self->dump_format;
}

void
zw_run_set_dump (ZwRun *self, const char *dir, const char *format)
{
  g_return_if_fail (ZW_IS_RUN (self));
  g_free (self->dump_dir);
  g_free (self->dump_format);
  self->dump_dir = g_strdup (dir);
  self->dump_format = g_strdup (format);
}
