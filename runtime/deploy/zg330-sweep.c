/* zg330-sweep.c — every option combination at every what-if point (see the header). */
#include "deploy/zg330-sweep.h"

#include "backends/zg330/zg330-backend.h"
#include "deploy/xrt-deployment-private.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-check.h"
#include "xrt/xrt-device.h"
#include "xrt/xrt-session.h"
#include "xrt/xrt-tensor.h"

#include <gio/gio.h>
#include <string.h>

static void
axis_clear (gpointer data)
{
  Zg330SweepAxis *a = data;

  g_clear_pointer (&a->name, g_free);
  g_clear_pointer (&a->values, g_array_unref);
  g_clear_pointer (&a->labels, g_ptr_array_unref);
}

GArray *
zg330_sweep_axes_new (void)
{
  GArray *axes = g_array_new (FALSE, TRUE, sizeof (Zg330SweepAxis));

  g_array_set_clear_func (axes, axis_clear);
  return axes;
}

/* "512K", "1M", "800M", "1.5G", "2097152": a positive number with an optional unit. */
static gboolean
parse_amount (const char *text, double unit, double *out)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || !(v > 0))
    return FALSE;
  switch (g_ascii_toupper (*end))
    {
    case 'K': v *= unit; end++; break;
    case 'M': v *= unit * unit; end++; break;
    case 'G': v *= unit * unit * unit; end++; break;
    default: break;
    }
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end != '\0' || !(v < 1e15))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
zg330_sweep_parse_what_if (GArray *axes, const char *text, GError **error)
{
  g_return_val_if_fail (axes != NULL && text != NULL, FALSE);
  const char *eq = strchr (text, '=');
  g_autofree char *name = eq ? g_strndup (text, (gsize) (eq - text)) : NULL;
  gboolean ocm;

  if (name == NULL || (strcmp (name, "ocm") != 0 && strcmp (name, "icore") != 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--what-if “%s”: expected ocm=SIZE,… or icore=HZ,…", text);
      return FALSE;
    }
  for (guint i = 0; i < axes->len; i++)
    if (strcmp (g_array_index (axes, Zg330SweepAxis, i).name, name) == 0)
      {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--what-if “%s”: %s is given twice", text, name);
        return FALSE;
      }
  ocm = strcmp (name, "ocm") == 0;
  Zg330SweepAxis axis = { g_strdup (name), g_array_new (FALSE, FALSE, sizeof (double)),
                          g_ptr_array_new_with_free_func (g_free) };
  g_auto (GStrv) parts = g_strsplit (eq + 1, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      double v;
      if (!parse_amount (parts[i], ocm ? 1024.0 : 1000.0, &v) || (ocm && v != (double) (guint64) v))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--what-if “%s”: “%s” is not a %s", text,
                       parts[i], ocm ? "size in bytes (512K, 1M, 2097152)" : "clock in Hz (800M, 1G)");
          axis_clear (&axis);
          return FALSE;
        }
      g_array_append_val (axis.values, v);
      g_ptr_array_add (axis.labels, g_strdup (parts[i]));
    }
  if (axis.values->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--what-if “%s”: no values", text);
      axis_clear (&axis);
      return FALSE;
    }
  g_array_append_val (axes, axis);
  return TRUE;
}

Zg330Profile *
zg330_sweep_profile_for_point (const Zg330Profile *base, const char *what_if, GError **error)
{
  g_return_val_if_fail (base != NULL, NULL);
  g_autoptr (Zg330Profile) profile = zg330_profile_copy (base);
  g_auto (GStrv) parts = NULL;

  if (what_if == NULL || *what_if == '\0')
    return g_steal_pointer (&profile);
  /* one value per axis: "ocm=512K,icore=800M", as the grid names its points */
  parts = g_strsplit (what_if, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *eq = strchr (parts[i], '=');
      gboolean ocm = eq != NULL && (gsize) (eq - parts[i]) == 3 && strncmp (parts[i], "ocm", 3) == 0;
      gboolean icore = eq != NULL && (gsize) (eq - parts[i]) == 5 && strncmp (parts[i], "icore", 5) == 0;
      double v;

      if (!ocm && !icore)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "what-if point “%s”: “%s” is not ocm=SIZE or icore=HZ", what_if, parts[i]);
          return NULL;
        }
      if (!parse_amount (eq + 1, ocm ? 1024.0 : 1000.0, &v) || (ocm && v != (double) (guint64) v))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "what-if point “%s”: “%s” is not a %s",
                       what_if, eq + 1, ocm ? "size in bytes (512K, 1M, 2097152)" : "clock in Hz (800M, 1G)");
          return NULL;
        }
      if (!(ocm ? zg330_profile_set_ocm_bytes (profile, (guint64) v, error)
                : zg330_profile_set_icore_clock_hz (profile, v, error)))
        return NULL;
    }
  return g_steal_pointer (&profile);
}

gboolean
zg330_sweep_figures_for_point (const XrtBoardFigures *base, const char *what_if, XrtBoardFigures *figures,
                               GError **error)
{
  g_return_val_if_fail (base != NULL && figures != NULL, FALSE);
  g_autoptr (Zg330Profile) board = zg330_profile_new_builtin ();
  g_autoptr (Zg330Profile) point = NULL;

  board->ocm_bytes = base->ocm_bytes;
  board->icore_clock_hz = base->icore_clock_hz;
  board->etm_bandwidth = base->etm_bandwidth;
  if ((point = zg330_sweep_profile_for_point (board, what_if, error)) == NULL)
    return FALSE;
  figures->ocm_bytes = point->ocm_bytes;
  figures->icore_clock_hz = point->icore_clock_hz;
  figures->etm_bandwidth = point->etm_bandwidth;
  return TRUE;
}

/* ---- rows ------------------------------------------------------------------------ */

typedef struct {
  XirNetwork         *net;
  XirNetworkView     *view;
  const char         *url;
  XrtDevice          *board;        /* the caller's open board (rows in turn on it), or NULL */
  GPtrArray          *profiles;     /* Zg330Profile* per grid point */
  ZwSweep            *sweep;        /* rows preallocated: each job writes its own */
  gboolean            keep_reports;
  guint32             seed;
  GCancellable       *cancellable;
  Zg330SweepProgress  progress;
  gpointer            progress_data;
  guint               done;         /* rows finished (atomic) */
} Run;


static gboolean
run_row (Run *run, ZwSweepRow *row, const Zg330Profile *profile, GError **error)
{
  g_autoptr (XrtDeployment) dep = xrt_deployment_new_for_view (run->view);

  if (run->board != NULL ? !xrt_deployment_use_board (dep, run->board, error)
                         : !xrt_deployment_open_board_with_profile (dep, profile, run->url, error))
    return FALSE;
  xrt_deployment_set_options (dep, row->merge_hardop, row->etm_optimize, row->ocm_requested);
  if (!xrt_deployment_apply (dep, error))
    return FALSE;
  XrtBackend *board = xrt_deployment_get_board_backend (dep);
  if (board == NULL || !ZG330_IS_BACKEND (board))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: no op runs on a ZG330 board",
                   xir_network_get_path (run->net));
      return FALSE;
    }

  g_autoptr (ZwDeployReport) r = xrt_deployment_get_report (dep);
  g_autoptr (GError) check = NULL;
  row->checked = zw_deploy_report_check (r, NULL, &check);
  if (!row->checked)
    g_warning ("sweep row %u: the plan fails the checker: %s", row->index, check->message);
  row->ocm_chosen = r->ocm_chosen;
  row->ftmp_bytes = r->ftmp_bytes;
  row->launches = r->launches->len;
  row->ocm_capacity = profile->ocm_bytes;
  row->icore_clock_hz = profile->icore_clock_hz;
  for (guint t = 0; t < ZW_N_SEGMENTS; t++)
    row->etm_bytes += r->segments[t].byte_size;
  row->ocm_bytes = zw_deploy_report_ocm_placed (r);
  row->ocm_peak = zw_deploy_report_ocm_peak (r);

  /* the inputs of a row: input k seeded with the sweep's seed + k */
  g_autoptr (GPtrArray) inputs = xrt_deployment_seeded_inputs (run->view, run->seed, error);
  if (inputs == NULL)
    return FALSE;
  XrtSession *s = xrt_deployment_get_session (dep);
  xrt_session_enable_time_profile (s, TRUE);
  g_autoptr (GPtrArray) outs = xrt_deployment_forward (dep, inputs, error);
  if (outs == NULL)
    return FALSE;
  const ZwProfile *p = xrt_session_get_time_profile (s);
  row->simulated_ms = p ? p->total_ms : 0.0;
  if (run->keep_reports)
    row->report = g_steal_pointer (&r);
  return TRUE;
}

static void
row_job (gpointer data, gpointer user_data)
{
  Run *run = user_data;
  guint index = GPOINTER_TO_UINT (data) - 1;
  ZwSweepRow *row = &g_array_index (run->sweep->rows, ZwSweepRow, index);
  g_autoptr (GError) error = NULL;

  /* a cancelled sweep skips what has not started (the caller drops the rows) */
  if (g_cancellable_set_error_if_cancelled (run->cancellable, &error))
    row->error = g_strdup (error->message);
  else if (!run_row (run, row, g_ptr_array_index (run->profiles, index / zw_sweep_get_n_combinations ()), &error))
    row->error = g_strdup (error->message);
  if (run->progress != NULL)
    run->progress ((guint) g_atomic_int_add ((gint *) &run->done, 1) + 1, run->sweep->rows->len, run->progress_data);
}

static guint
thread_count (const Zg330SweepOptions *options)
{
  const char *env = g_getenv ("ZW_SWEEP_THREADS");

  if (options && options->n_threads > 0)
    return options->n_threads;
  if (env != NULL && g_ascii_strtoull (env, NULL, 10) > 0)
    return (guint) MIN (g_ascii_strtoull (env, NULL, 10), 64);
  return MAX (g_get_num_processors (), 1);
}

ZwSweep *
zg330_sweep_run (XirNetwork *net, const char *device_url, const Zg330SweepOptions *options, GError **error)
{
  return zg330_sweep_run_full (net, device_url, options, NULL, NULL, NULL, error);
}

ZwSweep *
zg330_sweep_run_full (XirNetwork *net, const char *device_url, const Zg330SweepOptions *options,
                      GCancellable *cancellable, Zg330SweepProgress progress, gpointer progress_data, GError **error)
{
  g_return_val_if_fail (net != NULL, NULL);
  XrtDevice *board = options != NULL ? options->board : NULL;
  const char *url = board != NULL ? xrt_device_get_url (board) : device_url ? device_url : "mock://zg330";
  g_autoptr (XrtDevice) base = board != NULL ? xrt_device_ref (board) : xrt_device_open (url, error);
  if (base == NULL)
    return NULL;
  if (board != NULL && options->axes != NULL && options->axes->len > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: a sweep on a board cannot vary its figures (what-if): sweep the options alone, or the "
                   "simulated board", url);
      return NULL;
    }
  if (board == NULL && !zg330_sim_is_sim (base))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: a sweep needs a simulated board", url);
      return NULL;
    }
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, error);
  if (view == NULL)
    return NULL;

  /* the grid: the cartesian product of the axes, the first axis slowest */
  g_autoptr (GPtrArray) profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) zg330_profile_free);
  g_autoptr (ZwSweep) sweep = zw_sweep_new ();
  g_autoptr (Zg330Profile) base_profile = zg330_sim_dup_profile (base);
  GArray *axes = options ? options->axes : NULL;
  guint n_points = 1;
  for (guint a = 0; axes && a < axes->len; a++)
    n_points *= g_array_index (axes, Zg330SweepAxis, a).values->len;
  for (guint p = 0; p < n_points; p++)
    {
      g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
      Zg330Profile *prof;
      guint rest = p;
      for (guint a = axes ? axes->len : 0; a-- > 0;)
        {
          const Zg330SweepAxis *axis = &g_array_index (axes, Zg330SweepAxis, a);
          guint k = rest % axis->values->len;
          rest /= axis->values->len;
          g_ptr_array_insert (parts, 0, g_strdup_printf ("%s=%s", axis->name,
                                                         (char *) g_ptr_array_index (axis->labels, k)));
        }
      g_ptr_array_add (parts, NULL);
      g_ptr_array_add (sweep->what_if, g_strjoinv (",", (char **) parts->pdata));
      /* the board of the point from its name: a row is deployed again the same way */
      prof = zg330_sweep_profile_for_point (base_profile, g_ptr_array_index (sweep->what_if, p), error);
      if (prof == NULL)
        return NULL;
      g_ptr_array_add (profiles, prof);
    }

  sweep->network_name = g_strdup (xir_network_get_name (net));
  sweep->network_path = g_strdup (xir_network_get_path (net));
  for (guint p = 0; p < n_points; p++)
    for (int m = 1; m >= 0; m--)
      for (int e = 1; e >= 0; e--)
        for (guint o = 0; o < zw_ocm_opt_get_count (); o++)
          {
            ZwSweepRow row;
            zw_sweep_row_init (&row);
            row.index = sweep->rows->len;
            row.merge_hardop = m;
            row.etm_optimize = e;
            row.ocm_requested = row.ocm_chosen = zw_ocm_opt_get_nth (o);
            g_free (row.what_if);
            row.what_if = g_strdup (g_ptr_array_index (sweep->what_if, p));
            g_array_append_val (sweep->rows, row);
          }

  Run run = { net, view, url, board, profiles, sweep, options && options->keep_reports,
              options && options->input_seed ? options->input_seed : ZG330_SWEEP_INPUT_SEED, cancellable, progress,
              progress_data, 0 };
  /* a board runs one deployment at a time: its rows in turn */
  GThreadPool *pool = g_thread_pool_new (row_job, &run, board != NULL ? 1 : (gint) thread_count (options), TRUE,
                                         error);
  if (pool == NULL)
    return NULL;
  for (guint i = 0; i < sweep->rows->len; i++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  zw_sweep_compute_front (sweep);
  return g_steal_pointer (&sweep);
}
