/* zw-views.c — the table of the workbench's views (see the header). */
#include "zw-views.h"

#include <glib/gi18n.h>

#include "zw-compare-view.h"
#include "zw-compile-compare-view.h"
#include "zw-dump-diff-view.h"
#include "zw-graph-view.h"
#include "zw-log-view.h"
#include "zw-memory-view.h"
#include "zw-merge-view.h"
#include "zw-ocm-view.h"
#include "zw-segment-view.h"
#include "zw-sweep-view.h"
#include "zw-tensor-view.h"
#include "zw-timing-view.h"

/* the log view shows text: it has no op or value to select */
static GtkWidget *
log_view_new (ZwSelection *selection)
{
  (void) selection;
  return zw_log_view_new ();
}

static const ZwViewKind views[] = {
  { "segments", N_("Segments"), N_("Segments view"), "<Control>1", zw_segment_view_new },
  { "memory", N_("Memory"), N_("Memory view"), "<Control>2", zw_memory_view_new },
  { "ocm", N_("OCM"), N_("OCM view"), "<Control>3", zw_ocm_view_new },
  { "merges", N_("Merges"), N_("Merges view"), "<Control>4", zw_merge_view_new },
  { "timing", N_("Timing"), N_("Timing view"), "<Control>5", zw_timing_view_new },
  { "compare", N_("Compare"), N_("Compare view"), "<Control>6", zw_compare_view_new },
  { "tensors", N_("Tensors"), N_("Tensors view"), "<Control>7", zw_tensor_view_new },
  { "diff", N_("Dump Diff"), N_("Dump diff view"), "<Control>8", zw_dump_diff_view_new },
  { "logs", N_("Logs"), N_("Logs view"), "<Control>9", log_view_new },
  { "compiles", N_("Compiles"), N_("Compiles view"), "<Control>0", zw_compile_compare_view_new },
  { "graph", N_("Graph"), N_("Graph view"), "<Control>minus", zw_graph_view_new },
  { "sweep", N_("Sweep"), N_("Sweep view"), "<Control>equal", zw_sweep_view_new },
};

const ZwViewKind *
zw_views_get (guint *n_out)
{
  g_return_val_if_fail (n_out != NULL, NULL);
  *n_out = G_N_ELEMENTS (views);
  return views;
}

const ZwViewKind *
zw_views_lookup (const char *name)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (views); i++)
    if (g_str_equal (views[i].name, name))
      return &views[i];
  return NULL;
}

char *
zw_views_dup_names (void)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", views[i].name);
  return g_string_free (names, FALSE);
}
