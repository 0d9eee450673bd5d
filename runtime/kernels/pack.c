/* pack.c: weight packing (dense blocks, packed groups, depthwise quads, rows, type planes
 * and pairs, int16 widening) and the cache that keeps packings between calls.
 */
#include "kernels/kernels-private.h"

static inline gint32
sum32 (const gint8 *p)
{
  gint32 s = 0;
  for (guint i = 0; i < 32; i++)
    s += p[i];
  return s;
}

/* Block @ob's per-lane sums of positive and of negative weights, from its packing. */
static void
conv_weight_sums (ConvJob *job, guint ob)
{
  const gint8 *blk = job->wpack + ob * job->wblock;
  gint64 pos[OBLK] = { 0 }, neg[OBLK] = { 0 };
  gsize rows = job->wblock / (4 * OBLK);   /* VNNI: [tap][q][o 32][i 4]; plain: [tap][i][o 32] */

  /* branch-free over contiguous bytes: this runs once per weight byte */
  if (job->plain_pack)
    for (gsize r = 0; r < rows * 4; r++)
      for (guint j = 0; j < OBLK; j++)
        {
          gint v = blk[r * OBLK + j];
          pos[j] += v > 0 ? v : 0;
          neg[j] += v < 0 ? v : 0;
        }
  else
    for (gsize r = 0; r < rows; r++)
      for (guint j = 0; j < OBLK; j++)
        for (guint k = 0; k < 4; k++)
          {
            gint v = blk[(r * OBLK + j) * 4 + k];
            pos[j] += v > 0 ? v : 0;
            neg[j] += v < 0 ? v : 0;
          }
  memcpy (job->wpos + (gsize) ob * OBLK, pos, sizeof pos);
  memcpy (job->wneg + (gsize) ob * OBLK, neg, sizeof neg);
}

/* Packs the weights of one block of 32 output channels and sums them for the +128
 * input bias correction. */
static void
conv_pack_weights (gpointer data, guint ob)
{
  ConvJob *job = data;
  const Zg330KernelWeights *wt = job->weights;
  gint8 *blk = job->wpack + ob * job->wblock;
  guint obg = ob % MAX (job->obe, 1u), o0 = (ob / MAX (job->obe, 1u)) * job->Og + obg * OBLK;
  guint nvalid = job->NG > 0 ? 0 : MIN (OBLK, job->Og - obg * OBLK);
  gsize tap_bytes = (gsize) job->nq * 4 * OBLK;
  gint64 sums[OBLK] = { 0 };

  if (job->NG > 0)
    {
      /* packed groups: lane l holds its own group's weights, [tap][q][l][i 4] */
      for (guint l = 0; l < OBLK; l++)
        {
          gint64 o = slot_channel (job, ob, l);
          if (o < 0)
            continue;
          for (guint r = 0; r < job->KH; r++)
            for (guint s = 0; s < job->KW; s++)
              {
                gint8 *dtap = blk + ((gsize) r * job->KW + s) * tap_bytes;
                for (guint i = 0; i < job->I; i++)
                  {
                    gint v = weight_at (wt, (guint) o, i, r, s);
                    dtap[((gsize) (i / 4) * OBLK + l) * 4 + i % 4] = (gint8) v;
                    sums[l] += v;
                  }
              }
          job->corr[(gsize) ob * OBLK + l] = job->in_signed ? (gint32) (128 * sums[l]) : 0;
        }
      conv_weight_sums (job, ob);
      return;
    }
  if (job->groups == 1 && wt->ko == OBLK && wt->ki % 4 == 0 && job->C % 4 == 0)
    {
      /* The vendor's OIHWo32i32: each [o 32][i Ki] block is a transpose of 4-byte
       * groups away from the packed form.  Walk the source in order. */
      for (guint ib = 0; ib < wt->ib && ib * wt->ki < job->C; ib++)
        {
          guint i0 = ib * wt->ki, ilen = MIN (wt->ki, job->C - i0);
          for (guint r = 0; r < job->KH; r++)
            for (guint s = 0; s < job->KW; s++)
              {
                const gint8 *src = wt->data + ((((gsize) ob * wt->ib + ib) * wt->kh + r) * wt->kw + s)
                                                  * OBLK * wt->ki;
                gint8 *dtap = blk + ((gsize) r * job->KW + s) * tap_bytes + (gsize) (i0 / 4) * 4 * OBLK;
                for (guint oo = 0; oo < nvalid; oo++)
                  {
                    const gint8 *srow = src + (gsize) oo * wt->ki;
                    if (ilen == OBLK)
                      sums[oo] += sum32 (srow);   /* fixed trip count: vectorised at -O2 */
                    else
                      for (guint ii = 0; ii < ilen; ii++)
                        sums[oo] += srow[ii];
                    if (job->plain_pack)
                      for (guint ii = 0; ii < ilen; ii++)
                        dtap[(gsize) ii * OBLK + oo] = srow[ii];
                    else
                      for (guint ii = 0; ii < ilen; ii += 4)
                        memcpy (dtap + ((gsize) (ii / 4) * OBLK + oo) * 4, srow + ii, 4);
                  }
              }
        }
    }
  else
    for (guint oo = 0; oo < nvalid; oo++)
      for (guint r = 0; r < job->KH; r++)
        for (guint s = 0; s < job->KW; s++)
          {
            gint8 *dtap = blk + ((gsize) r * job->KW + s) * tap_bytes;
            for (guint i = 0; i < job->I; i++)
              {
                gint v = weight_at (wt, o0 + oo, i, r, s);
                if (job->plain_pack)
                  dtap[(gsize) i * OBLK + oo] = (gint8) v;                            /* [i][o] */
                else
                  dtap[((gsize) (i / 4) * OBLK + oo) * 4 + i % 4] = (gint8) v;  /* [i/4][o][i%4] */
                sums[oo] += v;
              }
          }
  for (guint oo = 0; oo < nvalid; oo++)
    job->corr[(gsize) ob * OBLK + oo] = job->in_signed ? (gint32) (128 * sums[oo]) : 0;
  conv_weight_sums (job, ob);
}

GMutex pack_lock;
static GHashTable *pack_table;  /* PackedWeights* (as key and value) */
static GQueue pack_order = G_QUEUE_INIT;
static gsize pack_bytes;

static void
packed_weights_free (gpointer p)
{
  PackedWeights *pw = p;

  g_free (pw->src);
  g_aligned_free (pw->wpack);
  g_free (pw->wpack2);
  g_aligned_free (pw->wpack3);
  g_free (pw->w16);
  g_free (pw->corr);
  g_free (pw->wpos);
  g_free (pw->wneg);
  if (pw->rq != NULL)
    requant_figures_unref (pw->rq);
}

static inline guint64
hash_mix (guint64 h, guint64 v)
{
  h = (h ^ v) * G_GUINT64_CONSTANT (0x100000001B3);
  return h ^ (h >> 29);
}

/* The packed-weights table's hash of @n weight bytes: every byte up to 1 KiB, else 64
 * words spread evenly over them, the first and the last included.  The table's equality
 * compares every byte, so the hash only spreads the entries; hashing megabytes of weights
 * at every call cost more than the compare (a chain of multiplies, about 1.6 bytes per
 * cycle, against a vectorised memcmp). */
static guint64
bytes_hash (const guint8 *d, gsize n)
{
  enum { FULL = 1024, SAMPLES = 64 };
  guint64 h = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ n, v;
  gsize i = 0;

  if (n > FULL)
    {
      for (gsize k = 0; k < SAMPLES; k++)
        {
          memcpy (&v, d + (n - 8) / (SAMPLES - 1) * k, 8);
          h = hash_mix (h, v);
        }
      memcpy (&v, d + n - 8, 8);
      return hash_mix (h, v);
    }
  for (; i + 8 <= n; i += 8)
    {
      memcpy (&v, d + i, 8);
      h = hash_mix (h, v);
    }
  for (; i < n; i++)
    h = (h ^ d[i]) * G_GUINT64_CONSTANT (0x100000001B3);
  return h;
}

static guint
packed_weights_hash (gconstpointer p)
{
  return (guint) ((const PackedWeights *) p)->hash;
}

static gboolean
packed_weights_equal (gconstpointer a, gconstpointer b)
{
  const PackedWeights *x = a, *y = b;

  return x->hash == y->hash && x->ob == y->ob && x->ib == y->ib && x->kh == y->kh && x->kw == y->kw
         && x->ko == y->ko && x->ki == y->ki && x->C == y->C && x->O == y->O && x->in_signed == y->in_signed
         && x->generic == y->generic && x->NG == y->NG && x->kind == y->kind && x->sh == y->sh
         && x->wide == y->wide
         && x->n_bytes == y->n_bytes && memcmp (x->src, y->src, x->n_bytes) == 0;
}

void
packed_weights_unref (PackedWeights *pw)
{
  g_atomic_rc_box_release_full (pw, packed_weights_free);
}

static void dw_pack_weights (ConvJob *job, const Zg330KernelWeights *weights, PackedWeights *pw);
static gint16 *w16_pack (const ConvJob *job);
static gint16 *dw_pairs_pack (const ConvJob *job, const gint8 *wk);

/* The packed weights of @job, @kind PACK_BLOCKS (job->wpack, corr, wpos and wneg point into
 * the entry returned) or PACK_DEPTHWISE (job->dw_wq, dw_wr, dw_corr, wpos and wneg); the
 * caller releases it with packed_weights_unref(). */
PackedWeights *
packed_weights_get (ConvJob *job, const Zg330KernelWeights *wt, guint kind)
{
  PackedWeights key = { 0 }, *pw;
  guint nb = job->nb;
  gsize wsize = job->wblock * nb;

  key.ob = wt->ob; key.ib = wt->ib; key.kh = wt->kh; key.kw = wt->kw; key.ko = wt->ko; key.ki = wt->ki;
  key.C = job->C;
  key.O = job->O;
  key.in_signed = job->in_signed;
  key.generic = job->plain_pack;
  key.wide = job->want_w16;
  key.NG = job->NG;
  key.kind = kind;
  key.sh = kind == PACK_DEPTHWISE ? job->sh : 0;
  key.n_bytes = (gsize) wt->ob * wt->ko * wt->ib * wt->ki * wt->kh * wt->kw;
  key.src = (gint8 *) wt->data;
  key.hash = bytes_hash ((const guint8 *) wt->data, key.n_bytes);

  g_mutex_lock (&pack_lock);
  if (pack_table == NULL)
    pack_table = g_hash_table_new (packed_weights_hash, packed_weights_equal);
  pw = g_hash_table_lookup (pack_table, &key);
  if (pw != NULL)
    g_atomic_rc_box_acquire (pw);
  g_mutex_unlock (&pack_lock);
  if (pw == NULL)
    {
      pw = g_atomic_rc_box_new0 (PackedWeights);
      *pw = key;
      pw->src = g_memdup2 (wt->data, key.n_bytes);
      if (kind == PACK_DEPTHWISE)
        dw_pack_weights (job, wt, pw);
      else
        {
          pw->wpack = g_aligned_alloc0 (MAX (wsize, 1), 1, 64);   /* read by whole lines */
          pw->corr = g_new0 (gint32, (gsize) nb * OBLK);
          pw->wpos = g_new0 (gint64, (gsize) nb * OBLK);
          pw->wneg = g_new0 (gint64, (gsize) nb * OBLK);
          pw->footprint = key.n_bytes + wsize + (gsize) nb * OBLK * (sizeof (gint32) + 2 * sizeof (gint64));
          job->wpack = pw->wpack;
          job->corr = pw->corr;
          job->wpos = pw->wpos;
          job->wneg = pw->wneg;
          parallel_for (nb, conv_pack_weights, job, (double) wsize * 2.0);
          if (key.wide)
            {
              pw->w16 = w16_pack (job);
              pw->footprint += wsize * sizeof (gint16);
            }
        }
      if (pw->footprint <= PACK_CACHE_BYTES / 4)
        {
          g_mutex_lock (&pack_lock);
          if (!g_hash_table_contains (pack_table, pw))
            {
              g_hash_table_add (pack_table, g_atomic_rc_box_acquire (pw));
              g_queue_push_tail (&pack_order, pw);
              pack_bytes += pw->footprint;
              while (pack_bytes > PACK_CACHE_BYTES)
                {
                  PackedWeights *old = g_queue_pop_head (&pack_order);
                  g_hash_table_remove (pack_table, old);
                  pack_bytes -= old->footprint;
                  packed_weights_unref (old);
                }
            }
          g_mutex_unlock (&pack_lock);
        }
    }
  if (kind == PACK_DEPTHWISE)
    {
      job->dw_wq = pw->wpack;
      job->dw_wr = pw->wpack2;
      job->dw_wt = pw->wpack3;
      job->dw_w16 = pw->w16;
      job->dw_corr = pw->corr;
    }
  else
    {
      job->wpack = pw->wpack;
      job->w16 = pw->w16;
      job->corr = pw->corr;
    }
  job->wpos = pw->wpos;
  job->wneg = pw->wneg;
  return pw;
}

/* The depthwise packings of @weights into @pw: the quad weights [g][kw][Cp][4], for 3x3
 * kernels at strides 1 and 2 the rows' weights (conv_dw_rows_3x3), the bias corrections
 * and the weight sums.  One pass over the weights in their storage order ([ob][kh][kw][ko];
 * ib = ki = 1). */
static void
dw_pack_weights (ConvJob *job, const Zg330KernelWeights *weights, PackedWeights *pw)
{
  guint G = (job->KH + 3) / 4, ntap = job->KH * job->KW;
  g_autofree gint8 *wk = g_new (gint8, (gsize) job->O * ntap);   /* [o][kh][kw] */
  guint R = job->sh == 1 ? 2 : 1;
  gsize wq_size = (gsize) G * job->KW * job->Cp * 4, wr_size = (gsize) R * 3 * job->Cp * 4;

  for (guint ob = 0; ob * weights->ko < job->O; ob++)
    for (guint t = 0; t < ntap; t++)
      {
        const gint8 *src = weights->data + ((gsize) ob * ntap + t) * weights->ko;
        for (guint oo = 0; oo < weights->ko && ob * weights->ko + oo < job->O; oo++)
          wk[(gsize) (ob * weights->ko + oo) * ntap + t] = src[oo];
      }
  pw->wpack = g_aligned_alloc0 (MAX (wq_size, 1), 1, 64);
  pw->corr = g_new0 (gint32, job->Cp);
  if (pw->wide)
    {
      pw->w16 = dw_pairs_pack (job, wk);
      pw->footprint += (gsize) job->KH * ((job->KW + 1) / 2) * job->Cp * 2 * sizeof (gint16);
    }
  pw->wpos = g_new0 (gint64, job->Cp);
  pw->wneg = g_new0 (gint64, job->Cp);
  pw->footprint += pw->n_bytes + wq_size + (gsize) job->Cp * (sizeof (gint32) + 2 * sizeof (gint64));
  for (guint o = 0; o < job->O; o++)
    {
      gint64 sum = 0;
      for (guint r = 0; r < job->KH; r++)
        for (guint s = 0; s < job->KW; s++)
          {
            gint v = wk[(gsize) o * ntap + r * job->KW + s];
            pw->wpack[(((gsize) (r / 4) * job->KW + s) * job->Cp + o) * 4 + r % 4] = (gint8) v;
            sum += v;
            if (v > 0)
              pw->wpos[o] += v;
            else
              pw->wneg[o] += v;
          }
      pw->corr[o] = job->in_signed ? (gint32) (128 * sum) : 0;
    }
  if (job->KH == 3 && job->KW == 3 && job->sh == 1)
    {
      /* the rows' weights: [r][kw][Cp][4], row r's taps at bytes r .. r+2 */
      pw->wpack2 = g_malloc0 (wr_size);
      pw->footprint += wr_size;
      for (guint o = 0; o < job->O; o++)
        for (guint r = 0; r < R; r++)
          for (guint kh = 0; kh < 3; kh++)
            for (guint s = 0; s < 3; s++)
              pw->wpack2[(((gsize) r * 3 + s) * job->Cp + o) * 4 + r + kh] = wk[(gsize) o * 9 + kh * 3 + s];
      /* and by type plane, [block][r][kw][type][64]: a pair of pixels' 16 lanes (the
       * quads of dw_type_channel's channels, twice), read whole by aligned loads */
      pw->wpack3 = g_aligned_alloc0 ((gsize) job->Cp / DW_BLK * 2 * 3 * 4, 64, 64);
      pw->footprint += (gsize) job->Cp / DW_BLK * 2 * 3 * 4 * 64;
      for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
        for (guint r = 0; r < R; r++)
          for (guint s = 0; s < 3; s++)
            for (guint j = 0; j < 4; j++)
              for (guint l = 0; l < 16; l++)
                memcpy (pw->wpack3 + ((((gsize) cb / DW_BLK * 2 + r) * 3 + s) * 4 + j) * 64 + l * 4,
                        pw->wpack2 + (((gsize) r * 3 + s) * job->Cp + cb + dw_type_channel (j, l % 8)) * 4, 4);
    }
  else if (job->KH == 3 && job->KW == 3 && job->sh == 2)
    {
      /* the column quads' weights: [kh][Cp][4], taps kw 0-2 at bytes 0-2 */
      pw->wpack2 = g_malloc0 ((gsize) 3 * job->Cp * 4);
      pw->footprint += (gsize) 3 * job->Cp * 4;
      for (guint o = 0; o < job->O; o++)
        for (guint kh = 0; kh < 3; kh++)
          for (guint s = 0; s < 3; s++)
            pw->wpack2[((gsize) kh * job->Cp + o) * 4 + s] = wk[(gsize) o * 9 + kh * 3 + s];
    }
}
/* job->w16 from the plain loops' packing ([block][tap][i][o 32]) or packed groups'
 * ([block][tap][q][o 32][i 4]), job->wpack. */
static gint16 *
w16_pack (const ConvJob *job)
{
  const gsize rows = (gsize) job->nb * job->KH * job->KW * job->nq;   /* (block, tap, q) */
  gint16 *w16 = g_new (gint16, rows * 4 * OBLK);

  for (gsize r = 0; r < rows; r++)
    {
      const gint8 *src = job->wpack + r * 4 * OBLK;   /* wblock is whole quads of rows */
      gint16 *dst = w16 + r * 4 * OBLK;
      for (guint pr = 0; pr < 2; pr++)
        for (guint o = 0; o < OBLK; o++)
          for (guint k = 0; k < 2; k++)
            dst[(pr * OBLK + o) * 2 + k] = job->NG > 0 ? src[o * 4 + pr + 2 * k]   /* [o 32][i 4] */
                                                       : src[(pr + 2 * k) * OBLK + o];   /* [i 4][o 32] */
    }
  return w16;
}
/* The pair weights by slot, [t = r * kp + j][Cp][2]: taps 2j and 2j+1 of kernel row r,
 * zero past the kernel. */
static gint16 *
dw_pairs_pack (const ConvJob *job, const gint8 *wk)
{
  const guint kp = (job->KW + 1) / 2;
  gint16 *w = g_new0 (gint16, (gsize) job->KH * kp * job->Cp * 2);

  for (guint o = 0; o < job->O; o++)
    {
      const gsize slot = o / DW_BLK * DW_BLK + dw_channel_slot (o % DW_BLK);
      for (guint r = 0; r < job->KH; r++)
        for (guint s = 0; s < job->KW; s++)
          w[(((gsize) r * kp + s / 2) * job->Cp + slot) * 2 + s % 2] = wk[((gsize) o * job->KH + r) * job->KW + s];
    }
  return w;
}
