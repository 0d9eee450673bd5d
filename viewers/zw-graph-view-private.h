/* zw-graph-view-private.h — shared by the graph view's files (not installed): the layout's
 * drawing (zw-graph-draw.c), the search (zw-graph-search.c) and the widget (zw-graph-view.c). */
#pragma once

#include "zw-graph-view.h"

G_BEGIN_DECLS

/* "v12  1×32×88×160 · int8 · 880 KiB · OCM (OPTION2)": a value as its edge's label and
 * tooltip show it (@v NULL: the id alone); a new string. */
char *zw_graph_value_label (const ZwDeployReport *report, const ZwValueInfo *v, gint64 v_id);

/* How many of @report's ops match @search (zw_graph_op_matches). */
guint zw_graph_search_count (const ZwDeployReport *report, const char *search);
/* The index into report->ops of the first op from @from on (wrapping) that matches
 * @search, -1 when none does. */
gint zw_graph_search_next (const ZwDeployReport *report, const char *search, guint from);

G_END_DECLS
