/* host-ops-private.h — what the host ops' files share (host-ops.c, host-detpost.c,
 * host-image-make.c): the message formats, element types and feature-map geometry, and
 * the helpers that read them from an op's values and attributes. */
#pragma once

#include "backends/host/host-ops.h"

G_BEGIN_DECLS

#define OP_FMT "op %" G_GINT64_FORMAT " (%s)"
#define VID_FMT "v_id %" G_GINT64_FORMAT

typedef enum {
  ELEM_S8, ELEM_U8, ELEM_S16, ELEM_U16, ELEM_S32, ELEM_FP16, ELEM_FP32,
} Elem;

/* Logical [N, C, H, W] of a feature map; k = 0 for NHWC, else the NCHWcK block. */
typedef struct {
  guint n, c, h, w, k;
} Geom;

/* host-ops.c */
const char *host_op_short (const XirOp *op);
gboolean host_elem_of (const XirOp *op, const XirValue *v, Elem *out, GError **error);
void host_elem_set (Elem e, guint8 *base, gsize i, double v);
gboolean host_geom_of (const XirOp *op, const XirValue *v, Geom *g, GError **error);
gsize host_geom_index (const Geom *g, guint n, guint c, guint h, guint w);
gboolean host_check_scales (const XirOp *op, const XirValue *v, guint channels, GError **error);
double host_scale_of (const XirValue *v, guint c);
gboolean host_expect_arity (const XirOp *op, guint n_in, guint n_out, GError **error);

/* host-detpost.c */
gboolean host_attr_int (const XirOp *op, const char *key, gboolean required, gint lo, gint hi, gint def, gint *out,
                        GError **error);

G_END_DECLS
