/* zw-views.c — the table of the workbench's views (see the header). */
#include "zw-views.h"

#include "zw-board-view.h"
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

/* The one list: a view's type and the key that shows it, in the switcher's order. */
static const struct {
  GType (*get_type) (void);
  const char *accel;
} rows[] = {
  { zw_segment_view_get_type, "<Control>1" },
  { zw_memory_view_get_type, "<Control>2" },
  { zw_ocm_view_get_type, "<Control>3" },
  { zw_merge_view_get_type, "<Control>4" },
  { zw_timing_view_get_type, "<Control>5" },
  { zw_compare_view_get_type, "<Control>6" },
  { zw_tensor_view_get_type, "<Control>7" },
  { zw_dump_diff_view_get_type, "<Control>8" },
  { zw_log_view_get_type, "<Control>9" },
  { zw_compile_compare_view_get_type, "<Control>0" },
  { zw_graph_view_get_type, "<Control>minus" },
  { zw_sweep_view_get_type, "<Control>equal" },
  { zw_board_view_get_type, "<Control>b" },
};

static ZwViewKind kinds[G_N_ELEMENTS (rows)];

const ZwViewKind *
zw_views_get (guint *n_out)
{
  static gsize built = 0;

  g_return_val_if_fail (n_out != NULL, NULL);
  if (g_once_init_enter (&built))
    {
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        {
          GType type = rows[i].get_type ();
          /* the classes stay: their strings are static and the views come and go */
          ZwViewClass *klass = g_type_class_ref (type);

          g_assert (ZW_IS_VIEW_CLASS (klass) && klass->name != NULL);
          kinds[i] = (ZwViewKind) { klass->name, klass->title, klass->key_title, rows[i].accel, klass->data, type };
        }
      g_once_init_leave (&built, 1);
    }
  *n_out = G_N_ELEMENTS (kinds);
  return kinds;
}

const ZwViewKind *
zw_views_lookup (const char *name)
{
  guint n;
  const ZwViewKind *views = zw_views_get (&n);

  for (guint i = 0; name != NULL && i < n; i++)
    if (g_str_equal (views[i].name, name))
      return &views[i];
  return NULL;
}

char *
zw_views_dup_names (void)
{
  GString *names = g_string_new (NULL);
  guint n;
  const ZwViewKind *views = zw_views_get (&n);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", views[i].name);
  return g_string_free (names, FALSE);
}

GtkWidget *
zw_views_new_view (const ZwViewKind *kind, ZwSelection *selection)
{
  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (selection == NULL || ZW_IS_SELECTION (selection), NULL);
  return g_object_new (kind->type, "selection", selection, NULL);
}
