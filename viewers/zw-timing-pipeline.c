/* zw-timing-pipeline.c — the networks' strips over the Timing view of a pass (see the header). */
#include "zw-timing-pipeline.h"
#include "zw-board-view.h"
#include "zw-view-private.h"

#define STRIP_H 5.0

gboolean
zw_timing_pass_strip (const ZwProfile *profile, const ZwPipelineReport *pipeline, const ZwTimingState *state,
                      int width, int height, guint index, double r[4])
{
  ZwTimingGeometry g;
  double end, t0, t1, xa, xb;

  g_return_val_if_fail (profile != NULL && pipeline != NULL && r != NULL, FALSE);
  if (!zw_pipeline_pass_network_span (pipeline, index, &t0, &t1))
    return FALSE;
  end = zw_timing_layout (profile, NULL);
  zw_timing_geometry_init (&g, end, state, width, height, zw_timing_profile_has_merged (profile, NULL));
  xa = MAX (zw_timing_geometry_x (&g, t0), g.x0);
  xb = MIN (zw_timing_geometry_x (&g, t1), g.x1);
  if (xb <= xa)
    return FALSE;
  r[0] = xa;
  r[1] = g.ruler_y1 - STRIP_H - 1;
  r[2] = MAX (xb - xa - 1, 1);
  r[3] = STRIP_H;
  return TRUE;
}

void
zw_timing_pass_draw_networks (cairo_t *cr, int width, int height, const ZwProfile *profile,
                              const ZwPipelineReport *pipeline, const ZwTimingState *state, const ZwViewStyle *colors)
{
  g_return_if_fail (cr != NULL && colors != NULL);
  if (profile == NULL || pipeline == NULL || profile->rows->len == 0)
    return;
  for (guint i = 0; i < pipeline->networks->len; i++)
    {
      double r[4];
      GdkRGBA c;
      if (!zw_timing_pass_strip (profile, pipeline, state, width, height, i, r))
        continue;
      zw_board_view_network_color (colors, i, &c);
      zw_cairo_set_color (cr, &c);
      cairo_rectangle (cr, r[0], r[1], r[2], r[3]);
      cairo_fill (cr);
    }
}
