/* zg330-hardop-kinds.h — the table of hardop kinds the board runs: one row per kind.
 *
 * A row names a kind; its file (hardop-NAME.c, listed in devices/meson.build) defines
 * zg330_hardop_class_NAME, a Zg330HardopClass (zg330-hardop-class.h): the HardOp class name
 * it takes ("Conv2d" for icraft::xir::Conv2dNode), its describer (arity, geometry inferred
 * from the shapes, zero-copy), its kernel run (kernels/zg330-kernels.h) and what the wire
 * carries for it (weights, input counts).  Everything else — the backends' describe and
 * prepare, the board's run, the wire's checks, the host reference run, Buyi's placement —
 * looks kinds up in this table, never by a switch or a string compare of its own.
 *
 * The row order is the kind's number (Zg330HardopKind) and so the wire's "call.kind" byte:
 * append new rows, never reorder them.
 */
#pragma once

#define ZG330_HARDOP_KINDS(ROW) \
  ROW (CONV2D, conv2d)          \
  ROW (ADD, add)                \
  ROW (CONCAT, concat)          \
  ROW (MAXPOOL2D, maxpool2d)    \
  ROW (UPSAMPLE, upsample)      \
  ROW (RESHAPE, reshape)        \
  ROW (CAST, cast)

/* The behavioural models the board has (a HardOp's fused class), in table order. */
#define ZG330_HARDOP_KIND_ENUM_ROW(UPPER, lower) ZG330_HARDOP_##UPPER,
typedef enum {
  ZG330_HARDOP_KINDS (ZG330_HARDOP_KIND_ENUM_ROW)
  ZG330_N_HARDOP_KINDS
} Zg330HardopKind;
#undef ZG330_HARDOP_KIND_ENUM_ROW
