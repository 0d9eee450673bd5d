/* zw-compare-rows.h — the rows Compare shows, in the workbench and the CLI (issue 37 item 6).
 *
 * The comparison's rows (runtime/report/zw-compare.h) in their sorted order, two things on
 * top, as Nsight Systems' and Perfetto's diff tables do:
 *
 * - "Regressions only": only the rows where B is slower than A by more than a threshold
 *   (a fraction: 0.05 is 5 %): present in both, B - A > 0 and B / A > 1 + threshold (A 0
 *   and B not: always). The rows the filter hides are counted.
 * - A merged launch (a row whose merge_from lists two ops or more) expanded: one row per
 *   member op after it, in execution order. A member's time on a side is that side's own
 *   row of the op when the side ran it alone (merge off: a measured figure); otherwise the
 *   side's launch time split over the members, an ESTIMATE: in proportion to the planner's
 *   estimate of each member (the deploy report's hardops[].est_ms), else to their layer
 *   counts, else in equal parts. Estimated figures are flagged; the view labels them.
 *
 * Plain data, no GTK: tests check it without a display.
 */
#pragma once

#include <glib.h>
#include "report/zw-compare.h"

G_BEGIN_DECLS

typedef struct {
  const ZwCompareRow *row;     /* the comparison's row (a member's: its launch's) */
  gint member;                 /* -1: the row itself; else the member's index in row->merge_from */
  gint64 op_id;                /* the row's op id, or the member's */
  char *op_class;              /* a member's class from the reports, NULL when not known */
  gboolean has_a, has_b;       /* a member: the side has a figure */
  double a_ms, b_ms;           /* a member's times (the row's: row->a_ms, b_ms) */
  gboolean a_estimated, b_estimated;   /* a member's share of its launch's time */
  gboolean expandable;         /* the row is a merged launch (two members or more) */
  gboolean expanded;           /* … shown with its members */
} ZwCompareShownRow;

typedef struct {
  GArray *rows;                /* ZwCompareShownRow, in the order drawn */
  guint n_hidden;              /* the comparison's rows the filter hides */
  guint n_matching;            /* the comparison's rows the filter keeps (all when off) */
} ZwCompareShown;

typedef struct {
  gboolean regressions_only;
  double threshold;            /* B slower than A by more than this fraction */
  GHashTable *expanded;        /* gint64* op ids of the launches shown expanded; NULL: none */
  const ZwProfile *a, *b;      /* the profiles compared (members' own rows), may be NULL */
  const ZwDeployReport *report_a, *report_b;   /* estimates, layer counts, classes; may be NULL */
} ZwCompareShowOptions;

/* TRUE when @row is a regression over @threshold (see the top). */
gboolean zw_compare_row_slower_by (const ZwCompareRow *row, double threshold);

/* The rows of @cmp (in their order now) as @options show them; @options NULL: every row,
 * none expanded. Borrows @cmp's rows: free before @cmp changes. */
ZwCompareShown *zw_compare_shown_new (const ZwProfileCompare *cmp, const ZwCompareShowOptions *options);
void zw_compare_shown_free (ZwCompareShown *shown);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwCompareShown, zw_compare_shown_free)

/* The shown row at @index (NULL out of range). */
const ZwCompareShownRow *zw_compare_shown_get (const ZwCompareShown *shown, guint index);

G_END_DECLS
