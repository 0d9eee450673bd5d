/* xrt-run-report-tensors.c — `xrt-run report diff` and `xrt-run report stats`: dumped tensors
 * without a display (see xrt-run-report.c for the subcommands' synopsis):
 *
 *   xrt-run report diff DIR_A DIR_B [--net NET.json] [--format SFB] [--threshold T] [--cosine T]
 *                       [--json OUT] [--all]
 *   xrt-run report stats DIR|FILE.ftmp [--net NET.json] [--v-id N] [--format SFB] [--bins N]
 *                       [--at n,c,h,w] [--channel C --heatmap-csv OUT] [--channels]
 *
 * diff exits 0 when no value diverges and 1 when one does (or an input is bad: then the
 * message says which file). */
#include "xrt-run-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "report/zw-dump-diff.h"
#include "report/zw-tensor-stats.h"

#include <cjson/cJSON.h>
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- diff ------------------------------------------------------------------------------ */

static void
print_coords (const gint64 c[4])
{
  printf ("(n=%" G_GINT64_FORMAT ", c=%" G_GINT64_FORMAT ", h=%" G_GINT64_FORMAT ", w=%" G_GINT64_FORMAT ")", c[0],
          c[1], c[2], c[3]);
}

int
xrt_run_report_diff (int argc, char **argv)
{
  g_autofree char *net_path = NULL, *format = NULL, *json_out = NULL;
  double threshold = 0.0, cosine = 1e-4;
  gboolean all = FALSE;
  GOptionEntry entries[] = {
    { "net", 'n', 0, G_OPTION_ARG_FILENAME, &net_path, N_("The network JSON: types bare dumps, checks and orders values"), N_("NET.json") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("Dump format of folders without a manifest (default: from the folder name, e.g. ftmpSFB)"), N_("SFB") },
    { "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &threshold, N_("Diverges when the max abs error > T (default 0)"), N_("T") },
    { "cosine", 0, 0, G_OPTION_ARG_DOUBLE, &cosine, N_("… or when the cosine similarity < 1 - T (default 1e-4)"), N_("T") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_out, N_("Also write the result as JSON"), N_("OUT") },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("List every value, not only those that differ"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("DIR_A DIR_B — compare two dump folders and find the first "
                                                           "value that diverges"));
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwDumpDiff) d = NULL;
  ZwDumpDiffOptions opt;
  GError *error = NULL;
  guint listed = 0;
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 3)
    return xrt_run_report_usage ("diff", _("expected two dump folders DIR_A and DIR_B"));
  if ((rc = xrt_run_check_number ("report diff", "threshold", threshold, 0, G_MAXDOUBLE)) != 0
      || (rc = xrt_run_check_number ("report diff", "cosine", cosine, 0, G_MAXDOUBLE)) != 0)
    return rc;
  if (net_path && !(net = xir_network_new_from_json_file (net_path, &error)))
    return xrt_run_fail (error);
  opt.max_abs = threshold;
  opt.cosine = cosine;
  d = zw_dump_diff_folders (argv[1], argv[2], net, format, &opt, &error);
  if (!d)
    return xrt_run_fail (error);
  xrt_run_print_warnings (d->warnings);

  printf ("A: %s\nB: %s\n", argv[1], argv[2]);
  if (d->first)
    {
      const ZwDumpDiffEntry *e = d->first;
      printf (_("First divergent value: v_id %li (op %li)"), e->v_id, e->op_id);
      printf (_(" at "));
      print_coords (e->first_coords);
      printf (": A %.9g, B %.9g", e->first_a, e->first_b);
      if (e->first_has_q)
        printf (" (q %" G_GINT64_FORMAT " vs %" G_GINT64_FORMAT ")", e->first_qa, e->first_qb);
      printf (_("; max abs error %.6g, cosine %.9f, elements differing: %lu of %lu\n"),
              e->max_abs_err, e->cosine, e->n_differ, e->n_compared);
    }
  else
    printf (_("No value diverges (max abs error > %g or cosine < 1 - %g).\n"), threshold, cosine);

  printf ("\n%10s %8s  %-20s %12s %14s %12s  %s\n", _("v_id"), _("op_id"), _("shape n,c,h,w"), _("differ"),
          _("max abs err"), _("cosine"), "");
  for (guint i = 0; i < d->entries->len; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
      g_autofree char *shape = g_strdup_printf ("%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
                                                G_GINT64_FORMAT, e->shape[0], e->shape[1], e->shape[2], e->shape[3]);

      if (!all && e->status == ZW_DUMP_DIFF_COMPARED && e->n_differ == 0)
        continue;
      listed++;
      if (e->status != ZW_DUMP_DIFF_COMPARED)
        {
          printf ("%10" G_GINT64_FORMAT " %8" G_GINT64_FORMAT "  %-20s %12s %14s %12s  %s\n", e->v_id, e->op_id, shape,
                  "-", "-", "-",
                  e->status == ZW_DUMP_DIFF_ONLY_A ? _("only in A")
                  : e->status == ZW_DUMP_DIFF_ONLY_B ? _("only in B") : _("shape mismatch"));
          continue;
        }
      printf ("%10" G_GINT64_FORMAT " %8" G_GINT64_FORMAT "  %-20s %12" G_GUINT64_FORMAT " %14.6g %12.9f  %s\n",
              e->v_id, e->op_id, shape, e->n_differ, e->max_abs_err, e->cosine,
              e == d->first ? _("<- FIRST DIVERGENT") : e->diverges ? _("diverges") : "");
    }
  if (listed == 0)
    printf ("%s\n", _("(every compared value is identical)"));
  /* TRANSLATORS: counts after colons (no plurals to agree with any of them) */
  printf (_("\nvalues compared: %u, diverging: %u, only in A: %u, only in B: %u, shape mismatches: %u, warnings: "
            "%u\n"),
          d->n_compared, d->n_diverged, d->n_only_a, d->n_only_b, d->n_mismatch, d->warnings->len);
  if (json_out)
    {
      cJSON *root = zw_dump_diff_to_json (d);
      g_autofree char *text = cJSON_Print (root);
      cJSON_Delete (root);
      if (!zw_file_set_contents (json_out, text, -1, &error))
        return xrt_run_fail (error);
    }
  return d->first ? XRT_RUN_EXIT_INPUT : XRT_RUN_EXIT_OK;
}

/* ---- stats ----------------------------------------------------------------------------- */

static void
print_summary (const char *label, const ZwStatsSummary *s)
{
  printf ("  %-10s %12" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
          " %6" G_GUINT64_FORMAT " %14.6g %14.6g %14.6g %14.6g\n", label, s->count, s->n_zero, s->n_nan, s->n_pos_inf,
          s->n_neg_inf, s->min, s->max, s->mean, s->std);
}

/* A histogram as at most @rows text bars (neighbouring bins summed). */
static void
print_histogram (const char *title, const ZwHistogram *h, guint rows)
{
  guint per = MAX (1, (h->n_bins + rows - 1) / rows);
  guint64 peak = 0;
  g_autofree guint64 *sums = g_new0 (guint64, (h->n_bins + per - 1) / per + 1);
  guint n = 0;

  for (guint i = 0; i < h->n_bins; i += per, n++)
    {
      for (guint k = i; k < MIN (i + per, h->n_bins); k++)
        sums[n] += h->counts[k];
      peak = MAX (peak, sums[n]);
    }
  printf ("\n%s\n", title);
  for (guint r = 0; r < n; r++)
    {
      guint first = r * per, last = MIN (first + per, h->n_bins) - 1;
      int bar = peak ? (int) (40.0 * (double) sums[r] / (double) peak + 0.5) : 0;
      char range[64];

      if (h->levels)
        g_snprintf (range, sizeof range, "[%g, %g]", h->lo + first, h->lo + last);
      else
        {
          double w = (h->hi - h->lo) / h->n_bins;
          g_snprintf (range, sizeof range, "[%.5g, %.5g%s", h->lo + first * w, h->lo + (last + 1) * w,
                      last + 1 == h->n_bins ? "]" : ")");
        }
      printf ("  %-26s %12" G_GUINT64_FORMAT " %.*s\n", range, sums[r], bar,
              "########################################");
    }
}

static gboolean
parse_coords (const char *text, gint64 out[4])
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);

  if (g_strv_length (parts) != 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      char *end;
      out[i] = g_ascii_strtoll (g_strstrip (parts[i]), &end, 10);
      if (end == parts[i] || *end)
        return FALSE;
    }
  return TRUE;
}

/* Loads one value of a dump (a folder and --v-id, or a file) as a tensor. */
static ZwTensor *
load_one (const char *path, XirNetwork *net, gint64 v_id, const char *format, GError **error)
{
  g_autofree char *dir = NULL, *file = NULL, *manifest_path = NULL;
  g_autoptr (ZwDumpManifest) manifest = NULL;
  g_autoptr (ZwDumpData) data = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  ZwDumpType type = { 0 };
  ZwDumpFormat fmt = { 0 };
  ZwTensor *t = NULL;
  gint64 op_id = -1;
  gboolean have_type = FALSE, have_fmt = FALSE, owned_type = FALSE;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      if (v_id < 0)
        {
          g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, _("%s: a folder needs --v-id"), path);
          return NULL;
        }
      dir = g_strdup (path);
      file = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", path, v_id);
    }
  else
    {
      g_autofree char *base = g_path_get_basename (path);
      char *end;
      dir = g_path_get_dirname (path);
      file = g_strdup (path);
      if (v_id < 0)
        {
          v_id = g_ascii_strtoll (base, &end, 10);
          if (end == base || !g_str_equal (end, ".ftmp"))
            {
              g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE,
                           _("%s: the name is not {v_id}.ftmp; give --v-id"), path);
              return NULL;
            }
        }
    }
  manifest_path = g_build_filename (dir, "manifest.json", NULL);
  if (!g_file_test (file, G_FILE_TEST_EXISTS) && !g_file_test (manifest_path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *base_name = g_path_get_basename (file);
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, _("%s: there is no %s here (and no manifest.json)"), dir,
                   base_name);
      return NULL;
    }
  if (g_file_test (manifest_path, G_FILE_TEST_EXISTS))
    {
      manifest = zw_dump_manifest_load (manifest_path, warnings, error);
      xrt_run_print_warnings (warnings);
      if (!manifest)
        return NULL;
      for (guint i = 0; i < manifest->entries->len && !have_type; i++)
        {
          const ZwDumpManifestEntry *e = g_ptr_array_index (manifest->entries, i);
          if (e->type.v_id == v_id)
            {
              type = e->type;   /* borrowed from the manifest */
              fmt = e->format;
              op_id = e->op_id;
              have_type = have_fmt = TRUE;
            }
        }
    }
  if (manifest && !have_type && !net)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, _("%s: v_id %li is not listed; give "
                   "--net NET.json to type it"), manifest_path, v_id);
      return NULL;
    }
  if (format)
    {
      if (!zw_dump_format_parse (format, &fmt, error))
        return NULL;
      have_fmt = TRUE;
    }
  if (!have_fmt)
    {
      g_autofree char *base = g_path_get_basename (dir);
      gsize len = strlen (base);
      have_fmt = len >= 3 && zw_dump_format_parse (base + len - 3, &fmt, NULL);
    }
  if (!have_fmt)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT,
                   _("%s: no manifest and the folder name does not end in a format; give --format"), file);
      return NULL;
    }
  if (!have_type)
    {
      const XirValue *v = net ? xir_network_get_value (net, v_id) : NULL;
      if (!v)
        {
          g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, net ? _("%s: v_id %li is not a value of the network")
                                                                  : _("%s: no manifest lists v_id %li; give --net NET.json"),
                       file, v_id);
          return NULL;
        }
      zw_dump_type_init_from_value (&type, v);
      owned_type = TRUE;
      if (v->producer >= 0)
        op_id = xir_network_get_op (net, (guint) v->producer)->op_id;
    }
  data = zw_dump_read_file (file, &type, fmt, error);
  if (data)
    t = zw_tensor_new_from_dump (data, &type, error);
  if (t)
    t->op_id = op_id;
  if (owned_type)
    zw_dump_type_clear (&type);
  return t;
}

int
xrt_run_report_stats (int argc, char **argv)
{
  g_autofree char *net_path = NULL, *format = NULL, *at = NULL, *heatmap_csv = NULL;
  gint64 v_id = -1, channel = -1, batch = 0;
  gint bins = 16;
  gboolean channels = FALSE;
  GOptionEntry entries[] = {
    { "net", 'n', 0, G_OPTION_ARG_FILENAME, &net_path, N_("The network JSON (types a dump without a manifest)"), N_("NET.json") },
    { "v-id", 'v', 0, G_OPTION_ARG_INT64, &v_id, N_("The value (required for a folder)"), N_("N") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("Dump format when there is no manifest (default: from the folder name)"), N_("SFB") },
    { "bins", 'b', 0, G_OPTION_ARG_INT, &bins, N_("Float histogram bins (default 16)"), N_("N") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at, N_("Print the value at logical coordinates"), N_("n,c,h,w") },
    { "channel", 'c', 0, G_OPTION_ARG_INT64, &channel, N_("Channel of --heatmap-csv"), N_("C") },
    { "batch", 0, 0, G_OPTION_ARG_INT64, &batch, N_("Batch of --heatmap-csv (default 0)"), N_("N") },
    { "heatmap-csv", 0, 0, G_OPTION_ARG_FILENAME, &heatmap_csv, N_("Write the channel's h x w float grid as CSV"), N_("OUT") },
    { "channels", 0, 0, G_OPTION_ARG_NONE, &channels, N_("Print the statistics of every channel"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("DIR|FILE.ftmp — statistics and histogram of a dumped value"));
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (ZwTensor) t = NULL;
  g_autoptr (ZwTensorStats) st = NULL;
  GError *error = NULL;
  gint64 coords[4];
  int rc;

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if ((rc = xrt_run_parse (ctx, &argc, &argv)) != 0)
    return rc;
  if (argc != 2)
    return xrt_run_report_usage ("stats", _("expected one dump folder or .ftmp file"));
  if (bins < 1 || bins > 4096)
    return xrt_run_report_usage ("stats", _("--bins must be in [1, 4096]"));
  if (at && !parse_coords (at, coords))
    return xrt_run_report_usage ("stats", _("--at takes four integers n,c,h,w"));
  if (heatmap_csv && channel < 0)
    return xrt_run_report_usage ("stats", _("--heatmap-csv needs --channel"));
  if (net_path && !(net = xir_network_new_from_json_file (net_path, &error)))
    return xrt_run_fail (error);
  t = load_one (argv[1], net, v_id, format, &error);
  if (!t)
    return xrt_run_fail (error);
  st = zw_tensor_stats_compute (t, (guint) bins);

  printf ("v_id %" G_GINT64_FORMAT " (op %" G_GINT64_FORMAT ")  %s  [", t->v_id, t->op_id, t->origin);
  for (guint i = 0; i < t->rank; i++)
    printf ("%s%" G_GINT64_FORMAT, i ? "," : "", t->shape[i]);
  printf ("] %s\n", t->layout);
  printf (_("  n=%li c=%li h=%li w=%li  %s%s\n"),
          t->n, t->c, t->h, t->w, t->has_quantized ? zw_tensor_elem_to_string (t->q_elem) : "float32",
          t->quantized ? (t->n_scales > 1 ? _(", quantised per channel") : _(", quantised")) : "");
  printf ("\n  %-10s %12s %10s %6s %6s %6s %14s %14s %14s %14s\n", "", _("count"), _("zero"), "NaN", "+inf", "-inf",
          _("min"), _("max"), _("mean"), _("std"));
  print_summary (_("float"), &st->f);
  if (st->has_quantized)
    print_summary (_("quantised"), &st->q);
  if (st->has_quantized)
    print_histogram (_("Histogram (quantised levels):"), &st->q_hist, 16);
  print_histogram (_("Histogram (float):"), &st->f_hist, (guint) bins);
  if (channels || st->n_channels <= 8)
    {
      printf ("\n%s\n", _("Per channel (float):"));
      for (guint c = 0; c < st->n_channels; c++)
        {
          char label[32];
          g_snprintf (label, sizeof label, "c%u", c);
          print_summary (label, &st->channel_f[c]);
        }
    }
  else
    printf (_("\n(%u channels: --channels prints each)\n"), st->n_channels);
  if (at)
    {
      ZwTensorSample s;
      if (!zw_tensor_get_at (t, coords[0], coords[1], coords[2], coords[3], &s, &error))
        return xrt_run_fail (error);
      printf ("\n(n=%" G_GINT64_FORMAT ", c=%" G_GINT64_FORMAT ", h=%" G_GINT64_FORMAT ", w=%" G_GINT64_FORMAT "): %.9g",
              coords[0], coords[1], coords[2], coords[3], s.value);
      if (s.has_q)
        printf (" = %" G_GINT64_FORMAT " x %.9g", s.q, s.scale);
      printf ("\n");
    }
  if (heatmap_csv)
    {
      g_autofree float *grid = zw_tensor_heatmap (t, batch, channel, FALSE, &error);
      g_autoptr (GString) csv = g_string_new (NULL);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (!grid)
        return xrt_run_fail (error);
      for (gint64 y = 0; y < t->h; y++)
        {
          for (gint64 x = 0; x < t->w; x++)
            {
              if (x)
                g_string_append_c (csv, ',');
              g_string_append (csv, g_ascii_formatd (buf, sizeof buf, "%.9g", grid[y * t->w + x]));
            }
          g_string_append (csv, "\r\n");
        }
      if (!zw_file_set_contents (heatmap_csv, csv->str, (gssize) csv->len, &error))
        return xrt_run_fail (error);
    }
  return XRT_RUN_EXIT_OK;
}
