/* xrt-merge-on-plan.c — a network planned again with merge on (plan only) for bare time
 * files of a merge-on run to map through, and the network JSON a deploy report names. */
#include "deploy/xrt-merge-on-plan.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "deploy/xrt-deployment.h"
#include "xir/xir-network.h"

char *
xrt_merge_on_plan_find_network (const ZwDeployReport *report, const char *report_path, GError **error)
{
  g_autofree char *dir = NULL, *beside = NULL, *base = NULL, *in_dir = NULL;
  const char *named;

  g_return_val_if_fail (report != NULL, NULL);
  named = report->network_path;
  if (named == NULL || *named == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("the deploy report %s names no network file: network %s cannot be planned again with merge on"),
                   report_path != NULL ? report_path : "-", report->network_name != NULL ? report->network_name : "?");
      return NULL;
    }
  if (g_file_test (named, G_FILE_TEST_IS_REGULAR))
    return g_strdup (named);
  if (report_path != NULL)
    {
      dir = g_path_get_dirname (report_path);
      base = g_path_get_basename (named);
      if (!g_path_is_absolute (named))
        {
          beside = g_build_filename (dir, named, NULL);
          if (g_file_test (beside, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer (&beside);
        }
      in_dir = g_build_filename (dir, base, NULL);
      if (g_file_test (in_dir, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&in_dir);
    }
  /* TRANSLATORS: the report file, the network path it names, the folder also looked in */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("the deploy report %s names network file %s, which is not found (looked in the working folder and "
                 "in %s): network %s cannot be planned again with merge on without its JSON"),
               report_path != NULL ? report_path : "-", named, dir != NULL ? dir : ".",
               report->network_name != NULL ? report->network_name : "?");
  return NULL;
}

ZwDeployReport *
xrt_merge_on_plan (const char *network_path, const ZwDeployReport *report, GError **error)
{
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (XrtDeployment) dep = NULL;
  g_autoptr (ZwDeployReport) plan = NULL;

  g_return_val_if_fail (network_path != NULL && report != NULL, NULL);
  if ((net = xir_network_new_from_json_file (network_path, error)) == NULL)
    return NULL;
  if ((g_strcmp0 (xir_network_get_name (net), report->network_name) != 0
          || xir_network_get_n_ops (net) != report->n_ops || xir_network_get_max_op_id (net) != report->max_op_id))
    {
      /* TRANSLATORS: the file, its network's name and op count, then the report's */
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                   _("%s is network %s of %u ops (largest op id %li), not the network of the deploy report, %s of %u "
                     "ops (largest op id %li)"), network_path, xir_network_get_name (net),
                   xir_network_get_n_ops (net), (long) xir_network_get_max_op_id (net),
                   report->network_name != NULL ? report->network_name : "?", report->n_ops, (long) report->max_op_id);
      return NULL;
    }
  if ((dep = xrt_deployment_new (net, error)) == NULL || !xrt_deployment_open_simulated_board (dep, NULL, error))
    return NULL;
  xrt_deployment_set_options (dep, TRUE, report->etm_optimize, report->ocm_requested);
  if ((plan = xrt_deployment_plan (dep, error)) == NULL)
    return NULL;
  if (!plan->merge_hardop)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                   _("network %s (%s) was planned with merge off although merge on was asked"),
                   plan->network_name != NULL ? plan->network_name : "?", network_path);
      return NULL;
    }
  return g_steal_pointer (&plan);
}
