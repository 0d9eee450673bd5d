/* xrt-pipeline-compose.c — a pipeline file for networks opened together (issue 38): the
 * networks in the given order, no shares, consecutive networks connected by position when
 * one's outputs are the next one's inputs by shape (see xrt_pipeline_compose()). */
#include "deploy/xrt-pipeline.h"

#include <glib/gi18n.h>
#include <string.h>

#include "xir/xir-network.h"

/* The network's name in the file: its file name without _ZG.json / .json, letters, digits,
 * '_' and '-' only, unique among @taken. */
static char *
network_name (const char *path, GHashTable *taken)
{
  g_autofree char *base = g_path_get_basename (path);
  static const char *const suffixes[] = { "_ZG.json", "_BY.json", ".json" };
  g_autofree char *name = NULL;
  char *unique;

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (base, suffixes[i]) && strlen (base) > strlen (suffixes[i]))
      {
        base[strlen (base) - strlen (suffixes[i])] = '\0';
        break;
      }
  for (char *p = base; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      *p = '_';
  name = g_strdup (base[0] != '\0' ? base : "network");
  unique = g_strdup (name);
  for (guint k = 2; g_hash_table_contains (taken, unique); k++)
    {
      g_free (unique);
      unique = g_strdup_printf ("%s_%u", name, k);
    }
  g_hash_table_add (taken, unique);
  return g_strdup (unique);
}

/* A TOML basic string. */
static void
append_string (GString *s, const char *text)
{
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static gboolean
same_value_shape (const XirValue *a, const XirValue *b)
{
  return a->rank == b->rank && a->storage_bytes == b->storage_bytes
         && memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) == 0;
}

/* Every output of @from is the input of @to at its place, by shape and bytes. */
static gboolean
outputs_feed_inputs (XirNetworkView *from, XirNetworkView *to)
{
  GPtrArray *outs = xir_network_view_get_outputs (from), *ins = xir_network_view_get_inputs (to);

  if (outs->len == 0 || outs->len != ins->len)
    return FALSE;
  for (guint k = 0; k < outs->len; k++)
    if (!same_value_shape (g_ptr_array_index (outs, k), g_ptr_array_index (ins, k)))
      return FALSE;
  return TRUE;
}

char *
xrt_pipeline_compose (const char *const *json_paths, const char *name, GError **error)
{
  g_autoptr (GPtrArray) views = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_network_view_unref);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) s = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (json_paths != NULL, NULL);
  n = g_strv_length ((char **) json_paths);
  if (n == 0)
    {
      g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_REFERENCE, _("a pipeline needs at least one network"));
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json_paths[i], error);
      XirNetworkView *view;
      if (net == NULL || (view = xir_network_view (net, 0, G_MAXINT, error)) == NULL)
        return NULL;
      g_ptr_array_add (views, view);
      g_ptr_array_add (names, network_name (json_paths[i], taken));
    }
  g_string_append (s, "# Made by Zhuge Workbench from networks opened together: the networks in the order\n"
                      "# given, no shared segments; consecutive networks are connected by position when one's\n"
                      "# outputs are the next one's inputs by shape. The format: DESIGN.md, xrt-pipeline.h.\n\n"
                      "[pipeline]\nname = ");
  if (name != NULL)
    append_string (s, name);
  else
    {
      /* the networks' names joined: "tiny+mobilenetv2" */
      g_autoptr (GString) joined = g_string_new (NULL);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (joined, "%s%s", i ? "+" : "", (const char *) g_ptr_array_index (names, i));
      append_string (s, joined->str);
    }
  g_string_append_c (s, '\n');
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (json_paths[i]);
      g_autofree char *abs = g_file_get_path (file);
      g_string_append_printf (s, "\n[network.%s]\njson = ", (const char *) g_ptr_array_index (names, i));
      append_string (s, abs);
      g_string_append_c (s, '\n');
    }
  for (guint i = 0; i + 1 < n; i++)
    {
      XirNetworkView *from = g_ptr_array_index (views, i), *to = g_ptr_array_index (views, i + 1);
      const char *a = g_ptr_array_index (names, i), *b = g_ptr_array_index (names, i + 1);
      if (!outputs_feed_inputs (from, to))
        continue;
      for (guint k = 0; k < xir_network_view_get_outputs (from)->len; k++)
        g_string_append_printf (s, "\n[connect.%s_to_%s_%u]\nfrom = \"%s\"\noutput = %u\nto = \"%s\"\ninput = %u\n", a, b,
                                k, a, k, b, k);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}
