/* zw-graph-search.c — the graph view's search: which ops match a text, and the next one. */
#include "zw-graph-view.h"
#include "zw-graph-view-private.h"

#include <string.h>

gboolean
zw_graph_op_matches (const ZwOpInfo *op, const char *search)
{
  g_autofree char *needle = NULL;
  char id[32];

  if (op == NULL || search == NULL || *search == '\0')
    return FALSE;
  g_snprintf (id, sizeof id, "%" G_GINT64_FORMAT, op->op_id);
  if (g_str_equal (search, id) || (search[0] == '#' && g_str_equal (search + 1, id)))
    return TRUE;
  needle = g_utf8_casefold (search, -1);
  {
    const char *fields[] = { op->name, op->op_class, op->kind };
    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      {
        g_autofree char *hay = fields[i] != NULL ? g_utf8_casefold (fields[i], -1) : NULL;
        if (hay != NULL && strstr (hay, needle) != NULL)
          return TRUE;
      }
  }
  return FALSE;
}
guint
zw_graph_search_count (const ZwDeployReport *report, const char *search)
{
  guint n = 0;

  g_return_val_if_fail (report != NULL, 0);
  for (guint i = 0; i < report->ops->len; i++)
    n += zw_graph_op_matches (&g_array_index (report->ops, ZwOpInfo, i), search);
  return n;
}

gint
zw_graph_search_next (const ZwDeployReport *report, const char *search, guint from)
{
  g_return_val_if_fail (report != NULL, -1);

  if (search == NULL || *search == '\0')
    return -1;
  for (guint k = 0; k < report->ops->len; k++)
    {
      guint i = (from + k) % report->ops->len;
      if (zw_graph_op_matches (&g_array_index (report->ops, ZwOpInfo, i), search))
        return (gint) i;
    }
  return -1;
}
