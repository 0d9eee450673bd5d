/* xrt-deployment.c — one deployment of a network on a board (see the header). */
#include "deploy/xrt-deployment-private.h"

#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-sim.h"
#include "report/zw-deploy-graph.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (xrt-deployment-error-quark, xrt_deployment_error)

G_DEFINE_BOXED_TYPE (XrtBoardFigures, xrt_board_figures, xrt_board_figures_copy, xrt_board_figures_free)

struct _XrtDeployment
{
  GObject parent_instance;

  XirNetworkView *view;
  XrtDevice *device;
  XrtBackend *planner;      /* the board backend alone (plan) */
  XrtSession *session;      /* (prepare, apply) */
  gboolean applied;

  /* the options, passed to the board backend when it is made, in this order */
  gboolean set_all;         /* set_options: the three below at once */
  gboolean merge_hardop;
  gboolean etm_optimize;
  ZwOcmOpt ocm;
  gboolean no_merge;        /* disableMergeHardOp */
  gboolean no_etm;          /* disableEtmOptimize */
  gboolean ocm_given;       /* ocmOptimize */
  gboolean limits_given;
  guint64 work_budget;
  double time_limit_s;
};

G_DEFINE_FINAL_TYPE (XrtDeployment, xrt_deployment, G_TYPE_OBJECT)

XrtBoardFigures *
xrt_board_figures_copy (const XrtBoardFigures *figures)
{
  g_return_val_if_fail (figures != NULL, NULL);
  return g_memdup2 (figures, sizeof *figures);
}

void
xrt_board_figures_free (XrtBoardFigures *figures)
{
  g_free (figures);
}

static void
figures_of (const Zg330Profile *profile, XrtBoardFigures *figures)
{
  figures->ocm_bytes = profile->ocm_bytes;
  figures->icore_clock_hz = profile->icore_clock_hz;
  figures->etm_bandwidth = profile->etm_bandwidth;
}

gboolean
xrt_board_figures_get_default (XrtBoardFigures *figures, GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (figures != NULL, FALSE);
  if ((profile = zg330_profile_load_default (error)) == NULL)
    {
      profile = zg330_profile_new_builtin ();
      ok = FALSE;
    }
  figures_of (profile, figures);
  return ok;
}

static void
xrt_deployment_finalize (GObject *object)
{
  XrtDeployment *self = XRT_DEPLOYMENT (object);

  g_clear_pointer (&self->session, xrt_session_unref);
  g_clear_object (&self->planner);
  g_clear_pointer (&self->device, xrt_device_unref);
  g_clear_pointer (&self->view, xir_network_view_unref);
  G_OBJECT_CLASS (xrt_deployment_parent_class)->finalize (object);
}

static void
xrt_deployment_class_init (XrtDeploymentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrt_deployment_finalize;
}

static void
xrt_deployment_init (XrtDeployment *self)
{
  self->ocm = ZW_OCM_BEST_SCORE;
}

XrtDeployment *
xrt_deployment_new_for_view (XirNetworkView *view)
{
  XrtDeployment *self;

  g_return_val_if_fail (view != NULL, NULL);
  self = g_object_new (XRT_TYPE_DEPLOYMENT, NULL);
  self->view = xir_network_view_ref (view);
  return self;
}

XrtDeployment *
xrt_deployment_new (XirNetwork *net, GError **error)
{
  g_autoptr (XirNetworkView) view = NULL;

  g_return_val_if_fail (net != NULL, NULL);
  if ((view = xir_network_view (net, 0, G_MAXINT, error)) == NULL)
    return NULL;
  return xrt_deployment_new_for_view (view);
}

XirNetwork *
xrt_deployment_get_network (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return xir_network_view_get_network (self->view);
}

XirNetworkView *
xrt_deployment_get_view (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return self->view;
}

/* ---- params -------------------------------------------------------------------------- */

char *
xrt_deployment_params_path_for (const char *json_path)
{
  g_return_val_if_fail (json_path != NULL, NULL);
  if (g_str_has_suffix (json_path, ".json"))
    return g_strdup_printf ("%.*s.raw", (int) (strlen (json_path) - 5), json_path);
  return g_strconcat (json_path, ".raw", NULL);
}

gboolean
xrt_deployment_load_params (XrtDeployment *self, const char *raw_path, XirLoadFlags flags, gboolean lazy,
                            GError **error)
{
  XirNetwork *net;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  g_return_val_if_fail (raw_path != NULL, FALSE);
  net = xrt_deployment_get_network (self);
  return lazy ? xir_network_lazy_load_params_from_file (net, raw_path, error)
              : xir_network_load_params_from_file_full (net, raw_path, flags, error);
}

void
xrt_deployment_use_synthetic_params (XrtDeployment *self)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  xir_network_fake_params (xrt_deployment_get_network (self), XRT_DEPLOYMENT_SYNTHETIC_SEED);
}

char *
xrt_deployment_describe_params (XrtDeployment *self)
{
  XirNetwork *net;
  guint64 seed;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  net = xrt_deployment_get_network (self);
  if (xir_network_get_params_path (net) != NULL)
    return g_strdup (xir_network_get_params_path (net));
  if (xir_network_get_params_seed (net, &seed))
    return g_strdup_printf ("synthetic params (seed %" G_GUINT64_FORMAT ")", seed);
  return g_strdup ("no params");
}

/* ---- the board ----------------------------------------------------------------------- */

const char *
xrt_deployment_get_target_url (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return xrt_backend_default_device_for_view (self->view);
}

/* The ZG330-family class of the compile target, or NULL (none, or another kind). */
static Zg330BackendClass *
target_class (XrtDeployment *self)
{
  GType type = xrt_backend_find_for_view (self->view);

  gpointer klass;

  if (type == G_TYPE_INVALID || !g_type_is_a (type, ZG330_TYPE_BACKEND))
    return NULL;
  /* a registered class stays alive: the registry holds it */
  klass = g_type_class_ref (type);
  g_type_class_unref (klass);
  return klass;
}

gboolean
xrt_deployment_targets_simulated_board (XrtDeployment *self)
{
  const char *url;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  url = xrt_deployment_get_target_url (self);
  return url != NULL && g_str_has_prefix (url, "mock://");
}

gboolean
xrt_deployment_is_compiler_placed (XrtDeployment *self)
{
  Zg330BackendClass *klass;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  klass = target_class (self);
  return klass != NULL && klass->compiler_placed;
}

static gboolean
check_no_board_yet (XrtDeployment *self, GError **error)
{
  if (self->device == NULL)
    return TRUE;
  g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER, "%s: the deployment has a board already (%s)",
               xir_network_get_path (xrt_deployment_get_network (self)), xrt_device_get_url (self->device));
  return FALSE;
}

gboolean
xrt_deployment_open_board (XrtDeployment *self, const char *url, GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  if (!check_no_board_yet (self, error))
    return FALSE;
  if (url == NULL)
    url = xrt_deployment_get_target_url (self);
  self->device = xrt_device_open (url != NULL ? url : "mock://zg330", error);
  return self->device != NULL;
}

gboolean
xrt_deployment_use_board (XrtDeployment *self, XrtDevice *device, GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  g_return_val_if_fail (device != NULL, FALSE);
  if (!check_no_board_yet (self, error))
    return FALSE;
  self->device = xrt_device_ref (device);
  return TRUE;
}

/* The panel edits MHz and GB/s: a value that round-trips to the profile's is unchanged. */
static gboolean
differs (double a, double b)
{
  return fabs (a - b) > 1e-9 * fabs (b);
}

gboolean
xrt_deployment_open_simulated_board (XrtDeployment *self, const XrtBoardFigures *figures, GError **error)
{
  g_autoptr (Zg330Profile) profile = NULL;
  const char *url;
  const char *chip;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  if (!check_no_board_yet (self, error))
    return FALSE;
  if (!xrt_deployment_targets_simulated_board (self))
    {
      g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_NO_BOARD,
                   "%s: the network has no HardOp for a board this build simulates (ZG330, Buyi)",
                   xir_network_get_path (xrt_deployment_get_network (self)));
      return FALSE;
    }
  url = xrt_deployment_get_target_url (self);
  chip = url + strlen ("mock://");
  if (strcmp (chip, "zg330") == 0)
    {
      /* the default profile, or the built-in one when its file is bad (the workbench
       * warned when it read the default figures) */
      if ((profile = zg330_profile_load_default (NULL)) == NULL)
        profile = zg330_profile_new_builtin ();
    }
  else if ((profile = zg330_profile_load_named (chip, error)) == NULL)
    return FALSE;
  if (figures != NULL)
    {
      if (profile->ocm_bytes != figures->ocm_bytes && !zg330_profile_set_ocm_bytes (profile, figures->ocm_bytes, error))
        return FALSE;
      if (differs (figures->icore_clock_hz, profile->icore_clock_hz)
          && !zg330_profile_set_icore_clock_hz (profile, figures->icore_clock_hz, error))
        return FALSE;
      if (differs (figures->etm_bandwidth, profile->etm_bandwidth)
          && !zg330_profile_set_etm_bandwidth (profile, figures->etm_bandwidth, error))
        return FALSE;
    }
  self->device = zg330_sim_open (profile, url, error);
  return self->device != NULL;
}

gboolean
xrt_deployment_open_board_with_profile (XrtDeployment *self, const Zg330Profile *profile, const char *url,
                                        GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  g_return_val_if_fail (profile != NULL && url != NULL, FALSE);
  if (!check_no_board_yet (self, error))
    return FALSE;
  self->device = zg330_sim_open (profile, url, error);
  return self->device != NULL;
}

XrtDevice *
xrt_deployment_get_device (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return self->device;
}

/* ---- options ------------------------------------------------------------------------- */

void
xrt_deployment_disable_merge_hardop (XrtDeployment *self)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  self->no_merge = TRUE;
}

void
xrt_deployment_disable_etm_optimize (XrtDeployment *self)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  self->no_etm = TRUE;
}

void
xrt_deployment_ocm_optimize (XrtDeployment *self, ZwOcmOpt option)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  self->ocm_given = TRUE;
  self->ocm = option;
}

void
xrt_deployment_set_options (XrtDeployment *self, gboolean merge_hardop, gboolean etm_optimize, ZwOcmOpt ocm)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  self->set_all = TRUE;
  self->merge_hardop = merge_hardop;
  self->etm_optimize = etm_optimize;
  self->ocm = ocm;
}

void
xrt_deployment_set_plan_limits (XrtDeployment *self, guint64 work_budget, double time_limit_s)
{
  g_return_if_fail (XRT_IS_DEPLOYMENT (self));
  self->limits_given = TRUE;
  self->work_budget = work_budget;
  self->time_limit_s = time_limit_s;
}

/* The options given, to the board backend just made (a backend of another family takes
 * none: only the ZG330 family has them). */
static gboolean
pass_options (XrtDeployment *self, XrtBackend *board, GError **error)
{
  Zg330Backend *zg;

  if (board == NULL || !ZG330_IS_BACKEND (board))
    return TRUE;
  zg = ZG330_BACKEND (board);
  if (self->set_all)
    {
      if (!zg330_backend_set_options (zg, self->merge_hardop, self->etm_optimize, self->ocm, error))
        return FALSE;
    }
  else if ((self->no_merge && !zg330_backend_disable_merge_hardop (zg, error))
           || (self->no_etm && !zg330_backend_disable_etm_optimize (zg, error))
           || (self->ocm_given && !zg330_backend_ocm_optimize (zg, self->ocm, error)))
    return FALSE;
  return !self->limits_given || zg330_backend_set_plan_limits (zg, self->work_budget, self->time_limit_s, error);
}

/* ---- plan, apply, forward ------------------------------------------------------------ */

static gboolean
check_fresh (XrtDeployment *self, GError **error)
{
  const char *why = self->device == NULL ? "no board is open"
                    : self->planner != NULL || self->session != NULL ? "it planned or applied already" : NULL;

  if (why == NULL)
    return TRUE;
  g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER, "%s: cannot deploy: %s",
               xir_network_get_path (xrt_deployment_get_network (self)), why);
  return FALSE;
}

ZwDeployReport *
xrt_deployment_plan (XrtDeployment *self, GError **error)
{
  g_autoptr (XrtBackend) board = NULL;
  GType type;
  GError *local = NULL;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  if (!check_fresh (self, error))
    return NULL;
  type = xrt_backend_find_for_view (self->view);
  if (type == G_TYPE_INVALID || !g_type_is_a (type, ZG330_TYPE_BACKEND))
    {
      g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_NO_BOARD,
                   "%s: no op of the network runs on a board backend of this build: nothing to plan",
                   xir_network_get_path (xrt_deployment_get_network (self)));
      return NULL;
    }
  if ((board = xrt_backend_new_of_type (type, self->view, self->device, error)) == NULL
      || !pass_options (self, board, error))
    return NULL;
  /* the plan is made on demand: asking for the FTMP size makes it */
  if (zg330_backend_get_logic_segment_size (ZG330_BACKEND (board), ZW_SEGMENT_FTMP, &local) == 0 && local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  self->planner = g_steal_pointer (&board);
  return xrt_deployment_get_report (self);
}

gboolean
xrt_deployment_prepare (XrtDeployment *self, GError **error)
{
  g_autoptr (XrtSession) session = NULL;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  if (!check_fresh (self, error))
    return FALSE;
  if ((session = xrt_session_new_for_device (self->view, self->device, error)) == NULL
      || !pass_options (self, xrt_session_get_board_backend (session), error))
    return FALSE;
  self->session = g_steal_pointer (&session);
  return TRUE;
}

gboolean
xrt_deployment_apply (XrtDeployment *self, GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), FALSE);
  if (self->session == NULL && !xrt_deployment_prepare (self, error))
    return FALSE;
  if (self->applied)
    {
      g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER, "%s: applied already",
                   xir_network_get_path (xrt_deployment_get_network (self)));
      return FALSE;
    }
  if (!xrt_session_apply (self->session, error))
    return FALSE;
  self->applied = TRUE;
  return TRUE;
}

XrtSession *
xrt_deployment_get_session (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return self->session;
}

XrtBackend *
xrt_deployment_get_board_backend (XrtDeployment *self)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  if (self->session != NULL)
    return xrt_session_get_board_backend (self->session);
  return self->planner;
}

ZwDeployReport *
xrt_deployment_get_report (XrtDeployment *self)
{
  XrtBackend *board;
  ZwDeployReport *report;

  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  if ((board = xrt_deployment_get_board_backend (self)) == NULL || (report = xrt_backend_get_report (board)) == NULL)
    return NULL;
  /* the backend's plan knows placements, not the graph: the network gives the edges */
  zw_deploy_report_attach_network (report, xrt_deployment_get_network (self));
  return report;
}

guint32
xrt_deployment_input_seed (guint iteration)
{
  return XRT_DEPLOYMENT_INPUT_SEED + iteration * 31;
}

GPtrArray *
xrt_deployment_seeded_inputs (XirNetworkView *view, guint32 first_seed, GError **error)
{
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values;
  XirNetwork *net;

  g_return_val_if_fail (view != NULL, NULL);
  values = xir_network_view_get_inputs (view);
  net = xir_network_view_get_network (view);
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autoptr (GRand) rand = g_rand_new_with_seed (first_seed + k);
      g_autofree guint8 *bytes = g_malloc (MAX (v->storage_bytes, 1));
      XrtTensor *t;

      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      if ((t = xrt_tensor_new_host (net, v, bytes, v->storage_bytes, error)) == NULL)
        return NULL;
      g_ptr_array_add (inputs, t);
    }
  return g_steal_pointer (&inputs);
}

GPtrArray *
xrt_deployment_make_inputs (XrtDeployment *self, guint iteration, GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  return xrt_deployment_seeded_inputs (self->view, xrt_deployment_input_seed (iteration), error);
}

GPtrArray *
xrt_deployment_forward (XrtDeployment *self, GPtrArray *inputs, GError **error)
{
  g_return_val_if_fail (XRT_IS_DEPLOYMENT (self), NULL);
  if (!self->applied)
    {
      g_set_error (error, XRT_DEPLOYMENT_ERROR, XRT_DEPLOYMENT_ERROR_CALL_ORDER, "%s: forward before apply",
                   xir_network_get_path (xrt_deployment_get_network (self)));
      return NULL;
    }
  return xrt_session_forward (self->session, inputs, error);
}
