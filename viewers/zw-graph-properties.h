/* zw-graph-properties.h — the properties of the selected op or value, as Netron's sidebar
 * shows them beside the graph.
 *
 * For an op: its class and kind, name, backend, layers, launch (and the merged launch it
 * runs in), its attributes (the network's own keys), inputs and outputs (each a link that
 * selects the value), its hardop's addresses (weights and instructions: logic and physical
 * address, size), the bytes the cost model moves for it, and its time: the cost model's
 * estimate and, when a forward ran, the profile's row (total, hard, memcpy, other; a merged
 * member names its launch's row). For a value: shape, dtype, layout, bytes, quantisation
 * (bits, scales, zero points), where it lives (ETM, OCM and the OCM option that chose it, or
 * host memory), segment, logic and physical address, its chunk (id, offset, size, FTMP
 * offset, OCM address), lifetime, the op that writes it and the ops that read it (links).
 *
 * Everything comes from the deploy report and the time profile (report models): the panel
 * never asks a backend. It follows the shared ZwSelection: the op or value selected last is
 * shown; a link selects through the selection, so every view follows.
 */
#pragma once

#include <gtk/gtk.h>
#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"
#include "zw-selection.h"

G_BEGIN_DECLS

/* One line of the panel: a key and its value; a value naming an op or a value is a link. */
typedef struct {
  char *key;          /* translated */
  char *value;
  gint64 op_id;       /* >= 0: a click selects this op */
  gint64 v_id;        /* >= 0: a click selects this value */
} ZwPropertyRow;

typedef struct {
  char *title;        /* translated */
  GPtrArray *rows;    /* ZwPropertyRow* */
} ZwPropertySection;

/* The sections of an op (a network op or a merged launch's id) of @report; @profile (may be
 * NULL) gives its time. NULL when @report has no such op. A GPtrArray of ZwPropertySection*
 * that frees them. */
GPtrArray *zw_graph_properties_describe_op (const ZwDeployReport *report, const ZwProfile *profile, gint64 op_id);
/* The sections of a value of @report, NULL when it has no such value. */
GPtrArray *zw_graph_properties_describe_value (const ZwDeployReport *report, gint64 v_id);
/* An edge's tooltip: the value's id, shape, dtype, bytes and where it lives (place, chunk
 * and offset, address); a new string. */
char *zw_graph_value_tooltip (const ZwDeployReport *report, gint64 v_id);

#define ZW_TYPE_GRAPH_PROPERTIES (zw_graph_properties_get_type ())
G_DECLARE_FINAL_TYPE (ZwGraphProperties, zw_graph_properties, ZW, GRAPH_PROPERTIES, GtkWidget)

/* A panel following @selection (it keeps a reference). */
GtkWidget *zw_graph_properties_new (ZwSelection *selection);
/* The time profile of the forward that ran the report shown (copied; NULL: none). */
void zw_graph_properties_set_profile (ZwGraphProperties *self, const ZwProfile *profile);
/* Whether an op or a value is shown. */
gboolean zw_graph_properties_has_content (ZwGraphProperties *self);
/* The text the panel shows, read from its labels: the title, then each section's title and
 * "key: value" lines (tests). */
char *zw_graph_properties_dup_text (ZwGraphProperties *self);

G_END_DECLS
