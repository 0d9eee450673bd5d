/* zw-profile-plan.c — a bare time profile checked against a network's deploy report and its
 * merged launches given their members from the report's merge plan. */
#include "report/zw-profile-plan.h"

#include <glib/gi18n.h>
#include <string.h>

/* "icraft::xir::HardOpNode" -> "HardOp", "customop::DetPostZG" -> "DetPostZG" (length in @len) */
static const char *
kind_stem (const char *type, gsize *len)
{
  const char *s = type != NULL ? type : "", *colon = strrchr (s, ':');

  if (colon != NULL)
    s = colon + 1;
  *len = strlen (s);
  if (*len > 4 && g_str_has_suffix (s, "Node"))
    *len -= 4;
  return s;
}

static gboolean
same_kind (const char *profile_type, const char *report_kind)
{
  gsize la, lb;
  const char *a = kind_stem (profile_type, &la), *b = kind_stem (report_kind, &lb);

  return la == lb && strncmp (a, b, la) == 0;
}

static const ZwOpInfo *
find_op (const ZwDeployReport *report, gint64 op_id)
{
  for (guint i = 0; i < report->ops->len; i++)
    {
      const ZwOpInfo *o = &g_array_index (report->ops, ZwOpInfo, i);
      if (o->op_id == op_id)
        return o;
    }
  return NULL;
}

/* The merged launch (two ops or more) of @report's plan with op id @op_id, NULL */
static const ZwLaunch *
find_merged_launch (const ZwDeployReport *report, gint64 op_id)
{
  for (guint i = 0; i < report->launches->len; i++)
    {
      const ZwLaunch *l = &g_array_index (report->launches, ZwLaunch, i);
      if (l->op_id == op_id && l->merge_from != NULL && l->merge_from->len > 1)
        return l;
    }
  return NULL;
}

static gboolean
same_members (const GArray *a, const GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, sizeof (gint64) * a->len) == 0;
}

gboolean
zw_profile_row_belongs (const ZwProfileRow *row, const ZwDeployReport *report)
{
  const ZwOpInfo *op;
  const ZwLaunch *launch;

  g_return_val_if_fail (row != NULL && report != NULL, FALSE);
  if (row->merge_from->len <= 1 && (op = find_op (report, row->op_id)) != NULL)
    return same_kind (row->op_type, op->kind);
  launch = find_merged_launch (report, row->op_id);
  return launch != NULL && same_kind (row->op_type, "HardOp")
         && (row->merge_from->len == 0 || same_members (row->merge_from, launch->merge_from));
}

ZwProfile *
zw_profile_map_to_plan (const ZwProfile *profile, const ZwDeployReport *report, GError **error)
{
  ZwProfile *copy;
  const char *net;

  g_return_val_if_fail (profile != NULL && report != NULL, NULL);
  net = report->network_name != NULL ? report->network_name : "?";
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      const ZwOpInfo *op;

      if (zw_profile_row_belongs (r, report))
        continue;
      op = find_op (report, r->op_id);
      if (op != NULL && r->merge_from->len <= 1)
        g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                     _("op %li is a %s in the time profile but a %s in network %s"), r->op_id,
                     r->op_type, op->kind, net);
      else if (!report->merge_hardop)
        g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                     _("op %li (%s) of the time profile is not an op of network %s, and its plan "
                       "has merge off (no merged launches)"), r->op_id, r->op_type, net);
      else
        g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                     _("op %li (%s) of the time profile is neither an op of network %s nor a "
                       "merged launch of its merge plan"), r->op_id, r->op_type, net);
      return NULL;
    }
  copy = zw_profile_copy (profile);
  for (guint i = 0; i < copy->rows->len; i++)
    {
      ZwProfileRow *r = g_ptr_array_index (copy->rows, i);
      const ZwLaunch *launch;

      if (r->merge_from->len == 0 && find_op (report, r->op_id) == NULL
          && (launch = find_merged_launch (report, r->op_id)) != NULL)
        g_array_append_vals (r->merge_from, launch->merge_from->data, launch->merge_from->len);
    }
  return copy;
}

/* every row of @p that does not belong to @report is a hardop numbered past the network's
 * ops, as the ZG330 backend numbers merged launches; *any set when one does not belong */
static gboolean
only_launches_missing (const ZwProfile *p, const ZwDeployReport *report, gboolean *any)
{
  for (guint i = 0; p != NULL && i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);

      if (zw_profile_row_belongs (r, report))
        continue;
      if (r->op_id <= report->max_op_id || find_op (report, r->op_id) != NULL || !same_kind (r->op_type, "HardOp"))
        return FALSE;
      *any = TRUE;
    }
  return TRUE;
}

gboolean
zw_profile_wants_merge_on_plan (const ZwProfile *a, const ZwProfile *b, const ZwDeployReport *report)
{
  gboolean any = FALSE;

  g_return_val_if_fail (report != NULL, FALSE);
  return !report->merge_hardop && only_launches_missing (a, report, &any) && only_launches_missing (b, report, &any)
         && any;
}
