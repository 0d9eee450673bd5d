/* zw-sweep-text.c — a sweep row in words: its options, its what-if point, the tooltip's
 * figures and the table's cells. */
#include "zw-sweep-view-private.h"
#include "zw-view-private.h"

#include <glib/gi18n.h>

/* A row's marker slot: its OCM option's row in the options' table (an unknown one, from a
 * file of another version, takes the last). */
guint
zw_sweep_ocm_slot (ZwOcmOpt opt)
{
  gint i = zw_ocm_opt_get_index (opt);
  return i >= 0 ? (guint) i : zw_ocm_opt_get_count () - 1;
}

const char *
zw_sweep_on_off (gboolean b)
{
  return b ? _("on") : _("off");
}

/* "merge on, ETM optimize off, OCM Option 2" */
char *
zw_sweep_row_options (const ZwSweepRow *r)
{
  /* TRANSLATORS: a sweep row's options: merge on/off, ETM optimize on/off, the OCM option */
  return g_strdup_printf (_("merge %s, ETM optimize %s, OCM %s"), zw_sweep_on_off (r->merge_hardop), zw_sweep_on_off (r->etm_optimize),
                          zw_ocm_opt_get_label (r->ocm_requested));
}

const char *
zw_sweep_row_point (const ZwSweepRow *r)
{
  return r->what_if != NULL && *r->what_if != '\0' ? r->what_if : _("device profile as it is");
}

static char *
bytes_text (guint64 bytes)
{
  g_autofree char *human = zw_format_bytes (bytes);
  g_autofree char *exact = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  /* TRANSLATORS: a size in a unit, then exactly: "1.5 MiB (1572864 bytes)" */
  return g_strdup_printf (_("%s (%s bytes)"), human, exact);
}

char *
zw_sweep_view_describe_row (const ZwSweep *sweep, guint index)
{
  const ZwSweepRow *r;
  g_autoptr (GString) text = NULL;
  g_autofree char *options = NULL;

  if (sweep == NULL || index >= sweep->rows->len)
    return NULL;
  r = &g_array_index (sweep->rows, ZwSweepRow, index);
  options = zw_sweep_row_options (r);
  text = g_string_new (NULL);
  g_string_append_printf (text, _("Row #%u: %s"), r->index, options);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("What-if: %s"), zw_sweep_row_point (r));
  if (r->error != NULL)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Did not run: %s"), r->error);
      return g_string_free (g_steal_pointer (&text), FALSE);
    }
  {
    g_autofree char *ftmp = bytes_text (r->ftmp_bytes), *ocm = bytes_text (r->ocm_bytes), *etm = bytes_text (r->etm_bytes);
    g_autofree char *capacity = zw_format_bytes (r->ocm_capacity);
    g_autofree char *peak = r->ocm_peak != G_MAXUINT64 ? bytes_text (r->ocm_peak) : g_strdup ("?");

    if (r->ocm_requested == ZW_OCM_BEST_SCORE)
      {
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Best score chose: %s"), zw_ocm_opt_get_label (r->ocm_chosen));
      }
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Simulated time: %.4f ms per forward"), r->simulated_ms);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("FTMP: %s"), ftmp);
    g_string_append_c (text, '\n');
    /* TRANSLATORS: the most OCM bytes live at once and the board's OCM size at the row's
     * what-if point */
    g_string_append_printf (text, _("OCM peak: %s of %s"), peak, capacity);
    g_string_append_c (text, '\n');
    /* TRANSLATORS: the OCM chunks' sizes summed over the whole run */
    g_string_append_printf (text, _("OCM placed over time: %s"), ocm);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("ETM: %s"), etm);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Launches: %u"), r->launches);
    g_string_append_c (text, '\n');
    g_string_append (text, r->checked ? _("Plan checked: passes the independent checker")
                                      : _("Plan checked: FAILS the independent checker"));
  }
  if (zw_sweep_row_is_recommended (sweep, r) && sweep->what_if->len > 1)
    g_string_append_printf (text, "\n%s", _("Recommended for this what-if point: its fastest row"));
  else if (zw_sweep_row_is_recommended (sweep, r))
    g_string_append_printf (text, "\n%s", _("Recommended: the fastest row on the Pareto front"));
  else if (r->on_front)
    g_string_append_printf (text, "\n%s", _("On the Pareto front of time vs ETM bytes"));
  {
    /* rows drawn at this very point (Best score often chooses what an option asks) */
    g_autoptr (GString) same = g_string_new (NULL);
    for (guint i = 0; i < sweep->rows->len; i++)
      {
        const ZwSweepRow *o = &g_array_index (sweep->rows, ZwSweepRow, i);
        if (i != index && zw_sweep_row_plotted (o) && o->etm_bytes == r->etm_bytes && o->simulated_ms == r->simulated_ms)
          g_string_append_printf (same, "%s#%u", same->len > 0 ? ", " : "", o->index);
      }
    if (same->len > 0)
      {
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Same figures: %s"), same->str);
      }
  }
  g_string_append_printf (text, "\n%s", _("Click or Enter: deploy and run this row"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const char *const zw_sweep_column_titles[ZW_SWEEP_N_COLUMNS] = {
  N_("#"), N_("Merge"), N_("ETM opt."), N_("OCM option"), N_("Chosen"), N_("What-if"), N_("Sim. ms"), N_("FTMP"),
  N_("OCM peak"), N_("ETM bytes"), N_("Launches"), N_("Checked"), N_("Front"), N_("Error"),
};

char *
zw_sweep_cell_text (const ZwSweep *sweep, guint index, ZwSweepColumn column)
{
  const ZwSweepRow *r = &g_array_index (sweep->rows, ZwSweepRow, index);
  gboolean ran = r->error == NULL;

  switch (column)
    {
    case ZW_SWEEP_COLUMN_INDEX: return g_strdup_printf ("%u", r->index);
    case ZW_SWEEP_COLUMN_MERGE: return g_strdup (zw_sweep_on_off (r->merge_hardop));
    case ZW_SWEEP_COLUMN_ETM_OPTIMIZE: return g_strdup (zw_sweep_on_off (r->etm_optimize));
    case ZW_SWEEP_COLUMN_OCM_REQUESTED: return g_strdup (zw_ocm_opt_get_label (r->ocm_requested));
    case ZW_SWEEP_COLUMN_OCM_CHOSEN: return g_strdup (ran ? zw_ocm_opt_get_label (r->ocm_chosen) : "–");
    case ZW_SWEEP_COLUMN_WHAT_IF: return g_strdup (r->what_if != NULL && *r->what_if ? r->what_if : "–");
    case ZW_SWEEP_COLUMN_TIME: return ran ? g_strdup_printf ("%.4f", r->simulated_ms) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_FTMP: return ran ? zw_format_bytes (r->ftmp_bytes) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_OCM_BYTES:
      return !ran ? g_strdup ("–") : r->ocm_peak == G_MAXUINT64 ? g_strdup ("?") : zw_format_bytes (r->ocm_peak);
    case ZW_SWEEP_COLUMN_ETM: return ran ? zw_format_bytes (r->etm_bytes) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_LAUNCHES: return ran ? g_strdup_printf ("%u", r->launches) : g_strdup ("–");
    case ZW_SWEEP_COLUMN_CHECKED: return g_strdup (!ran ? "–" : r->checked ? _("yes") : _("FAILS"));
    case ZW_SWEEP_COLUMN_FRONT:
      return g_strdup (zw_sweep_row_is_recommended (sweep, r) ? _("recommended") : r->on_front ? _("front") : "");
    case ZW_SWEEP_COLUMN_ERROR: return g_strdup (r->error != NULL ? r->error : "");
    case ZW_SWEEP_N_COLUMNS:
    default: g_assert_not_reached ();
    }
}
