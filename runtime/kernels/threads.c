/* threads.c: the shared worker pool: parallel_for() and the thread settings.
 */
#include "kernels/kernels-private.h"

#include <time.h>

/* ---------------------------------------------------------------------------------- */
/* shared worker pool                                                                 */

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
guint
parallel_threads (guint n_items, double est_ns)
{
  return est_ns < (double) g_atomic_int_get (&parallel_min_ns) ? 1 : MAX (1u, MIN (effective_threads (), n_items));
}

void
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
