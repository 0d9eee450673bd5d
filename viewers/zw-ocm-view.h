/* zw-ocm-view.h — the OCM options of a deploy report.
 *
 * Top: estimated cost of each planner option as bars against NONE, the chosen option
 * highlighted, with the chunks each picked. Bottom: OCM occupancy over op index
 * (zw_deploy_report_live_bytes) against the capacity line.
 */
#pragma once

#include <gtk/gtk.h>
#include "zw-selection.h"
#include "zw-view-style.h"
#include "zw-view.h"

G_BEGIN_DECLS

#define ZW_TYPE_OCM_VIEW (zw_ocm_view_get_type ())
G_DECLARE_FINAL_TYPE (ZwOcmView, zw_ocm_view, ZW, OCM_VIEW, ZwView)

GtkWidget *zw_ocm_view_new (ZwSelection *selection);

/* Needs no display. */
void zw_ocm_view_draw (cairo_t *cr, int width, int height, ZwDeployReport *report, ZwSelection *selection,
                       const ZwViewStyle *colors);

/* Where the cost bar of @option is drawn in a view of that size (for tests and hit
 * testing); FALSE when the report has no result for @option. */
gboolean zw_ocm_view_get_bar_rect (ZwDeployReport *report, int width, int height, ZwOcmOpt option,
                                   graphene_rect_t *rect);

/* The texts the view draws (for tests): the title, which leads with the chosen placement's
 * OCM peak and the capacity ("OCM peak 1.8 MiB / 2.0 MiB"), and the figures beside the bar
 * of @option (its peak of the capacity first; the bytes its chunks add up to only labelled
 * "placed over time"). NULL for an option the report has no result for. */
char *zw_ocm_view_dup_title (const ZwDeployReport *report);
char *zw_ocm_view_dup_option_figures (const ZwDeployReport *report, ZwOcmOpt option);

G_END_DECLS
