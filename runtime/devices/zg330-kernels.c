/* zg330-kernels.c: behavioural models of the ZG330 hardops (see zg330-kernels.h).
 *
 * The conv is the simulator's hot path.  It repacks its operands once per call into
 * forms an int8 dot-product instruction eats directly:
 *   - the input becomes a spatially padded NHWC uint8 image; signed inputs are biased
 *     by +128 (x ^ 0x80) so that AVX-512 VNNI's unsigned x signed vpdpbusd applies, and
 *     the bias is taken out exactly afterwards: sum((x+128)*w) - 128*sum(w).  Padding
 *     holds the biased zero, so the correction is the same for every output pixel;
 *   - the weights become, per block of 32 output channels and per tap, groups of four
 *     input channels laid out [i/4][o 0..31][i%4]: one 64-byte load feeds 16 output
 *     channels x 4 input channels.
 * A tile of up to 12 output pixels x 32 output channels lives in 24 zmm accumulators.
 * Work items are (n, output block, output row); each output element is written by
 * exactly one item, so the result never depends on the number of threads.
 * Machines without AVX-512 VNNI run plain C loops (an AVX2 clone where available) over
 * weights packed [i][o 32] instead, with the same exact integer sums and the same
 * requantisation arithmetic; tests check both against a naive reference.
 * Grouped/depthwise convs take a direct int16 loop (absent from the vendor's networks).
 */
#include "devices/zg330-kernels.h"

#include <math.h>
#include <string.h>
#include <time.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ZG330_HAVE_X86 1
#include <immintrin.h>
#else
#define ZG330_HAVE_X86 0
#endif

G_DEFINE_QUARK (zg330-kernel-error-quark, zg330_kernel_error)

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

/* ---------------------------------------------------------------------------------- */
/* descriptors                                                                        */

static const char *
dtype_name (Zg330KernelDType d)
{
  switch (d)
    {
    case ZG330_KERNEL_DTYPE_SINT8: return "sint8";
    case ZG330_KERNEL_DTYPE_UINT8: return "uint8";
    case ZG330_KERNEL_DTYPE_FP32: return "fp32";
    default: return "?";
    }
}

static gsize
elem_size (const Zg330KernelTensor *t)
{
  return t->dtype == ZG330_KERNEL_DTYPE_FP32 ? 4 : 1;
}

static guint
n_blocks (const Zg330KernelTensor *t)
{
  return (t->c + t->k - 1) / t->k;
}

/* Element count including NCHWcK padding; 0 on overflow or malformed dims. */
static guint64
tensor_elements (const Zg330KernelTensor *t)
{
  guint64 c, e;

  if (t->n == 0 || t->c == 0 || t->h == 0 || t->w == 0)
    return 0;
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    {
      if (t->k == 0)
        return 0;
      c = (guint64) n_blocks (t) * t->k;
    }
  else if (t->layout == ZG330_KERNEL_LAYOUT_NHWC)
    c = t->c;
  else
    return 0;
  e = (guint64) t->n * c;
  if (e > (G_GUINT64_CONSTANT (1) << 40) / t->h)
    return 0;
  e *= t->h;
  if (e > (G_GUINT64_CONSTANT (1) << 40) / t->w)
    return 0;
  return e * t->w;
}

gsize
zg330_kernel_tensor_get_size (const Zg330KernelTensor *t)
{
  g_return_val_if_fail (t != NULL, 0);
  if ((guint) t->dtype > ZG330_KERNEL_DTYPE_FP32)
    return 0;
  return (gsize) (tensor_elements (t) * elem_size (t));
}

static char *
tensor_describe (const Zg330KernelTensor *t)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    return g_strdup_printf ("%s NCHWc%u n=%u c=%u h=%u w=%u", dtype_name (t->dtype),
                            t->k, t->n, t->c, t->h, t->w);
  return g_strdup_printf ("%s NHWC n=%u c=%u h=%u w=%u", dtype_name (t->dtype),
                          t->n, t->c, t->h, t->w);
}

/* A scale's bits as a signed int32: a positive finite float (subnormals too: the checks
 * run with the default MXCSR) is 1 .. 0x7f7fffff; zero and the negatives lie at or below
 * 0, the infinity and NaN at or above 0x7f800000. */
#define SCALE_OK(i) ((i) > 0 && (i) < 0x7f800000)

/* The first of @n scales that is not a positive finite number, or -1: one pass on the
 * scales' bits, four at a time in a 16-byte GCC vector with signed compares (SSE2 has
 * them; wider vectors GCC splits into scalars; the checks run at every call, and a small
 * conv takes microseconds), then the search only when one is bad. */
static gssize
first_bad_scale (const float *s, guint n)
{
  typedef gint32 Bits4 __attribute__ ((vector_size (16)));
  const Bits4 inf = { 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000 };
  Bits4 bad4 = { 0 };
  gint32 bad = 0;
  guint i = 0;

  for (; i + 4 <= n; i += 4)
    {
      Bits4 v;
      memcpy (&v, s + i, sizeof v);
      bad4 |= (v <= 0) | (v >= inf);
    }
  for (guint l = 0; l < 4; l++)
    bad |= bad4[l];
  for (; i < n; i++)
    {
      gint32 u;
      memcpy (&u, s + i, sizeof u);
      bad |= !SCALE_OK (u);
    }
  if (bad == 0)
    return -1;
  for (i = 0; i < n; i++)
    {
      gint32 u;
      memcpy (&u, s + i, sizeof u);
      if (!SCALE_OK (u))
        return i;
    }
  return -1;
}

static gboolean
tensor_check (const Zg330KernelTensor *t, const char *op, const char *name,
              gboolean int_only, GError **error)
{
  g_autofree char *desc = NULL;
  gsize need;

  if ((guint) t->layout > ZG330_KERNEL_LAYOUT_NCHWC)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s layout %d is unknown", op, name, (int) t->layout);
      return FALSE;
    }
  if ((guint) t->dtype > ZG330_KERNEL_DTYPE_FP32)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s dtype %d is unknown", op, name, (int) t->dtype);
      return FALSE;
    }
  /* (the description only for an error: formatting it costs more than a small conv's checks) */
  if (int_only && t->dtype == ZG330_KERNEL_DTYPE_FP32)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) must be sint8 or uint8", op, name, desc);
      return FALSE;
    }
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC && t->k == 0)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) has channel block K=0", op, name, desc);
      return FALSE;
    }
  need = zg330_kernel_tensor_get_size (t);
  if (need == 0)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s (%s) has a zero or oversized dimension", op, name, desc);
      return FALSE;
    }
  if (t->data == NULL || t->size < need)
    {
      desc = tensor_describe (t);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s buffer holds %" G_GSIZE_FORMAT " bytes, %s needs %" G_GSIZE_FORMAT,
                   op, name, t->data ? t->size : 0, desc, need);
      return FALSE;
    }
  if (t->scales != NULL)
    {
      gssize c = first_bad_scale (t->scales, t->c);
      if (c >= 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "%s: %s scale[%u] = %g is not a positive finite number",
                       op, name, (guint) c, (double) t->scales[c]);
          return FALSE;
        }
    }
  return TRUE;
}

static inline float
scale_of (const Zg330KernelTensor *t, guint c)
{
  return t->scales ? t->scales[c] : 1.0f;
}

static gboolean
check_same_nhw (const char *op, const char *an, const Zg330KernelTensor *a,
                const char *bn, const Zg330KernelTensor *b, gboolean with_c, GError **error)
{
  if (a->n != b->n || a->h != b->h || a->w != b->w || (with_c && a->c != b->c))
    {
      g_autofree char *da = tensor_describe (a);
      g_autofree char *db = tensor_describe (b);
      const char *field = a->n != b->n ? "n" : a->h != b->h ? "h" : a->w != b->w ? "w" : "c";
      guint va = a->n != b->n ? a->n : a->h != b->h ? a->h : a->w != b->w ? a->w : a->c;
      guint vb = a->n != b->n ? b->n : a->h != b->h ? b->h : a->w != b->w ? b->w : b->c;
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: %s %s=%u != %s %s=%u (%s vs %s)", op, an, field, va, bn, field, vb,
                   da, db);
      return FALSE;
    }
  return TRUE;
}

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

static void
addr_init (Addr *a, const Zg330KernelTensor *t)
{
  a->chan = t->c <= ADDR_LOCAL ? a->local : g_new (gsize, t->c);
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    {
      gsize plane = (gsize) t->h * t->w * t->k;
      a->batch = plane * n_blocks (t);
      a->pix = t->k;
      /* block by block: no division per channel */
      for (guint c = 0, cb = 0; c < t->c; cb++)
        {
          const guint nj = MIN (t->k, t->c - c);
          const gsize base = (gsize) cb * plane;
          for (guint j = 0; j < nj; j++)
            a->chan[c + j] = base + j;
          c += nj;
        }
    }
  else
    {
      a->batch = (gsize) t->h * t->w * t->c;
      a->pix = t->c;
      for (guint c = 0; c < t->c; c++)
        a->chan[c] = c;
    }
  a->row = a->pix * t->w;
}

static void
addr_clear (Addr *a)
{
  if (a->chan != a->local)
    g_free (a->chan);
  a->chan = NULL;
}

/* Length of the run of channels starting at c that are contiguous in memory. */
static guint
channel_run (const Zg330KernelTensor *t, guint c)
{
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC)
    return MIN (t->k - c % t->k, t->c - c);
  return t->c - c;
}

/* Outputs carry zeros in the padding channels of a partial last NCHWcK block, so
 * dumps and checksums do not depend on stale memory. */
static void
zero_padding (const Zg330KernelTensor *t)
{
  gsize es = elem_size (t);
  guint used, cb;
  gsize plane, pixels;
  guint8 *base = t->data;

  if (t->layout != ZG330_KERNEL_LAYOUT_NCHWC || t->c % t->k == 0)
    return;
  used = t->c % t->k;
  cb = n_blocks (t);
  pixels = (gsize) t->h * t->w;
  plane = pixels * t->k;
  for (guint n = 0; n < t->n; n++)
    {
      guint8 *blk = base + ((gsize) n * cb + cb - 1) * plane * es;
      for (gsize p = 0; p < pixels; p++)
        memset (blk + (p * t->k + used) * es, 0, (t->k - used) * es);
    }
}

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

/* Per-channel 256-entry requantisation tables, shared between channels with the same
 * ratio (in practice one table for the whole tensor). */
typedef struct {
  guint8 *tables;   /* n_tables * 256 */
  guint *index;     /* per channel: table number */
  guint n_tables;
  gboolean identity; /* every channel maps x -> x (same ratio 1 and dtype) */
} Requant;

static void
requant_init (Requant *rq, const Zg330KernelTensor *in, guint in_c0,
              const Zg330KernelTensor *out, guint out_c0, guint count)
{
  double *ratios = g_new (double, count);
  gint lo, hi;

  dtype_range (out->dtype, &lo, &hi);
  rq->tables = g_new (guint8, (gsize) count * 256);
  rq->index = g_new (guint, count);
  rq->n_tables = 0;
  rq->identity = in->dtype == out->dtype;
  for (guint c = 0; c < count; c++)
    {
      double r = (double) scale_of (in, in_c0 + c) / (double) scale_of (out, out_c0 + c);
      guint t;

      if (r != 1.0)
        rq->identity = FALSE;
      for (t = 0; t < rq->n_tables; t++)
        if (ratios[t] == r)
          break;
      if (t == rq->n_tables)
        {
          guint8 *tab = rq->tables + (gsize) t * 256;
          ratios[t] = r;
          for (guint b = 0; b < 256; b++)
            tab[b] = (guint8) round_clamp ((double) raw_value ((guint8) b, in->dtype) * r, lo, hi);
          rq->n_tables++;
        }
      rq->index[c] = t;
    }
  g_free (ratios);
}

static void
requant_clear (Requant *rq)
{
  g_clear_pointer (&rq->tables, g_free);
  g_clear_pointer (&rq->index, g_free);
}

static inline const guint8 *
requant_table (const Requant *rq, guint c)
{
  return rq->tables + (gsize) rq->index[c] * 256;
}

/* Output rows a window geometry needs beyond the input, and whether that fits the
 * rule "bottom/right padding <= top/left padding". */
static gboolean
check_window (const char *op, const char *dim, guint in, guint out, guint k, guint s,
              guint pad, GError **error)
{
  gint64 need;

  if (s == 0 || k == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "%s: %s %s is 0", op, dim, s == 0 ? "stride" : "kernel");
      return FALSE;
    }
  /* out = floor((in + pad + far - k) / s) + 1 for some far padding in [0, pad]. */
  need = (gint64) (out - 1) * s + k - (gint64) in - pad;
  if (need > (gint64) pad || need + (gint64) s - 1 < 0)
    {
      gint64 span_hi = (gint64) in + 2 * pad - k;
      gint64 span_lo = (gint64) in + pad - k;
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: output %s=%u does not fit input %s=%u with kernel %u, stride %u, "
                   "padding %u (expected %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT ")",
                   op, dim, out, dim, in, k, s, pad,
                   span_lo >= 0 ? span_lo / s + 1 : 1,
                   span_hi >= 0 ? span_hi / s + 1 : 0);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* shared worker pool                                                                 */

typedef void (*RangeFunc) (gpointer data, guint item);

typedef struct {
  RangeFunc func;
  gpointer data;
  gint n_items;
  gint next;
  GMutex lock;
  GCond cond;
  guint active;
} ParallelJob;

static gint n_threads_setting;   /* 0 = processors */
static gint isa_cap;             /* 0: the best there is; 1: no VNNI; 2: plain C only */

/* The processors, counted once: g_get_num_processors () reads a file under /sys on every
 * call (three system calls), and the kernels ask for it hundreds of times per forward.
 * The count decides only how many threads share a job, never a byte. */
static guint
processors (void)
{
  static gsize once = 0;
  static guint n;

  if (g_once_init_enter (&once))
    {
      n = MAX (1u, g_get_num_processors ());
      g_once_init_leave (&once, 1);
    }
  return n;
}

static guint
effective_threads (void)
{
  gint n = g_atomic_int_get (&n_threads_setting);
  return n > 0 ? (guint) n : processors ();
}

void
zg330_kernel_set_threads (guint n_threads)
{
  g_atomic_int_set (&n_threads_setting, (gint) MIN (n_threads, 1024u));
}

guint
zg330_kernel_get_threads (void)
{
  return effective_threads ();
}

static void
job_drain (ParallelJob *job)
{
  for (;;)
    {
      gint i = g_atomic_int_add (&job->next, 1);
      if (i >= job->n_items)
        break;
      job->func (job->data, (guint) i);
    }
}

static gsize helper_cpu_ns;   /* atomic */

static gint64
thread_cpu_ns (void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
  struct timespec ts;
  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
#endif
  return 0;
}

guint64
zg330_kernel_get_helper_cpu_ns (void)
{
  return (guint64) g_atomic_pointer_get (&helper_cpu_ns);
}

static void
pool_worker (gpointer item, gpointer user_data)
{
  ParallelJob *job = item;

  gint64 c0 = thread_cpu_ns ();
  FP_ENV_GUARD;

  (void) user_data;
  job_drain (job);
  g_atomic_pointer_add (&helper_cpu_ns, (gssize) (thread_cpu_ns () - c0));
  g_mutex_lock (&job->lock);
  job->active--;
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
}

static gpointer
pool_create (gpointer data)
{
  (void) data;
  /* Non-exclusive: threads are GLib's shared ones and idle ones are reaped.  The
   * limit grows on demand in parallel_for(). */
  return g_thread_pool_new (pool_worker, NULL, 1, FALSE, NULL);
}

/* Runs func(data, i) for i in [0, n_items) on up to effective_threads() threads; the
 * caller works too, so progress never depends on pool threads being free. */
/* Below this much work (an estimate in nanoseconds of one core's time) a job runs on the
 * calling thread: waking the pool's threads costs tens of microseconds on a virtual
 * machine, more than a small layer takes (a 28x28x192 depthwise: ~50 us alone, twice that
 * on two threads).  Items never depend on each other, so the bytes are the same either way. */
#define PARALLEL_MIN_NS 150000

static gint parallel_min_ns = PARALLEL_MIN_NS;

void
zg330_kernel_set_parallel_min_ns (gint ns)
{
  g_atomic_int_set (&parallel_min_ns, ns < 0 ? PARALLEL_MIN_NS : ns);
}

/* The threads parallel_for() would run @n_items items of @est_ns nanoseconds on. */
static guint
parallel_threads (guint n_items, double est_ns)
{
  return est_ns < (double) g_atomic_int_get (&parallel_min_ns) ? 1 : MAX (1u, MIN (effective_threads (), n_items));
}

static void
parallel_for (guint n_items, RangeFunc func, gpointer data, double est_ns)
{
  static GOnce once = G_ONCE_INIT;
  ParallelJob job = { func, data, (gint) n_items, 0, { 0 }, { 0 }, 0 };
  GThreadPool *pool;
  guint helpers = parallel_threads (n_items, est_ns);

  g_assert (n_items <= G_MAXINT / 2);
  if (helpers <= 1)
    {
      for (guint i = 0; i < n_items; i++)
        func (data, i);
      return;
    }
  helpers--;
  pool = g_once (&once, pool_create, NULL);
  if ((guint) g_thread_pool_get_max_threads (pool) < helpers)
    g_thread_pool_set_max_threads (pool, (gint) helpers, NULL);

  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  job.active = helpers;
  for (guint i = 0; i < helpers; i++)
    g_thread_pool_push (pool, &job, NULL);
  job_drain (&job);
  g_mutex_lock (&job.lock);
  while (job.active > 0)
    g_cond_wait (&job.cond, &job.lock);
  g_mutex_unlock (&job.lock);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
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

typedef void (*TileFunc) (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob,
                          guint T, guint8 *res);

struct ConvJob {
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

/* The float requantisation's per-slot figures (vnni_requant16_fast): the scale, the
 * offset with the bias correction @corr folded in, and the offset's error term; +inf
 * (always the double rule) where the float figures overflow or lose their precision. */
static void
requant_float_init (ConvJob *job, const gint32 *corr, guint n_slots)
{
  RequantFigures *rq = job->rq;

  rq->mulf = g_new0 (float, n_slots);
  rq->addf = g_new0 (float, n_slots);
  rq->errf = g_new0 (float, n_slots);
  for (guint slot = 0; slot < n_slots; slot++)
    {
      double m = rq->mul[slot], a = rq->add[slot] - (double) corr[slot] * m;
      rq->mulf[slot] = (float) m;
      rq->addf[slot] = (float) a;
      if (!isfinite (rq->mulf[slot]) || !isfinite (rq->addf[slot])
          || (m != 0 && fabs (m) < 1e-30) || (a != 0 && fabs (a) < 1e-30))
        rq->errf[slot] = INFINITY;
      else
        rq->errf[slot] = (float) (fabs (a) / 2097152.0 + 1.0 / 1048576.0);
    }
}

/* ---- the bounded float requantisation ----------------------------------------------
 *
 * vnni_requant16_bounded() computes v = fma ((float) acc, mulf, addf) and takes rne (v)
 * unless some lane's v lies within 1/2 - thr of a half-integer (one vreduceps and a
 * compare), in which case the 16 lanes take the double rule.  thr is per slot, from a
 * bound E on |v - the double rule's value| over every accumulator the slot can reach
 * ([amin, amax]: its weights against inputs of 0..255, the biased bytes): thr = 1/2 - E.
 * A lane that passes is more than E from every half-integer, so the double value is on
 * the same side of each and is no tie: both round to the same integer, and the rails
 * clamp both alike.  E covers the float scale's and offset's roundings, the fma's, and
 * the double rule's own (at 2^-53).  A slot whose reach passes 2^24 (the float
 * accumulator would round) or whose values could pass 2^22 gets thr = -1 and the guarded
 * path (vnni_requant16_fast).  Below 2^22, v + 1.5 * 2^23 lands in [2^23, 2^24), where a
 * float's last bit is 1: the addition rounds v to the nearest integer (ties to even) and
 * leaves it in the low bits (vnni_round_bounded), cheaper than a conversion. */

/* The bound e of one slot (see above), the bracket's tighter eb (below) and G >= 1 + the
 * largest |v| it can reach, both taken over the accumulators whose value lies within
 * @rails of zero where that is safe (below); FALSE where the slot has no bound (the
 * guarded path). */
static gboolean
requant_bound (gint64 amin, gint64 amax, gint32 corr, double mul, double add, double rails, double *e_out,
               double *eb_out, double *g_out)
{
  const double a_d = add - (double) corr * mul;
  const float mf = (float) mul, af = (float) a_d;     /* as requant_float_init */
  double reach, gmax, dbl;

  if (!isfinite (mul) || !isfinite (add) || !isfinite (mf) || !isfinite (af) || amin > amax)
    return FALSE;
  reach = MAX (fabs ((double) amin), fabs ((double) amax));
  if (reach >= 16777216.0 || fabs ((double) corr) >= 16777216.0)
    return FALSE;
  gmax = reach * fabs ((double) mf) + fabs ((double) af);
  if (gmax >= 4194304.0 * 0.999)     /* |v| < 2^22, with room for v's own rounding */
    return FALSE;
  /* float: the fma's rounding (2^-24 |v|), the scale's (2^-24 |acc mul|) and the offset's
   * (2^-24 |a_d|), doubled; double: a few roundings at 2^-53, taken at 2^-46 */
  dbl = (fabs ((double) corr * mul) + (reach + fabs ((double) corr)) * fabs (mul) + fabs (add) + 1.0) * 0x1p-46;
  *e_out = (reach * fabs (mul) + fabs (a_d) + gmax) * 0x1p-22 + dbl;
  /* the bracket bounds the exact z = acc mulf + af, which has no fma rounding: its
   * distance to the double rule's value is below 2^-24 (|acc mul| + |a_d|) plus the double
   * rule's own, so eb is twice that */
  *eb_out = (reach * fabs (mul) + fabs (a_d)) * 0x1p-23 + dbl;
  *g_out = gmax + 1.0;
  if (rails > 0)
    {
      /* the bracket over the values y with |y| <= rails only (|acc mul| <= rails + |a_d|
       * + 1 there), with G covering |af| for alo's own rounding; a value beyond them lies
       * within E of its lo (the scale's, offset's and fma's roundings over the full reach,
       * and alo's offset), so with E < 1/2 both round beyond the rails too */
      const double eb_t = (MIN (reach * fabs (mul), rails + fabs (a_d) + 1.0) + fabs (a_d)) * 0x1p-23 + dbl;
      const double g_t = MIN (gmax, rails + 1.0 + fabs ((double) af)) + 1.0;
      const double far = 0x1p-24 * (gmax + 1.0) + eb_t + 3.0 * 0x1p-23 * g_t + *eb_out;

      if (far < 0.5)
        {
          *eb_out = MIN (*eb_out, eb_t);
          *g_out = MIN (*g_out, g_t);
        }
    }
  return *e_out < 0.25;
}

/* @x as a float no greater (@up FALSE) or no less (@up TRUE) than it */
static inline float
float_directed (double x, gboolean up)
{
  float f = (float) x;

  if (up ? (double) f < x : (double) f > x)
    f = nextafterf (f, up ? INFINITY : -INFINITY);
  return f;
}

/* ---- the bracket: the bounded requantisation with two roundings and no compare ----
 *
 * The depthwise paths spend more of their time requantising than multiplying, so they
 * use a form of the bounded path that needs no vreduceps and no compare (which share the
 * vpdpbusd's ports on the cores we measured): lo = fma (acc, mulf, alo) and hi = lo + D,
 * both rounded to the nearest integer (vcvtps2dq); a lane whose rne (lo) == rne (hi) takes
 * rne (lo), any other lane the double rule.  With z = acc mulf + af (exact), |z - y| <= eb/2
 * for the double rule's value y (requant_bound) and |v| < G:
 *   alo <= af - eb - 2^-23 G (rounded down from a double, within 2^-50 G), so
 *   lo <= z - eb - 2^-23 G + 2^-50 G + 2^-24 G < z - eb < y;
 *   alo >= af - eb - 2^-23 G - Ea, Ea the rounding down of alo (known when it is made:
 *   the double before it, less alo, plus 2^-50 G for that double's own roundings), so
 *   lo >= z - eb - 2^-23 G - Ea - 2^-24 G and, with D >= 1.5 eb + (2^-22 + 2^-24) G + Ea
 *   (rounded up, after a sum in doubles padded by 2^-40 G), hi >= lo + D - 2^-23 G (its
 *   rounding, |hi| < 2G) >= z + eb/2 + 2^-40 G > y.
 * So lo < y < hi: when both round to the same integer, no half-integer lies between them,
 * y is no tie and rounds (half away from zero, as the double rule does) to that integer,
 * and the rails clamp both alike.  The bracket is about 1.5 eb + 2^-22 G wide: a lane
 * falls in it, and takes the double rule, with a chance of about that width (D was
 * 2 eb + 2^-20 G, three times as wide, until the sizes of Ea and of the roundings were
 * counted one by one).
 * Only values near the rails need it: where every value the slot can reach is not, eb and
 * G are taken over the accumulators with |y| <= Y (the rails' reach + 2), where
 * |acc mul| <= Y + |a_d| + 1 and |v| < Y + 1 (G also covers |af|, for alo's rounding).  A
 * value beyond Y is within E = 2^-24 (Gmax + 1) + eb' + 3 * 2^-23 G' + eb (the full
 * reach's) of lo; with E < 1/2, y > Y gives lo > Y - 1/2 and rne (lo) past the upper rail
 * (y < -Y past the lower), so it clamps as y does, and hi >= lo either rounds alike or
 * sends the lane to the double rule.  That makes the bracket a few times 2^-20 (Y + |af|)
 * wide however far the weights could reach, and the double rule rare. */
/* One slot's threshold (-1: none) and bracket (@d +inf: every lane takes the double
 * rule), from one requant_bound. */
static void
requant_slot_bounds (gint64 amin, gint64 amax, gint32 corr, double mul, double add, double rails, float *thr,
                     float *alo, float *d)
{
  double e, eb, g, target, ea;

  if (!requant_bound (amin, amax, corr, mul, add, rails, &e, &eb, &g))
    {
      *thr = -1.0f;
      *alo = 0.0f;
      *d = INFINITY;
      return;
    }
  /* rounded down to a float, so the float compare is no looser than the bound */
  *thr = float_directed (0.5 - e, FALSE);
  target = (double) (float) (add - (double) corr * mul) - eb - 0x1p-23 * g;
  *alo = float_directed (target, FALSE);
  ea = target - (double) *alo + 0x1p-50 * g;
  *d = float_directed (1.5 * eb + (0x1p-22 + 0x1p-24) * g + ea + 0x1p-40 * g, TRUE);
}

/* The figures' thrf and the bracket's bralo / brd per slot, and bounded16 (per 16 slots, all
 * with a threshold), from the slots' figures: mul, add, the corrections @corr and the
 * weight sums job->wpos / job->wneg; n_slots a multiple of 16. */
static void
requant_bounds_init (ConvJob *job, const gint32 *corr, guint n_slots)
{
  RequantFigures *rq = job->rq;
  gint lo, hi;

  dtype_range (job->out->dtype, &lo, &hi);
  rq->thrf = g_new (float, n_slots);
  rq->bralo = g_new (float, n_slots);
  rq->brd = g_new (float, n_slots);
  rq->bounded16 = g_new0 (guint8, n_slots / 16);
  for (guint i = 0; i < n_slots; i++)
    requant_slot_bounds (255 * job->wneg[i], 255 * job->wpos[i], corr[i], rq->mul[i], rq->add[i],
                         MAX (abs (lo), abs (hi)) + 2.0, &rq->thrf[i], &rq->bralo[i], &rq->brd[i]);
  for (guint b = 0; b < n_slots / 16; b++)
    {
      gboolean all = TRUE;
      for (guint i = 0; i < 16; i++)
        all = all && rq->thrf[b * 16 + i] > 0;
      rq->bounded16[b] = (guint8) all;
    }
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

#if ZG330_HAVE_X86 && defined(__has_attribute)
#if __has_attribute (target_clones)
#define GENERIC_CLONES __attribute__ ((target_clones ("avx2", "default")))
#endif
#endif
#ifndef GENERIC_CLONES
#define GENERIC_CLONES
#endif

#if ZG330_HAVE_X86
/* Without VNNI: vpmaddwd on int16, exact in int32.  A pixel's input quad is broadcast as
 * one dword; masking each 16-bit half's low byte gives inputs 0 and 2 as int16, shifting
 * gives inputs 1 and 3, which meet job->w16's two pairs.  @P pixels of half @h of the block
 * (16 outputs) in registers, their sums to @acc[p * OBLK + 16 h ..].  @src says where a
 * half's lanes take their quads (a constant at each call site): AVX2_DENSE, every lane the
 * pixel's quad q; AVX2_PAIR (a pair of packed groups), half h its own group's quad at
 * + h * Ip; or the byte count of a broadcast half (ConvJob.bcast: 8, 16, 32 or 64, one quad
 * per group), whose bytes repeat over its 16 lanes. */
enum { AVX2_DENSE = 0, AVX2_PAIR = 1 };

/* The AVX2 paths (zg330_kernel_get_isa "avx2") also take FMA: the bracket's one rounding. */
#define AVX2_ATTR __attribute__ ((target ("avx2,fma")))

static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
avx2_quads (const ConvJob *job, const guint8 *xp, guint h, const guint src, guint k)
{
  gint32 d;
  gint64 e;

  switch (src)
    {
    case AVX2_DENSE:
      memcpy (&d, xp, 4);
      return _mm256_set1_epi32 (d);
    case AVX2_PAIR:
      memcpy (&d, xp + h * job->Ip, 4);
      return _mm256_set1_epi32 (d);
    case 8:
      memcpy (&e, xp + h * 8, 8);
      return _mm256_set1_epi64x (e);
    case 16:
      return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) (xp + h * 16)));
    case 32:
      return _mm256_loadu_si256 ((const __m256i *) (xp + h * 32));
    default:   /* 64: lanes 8k .. 8k + 7 read bytes 32k .. 32k + 31 */
      return _mm256_loadu_si256 ((const __m256i *) (xp + h * 64 + k * 32));
    }
}

static inline __attribute__ ((always_inline)) AVX2_ATTR void
tile_avx2_pixels (const ConvJob *job, const TileSteps *st, const guint8 *x, const gint16 *wb, guint h,
                  guint P, const guint src, gint32 *acc)
{
  const __m256i mask = _mm256_set1_epi32 (0x00ff00ff);
  __m256i a[4][2];

  for (guint p = 0; p < P; p++)
    a[p][0] = a[p][1] = _mm256_setzero_si256 ();
  for (guint r = 0; r < job->KH; r++)
    for (guint s = 0; s < job->KW; s++)
      {
        const guint8 *xt = x + r * st->row + s * st->ipad;
        const gint16 *wt = wb + ((gsize) r * job->KW + s) * job->nq * 4 * OBLK + h * 32;   /* int16: [pair][o 32][2] */

        for (guint q = 0; q < job->nq; q++, xt += 4, wt += 4 * OBLK)
          {
            const __m256i w00 = _mm256_loadu_si256 ((const __m256i *) wt);
            const __m256i w01 = _mm256_loadu_si256 ((const __m256i *) (wt + 16));
            const __m256i w10 = _mm256_loadu_si256 ((const __m256i *) (wt + 2 * OBLK));
            const __m256i w11 = _mm256_loadu_si256 ((const __m256i *) (wt + 2 * OBLK + 16));

            for (guint p = 0; p < P; p++)
              {
                const __m256i v0 = avx2_quads (job, xt + p * st->pix, h, src, 0);
                const __m256i v1 = src == 64 ? avx2_quads (job, xt + p * st->pix, h, src, 1) : v0;
                const __m256i ve0 = _mm256_and_si256 (v0, mask), vo0 = _mm256_srli_epi16 (v0, 8);
                const __m256i ve1 = _mm256_and_si256 (v1, mask), vo1 = _mm256_srli_epi16 (v1, 8);
                a[p][0] = _mm256_add_epi32 (a[p][0], _mm256_madd_epi16 (ve0, w00));
                a[p][1] = _mm256_add_epi32 (a[p][1], _mm256_madd_epi16 (ve1, w01));
                a[p][0] = _mm256_add_epi32 (a[p][0], _mm256_madd_epi16 (vo0, w10));
                a[p][1] = _mm256_add_epi32 (a[p][1], _mm256_madd_epi16 (vo1, w11));
              }
          }
      }
  for (guint p = 0; p < P; p++)
    {
      _mm256_storeu_si256 ((__m256i *) (acc + p * OBLK + h * 16), a[p][0]);
      _mm256_storeu_si256 ((__m256i *) (acc + p * OBLK + h * 16 + 8), a[p][1]);
    }
}

/* Both halves of a tile of @T pixels, four at a time, with inputs from @src. */
static inline __attribute__ ((always_inline)) AVX2_ATTR void
tile_avx2_acc (const ConvJob *job, const guint8 *x, guint ob, guint T, const guint src, gint32 *acc)
{
  const TileSteps st = tile_steps (job);
  const gint16 *wb = job->w16 + (gsize) ob * job->KH * job->KW * job->nq * 4 * OBLK;

  for (guint h = 0; h < 2; h++)
    for (guint t = 0; t < T; t += 4)
      {
        const guint8 *xp = x + t * st.pix;
        gint32 *ap = acc + t * OBLK;
        switch (MIN (4u, T - t))
          {
          case 4: tile_avx2_pixels (job, &st, xp, wb, h, 4, src, ap); break;
          case 3: tile_avx2_pixels (job, &st, xp, wb, h, 3, src, ap); break;
          case 2: tile_avx2_pixels (job, &st, xp, wb, h, 2, src, ap); break;
          default: tile_avx2_pixels (job, &st, xp, wb, h, 1, src, ap); break;
          }
      }
}

/* round_clamp (@v, lo, hi) of four lanes (@lo1 = lo - 1, @hi1 = hi + 1 as doubles).
 * Truncation, the half-away-from-zero step and both clamps are exact in double. */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m128i
avx2_round_clamp4 (__m256d v, __m256d lo1, __m256d hi1, __m256d lo, __m256d hi)
{
  const __m256d half = _mm256_set1_pd (0.5), one = _mm256_set1_pd (1.0);

  v = _mm256_min_pd (_mm256_max_pd (v, lo1), hi1);
  __m256d t = _mm256_round_pd (v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m256d d = _mm256_sub_pd (v, t);
  t = _mm256_add_pd (t, _mm256_and_pd (_mm256_cmp_pd (d, half, _CMP_GE_OQ), one));
  t = _mm256_sub_pd (t, _mm256_and_pd (_mm256_cmp_pd (d, _mm256_sub_pd (_mm256_setzero_pd (), half), _CMP_LE_OQ), one));
  t = _mm256_min_pd (_mm256_max_pd (t, lo), hi);
  return _mm256_cvttpd_epi32 (t);
}

/* round_clamp ((acc - corr) * mul + add) for four lanes: the same double operations in the
 * same order (no fused multiply-add: the kernels build with -ffp-contract=off), so the same
 * ints. */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m128i
requant_avx2_4 (__m128i acc, __m128i corr, const double *mul, const double *add, __m256d lo1, __m256d hi1,
                __m256d lo, __m256d hi)
{
  __m256d v = _mm256_cvtepi32_pd (_mm_sub_epi32 (acc, corr));

  v = _mm256_mul_pd (v, _mm256_loadu_pd (mul));
  v = _mm256_add_pd (v, _mm256_loadu_pd (add));
  return avx2_round_clamp4 (v, lo1, hi1, lo, hi);
}

/* requant_tile_c for one pixel of 32 lanes with AVX2: the same bytes. */
static inline AVX2_ATTR void
requant_avx2_32 (const gint32 *acc, const gint32 *corr, const double *mul, const double *add, gint lo,
                 gint hi, guint8 *res)
{
  const __m256d lo1 = _mm256_set1_pd (lo - 1), hi1 = _mm256_set1_pd (hi + 1);
  const __m256d lod = _mm256_set1_pd (lo), hid = _mm256_set1_pd (hi);
  __m128i q[8];

  for (guint k = 0; k < 8; k++)
    q[k] = requant_avx2_4 (_mm_loadu_si128 ((const __m128i *) (acc + 4 * k)),
                           _mm_loadu_si128 ((const __m128i *) (corr + 4 * k)), mul + 4 * k, add + 4 * k,
                           lo1, hi1, lod, hid);
  for (guint k = 0; k < 8; k += 4)
    {
      /* every value is in [lo, hi]: the saturating packs are exact */
      __m128i a = _mm_packs_epi32 (q[k], q[k + 1]), b = _mm_packs_epi32 (q[k + 2], q[k + 3]);
      __m128i r = lo < 0 ? _mm_packs_epi16 (a, b) : _mm_packus_epi16 (a, b);
      _mm_storeu_si128 ((__m128i *) (res + 4 * k), r);
    }
}

/* The bracket (requant_slot_bounds) of 8 lanes of slots @c ..: lo = fma (acc, mulf, alo),
 * hi = lo + d, both rounded to nearest by an explicit rounding (not MXCSR's); rne (lo) as
 * int32, and in @bad the lanes whose ends differ (slots without a bound have d = +inf:
 * always). */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
avx2_bracket_v (__m256i acc, __m256 mulf, __m256 alo, __m256 d, guint *bad)
{
  const __m256 lo = _mm256_fmadd_ps (_mm256_cvtepi32_ps (acc), mulf, alo);
  const __m256 rl = _mm256_round_ps (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 rh = _mm256_round_ps (_mm256_add_ps (lo, d), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);

  *bad = (guint) _mm256_movemask_ps (_mm256_cmp_ps (rl, rh, _CMP_NEQ_UQ));
  return _mm256_cvttps_epi32 (rl);   /* a bounded lane's |rl| < 2^22: exact (any other is bad) */
}

static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
avx2_bracket (const RequantFigures *rq, __m256i acc, gsize c, guint *bad)
{
  return avx2_bracket_v (acc, _mm256_loadu_ps (rq->mulf + c), _mm256_loadu_ps (rq->bralo + c),
                         _mm256_loadu_ps (rq->brd + c), bad);
}

/* Four registers of 8 int32 lanes to 32 bytes in lane order; the saturating packs clamp
 * to the rails (@sgn: int8, else uint8). */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
avx2_narrow32 (const __m256i *r, gboolean sgn)
{
  const __m256i p01 = _mm256_packs_epi32 (r[0], r[1]), p23 = _mm256_packs_epi32 (r[2], r[3]);

  return _mm256_permutevar8x32_epi32 (sgn ? _mm256_packs_epi16 (p01, p23) : _mm256_packus_epi16 (p01, p23),
                                      _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

/* One pixel's 32 lanes (slots @s ..) of a tile: the bracket, or the double rule for the
 * whole pixel where some lane's bracket fails (rare: the bracket is a few 2^-20 wide). */
static inline __attribute__ ((always_inline)) AVX2_ATTR void
requant_avx2_pixel (const ConvJob *job, const gint32 *acc, gsize s, guint8 *res)
{
  __m256i r[4];
  guint bad = 0;

  for (guint k = 0; k < 4; k++)
    {
      guint b;
      r[k] = avx2_bracket (job->rq, _mm256_loadu_si256 ((const __m256i *) (acc + 8 * k)), s + 8 * k, &b);
      bad |= b;
    }
  if (bad != 0)
    requant_avx2_32 (acc, job->corr + s, job->rq->mul + s, job->rq->add + s, job->lo, job->hi, res);
  else
    _mm256_storeu_si256 ((__m256i *) res, avx2_narrow32 (r, job->lo < 0));
}

/* The plain loops' tile with AVX2 (see tile_avx2_pixels). */
static AVX2_ATTR void
tile_avx2 (const ConvJob *job, const guint8 *x, guint ob, guint T, guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];

  tile_avx2_acc (job, x, ob, T, AVX2_DENSE, acc);
  for (guint t = 0; t < T; t++)
    requant_avx2_pixel (job, acc + t * OBLK, (gsize) ob * OBLK, res + t * OBLK);
}

/* Packed groups with AVX2 (ConvJob.NG): a pair of groups (NG 2) or broadcast halves of
 * one-quad groups (ConvJob.bcast), on the VNNI packing ([tap][q][lane][i 4]) widened by
 * w16_pack.  Broadcast halves' bytes go back to channel order through res_perm. */
static AVX2_ATTR void
tile_avx2_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T, guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];

  (void) w;
  switch (job->bcast)
    {
    case 0: tile_avx2_acc (job, x, ob, T, AVX2_PAIR, acc); break;
    case 8: tile_avx2_acc (job, x, ob, T, 8, acc); break;
    case 16: tile_avx2_acc (job, x, ob, T, 16, acc); break;
    case 32: tile_avx2_acc (job, x, ob, T, 32, acc); break;
    default: tile_avx2_acc (job, x, ob, T, 64, acc); break;
    }
  for (guint t = 0; t < T; t++)
    {
      guint8 *r = res + t * OBLK;
      requant_avx2_pixel (job, acc + t * OBLK, (gsize) ob * OBLK, r);
      if (job->bcast > 0)
        {
          const __m128i perm = _mm_loadu_si128 ((const __m128i *) job->res_perm);
          _mm_storeu_si128 ((__m128i *) r, _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) r), perm));
          _mm_storeu_si128 ((__m128i *) (r + 16), _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (r + 16)), perm));
        }
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
#endif

GENERIC_CLONES static void
tile_generic (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
              guint8 *res)
{
  gint32 acc[TILE_MAX * OBLK];
  const TileSteps st = tile_steps (job);

#if ZG330_HAVE_X86
  if (job->w16 != NULL)
    {
      tile_avx2 (job, x, ob, T, res);
      return;
    }
#endif
  memset (acc, 0, sizeof acc);
  for (guint r = 0; r < job->KH; r++)
    for (guint s = 0; s < job->KW; s++)
      {
        const guint8 *xt = x + r * st.row + s * st.ipad;
        const gint8 *wt = w + ((gsize) r * job->KW + s) * job->nq * 4 * OBLK;
        for (guint t = 0; t < T; t++)
          {
            const guint8 *xp = xt + t * st.pix;
            gint32 *a = acc + t * OBLK;
            /* Weights here are [tap][i][o 32]: the o loop has a fixed trip count and
             * contiguous operands, so compilers vectorise it even at -O2. */
            for (guint i = 0; i < job->I; i++)
              {
                const gint8 *wi = wt + (gsize) i * OBLK;
                gint32 xi = xp[i];
                for (guint o = 0; o < OBLK; o++)
                  a[o] += xi * wi[o];
              }
          }
      }
  requant_tile_c (acc, T, job->corr + ob * OBLK, job->rq->mul + ob * OBLK, job->rq->add + ob * OBLK,
                  job->lo, job->hi, res);
}

#if ZG330_HAVE_X86
#define VNNI_ATTR __attribute__ ((target ("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

static inline __attribute__ ((always_inline)) VNNI_ATTR __m256i
vnni_round8 (__m512d v, __m512d lo1, __m512d hi1)
{
  const __m512d half = _mm512_set1_pd (0.5), mhalf = _mm512_set1_pd (-0.5);
  const __m256i one = _mm256_set1_epi32 (1);
  __m256i t;
  __m512d d;
  __mmask8 ge, le;

  v = _mm512_min_pd (_mm512_max_pd (v, lo1), hi1);
  t = _mm512_cvttpd_epi32 (v);
  d = _mm512_sub_pd (v, _mm512_cvtepi32_pd (t));
  ge = _mm512_cmp_pd_mask (d, half, _CMP_GE_OQ);
  le = _mm512_cmp_pd_mask (d, mhalf, _CMP_LE_OQ);
  t = _mm256_mask_add_epi32 (t, ge, t, one);
  return _mm256_mask_sub_epi32 (t, le, t, one);
}

/* Same arithmetic as requant_tile_c(), 16 channels at a time. */
static inline __attribute__ ((always_inline)) VNNI_ATTR void
vnni_requant16 (__m512i acc, const gint32 *corr, const double *mul, const double *add,
                gint lo, gint hi, guint8 *res)
{
  __m512i a = _mm512_sub_epi32 (acc, _mm512_loadu_si512 (corr));
  __m512d lo1 = _mm512_set1_pd ((double) (lo - 1)), hi1 = _mm512_set1_pd ((double) (hi + 1));
  __m512d vl = _mm512_cvtepi32_pd (_mm512_castsi512_si256 (a));
  __m512d vh = _mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (a, 1));
  __m256i rl, rh;
  __m512i r;

  vl = _mm512_mul_pd (vl, _mm512_loadu_pd (mul));
  vh = _mm512_mul_pd (vh, _mm512_loadu_pd (mul + 8));
  vl = _mm512_add_pd (vl, _mm512_loadu_pd (add));
  vh = _mm512_add_pd (vh, _mm512_loadu_pd (add + 8));
  rl = vnni_round8 (vl, lo1, hi1);
  rh = vnni_round8 (vh, lo1, hi1);
  r = _mm512_inserti64x4 (_mm512_castsi256_si512 (rl), rh, 1);
  r = _mm512_max_epi32 (_mm512_min_epi32 (r, _mm512_set1_epi32 (hi)), _mm512_set1_epi32 (lo));
  _mm_storeu_si128 ((__m128i *) res, _mm512_cvtepi32_epi8 (r));
}

/* The same bytes as vnni_requant16() from float arithmetic, where that is provably so;
 * FALSE (nothing written) when a lane is too close to a rounding boundary to tell.
 *
 * The double rule computes v = fl(fl((acc - corr)*mul) + add).  Here, with the bias
 * correction folded into the offset (addf = fl(add - corr*mul), errf from it; see
 * requant_float_init) and u = 2^-24: v' = fl(fl(fl(acc)*fl(mul)) + addf) is within
 * 4u|acc mul| + 2u|add - corr mul| of the exact (acc - corr)*mul + add (three roundings
 * of the product, two of the offset and the sum) and v within 2^-52 times as much, so
 * |v' - v| < e = 8u|p| + errf, errf = 8u|addf| + 2^-20 (twice the bound, p the float
 * product).  When v' is at least e away from every half-integer, v rounds to the same
 * integer as v' and is no tie, so round-half-away gives round-to-nearest of v', and the
 * rails clamp both alike.  Unclamped: a lane past 2^20 in size has e >= 0.5 and falls
 * back, so the conversion to int32 never overflows.  Infinities and NaNs (an overflowing
 * product, a slot whose errf is +inf because its float scale is meaningless) fail the
 * test too. */
static inline __attribute__ ((always_inline)) VNNI_ATTR gboolean
vnni_requant16_fast_v (__m512i acc, __m512 mulf, __m512 addf, __m512 errf, gint lo, gint hi, __m128i *res)
{
  const __m512 k = _mm512_set1_ps (1.0f / 2097152.0f);   /* 8u = 2^-21 */
  __m512 p = _mm512_mul_ps (_mm512_cvtepi32_ps (acc), mulf);
  __m512 v = _mm512_add_ps (p, addf);
  __m512 e = _mm512_fmadd_ps (_mm512_abs_ps (p), k, errf);
  __m512 r = _mm512_roundscale_ps (v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 d = _mm512_add_ps (_mm512_abs_ps (_mm512_sub_ps (v, r)), e);
  __m512i q;

  /* not (d < 0.5): also true for a NaN */
  if (_mm512_cmp_ps_mask (d, _mm512_set1_ps (0.5f), _CMP_NLT_UQ) != 0)
    return FALSE;
  q = _mm512_cvtps_epi32 (r);
  if (lo == -128 && hi == 127)          /* sint8: the narrowing saturates to the rails */
    *res = _mm512_cvtsepi32_epi8 (q);
  else if (lo == 0 && hi == 255)        /* uint8: negatives to 0 first */
    *res = _mm512_cvtusepi32_epi8 (_mm512_max_epi32 (q, _mm512_setzero_si512 ()));
  else
    *res = _mm512_cvtepi32_epi8 (_mm512_max_epi32 (_mm512_min_epi32 (q, _mm512_set1_epi32 (hi)),
                                                   _mm512_set1_epi32 (lo)));
  return TRUE;
}

static inline __attribute__ ((always_inline)) VNNI_ATTR gboolean
vnni_requant16_fast (__m512i acc, const float *mulf, const float *addf, const float *errf,
                     gint lo, gint hi, __m128i *res)
{
  return vnni_requant16_fast_v (acc, _mm512_loadu_ps (mulf), _mm512_loadu_ps (addf), _mm512_loadu_ps (errf), lo,
                                hi, res);
}

/* rne (v) of bounded lanes (|v| < 2^22; see requant_bound) as int32 */
static inline __attribute__ ((always_inline)) VNNI_ATTR __m512i
vnni_round_bounded (__m512 v)
{
  return _mm512_sub_epi32 (_mm512_castps_si512 (_mm512_add_ps (v, _mm512_set1_ps (12582912.0f))),
                           _mm512_set1_epi32 (0x4B400000));
}

/* Four vectors of int32 as 64 bytes, q0's 16 lanes first, on the rails [lo, hi]: two
 * saturating packs (int8: signed twice; uint8: signed to int16, then unsigned) and one
 * dword permutation to undo the packs' interleaving of 128-bit lanes. */
static inline __attribute__ ((always_inline)) VNNI_ATTR __m512i
vnni_narrow64 (__m512i q0, __m512i q1, __m512i q2, __m512i q3, const gint lo, const gint hi)
{
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  __m512i a, b, c;

  if (!((lo == -128 && hi == 127) || (lo == 0 && hi == 255)))
    {
      const __m512i l = _mm512_set1_epi32 (lo), h = _mm512_set1_epi32 (hi);
      q0 = _mm512_max_epi32 (_mm512_min_epi32 (q0, h), l);
      q1 = _mm512_max_epi32 (_mm512_min_epi32 (q1, h), l);
      q2 = _mm512_max_epi32 (_mm512_min_epi32 (q2, h), l);
      q3 = _mm512_max_epi32 (_mm512_min_epi32 (q3, h), l);
    }
  a = _mm512_packs_epi32 (q0, q1);
  b = _mm512_packs_epi32 (q2, q3);
  c = lo < 0 ? _mm512_packs_epi16 (a, b) : _mm512_packus_epi16 (a, b);
  return _mm512_permutexvar_epi32 (order, c);
}

/* The bounded float path of 16 lanes whose slots all have a threshold (see
 * requant_slot_bounds); FALSE (nothing written) when a lane is too near a rounding
 * boundary to tell. */
/* The bounded path's float values @v of 16 lanes, and the lanes too near a rounding
 * boundary for them (|v - rne (v)| not below the threshold). */
static inline __attribute__ ((always_inline)) VNNI_ATTR __mmask16
vnni_bounded_value (__m512i acc, __m512 mulf, __m512 addf, __m512 thr, __m512 *v)
{
  *v = _mm512_fmadd_ps (_mm512_cvtepi32_ps (acc), mulf, addf);
  return _mm512_cmp_ps_mask (_mm512_abs_ps (_mm512_reduce_ps (*v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                             thr, _CMP_NLT_UQ);
}

static inline __attribute__ ((always_inline)) VNNI_ATTR gboolean
vnni_requant16_bounded (__m512i acc, __m512 mulf, __m512 addf, __m512 thr, gint lo, gint hi, __m128i *res)
{
  __m512 v;
  __m512i q;

  if (vnni_bounded_value (acc, mulf, addf, thr, &v) != 0)
    return FALSE;
  q = vnni_round_bounded (v);
  if (lo == -128 && hi == 127)
    *res = _mm512_cvtsepi32_epi8 (q);
  else if (lo == 0 && hi == 255)
    *res = _mm512_cvtusepi32_epi8 (_mm512_max_epi32 (q, _mm512_setzero_si512 ()));
  else
    *res = _mm512_cvtepi32_epi8 (_mm512_max_epi32 (_mm512_min_epi32 (q, _mm512_set1_epi32 (hi)),
                                                   _mm512_set1_epi32 (lo)));
  return TRUE;
}

/* The 16 bytes of 16 lanes of slot @s: the bounded float path, else the guarded one,
 * else the double rule.  Returned in a register: a wider load of bytes just stored in
 * halves would stall on forwarding. */
static inline __attribute__ ((always_inline)) VNNI_ATTR __m128i
vnni_requant16_slot (const ConvJob *job, __m512i acc, const gint32 *corr, gsize s)
{
  __m128i r;
  guint8 b[16];

  if (job->rq->bounded16 != NULL && job->rq->bounded16[s / 16]
      && vnni_requant16_bounded (acc, _mm512_loadu_ps (job->rq->mulf + s), _mm512_loadu_ps (job->rq->addf + s),
                                 _mm512_loadu_ps (job->rq->thrf + s), job->lo, job->hi, &r))
    return r;

  if ((job->rq->bounded16 == NULL || !job->rq->bounded16[s / 16])
      && vnni_requant16_fast (acc, job->rq->mulf + s, job->rq->addf + s, job->rq->errf + s, job->lo, job->hi, &r))
    return r;
  vnni_requant16 (acc, corr, job->rq->mul + s, job->rq->add + s, job->lo, job->hi, b);
  return _mm_loadu_si128 ((const __m128i *) b);
}

/* A tile's 2 x T accumulators to T x 32 bytes. */
static inline __attribute__ ((always_inline)) VNNI_ATTR void
vnni_tile_requant (const ConvJob *job, guint ob, const __m512i *a0, const __m512i *a1, const guint T,
                   guint8 *res)
{
  const gsize s = (gsize) ob * OBLK;
  const gint32 *corr = job->corr + s;
  /* lanes 16-31 hold no output (narrow convs such as the image's 3-channel normaliser,
   * the last block of packed groups): skip their requantisation */
  gboolean upper = slot_channel (job, ob, 16) >= 0;
  const gboolean permute = job->bcast > 0;
  const __m128i perm = _mm_loadu_si128 ((const __m128i *) job->res_perm);
#pragma GCC unroll 12
  for (guint t = 0; t < T; t++)
    {
      __m128i r0 = vnni_requant16_slot (job, a0[t], corr, s), r1 = _mm_setzero_si128 ();
      if (upper)
        r1 = vnni_requant16_slot (job, a1[t], corr + 16, s + 16);
      if (permute)
        {
          r0 = _mm_shuffle_epi8 (r0, perm);
          r1 = _mm_shuffle_epi8 (r1, perm);
        }
      _mm_storeu_si128 ((__m128i *) (res + t * OBLK), r0);
      if (upper)
        _mm_storeu_si128 ((__m128i *) (res + t * OBLK + 16), r1);
    }
}

/* A tile's 2 x @T accumulators to zero. */
static inline __attribute__ ((always_inline)) VNNI_ATTR void
vnni_tile_clear (__m512i *a0, __m512i *a1, const guint T)
{
#pragma GCC unroll 12
  for (guint t = 0; t < T; t++)
    a0[t] = a1[t] = _mm512_setzero_si512 ();
}

/* Packed groups of more than two per block: every tap loads each half's 16 dwords as
 * they are (@bytes 128: from the expanded input, two 64-byte loads per quad) or as one
 * broadcast of the half's groups' @bytes (8, 16, 32 or 64: ConvJob.bcast), so the (kh, kw,
 * q) loops flatten into one run of taps whose weights follow each other, with T <=
 * TILE_EXPANDED pixels (2T accumulators, two weight and two input registers: more would
 * spill). */
static inline __attribute__ ((always_inline)) VNNI_ATTR __m512i
vnni_broadcast (const guint8 *p, const guint bytes)
{
  if (bytes == 8)
    {
      gint64 v;
      memcpy (&v, p, 8);
      return _mm512_set1_epi64 (v);
    }
  if (bytes == 16)
    return _mm512_broadcast_i32x4 (_mm_loadu_si128 ((const __m128i *) p));
  if (bytes == 32)
    return _mm512_broadcast_i64x4 (_mm256_loadu_si256 ((const __m256i *) p));
  return _mm512_loadu_si512 (p);
}

static inline __attribute__ ((always_inline)) VNNI_ATTR void
vnni_tile_expanded_n (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, const guint T,
                      const guint bytes, guint8 *res)
{
  __m512i a0[TILE_EXPANDED], a1[TILE_EXPANDED];
  const TileSteps st = tile_steps (job);
  const guint nq = job->nq, KW = job->KW, ntaps = job->KH * KW * nq;

  vnni_tile_clear (a0, a1, T);

  if (bytes != 128 && nq == 1 && KW == 3 && job->sw == 1)
    {
      /* broadcast groups, stride 1, three columns: column i of a kernel row serves the
       * tile's pixels i - kw (kw 0..2), so it is broadcast once per row, not three times
       * (the broadcasts, not the multiply-adds, bounded this tile) */
      for (guint r = 0; r < job->KH; r++)
        {
          const guint8 *xr = x + r * st.row;
          __m512i w0[3], w1[3];
#pragma GCC unroll 3
          for (guint kw = 0; kw < 3; kw++)
            {
              w0[kw] = _mm512_loadu_si512 (w + ((gsize) r * 3 + kw) * 128);
              w1[kw] = _mm512_loadu_si512 (w + ((gsize) r * 3 + kw) * 128 + 64);
            }
#pragma GCC unroll 10
          for (guint i = 0; i < T + 2; i++)
            {
              const __m512i b0 = vnni_broadcast (xr + i * st.ipad, bytes), b1 = vnni_broadcast (xr + i * st.ipad + bytes, bytes);
#pragma GCC unroll 3
              for (guint kw = 0; kw < 3; kw++)
                if (i >= kw && i - kw < T)
                  {
                    a0[i - kw] = _mm512_dpbusd_epi32 (a0[i - kw], b0, w0[kw]);
                    a1[i - kw] = _mm512_dpbusd_epi32 (a1[i - kw], b1, w1[kw]);
                  }
            }
        }
      vnni_tile_requant (job, ob, a0, a1, T, res);
      return;
    }

  for (guint tap = 0, r = 0, s = 0, q = 0; tap < ntaps; tap++)
    {
      const guint8 *xt = x + r * st.row + s * st.ipad + (gsize) q * 128;
      __m512i w0 = _mm512_loadu_si512 (w + (gsize) tap * 128);
      __m512i w1 = _mm512_loadu_si512 (w + (gsize) tap * 128 + 64);
#pragma GCC unroll 8
      for (guint t = 0; t < T; t++)
        {
          const guint8 *xp = xt + t * st.pix;
          const guint b = bytes == 128 ? 64 : bytes;
          a0[t] = _mm512_dpbusd_epi32 (a0[t], vnni_broadcast (xp, b), w0);
          a1[t] = _mm512_dpbusd_epi32 (a1[t], vnni_broadcast (xp + b, b), w1);
        }
      if (++q == nq)
        {
          q = 0;
          if (++s == KW)
            s = 0, r++;
        }
    }
  vnni_tile_requant (job, ob, a0, a1, T, res);
}

/* One tile: T output pixels x 32 output lanes in 24 accumulators.  Dense blocks broadcast
 * one input dword (four channels of the lanes' one group) to all lanes; a pair of packed
 * groups (@packed, a constant at each call site) broadcasts each half's own group's dword.
 * More groups to a block take vnni_tile_expanded_n. */
static inline __attribute__ ((always_inline)) VNNI_ATTR void
vnni_tile_n (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, const guint T,
             const gboolean packed, guint8 *res)
{
  __m512i a0[TILE_MAX], a1[TILE_MAX];
  const TileSteps st = tile_steps (job);
  const guint nq = job->nq, KW = job->KW, KH = job->KH;

  vnni_tile_clear (a0, a1, T);

  for (guint r = 0; r < KH; r++)
    for (guint s = 0; s < KW; s++)
      {
        const guint8 *xt = x + r * st.row + s * st.ipad;
        const gint8 *wt = w + ((gsize) r * KW + s) * nq * 4 * OBLK;
        for (guint q = 0; q < nq; q++)
          {
            __m512i w0 = _mm512_loadu_si512 (wt + (gsize) q * 128);
            __m512i w1 = _mm512_loadu_si512 (wt + (gsize) q * 128 + 64);
#pragma GCC unroll 12
            for (guint t = 0; t < T; t++)
              {
                const guint8 *xp = xt + t * st.pix;
                __m512i b0, b1;
                if (!packed)
                  {
                    gint32 v;
                    memcpy (&v, xp + 4 * q, 4);
                    b0 = b1 = _mm512_set1_epi32 (v);
                  }
                else
                  {
                    /* two groups of 16 lanes: each half broadcasts its group's quad from the
                     * unexpanded [g][Ip] pixel */
                    gint32 v0, v1;
                    memcpy (&v0, xp + 4 * q, 4);
                    memcpy (&v1, xp + job->Ip + 4 * q, 4);
                    b0 = _mm512_set1_epi32 (v0);
                    b1 = _mm512_set1_epi32 (v1);
                  }
                a0[t] = _mm512_dpbusd_epi32 (a0[t], b0, w0);
                a1[t] = _mm512_dpbusd_epi32 (a1[t], b1, w1);
              }
          }
      }

  vnni_tile_requant (job, ob, a0, a1, T, res);
}

static VNNI_ATTR void
tile_vnni_packed (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
                  guint8 *res)
{
  if (job->NG > 2)
    {
      g_assert (T >= 1 && T <= TILE_EXPANDED);
      switch (job->bcast)
        {
#define CASES(b) switch (T) { \
            case 1: vnni_tile_expanded_n (job, x, w, ob, 1, b, res); return; \
            case 2: vnni_tile_expanded_n (job, x, w, ob, 2, b, res); return; \
            case 3: vnni_tile_expanded_n (job, x, w, ob, 3, b, res); return; \
            case 4: vnni_tile_expanded_n (job, x, w, ob, 4, b, res); return; \
            case 5: vnni_tile_expanded_n (job, x, w, ob, 5, b, res); return; \
            case 6: vnni_tile_expanded_n (job, x, w, ob, 6, b, res); return; \
            case 7: vnni_tile_expanded_n (job, x, w, ob, 7, b, res); return; \
            default: vnni_tile_expanded_n (job, x, w, ob, 8, b, res); return; }
        case 0: CASES (128)
        case 8: CASES (8)
        case 16: CASES (16)
        case 32: CASES (32)
        default: CASES (64)
#undef CASES
        }
    }
  switch (T)
    {
#define CASE(n) case n: vnni_tile_n (job, x, w, ob, n, TRUE, res); break;
    CASE (1) CASE (2) CASE (3) CASE (4) CASE (5) CASE (6)
    CASE (7) CASE (8) CASE (9) CASE (10) CASE (11) CASE (12)
#undef CASE
    default: g_assert_not_reached ();
    }
}

static VNNI_ATTR void
tile_vnni (const ConvJob *job, const guint8 *x, const gint8 *w, guint ob, guint T,
           guint8 *res)
{
  switch (T)
    {
#define CASE(n) case n: vnni_tile_n (job, x, w, ob, n, FALSE, res); break;
    CASE (1) CASE (2) CASE (3) CASE (4) CASE (5) CASE (6)
    CASE (7) CASE (8) CASE (9) CASE (10) CASE (11) CASE (12)
#undef CASE
    default: g_assert_not_reached ();
    }
}

static gboolean
cpu_has_vnni (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
         && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("avx512vl")
         && __builtin_cpu_supports ("avx512vnni");
}
#else
static gboolean
cpu_has_vnni (void)
{
  return FALSE;
}
#endif

const char *
zg330_kernel_get_isa (void)
{
  static gsize init = 0;
  static gboolean vnni, avx2;

  if (g_once_init_enter (&init))
    {
      vnni = cpu_has_vnni ();
#if ZG330_HAVE_X86
      avx2 = __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
#endif
      g_once_init_leave (&init, 1);
    }
  const gint cap = g_atomic_int_get (&isa_cap);
  return vnni && cap == 0 ? "avx512-vnni" : avx2 && cap < 2 ? "avx2" : "generic";
}

void
zg330_kernel_set_generic_only (gboolean generic)
{
  g_atomic_int_set (&isa_cap, generic ? 1 : 0);
}

void
zg330_kernel_set_plain_only (gboolean plain)
{
  g_atomic_int_set (&isa_cap, plain ? 2 : 0);
}

/* d = s ^ flip bytewise, eight bytes at a time (a variable-length byte loop is not
 * vectorised at -O2 and this runs once per input byte). */
static inline void
xor_copy (guint8 *d, const guint8 *s, gsize n, guint8 flip)
{
  guint64 f = flip * G_GUINT64_CONSTANT (0x0101010101010101);
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 v;
      memcpy (&v, s + i, 8);
      v ^= f;
      memcpy (d + i, &v, 8);
    }
  for (; i < n; i++)
    d[i] = s[i] ^ flip;
}

/* One NCHWc32 block's 32 bytes as one vector (GCC and clang vector extensions: two SSE2
 * registers on the baseline, one AVX2 register in conv_pack_row's avx2 clone). */
typedef guint8 XorBlock __attribute__ ((vector_size (32)));

static inline void
xor_copy32 (guint8 *d, const guint8 *s, guint8 flip)
{
  XorBlock v;

  memcpy (&v, s, 32);
  v ^= flip;
  memcpy (d, &v, 32);
}

#if ZG330_HAVE_X86
/* Packed groups' input: @row holds Wp pixels of [g][Ip] bytes (and 128 bytes of slack);
 * block B's plane (@dst + B * @plane) gets, per pixel, per quad q, the two halves' 16
 * dwords lane by lane: lane l of half h takes quad q of group B*NG + (16h + l)/Ogp
 * (job->perm).  One plane per block keeps a tile's reads within a few kilobytes. */
static VNNI_ATTR void
conv_expand_groups (const ConvJob *job, const guint8 *row, guint8 *dst, gsize plane)
{
  const guint nq = job->nq;
  const gboolean two = job->NG * nq > 16;

  for (guint w = 0; w < job->Wp; w++)
    for (guint b = 0; b < job->nb; b++)
      {
        const guint8 *px = row + (gsize) w * job->groups * job->Ip + (gsize) b * job->NG * job->Ip;
        guint8 *d = dst + (gsize) b * plane + (gsize) w * job->ipad;
        __m512i lo = _mm512_loadu_si512 (px), hi = two ? _mm512_loadu_si512 (px + 64) : lo;
        for (guint q = 0; q < nq; q++)
          for (guint h = 0; h < 2; h++)
            {
              __m512i p = _mm512_loadu_si512 (job->perm + ((gsize) h * nq + q) * 16);
              _mm512_storeu_si512 (d + (gsize) q * 128 + h * 64,
                                   two ? _mm512_permutex2var_epi32 (lo, p, hi) : _mm512_permutexvar_epi32 (p, lo));
            }
      }
}
#else
static void
conv_expand_groups (const ConvJob *job, const guint8 *row, guint8 *dst, gsize plane)
{
  (void) job; (void) row; (void) dst; (void) plane;
  g_assert_not_reached ();   /* packed groups run with VNNI only */
}
#endif

/* Padded row @hp of image @n into @out (packed groups expanded: block B's plane at @out +
 * B * @plane). */
GENERIC_CLONES static void
conv_pack_row (const ConvJob *job, guint n, guint hp, guint8 *out, gsize plane)
{
  const gboolean expanded = job->expanded;
  gsize ipad = expanded ? (gsize) job->groups * job->Ip : job->ipad;
  /* packed groups: the [g][Ip] row first, then its expansion (the row has room for the
   * 128-byte loads of its last pixel) */
  g_autofree guint8 *row = expanded ? g_malloc ((gsize) job->Wp * ipad + 128) : NULL;
  guint8 *dst = row != NULL ? row : out;
  const guint8 *src = job->in->data;
  guint8 flip = job->in_signed ? 0x80 : 0x00;
  gint h = (gint) hp - (gint) job->pt;

  if (h < 0 || h >= (gint) job->H)
    {
      memset (dst, job->pad_value, (gsize) job->Wp * ipad + (row != NULL ? 128 : 0));
      if (row != NULL)
        conv_expand_groups (job, row, out, plane);
      return;
    }
  /* One fill covers the left/right padding and the channel padding of every pixel;
   * without channel padding only the padding columns need it. */
  if (ipad > job->C || row != NULL)
    memset (dst, job->pad_value, (gsize) job->Wp * ipad + (row != NULL ? 128 : 0));
  else if (job->Wp > job->W)
    {
      memset (dst, job->pad_value, (gsize) job->pl * ipad);
      memset (dst + (gsize) (job->pl + job->W) * ipad, job->pad_value, (gsize) (job->Wp - job->pl - job->W) * ipad);
    }

  src += (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row;
  for (guint c = 0; c < job->C;)
    {
      /* a run stops at the end of its group when the next group starts further on (at a
       * multiple of Ip > I); with Ip = I the padded copy keeps the channels in order */
      guint run = channel_run (job->in, c);
      if (job->Ip != job->I)
        run = MIN (run, job->I - c % job->I);
      const guint8 *s = src + job->in_addr.chan[c];
      guint8 *d = dst + (gsize) job->pl * ipad + (gsize) (c / job->I) * job->Ip + c % job->I;
      if (run == OBLK)   /* an NCHWc32 block: a fixed length, copied in four words */
        for (guint w = 0; w < job->W; w++, s += job->in_addr.pix, d += ipad)
          xor_copy32 (d, s, flip);
      else
        for (guint w = 0; w < job->W; w++, s += job->in_addr.pix, d += ipad)
          xor_copy (d, s, run, flip);
      c += run;
    }
  if (row != NULL)
    conv_expand_groups (job, row, out, plane);
}

static void
conv_store (const ConvJob *job, guint n, guint ob, guint oh, guint ow0, guint T,
            const guint8 *res)
{
  guint8 *out = job->out->data;
  gsize base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;
  gint64 o0 = res_channel (job, ob, 0);
  gboolean contiguous = o0 >= 0 && o0 % OBLK == 0 && res_channel (job, ob, OBLK - 1) == o0 + OBLK - 1
                        && (job->NG == 0 || job->Og == job->Ogp);

  if (job->out_block_fast && contiguous)
    {
      memcpy (out + base + job->out_addr.chan[o0] + (gsize) ow0 * OBLK, res,
              (gsize) T * OBLK);
      return;
    }
  for (guint j = 0; j < OBLK; j++)
    {
      gint64 o = res_channel (job, ob, j);
      if (o < 0)
        continue;
      for (guint t = 0; t < T; t++)
        out[base + (gsize) (ow0 + t) * job->out_addr.pix + job->out_addr.chan[o]] = res[t * OBLK + j];
    }
}

/* Output row @oh of block @ob of image @n, its padded input rows from @xrow. */
static void
conv_row (const ConvJob *job, guint n, guint ob, guint oh, const guint8 *xrow)
{
  const gsize ipad = job->ipad;
  const gint8 *w = job->wpack + ob * job->wblock;
  const guint tmax = job->NG > 2 ? TILE_EXPANDED : TILE_MAX;
  guint8 res[TILE_MAX * OBLK];

  for (guint ow0 = 0; ow0 < job->OW; ow0 += tmax)
    {
      guint T = MIN (tmax, job->OW - ow0);
      job->tile (job, xrow + (gsize) ow0 * job->sw * ipad, w, ob, T, res);
      conv_store (job, n, ob, oh, ow0, T, res);
    }
}

/* One band of job->band_rows output rows of one image: the padded copy of just the
 * input rows it reads (in a buffer of its own, so a core reads the rows it wrote, in its
 * own caches), then every output block's rows. */
static void
conv_band (gpointer data, guint item)
{
  ConvJob *job = data;
  const guint n = item / job->bands, oh0 = (item % job->bands) * job->band_rows;
  const guint oh1 = MIN (job->OH, oh0 + job->band_rows);
  const guint hp0 = oh0 * job->sh, hp1 = MIN (job->Hp, (oh1 - 1) * job->sh + job->KH);
  const gsize row_bytes = (gsize) job->Wp * job->ipad, plane = (gsize) (hp1 - hp0) * row_bytes;
  const gsize bytes = (gsize) job->nplanes * plane;
  /* PIN_SLACK bytes past the end: the last block of packed groups reads its missing
   * groups' bytes (a pair's second group, a broadcast half's last groups: at most 128
   * bytes) from past the last pixel, against zero weights */
  guint8 *buf = g_aligned_alloc (bytes + PIN_SLACK, 1, 64);   /* rows and blocks on whole lines */

  memset (buf + bytes, job->pad_value, PIN_SLACK);
  for (guint hp = hp0; hp < hp1; hp++)
    conv_pack_row (job, n, hp, buf + (gsize) (hp - hp0) * row_bytes, plane);
  for (guint ob = 0; ob < job->nb; ob++)
    for (guint oh = oh0; oh < oh1; oh++)
      conv_row (job, n, ob, oh,
                buf + (job->expanded ? (gsize) ob * plane : (gsize) block_first_group (job, ob) * job->Ip)
                  + (gsize) (oh * job->sh - hp0) * row_bytes);
  g_aligned_free (buf);
}

static inline gint
weight_at (const Zg330KernelWeights *wt, guint o, guint i, guint kh, guint kw)
{
  gsize idx = ((((gsize) (o / wt->ko) * wt->ib + i / wt->ki) * wt->kh + kh) * wt->kw + kw)
                  * wt->ko * wt->ki
              + (gsize) (o % wt->ko) * wt->ki + i % wt->ki;
  return wt->data[idx];
}

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
  if (job->tile == tile_generic)
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
                    if (job->tile == tile_generic)
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
                if (job->tile == tile_generic)
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

static void requant_figures_unref (RequantFigures *rq);
static void conv_job_requant (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
                              const Zg330KernelTensor *out, guint n_slots, gboolean blocked);

static GMutex pack_lock;
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

static void
packed_weights_unref (PackedWeights *pw)
{
  g_atomic_rc_box_release_full (pw, packed_weights_free);
}

static void conv_pack_weights (gpointer data, guint ob);

enum { PACK_BLOCKS, PACK_DEPTHWISE };

static void dw_pack_weights (ConvJob *job, const Zg330KernelWeights *weights, PackedWeights *pw);
#if ZG330_HAVE_X86
static gint16 *dw_pairs_pack (const ConvJob *job, const gint8 *wk);
#endif
static void requant_figures_get (ConvJob *job, PackedWeights *pw, const gint32 *corr, const Zg330KernelWeights *wt,
                                 guint n_slots, gboolean blocked, gboolean bounds);

/* The packed weights of @job, @kind PACK_BLOCKS (job->wpack, corr, wpos and wneg point into
 * the entry returned) or PACK_DEPTHWISE (job->dw_wq, dw_wr, dw_corr, wpos and wneg); the
 * caller releases it with packed_weights_unref(). */
static PackedWeights *
packed_weights_get (ConvJob *job, const Zg330KernelWeights *wt, guint kind)
{
  PackedWeights key = { 0 }, *pw;
  guint nb = job->nb;
  gsize wsize = job->wblock * nb;

  key.ob = wt->ob; key.ib = wt->ib; key.kh = wt->kh; key.kw = wt->kw; key.ko = wt->ko; key.ki = wt->ki;
  key.C = job->C;
  key.O = job->O;
  key.in_signed = job->in_signed;
  key.generic = job->tile == tile_generic;
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
#if ZG330_HAVE_X86
          if (key.wide)
            {
              pw->w16 = w16_pack (job);
              pw->footprint += wsize * sizeof (gint16);
            }
#endif
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
#if ZG330_HAVE_X86
  if (pw->wide)
    {
      pw->w16 = dw_pairs_pack (job, wk);
      pw->footprint += (gsize) job->KH * ((job->KW + 1) / 2) * job->Cp * 2 * sizeof (gint16);
    }
#endif
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

GENERIC_CLONES static void
conv_dw_row (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  guint8 *out = job->out->data;
  gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

  for (guint ow = 0; ow < job->OW; ow++)
    for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
      {
        gint32 acc[DW_BLK] = { 0 };
        guint nvalid = MIN (DW_BLK, job->C - cb);

        for (guint r = 0; r < job->KH; r++)
          {
            const gint16 *xr = job->xs + (((gsize) n * job->Hp + (gsize) oh * job->sh + r) * job->Wp
                                          + (gsize) ow * job->sw) * job->Cp + cb;
            const gint16 *wr = job->ws + (gsize) r * job->KW * job->Cp + cb;
            for (guint s = 0; s < job->KW; s++)
              {
                const gint16 *xp = xr + (gsize) s * job->Cp, *wp = wr + (gsize) s * job->Cp;
                for (guint j = 0; j < DW_BLK; j++)
                  acc[j] += (gint32) xp[j] * (gint32) wp[j];
              }
          }
        for (guint j = 0; j < nvalid; j++)
          {
            guint o = cb + j;
            double v = (double) acc[j] * job->rq->mul[o];
            v = v + job->rq->add[o];
            out[row_base + job->out_addr.chan[o] + (gsize) ow * job->out_addr.pix]
                = (guint8) round_clamp (v, job->lo, job->hi);
          }
      }
}

#if ZG330_HAVE_X86
/* Depthwise convs with VNNI.  Four kernel rows at a time: a "quad row" holds, for every
 * padded input column and channel, the four bytes of the input rows oh*sh + 4g .. + 3
 * (biased by +128 when signed, as the dense path does), so one vpdpbusd multiplies four
 * taps of 16 channels at once against weights laid out the same way ([g][kw][c][4], zero
 * below the kernel).  An output pixel of 16 channels costs KW*ceil(KH/4) loads and
 * multiply-adds, and its requantisation (float, falling back to the double rule) is then
 * most of the work.  Each item (n, oh) builds its own quad rows, so nothing is shared
 * between threads and the bytes do not depend on the thread count. */

/* Quad row g of output row oh: [Wp][Cp][4] bytes. */
static VNNI_ATTR void
dw_build_quads (const ConvJob *job, guint n, guint oh, guint g, guint8 *q)
{
  const guint8 *src = job->in->data;
  const guint8 flip = job->in_signed ? 0x80 : 0x00;
  const guint8 *rows[4] = { NULL, NULL, NULL, NULL };
  gboolean fast = job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC && job->in->k == DW_BLK;
  guint cblocks = job->Cp / DW_BLK;

  for (guint k = 0; k < 4; k++)
    {
      guint r = 4 * g + k;
      gint h = (gint) (oh * job->sh + r) - (gint) job->pt;
      if (r < job->KH && h >= 0 && h < (gint) job->H)
        rows[k] = src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row;
    }
  /* padding columns: the biased zero in every row (rows below the kernel meet zero
   * weights, so any bounded value would do) */
  for (guint wp = 0; wp < job->Wp; wp++)
    if (wp < job->pl || wp >= job->pl + job->W)
      memset (q + (gsize) wp * job->Cp * 4, job->pad_value, (gsize) job->Cp * 4);

  if (fast)
    {
      /* a row outside the input reads 32 zero bytes again and again (stride 0): zero ^ flip
       * is the biased zero */
      static const guint8 zero32[DW_BLK] = { 0 };
      const __m256i fl = _mm256_set1_epi8 ((char) flip);
      const gsize step = (gsize) job->Cp * 4;

      for (guint cb = 0; cb < cblocks; cb++)
        {
          const guint8 *b[4];
          gsize st[4];
          guint8 *qp = q + ((gsize) job->pl * job->Cp + (gsize) cb * DW_BLK) * 4;

          for (guint k = 0; k < 4; k++)
            {
              b[k] = rows[k] != NULL ? rows[k] + job->in_addr.chan[cb * DW_BLK] : zero32;
              st[k] = rows[k] != NULL ? DW_BLK : 0;
            }
          for (guint w = 0; w < job->W; w++, qp += step)
            {
              __m256i x0 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[0] + w * st[0])), fl);
              __m256i x1 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[1] + w * st[1])), fl);
              __m256i x2 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[2] + w * st[2])), fl);
              __m256i x3 = _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (b[3] + w * st[3])), fl);
              __m256i ab_lo = _mm256_unpacklo_epi8 (x0, x1);   /* lanes: c 0-7 | 16-23 */
              __m256i ab_hi = _mm256_unpackhi_epi8 (x0, x1);   /*        c 8-15 | 24-31 */
              __m256i cd_lo = _mm256_unpacklo_epi8 (x2, x3);
              __m256i cd_hi = _mm256_unpackhi_epi8 (x2, x3);
              __m256i q0 = _mm256_unpacklo_epi16 (ab_lo, cd_lo);   /* c 0-3 | 16-19 */
              __m256i q1 = _mm256_unpackhi_epi16 (ab_lo, cd_lo);   /* c 4-7 | 20-23 */
              __m256i q2 = _mm256_unpacklo_epi16 (ab_hi, cd_hi);   /* c 8-11 | 24-27 */
              __m256i q3 = _mm256_unpackhi_epi16 (ab_hi, cd_hi);   /* c 12-15 | 28-31 */
              __m256i *d = (__m256i *) qp;
              _mm256_storeu_si256 (d + 0, _mm256_permute2x128_si256 (q0, q1, 0x20));
              _mm256_storeu_si256 (d + 1, _mm256_permute2x128_si256 (q2, q3, 0x20));
              _mm256_storeu_si256 (d + 2, _mm256_permute2x128_si256 (q0, q1, 0x31));
              _mm256_storeu_si256 (d + 3, _mm256_permute2x128_si256 (q2, q3, 0x31));
            }
        }
      return;
    }
  for (guint w = 0; w < job->W; w++)
    {
      guint8 *qp = q + ((gsize) job->pl + w) * job->Cp * 4;
      for (guint c = 0; c < job->Cp; c++)
        for (guint k = 0; k < 4; k++)
          qp[(gsize) c * 4 + k] = rows[k] != NULL && c < job->C
                                  ? (guint8) (rows[k][job->in_addr.chan[c] + (gsize) w * job->in_addr.pix] ^ flip)
                                  : job->pad_value;
    }
}

static VNNI_ATTR void
conv_dw_row_vnni (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  guint8 *out = job->out->data;
  gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;
  gsize qrow = (gsize) job->Wp * job->Cp * 4;
  guint G = (job->KH + 3) / 4;
  guint8 *q = g_malloc (qrow * G);

  for (guint g = 0; g < G; g++)
    dw_build_quads (job, n, oh, g, q + g * qrow);

  /* channel blocks outside, pixels inside: the block's weights and requantisation figures
   * stay in registers (stores to the output may alias memory, so loads would repeat) */
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      guint nvalid = MIN (DW_BLK, job->C - cb);
      guint ntap = G * job->KW;
      gboolean held = ntap <= DW_HELD_TAPS;
      __m512i w0[DW_HELD_TAPS], w1[DW_HELD_TAPS];
      const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
      const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
      const __m512 e0 = _mm512_loadu_ps (job->rq->errf + cb), e1 = _mm512_loadu_ps (job->rq->errf + cb + 16);
      gsize out_cb = row_base + job->out_addr.chan[cb];

      for (guint t = 0; held && t < ntap; t++)
        {
          const gint8 *ws = job->dw_wq + ((gsize) t * job->Cp + cb) * 4;   /* t = g * KW + s */
          w0[t] = _mm512_loadu_si512 (ws);
          w1[t] = _mm512_loadu_si512 (ws + 64);
        }
      for (guint ow = 0; ow < job->OW; ow++)
        {
          __m512i a0 = _mm512_setzero_si512 (), a1 = _mm512_setzero_si512 ();
          __m128i r0, r1;

          if (G == 1 && job->KW == 3 && held)
            {
              /* 3x3 (and 1..4x3): the three taps by name, so the weights stay in registers */
              const guint8 *xs = q + ((gsize) ow * job->sw * job->Cp + cb) * 4;
              const gsize step = (gsize) job->Cp * 4;
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs), w0[0]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 64), w1[0]);
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs + step), w0[1]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + step + 64), w1[1]);
              a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs + 2 * step), w0[2]);
              a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 2 * step + 64), w1[2]);
            }
          else
          for (guint g = 0; g < G; g++)
            {
              const guint8 *xq = q + g * qrow + ((gsize) ow * job->sw * job->Cp + cb) * 4;
              for (guint s = 0; s < job->KW; s++)
                {
                  const guint8 *xs = xq + (gsize) s * job->Cp * 4;
                  guint t = g * job->KW + s;
                  const gint8 *ws = job->dw_wq + ((gsize) t * job->Cp + cb) * 4;
                  a0 = _mm512_dpbusd_epi32 (a0, _mm512_loadu_si512 (xs), held ? w0[t] : _mm512_loadu_si512 (ws));
                  a1 = _mm512_dpbusd_epi32 (a1, _mm512_loadu_si512 (xs + 64),
                                            held ? w1[t] : _mm512_loadu_si512 (ws + 64));
                }
            }
          if (!vnni_requant16_fast_v (a0, m0, d0, e0, job->lo, job->hi, &r0))
            r0 = vnni_requant16_slot (job, a0, job->dw_corr + cb, cb);
          r1 = _mm_setzero_si128 ();
          if (nvalid > 16 && !vnni_requant16_fast_v (a1, m1, d1, e1, job->lo, job->hi, &r1))
            r1 = vnni_requant16_slot (job, a1, job->dw_corr + cb + 16, cb + 16);
          if (job->out_block_fast && nvalid == DW_BLK)
            _mm256_storeu_si256 ((__m256i *) (out + out_cb + (gsize) ow * job->out_addr.pix),
                                 _mm256_inserti128_si256 (_mm256_castsi128_si256 (r0), r1, 1));
          else
            {
              guint8 res[DW_BLK];
              _mm_storeu_si128 ((__m128i *) res, r0);
              _mm_storeu_si128 ((__m128i *) (res + 16), r1);
              for (guint j = 0; j < nvalid; j++)
                out[row_base + job->out_addr.chan[cb + j] + (gsize) ow * job->out_addr.pix] = res[j];
            }
        }
    }
  g_free (q);
}


/* Depthwise convs with AVX2 (and FMA): pair rows.  Each padded input row of a 32-channel
 * block is widened once into a "pair row": at every input column x where a kernel pair
 * can start (every column, or every even one when the horizontal stride is even), the
 * biased bytes of columns x and x+1 as int16 pairs, 8 channels per 32 bytes
 * ([chunk 4][entry][8][2]; dw_pair_row).  An output pixel of 8 channels is then
 * KH * ceil (KW / 2) vpmaddwd of pair-row entries against the weights widened the same way
 * (taps 2j and 2j+1 of a kernel row, an odd last tap paired with a zero; dw_pairs_pack),
 * exact in int32.  The widening is in-lane byte interleaves only (a cross-lane widening
 * costs four times as much here), so chunk k holds channels 4k .. 4k+3 and 16+4k ..
 * 16+4k+3 of the block ("slot" 8k + i; dw_slot_channel), the weights and the bracket's
 * figures are laid out by slot, and the saturating packs of the four chunks give the 32
 * bytes back in channel order.  An item runs a band of output rows with its pair rows in
 * a ring of KH rows, so at vertical stride 1 an input row is widened once for the KH
 * output rows that read it.  Per output row and chunk, two passes over the pixels: the
 * sums (dw_pairs_sums, the weights held in registers) into a small buffer, then their
 * requantisation (dw_pairs_requant, the figures held).  Apart, each loop's chains overlap
 * in the core's scheduler; together, the long requantisation chain held back the next
 * pixel's sums (A/B on 96 ch s2: 22 -> 24 % of the core peak).  Chunks 0-2 leave the
 * row's requantised int32 in a buffer and chunk 3 packs each pixel's four chunks into its
 * 32 bytes as it goes (through the buffer too where the output block is not contiguous).
 * The bracket is requant_slot_bounds' (an fma, both ends rounded to nearest; see
 * dw_pairs_requant); a lane whose ends differ takes the double rule, from the same sums.
 * Every output byte is the same expression whatever the band or the thread. */

#define DW_BAND 16u         /* most output rows per item */
#define DW_HELD_PAIRS 9u    /* pair weights kept in registers up to this many */
#define DW_PASS_PIXELS 48u  /* narrow rows: output rows per pass up to about this many pixels */

/* Per-thread scratch for the pair rows' passes, kept between calls (a small conv takes
 * microseconds, and its five allocations took about 2 % of them); a request above
 * DW_SCRATCH_KEEP bytes is allocated and freed each time instead. */
#define DW_SCRATCH_KEEP ((gsize) 1 << 20)

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
static gpointer
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

typedef struct {
  guint kp;         /* pairs per kernel row: ceil (KW / 2) */
  guint hstep;      /* input columns between pair-row entries */
  guint es, ej;     /* entries between output pixels; between a kernel row's pairs */
  guint nent;       /* entries per chunk of a pair row */
  guint i0, i1;     /* the entries whose two columns both lie inside the input: i0 .. i1 - 1 */
  guint band, nbands;
} DwPairs;

static void
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

/* The biased bytes of padded column @x of input row @row (NULL: a padding row), channels
 * @cb .. (at @src when the block is contiguous in memory, else NULL), the biased zero past
 * the input and its channels. */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
dw_pair_column (const ConvJob *job, const guint8 *row, const guint8 *src, guint x, guint cb, __m256i fl)
{
  guint8 b[DW_BLK];
  const guint nvalid = MIN (DW_BLK, job->C - cb);
  const guint8 flip = job->in_signed ? 0x80 : 0x00;

  if (row == NULL || x < job->pl || x - job->pl >= job->W)
    return _mm256_set1_epi8 ((char) job->pad_value);
  if (src != NULL)
    return _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (src + (gsize) (x - job->pl) * job->in_addr.pix)),
                             fl);
  memset (b, job->pad_value, DW_BLK);
  for (guint j = 0; j < nvalid; j++)
    b[j] = (guint8) (row[job->in_addr.chan[cb + j] + (gsize) (x - job->pl) * job->in_addr.pix] ^ flip);
  return _mm256_loadu_si256 ((const __m256i *) b);
}

/* Pair-row entry @d (chunks @cs int16 apart) of columns @a and @b. */
static inline __attribute__ ((always_inline)) AVX2_ATTR void
dw_pair_entry (gint16 *d, gsize cs, __m256i a, __m256i b)
{
  const __m256i zero = _mm256_setzero_si256 ();
  const __m256i lo = _mm256_unpacklo_epi8 (a, b);   /* lanes: channels 0-7 | 16-23 */
  const __m256i hi = _mm256_unpackhi_epi8 (a, b);   /*        8-15 | 24-31 */

  _mm256_storeu_si256 ((__m256i *) d, _mm256_unpacklo_epi8 (lo, zero));                /* 0-3 | 16-19 */
  _mm256_storeu_si256 ((__m256i *) (d + cs), _mm256_unpackhi_epi8 (lo, zero));         /* 4-7 | 20-23 */
  _mm256_storeu_si256 ((__m256i *) (d + 2 * cs), _mm256_unpacklo_epi8 (hi, zero));     /* 8-11 | 24-27 */
  _mm256_storeu_si256 ((__m256i *) (d + 3 * cs), _mm256_unpackhi_epi8 (hi, zero));     /* 12-15 | 28-31 */
}

/* Pair row of padded input row @hp (image @n, channels @cb ..) into @h; @run: the block's
 * channels are contiguous in memory (channel_run), so a row's columns load directly.  The
 * bounds come from dw_pairs_geometry, once per item: a narrow row (14 pixels) spent about
 * 40 % of its widening on its set-up and its edges when each row worked them out.  Out
 * of line, as dw_pairs_sums_any: inlined, the passes ran about 1 point of the peak slower
 * (A/B, 8 rounds each way). */
static AVX2_ATTR __attribute__ ((noinline)) void
dw_pair_row (const ConvJob *job, const DwPairs *g, guint n, guint hp, guint cb, gboolean run, gint16 *h)
{
  const gint ih = (gint) hp - (gint) job->pt;
  const gsize cs = (gsize) g->nent * 16;   /* int16 per chunk */
  const __m256i fl = _mm256_set1_epi8 ((char) (job->in_signed ? 0x80 : 0x00));

  if (ih < 0 || ih >= (gint) job->H)
    {
      /* a padding row: every int16 is the pad byte */
      const __m256i pv = _mm256_set1_epi16 ((short) job->pad_value);
      for (gsize i = 0; i < 4 * cs; i += 16)
        _mm256_storeu_si256 ((__m256i *) (h + i), pv);
      return;
    }

  const guint8 *row = job->in->data + (gsize) n * job->in_addr.batch + (gsize) ih * job->in_addr.row;
  if (!run)
    {
      for (guint i = 0; i < g->nent; i++)
        dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, NULL, i * g->hstep, cb, fl),
                       dw_pair_column (job, row, NULL, i * g->hstep + 1, cb, fl));
      return;
    }

  /* the entries whose columns both lie inside the input (i0 .. i1) load directly */
  const guint8 *src = row + job->in_addr.chan[cb];
  const gsize pix = job->in_addr.pix, step = (gsize) g->hstep * pix;
  const guint i0 = g->i0, i1 = g->i1;

  for (guint i = 0; i < i0; i++)
    dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, src, i * g->hstep, cb, fl),
                   dw_pair_column (job, row, src, i * g->hstep + 1, cb, fl));
  if (i0 < i1)
    {
      const guint8 *s = src + (gsize) (i0 * g->hstep - job->pl) * pix;
      gint16 *d = h + (gsize) i0 * 16;
      if (job->in_signed)
        for (guint i = i0; i < i1; i++, s += step, d += 16)
          dw_pair_entry (d, cs, _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) s), fl),
                         _mm256_xor_si256 (_mm256_loadu_si256 ((const __m256i *) (s + pix)), fl));
      else
        for (guint i = i0; i < i1; i++, s += step, d += 16)
          dw_pair_entry (d, cs, _mm256_loadu_si256 ((const __m256i *) s),
                         _mm256_loadu_si256 ((const __m256i *) (s + pix)));
    }
  for (guint i = MAX (i0, i1); i < g->nent; i++)
    dw_pair_entry (h + (gsize) i * 16, cs, dw_pair_column (job, row, src, i * g->hstep, cb, fl),
                   dw_pair_column (job, row, src, i * g->hstep + 1, cb, fl));
}

/* The 32 bytes of a pixel (at @o) from its chunks 0-2's requantised int32 at @r and chunk
 * 3's in @r3: the saturating packs clamp to the rails (@sgn: int8, else uint8) and leave
 * the bytes in channel order. */
static inline __attribute__ ((always_inline)) AVX2_ATTR void
dw_pack_pixel (const gint32 *r, __m256i r3, guint8 *o, gboolean sgn)
{
  const __m256i p01 = _mm256_packs_epi32 (_mm256_loadu_si256 ((const __m256i *) r),
                                          _mm256_loadu_si256 ((const __m256i *) (r + 8)));
  const __m256i p23 = _mm256_packs_epi32 (_mm256_loadu_si256 ((const __m256i *) (r + 16)), r3);

  _mm256_storeu_si256 ((__m256i *) o, sgn ? _mm256_packs_epi16 (p01, p23) : _mm256_packus_epi16 (p01, p23));
}

/* One output row of chunk @k of block @cb: the pair rows @rows (kernel row r at rows[r] +
 * @off), requantised into @r32 (pixel p at + 32 p) by the bracket (avx2_bracket_v's).
 * Fast (@EXACT FALSE; every slot of the chunk with a bound): the ends converted by
 * vcvtps2dq (round to nearest even, FP_ENV_GUARD's; a bounded lane's |lo|, |hi| < 2^22,
 * so the conversion is exact) and compared as integers, with no test per pixel;
 * FALSE when some lane's ends differ, and the caller runs the row again with @EXACT,
 * which tests each pixel and gives the lanes whose ends differ (every lane of a slot
 * without a bound: d = +inf) the double rule.  KH, KP, ES and EJ are constants where the
 * caller names them, so the loops unroll and the weights stay in registers.  With @PACK
 * (chunk 3, @r32 at the pixel's + 24), each pixel's bytes go to @ob + its offset, packed
 * with chunks 0-2's int32 already in @r32 (the fast form then leaves nothing in @r32). */
/* The int32 sums of one output row of chunk @k of block @cb into @acc (pixel p at + 8 p):
 * per pixel KH * KP vpmaddwd of the pair rows' entries (kernel row r at rows[r] + @off)
 * against the pair weights, held in registers across the row where they fit.  KH, KP, ES
 * and EJ are constants where the caller names them, so the loops unroll. */
static inline __attribute__ ((always_inline)) AVX2_ATTR void
dw_pairs_sums (const ConvJob *job, const gint16 *const *rows, guint nr, gsize off, guint cb, guint k, gint32 *acc,
               const guint KH, const guint KP, const guint ES, const guint EJ)
{
  const guint ntp = KH * KP, OW = job->OW;
  const gboolean held = ntp <= DW_HELD_PAIRS;
  const gint16 *wt = job->dw_w16 + (gsize) (cb + 8 * k) * 2;
  const gsize wstep = (gsize) job->Cp * 2;
  __m256i w[DW_HELD_PAIRS];
  const gint16 *rpa[DW_HELD_PAIRS];   /* the rows' pointers, local: the stores cannot alias them */

  if (held)
    {
#pragma GCC unroll 9
      for (guint t = 0; t < ntp; t++)
        w[t] = _mm256_loadu_si256 ((const __m256i *) (wt + t * wstep));
    }
  for (guint i = 0; i < nr; i++, acc += (gsize) OW * 8)
    {
      if (held)
        {
#pragma GCC unroll 9
          for (guint kr = 0; kr < KH; kr++)
            rpa[kr] = rows[i * KH + kr] + off;
        }
#pragma GCC unroll 2
      for (guint ow = 0; ow < OW; ow++)
        {
          __m256i a = _mm256_setzero_si256 ();
#pragma GCC unroll 9
          for (guint kr = 0; kr < KH; kr++)
            {
              const gint16 *e = (held ? rpa[kr] : rows[i * KH + kr] + off) + (gsize) ow * ES * 16;
#pragma GCC unroll 9
              for (guint j = 0; j < KP; j++)
                {
                  const guint t = kr * KP + j;
                  const __m256i wv = held ? w[t] : _mm256_loadu_si256 ((const __m256i *) (wt + t * wstep));
                  a = _mm256_add_epi32 (a, _mm256_madd_epi16 (_mm256_loadu_si256 ((const __m256i *) (e + j * EJ * 16)),
                                                              wv));
                }
            }
          _mm256_store_si256 ((__m256i *) (acc + (gsize) ow * 8), a);
        }
    }
}

/* dw_pairs_sums with the kernel named where it is 3x3 at horizontal stride 1 or 2. */
static AVX2_ATTR __attribute__ ((noinline)) void
dw_pairs_sums_any (const ConvJob *job, const DwPairs *g, const gint16 *const *rows, guint nr, gsize off, guint cb,
                   guint k, gint32 *acc)
{
  if (job->KH == 3 && job->KW == 3 && job->sw == 1)
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, 3, 2, 1, 2);
  else if (job->KH == 3 && job->KW == 3 && job->sw == 2)
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, 3, 2, 1, 1);
  else
    dw_pairs_sums (job, rows, nr, off, cb, k, acc, job->KH, g->kp, g->es, g->ej);
}

/* One output row of chunk @k of block @cb: its sums @acc requantised into @r32 (pixel p
 * at + 32 p) by the bracket (avx2_bracket_v's).  Fast (@EXACT FALSE; every slot of the
 * chunk with a bound): the ends converted by vcvtps2dq (round to nearest even,
 * FP_ENV_GUARD's; a bounded lane's |lo|, |hi| < 2^22, so the conversion is exact) and
 * compared as integers, with no test per pixel; FALSE when some lane's ends differ, and
 * the caller runs the row's requantisation again with @EXACT (from the same sums), which
 * tests each pixel and gives the lanes whose ends differ (every lane of a slot without a
 * bound: d = +inf) the double rule.  With @ob (chunk 3, @r32 at the pixel's + 24), each
 * pixel's bytes go to @ob + its offset, packed with chunks 0-2's int32 already in @r32
 * (the fast form then leaves nothing in @r32). */
static inline __attribute__ ((always_inline)) AVX2_ATTR gboolean
dw_pairs_requant (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob,
                  const gboolean EXACT, const gboolean PACK)
{
  const guint OW = np, s0 = cb + 8 * k;
  const gboolean sgn = job->lo < 0;
  const __m256 m = _mm256_loadu_ps (job->dw_fig + s0), alo = _mm256_loadu_ps (job->dw_fig + job->Cp + s0);
  const __m256 d = _mm256_loadu_ps (job->dw_fig + 2 * (gsize) job->Cp + s0);
  __m256i differ = _mm256_setzero_si256 ();

#pragma GCC unroll 2
  for (guint ow = 0; ow < OW; ow++)
    {
      const __m256i a = _mm256_load_si256 ((const __m256i *) (acc + (gsize) ow * 8));
      __m256i rl;
      if (!EXACT)
        {
          const __m256 lo = _mm256_fmadd_ps (_mm256_cvtepi32_ps (a), m, alo);
          const __m256i rh = _mm256_cvtps_epi32 (_mm256_add_ps (lo, d));
          rl = _mm256_cvtps_epi32 (lo);
          differ = _mm256_or_si256 (differ, _mm256_xor_si256 (rl, rh));
        }
      else
        {
          guint bad;
          rl = avx2_bracket_v (a, m, alo, d, &bad);
          if (bad != 0)
            {
              gint32 r[8], av[8];
              _mm256_storeu_si256 ((__m256i *) r, rl);
              _mm256_storeu_si256 ((__m256i *) av, a);
              for (; bad != 0; bad &= bad - 1)
                {
                  const guint l = (guint) __builtin_ctz (bad), c = cb + dw_slot_channel (8 * k + l);
                  r[l] = requant_value (av[l], job->dw_corr[c], job->rq->mul[c], job->rq->add[c], job->lo, job->hi);
                }
              rl = _mm256_loadu_si256 ((const __m256i *) r);
            }
        }
      if (PACK)
        dw_pack_pixel (r32 + (gsize) ow * DW_BLK - 24, rl, ob + ow * job->out_addr.pix, sgn);
      else
        _mm256_storeu_si256 ((__m256i *) (r32 + (gsize) ow * DW_BLK), rl);
    }
  return _mm256_testz_si256 (differ, differ);
}

/* dw_pairs_requant fast (TRUE when every lane's ends agreed), packing where @ob. */
static AVX2_ATTR gboolean
dw_pairs_requant_fast (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob)
{
  return ob != NULL ? dw_pairs_requant (job, acc, np, cb, k, r32, ob, FALSE, TRUE)
                    : dw_pairs_requant (job, acc, np, cb, k, r32, NULL, FALSE, FALSE);
}

/* dw_pairs_requant exact, for the rows the fast form could not take (out of line: the
 * fast loop keeps its registers). */
static AVX2_ATTR __attribute__ ((noinline)) void
dw_pairs_requant_exact (const ConvJob *job, const gint32 *acc, guint np, guint cb, guint k, gint32 *r32, guint8 *ob)
{
  if (ob != NULL)
    dw_pairs_requant (job, acc, np, cb, k, r32, ob, TRUE, TRUE);
  else
    dw_pairs_requant (job, acc, np, cb, k, r32, NULL, TRUE, FALSE);
}

static AVX2_ATTR void
conv_dw_pairs (gpointer data, guint item)
{
  const ConvJob *job = data;
  DwPairs g;
  dw_pairs_geometry (job, &g);
  const guint n = item / g.nbands, oh0 = item % g.nbands * g.band, oh1 = MIN (job->OH, oh0 + g.band);
  const gsize hsize = (gsize) 4 * g.nent * 16, cs = (gsize) g.nent * 16, pix = job->out_addr.pix;
  const gboolean sgn = job->lo < 0;
  /* narrow rows run several to a pass, so a pass's loops see about DW_PASS_PIXELS pixels */
  const guint R = MAX (1u, MIN (g.band, DW_PASS_PIXELS / job->OW));
  const guint NR = (R - 1) * job->sh + job->KH;   /* pair rows a pass reads */
  guint8 *const out = job->out->data;
  /* the ring of pair rows, the requantised int32 (every chunk writes its lanes of a pixel
   * before the pack reads them) and a chunk's sums, each 64-byte aligned: every 32-byte entry and pixel then lies inside
   * one cache line */
  const gsize ring_b = (hsize * NR * sizeof (gint16) + 63) & ~(gsize) 63;
  const gsize r32_b = ((gsize) R * job->OW * DW_BLK * sizeof (gint32) + 63) & ~(gsize) 63;
  const gsize acc_b = (gsize) R * job->OW * 8 * sizeof (gint32);
  gboolean own;
  guint8 *scratch = dw_scratch_get (ring_b + r32_b + acc_b, &own);
  gint16 *ring = (gint16 *) scratch;
  gint32 *r32 = (gint32 *) (scratch + ring_b);
  gint32 *acc = (gint32 *) (scratch + ring_b + r32_b);
  gint64 tag_local[16];
  const gint16 *rows_local[64];
  g_autofree gint64 *tag_heap = NR > G_N_ELEMENTS (tag_local) ? g_new (gint64, NR) : NULL;
  g_autofree const gint16 **rows_heap = (gsize) R * job->KH > G_N_ELEMENTS (rows_local)
                                        ? g_new (const gint16 *, (gsize) R * job->KH) : NULL;
  gint64 *tag = tag_heap != NULL ? tag_heap : tag_local;
  const gint16 **rows = rows_heap != NULL ? rows_heap : rows_local;
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      const guint nvalid = MIN (DW_BLK, job->C - cb);
      const gboolean fast = job->out_block_fast && nvalid == DW_BLK;
      const gboolean run = nvalid == DW_BLK && channel_run (job->in, cb) >= DW_BLK;
      guint base = (oh0 * job->sh) % NR;   /* the ring slot of a pass's first pair row */

      for (guint s = 0; s < NR; s++)
        tag[s] = -1;
      for (guint oh = oh0; oh < oh1; oh += R)
        {
          const guint nr = MIN (R, oh1 - oh), np = nr * job->OW;
          const gsize row_base = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

          /* pair row hp = oh * sh + d sits in slot hp % NR: base + d, less NR past the end */
          for (guint i = 0; i < nr; i++)
            for (guint kr = 0; kr < job->KH; kr++)
              {
                const guint d = i * job->sh + kr, hp = oh * job->sh + d;
                const guint slot = base + d >= NR ? base + d - NR : base + d;
                if (tag[slot] != (gint64) hp)
                  {
                    dw_pair_row (job, &g, n, hp, cb, run, ring + slot * hsize);
                    tag[slot] = hp;
                  }
                rows[i * job->KH + kr] = ring + slot * hsize;
              }
          base += R * job->sh;
          while (base >= NR)
            base -= NR;
          /* with a whole block contiguous in the output (its rows too), chunk 3 packs each
           * pixel's four chunks into its bytes as it goes (dw_pack_pixel); else they go
           * through res */
          for (guint k = 0; k < 4; k++)
            {
              guint8 *const ob = fast && k == 3 ? out + row_base + job->out_addr.chan[cb] : NULL;
              dw_pairs_sums_any (job, &g, rows, nr, k * cs, cb, k, acc);
              if (G_UNLIKELY (!job->dw_bounded8[cb / 8 + k]
                              || !dw_pairs_requant_fast (job, acc, np, cb, k, r32 + 8 * k, ob)))
                dw_pairs_requant_exact (job, acc, np, cb, k, r32 + 8 * k, ob);
            }
          for (guint p = 0; !fast && p < np; p++)
            {
              const gint32 *rp = r32 + (gsize) p * DW_BLK;
              const gsize ob = row_base + (gsize) (p / job->OW) * job->out_addr.row + (gsize) (p % job->OW) * pix;
              guint8 res[DW_BLK];
              dw_pack_pixel (rp, _mm256_loadu_si256 ((const __m256i *) (rp + 24)), res, sgn);
              for (guint l = 0; l < nvalid; l++)
                out[ob + job->out_addr.chan[cb + l]] = res[l];
            }
        }
    }
  if (own)
    g_aligned_free (scratch);
}

/* 3x3 depthwise convs on NCHWc32 input, with AVX512-VBMI: one quad row of four input
 * rows serves R output rows (two at stride 1: rows oh and oh+1 read input rows 0-2 and
 * 1-3 of it, with their weights shifted one byte; one at stride 2).  Each item builds the
 * quads of one 32-channel block for all padded columns into a small buffer (two byte
 * permutations per column: the four rows' 32 bytes interleaved channel by channel), then
 * runs the R rows across it with the 6R weight registers held: per 16 outputs, three
 * vpdpbusd and the requantisation, the fused path where proven. */
/* byte 4i + k of a half's quads: source k's channel i (sources 0, 1 the first register's
 * halves, 2, 3 the second's: index bit 6), channels 16-31 at i + 16 */
#define DW_QI(i) (i), 32 + (i), 64 + (i), 96 + (i)
#define DW_QI4(i) DW_QI (i), DW_QI (i + 1), DW_QI (i + 2), DW_QI (i + 3)
#define DW_VBMI_ATTR __attribute__ ((target ("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx512vbmi")))

static const guint8 dw_quad_index[128] = { DW_QI4 (0), DW_QI4 (4), DW_QI4 (8), DW_QI4 (12),
                                           DW_QI4 (16), DW_QI4 (20), DW_QI4 (24), DW_QI4 (28) };
/* the column quads from pairs loaded a pixel early (an odd left pad; dw_cols_tile): source
 * pixels 1, 2 and 3, the fourth byte (a zero weight's) again */
#define DW_QIO(i) 32 + (i), 64 + (i), 96 + (i), 96 + (i)
#define DW_QIO4(i) DW_QIO (i), DW_QIO (i + 1), DW_QIO (i + 2), DW_QIO (i + 3)
static const guint8 dw_quad_index_odd[128] = { DW_QIO4 (0), DW_QIO4 (4), DW_QIO4 (8), DW_QIO4 (12),
                                               DW_QIO4 (16), DW_QIO4 (20), DW_QIO4 (24), DW_QIO4 (28) };

static gboolean
cpu_has_vbmi (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512vbmi");
}

/* @e: the slots' thresholds when @bounded, else their error terms */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR __m128i
dw_requant_half (const ConvJob *job, __m512i acc, gboolean bounded, __m512 m, __m512 d, __m512 e, guint c)
{
  __m128i r;

  if (bounded ? vnni_requant16_bounded (acc, m, d, e, job->lo, job->hi, &r)
              : vnni_requant16_fast_v (acc, m, d, e, job->lo, job->hi, &r))
    return r;
  return vnni_requant16_slot (job, acc, job->dw_corr + c, c);
}

static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_store_pixel (const ConvJob *job, guint8 *out, gsize pix_base, guint cb, guint nvalid, __m128i r0, __m128i r1)
{
  if (job->out_block_fast && nvalid == DW_BLK)
    _mm256_storeu_si256 ((__m256i *) (out + pix_base + job->out_addr.chan[cb]),
                         _mm256_inserti128_si256 (_mm256_castsi128_si256 (r0), r1, 1));
  else
    {
      guint8 res[DW_BLK];
      _mm_storeu_si128 ((__m128i *) res, r0);
      _mm_storeu_si128 ((__m128i *) (res + 16), r1);
      for (guint j = 0; j < nvalid; j++)
        out[pix_base + job->out_addr.chan[cb + j]] = res[j];
    }
}

/* The bracket (requant_slot_bounds) of 16 lanes: rne (lo) as int32, and in @bad (or-ed in) the
 * lanes where rne (lo) != rne (hi). */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR __m512i
dw_bracket (__m512i acc, __m512 m, __m512 alo, __m512 d, __m512i *bad)
{
  const __m512 lo = _mm512_fmadd_ps (_mm512_cvtepi32_ps (acc), m, alo);
  const __m512i rl = _mm512_cvt_roundps_epi32 (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512i rh = _mm512_cvt_roundps_epi32 (_mm512_add_ps (lo, d), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);

  *bad = _mm512_ternarylogic_epi32 (*bad, rl, rh, 0xF6);   /* bad | (rl ^ rh) */
  return rl;
}

/* The double rule for the lanes of @acc (slots @c ..) whose bracket failed, written over
 * their bytes of the pixel at @pix (the output at the pixel's offset). */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_bracket_fix (const ConvJob *job, __m512i acc, guint c, guint8 *pix)
{
  __m512i bad = _mm512_setzero_si512 ();
  gint32 a[16];
  guint m;

  dw_bracket (acc, _mm512_loadu_ps (job->rq->mulf + c), _mm512_loadu_ps (job->rq->bralo + c),
              _mm512_loadu_ps (job->rq->brd + c), &bad);
  m = _mm512_test_epi32_mask (bad, bad);
  if (m == 0)           /* most of a failed pixel's four groups of lanes */
    return;
  _mm512_storeu_si512 (a, acc);
  for (; m != 0; m &= m - 1)
    {
      const guint l = (guint) __builtin_ctz (m);
      pix[job->out_addr.chan[c + l]]
        = requant_lane (a[l], job->dw_corr[c + l], job->rq->mul[c + l], job->rq->add[c + l], job->lo, job->hi);
    }
}

/* Block @cb's weights of the R rows, [r][kw][half]. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_rows_weights (const ConvJob *job, guint cb, const guint R, __m512i w[2][3][2])
{
#pragma GCC unroll 2
  for (guint r = 0; r < R; r++)
#pragma GCC unroll 3
    for (guint s = 0; s < 3; s++)
      {
        const gint8 *ws = job->dw_wr + (((gsize) r * 3 + s) * job->Cp + cb) * 4;
        w[r][s][0] = _mm512_loadu_si512 (ws);
        w[r][s][1] = _mm512_loadu_si512 (ws + 64);
      }
}

/* The R rows' accumulators of one pixel whose quads start at @xs. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_rows_accumulate (const guint8 *xs, __m512i w[2][3][2], const guint R, __m512i a[2][2])
{
#pragma GCC unroll 2
  for (guint r = 0; r < R; r++)
    a[r][0] = a[r][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint s = 0; s < 3; s++)
    {
      __m512i x0 = _mm512_loadu_si512 (xs + s * 128), x1 = _mm512_loadu_si512 (xs + s * 128 + 64);
#pragma GCC unroll 2
      for (guint r = 0; r < R; r++)
        {
          a[r][0] = _mm512_dpbusd_epi32 (a[r][0], x0, w[r][s][0]);
          a[r][1] = _mm512_dpbusd_epi32 (a[r][1], x1, w[r][s][1]);
        }
    }
}

/* The R rows' slow loop of block @cb (dw_rows_accumulate on the quad row @q, the figures'
 * paths lane by lane): partial blocks, slots without a bound, other output layouts,
 * horizontal strides above 1. */
static DW_VBMI_ATTR void
dw_rows_block (const ConvJob *job, guint n, guint oh0, guint cb, guint8 *q)
{
  const guint8 *src = job->in->data;
  guint8 *out = job->out->data;
  const gsize qstep = 128;                      /* one column's quads: 2 x 64 bytes */
  const guint R = 2, rows = MIN (R, job->OH - oh0);
  const guint nvalid = MIN (DW_BLK, job->C - cb);
  const __m512i fl = _mm512_set1_epi8 ((char) job->pad_value);
  const gboolean p0 = job->rq->bounded16[cb / 16], p1 = job->rq->bounded16[cb / 16 + 1];
  const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
  const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
  const __m512 e0 = _mm512_loadu_ps ((p0 ? job->rq->thrf : job->rq->errf) + cb);
  const __m512 e1 = _mm512_loadu_ps ((p1 ? job->rq->thrf : job->rq->errf) + cb + 16);
  const __m512i idx0 = _mm512_loadu_si512 (dw_quad_index), idx1 = _mm512_loadu_si512 (dw_quad_index + 64);
  /* a row outside the input reads 32 zero bytes again and again (step 0) */
  static const guint8 zero32[DW_BLK] = { 0 };
  const guint8 *b[4];
  gsize t[4];
  __m512i w[2][3][2];
  guint8 *qp = q + (gsize) job->pl * qstep;

  for (guint k = 0; k < 4; k++)
    {
      gint h = (gint) (oh0 * job->sh + k) - (gint) job->pt;
      b[k] = h >= 0 && h < (gint) job->H
             ? src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row + job->in_addr.chan[cb] : zero32;
      t[k] = b[k] != zero32 ? DW_BLK : 0;
    }
  /* padding columns: the biased zero */
  for (guint wp = 0; wp < job->Wp; wp++)
    if (wp < job->pl || wp >= job->pl + job->W)
      memset (q + wp * qstep, job->pad_value, qstep);
  for (guint x = 0; x < job->W; x++, qp += qstep)
    {
      __m256i y0 = _mm256_loadu_si256 ((const __m256i *) (b[0] + x * t[0]));
      __m256i y1 = _mm256_loadu_si256 ((const __m256i *) (b[1] + x * t[1]));
      __m256i y2 = _mm256_loadu_si256 ((const __m256i *) (b[2] + x * t[2]));
      __m256i y3 = _mm256_loadu_si256 ((const __m256i *) (b[3] + x * t[3]));
      __m512i z01 = _mm512_xor_si512 (_mm512_inserti64x4 (_mm512_castsi256_si512 (y0), y1, 1), fl);
      __m512i z23 = _mm512_xor_si512 (_mm512_inserti64x4 (_mm512_castsi256_si512 (y2), y3, 1), fl);
      _mm512_storeu_si512 (qp, _mm512_permutex2var_epi8 (z01, idx0, z23));
      _mm512_storeu_si512 (qp + 64, _mm512_permutex2var_epi8 (z01, idx1, z23));
    }
  dw_rows_weights (job, cb, R, w);
  for (guint ow = 0; ow < job->OW; ow++)
    {
      const guint8 *xs = q + (gsize) ow * job->sw * qstep;
      __m512i a[2][2];

      dw_rows_accumulate (xs, w, R, a);
      for (guint r = 0; r < rows; r++)
        {
          __m128i r0, r1 = _mm_setzero_si128 ();
          r0 = dw_requant_half (job, a[r][0], p0, m0, d0, e0, cb);
          if (nvalid > 16)
            r1 = dw_requant_half (job, a[r][1], p1, m1, d1, e1, cb + 16);
          dw_store_pixel (job, out, (gsize) n * job->out_addr.batch + (gsize) (oh0 + r) * job->out_addr.row
                                      + (gsize) ow * job->out_addr.pix, cb, nvalid, r0, r1);
        }
    }
}

/* ---- stride 1: type planes ------------------------------------------------------------
 *
 * The common case (3x3 at stride 1 both ways, NCHWc32 in and out, whole blocks whose slots
 * all have a bracket) runs on "type planes" instead of the quad row above.  A pair of
 * output rows reads four input rows; interleaving their bytes (rows 0-1 and 2-3 byte by
 * byte, then the two pairs word by word) turns one 64-byte load per row, two pixels of a
 * block, into four registers of quads: type j holds, for each of the two pixels, the
 * channels dw_type_channel (j, 0..7).  Those interleaves stay inside 128-bit lanes (any
 * of the core's four vector pipes runs them; a byte permutation across lanes shares the
 * multiply-add's), and each type register is stored whole into its plane: plane j, padded
 * column x at 32 x.  A 64-byte load at column ow + kw of plane j is then the quads that
 * pixels ow and ow + 1 read at kernel column kw, so a pair of output pixels is per type
 * three vpdpbusd per output row (the weights by type: dw_wt, the rows' weights of
 * dw_pack_weights, lane by lane).  The accumulators of types 0-3 go through the bracket
 * two at a time (two passes over the row, twelve weight registers each): the saturating
 * pack of types 0 and 1 to int16 waits in a row buffer for types 2 and 3, and packing
 * those two halves to bytes gives the pair's 64 output bytes in channel order, with no
 * permutation.  A lane whose bracket fails is flagged with its pair and pass; after both
 * passes the flagged pairs are summed again and those lanes take the double rule. */

/* One step of dw_type_planes: the rows' 64 bytes @r0 .. @r3 (two pixels) into the planes
 * at @d. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_type_planes_step (__m512i r0, __m512i r1, __m512i r2, __m512i r3, __m512i fl, guint8 *d, gsize plane)
{
  r0 = _mm512_xor_si512 (r0, fl);
  r1 = _mm512_xor_si512 (r1, fl);
  r2 = _mm512_xor_si512 (r2, fl);
  r3 = _mm512_xor_si512 (r3, fl);
  const __m512i p01l = _mm512_unpacklo_epi8 (r0, r1), p01h = _mm512_unpackhi_epi8 (r0, r1);
  const __m512i p23l = _mm512_unpacklo_epi8 (r2, r3), p23h = _mm512_unpackhi_epi8 (r2, r3);
  _mm512_store_si512 (d, _mm512_unpacklo_epi16 (p01l, p23l));
  _mm512_store_si512 (d + plane, _mm512_unpackhi_epi16 (p01l, p23l));
  _mm512_store_si512 (d + 2 * plane, _mm512_unpacklo_epi16 (p01h, p23h));
  _mm512_store_si512 (d + 3 * plane, _mm512_unpackhi_epi16 (p01h, p23h));
}

/* Pixels @e and @e + 1 of a row at @b (@t bytes a pixel: 0 for a row outside the input),
 * zero where outside 0 .. W-1 (masked-off bytes are not read). */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR __m512i
dw_load_pair (const guint8 *b, gssize t, gint e, gint W)
{
  __mmask64 m;

  if (e >= 0 && e + 2 <= W)
    return _mm512_loadu_si512 (b + e * t);
  m = (e >= 0 && e < W ? G_GUINT64_CONSTANT (0xFFFFFFFF) : 0)
      | (e + 1 >= 0 && e + 1 < W ? G_GUINT64_CONSTANT (0xFFFFFFFF00000000) : 0);
  return m == 0 ? _mm512_setzero_si512 () : _mm512_maskz_loadu_epi8 (m, b + e * t);
}

/* Block @cb's type planes for output rows oh0, oh0 + 1 of image @n: plane j at
 * @q + j * @plane (on a cache line), padded column c at 32 c, columns 0 .. Wp (the last a
 * pad: an odd last pixel's pair reads one column past the row).  Two columns a step, so
 * that the stores here and the pass's loads at even columns are whole cache lines; pixels
 * outside the row come in as zeros, the biased zero after the flip.  With an odd left pad,
 * a step's two columns are input pixels odd and even: both pixel pairs around them are
 * loaded whole (two pixels of NCHWc32 from an even one are a cache line where the row
 * starts on one) and shifted together by a pixel (valignq), each load used twice. */
static DW_VBMI_ATTR void
dw_type_planes (const ConvJob *job, guint n, guint oh0, guint cb, guint8 *q, gsize plane)
{
  static const guint8 zero64[64] __attribute__ ((aligned (64))) = { 0 };
  const __m512i fl = _mm512_set1_epi8 ((char) job->pad_value);
  const gint W = (gint) job->W, pl = (gint) job->pl, ncols = (gint) job->Wp + 1;
  const guint8 *b[4];
  gssize t[4];

  for (guint k = 0; k < 4; k++)
    {
      gint h = (gint) (oh0 + k) - (gint) job->pt;
      b[k] = h >= 0 && h < (gint) job->H
             ? (const guint8 *) job->in->data + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row
                 + job->in_addr.chan[cb]
             : zero64;
      t[k] = b[k] != zero64 ? DW_BLK : 0;   /* a row outside the input: zeros again and again */
    }
  /* the steps whose loads lie inside the row: c_in0 <= c <= c_in1 */
  const gint sh = pl % 2, c_in0 = pl - sh, c_in1 = W - 2 + pl - sh;
  __m512i p0 = _mm512_setzero_si512 (), p1 = p0, p2 = p0, p3 = p0;
  gint c = 0;

#define DW_TYPE_PLANES_STEP(LOAD)                                                                  \
  do                                                                                               \
    {                                                                                              \
      const gint e = c - pl + sh;                                                                  \
      const __m512i c0 = LOAD (b[0], t[0], e), c1 = LOAD (b[1], t[1], e);                           \
      const __m512i c2 = LOAD (b[2], t[2], e), c3 = LOAD (b[3], t[3], e);                           \
      if (sh == 0)                                                                                 \
        dw_type_planes_step (c0, c1, c2, c3, fl, q + (gsize) c * DW_BLK, plane);                    \
      else                                                                                         \
        dw_type_planes_step (_mm512_alignr_epi64 (c0, p0, 4), _mm512_alignr_epi64 (c1, p1, 4),      \
                             _mm512_alignr_epi64 (c2, p2, 4), _mm512_alignr_epi64 (c3, p3, 4), fl,  \
                             q + (gsize) c * DW_BLK, plane);                                        \
      p0 = c0, p1 = c1, p2 = c2, p3 = c3;                                                          \
    }                                                                                              \
  while (0)
#define DW_LOAD_EDGE(B, T, E) dw_load_pair (B, T, E, W)
#define DW_LOAD_INSIDE(B, T, E) _mm512_loadu_si512 ((B) + (E) * (T))
  for (; c < ncols && c < c_in0; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_EDGE);
  for (; c < ncols && c <= c_in1; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_INSIDE);
  for (; c < ncols; c += 2)
    DW_TYPE_PLANES_STEP (DW_LOAD_EDGE);
#undef DW_LOAD_INSIDE
#undef DW_LOAD_EDGE
#undef DW_TYPE_PLANES_STEP
}

/* Pass @pass (types 2 pass and 2 pass + 1) of pixel pair @ow's two output rows: the
 * accumulators @a[r][t]. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_type_accumulate (const guint8 *q0, const guint8 *q1, guint ow, __m512i w[2][3][2], __m512i a[2][2])
{
  a[0][0] = a[0][1] = a[1][0] = a[1][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint s = 0; s < 3; s++)
    {
      const __m512i x0 = _mm512_loadu_si512 (q0 + (gsize) (ow + s) * DW_BLK);
      const __m512i x1 = _mm512_loadu_si512 (q1 + (gsize) (ow + s) * DW_BLK);
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
        {
          a[r][0] = _mm512_dpbusd_epi32 (a[r][0], x0, w[r][s][0]);
          a[r][1] = _mm512_dpbusd_epi32 (a[r][1], x1, w[r][s][1]);
        }
    }
}

/* Block @cb's weights and figures of pass @pass. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_type_figures (const ConvJob *job, guint cb, guint pass, __m512i w[2][3][2], __m512 m[2], __m512 alo[2],
                 __m512 d[2])
{
  const gint8 *wb = job->dw_wt + (gsize) cb / DW_BLK * 2 * 3 * 4 * 64;
  const float *fb = job->dw_fig4 + (gsize) cb / DW_BLK * 4 * 3 * 16;

#pragma GCC unroll 2
  for (guint t = 0; t < 2; t++)
    {
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
#pragma GCC unroll 3
        for (guint s = 0; s < 3; s++)
          w[r][s][t] = _mm512_load_si512 (wb + ((r * 3 + s) * 4 + 2 * pass + t) * 64);
      m[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 0) * 16);
      alo[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 1) * 16);
      d[t] = _mm512_load_ps (fb + ((2 * pass + t) * 3 + 2) * 16);
    }
}

/* Two types' requantised lanes of one output row packed to int16 (saturating: the rails
 * clamp after), clamped first where the rails are not int8's or uint8's. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR __m512i
dw_type_pack16 (__m512i k0, __m512i k1, const gint lo, const gint hi)
{
  if (!((lo == -128 && hi == 127) || (lo == 0 && hi == 255)))
    {
      const __m512i l = _mm512_set1_epi32 (lo), h = _mm512_set1_epi32 (hi);
      k0 = _mm512_max_epi32 (_mm512_min_epi32 (k0, h), l);
      k1 = _mm512_max_epi32 (_mm512_min_epi32 (k1, h), l);
    }
  return _mm512_packs_epi32 (k0, k1);
}

/* @NP pixel pairs from pair @i0 of pass @pass (see dw_type_pass_n): their accumulators
 * first, then their brackets side by side, then their bytes. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_type_step (const guint8 *q0, const guint8 *q1, guint i0, const guint NP, const guint pass, guint rows, guint OW,
              __m512i w[2][3][2], const __m512 *m, const __m512 *alo, const __m512 *d, guint8 *const *orow,
              guint8 *tmp, guint8 *flags, const gint lo, const gint hi)
{
  __m512i a[2][2][2], k[2][2][2], bad[2];

#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    dw_type_accumulate (q0, q1, 2 * (i0 + u), w, a[u]);
#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    {
      bad[u] = _mm512_setzero_si512 ();
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
#pragma GCC unroll 2
        for (guint t = 0; t < 2; t++)
          k[u][r][t] = dw_bracket (a[u][r][t], m[t], alo[t], d[t], &bad[u]);
    }
#pragma GCC unroll 2
  for (guint u = 0; u < NP; u++)
    {
      const guint i = i0 + u;
      guint8 *t16 = tmp + (gsize) i * 2 * 64;
      const guint8 f = _mm512_test_epi32_mask (bad[u], bad[u]) != 0;
#pragma GCC unroll 2
      for (guint r = 0; r < 2; r++)
        {
          const __m512i p = dw_type_pack16 (k[u][r][0], k[u][r][1], lo, hi);
          if (pass == 0)
            _mm512_store_si512 (t16 + r * 64, p);
          else if (r < rows)
            {
              const __m512i t0 = _mm512_load_si512 (t16 + r * 64);
              const __m512i b = lo < 0 ? _mm512_packs_epi16 (t0, p) : _mm512_packus_epi16 (t0, p);
              guint8 *o = orow[r] + (gsize) (2 * i) * DW_BLK;
              /* an odd row's last pair has one pixel, its second lanes a pad's */
              if (2 * i + 1 < OW)
                _mm512_storeu_si512 (o, b);
              else
                _mm256_storeu_si256 ((__m256i *) o, _mm512_castsi512_si256 (b));
            }
        }
      if (pass == 0)
        flags[i] = f;
      else
        flags[i] |= (guint8) (f << 1);
    }
}

/* Pass @pass of block @cb over every pixel pair of output rows @orow (@rows of them), two
 * pairs a step.  Pass 0 leaves each row's int16 in @tmp ([pair][row][64]); pass 1 packs
 * them with its own to bytes and stores them.  @flags gets bit @pass of each pair whose
 * bracket failed somewhere. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_type_pass_n (const ConvJob *job, const guint8 *q, gsize plane, guint cb, const guint pass, guint rows,
                guint8 *const *orow, guint8 *tmp, guint8 *flags, const gint lo, const gint hi)
{
  const guint OW = job->OW, npairs = (OW + 1) / 2;
  const guint8 *q0 = q + 2 * pass * plane, *q1 = q0 + plane;
  __m512i w[2][3][2];
  __m512 m[2], alo[2], d[2];
  guint i = 0;

  dw_type_figures (job, cb, pass, w, m, alo, d);
  for (; i + 2 <= npairs; i += 2)
    dw_type_step (q0, q1, i, 2, pass, rows, OW, w, m, alo, d, orow, tmp, flags, lo, hi);
  if (i < npairs)
    dw_type_step (q0, q1, i, 1, pass, rows, OW, w, m, alo, d, orow, tmp, flags, lo, hi);
}

/* The lanes of pass @pass of pixel pair @ow (block @cb) whose bracket failed: the
 * accumulators again and the double rule, over the bytes pass 1 stored. */
static DW_VBMI_ATTR void
dw_type_fix (const ConvJob *job, const guint8 *q, gsize plane, guint n, guint oh0, guint rows, guint cb, guint ow,
             guint pass)
{
  __m512i w[2][3][2], a[2][2];
  __m512 m[2], alo[2], d[2];

  dw_type_figures (job, cb, pass, w, m, alo, d);
  dw_type_accumulate (q + 2 * pass * plane, q + (2 * pass + 1) * plane, ow, w, a);
  for (guint r = 0; r < rows; r++)
    for (guint t = 0; t < 2; t++)
      {
        const __m512 lo = _mm512_fmadd_ps (_mm512_cvtepi32_ps (a[r][t]), m[t], alo[t]);
        const __m512i rl = _mm512_cvt_roundps_epi32 (lo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m512i rh = _mm512_cvt_roundps_epi32 (_mm512_add_ps (lo, d[t]),
                                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        guint bad = _mm512_cmpneq_epi32_mask (rl, rh);
        gint32 acc[16];

        _mm512_storeu_si512 (acc, a[r][t]);
        for (; bad != 0; bad &= bad - 1)
          {
            const guint l = (guint) __builtin_ctz (bad), px = ow + l / 8;
            const guint c = cb + dw_type_channel (2 * pass + t, l % 8);
            if (px >= job->OW)
              continue;
            ((guint8 *) job->out->data)[(gsize) n * job->out_addr.batch + (gsize) (oh0 + r) * job->out_addr.row
                                        + (gsize) px * job->out_addr.pix + job->out_addr.chan[c]]
              = requant_lane (acc[l], job->dw_corr[c], job->rq->mul[c], job->rq->add[c], job->lo, job->hi);
          }
      }
}

static DW_VBMI_ATTR __attribute__ ((noinline)) void
dw_type_pass_s8 (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                 guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, -128, 127);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, -128, 127);
}

static DW_VBMI_ATTR __attribute__ ((noinline)) void
dw_type_pass_u8 (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                 guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, 0, 255);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, 0, 255);
}

static DW_VBMI_ATTR __attribute__ ((noinline)) void
dw_type_pass_any (const ConvJob *job, const guint8 *q, gsize plane, guint cb, guint pass, guint rows,
                  guint8 *const *orow, guint8 *tmp, guint8 *flags)
{
  if (pass == 0)
    dw_type_pass_n (job, q, plane, cb, 0, rows, orow, tmp, flags, job->lo, job->hi);
  else
    dw_type_pass_n (job, q, plane, cb, 1, rows, orow, tmp, flags, job->lo, job->hi);
}

/* Whether block @cb of @job runs on type planes. */
static gboolean
dw_type_block (const ConvJob *job, guint cb)
{
  return job->dw_wt != NULL && job->sw == 1 && job->C - cb >= DW_BLK && job->rq->bounded16[cb / 16]
         && job->rq->bounded16[cb / 16 + 1] && job->out_block_fast && job->out_addr.pix == DW_BLK;
}

/* One item: output rows 2i and 2i + 1 of an image, every block. */
static DW_VBMI_ATTR void
conv_dw_rows_3x3 (gpointer data, guint item)
{
  ConvJob *job = data;
  const guint groups = (job->OH + 1) / 2, n = item / groups, oh0 = (item % groups) * 2;
  const guint rows = MIN (2u, job->OH - oh0), npairs = (job->OW + 1) / 2;
  /* the quad row (slow blocks), the type planes (each on a cache line), the int16 row
   * buffer, the pairs' flags */
  const gsize qsize = ((gsize) job->Wp * 128 + 63) & ~(gsize) 63;
  const gsize plane = ((gsize) (job->Wp + 3) * DW_BLK + 63) & ~(gsize) 63;
  const gsize tsize = (gsize) npairs * 2 * 64;
  gboolean own;
  guint8 *scratch = dw_scratch_get (qsize + 4 * plane + tsize + npairs + 64, &own);
  guint8 *q = scratch, *tmp = scratch + qsize + 4 * plane, *flags = tmp + tsize;
  guint8 *planes = scratch + qsize;

  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      guint8 *orow[2];

      if (!dw_type_block (job, cb))
        {
          dw_rows_block (job, n, oh0, cb, q);
          continue;
        }
      for (guint r = 0; r < 2; r++)
        orow[r] = (guint8 *) job->out->data + (gsize) n * job->out_addr.batch
                  + (gsize) (oh0 + MIN (r, rows - 1)) * job->out_addr.row + job->out_addr.chan[cb];
      dw_type_planes (job, n, oh0, cb, planes, plane);
      for (guint pass = 0; pass < 2; pass++)
        {
          if (job->lo == -128 && job->hi == 127)
            dw_type_pass_s8 (job, planes, plane, cb, pass, rows, orow, tmp, flags);
          else if (job->lo == 0 && job->hi == 255)
            dw_type_pass_u8 (job, planes, plane, cb, pass, rows, orow, tmp, flags);
          else
            dw_type_pass_any (job, planes, plane, cb, pass, rows, orow, tmp, flags);
        }
      for (guint i = 0; i < npairs; i++)
        if (G_UNLIKELY (flags[i] != 0))
          for (guint pass = 0; pass < 2; pass++)
            if (flags[i] & (1u << pass))
              dw_type_fix (job, planes, plane, n, oh0, rows, cb, 2 * i, pass);
    }
  if (own)
    g_aligned_free (scratch);
}


/* 3x3 depthwise convs at stride 2 (in both directions) on NCHWc32 input: "column quads".
 * Output column ow of input row y reads pixels 2ow-pl .. +2, four consecutive pixels of
 * NCHWc32 are 128 contiguous bytes, and two byte permutations of them give the four
 * pixels' bytes channel by channel: one vpdpbusd per input row does a row's three taps of
 * 16 channels (weights [ky][Cp][4], zero in byte 3).  Nothing is built in memory; pixels
 * outside the row are masked off the loads, and the biasing XOR turns their zeros into
 * the biased zero, as it does for rows outside the input. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR __m512i
dw_load_pixels2 (const guint8 *row, gint x, gint W)
{
  /* pixels x and x + 1 (32 bytes each) of @row, zero where outside 0 .. W-1 */
  if (x >= 0 && x + 2 <= W)
    return _mm512_loadu_si512 (row + (gsize) x * DW_BLK);
  __mmask64 m = 0;
  if (x >= 0 && x < W)
    m |= G_GUINT64_CONSTANT (0xFFFFFFFF);
  if (x + 1 >= 0 && x + 1 < W)
    m |= G_GUINT64_CONSTANT (0xFFFFFFFF00000000);
  if (m == 0)
    return _mm512_setzero_si512 ();
  /* a masked-off byte is not read: the address may lie before the row */
  return _mm512_maskz_loadu_epi8 (m, row + (gssize) x * DW_BLK);
}

/* One pixel's accumulators from the column quads of the three rows @rb (NULL: outside
 * the input) loaded from pixel @x: its taps start at pixel x + @s (s 1: an odd left pad,
 * the pairs loaded from an even pixel, dw_cols_tile). */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_cols_accumulate (const guint8 *const *rb, gint x, gint W, const guint s, __m512i fl, __m512i w[3][2],
                    __m512i *a0, __m512i *a1)
{
  const guint8 *qi = s ? dw_quad_index_odd : dw_quad_index;
  const __m512i idx0 = _mm512_loadu_si512 (qi), idx1 = _mm512_loadu_si512 (qi + 64);

  *a0 = *a1 = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint ky = 0; ky < 3; ky++)
    {
      __m512i A = fl, B = fl;
      if (rb[ky] != NULL)
        {
          A = _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x, W), fl);
          B = _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x + 2, W), fl);
        }
      *a0 = _mm512_dpbusd_epi32 (*a0, _mm512_permutex2var_epi8 (A, idx0, B), w[ky][0]);
      *a1 = _mm512_dpbusd_epi32 (*a1, _mm512_permutex2var_epi8 (A, idx1, B), w[ky][1]);
    }
}

/* Block @cb's column-quad weights, [kh][half]. */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_cols_weights (const ConvJob *job, guint cb, __m512i w[3][2])
{
  for (guint ky = 0; ky < 3; ky++)
    {
      const gint8 *ws = job->dw_wr + ((gsize) ky * job->Cp + cb) * 4;
      w[ky][0] = _mm512_loadu_si512 (ws);
      w[ky][1] = _mm512_loadu_si512 (ws + 64);
    }
}

/* Four output pixels of one block from the column quads of the rows @rb (NULL: outside
 * the input) loaded from pixel @x, their taps from pixel x + @s: their 8 accumulators, then
 * their 8 requantisations side by side (one chain per pixel would leave the core waiting on
 * its latency) through the bracket, stored as 128 bytes at @o (NCHWc32, pixels @pix bytes
 * apart).  @inside: every row is there and pixels x .. x + 9 lie in the row.  FALSE where a
 * lane's bracket failed (its byte is then wrong: dw_cols_tile_fix).  With an odd left pad
 * (@s 1) the loads start a pixel early, on an even pixel: two pixels of NCHWc32 from an
 * even one are a whole cache line where the row starts on one (from an odd one, every
 * load spans two lines, and took about as long again on Zen 5). */
static inline __attribute__ ((always_inline)) DW_VBMI_ATTR gboolean
dw_cols_tile (const guint8 *const *rb, gint x, gint W, const guint s, __m512i fl, __m512i w[3][2], __m512 m0,
              __m512 m1, __m512 bl0, __m512 bl1, __m512 bd0, __m512 bd1, const gint lo, const gint hi,
              const gboolean inside, guint8 *o, gsize pix)
{
  const guint8 *qi = s ? dw_quad_index_odd : dw_quad_index;
  const __m512i idx0 = _mm512_loadu_si512 (qi), idx1 = _mm512_loadu_si512 (qi + 64);
  __m512i a[4][2], q[4][2], bad = _mm512_setzero_si512 ();

#pragma GCC unroll 4
  for (guint p = 0; p < 4; p++)
    a[p][0] = a[p][1] = _mm512_setzero_si512 ();
#pragma GCC unroll 3
  for (guint ky = 0; ky < 3; ky++)
    {
      /* pixel p's quads come from pairs p and p + 1 of the row's pixels from x */
      __m512i X[5];
#pragma GCC unroll 5
      for (guint k = 0; k < 5; k++)
        X[k] = inside ? _mm512_xor_si512 (_mm512_loadu_si512 (rb[ky] + (gsize) (x + 2 * (gint) k) * DW_BLK), fl)
               : rb[ky] != NULL ? _mm512_xor_si512 (dw_load_pixels2 (rb[ky], x + 2 * (gint) k, W), fl) : fl;
#pragma GCC unroll 4
      for (guint p = 0; p < 4; p++)
        {
          a[p][0] = _mm512_dpbusd_epi32 (a[p][0], _mm512_permutex2var_epi8 (X[p], idx0, X[p + 1]), w[ky][0]);
          a[p][1] = _mm512_dpbusd_epi32 (a[p][1], _mm512_permutex2var_epi8 (X[p], idx1, X[p + 1]), w[ky][1]);
        }
    }
#pragma GCC unroll 4
  for (guint p = 0; p < 4; p++)
    {
      q[p][0] = dw_bracket (a[p][0], m0, bl0, bd0, &bad);
      q[p][1] = dw_bracket (a[p][1], m1, bl1, bd1, &bad);
    }
  /* pixels p and p + 1 are 64 contiguous bytes of NCHWc32 */
#pragma GCC unroll 2
  for (guint p = 0; p < 4; p += 2)
    _mm512_storeu_si512 (o + p * pix, vnni_narrow64 (q[p][0], q[p][1], q[p + 1][0], q[p + 1][1], lo, hi));
  return _mm512_test_epi32_mask (bad, bad) == 0;
}

/* The lanes of a tile of dw_cols_tile (its first @npix pixels from @ow, of block @cb, the
 * output row at @orow) whose bracket failed: their accumulators again, and the double
 * rule.  Rare (about one lane in 2 / (bracket width)), so the tile's accumulators need
 * not stay live. */
static DW_VBMI_ATTR void
dw_cols_tile_fix (const ConvJob *job, const guint8 *const *rb, guint ow, guint npix, guint cb, guint8 *orow)
{
  const __m512i fl = _mm512_set1_epi8 ((char) (job->in_signed ? 0x80 : 0x00));
  __m512i w[3][2], a[2];

  dw_cols_weights (job, cb, w);
  for (guint p = 0; p < npix; p++)
    {
      dw_cols_accumulate (rb, (gint) (2 * (ow + p)) - (gint) job->pl - (gint) (job->pl % 2), (gint) job->W,
                          job->pl % 2, fl, w, &a[0], &a[1]);
      for (guint h = 0; h < 2; h++)
        dw_bracket_fix (job, a[h], cb + 16 * h, orow + (gsize) (ow + p) * job->out_addr.pix);
    }
}

static inline __attribute__ ((always_inline)) DW_VBMI_ATTR void
dw_cols_3x3_s2_n (const ConvJob *job, guint n, guint oh, const guint s, const gint lo, const gint hi)
{
  /* the loads start at pixel 2 ow - pl - s, even (s: the left pad's parity) */
  const gint x0 = -(gint) job->pl - (gint) s;
  const guint8 *src = job->in->data;
  guint8 *out = job->out->data;
  const guint8 flip = job->in_signed ? 0x80 : 0x00;
  const gint W = (gint) job->W;
  const guint OW = job->OW;
  const gsize pix = job->out_addr.pix;
  const guint8 *rowp[3];
  const __m512i fl = _mm512_set1_epi8 ((char) flip);

  for (guint ky = 0; ky < 3; ky++)
    {
      gint h = (gint) (oh * 2 + ky) - (gint) job->pt;
      rowp[ky] = h >= 0 && h < (gint) job->H
                 ? src + (gsize) n * job->in_addr.batch + (gsize) h * job->in_addr.row : NULL;
    }
  for (guint cb = 0; cb < job->Cp; cb += DW_BLK)
    {
      const guint nvalid = MIN (DW_BLK, job->C - cb);
      const gboolean p0 = job->rq->bounded16[cb / 16], p1 = job->rq->bounded16[cb / 16 + 1];
      const __m512 m0 = _mm512_loadu_ps (job->rq->mulf + cb), m1 = _mm512_loadu_ps (job->rq->mulf + cb + 16);
      const __m512 d0 = _mm512_loadu_ps (job->rq->addf + cb), d1 = _mm512_loadu_ps (job->rq->addf + cb + 16);
      const __m512 e0 = _mm512_loadu_ps ((p0 ? job->rq->thrf : job->rq->errf) + cb);
      const __m512 e1 = _mm512_loadu_ps ((p1 ? job->rq->thrf : job->rq->errf) + cb + 16);
      const __m512 bl0 = _mm512_loadu_ps (job->rq->bralo + cb), bl1 = _mm512_loadu_ps (job->rq->bralo + cb + 16);
      const __m512 bd0 = _mm512_loadu_ps (job->rq->brd + cb), bd1 = _mm512_loadu_ps (job->rq->brd + cb + 16);
      const gboolean fast = p0 && p1 && nvalid == DW_BLK && job->out_block_fast;
      const guint8 *rb[3];
      __m512i w[3][2];
      gsize obase = (gsize) n * job->out_addr.batch + (gsize) oh * job->out_addr.row;

      dw_cols_weights (job, cb, w);
      for (guint ky = 0; ky < 3; ky++)
        rb[ky] = rowp[ky] != NULL ? rowp[ky] + job->in_addr.chan[cb] : NULL;
      guint ow = 0;

      /* four pixels at a time (dw_cols_tile); tiles whose rows and columns all lie inside
       * the input load without masks or checks */
      const gboolean rows_in = rb[0] != NULL && rb[1] != NULL && rb[2] != NULL;
      for (; fast && ow + 4 <= OW; ow += 4)
        {
          const gint x = (gint) (2 * ow) + x0;
          guint8 *o = out + obase + job->out_addr.chan[cb] + (gsize) ow * pix;
          gboolean ok = rows_in && x >= 0 && x + 10 <= W
                        ? dw_cols_tile (rb, x, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1, lo, hi, TRUE, o, pix)
                        : dw_cols_tile (rb, x, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1, lo, hi, FALSE, o, pix);
          if (G_UNLIKELY (!ok))
            dw_cols_tile_fix (job, rb, ow, 4, cb, out + obase);
        }
      if (fast && ow < OW)
        {
          /* the last 1-3 pixels: a whole tile into a buffer (its pixels past the row read
           * the biased zero), the row's pixels copied out */
          const guint npix = OW - ow;
          guint8 tile[4 * DW_BLK] __attribute__ ((aligned (64)));
          guint8 *o = out + obase + job->out_addr.chan[cb] + (gsize) ow * pix;
          gboolean ok = dw_cols_tile (rb, (gint) (2 * ow) + x0, W, s, fl, w, m0, m1, bl0, bl1, bd0, bd1,
                                      lo, hi, FALSE, tile, DW_BLK);
          for (guint p = 0; p < npix; p++)
            memcpy (o + p * pix, tile + p * DW_BLK, DW_BLK);
          if (G_UNLIKELY (!ok))
            dw_cols_tile_fix (job, rb, ow, npix, cb, out + obase);
          ow = OW;
        }
      for (; ow < OW; ow++)
        {
          __m512i a0, a1;
          __m128i r0, r1 = _mm_setzero_si128 ();

          dw_cols_accumulate (rb, (gint) (2 * ow) + x0, W, s, fl, w, &a0, &a1);
          r0 = dw_requant_half (job, a0, p0, m0, d0, e0, cb);
          if (nvalid > 16)
            r1 = dw_requant_half (job, a1, p1, m1, d1, e1, cb + 16);
          dw_store_pixel (job, out, obase + ow * pix, cb, nvalid, r0, r1);
        }
    }
}

static DW_VBMI_ATTR void
conv_dw_cols_3x3_s2 (gpointer data, guint item)
{
  ConvJob *job = data;
  guint n = item / job->OH, oh = item % job->OH;
  const gboolean odd = job->pl % 2;

  if (job->lo == -128 && job->hi == 127)
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, -128, 127) : dw_cols_3x3_s2_n (job, n, oh, 0, -128, 127);
  else if (job->lo == 0 && job->hi == 255)
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, 0, 255) : dw_cols_3x3_s2_n (job, n, oh, 0, 0, 255);
  else
    odd ? dw_cols_3x3_s2_n (job, n, oh, 1, job->lo, job->hi) : dw_cols_3x3_s2_n (job, n, oh, 0, job->lo, job->hi);
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

/* Depthwise convs on the quad weights and the bracket's figures: VNNI (@vnni) or AVX2. */
static void
conv_depthwise_quads (ConvJob *job, const Zg330KernelWeights *weights, gboolean vnni)
{
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
      parallel_for (job->N * g.nbands, conv_dw_pairs, job,
                    (double) job->N * job->OH * job->OW * job->Cp * (0.3 + 0.05 * job->KH * job->KW));
    }
  else if (job->KH == 3 && job->KW == 3 && job->sh == 2 && job->sw == 2 && job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC
      && job->in->k == DW_BLK && cpu_has_vbmi ())
    parallel_for (job->N * job->OH, conv_dw_cols_3x3_s2, job, (double) job->N * job->OH * job->OW * job->Cp * 0.15);
  else if (job->KH == 3 && job->KW == 3 && job->sh == 1 && job->in->layout == ZG330_KERNEL_LAYOUT_NCHWC
           && job->in->k == DW_BLK && cpu_has_vbmi ())
    {
      dw_fig4_get (job);
      parallel_for (job->N * ((job->OH + 1) / 2), conv_dw_rows_3x3, job,
                    (double) job->N * job->OH * job->OW * job->Cp * 0.15);
    }
  else
    parallel_for (job->N * job->OH, conv_dw_row_vnni, job,
                  (double) job->N * job->OH * job->OW * job->Cp * (0.3 + 0.02 * job->KH * job->KW));
  packed_weights_unref (packed);
}
#endif

static void
conv_depthwise (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *weights)
{
  gint64 pb = (gint64) (job->OH - 1) * job->sh + job->KH - job->H - job->pt;
  gint64 pr = (gint64) (job->OW - 1) * job->sw + job->KW - job->W - job->pl;

  job->Cp = (job->C + DW_BLK - 1) / DW_BLK * DW_BLK;
  job->Hp = job->pt + job->H + (guint) MAX (pb, 0);
  job->Wp = job->pl + job->W + (guint) MAX (pr, 0);
  job->out_block_fast = job->out->layout == ZG330_KERNEL_LAYOUT_NCHWC && job->out->k == DW_BLK;
  addr_init (&job->in_addr, in);
#if ZG330_HAVE_X86
  if (strcmp (zg330_kernel_get_isa (), "generic") != 0)
    {
      conv_depthwise_quads (job, weights, strcmp (zg330_kernel_get_isa (), "avx512-vnni") == 0);
      addr_clear (&job->in_addr);
      return;
    }
#endif
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
  parallel_for (job->N * job->OH, conv_dw_row, job,
                (double) job->N * job->OH * job->OW * job->Cp * (2.0 + job->KH * job->KW));
  g_free (job->xs);
  g_free (job->ws);
}

static gboolean
conv_check (const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
            const Zg330ConvParams *p, const Zg330KernelTensor *out, guint *groups,
            GError **error)
{
  guint O, I;
  gsize need;

  if (!tensor_check (in, "conv2d", "input", TRUE, error)
      || !tensor_check (out, "conv2d", "output", TRUE, error))
    return FALSE;
  if (wt->ob == 0 || wt->ib == 0 || wt->kh == 0 || wt->kw == 0 || wt->ko == 0 || wt->ki == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight shape [%u, %u, %u, %u, %u, %u] has a zero dimension",
                   wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki);
      return FALSE;
    }
  if ((guint64) wt->ob * wt->ko > G_MAXUINT / 2 || (guint64) wt->ib * wt->ki > G_MAXUINT / 2
      || (guint64) wt->kh * wt->kw > 1u << 20)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight shape [%u, %u, %u, %u, %u, %u] is too large",
                   wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki);
      return FALSE;
    }
  O = wt->ob * wt->ko;
  I = wt->ib * wt->ki;
  need = (gsize) O * I * wt->kh * wt->kw;
  if (wt->data == NULL || wt->size < need)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight buffer holds %" G_GSIZE_FORMAT " bytes, shape "
                   "[%u, %u, %u, %u, %u, %u] needs %" G_GSIZE_FORMAT,
                   wt->data ? wt->size : 0, wt->ob, wt->ib, wt->kh, wt->kw, wt->ko, wt->ki, need);
      return FALSE;
    }
  if (wt->scales == NULL)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight scales are missing (need O=%u)", O);
      return FALSE;
    }
  gssize bad_scale = first_bad_scale (wt->scales, O);
  if (bad_scale >= 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: weight scale[%u] = %g is not a positive finite number",
                   (guint) bad_scale, (double) wt->scales[bad_scale]);
      return FALSE;
    }
  if (wt->bias != NULL)
    {
      if (wt->bias_size < (gsize) O * 2)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "conv2d: bias holds %" G_GSIZE_FORMAT " bytes, O=%u fp16 need %u",
                       wt->bias_size, O, O * 2);
          return FALSE;
        }
      for (guint o = 0; o < O; o++)
        if ((wt->bias[2 * o + 1] & 0x7C) == 0x7C)   /* fp16 exponent all ones: inf or NaN */
          {
            g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                         "conv2d: bias[%u] is not finite", o);
            return FALSE;
          }
    }
  if (in->scales != NULL)
    for (guint c = 1; c < in->c; c++)
      if (in->scales[c] != in->scales[0])
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                       "conv2d: input scale[%u] = %g differs from scale[0] = %g "
                       "(an int32 accumulator needs one input scale)",
                       c, (double) in->scales[c], (double) in->scales[0]);
          return FALSE;
        }

  if (in->c <= I)
    {
      *groups = 1;
      if ((in->c + wt->ki - 1) / wt->ki != wt->ib)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: weight I=%u (%u blocks of %u) does not match input C=%u",
                       I, wt->ib, wt->ki, in->c);
          return FALSE;
        }
      if (out->c > O || (out->c + wt->ko - 1) / wt->ko != wt->ob)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: weight O=%u (%u blocks of %u) does not match output C=%u",
                       O, wt->ob, wt->ko, out->c);
          return FALSE;
        }
    }
  else
    {
      if (in->c % I != 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: input C=%u is not a multiple of weight I=%u (groups)",
                       in->c, I);
          return FALSE;
        }
      *groups = in->c / I;
      if (out->c != O || O % *groups != 0)
        {
          g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                       "conv2d: output C=%u must equal weight O=%u and be a multiple of "
                       "groups=%u", out->c, O, *groups);
          return FALSE;
        }
    }
  if ((guint64) wt->kh * wt->kw * MIN (in->c, I) > MAX_REDUCTION)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "conv2d: reduction KH*KW*C_in=%u*%u*%u exceeds %u (int32 accumulator)",
                   wt->kh, wt->kw, MIN (in->c, I), MAX_REDUCTION);
      return FALSE;
    }
  if (in->n != out->n)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "conv2d: input n=%u != output n=%u", in->n, out->n);
      return FALSE;
    }
  if (!check_window ("conv2d", "h", in->h, out->h, wt->kh, p->stride_h, p->pad_top, error)
      || !check_window ("conv2d", "w", in->w, out->w, wt->kw, p->stride_w, p->pad_left, error))
    return FALSE;
  return TRUE;
}

/* The requantisation of every slot: with @blocked, slot (block B, lane j) holds output
 * channel slot_channel (B, j) (the dense path's blocks), else slot o holds channel o.
 * Slots without a channel keep 0 (their lanes are never stored). */
static void
conv_job_requant (ConvJob *job, const Zg330KernelTensor *in, const Zg330KernelWeights *wt,
                  const Zg330KernelTensor *out, guint n_slots, gboolean blocked)
{
  double s_in = scale_of (in, 0);

  job->rq->mul = g_new0 (double, n_slots);
  job->rq->add = g_new0 (double, n_slots);
  for (guint slot = 0; slot < n_slots; slot++)
    {
      guint o = slot;
      double s_out, m, a;

      if (blocked)
        {
          gint64 ch = slot_channel (job, slot / OBLK, slot % OBLK);
          if (ch < 0)
            continue;
          o = (guint) ch;
        }
      if (o >= out->c)
        continue;
      s_out = scale_of (out, o);
      m = (s_in * (double) wt->scales[o]) / s_out;
      a = 0;
      if (wt->bias)
        a = (double) zw_fp16_to_float ((guint16) (wt->bias[2 * o] | (wt->bias[2 * o + 1] << 8)))
            / s_out;
      job->rq->mul[slot] = m;
      job->rq->add[slot] = a;
    }
  dtype_range (out->dtype, &job->lo, &job->hi);
}

/* ---- requantisation figures, kept with the packed weights ---------------------------
 *
 * A conv's per-slot requantisation figures: mul and add (conv_job_requant), their float
 * forms (requant_float_init) and the bounded path's and the bracket's bounds
 * (requant_bounds_init).  They depend on the packed weights (the bias corrections and the
 * weight sums) and on the scales, the bias, the output type and which channel each slot
 * holds; a small depthwise layer spent a tenth of its time making them at every forward.
 * So they are kept in the packed weights' entry with the bytes they were made from (the
 * key), and made anew when a call brings other bytes.  A network uses a weight tensor with
 * one set of scales, so an entry keeps one set. */

static void
requant_figures_free (gpointer p)
{
  RequantFigures *rq = p;

  if (rq->key != NULL)
    g_bytes_unref (rq->key);
  g_free (rq->mul);
  g_free (rq->add);
  g_free (rq->mulf);
  g_free (rq->addf);
  g_free (rq->errf);
  g_free (rq->thrf);
  g_free (rq->bralo);
  g_free (rq->brd);
  g_free (rq->bounded16);
  g_free (rq->dwfig);
  g_free (rq->dwbounded8);
  g_aligned_free (rq->dwfig4);
}

static void
requant_figures_unref (RequantFigures *rq)
{
  g_atomic_rc_box_release_full (rq, requant_figures_free);
}

/* The bytes the figures of @job's @n_slots slots depend on, besides the packed weights:
 * the slots' channels (the job's block layout), the output type, the scales and the bias. */
static GBytes *
requant_key (const ConvJob *job, const Zg330KernelWeights *wt, guint n_slots, gboolean blocked, gboolean bounds)
{
  const Zg330KernelTensor *in = job->in, *out = job->out;
  const guint32 head[] = { n_slots, (guint32) blocked, (guint32) bounds, job->NG, job->Ogp, job->obe, job->bcast,
                           job->groups, job->Og, out->c, (guint32) out->dtype, in->scales != NULL,
                           out->scales != NULL, wt->bias != NULL };
  const float s_in = scale_of (in, 0);
  GByteArray *k = g_byte_array_sized_new (sizeof head + sizeof s_in + (gsize) out->c * (2 * sizeof (float) + 2));

  g_byte_array_append (k, (const guint8 *) head, sizeof head);
  g_byte_array_append (k, (const guint8 *) &s_in, sizeof s_in);
  if (out->scales != NULL)
    g_byte_array_append (k, (const guint8 *) out->scales, out->c * sizeof (float));
  /* conv_check: out->c <= O, and scales and bias hold O channels */
  g_byte_array_append (k, (const guint8 *) wt->scales, out->c * sizeof (float));
  if (wt->bias != NULL)
    g_byte_array_append (k, wt->bias, 2 * out->c);
  return g_byte_array_free_to_bytes (k);
}

/* Sets @job's requantisation figures (mul .. bounded16, lo and hi) for @n_slots slots with
 * the corrections @corr of @pw: the entry's own when it holds them for these bytes, else
 * made (the bounds when @bounds) and kept there.  The job holds a reference (job->rq). */
static void
requant_figures_get (ConvJob *job, PackedWeights *pw, const gint32 *corr, const Zg330KernelWeights *wt,
                     guint n_slots, gboolean blocked, gboolean bounds)
{
  GBytes *key = requant_key (job, wt, n_slots, blocked, bounds);
  RequantFigures *rq = NULL;

  g_mutex_lock (&pack_lock);
  if (pw->rq != NULL && g_bytes_equal (pw->rq->key, key))
    rq = g_atomic_rc_box_acquire (pw->rq);
  g_mutex_unlock (&pack_lock);
  if (rq == NULL)
    {
      rq = g_atomic_rc_box_new0 (RequantFigures);
      rq->key = g_bytes_ref (key);
      job->rq = rq;
      conv_job_requant (job, job->in, wt, job->out, n_slots, blocked);
      requant_float_init (job, corr, n_slots);
      if (bounds)
        requant_bounds_init (job, corr, n_slots);
      g_mutex_lock (&pack_lock);
      if (pw->rq != NULL)
        requant_figures_unref (pw->rq);
      pw->rq = g_atomic_rc_box_acquire (rq);
      g_mutex_unlock (&pack_lock);
    }
  g_bytes_unref (key);
  dtype_range (job->out->dtype, &job->lo, &job->hi);
  job->rq = rq;
}

gboolean
zg330_kernel_conv2d (const Zg330KernelTensor  *in,
                     const Zg330KernelWeights *weights,
                     const Zg330ConvParams    *params,
                     const Zg330KernelTensor  *out,
                     GError                  **error)
{
  FP_ENV_GUARD;
  ConvJob job = { 0 };
  guint groups;

  g_return_val_if_fail (in != NULL && weights != NULL && params != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!conv_check (in, weights, params, out, &groups, error))
    return FALSE;

  job.N = in->n; job.H = in->h; job.W = in->w; job.C = in->c;
  job.OH = out->h; job.OW = out->w; job.O = out->c;
  job.KH = weights->kh; job.KW = weights->kw;
  job.sh = params->stride_h; job.sw = params->stride_w;
  job.pt = params->pad_top; job.pl = params->pad_left;
  job.in = in;
  job.out = out;
  job.in_signed = in->dtype == ZG330_KERNEL_DTYPE_SINT8;
  addr_init (&job.out_addr, out);

  if (groups > 1 && weights->ib * weights->ki == 1 && out->c == groups)
    {
      job.groups = groups;
      job.I = 1;
      job.Og = 1;
      conv_depthwise (&job, in, weights);
    }
  else
    {
      /* Dense and grouped convs: each group is a dense conv over its own channels of one
       * padded copy of the input, its outputs in blocks of 32. */
      guint ntaps = job.KH * job.KW;
      gint64 pb = (gint64) (job.OH - 1) * job.sh + job.KH - job.H - job.pt;
      gint64 pr = (gint64) (job.OW - 1) * job.sw + job.KW - job.W - job.pl;

      job.groups = groups;
      job.I = groups > 1 ? job.C / groups : job.C;
      job.Og = job.O / groups;
      job.Ip = (job.I + 3) & ~3u;
      job.ipad = job.Ip * groups;
      job.nq = job.Ip / 4;
      job.obe = (job.Og + OBLK - 1) / OBLK;
      job.nb = job.groups * job.obe;
      job.Hp = job.pt + job.H + (guint) MAX (pb, 0);
      job.Wp = job.pl + job.W + (guint) MAX (pr, 0);
      job.pad_value = job.in_signed ? 0x80 : 0x00;

#if ZG330_HAVE_X86
      const char *isa = zg330_kernel_get_isa ();
      const gboolean vnni = strcmp (isa, "avx512-vnni") == 0, avx2 = strcmp (isa, "avx2") == 0;
      job.tile = vnni ? tile_vnni : tile_generic;
      if ((vnni || avx2) && groups > 1 && job.Og <= 16)
        {
          /* packed groups: with VNNI when a block's quads fit two 16-dword tables; with
           * AVX2 a pair of groups, or one-quad groups broadcast */
          guint ogp = 1;
          while (ogp < job.Og)
            ogp *= 2;
          if (vnni ? (OBLK / ogp) * job.nq <= 32 : OBLK / ogp == 2 || job.nq == 1)
            {
              job.Ogp = ogp;
              job.NG = OBLK / ogp;
              job.obe = 1;
              job.nb = (job.groups + job.NG - 1) / job.NG;
              /* more than two groups per block: the half's groups broadcast from the
               * padded copy when each group is one quad, else the input is expanded (a
               * pair of groups takes one broadcast per half) */
              if (job.NG > 2 && job.nq == 1)
                {
                  guint gph = 16 / ogp;
                  job.bcast = 4 * gph;
                  for (guint p = 0; p < 16; p++)      /* byte k*Ogp + j <- lane j*gph + k */
                    job.res_perm[p] = (guint8) ((p % ogp) * gph + p / ogp);
                }
              else if (job.NG > 2)
                {
                  job.expanded = TRUE;
                  job.ipad = job.nq * 128;
                }
              job.tile = vnni ? tile_vnni_packed : tile_avx2_packed;
              job.perm = g_new (gint32, 2 * (gsize) job.nq * 16);
              for (guint h = 0; h < 2; h++)
                for (guint q = 0; q < job.nq; q++)
                  for (guint l = 0; l < 16; l++)
                    job.perm[((gsize) h * job.nq + q) * 16 + l] = (gint32) (((16 * h + l) / ogp) * job.nq + q);
            }
        }
#else
      job.tile = tile_generic;
#endif
      /* Weights: [block][kh][kw][q][o 32][i 4] for VNNI and packed groups, [block][kh][kw][i]
       * [o 32] for the plain loops; zero outside the group's Og x I. */
      job.weights = weights;
      job.wblock = (gsize) ntaps * job.nq * 4 * OBLK;
#if ZG330_HAVE_X86
      job.want_w16 = avx2;
#endif
      PackedWeights *packed = packed_weights_get (&job, weights, PACK_BLOCKS);
#if ZG330_HAVE_X86
      requant_figures_get (&job, packed, job.corr, weights, job.nb * OBLK, TRUE, vnni || avx2);
#else
      requant_figures_get (&job, packed, job.corr, weights, job.nb * OBLK, TRUE, FALSE);
#endif
      job.out_block_fast = out->layout == ZG330_KERNEL_LAYOUT_NCHWC && out->k == OBLK;

      addr_init (&job.in_addr, in);
      job.nplanes = job.expanded ? job.nb : 1;
      /* about 150 multiply-adds per ns on the VNNI path (50 with AVX2, 15 in plain C), plus the
       * requantisation per output, plus about 0.03 ns per byte of the padded copy */
      const double macs_per_ns = job.w16 != NULL ? 50.0 : job.tile != tile_generic ? 150.0 : 15.0;
      double est_ns = (double) job.N * job.nb * OBLK * job.OH * job.OW
                        * ((double) job.KH * job.KW * job.Ip / macs_per_ns + 0.3)
                      + (double) job.N * job.nplanes * job.Hp * job.Wp * job.ipad * 0.03;
      /* bands of output rows, each with the padded copy of its own input rows: on one
       * thread one band per image, else about four per thread (a band's extra rows, KH - sh
       * of them, are copied twice) */
      guint threads = parallel_threads (job.N * job.OH, est_ns);
      job.band_rows = threads > 1 ? MAX (1u, job.OH / (4 * threads)) : job.OH;
      job.bands = (job.OH + job.band_rows - 1) / job.band_rows;
      parallel_for (job.N * job.bands, conv_band, &job, est_ns);
      addr_clear (&job.in_addr);

      g_free (job.perm);
      packed_weights_unref (packed);
    }

  zero_padding (out);
  if (job.rq != NULL)
    requant_figures_unref (job.rq);
  addr_clear (&job.out_addr);
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* geometry                                                                           */

static gboolean
infer_dim (guint in, guint out, guint k, guint *stride, guint *pad)
{
  if (in == 0 || out == 0 || k == 0)
    return FALSE;
  for (guint s = 1; s <= in + k; s++)
    {
      gint64 p0 = (gint64) s * (out - 1) + k - in;
      gint64 p1 = p0 + s - 1;     /* every P in [p0, p1] gives the same floor */
      gint64 P;

      if (p1 < 0)
        continue;
      if (p0 < 0)
        p0 = 0;
      P = (p0 % 2 == 0) ? p0 : (p0 + 1 <= p1 ? p0 + 1 : p0);
      if ((P + 1) / 2 > k / 2)
        {
          if (out == 1)
            return FALSE;
          continue;   /* larger strides only need more padding ... */
        }
      *stride = s;
      *pad = (guint) ((P + 1) / 2);
      return TRUE;
    }
  return FALSE;
}

gboolean
zg330_conv_infer_geometry (guint in_h, guint in_w, guint out_h, guint out_w,
                           guint kh, guint kw,
                           guint *stride_h, guint *stride_w,
                           guint *pad_top, guint *pad_left,
                           GError **error)
{
  guint sh, sw, ph, pw;
  gboolean ok_h = infer_dim (in_h, out_h, kh, &sh, &ph);
  gboolean ok_w = ok_h && infer_dim (in_w, out_w, kw, &sw, &pw);

  if (!ok_h || !ok_w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_GEOMETRY,
                   "cannot infer conv geometry: input %ux%u -> output %ux%u with kernel "
                   "%ux%u: no stride/padding fits the %s",
                   in_h, in_w, out_h, out_w, kh, kw, ok_h ? "width" : "height");
      return FALSE;
    }
  if (stride_h) *stride_h = sh;
  if (stride_w) *stride_w = sw;
  if (pad_top) *pad_top = ph;
  if (pad_left) *pad_left = pw;
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* element-wise and data movement                                                     */

static gboolean
same_memory_layout (const Zg330KernelTensor *a, const Zg330KernelTensor *b)
{
  return a->layout == b->layout && a->n == b->n && a->c == b->c && a->h == b->h
         && a->w == b->w && (a->layout == ZG330_KERNEL_LAYOUT_NHWC || a->k == b->k);
}

static gboolean
scales_uniform (const Zg330KernelTensor *t)
{
  if (t->scales == NULL)
    return TRUE;
  for (guint c = 1; c < t->c; c++)
    if (t->scales[c] != t->scales[0])
      return FALSE;
  return TRUE;
}

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

#define ADD_TABLE_MIN ((gsize) 1 << 18)  /* bytes from which the table pays for itself */
#define ADD_PART ((gsize) 1 << 16)

static inline guint8
add_rule (const AddJob *job, guint8 x, guint8 y)
{
  double v = (double) raw_value (x, job->da) * job->ra;
  v = v + (double) raw_value (y, job->db) * job->rb;
  return (guint8) round_clamp (v, job->lo, job->hi);
}

static void
add_part (const AddJob *job, gsize from, gsize to)
{
  for (gsize i = from; i < to; i++)
    job->po[i] = add_rule (job, job->pa[i], job->pb[i]);
}

static void
add_table_row (gpointer data, guint x)
{
  AddJob *job = data;

  for (guint y = 0; y < 256; y++)
    job->table[x * 256 + y] = add_rule (job, (guint8) x, (guint8) y);
}

static void
add_part_table (const AddJob *job, gsize from, gsize to)
{
  for (gsize i = from; i < to; i++)
    job->po[i] = job->table[(guint) job->pa[i] << 8 | job->pb[i]];
}

/* Part @part (ADD_PART bytes) of the flat add, by its loop. */
static void
add_part_range (gpointer data, guint part)
{
  const AddJob *job = data;
  gsize from = (gsize) part * ADD_PART;

  job->part (job, from, MIN (job->n, from + ADD_PART));
}

#if ZG330_HAVE_X86
/* The flat add's rule on 16 bytes of each operand, 8 lanes of doubles at a time: the
 * same two products and sum (no fused multiply-add: the rule rounds the products) and
 * the same rounding as round_clamp (vnni_round8). */
static inline __attribute__ ((always_inline)) VNNI_ATTR __m512i
add_widen (__m128i x, Zg330KernelDType d)
{
  return d == ZG330_KERNEL_DTYPE_UINT8 ? _mm512_cvtepu8_epi32 (x) : _mm512_cvtepi8_epi32 (x);
}

static VNNI_ATTR void
add_part_vnni (const AddJob *job, gsize from, gsize to)
{
  const __m512d ra = _mm512_set1_pd (job->ra), rb = _mm512_set1_pd (job->rb);
  const __m512d lo1 = _mm512_set1_pd ((double) (job->lo - 1)), hi1 = _mm512_set1_pd ((double) (job->hi + 1));
  const __m512i lo = _mm512_set1_epi32 (job->lo), hi = _mm512_set1_epi32 (job->hi);
  gsize i = from;

  for (; i + 16 <= to; i += 16)
    {
      const __m512i x = add_widen (_mm_loadu_si128 ((const __m128i *) (job->pa + i)), job->da);
      const __m512i y = add_widen (_mm_loadu_si128 ((const __m128i *) (job->pb + i)), job->db);
      __m512d v0 = _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_castsi512_si256 (x)), ra);
      __m512d v1 = _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (x, 1)), ra);
      v0 = _mm512_add_pd (v0, _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_castsi512_si256 (y)), rb));
      v1 = _mm512_add_pd (v1, _mm512_mul_pd (_mm512_cvtepi32_pd (_mm512_extracti64x4_epi64 (y, 1)), rb));
      __m512i r = _mm512_inserti64x4 (_mm512_castsi256_si512 (vnni_round8 (v0, lo1, hi1)),
                                      vnni_round8 (v1, lo1, hi1), 1);
      r = _mm512_max_epi32 (_mm512_min_epi32 (r, hi), lo);
      _mm_storeu_si128 ((__m128i *) (job->po + i), _mm512_cvtepi32_epi8 (r));
    }
  add_part (job, i, to);
}

/* The flat add's rule with AVX2, 16 bytes of each operand 4 doubles at a time: the same two
 * products and sum as add_rule, and round_clamp's rounding (avx2_round_clamp4). */
static inline __attribute__ ((always_inline)) AVX2_ATTR __m256i
add_widen_avx2 (__m128i x, Zg330KernelDType d)
{
  return d == ZG330_KERNEL_DTYPE_UINT8 ? _mm256_cvtepu8_epi32 (x) : _mm256_cvtepi8_epi32 (x);
}

static AVX2_ATTR void
add_part_avx2 (const AddJob *job, gsize from, gsize to)
{
  const __m256d ra = _mm256_set1_pd (job->ra), rb = _mm256_set1_pd (job->rb);
  const __m256d lo1 = _mm256_set1_pd ((double) (job->lo - 1)), hi1 = _mm256_set1_pd ((double) (job->hi + 1));
  const __m256d lo = _mm256_set1_pd ((double) job->lo), hi = _mm256_set1_pd ((double) job->hi);
  gsize i = from;

  for (; i + 16 <= to; i += 16)
    {
      const __m128i xb = _mm_loadu_si128 ((const __m128i *) (job->pa + i));
      const __m128i yb = _mm_loadu_si128 ((const __m128i *) (job->pb + i));
      __m128i q[4];

      for (guint h = 0; h < 2; h++)
        {
          const __m256i x = add_widen_avx2 (h ? _mm_srli_si128 (xb, 8) : xb, job->da);
          const __m256i y = add_widen_avx2 (h ? _mm_srli_si128 (yb, 8) : yb, job->db);
          for (guint j = 0; j < 2; j++)
            {
              const __m128i xj = j ? _mm256_extracti128_si256 (x, 1) : _mm256_castsi256_si128 (x);
              const __m128i yj = j ? _mm256_extracti128_si256 (y, 1) : _mm256_castsi256_si128 (y);
              __m256d v = _mm256_mul_pd (_mm256_cvtepi32_pd (xj), ra);
              v = _mm256_add_pd (v, _mm256_mul_pd (_mm256_cvtepi32_pd (yj), rb));
              q[2 * h + j] = avx2_round_clamp4 (v, lo1, hi1, lo, hi);
            }
        }
      /* every value is in [lo, hi]: the saturating packs are exact */
      const __m128i a = _mm_packs_epi32 (q[0], q[1]), b = _mm_packs_epi32 (q[2], q[3]);
      _mm_storeu_si128 ((__m128i *) (job->po + i), job->lo < 0 ? _mm_packs_epi16 (a, b) : _mm_packus_epi16 (a, b));
    }
  add_part (job, i, to);
}
#endif

gboolean
zg330_kernel_add (const Zg330KernelTensor *a,
                  const Zg330KernelTensor *b,
                  const Zg330KernelTensor *out,
                  GError                 **error)
{
  FP_ENV_GUARD;
  gint lo, hi;

  g_return_val_if_fail (a != NULL && b != NULL && out != NULL, FALSE);
  if (!tensor_check (a, "add", "input a", TRUE, error)
      || !tensor_check (b, "add", "input b", TRUE, error)
      || !tensor_check (out, "add", "output", TRUE, error)
      || !check_same_nhw ("add", "input a", a, "output", out, TRUE, error)
      || !check_same_nhw ("add", "input b", b, "output", out, TRUE, error))
    return FALSE;
  dtype_range (out->dtype, &lo, &hi);

  if (same_memory_layout (a, out) && same_memory_layout (b, out)
      && (out->layout == ZG330_KERNEL_LAYOUT_NHWC || out->c % out->k == 0)
      && scales_uniform (a) && scales_uniform (b) && scales_uniform (out))
    {
      /* The common case: one flat loop over the bytes: with AVX-512 or AVX2, the rule 16
       * bytes at a time; else a large one reads a table of the rule's 65536 results
       * (computed by the same expression); in parallel when large. */
      AddJob job = { a->data, b->data, out->data, zg330_kernel_tensor_get_size (out),
                     (double) scale_of (a, 0) / (double) scale_of (out, 0),
                     (double) scale_of (b, 0) / (double) scale_of (out, 0),
                     a->dtype, b->dtype, lo, hi, NULL, add_part };
      const guint parts = (guint) ((job.n + ADD_PART - 1) / ADD_PART);
#if ZG330_HAVE_X86
      if (strcmp (zg330_kernel_get_isa (), "avx512-vnni") == 0)
        job.part = add_part_vnni;
      else if (strcmp (zg330_kernel_get_isa (), "avx2") == 0)
        job.part = add_part_avx2;
      else
#endif
      if (job.n >= ADD_TABLE_MIN)
        {
          job.table = g_malloc (65536);
          job.part = add_part_table;
          parallel_for (256, add_table_row, &job, 65536 * 5.0);
        }
      parallel_for (parts, add_part_range, &job, (double) job.n * (job.part == add_part ? 5.0 : 1.0));
      g_free (job.table);
      return TRUE;
    }

  {
    Addr aa, ab, ao;
    const guint8 *pa = a->data, *pb = b->data;
    guint8 *po = out->data;
    double *ra = g_new (double, out->c), *rb = g_new (double, out->c);

    addr_init (&aa, a); addr_init (&ab, b); addr_init (&ao, out);
    for (guint c = 0; c < out->c; c++)
      {
        ra[c] = (double) scale_of (a, c) / (double) scale_of (out, c);
        rb[c] = (double) scale_of (b, c) / (double) scale_of (out, c);
      }
    for (guint n = 0; n < out->n; n++)
      for (guint h = 0; h < out->h; h++)
        for (guint w = 0; w < out->w; w++)
          for (guint c = 0; c < out->c; c++)
            {
              double v = (double) raw_value (pa[n * aa.batch + aa.chan[c] + h * aa.row + w * aa.pix],
                                             a->dtype) * ra[c];
              v = v + (double) raw_value (pb[n * ab.batch + ab.chan[c] + h * ab.row + w * ab.pix],
                                          b->dtype) * rb[c];
              po[n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix] = (guint8) round_clamp (v, lo, hi);
            }
    addr_clear (&aa); addr_clear (&ab); addr_clear (&ao);
    g_free (ra);
    g_free (rb);
  }
  zero_padding (out);
  return TRUE;
}

/* Copies (through the requantisation tables unless they are the identity) channels
 * [0, count) of @in to channels [out_c0, out_c0 + count) of @out; same n, h, w.  Works
 * per run of channels contiguous in both. */
static void
move_channels (const Zg330KernelTensor *in, const Zg330KernelTensor *out, guint out_c0,
               const Requant *rq)
{
  Addr ai, ao;
  const guint8 *src = in->data;
  guint8 *dst = out->data;

  addr_init (&ai, in);
  addr_init (&ao, out);
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, out_c0 + c));
        const guint8 *s = src + n * ai.batch + ai.chan[c];
        guint8 *d = dst + n * ao.batch + ao.chan[out_c0 + c];
        gboolean one_table = TRUE;

        for (guint j = 1; j < run; j++)
          if (rq->index[c + j] != rq->index[c])
            one_table = FALSE;
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            {
              const guint8 *sp = s + h * ai.row + w * ai.pix;
              guint8 *dp = d + h * ao.row + w * ao.pix;
              if (rq->identity)
                memmove (dp, sp, run);
              else if (one_table)
                {
                  const guint8 *tab = requant_table (rq, c);
                  for (guint j = 0; j < run; j++)
                    dp[j] = tab[sp[j]];
                }
              else
                for (guint j = 0; j < run; j++)
                  dp[j] = requant_table (rq, c + j)[sp[j]];
            }
        c += run;
      }
  addr_clear (&ai);
  addr_clear (&ao);
}

gboolean
zg330_kernel_concat (const Zg330KernelTensor *const *inputs,
                     guint                     n_inputs,
                     const Zg330KernelTensor  *out,
                     GError                  **error)
{
  FP_ENV_GUARD;
  guint64 total = 0;
  guint c0 = 0;

  g_return_val_if_fail (out != NULL && (inputs != NULL || n_inputs == 0), FALSE);
  if (!tensor_check (out, "concat", "output", TRUE, error))
    return FALSE;
  if (n_inputs == 0)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "concat: no inputs for output c=%u", out->c);
      return FALSE;
    }
  for (guint i = 0; i < n_inputs; i++)
    {
      g_autofree char *name = g_strdup_printf ("input %u", i);
      if (!tensor_check (inputs[i], "concat", name, TRUE, error)
          || !check_same_nhw ("concat", name, inputs[i], "output", out, FALSE, error))
        return FALSE;
      total += inputs[i]->c;
    }
  if (total != out->c)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "concat: input channels sum to c=%" G_GUINT64_FORMAT " != output c=%u",
                   total, out->c);
      return FALSE;
    }

  for (guint i = 0; i < n_inputs; i++)
    {
      const Zg330KernelTensor *in = inputs[i];
      Requant rq;

      requant_init (&rq, in, 0, out, c0, in->c);
      if (rq.identity && in->layout == ZG330_KERNEL_LAYOUT_NCHWC
          && out->layout == ZG330_KERNEL_LAYOUT_NCHWC && in->k == out->k
          && c0 % out->k == 0 && in->c % in->k == 0)
        {
          /* Whole channel blocks: one copy per (n, block). */
          gsize plane = (gsize) in->h * in->w * in->k;
          guint icb = n_blocks (in), ocb = n_blocks (out);
          for (guint n = 0; n < in->n; n++)
            memmove ((guint8 *) out->data + ((gsize) n * ocb + c0 / out->k) * plane,
                     (const guint8 *) in->data + (gsize) n * icb * plane, icb * plane);
        }
      else
        move_channels (in, out, c0, &rq);
      requant_clear (&rq);
      c0 += in->c;
    }
  zero_padding (out);
  return TRUE;
}

static gboolean
check_same_channels (const char *op, const Zg330KernelTensor *in,
                     const Zg330KernelTensor *out, GError **error)
{
  if (in->n != out->n || in->c != out->c)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "%s: input %s=%u != output %s=%u", op,
                   in->n != out->n ? "n" : "c", in->n != out->n ? in->n : in->c,
                   in->n != out->n ? "n" : "c", in->n != out->n ? out->n : out->c);
      return FALSE;
    }
  return TRUE;
}

#define POOL_BLK 32u

typedef struct {
  const Zg330KernelTensor *in, *out;
  const Zg330PoolParams *params;
  const Requant *rq;
  const Addr *ai, *ao;
} PoolJob;

/* One output row of one channel block: the window's max over 32 bytes at a time (a fixed
 * trip count the compiler vectorises), then the requantisation table per channel. */
GENERIC_CLONES static void
pool_row_blocks (gpointer data, guint item)
{
  const PoolJob *job = data;
  const Zg330KernelTensor *in = job->in, *out = job->out;
  const Zg330PoolParams *pp = job->params;
  guint cbs = n_blocks (out);
  guint oh = item % out->h, cb = (item / out->h) % cbs, n = item / out->h / cbs;
  gboolean sgn = in->dtype == ZG330_KERNEL_DTYPE_SINT8;
  guint nvalid = MIN (POOL_BLK, in->c - cb * POOL_BLK);
  gint h0 = (gint) (oh * pp->stride_h) - (gint) pp->pad_top;
  gint h1 = MIN (h0 + (gint) pp->kernel_h, (gint) in->h);
  const guint8 *src = (const guint8 *) in->data + n * job->ai->batch + job->ai->chan[cb * POOL_BLK];
  guint8 *dst = (guint8 *) out->data + n * job->ao->batch + job->ao->chan[cb * POOL_BLK] + oh * job->ao->row;

  h0 = MAX (h0, 0);
  for (guint ow = 0; ow < out->w; ow++)
    {
      gint w0 = (gint) (ow * pp->stride_w) - (gint) pp->pad_left;
      gint w1 = MIN (w0 + (gint) pp->kernel_w, (gint) in->w);
      guint8 best[POOL_BLK];
      guint8 *d = dst + (gsize) ow * POOL_BLK;

      w0 = MAX (w0, 0);
      memcpy (best, src + h0 * job->ai->row + w0 * POOL_BLK, POOL_BLK);
      for (gint h = h0; h < h1; h++)
        for (gint w = w0; w < w1; w++)
          {
            const guint8 *p = src + h * job->ai->row + w * POOL_BLK;
            if (sgn)
              for (guint k = 0; k < POOL_BLK; k++)
                best[k] = (guint8) MAX ((gint8) best[k], (gint8) p[k]);
            else
              for (guint k = 0; k < POOL_BLK; k++)
                best[k] = MAX (best[k], p[k]);
          }
      if (job->rq->identity)
        memcpy (d, best, nvalid);
      else
        for (guint k = 0; k < nvalid; k++)
          d[k] = requant_table (job->rq, cb * POOL_BLK + k)[best[k]];
    }
}

gboolean
zg330_kernel_maxpool2d (const Zg330KernelTensor *in,
                        const Zg330PoolParams   *params,
                        const Zg330KernelTensor *out,
                        GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  Requant rq;
  const guint8 *src;
  guint8 *dst;

  g_return_val_if_fail (in != NULL && params != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "maxpool2d", "input", TRUE, error)
      || !tensor_check (out, "maxpool2d", "output", TRUE, error)
      || !check_same_channels ("maxpool2d", in, out, error)
      || !check_window ("maxpool2d", "h", in->h, out->h, params->kernel_h, params->stride_h,
                        params->pad_top, error)
      || !check_window ("maxpool2d", "w", in->w, out->w, params->kernel_w, params->stride_w,
                        params->pad_left, error))
    return FALSE;
  if (params->pad_top >= params->kernel_h || params->pad_left >= params->kernel_w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "maxpool2d: padding %ux%u must be smaller than the window %ux%u",
                   params->pad_top, params->pad_left, params->kernel_h, params->kernel_w);
      return FALSE;
    }

  addr_init (&ai, in);
  addr_init (&ao, out);
  requant_init (&rq, in, 0, out, 0, in->c);
  src = in->data;
  dst = out->data;
  if (in->layout == ZG330_KERNEL_LAYOUT_NCHWC && out->layout == ZG330_KERNEL_LAYOUT_NCHWC
      && in->k == POOL_BLK && out->k == POOL_BLK)
    {
      /* NCHWc32 both sides: the max of whole 32-channel blocks, rows in parallel */
      PoolJob job = { in, out, params, &rq, &ai, &ao };
      parallel_for (out->n * n_blocks (out) * out->h, pool_row_blocks, &job,
                    (double) out->n * n_blocks (out) * out->h * out->w * params->kernel_h * params->kernel_w * 2.0);
    }
  else
  for (guint n = 0; n < out->n; n++)
    for (guint oh = 0; oh < out->h; oh++)
      {
        gint h0 = (gint) (oh * params->stride_h) - (gint) params->pad_top;
        gint h1 = MIN (h0 + (gint) params->kernel_h, (gint) in->h);
        h0 = MAX (h0, 0);
        for (guint ow = 0; ow < out->w; ow++)
          {
            gint w0 = (gint) (ow * params->stride_w) - (gint) params->pad_left;
            gint w1 = MIN (w0 + (gint) params->kernel_w, (gint) in->w);
            w0 = MAX (w0, 0);
            for (guint c = 0; c < in->c; c++)
              {
                const guint8 *s = src + n * ai.batch + ai.chan[c];
                guint8 best = s[h0 * ai.row + w0 * ai.pix];
                for (gint h = h0; h < h1; h++)
                  for (gint w = w0; w < w1; w++)
                    {
                      guint8 v = s[h * ai.row + w * ai.pix];
                      if (raw_value (v, in->dtype) > raw_value (best, in->dtype))
                        best = v;
                    }
                dst[n * ao.batch + ao.chan[c] + oh * ao.row + ow * ao.pix]
                    = rq.identity ? best : requant_table (&rq, c)[best];
              }
          }
      }
  requant_clear (&rq);
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_upsample_nearest (const Zg330KernelTensor *in,
                               guint                    factor_h,
                               guint                    factor_w,
                               const Zg330KernelTensor *out,
                               GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  Requant rq;
  const guint8 *src;
  guint8 *dst;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "upsample", "input", TRUE, error)
      || !tensor_check (out, "upsample", "output", TRUE, error)
      || !check_same_channels ("upsample", in, out, error))
    return FALSE;
  if (factor_h == 0 || factor_w == 0
      || (guint64) in->h * factor_h != out->h || (guint64) in->w * factor_w != out->w)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "upsample: input %ux%u x factor %ux%u != output %ux%u",
                   in->h, in->w, factor_h, factor_w, out->h, out->w);
      return FALSE;
    }
  addr_init (&ai, in);
  addr_init (&ao, out);
  requant_init (&rq, in, 0, out, 0, in->c);
  src = in->data;
  dst = out->data;
  for (guint n = 0; n < out->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, c));
        const guint8 *tab = requant_table (&rq, c);
        gboolean one_table = TRUE;
        for (guint j = 1; j < run; j++)
          if (rq.index[c + j] != rq.index[c])
            one_table = FALSE;
        for (guint oh = 0; oh < out->h; oh++)
          for (guint ow = 0; ow < out->w; ow++)
            {
              const guint8 *s = src + n * ai.batch + ai.chan[c] + (oh / factor_h) * ai.row
                                + (ow / factor_w) * ai.pix;
              guint8 *d = dst + n * ao.batch + ao.chan[c] + oh * ao.row + ow * ao.pix;
              if (rq.identity)
                memcpy (d, s, run);
              else
                for (guint j = 0; j < run; j++)
                  d[j] = (one_table ? tab : requant_table (&rq, c + j))[s[j]];
            }
        c += run;
      }
  requant_clear (&rq);
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_reshape (const Zg330KernelTensor *in,
                      const Zg330KernelTensor *out,
                      GError                 **error)
{
  FP_ENV_GUARD;
  gsize si, so;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "reshape", "input", FALSE, error)
      || !tensor_check (out, "reshape", "output", FALSE, error))
    return FALSE;
  si = zg330_kernel_tensor_get_size (in);
  so = zg330_kernel_tensor_get_size (out);
  if (si != so || in->dtype != out->dtype)
    {
      g_autofree char *di = tensor_describe (in);
      g_autofree char *dout = tensor_describe (out);
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "reshape: input (%s, %" G_GSIZE_FORMAT " bytes) and output (%s, %"
                   G_GSIZE_FORMAT " bytes) differ in %s", di, si, dout, so,
                   si != so ? "size" : "element type");
      return FALSE;
    }
  memmove (out->data, in->data, si);
  return TRUE;
}

gboolean
zg330_kernel_cast (const Zg330KernelTensor *in,
                   const Zg330KernelTensor *out,
                   GError                 **error)
{
  FP_ENV_GUARD;
  Requant rq;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "cast", "input", TRUE, error)
      || !tensor_check (out, "cast", "output", TRUE, error)
      || !check_same_nhw ("cast", "input", in, "output", out, TRUE, error))
    return FALSE;
  requant_init (&rq, in, 0, out, 0, in->c);
  if (rq.n_tables == 1 && same_memory_layout (in, out)
      && (out->layout == ZG330_KERNEL_LAYOUT_NHWC || out->c % out->k == 0))
    {
      const guint8 *s = in->data, *tab = rq.tables;
      guint8 *d = out->data;
      gsize n = zg330_kernel_tensor_get_size (out);
      for (gsize i = 0; i < n; i++)
        d[i] = tab[s[i]];
    }
  else
    move_channels (in, out, 0, &rq);
  requant_clear (&rq);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_relayout (const Zg330KernelTensor *in,
                       const Zg330KernelTensor *out,
                       GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  gsize es;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "relayout", "input", FALSE, error)
      || !tensor_check (out, "relayout", "output", FALSE, error)
      || !check_same_nhw ("relayout", "input", in, "output", out, TRUE, error))
    return FALSE;
  if (in->dtype != out->dtype)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_SHAPE,
                   "relayout: input dtype %s != output dtype %s",
                   dtype_name (in->dtype), dtype_name (out->dtype));
      return FALSE;
    }
  es = elem_size (in);
  addr_init (&ai, in);
  addr_init (&ao, out);
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c;)
      {
        guint run = MIN (channel_run (in, c), channel_run (out, c));
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            memcpy ((guint8 *) out->data + (n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix) * es,
                    (const guint8 *) in->data + (n * ai.batch + ai.chan[c] + h * ai.row + w * ai.pix) * es,
                    run * es);
        c += run;
      }
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}

gboolean
zg330_kernel_dequantize (const Zg330KernelTensor *in,
                         const Zg330KernelTensor *out,
                         GError                 **error)
{
  FP_ENV_GUARD;
  Addr ai, ao;
  const guint8 *src;
  float *dst;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);
  if (!tensor_check (in, "dequantize", "input", TRUE, error)
      || !tensor_check (out, "dequantize", "output", FALSE, error)
      || !check_same_nhw ("dequantize", "input", in, "output", out, TRUE, error))
    return FALSE;
  if (out->dtype != ZG330_KERNEL_DTYPE_FP32)
    {
      g_set_error (error, ZG330_KERNEL_ERROR, ZG330_KERNEL_ERROR_INVALID,
                   "dequantize: output dtype %s must be fp32", dtype_name (out->dtype));
      return FALSE;
    }
  addr_init (&ai, in);
  addr_init (&ao, out);
  src = in->data;
  dst = out->data;
  for (guint n = 0; n < in->n; n++)
    for (guint c = 0; c < in->c; c++)
      {
        float s = scale_of (in, c);
        for (guint h = 0; h < in->h; h++)
          for (guint w = 0; w < in->w; w++)
            dst[n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix]
                = (float) raw_value (src[n * ai.batch + ai.chan[c] + h * ai.row + w * ai.pix],
                                     in->dtype) * s;
      }
  addr_clear (&ai);
  addr_clear (&ao);
  zero_padding (out);
  return TRUE;
}
