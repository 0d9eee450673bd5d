/* test-determinism — one input, one answer (DESIGN.md §7): the ETM plan, the OCM placement
 * (every address of the deploy report) and the simulated time profile of a forward (every
 * op's total/memcpy/hard/other time) are identical with 1 and 2 planner threads
 * (ZW_PLAN_THREADS), across repeated runs, and while busy-loop child processes keep every
 * core busy.  The planners are bounded by work, not by the clock, so a busy machine makes
 * them slower, never different.
 *
 * The busy loops are this binary re-executed with --busy-loop: each spins until the parent
 * kills it, the parent dies (PR_SET_PDEATHSIG and a getppid() check) or 300 s pass, so an
 * assertion that aborts the test never leaves one behind for long. */
#include "backends/zg330/zg330-backend.h"
#include "backends/zg330/zg330-etm-plan.h"
#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"
#include "xrt/xrt-session.h"
#include "zw-test-util.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024u * 1024u)
#define BUSY_MAX_S 300

static gboolean
quick (void)
{
  return g_getenv ("ZW_TEST_QUICK") != NULL;
}

/* ---- load: busy-loop children ---------------------------------------------------- */

static GArray *busy_pids;   /* GPid */

static void
busy_child_setup (gpointer data)
{
  (void) data;
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static int
busy_loop_main (const char *parent)
{
  pid_t ppid = (pid_t) g_ascii_strtoll (parent, NULL, 10);
  gint64 end = g_get_monotonic_time () + (gint64) BUSY_MAX_S * G_USEC_PER_SEC;
  volatile guint64 x = 0;

  /* the clock only bounds this helper's life; it decides nothing under test */
  for (;;)
    {
      for (guint i = 0; i < 10000000; i++)
        x += i;
      if (getppid () != ppid || g_get_monotonic_time () > end)
        return x == 0 ? 1 : 0;  /* (x is read so the loop cannot be dropped) */
    }
}

static void
load_stop (void)
{
  if (busy_pids == NULL)
    return;
  for (guint i = 0; i < busy_pids->len; i++)
    {
      GPid pid = g_array_index (busy_pids, GPid, i);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      g_spawn_close_pid (pid);
    }
  g_clear_pointer (&busy_pids, g_array_unref);
}

/* One busy loop per core (at least two). */
static void
load_start (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *parent = g_strdup_printf ("%ld", (long) getpid ());
  guint n = MAX (g_get_num_processors (), 2);

  g_assert_nonnull (self);
  g_assert_null (busy_pids);
  busy_pids = g_array_new (FALSE, FALSE, sizeof (GPid));
  for (guint i = 0; i < n; i++)
    {
      char *argv[] = { self, (char *) "--busy-loop", parent, NULL };
      g_autoptr (GError) error = NULL;
      GPid pid;
      if (!g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                          busy_child_setup, NULL, &pid, &error))
        {
          load_stop ();
          g_error ("starting busy loop %u: %s", i, error->message);
        }
      g_array_append_val (busy_pids, pid);
    }
  for (guint i = 0; i < busy_pids->len; i++)
    g_assert_cmpint (kill (g_array_index (busy_pids, GPid, i), 0), ==, 0);
}

/* An atexit safety net for the children (assertions abort; PDEATHSIG covers that too). */
static void
load_atexit (void)
{
  load_stop ();
}

/* ---- the conditions every answer must survive ------------------------------------- */

typedef struct {
  const char *name;
  const char *threads;   /* ZW_PLAN_THREADS */
  gboolean    load;
} Condition;

static const Condition conditions[] = {
  { "1 thread", "1", FALSE },
  { "2 threads", "2", FALSE },
  { "2 threads, again", "2", FALSE },
  { "1 thread, all cores busy", "1", TRUE },
  { "2 threads, all cores busy", "2", TRUE },
};

static void
condition_enter (const Condition *c)
{
  g_setenv ("ZW_PLAN_THREADS", c->threads, TRUE);
  if (c->load)
    load_start ();
}

static void
condition_leave (const Condition *c)
{
  if (c->load)
    load_stop ();
  g_unsetenv ("ZW_PLAN_THREADS");
}

/* Fails naming the case, the condition and where the two answers first differ. */
static void
assert_same (const char *what, const Condition *c, const char *ref, const char *got)
{
  gsize i = 0;

  if (g_strcmp0 (ref, got) == 0)
    return;
  while (ref[i] && ref[i] == got[i])
    i++;
  gsize from = i > 60 ? i - 60 : 0;
  g_error ("%s differs with %s (ZW_PLAN_THREADS=%s%s) at byte %" G_GSIZE_FORMAT ":\n  first: …%.140s\n  now:   …%.140s",
           what, c->name, c->threads, c->load ? ", busy loops running" : "", i, ref + from, got + from);
}

/* ---- fingerprints ------------------------------------------------------------------- */

typedef struct {
  const char *name;
  gboolean    merge, etm;
  ZwOcmOpt    ocm;
} Combo;

static const Combo combos[] = {
  { "merge,etm,BEST_SCORE", TRUE, TRUE, ZW_OCM_BEST_SCORE },
  { "no-merge,etm,OPTION2", FALSE, TRUE, ZW_OCM_OPTION2 },
  { "merge,no-etm,OPTION1", TRUE, FALSE, ZW_OCM_OPTION1 },
  { "no-merge,no-etm,OPTION3", FALSE, FALSE, ZW_OCM_OPTION3 },
  { "merge,etm,NONE", TRUE, TRUE, ZW_OCM_NONE },
};

static XrtSession *
new_session (XirNetwork *net, const Combo *combo)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  XrtSession *s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), combo->merge, combo->etm,
                                            combo->ocm, &error));
  g_assert_true (xrt_session_apply (s, &error));
  g_assert_no_error (error);
  return s;
}

/* Drops the measured seconds (shown, never deciding anything) from a report's JSON. */
static void
strip_seconds (cJSON *node)
{
  cJSON *child;

  if (cJSON_IsObject (node))
    cJSON_DeleteItemFromObjectCaseSensitive (node, "seconds");
  cJSON_ArrayForEach (child, node)
    strip_seconds (child);
}

/* The whole deploy report after apply (every segment, value, chunk address, OCM pick and
 * the ETM planner's work), without its measured seconds. */
static char *
plan_fingerprint (XirNetwork *net, const Combo *combo, guint64 *ftmp, guint *n_ocm)
{
  g_autoptr (XrtSession) s = new_session (net, combo);
  g_autoptr (ZwDeployReport) r = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  cJSON *json = zw_deploy_report_to_json (r);
  char *text;

  g_assert_false (r->etm_time_limit_hit);
  *ftmp = r->ftmp_bytes;
  *n_ocm = 0;
  for (guint i = 0; i < r->chunks->len; i++)
    *n_ocm += g_array_index (r->chunks, ZwChunkInfo, i).in_ocm;
  strip_seconds (json);
  text = cJSON_PrintUnformatted (json);
  cJSON_Delete (json);
  return text;
}

/* Every row of a forward's simulated profile, times to the last bit (%a). */
static char *
profile_fingerprint (XirNetwork *net, const Combo *combo, double *total_ms)
{
  g_autoptr (XrtSession) s = new_session (net, combo);
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_get_inputs (net);
  g_autoptr (GRand) rand = g_rand_new_with_seed (330);
  g_autoptr (GError) error = NULL;
  GString *out = g_string_new (NULL);

  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = g_malloc (v->storage_bytes);
      for (guint64 i = 0; i < v->storage_bytes; i++)
        bytes[i] = (guint8) g_rand_int_range (rand, 0, 256);
      g_ptr_array_add (inputs, xrt_tensor_new_host (net, v, bytes, v->storage_bytes, NULL));
    }
  xrt_session_enable_time_profile (s, TRUE);
  g_autoptr (GPtrArray) outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  g_assert_nonnull (outs);
  const ZwProfile *p = xrt_session_get_time_profile (s);
  g_assert_nonnull (p);
  g_assert_cmpuint (p->rows->len, >, 0);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      g_string_append_printf (out, "op %" G_GINT64_FORMAT " %s total %a memcpy %a hard %a other %a start %a\n",
                              row->op_id, row->op_type, row->total_ms, row->memcpy_ms, row->hard_ms,
                              row->other_ms, row->start_ms);
    }
  g_string_append_printf (out, "total %a\n", p->total_ms);
  *total_ms = p->total_ms;
  return g_string_free (out, FALSE);
}

/* ---- the networks ----------------------------------------------------------------- */

/* The demo networks (or the first @n_few of them in quick runs) and the real sample when
 * ZW_SHARED_DIR has it (not in quick runs). */
static GPtrArray *
networks (const char *const *all, guint n_all, guint n_few)
{
  GPtrArray *names = g_ptr_array_new ();
  guint n = quick () ? MIN (n_few, n_all) : n_all;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (names, (gpointer) all[i]);
  if (!quick ())
    {
      const char *dir = g_getenv ("ZW_SHARED_DIR");
      g_autofree char *real = g_build_filename (dir ? dir : ZW_SHARED_DIR, "real", "yolov5s_plin_352x640_ZG.json",
                                                NULL);
      if (g_file_test (real, G_FILE_TEST_EXISTS))
        g_ptr_array_add (names, (gpointer) "real");
      else
        g_test_message ("%s not found: the real sample is left out", real);
    }
  return names;
}

static void
test_plan_same_everywhere (void)
{
  static const char *const all[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };
  g_autoptr (GPtrArray) names = networks (all, G_N_ELEMENTS (all), 2);
  g_autoptr (GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n_combos = quick () ? 2 : G_N_ELEMENTS (combos);
  GPtrArray *nets = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_network_unref);

  for (guint i = 0; i < names->len; i++)
    {
      XirNetwork *net = zw_test_load_net (g_ptr_array_index (names, i));
      g_assert_nonnull (net);
      g_ptr_array_add (nets, net);
    }
  for (guint c = 0; c < G_N_ELEMENTS (conditions); c++)
    {
      const Condition *cond = &conditions[c];
      guint plans = 0, in_ocm_total = 0;

      condition_enter (cond);
      for (guint i = 0; i < nets->len; i++)
        for (guint k = 0; k < n_combos; k++)
          {
            g_autofree char *key = g_strdup_printf ("%s %s", (char *) g_ptr_array_index (names, i), combos[k].name);
            guint64 ftmp;
            guint n_ocm;
            char *fp = plan_fingerprint (g_ptr_array_index (nets, i), &combos[k], &ftmp, &n_ocm);
            const char *ref = g_hash_table_lookup (first, key);

            in_ocm_total += n_ocm;
            plans++;
            if (ref == NULL)
              {
                g_test_message ("%s: FTMP %" G_GUINT64_FORMAT " bytes, %u chunks in OCM, report %" G_GSIZE_FORMAT
                                " bytes", key, ftmp, n_ocm, strlen (fp));
                g_hash_table_insert (first, g_steal_pointer (&key), fp);
                continue;
              }
            g_autofree char *what = g_strdup_printf ("the deploy report of %s", key);
            assert_same (what, cond, ref, fp);
            g_free (fp);
          }
      condition_leave (cond);
      g_test_message ("%s: %u plans identical to the first ones (%u chunks in OCM in all)", cond->name, plans,
                      in_ocm_total);
      /* the OCM options do place chunks: the comparison covers OCM addresses too */
      g_assert_cmpuint (in_ocm_total, >, 0);
    }
  g_ptr_array_unref (nets);
}

static void
test_profile_same_everywhere (void)
{
  static const char *const all[] = { "tiny", "resnet18", "yolov5s" };
  g_autoptr (GPtrArray) names = networks (all, G_N_ELEMENTS (all), 1);
  g_autoptr (GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GPtrArray *nets = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_network_unref);
  static const guint which[] = { 0, 1 };   /* merge on BEST_SCORE; merge off OPTION2 */

  for (guint i = 0; i < names->len; i++)
    {
      XirNetwork *net = zw_test_load_net (g_ptr_array_index (names, i));
      g_assert_nonnull (net);
      g_ptr_array_add (nets, net);
    }
  for (guint c = 0; c < G_N_ELEMENTS (conditions); c++)
    {
      const Condition *cond = &conditions[c];

      condition_enter (cond);
      for (guint i = 0; i < nets->len; i++)
        for (guint k = 0; k < G_N_ELEMENTS (which); k++)
          {
            const Combo *combo = &combos[which[k]];
            g_autofree char *key = g_strdup_printf ("%s %s", (char *) g_ptr_array_index (names, i), combo->name);
            double total_ms;
            char *fp = profile_fingerprint (g_ptr_array_index (nets, i), combo, &total_ms);
            const char *ref = g_hash_table_lookup (first, key);

            g_assert_cmpfloat (total_ms, >, 0.0);
            if (ref == NULL)
              {
                g_test_message ("%s: simulated forward %.6f ms", key, total_ms);
                g_hash_table_insert (first, g_steal_pointer (&key), fp);
                continue;
              }
            g_autofree char *what = g_strdup_printf ("the simulated time profile of %s", key);
            assert_same (what, cond, ref, fp);
            g_free (fp);
          }
      condition_leave (cond);
    }
  g_ptr_array_unref (nets);
}

/* ---- the ETM planner alone, where its search runs out of work ---------------------- */

static GArray *
load_bench (const char *name)
{
  const char *dir = g_getenv ("ZW_SHARED_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : ZW_SHARED_DIR, "planner-bench", name, NULL);
  g_autoptr (GError) error = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  GArray *bufs = zg330_buffers_load_csv (path, &error);
  g_assert_no_error (error);
  return bufs;
}

/* minimalloc-D does not reach its bound: the improvement phase spends the whole budget and
 * stops mid-search, which is where a wall-clock bound made the answer depend on the load. */
static void
test_etm_search_cut_by_work (void)
{
  g_autoptr (GArray) bufs = load_bench ("minimalloc-D.csv");
  if (bufs == NULL)
    {
      g_test_skip ("ZW_SHARED_DIR/planner-bench/minimalloc-D.csv not found");
      return;
    }
  Zg330PlanOptions opt = { .capacity = MIB, .alignment = 1,
                           .work_budget = quick () ? 30000000 : 200000000 };
  g_autoptr (GArray) ref = NULL;
  Zg330PlanStats ref_st = { 0 };

  for (guint c = 0; c < G_N_ELEMENTS (conditions); c++)
    {
      const Condition *cond = &conditions[c];
      g_autoptr (GArray) b = g_array_copy (bufs);
      Zg330PlanStats st;
      g_autoptr (GError) error = NULL;

      condition_enter (cond);
      gboolean ok = zg330_etm_plan ((Zg330Buffer *) b->data, b->len, &opt, &st, &error);
      condition_leave (cond);
      g_assert_true (ok || g_error_matches (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY));
      g_assert_true (zg330_etm_plan_check ((Zg330Buffer *) b->data, b->len, 0, NULL));
      g_assert_false (st.time_limit_hit);
      g_assert_cmpuint (st.threads, ==, (guint) g_ascii_strtoull (cond->threads, NULL, 10));
      /* the search ran and its budget ended it: not a greedy answer, not the bound */
      g_assert_cmpuint (st.work, >=, opt.work_budget);
      g_assert_cmpuint (st.arena, >, st.lower_bound);
      g_test_message ("%s: arena %" G_GUINT64_FORMAT " (bound %" G_GUINT64_FORMAT "), work %" G_GUINT64_FORMAT
                      ", %" G_GUINT64_FORMAT " nodes, %s, %.3f s", cond->name, st.arena, st.lower_bound, st.work,
                      st.nodes, st.method, st.seconds);
      if (ref == NULL)
        {
          ref = g_array_ref (b);
          ref_st = st;
          continue;
        }
      g_assert_cmpuint (st.arena, ==, ref_st.arena);
      g_assert_cmpuint (st.work, ==, ref_st.work);
      g_assert_cmpuint (st.nodes, ==, ref_st.nodes);
      g_assert_cmpstr (st.method, ==, ref_st.method);
      for (guint i = 0; i < b->len; i++)
        if (g_array_index (b, Zg330Buffer, i).offset != g_array_index (ref, Zg330Buffer, i).offset)
          g_error ("minimalloc-D buffer id %" G_GINT64_FORMAT ": offset %" G_GUINT64_FORMAT " with %s, %"
                   G_GUINT64_FORMAT " with %s", g_array_index (b, Zg330Buffer, i).id,
                   g_array_index (b, Zg330Buffer, i).offset, cond->name, g_array_index (ref, Zg330Buffer, i).offset,
                   conditions[0].name);
    }
}

/* The case: the MiniMalloc instance fits 1 MiB with the default budget while every
 * core is busy (minimalloc-I when the set has it, else the hardest one here, E). */
static void
test_minimalloc_fits_under_load (void)
{
  const char *name = "minimalloc-I.csv";
  g_autoptr (GArray) bufs = load_bench (name);
  if (bufs == NULL)
    bufs = load_bench (name = "minimalloc-E.csv");
  if (bufs == NULL)
    {
      g_test_skip ("ZW_SHARED_DIR/planner-bench not found: MiniMalloc instances unavailable");
      return;
    }
  g_autoptr (GArray) idle = g_array_copy (bufs);
  Zg330PlanOptions opt = { .capacity = MIB, .alignment = 1 };
  Zg330PlanStats st_idle, st_busy;
  g_autoptr (GError) error = NULL;

  g_setenv ("ZW_PLAN_THREADS", "2", TRUE);
  if (!zg330_etm_plan_fit ((Zg330Buffer *) idle->data, idle->len, &opt, &st_idle, &error))
    g_error ("%s (idle): %s", name, error->message);
  load_start ();
  gboolean ok = zg330_etm_plan_fit ((Zg330Buffer *) bufs->data, bufs->len, &opt, &st_busy, &error);
  load_stop ();
  g_unsetenv ("ZW_PLAN_THREADS");
  if (!ok)
    g_error ("%s (all cores busy): %s", name, error->message);
  g_assert_cmpuint (st_busy.arena, <=, MIB);
  g_assert_true (zg330_etm_plan_check ((Zg330Buffer *) bufs->data, bufs->len, MIB, NULL));
  g_assert_cmpuint (st_busy.arena, ==, st_idle.arena);
  g_assert_cmpuint (st_busy.work, ==, st_idle.work);
  g_assert_cmpmem (bufs->data, bufs->len * sizeof (Zg330Buffer), idle->data, idle->len * sizeof (Zg330Buffer));
  g_test_message ("%s: arena %" G_GUINT64_FORMAT " <= 1 MiB, work %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                  "; %.3f s idle, %.3f s with every core busy (measured)", name, st_busy.arena, st_busy.work,
                  st_busy.work_budget, st_idle.seconds, st_busy.seconds);

  /* and as a user runs it: `xrt-run plan --buffers` exits 0 and prints the fit */
  const char *xrt_run = g_getenv ("XRT_RUN");
  if (xrt_run == NULL || quick ())
    return;
  const char *dir = g_getenv ("ZW_SHARED_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : ZW_SHARED_DIR, "planner-bench", name, NULL);
  g_auto (ZwRun) run = { 0 };
  load_start ();
  zw_test_xrt_run (&run, "plan", "--buffers", path, NULL);
  load_stop ();
  g_assert_cmpint (run.status, ==, 0);
  g_autofree char *arena = g_strdup_printf ("%" G_GUINT64_FORMAT "\n", st_busy.arena);
  g_assert_nonnull (strstr (run.out, arena));
  g_assert_nonnull (strstr (run.out, "1048576"));
}

/* The wall-clock cap is an explicit option, off by default, and its hitting is reported:
 * by the planner, by `xrt-run plan`, and in the deploy report (JSON and text). */
static void
test_time_limit_is_reported (void)
{
  g_autoptr (GArray) bufs = load_bench ("minimalloc-D.csv");
  if (bufs == NULL)
    {
      g_test_skip ("ZW_SHARED_DIR/planner-bench/minimalloc-D.csv not found");
      return;
    }
  /* 1 µs: the first search round alone takes longer; D is not solved by the greedies */
  Zg330PlanOptions opt = { .capacity = MIB, .alignment = 1, .time_limit_s = 1e-6 };
  Zg330PlanStats st;
  g_autoptr (GError) error = NULL;
  gboolean ok = zg330_etm_plan ((Zg330Buffer *) bufs->data, bufs->len, &opt, &st, &error);
  g_assert_true (ok || g_error_matches (error, ZG330_PLAN_ERROR, ZG330_PLAN_ERROR_CAPACITY));
  g_assert_true (st.time_limit_hit);
  g_assert_cmpuint (st.work, <, st.work_budget);
  g_assert_true (zg330_etm_plan_check ((Zg330Buffer *) bufs->data, bufs->len, 0, NULL));

  /* without the option nothing is ever reported, whatever the load: the default plan */
  Zg330PlanOptions def = { .capacity = MIB, .alignment = 1, .work_budget = 20000000 };
  g_clear_error (&error);
  zg330_etm_plan ((Zg330Buffer *) bufs->data, bufs->len, &def, &st, &error);
  g_assert_false (st.time_limit_hit);
  g_assert_cmpuint (st.work_budget, ==, 20000000);
  g_clear_error (&error);

  /* the deploy report carries the flag and the work through JSON and into its text */
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_assert_nonnull (net);
  g_autoptr (XrtSession) s = new_session (net, &combos[4]);
  g_autoptr (ZwDeployReport) r = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  g_assert_false (r->etm_time_limit_hit);
  g_assert_cmpuint (r->etm_work_budget, ==, 250000000);
  r->etm_time_limit_hit = TRUE;
  r->etm_work = 12345;
  cJSON *json = zw_deploy_report_to_json (r);
  g_autoptr (ZwDeployReport) back = zw_deploy_report_from_json (json, "report.json", &error);
  cJSON_Delete (json);
  g_assert_no_error (error);
  g_assert_true (back->etm_time_limit_hit);
  g_assert_cmpuint (back->etm_work, ==, 12345);
  g_assert_cmpuint (back->etm_work_budget, ==, 250000000);
  g_autofree char *text = zw_deploy_report_to_text (back);
  g_assert_nonnull (strstr (text, "time limit hit: the plan may differ from run to run"));
  g_assert_nonnull (strstr (text, "12345 of 250000000 work units"));

  /* a bad limit is refused by the backend, naming the field */
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) b = zg330_backend_new (view, dev, &error);
  g_assert_no_error (error);
  g_assert_false (zg330_backend_set_plan_limits (b, 0, NAN, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "time_limit_s"));
  g_clear_error (&error);
  g_assert_true (zg330_backend_set_plan_limits (b, 1000, 0.5, &error));
  g_assert_cmpuint (zg330_backend_get_logic_segment_size (b, ZW_SEGMENT_FTMP, &error), ==, 0);
  g_assert_no_error (error);
  g_autoptr (ZwDeployReport) rb = zg330_backend_get_report (b);
  g_assert_cmpuint (rb->etm_work_budget, ==, 1000);

  /* and `xrt-run plan --buffers … --time-limit` says so */
  const char *xrt_run = g_getenv ("XRT_RUN");
  if (xrt_run == NULL)
    return;
  const char *dir = g_getenv ("ZW_SHARED_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : ZW_SHARED_DIR, "planner-bench", "minimalloc-D.csv", NULL);
  g_auto (ZwRun) run = { 0 };
  zw_test_xrt_run (&run, "plan", "--buffers", path, "--time-limit", "0.000001", NULL);
  g_assert_nonnull (strstr (run.out, "time limit hit: the plan may differ from run to run"));
  g_auto (ZwRun) bad = { 0 };
  zw_test_xrt_run (&bad, "plan", "--buffers", path, "--work", "-5", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "--work"));
}

int
main (int argc, char **argv)
{
  if (argc == 3 && g_str_equal (argv[1], "--busy-loop"))
    return busy_loop_main (argv[2]);
  atexit (load_atexit);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/determinism/plan/threads-runs-and-load", test_plan_same_everywhere);
  g_test_add_func ("/determinism/etm-search/cut-by-work-not-time", test_etm_search_cut_by_work);
  g_test_add_func ("/determinism/minimalloc/fits-1mib-under-load", test_minimalloc_fits_under_load);
  g_test_add_func ("/determinism/profile/threads-runs-and-load", test_profile_same_everywhere);
  g_test_add_func ("/determinism/time-limit/explicit-and-reported", test_time_limit_is_reported);
  return g_test_run ();
}
