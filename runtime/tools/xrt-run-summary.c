/* xrt-run-summary.c — what the workbench shows first, as text: the headless main job
 * (`xrt-run run NET --summary`, what .ci/demo runs without a display). */
#include "xrt-run-private.h"

#include <glib/gi18n.h>
#include <stdio.h>

static char *
human_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static gint
slower_first (gconstpointer a, gconstpointer b)
{
  const ZwProfileRow *x = *(const ZwProfileRow *const *) a, *y = *(const ZwProfileRow *const *) b;
  if (x->total_ms != y->total_ms)
    return x->total_ms > y->total_ms ? -1 : 1;
  return (x->op_id > y->op_id) - (x->op_id < y->op_id);
}

void
xrt_run_print_summary (const ZwDeployReport *r, const ZwProfile *profile)
{
  if (r != NULL)
    {
      printf ("%s\n", _("Segments (bytes the deployment takes on the board):"));
      for (int t = 0; t < ZW_N_SEGMENTS; t++)
        {
          g_autofree char *size = human_bytes (r->segments[t].byte_size);
          printf ("  %-8s %12s\n", zw_segment_type_to_string ((ZwSegmentType) t), size);
        }
      g_autofree char *ftmp = human_bytes (r->ftmp_bytes);
      g_autofree char *lb = human_bytes (r->lower_bound);
      printf (_("FTMP %s, liveness lower bound %s (%.3fx)\n"), ftmp, lb,
              r->lower_bound > 0 ? (double) r->ftmp_bytes / (double) r->lower_bound : 1.0);
      double chosen_ms = r->none_cost_ms;
      for (guint i = 0; i < r->ocm_options->len; i++)
        {
          const ZwOcmOptionResult *o = &g_array_index (r->ocm_options, ZwOcmOptionResult, i);
          if (o->option == r->ocm_chosen)
            chosen_ms = o->cost_ms;
        }
      printf (_("OCM option %s (asked: %s): estimated %.3f ms of hardop time, %.3f ms less than without OCM\n"),
              zw_ocm_opt_to_string (r->ocm_chosen), zw_ocm_opt_to_string (r->ocm_requested), chosen_ms,
              r->none_cost_ms - chosen_ms);
      guint merged = 0;
      for (guint i = 0; i < r->launches->len; i++)
        merged += g_array_index (r->launches, ZwLaunch, i).merge_from->len > 1;
      printf (_("Launches: %u (%u of them merged), merge hardop %s, ETM optimize %s\n"), r->launches->len, merged,
              r->merge_hardop ? _("on") : _("off"), r->etm_optimize ? _("on") : _("off"));
    }
  if (profile != NULL && profile->rows->len > 0)
    {
      g_autoptr (GPtrArray) rows = g_ptr_array_new ();
      for (guint i = 0; i < profile->rows->len; i++)
        g_ptr_array_add (rows, profile->rows->pdata[i]);
      g_ptr_array_sort (rows, slower_first);
      printf (_("Simulated time of the last forward: %.3f ms (hard %.3f ms, memcpy %.3f ms, other %.3f ms)\n"),
              profile->total_ms, profile->total_hard_ms, profile->total_memcpy_ms, profile->total_other_ms);
      if (rows->len >= 5)
        printf ("%s\n", _("The five slowest steps:"));
      else
        printf (ngettext ("The forward's %u step:\n", "The forward's %u steps, slowest first:\n", rows->len),
                rows->len);
      for (guint i = 0; i < MIN (rows->len, 5); i++)
        {
          const ZwProfileRow *row = rows->pdata[i];
          printf ("  op %-6" G_GINT64_FORMAT " %-28s %9.3f ms\n", row->op_id, row->op_type, row->total_ms);
        }
    }
}
