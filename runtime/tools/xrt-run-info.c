/* xrt-run info / fake-params */
#include "xrt-run-private.h"

#include "xir/xir-network.h"
#include "xir/xir-summary.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

/* 8929847 -> "8,929,847" */
static char *
format_count (double value)
{
  g_autofree char *digits = g_strdup_printf ("%.0f", value);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);
  gsize start = digits[0] == '-' ? 1 : 0;

  g_string_append_len (out, digits, (gssize) start);
  for (gsize i = start; i < len; i++)
    {
      g_string_append_c (out, digits[i]);
      if (i + 1 < len && (len - i - 1) % 3 == 0)
        g_string_append_c (out, ',');
    }
  return g_string_free (out, FALSE);
}

static double
num (const cJSON *obj, const char *key)
{
  const cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);
  return cJSON_IsNumber (item) ? item->valuedouble : 0;
}

static const char *
str (const cJSON *obj, const char *key)
{
  const cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);
  return cJSON_IsString (item) ? item->valuestring : "";
}

static gint
compare_counts (gconstpointer a, gconstpointer b)
{
  const cJSON *ia = *(const cJSON *const *) a, *ib = *(const cJSON *const *) b;

  if (ia->valuedouble != ib->valuedouble)
    return ia->valuedouble > ib->valuedouble ? -1 : 1;
  return strcmp (ia->string, ib->string);
}

/* "61 Conv2d, 13 Concat, …" sorted by count, then name. */
static char *
format_counts (const cJSON *obj)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  const cJSON *item;

  cJSON_ArrayForEach (item, obj)
    g_ptr_array_add (items, (gpointer) item);
  g_ptr_array_sort (items, compare_counts);
  for (guint i = 0; i < items->len; i++)
    {
      const cJSON *it = g_ptr_array_index (items, i);
      g_string_append_printf (out, "%s%.0f %s", i ? ", " : "", it->valuedouble, it->string);
    }
  return g_string_free (out, FALSE);
}

static void
print_values (const char *title, const cJSON *arr)
{
  const cJSON *v;

  printf ("%s\n", title);
  cJSON_ArrayForEach (v, arr)
    {
      GString *shape = g_string_new ("[");
      const cJSON *d;
      g_autofree char *bytes = format_count (num (v, "bytes"));

      cJSON_ArrayForEach (d, cJSON_GetObjectItemCaseSensitive (v, "shape"))
        g_string_append_printf (shape, "%s%.0f", d == cJSON_GetObjectItemCaseSensitive (v, "shape")->child ? "" : ",",
                                d->valuedouble);
      g_string_append_c (shape, ']');
      printf ("  v_id %-6.0f %-22s %-40s %-10s %-16s %s %s\n", num (v, "v_id"), shape->str, str (v, "dtype"),
              str (v, "layout"), str (v, "mtype"), bytes, _("bytes"));
      g_string_free (shape, TRUE);
    }
}

static void
print_targets (const cJSON *targets)
{
  g_autofree char *text = format_counts (targets);
  printf ("%-10s %s\n", _("Targets"), text);
}

/* "INPUT 0x6ff000 +901,120 · …" */
static void
print_segments (const cJSON *segments)
{
  const cJSON *seg;
  gboolean first = TRUE;

  if (cJSON_GetArraySize (segments) == 0)
    return;
  printf ("%-10s ", _("Segments"));
  cJSON_ArrayForEach (seg, segments)
    {
      g_autofree char *bytes = format_count (num (seg, "bytes"));
      printf ("%s%s 0x%" G_GINT64_MODIFIER "x +%s", first ? "" : ", ", str (seg, "name"), (guint64) num (seg, "addr"),
              bytes);
      first = FALSE;
    }
  printf ("  (%s)\n", _("given by the compiler"));
}

/* One line per custom op: its type, id, target and attributes. */
static void
print_custom_ops (const cJSON *ops)
{
  const cJSON *op;

  cJSON_ArrayForEach (op, ops)
    {
      g_autoptr (GString) line = g_string_new (NULL);
      const cJSON *attr;
      cJSON_ArrayForEach (attr, cJSON_GetObjectItemCaseSensitive (op, "attrs"))
        {
          char *v = cJSON_PrintUnformatted (attr);
          if (g_strcmp0 (attr->string, "device_info") == 0 || g_strcmp0 (attr->string, "sub_hard_ops") == 0)
            {
              cJSON_free (v);
              continue;
            }
          g_string_append_printf (line, "%s%s %s", line->len ? ", " : "", attr->string, v);
          cJSON_free (v);
        }
      printf ("%-10s %s (op %.0f, %s): %s\n", _("Custom op"), str (op, "type"), num (op, "op_id"), str (op, "target"),
              line->str);
    }
}

static void
print_summary (const cJSON *s, const char *raw_path)
{
  const cJSON *ops = cJSON_GetObjectItemCaseSensitive (s, "ops");
  const cJSON *values = cJSON_GetObjectItemCaseSensitive (s, "values");
  const cJSON *chunks = cJSON_GetObjectItemCaseSensitive (s, "chunks");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive (s, "params");
  const cJSON *placement = cJSON_GetObjectItemCaseSensitive (s, "placement");
  g_autofree char *kinds = format_counts (cJSON_GetObjectItemCaseSensitive (ops, "by_kind"));
  g_autofree char *classes = format_counts (cJSON_GetObjectItemCaseSensitive (ops, "hardop_classes"));
  g_autofree char *vbytes = format_count (num (values, "bytes"));
  g_autofree char *cbytes = format_count (num (chunks, "feature_bytes"));
  g_autofree char *pbytes = format_count (num (params, "bytes"));
  g_autofree char *iwords = format_count (num (params, "instr_words"));
  g_autofree char *pfile = format_count (num (s, "params_bytes"));
  double n_hard = num (cJSON_GetObjectItemCaseSensitive (ops, "by_kind"), "HardOp");

  printf ("%-10s %s  (%s, %s %s, icraft %s)\n", _("Network"), str (s, "name"), str (s, "ai_target"),
          str (s, "framework_kind"), str (s, "framework_version"), str (s, "icraft_version"));
  printf ("%-10s %.0f: %s\n", _("Ops"), num (ops, "total"), kinds);
  printf ("%-10s %.0f: %s  (%.0f %s)\n", _("HardOps"), n_hard, classes, num (ops, "layers"), _("layers"));
  printf ("%-10s %.0f %s, %s %s\n", _("Values"), num (values, "count"), _("feature values"), vbytes, _("bytes"));
  print_targets (cJSON_GetObjectItemCaseSensitive (s, "targets"));
  if (num (placement, "etm") + num (placement, "ocm") > 0)
    {
      /* a compiler that placed the values itself (Buyi): the addresses are in the file */
      g_autofree char *eb = format_count (num (placement, "etm_bytes"));
      g_autofree char *ob = format_count (num (placement, "ocm_bytes"));
      printf ("%-10s %s: %.0f %s ETM (%s %s), %.0f %s OCM (%s %s), %.0f %s\n", _("Placement"),
              _("addresses given by the compiler"), num (placement, "etm"), _("values in"), eb, _("bytes"),
              num (placement, "ocm"), _("values in"), ob, _("bytes"), num (placement, "host"), _("on the host"));
    }
  else
    printf ("%-10s %.0f %s (%s %s), %.0f %s\n", _("Chunks"), num (chunks, "feature"), _("feature chunks"), cbytes,
            _("bytes"), num (chunks, "params"), _("params chunks"));
  print_segments (cJSON_GetObjectItemCaseSensitive (s, "segments"));
  printf ("%-10s %.0f (%s %s), %.0f %s, %s %s\n", _("Params"), num (params, "count"), pbytes, _("bytes"),
          num (params, "instr_count"), _("instruction params"), iwords, _("instruction words"));
  printf ("%-10s %s %s, md5 %s%s%s\n", _("Raw file"), pfile, _("bytes"), *str (s, "params_md5") ? str (s, "params_md5") : "-",
          raw_path ? _(", loaded and verified from ") : "", raw_path ? raw_path : "");
  print_custom_ops (cJSON_GetObjectItemCaseSensitive (s, "custom_ops"));
  print_values (_("Inputs"), cJSON_GetObjectItemCaseSensitive (s, "inputs"));
  print_values (_("Outputs"), cJSON_GetObjectItemCaseSensitive (s, "outputs"));
}

int
xrt_run_cmd_info (int argc, char **argv)
{
  g_autofree char *raw = NULL;
  gboolean as_json = FALSE, no_md5 = FALSE;
  GOptionEntry entries[] = {
    { "raw", 'r', 0, G_OPTION_ARG_FILENAME, &raw, N_("Load and verify the params file"), N_("NET.raw") },
    { "no-md5", 0, 0, G_OPTION_ARG_NONE, &no_md5,
      N_("Do not check params_md5 (for synthetic params made by fake-params)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_("Print the summary as JSON"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("NET.json — show a network"));
  g_autoptr (XirNetwork) net = NULL;
  GError *error = NULL;
  cJSON *summary;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2)
    {
      g_printerr ("xrt-run info: %s\n", _("expected exactly one NET.json"));
      return XRT_RUN_EXIT_USAGE;
    }
  net = xir_network_new_from_json_file (argv[1], &error);
  if (net == NULL)
    return xrt_run_fail (error);
  if (raw != NULL && !xir_network_load_params_from_file_full (net, raw, no_md5 ? XIR_LOAD_NO_MD5 : XIR_LOAD_DEFAULT, &error))
    return xrt_run_fail (error);
  summary = xir_network_summarize (net);
  if (as_json)
    {
      char *text = cJSON_Print (summary);
      printf ("%s\n", text);
      cJSON_free (text);
    }
  else
    print_summary (summary, raw);
  cJSON_Delete (summary);
  return XRT_RUN_EXIT_OK;
}

int
xrt_run_cmd_fake_params (int argc, char **argv)
{
  g_autofree char *out = NULL;
  gint64 seed = 330;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("Where to write the .raw"), N_("NET.raw") },
    { "seed", 's', 0, G_OPTION_ARG_INT64, &seed, N_("Seed of the synthetic data (default 330)"), N_("S") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("NET.json -o NET.raw — write synthetic params"));
  g_autoptr (XirNetwork) net = NULL;
  GError *error = NULL;
  guint64 size;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (ctx, _("The data is deterministic for a seed: int8 weights in [-30, 30], "
                                           "fp16 bias in [-0.1, 0.1], opaque uint64 instruction words "
                                           "(splitmix64 per v_id; see runtime/xir/xir-raw.c)."));
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2 || out == NULL)
    {
      g_printerr ("xrt-run fake-params: %s\n", _("expected NET.json and -o NET.raw"));
      return XRT_RUN_EXIT_USAGE;
    }
  net = xir_network_new_from_json_file (argv[1], &error);
  if (net == NULL)
    return xrt_run_fail (error);
  xir_network_fake_params (net, (guint64) seed);
  if (!xir_network_write_params_file (net, out, &error))
    return xrt_run_fail (error);
  size = xir_network_compute_params_bytes (net);
  printf (ngettext ("Wrote %s: %llu bytes (%u param, seed %lld)\n", "Wrote %s: %llu bytes (%u params, seed %lld)\n",
                    xir_network_get_params (net)->len),
          out, (unsigned long long) size, xir_network_get_params (net)->len, (long long) seed);
  if (xir_network_get_params_bytes (net) != 0 && xir_network_get_params_bytes (net) != size)
    g_printerr (_("xrt-run: warning: the network's params_bytes is %llu but its params need %llu bytes\n"),
                (unsigned long long) xir_network_get_params_bytes (net), (unsigned long long) size);
  return XRT_RUN_EXIT_OK;
}
