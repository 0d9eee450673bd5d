/* kernels-private.h: the kernels' one private header (README.md): the FP guard, the tensor
 * helpers, the worker pool, the conv job and its requantisation figures, the packed
 * weights, and the dispatch table that platform.c fills once.  Included by every file of
 * runtime/kernels/ and by nothing outside it.
 */
#pragma once

#include "kernels/zg330-kernels.h"

#include <math.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ZG330_HAVE_X86 1
#include <immintrin.h>
#else
#define ZG330_HAVE_X86 0
#endif

G_BEGIN_DECLS

/* The floating-point environment every kernel computes in: round to nearest even, no
 * flush to zero, no denormals-are-zero, exceptions masked (MXCSR's default), whatever the
 * calling thread set, so one input gives the same bytes in any caller (the requantisation
 * proofs assume it; the double rule itself rounds by it).  FP_ENV_GUARD at the top of a
 * public entry switches to it and restores the caller's on every return; the pool's
 * threads switch in pool_worker().  The barriers keep the compiler from moving memory
 * accesses, and so the arithmetic on what they load, across the switch. */
#if ZG330_HAVE_X86
typedef guint FpEnv;

static inline FpEnv
fp_env_enter (void)
{
  const FpEnv csr = _mm_getcsr ();

  _mm_setcsr (0x1F80);
  __asm__ volatile ("" ::: "memory");
  return csr;
}

static inline void
fp_env_leave (FpEnv csr)
{
  __asm__ volatile ("" ::: "memory");
  _mm_setcsr (csr);
}
#else
typedef int FpEnv;

static inline FpEnv
fp_env_enter (void)
{
  return 0;
}

static inline void
fp_env_leave (FpEnv csr)
{
  (void) csr;
}
#endif

static inline void
fp_env_restore (const FpEnv *csr)
{
  fp_env_leave (*csr);
}

#define FP_ENV_GUARD __attribute__ ((cleanup (fp_env_restore), unused)) const FpEnv fp_env_saved_ = fp_env_enter ()

/* Accumulation stays exact in int32 while KH*KW*C_in*255*128 < 2^31. */
#define MAX_REDUCTION 65536u
#define TILE_MAX 12u
#define TILE_EXPANDED 8u  /* packed groups on expanded input (vnni_tile_expanded_n) */
#define OBLK 32u
#define PIN_SLACK 128u  /* bytes after the padded input copy (zg330_kernel_conv2d) */

typedef void (*RangeFunc) (gpointer data, guint item);

/* Element offset of (n, c, h, w) = n*batch + chan[c] + (h*W + w)*pix.  Up to ADDR_LOCAL
 * channels, chan points into the struct's own storage: no allocation per call (an Addr is
 * therefore never copied by value). */
#define ADDR_LOCAL 512u
typedef struct {
  gsize batch;
  gsize pix;
  gsize row;
  gsize *chan;
  gsize local[ADDR_LOCAL];
} Addr;

/* Per-channel 256-entry requantisation tables, shared between channels with the same
 * ratio (in practice one table for the whole tensor). */
typedef struct {
  guint8 *tables;   /* n_tables * 256 */
  guint *index;     /* per channel: table number */
  guint n_tables;
  gboolean identity; /* every channel maps x -> x (same ratio 1 and dtype) */
} Requant;

/* add: the flat case's operands, its table [a byte][b byte] when it has one, and the loop
 * that runs a part of it. */
typedef struct AddJob AddJob;
struct AddJob {
  const guint8 *pa, *pb;
  guint8 *po;
  gsize n;
  double ra, rb;
  Zg330KernelDType da, db;
  gint lo, hi;
  guint8 *table;
  void (*part) (const AddJob *job, gsize from, gsize to);
};

static inline gint
raw_value (guint8 b, Zg330KernelDType d)
{
  return d == ZG330_KERNEL_DTYPE_UINT8 ? (gint) b : (gint) (gint8) b;
}

static inline void
dtype_range (Zg330KernelDType d, gint *lo, gint *hi)
{
  *lo = d == ZG330_KERNEL_DTYPE_UINT8 ? 0 : -128;
  *hi = d == ZG330_KERNEL_DTYPE_UINT8 ? 255 : 127;
}

/* The one rounding rule (see the header): clamp first into a range where the int
 * conversion is safe and the final clamp gives the same answer, then round half away
 * from zero with exact double arithmetic. */
static inline gint
round_clamp (double v, gint lo, gint hi)
{
  gint t;
  double d;

  if (v < (double) (lo - 1))
    v = (double) (lo - 1);
  if (v > (double) (hi + 1))
    v = (double) (hi + 1);
  t = (gint) v;
  d = v - (double) t;
  t += (d >= 0.5) - (d <= -0.5);
  return t < lo ? lo : t > hi ? hi : t;
}

static inline gsize
elem_size (const Zg330KernelTensor *t)
{
  return t->dtype == ZG330_KERNEL_DTYPE_FP32 ? 4 : 1;
}

static inline guint
n_blocks (const Zg330KernelTensor *t)
{
  return (t->c + t->k - 1) / t->k;
}

static inline float
scale_of (const Zg330KernelTensor *t, guint c)
{
  return t->scales ? t->scales[c] : 1.0f;
}

/* Length of the run of channels starting at c that are contiguous in memory. */
static inline guint
channel_run (const Zg330KernelTensor *t, guint c)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    return MIN (t->k - c % t->k, t->c - c);
  return t->c - c;
}

static inline const guint8 *
requant_table (const Requant *rq, guint c)
{
  return rq->tables + (gsize) rq->index[c] * 256;
}

static inline gint
weight_at (const Zg330KernelWeights *wt, guint o, guint i, guint kh, guint kw)
{
  gsize idx = ((((gsize) (o / wt->ko) * wt->ib + i / wt->ki) * wt->kh + kh) * wt->kw + kw)
                  * wt->ko * wt->ki
              + (gsize) (o % wt->ko) * wt->ki + i % wt->ki;
  return wt->data[idx];
}

/* ---------------------------------------------------------------------------------- */
/* conv                                                                               */

/* A conv's requantisation figures per slot: mul and add (conv_job_requant); the same in
 * float with each slot's error term, for the float requantisation that falls back to the
 * double rule where it could differ (requant_float_init); the bounded path's threshold, the
 * bracket's offset and width (requant_slot_bounds) and per 16 slots TRUE where all 16 have
 * a threshold (requant_bounds_init; NULL when not set up).  Kept with the packed weights
 * under @key, the bytes they come from (requant_figures_get); @key NULL for a job's own. */
typedef struct RequantFigures RequantFigures;
struct RequantFigures {
  GBytes *key;
  double *mul, *add;
  float *mulf, *addf, *errf;
  float *thrf;
  float *bralo, *brd;
  guint8 *bounded16;
  /* the AVX2 depthwise pair rows' figures by slot (mulf, bralo, brd; 3 x slots) and per 8
   * slots TRUE where all have a bound: made once, under pack_lock, by the first such conv */
  float *dwfig;
  guint8 *dwbounded8;
  /* the VNNI 3x3 depthwise type planes' figures ([block][type][mulf, bralo, brd][16];
   * dw_type_channel): made once, under pack_lock, by the first such conv */
  float *dwfig4;
};

typedef struct ConvJob ConvJob;
typedef struct KernelPlatform KernelPlatform;

typedef void (*TileFunc) (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob,
                          guint T, guint8 *res);

struct ConvJob {
  const KernelPlatform *isa;  /* the dispatch table it runs on (kernel_platform ()) */
  /* geometry */
  guint N, H, W, C, OH, OW, O, KH, KW, sh, sw, pt, pl;
  guint Hp, Wp, ipad, nq, obe;  /* obe: blocks of 32 outputs per group */
  gboolean expanded;           /* packed groups on expanded input (conv_expand_groups) */
  guint nplanes;               /* padded input planes per image: nb when expanded, else 1 */
  guint band_rows, bands;      /* output rows per work item (conv_band), items per image */
  gboolean in_signed;
  /* input (conv_band makes a padded, biased copy of each band's rows) */
  const Zg330KernelTensor *in;
  Addr in_addr;
  guint8 pad_value;
  /* packed weights, per output channel correction and requantisation */
  gint8 *wpack;
  gsize wblock;               /* bytes of one 32-output block */
  gint32 *corr;
  RequantFigures *rq;         /* the requantisation figures, maybe shared with packed weights */
  gint lo, hi;
  /* per slot, the sums of its positive and of its negative weights (the accumulator's
   * reach over 0..255 inputs) */
  gint64 *wpos, *wneg;
  /* output */
  const Zg330KernelTensor *out;
  Addr out_addr;
  gboolean out_block_fast;    /* NCHWc32 output: a tile row is one contiguous run */
  TileFunc tile;
  gboolean plain_pack;        /* weights packed [tap][i][o 32] (the plain loops', widened by AVX2) */
  /* the plain loops' weights as int16 for the AVX2 tile (NULL: the C loop), [block][tap][q]
   * [pair][o 32][2]: pair 0 holds inputs 4q and 4q+2, pair 1 inputs 4q+1 and 4q+3; kept
   * with the packed weights, made when want_w16 (depthwise: dw_w16) */
  gint16 *w16;
  gboolean want_w16;
  const Zg330KernelWeights *weights;
  /* groups: the input's channels of group g sit at g*Ip in the padded copy (Ip: I in
   * fours); output slot (block B, lane j) is channel (B/obe)*Og + (B%obe)*32 + j */
  guint groups, I, Og, Ip;
  /* packed groups (VNNI, groups of fewer than 32 outputs): a block's 32 lanes hold NG
   * groups of Ogp lanes (Og rounded up to a power of two); lane l of block B is output j =
   * l % Ogp of group B*NG + l/Ogp.  Each lane takes its group's input quads through a
   * dword permutation of the pixel's bytes: perm[(h * nq + q) * 16 + l] for half h. */
  guint NG, Ogp, nb;          /* NG 0: one group per block (obe blocks per group) */
  gint32 *perm;
  /* packed groups of one quad each (Ip 4), more than two per block: no expansion.  Half h
   * of a block covers gph = 16/Ogp groups, lane l taking output l/gph of group
   * h*gph + l%gph, so the half's input is the gph groups' 4*gph bytes broadcast to the
   * whole register (bcast: that byte count, 0 otherwise).  The requantised bytes of a half
   * go back to channel order through res_perm (a byte shuffle) before they are stored. */
  guint bcast;
  guint8 res_perm[16];
  /* packed groups take their input expanded: per block plane, per pixel, per quad, the two halves'
   * 16 dwords as the lanes need them (the permutation done once per input pixel, not per
   * output pixel and tap); before expansion a pixel is groups * Ip bytes, [g][Ip] */
  gint16 *xs, *ws;
  /* depthwise path: zero-padded [N][Hp][Wp][Cp] input, [tap][Cp] weights (Cp: C in
   * blocks of DW_BLK); with VNNI, weights [g][kw][Cp][4] and the bias corrections */
  guint Cp;
  gint8 *dw_wq;
  gint32 *dw_corr;
  /* 3x3 depthwise rows (conv_dw_rows_3x3): two output rows per item from one quad row of
   * input rows, their weights [r][kw][Cp][4] with row r's taps at bytes r .. r+2 */
  gint8 *dw_wr;
  /* the same weights by type plane ([block][r][kw][type][64]; dw_type_channel) and their
   * figures (job->rq's dwfig4) */
  const gint8 *dw_wt;
  const float *dw_fig4;
  /* AVX2: the pair weights (dw_pairs_pack), kept with the packed weights, and the
   * bracket's mulf, bralo and brd by pair-row slot ([3][Cp]) */
  gint16 *dw_w16;
  const float *dw_fig;        /* job->rq's dwfig */
  const guint8 *dw_bounded8;  /* per 8 slots: TRUE where all have a bound (requant_slot_bounds) */
};

#define DW_BLK 32u
#define DW_HELD_TAPS 9u    /* depthwise weights kept in registers up to this many (g, kw) taps */

/* The VNNI 3x3 depthwise paths' "type planes" (conv_dw_rows_3x3): lane l of a type-@j
 * register holds, for pixel l / 8 of a pair, the block's channel dw_type_channel (j, l % 8):
 * channels 4j .. 4j+3 and 16+4j .. 16+4j+3, the order byte interleaves give and the
 * saturating packs of types 0-3 undo. */
static inline guint
dw_type_channel (guint j, guint i)
{
  return (i < 4 ? 4 * j : 16 + 4 * j) + i % 4;
}

/* The output channel of byte @j of block @ob's tile result (what conv_store writes), or -1
 * for a byte without one. */
static inline gint64
res_channel (const ConvJob *job, guint ob, guint j)
{
  if (job->NG > 0)
    {
      guint g = ob * job->NG + j / job->Ogp, jj = j % job->Ogp;
      return g < job->groups && jj < job->Og ? (gint64) g * job->Og + jj : -1;
    }
  else
    {
      guint obg = ob % job->obe;
      return obg * OBLK + j < job->Og ? (gint64) (ob / job->obe) * job->Og + obg * OBLK + j : -1;
    }
}

/* The output channel of register lane @j of block @ob (its weights, correction and
 * requantisation figures), or -1 for a lane without one: res_channel() but for
 * broadcast packed groups, whose lanes are in another order (ConvJob.bcast). */
static inline gint64
slot_channel (const ConvJob *job, guint ob, guint j)
{
  if (job->bcast > 0)
    {
      guint gph = 16 / job->Ogp, l = j % 16;
      guint g = ob * job->NG + (j / 16) * gph + l % gph, jj = l / gph;
      return g < job->groups && jj < job->Og ? (gint64) g * job->Og + jj : -1;
    }
  if (job->NG > 0)
    return res_channel (job, ob, j);
  else
    {
      guint obg = ob % job->obe;
      return obg * OBLK + j < job->Og ? (gint64) (ob / job->obe) * job->Og + obg * OBLK + j : -1;
    }
}

/* The group of block @ob's first lane (whose input quads the block's x pointer starts at). */
static inline guint
block_first_group (const ConvJob *job, guint ob)
{
  return job->NG > 0 ? ob * job->NG : ob / job->obe;
}

/* The double rule for one accumulator. */
static inline gint
requant_value (gint32 acc, gint32 corr, double mul, double add, gint lo, gint hi)
{
  double v = (double) (acc - corr) * mul;
  v = v + add;
  return round_clamp (v, lo, hi);
}

static inline guint8
requant_lane (gint32 acc, gint32 corr, double mul, double add, gint lo, gint hi)
{
  return (guint8) requant_value (acc, corr, mul, add, lo, hi);
}

static inline void
requant_tile_c (const gint32 *acc, guint T, const gint32 *corr, const double *mul,
                const double *add, gint lo, gint hi, guint8 *res)
{
  for (guint t = 0; t < T; t++)
    for (guint j = 0; j < OBLK; j++)
      res[t * OBLK + j] = requant_lane (acc[t * OBLK + j], corr[j], mul[j], add[j], lo, hi);
}

/* A tile's input steps in the padded copy: between pixels of one kernel row (ipad), output
 * pixels (pix) and rows (row). */
typedef struct {
  gsize ipad, pix, row;
} TileSteps;

static inline TileSteps
tile_steps (const ConvJob *job)
{
  return (TileSteps) { job->ipad, (gsize) job->sw * job->ipad, (gsize) job->Wp * job->ipad };
}

/* ---- packed weights, kept between calls ----------------------------------------------
 *
 * A forward runs every conv with the same weights again: their packing (a transpose with
 * the bias correction sums) is kept, keyed by everything it depends on and by the weight
 * bytes themselves (a hash to find the entry, then a byte comparison: a changed byte is
 * a different key, so weights edited in ETM are packed anew, never served stale).  The
 * cache holds at most PACK_CACHE_BYTES, oldest out first; entries are reference counted so
 * a conv may use one while another thread evicts it. */

#define PACK_CACHE_BYTES ((gsize) 256 << 20)

typedef struct {
  guint64 hash;
  guint ob, ib, kh, kw, ko, ki, C, O;
  gboolean in_signed, generic;
  guint NG;                 /* packed groups: a different packing of the same bytes */
  guint kind, sh;           /* PACK_*; the depthwise rows' packing depends on the stride */
  gsize n_bytes;            /* weight bytes the packing reads */
  gint8 *src;               /* a copy of them */
  gint8 *wpack;             /* depthwise: the quad weights (ConvJob.dw_wq) */
  gint8 *wpack2;            /* depthwise 3x3: the rows' weights (ConvJob.dw_wr), else NULL */
  gint8 *wpack3;            /* depthwise 3x3 at stride 1: by type plane (ConvJob.dw_wt) */
  gboolean wide;            /* with w16: blocks, the AVX2 tiles' int16 weights (ConvJob.w16);
                             * depthwise, the pair weights (ConvJob.dw_w16) */
  gint16 *w16;
  gint32 *corr;
  gint64 *wpos, *wneg;      /* per slot: the sums of its positive and negative weights */
  gsize footprint;
  RequantFigures *rq;         /* the last requantisation figures made with it (pack_lock) */
} PackedWeights;

enum { PACK_BLOCKS, PACK_DEPTHWISE };

G_GNUC_INTERNAL extern GMutex pack_lock;   /* the cache, and the figures kept in its entries */

#define DW_BAND 16u         /* most output rows per item */
#define DW_HELD_PAIRS 9u    /* pair weights kept in registers up to this many */
#define DW_PASS_PIXELS 48u  /* narrow rows: output rows per pass up to about this many pixels */

/* Per-thread scratch for the pair rows' passes, kept between calls (a small conv takes
 * microseconds, and its five allocations took about 2 % of them); a request above
 * DW_SCRATCH_KEEP bytes is allocated and freed each time instead. */
#define DW_SCRATCH_KEEP ((gsize) 1 << 20)
typedef struct {
  guint kp;         /* pairs per kernel row: ceil (KW / 2) */
  guint hstep;      /* input columns between pair-row entries */
  guint es, ej;     /* entries between output pixels; between a kernel row's pairs */
  guint nent;       /* entries per chunk of a pair row */
  guint i0, i1;     /* the entries whose two columns both lie inside the input: i0 .. i1 - 1 */
  guint band, nbands;
} DwPairs;

/* The block channel of slot @s (0 .. 31) of a pair row, and back. */
static inline guint
dw_slot_channel (guint s)
{
  return (s % 8 < 4 ? 0 : 12) + s / 8 * 4 + s % 8;
}

static inline guint
dw_channel_slot (guint c)
{
  return c < 16 ? c / 4 * 8 + c % 4 : (c - 16) / 4 * 8 + 4 + c % 4;
}

/* maxpool's job (maxpool.c, portable.c) */
#define POOL_BLK 32u

typedef struct {
  const Zg330KernelTensor *in, *out;
  const Zg330PoolParams *params;
  const Requant *rq;
  const Addr *ai, *ao;
} PoolJob;

/* ---- the dispatch table (platform.c) ------------------------------------------------ */

typedef enum {
  KERNEL_ISA_PLAIN,   /* "generic": plain C (the portable loops' AVX2 build where the CPU has AVX2) */
  KERNEL_ISA_AVX2,    /* "avx2": AVX2 and FMA */
  KERNEL_ISA_VNNI,    /* "avx512-vnni": AVX-512 F, BW, DQ, VL and VNNI */
} KernelIsaLevel;

/* One ISA level's kernels, filled once (platform.c); NULL where the level has none. */
struct KernelPlatform {
  const char *name;     /* zg330_kernel_get_isa () */
  KernelIsaLevel level;
  /* the portable loops (portable.c): conv's padded input row, the plain depthwise row, max
   * pooling's rows of channel blocks */
  void (*conv_pack_row) (const ConvJob *job, guint n, guint hp, guint8 *out, gsize plane);
  RangeFunc conv_dw_row, pool_row_blocks;
  /* conv tiles: dense (the plain loop, AVX2 or VNNI) and packed groups (AVX2, VNNI) */
  TileFunc tile, tile_packed;
  /* packed groups' input expanded (VNNI) */
  void (*conv_expand_groups) (const ConvJob *job, const guint8 *row, guint8 *dst, gsize plane);
  /* depthwise: AVX2 pair rows; VNNI quad rows; with VBMI, 3x3 at stride 1 and at stride 2 */
  RangeFunc conv_dw_pairs, conv_dw_row_vnni, conv_dw_rows_3x3, conv_dw_cols_3x3_s2;
  /* the flat add, 16 bytes at a time (NULL: the plain loop or its table) */
  void (*add_part) (const AddJob *job, gsize from, gsize to);
};

/* The current level's table: the best the CPU has, capped by zg330_kernel_set_generic_only ()
 * and zg330_kernel_set_plain_only (). */
G_GNUC_INTERNAL const KernelPlatform *kernel_platform (void);

/* ---- functions of one file that others call ------------------------------------------ */

/* tensor.c */
G_GNUC_INTERNAL const char *dtype_name (Zg330KernelDType d);
G_GNUC_INTERNAL char *tensor_describe (const Zg330KernelTensor *t);
G_GNUC_INTERNAL gssize first_bad_scale (const float *s, guint n);
G_GNUC_INTERNAL gboolean tensor_check (const Zg330KernelTensor *t, const char *op, const char *name,
                                       gboolean int_only, GError **error);
G_GNUC_INTERNAL gboolean check_same_nhw (const char *op, const char *an, const Zg330KernelTensor *a,
                                         const char *bn, const Zg330KernelTensor *b, gboolean with_c, GError **error);
G_GNUC_INTERNAL void addr_init (Addr *a, const Zg330KernelTensor *t);
G_GNUC_INTERNAL void addr_clear (Addr *a);
G_GNUC_INTERNAL void zero_padding (const Zg330KernelTensor *t);
G_GNUC_INTERNAL gboolean check_window (const char *op, const char *dim, guint in, guint out, guint k, guint s,
                                       guint pad, GError **error);
G_GNUC_INTERNAL gboolean same_memory_layout (const Zg330KernelTensor *a, const Zg330KernelTensor *b);
G_GNUC_INTERNAL gboolean scales_uniform (const Zg330KernelTensor *t);

/* requant.c */
G_GNUC_INTERNAL void requant_init (Requant *rq, const Zg330KernelTensor *in, guint in_c0,
                                   const Zg330KernelTensor *out, guint out_c0, guint count);
G_GNUC_INTERNAL void requant_clear (Requant *rq);
G_GNUC_INTERNAL void conv_job_requant (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
                                       const Zg330KernelTensor *out, guint n_slots, gboolean blocked);
G_GNUC_INTERNAL void requant_figures_unref (RequantFigures *rq);
G_GNUC_INTERNAL void requant_figures_get (ConvJob *job, PackedWeights *pw, const gint32 *corr,
                                          const Zg330KernelWeights *wt, guint n_slots, gboolean blocked,
                                          gboolean bounds);

/* threads.c */
G_GNUC_INTERNAL guint parallel_threads (guint n_items, double est_ns);
G_GNUC_INTERNAL void parallel_for (guint n_items, RangeFunc func, gpointer data, double est_ns);

/* pack.c */
G_GNUC_INTERNAL PackedWeights *packed_weights_get (ConvJob *job, const Zg330KernelWeights *wt, guint kind);
G_GNUC_INTERNAL void packed_weights_unref (PackedWeights *pw);

/* depthwise.c */
G_GNUC_INTERNAL gpointer dw_scratch_get (gsize size, gboolean *own);
G_GNUC_INTERNAL void dw_pairs_geometry (const ConvJob *job, DwPairs *g);
G_GNUC_INTERNAL void conv_depthwise (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *weights);

/* depthwise-avx2.c */
G_GNUC_INTERNAL void conv_dw_pairs (gpointer data, guint item);

/* depthwise-vnni.c */
G_GNUC_INTERNAL void conv_dw_row_vnni (gpointer data, guint item);

/* depthwise-vnni-s1.c */
G_GNUC_INTERNAL void conv_dw_rows_3x3 (gpointer data, guint item);

/* depthwise-vnni-s2.c */
G_GNUC_INTERNAL void conv_dw_cols_3x3_s2 (gpointer data, guint item);

/* add.c */
G_GNUC_INTERNAL void add_part (const AddJob *job, gsize from, gsize to);

/* layout.c */
G_GNUC_INTERNAL gboolean check_same_channels (const char *op, const Zg330KernelTensor *in,
                                              const Zg330KernelTensor *out, GError **error);

/* portable.c, built twice (_plain, _avx2) */
G_GNUC_INTERNAL void conv_pack_row_plain (const ConvJob *job, guint n, guint hp, guint8 *out, gsize plane);
G_GNUC_INTERNAL void conv_pack_row_avx2 (const ConvJob *job, guint n, guint hp, guint8 *out, gsize plane);
G_GNUC_INTERNAL void tile_generic_plain (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                                         guint8 *res);
G_GNUC_INTERNAL void tile_generic_avx2 (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                                        guint8 *res);
G_GNUC_INTERNAL void conv_dw_row_plain (gpointer data, guint item);
G_GNUC_INTERNAL void conv_dw_row_avx2 (gpointer data, guint item);
G_GNUC_INTERNAL void pool_row_blocks_plain (gpointer data, guint item);
G_GNUC_INTERNAL void pool_row_blocks_avx2 (gpointer data, guint item);

/* the ISA files, reached through the dispatch table only */
G_GNUC_INTERNAL void tile_avx2 (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T, guint8 *res);
G_GNUC_INTERNAL void tile_avx2_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                                       guint8 *res);
G_GNUC_INTERNAL void tile_vnni (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T, guint8 *res);
G_GNUC_INTERNAL void tile_vnni_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                                       guint8 *res);
G_GNUC_INTERNAL void conv_expand_groups (const ConvJob *job, const guint8 *row, guint8 *dst, gsize plane);
G_GNUC_INTERNAL void add_part_avx2 (const AddJob *job, gsize from, gsize to);
G_GNUC_INTERNAL void add_part_vnni (const AddJob *job, gsize from, gsize to);

G_END_DECLS
