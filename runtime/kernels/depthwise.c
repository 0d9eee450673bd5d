/* depthwise.c: the depthwise driver (one input channel per output channel): the plain
 * int16 path, and the choice among the ISA paths of the dispatch table.
 */
#include "kernels/kernels-private.h"

/* Depthwise convs (one input channel per output channel) run across channels: the input
 * is copied once into a zero-padded int16 [n][h][w][c] array, so every tap is one
 * contiguous multiply-add over a block of channels with a fixed trip count (vectorised by
 * the compiler) and no bounds test.  The zeros of the padding add nothing, so each
 * accumulator is the exact sum of the scalar loop's, and the requantisation is the same
 * expression per element. */
static void
conv_dw_pack_row (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->H, h = item % job->H;
  const guint8 *src = job->in->data;
  gint16 *dst = job->xs + (((gsize) n * job->Hp + h + job->pt) * job->Wp + job->pl) * job->Cp;

  src += (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row;
  for (guint c = 0; c < job->C;)
    {
      guint run = channel_run (job->in, c);
      const guint8 *sp = src + job->in_addr.chan[c];
      gint16 *d = dst + c;
      for (guint w = 0; w < job->W; w++, sp += job->in_addr.pix, d += job->Cp)
        if (run == DW_BLK)  /* NCHWc32: a fixed trip count, vectorised */
          {
            if (job->in_signed)
              for (guint k = 0; k < DW_BLK; k++)
                d[k] = (gint8) sp[k];
            else
              for (guint k = 0; k < DW_BLK; k++)
                d[k] = sp[k];
          }
        else if (job->in_signed)
          for (guint k = 0; k < run; k++)
            d[k] = (gint8) sp[k];
        else
          for (guint k = 0; k < run; k++)
            d[k] = sp[k];
      c += run;
    }
}

typedef struct {
  gpointer p;
  gsize size;
} DwScratch;

static void
dw_scratch_free (gpointer data)
{
  DwScratch *sc = data;

  g_aligned_free (sc->p);
  g_free (sc);
}

static GPrivate dw_scratch_key = G_PRIVATE_INIT (dw_scratch_free);

/* @size bytes, 64-byte aligned, from the thread's scratch (@own FALSE) or allocated (@own
 * TRUE: the caller frees it with g_aligned_free). */
gpointer
dw_scratch_get (gsize size, gboolean *own)
{
  DwScratch *sc = g_private_get (&dw_scratch_key);

  *own = size > DW_SCRATCH_KEEP;
  if (*own)
    return g_aligned_alloc (size, 1, 64);
  if (sc == NULL)
    {
      sc = g_new0 (DwScratch, 1);
      g_private_set (&dw_scratch_key, sc);
    }
  if (sc->size < size)
    {
      g_aligned_free (sc->p);
      sc->p = g_aligned_alloc (size, 1, 64);
      sc->size = size;
    }
  return sc->p;
}
void
dw_pairs_geometry (const ConvJob *job, DwPairs *g)
{
  g->kp = (job->KW + 1) / 2;
  g->hstep = job->sw % 2 == 0 ? 2 : 1;
  g->es = job->sw / g->hstep;
  g->ej = 2 / g->hstep;
  /* the last pixel's last pair starts at (OW - 1) * sw + 2 (kp - 1) */
  g->nent = ((job->OW - 1) * job->sw + 2 * (g->kp - 1)) / g->hstep + 1;
  g->i0 = MIN (g->nent, (job->pl + g->hstep - 1) / g->hstep);
  g->i1 = job->W >= 2 ? MAX (g->i0, MIN (g->nent, (job->pl + job->W - 2) / g->hstep + 1)) : g->i0;
  g->nbands = (job->OH + DW_BAND - 1) / DW_BAND;
  g->band = (job->OH + g->nbands - 1) / g->nbands;
}
/* The type planes' figures of @job's requantisation (made once, kept with it) into
 * job->dw_fig4: per block and type, mulf, bralo and brd of its 16 lanes. */
static void
dw_fig4_get (ConvJob *job)
{
  RequantFigures *rq = job->rq;

  g_mutex_lock (&pack_lock);
  if (rq->dwfig4 == NULL)
    {
      const float *src[3] = { rq->mulf, rq->bralo, rq->brd };
      float *fig = g_aligned_alloc ((gsize) job->Cp / DW_BLK * 4 * 3 * 16, sizeof (float), 64);

      for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
        for (guint j = 0; j < 4; j++)
          for (guint f = 0; f < 3; f++)
            for (guint l = 0; l < 16; l++)
              fig[(((gsize) cb / DW_BLK * 4 + j) * 3 + f) * 16 + l] = src[f][cb + dw_type_channel (j, l % 8)];
      rq->dwfig4 = fig;
    }
  job->dw_fig4 = rq->dwfig4;
  g_mutex_unlock (&pack_lock);
}

/* Depthwise convs on the quad weights and the bracket's figures: VNNI or AVX2 (@isa). */
static void
conv_depthwise_quads (ConvJob *job, const Zg330KernelWeights *weights, const KernelPlatform *isa)
{
  const gboolean vnni = isa->level == KERNEL_ISA_VNNI;
  PackedWeights *packed;

  job->pad_value = job->in_signed ? 0x80 : 0x00;
  job->want_w16 = !vnni;
  packed = packed_weights_get (job, weights, PACK_DEPTHWISE);
  /* mul and add read by blocks of DW_BLK channels */
  requant_figures_get (job, packed, job->dw_corr, weights, job->Cp, FALSE, TRUE);
  if (!vnni)
    {
      DwPairs g;
      const gsize Cp = job->Cp;

      /* the bracket's figures by pair-row slot, kept with the figures */
      g_mutex_lock (&pack_lock);
      if (job->rq->dwfig == NULL)
        {
          float *fig = g_new (float, 3 * Cp);
          guint8 *bounded8 = g_new (guint8, Cp / 8);
          memset (bounded8, 1, Cp / 8);
          for (gsize s = 0; s < Cp; s++)
            {
              const gsize c = s / DW_BLK * DW_BLK + dw_slot_channel (s % DW_BLK);
              fig[s] = job->rq->mulf[c];
              fig[Cp + s] = job->rq->bralo[c];
              fig[2 * Cp + s] = job->rq->brd[c];
              if (!(job->rq->thrf[c] > 0))
                bounded8[s / 8] = 0;
            }
          job->rq->dwfig = fig;
          job->rq->dwbounded8 = bounded8;
        }
      job->dw_fig = job->rq->dwfig;
      job->dw_bounded8 = job->rq->dwbounded8;
      g_mutex_unlock (&pack_lock);
      dw_pairs_geometry (job, &g);
      parallel_for (job->N * g.nbands, isa->conv_dw_pairs, job,
                    (double) job->N * job->OH * job->OW * job->Cp * (0.3 + 0.05 * job->KH * job->KW));
    }
  else if (job->KH == 3 && job->KW == 3 && job->sh == 2 && job->sw == 2 && job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC
      && job->in->k == DW_BLK && isa->conv_dw_cols_3x3_s2 != NULL)
    parallel_for (job->N * job->OH, isa->conv_dw_cols_3x3_s2, job, (double) job->N * job->OH * job->OW * job->Cp * 0.15);
  else if (job->KH == 3 && job->KW == 3 && job->sh == 1 && job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC
           && job->in->k == DW_BLK && isa->conv_dw_rows_3x3 != NULL)
    {
      dw_fig4_get (job);
      parallel_for (job->N * ((job->OH + 1) / 2), isa->conv_dw_rows_3x3, job,
                    (double) job->N * job->OH * job->OW * job->Cp * 0.15);
    }
  else
    parallel_for (job->N * job->OH, isa->conv_dw_row_vnni, job,
                  (double) job->N * job->OH * job->OW * job->Cp * (0.3 + 0.02 * job->KH * job->KW));
  packed_weights_unref (packed);
}

void
conv_depthwise (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *weights)
{
  gint64 pb = (gint64) (job->OH - 1) * job->sh + job->KH - job->H - job->pt;
  gint64 pr = (gint64) (job->OW - 1) * job->sw + job->KW - job->W - job->pl;

  job->Cp = (job->C + DW_BLK - 1) / DW_BLK * DW_BLK;
  job->Hp = job->pt + job->H + (guint) MAX (pb, 0);
  job->Wp = job->pl + job->W + (guint) MAX (pr, 0);
  job->out_block_fast = job->out->layout == ZG330_KERNEL_LAYOUT_NCHWC && job->out->k == DW_BLK;
  addr_init (&job->in_addr, in);
  if (job->isa->level != KERNEL_ISA_PLAIN)
    {
      conv_depthwise_quads (job, weights, job->isa);
      addr_clear (&job->in_addr);
      return;
    }
  job->rq = g_atomic_rc_box_new0 (RequantFigures);   /* the job's own (only mul and add) */
  conv_job_requant (job, in, weights, job->out, job->Cp, FALSE);
  job->xs = g_new0 (gint16, (gsize) job->N * job->Hp * job->Wp * job->Cp);
  job->ws = g_new0 (gint16, (gsize) job->KH * job->KW * job->Cp);
  for (guint o = 0; o < job->O; o++)
    for (guint r = 0; r < job->KH; r++)
      for (guint s = 0; s < job->KW; s++)
        job->ws[((gsize) r * job->KW + s) * job->Cp + o] = (gint16) weight_at (weights, o, 0, r, s);
  parallel_for (job->N * job->H, conv_dw_pack_row, job, (double) job->N * job->H * job->W * job->Cp);
  addr_clear (&job->in_addr);
  parallel_for (job->N * job->OH, job->isa->conv_dw_row, job,
                (double) job->N * job->OH * job->OW * job->Cp * (2.0 + job->KH * job->KW));
  g_free (job->xs);
  g_free (job->ws);
}
