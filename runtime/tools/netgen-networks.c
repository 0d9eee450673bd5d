/* netgen-networks.c — the demo networks, each a sequence of builder calls: tiny, twoin, tail,
 * resnet18, mobilenetv2, yolov5s and the chain of N ops. */
#include "netgen-private.h"

/* ---- the networks ---------------------------------------------------------- */

void
ng_build_tiny (NgGraph *g)
{
  gint x = ng_prologue (g, 16, 16);
  gint a = ng_conv (g, x, 32, 3, 1, TRUE);          /* 16x16 */
  gint b = ng_conv (g, a, 32, 3, 2, TRUE);          /* 8x8 */
  gint m = ng_maxpool (g, b, 5, 1);
  gint s = ng_add (g, b, m, FALSE);
  gint u = ng_upsample (g, s);                      /* 16x16 */
  gint c = ng_concat2 (g, u, a);                    /* 64 ch */
  gint y = ng_conv (g, c, 32, 1, 1, TRUE);

  ng_output (g, &y, 1);
}

/* Two inputs of one Input op, a branch each, added: a network whose forward takes two
 * tensors (icraft-run's "a.png;b.ftmp", the vendor's multi-input sessions). */
void
ng_build_twoin (NgGraph *g)
{
  gint in[2];
  gint a, b, s, y;

  ng_prologue_n (g, 16, 16, 2, in);
  a = ng_conv (g, in[0], 32, 3, 1, TRUE);           /* 16x16 */
  b = ng_conv (g, in[1], 32, 3, 1, TRUE);
  s = ng_add (g, a, b, FALSE);
  y = ng_conv (g, s, 32, 1, 1, TRUE);
  ng_output (g, &y, 1);
}

/* A network that starts where tiny ends: its Input is tiny's output map (int8 NCHWc32,
 * 32 x 16 x 16, 8192 bytes), so the two connect whole, output to input, on one board. */
void
ng_build_tail (NgGraph *g)
{
  gint x = ng_input_map (g, 32, 16, 16);
  gint a = ng_conv (g, x, 32, 3, 1, TRUE);
  gint y = ng_conv (g, a, 32, 1, 1, TRUE);

  ng_output (g, &y, 1);
}

void
ng_build_resnet18 (NgGraph *g)
{
  static const guint widths[4] = { 64, 128, 256, 512 };
  gint x = ng_prologue (g, 224, 224);

  x = ng_conv (g, x, 64, 7, 2, TRUE);               /* 112x112 */
  x = ng_maxpool (g, x, 3, 2);                      /* 56x56 */
  for (guint stage = 0; stage < 4; stage++)
    for (guint block = 0; block < 2; block++)
      {
        guint stride = stage > 0 && block == 0 ? 2 : 1;
        gint y = ng_conv (g, x, widths[stage], 3, stride, TRUE);
        gint shortcut = x;

        y = ng_conv (g, y, widths[stage], 3, 1, FALSE);
        if (stride != 1)
          shortcut = ng_conv (g, x, widths[stage], 1, stride, FALSE);
        x = ng_add (g, y, shortcut, TRUE);
      }
  ng_output (g, &x, 1);
}

static guint
round_up_32 (guint n)
{
  return (n + 31) / 32 * 32;
}

void
ng_build_mobilenetv2 (NgGraph *g)
{
  /* (expand ratio t, channels c, repeats n, stride s) of the paper. */
  static const guint settings[7][4] = {
    { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
    { 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 },
  };
  gint x = ng_prologue (g, 224, 224);
  guint in_c = 32;   /* the paper's channel count, before widening to 32-multiples */

  x = ng_conv (g, x, 32, 3, 2, TRUE);               /* 112x112 */
  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    for (guint r = 0; r < settings[i][2]; r++)
      {
        guint t = settings[i][0], c = settings[i][1];
        guint stride = r == 0 ? settings[i][3] : 1;
        gint y = x;

        if (t != 1)
          y = ng_conv (g, y, round_up_32 (in_c * t), 1, 1, TRUE);
        y = ng_dwconv (g, y, 3, stride);
        y = ng_conv (g, y, round_up_32 (c), 1, 1, FALSE);
        if (stride == 1 && in_c == c)
          y = ng_add (g, x, y, FALSE);
        x = y;
        in_c = c;
      }
  x = ng_conv (g, x, 1280, 1, 1, TRUE);             /* 7x7 */
  ng_output (g, &x, 1);
}

/* YOLOv5 C3: cv1 -> n bottlenecks (1x1, 3x3, optional add) ‖ cv2, concat, cv3. */
static gint
yolo_c3 (NgGraph *g, gint x, guint c_out, guint n, gboolean shortcut)
{
  guint hidden = c_out / 2;
  gint a = ng_conv (g, x, hidden, 1, 1, TRUE);
  gint b;

  for (guint i = 0; i < n; i++)
    {
      b = ng_conv (g, a, hidden, 1, 1, TRUE);
      b = ng_conv (g, b, hidden, 3, 1, TRUE);
      a = shortcut ? ng_add (g, a, b, FALSE) : b;
    }
  b = ng_conv (g, x, hidden, 1, 1, TRUE);
  return ng_conv (g, ng_concat2 (g, a, b), c_out, 1, 1, TRUE);
}

void
ng_build_yolov5s (NgGraph *g)
{
  gint x = ng_prologue (g, 352, 640);
  gint p3, p4, h10, h14, out3, out4, out5, pooled[4], heads[3], outs[3];

  /* The real net normalises the pixels with a 3->3 1x1 conv in the io process. */
  x = ng_conv (g, x, 3, 1, 1, FALSE);
  OP (g, g->ops->len - 1)->io_process = TRUE;
  x = ng_conv (g, x, 32, 6, 2, TRUE);               /* 176x320 */
  x = ng_conv (g, x, 64, 3, 2, TRUE);               /* 88x160 */
  x = yolo_c3 (g, x, 64, 1, TRUE);
  x = ng_conv (g, x, 128, 3, 2, TRUE);              /* 44x80 */
  p3 = yolo_c3 (g, x, 128, 2, TRUE);
  x = ng_conv (g, p3, 256, 3, 2, TRUE);             /* 22x40 */
  p4 = yolo_c3 (g, x, 256, 3, TRUE);
  x = ng_conv (g, p4, 512, 3, 2, TRUE);             /* 11x20 */
  x = yolo_c3 (g, x, 512, 1, TRUE);
  /* SPPF: three chained 5x5 pools, all four maps concatenated. */
  pooled[0] = ng_conv (g, x, 256, 1, 1, TRUE);
  for (guint i = 1; i < 4; i++)
    pooled[i] = ng_maxpool (g, pooled[i - 1], 5, 1);
  x = ng_conv (g, ng_concat (g, pooled, 4), 512, 1, 1, TRUE);
  /* PAN neck. */
  h10 = ng_conv (g, x, 256, 1, 1, TRUE);
  x = yolo_c3 (g, ng_concat2 (g, ng_upsample (g, h10), p4), 256, 1, FALSE);
  h14 = ng_conv (g, x, 128, 1, 1, TRUE);
  out3 = yolo_c3 (g, ng_concat2 (g, ng_upsample (g, h14), p3), 128, 1, FALSE);
  x = ng_conv (g, out3, 128, 3, 2, TRUE);
  out4 = yolo_c3 (g, ng_concat2 (g, x, h14), 256, 1, FALSE);
  x = ng_conv (g, out4, 256, 3, 2, TRUE);
  out5 = yolo_c3 (g, ng_concat2 (g, x, h10), 512, 1, FALSE);
  /* Detect: 3 anchors x (5 + 80), each anchor padded to 128 channels. */
  heads[0] = ng_conv (g, out3, 384, 1, 1, FALSE);
  heads[1] = ng_conv (g, out4, 384, 1, 1, FALSE);
  heads[2] = ng_conv (g, out5, 384, 1, 1, FALSE);
  ng_detpost (g, heads, outs);
  ng_output (g, outs, 3);
}

void
ng_build_chain (NgGraph *g, guint n_ops)
{
  gint x = ng_prologue (g, 8, 8);
  guint left, unit = 0;

  x = ng_conv (g, x, 32, 3, 2, TRUE);               /* 4x4 */
  /* Input, Reshape, Cast, stem conv and Output are 5 ops. */
  left = n_ops - 5;
  while (left > 0)
    {
      if (unit % 4 == 3 && left >= 4)
        {
          gint a = ng_conv (g, x, 32, 1, 1, TRUE);
          gint b = ng_conv (g, x, 32, 1, 1, TRUE);

          x = ng_conv (g, ng_concat2 (g, a, b), 32, 1, 1, TRUE);
          left -= 4;
        }
      else if (left >= 3)
        {
          gint y = ng_conv (g, x, 32, 1, 1, TRUE);

          y = ng_conv (g, y, 32, 1, 1, FALSE);
          x = ng_add (g, x, y, TRUE);
          left -= 3;
        }
      else
        {
          x = ng_conv (g, x, 32, 1, 1, TRUE);
          left -= 1;
        }
      unit++;
    }
  ng_output (g, &x, 1);
}
