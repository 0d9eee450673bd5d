/* test-ocm.c — the ZG330Backend's OCM options (backends/zg330/zg330-ocm-plan.h).
 *
 * Every placement is checked by a sweep written here (sharing nothing with the planner):
 * only eligible chunks, aligned offsets inside the capacity, no two chunks live at the
 * same op index sharing a byte, the reported cost equal to the shared estimate.  Small
 * random problems are compared with the optimum found by brute force.
 */
#include <math.h>
#include <string.h>

#include "backends/zg330/zg330-ocm-plan.h"
#include "backends/zg330/zg330-etm-plan.h"

#define KiB (G_GUINT64_CONSTANT (1024))
#define MiB (1024 * KiB)

static Zg330Profile *
profile_new (void)
{
  return zg330_profile_new_builtin ();
}

static guint64
aligned (const Zg330OcmProblem *p, guint64 size)
{
  guint64 a = MAX (p->alignment, 1);
  return (size + a - 1) / a * a;
}

static int
cmp_by_addr (gconstpointer a, gconstpointer b, gpointer data)
{
  const guint64 *addr = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  return addr[i] < addr[j] ? -1 : addr[i] > addr[j];
}

/* The independent checker. */
static void
check_result (const Zg330OcmProblem *p, const Zg330OcmResult *r)
{
  guint nc = p->chunks->len, no = p->ops->len;
  guint64 align = MAX (p->alignment, 1);
  guint64 cap = p->capacity / align * align;
  g_autofree gboolean *in = g_new0 (gboolean, MAX (nc, 1));

  g_assert_nonnull (r->picked);
  g_assert_cmpuint (r->n_chunks, ==, nc);
  for (guint i = 0; i < r->picked->len; i++)
    {
      guint c = g_array_index (r->picked, guint, i);
      g_assert_cmpuint (c, <, nc);
      if (i > 0)
        g_assert_cmpuint (c, >, g_array_index (r->picked, guint, i - 1));
      in[c] = TRUE;
    }
  guint64 arena = 0;
  for (guint c = 0; c < nc; c++)
    {
      const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, c);
      if (!in[c])
        {
          g_assert_cmpuint (r->ocm_addr[c], ==, G_MAXUINT64);
          continue;
        }
      g_assert_true (ch->eligible);
      g_assert_cmpuint (r->ocm_addr[c] % align, ==, 0);
      g_assert_cmpuint (r->ocm_addr[c] + aligned (p, ch->size), <=, cap);
      arena = MAX (arena, r->ocm_addr[c] + aligned (p, ch->size));
    }
  g_assert_cmpuint (arena, <=, r->arena);
  g_assert_cmpuint (r->arena, <=, MAX (cap, 0));

  guint64 peak = 0;
  g_autoptr (GArray) live = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint t = 0; t < no; t++)
    {
      g_array_set_size (live, 0);
      guint64 load = 0;
      for (guint c = 0; c < nc; c++)
        {
          const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, c);
          if (in[c] && ch->first <= t && t <= ch->last)
            {
              g_array_append_val (live, c);
              load += aligned (p, ch->size);
            }
        }
      g_assert_cmpuint (load, <=, cap);
      peak = MAX (peak, load);
      g_array_sort_with_data (live, cmp_by_addr, r->ocm_addr);
      for (guint i = 1; i < live->len; i++)
        {
          guint a = g_array_index (live, guint, i - 1), b = g_array_index (live, guint, i);
          guint64 end = r->ocm_addr[a] + g_array_index (p->chunks, Zg330OcmChunk, a).size;
          if (end > r->ocm_addr[b])
            g_error ("chunks %u and %u overlap in OCM at op %u: [%" G_GUINT64_FORMAT ", %"
                     G_GUINT64_FORMAT ") and [%" G_GUINT64_FORMAT ", ...)",
                     a, b, t, r->ocm_addr[a], end, r->ocm_addr[b]);
        }
    }
  g_assert_cmpuint (peak, ==, r->peak_bytes);
  g_assert_cmpuint (r->cycles, ==, zg330_ocm_estimate_cycles (p, in));
  g_assert_cmpuint (r->etm_only_cycles, ==, zg330_ocm_estimate_cycles (p, NULL));
  g_assert_cmpuint (r->cycles, <=, r->etm_only_cycles);
  g_assert_cmpfloat (fabs (r->cost_ms - zg330_ocm_estimate (p, in)), <, 1e-9);
}

static guint64
plan_cycles (const Zg330OcmProblem *p, int option, Zg330OcmResult *keep)
{
  Zg330OcmResult r = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (zg330_ocm_plan (p, option, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpint (r.asked, ==, option);
  if (option >= 0)
    g_assert_cmpint (r.option, ==, option);
  else
    g_assert_true (r.option > ZW_OCM_NONE && r.option < ZW_OCM_N_SLOTS);
  check_result (p, &r);
  guint64 cycles = r.cycles;
  if (keep)
    *keep = r;
  else
    zg330_ocm_result_clear (&r);
  return cycles;
}

/* Checks the properties every problem must have; returns BEST_SCORE's cycles. */
static guint64
check_all_options (const Zg330OcmProblem *p, guint64 out_cycles[ZW_OCM_N_SLOTS])
{
  guint64 c[ZW_OCM_N_SLOTS];
  Zg330OcmResult best = { 0 };

  for (int o = ZW_OCM_NONE; o < ZW_OCM_N_SLOTS; o++)
    c[o] = plan_cycles (p, o, NULL);
  guint64 b = plan_cycles (p, ZW_OCM_BEST_SCORE, &best);
  for (int o = ZW_OCM_NONE + 1; o < ZW_OCM_N_SLOTS; o++)
    {
      g_assert_cmpuint (c[o], <=, c[0]);
      g_assert_cmpuint (b, <=, c[o]);
    }
  g_assert_cmpuint (b, ==, c[best.option]);
  /* Ties go to the lower option number. */
  for (int o = 1; o < best.option; o++)
    g_assert_cmpuint (c[o], >, b);
  for (int o = ZW_OCM_NONE; o < ZW_OCM_N_SLOTS; o++)
    if (o > 0)
      g_assert_cmpfloat (fabs (best.option_cost_ms[o] - zg330_timing_cycles_to_ms (p->profile, c[o])), <, 1e-9);
  zg330_ocm_result_clear (&best);
  if (out_cycles)
    memcpy (out_cycles, c, sizeof c);
  return b;
}

/* ---- hand-built problems --------------------------------------------------------- */

/* A chain of 1x1 convs on 64x88x160 maps (ETM bound): in -> c1 -> ... -> out. */
static Zg330OcmProblem *
chain_new (const Zg330Profile *prof, guint n_ops, guint64 fmap)
{
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  for (guint i = 0; i <= n_ops; i++)
    zg330_ocm_problem_add_chunk (p, 100 + i, i == 0 ? 0 : i - 1, i == n_ops ? n_ops - 1 : i,
                                 fmap, i != 0 && i != n_ops);
  for (guint i = 0; i < n_ops; i++)
    {
      guint o = zg330_ocm_problem_add_op (p, 10 + i, fmap * 64, 1, 64 * 64, 0);
      zg330_ocm_problem_add_access (p, o, i, fmap, FALSE);
      zg330_ocm_problem_add_access (p, o, i + 1, fmap, TRUE);
    }
  return p;
}

static void
test_chain (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = chain_new (prof, 8, 64 * 88 * 160);
  guint64 c[ZW_OCM_N_SLOTS];
  guint64 b = check_all_options (p, c);

  /* Two neighbours fit 2 MiB (901 KiB each): every inner map goes to OCM. */
  Zg330OcmResult r = { 0 };
  g_assert_true (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, NULL));
  g_assert_cmpuint (r.picked->len, ==, 7);
  g_assert_true (r.exact);
  g_assert_cmpuint (b, <, c[0]);
  /* ETM bytes drop from 2 maps per op to 1 (ends) or 0: far cheaper. */
  g_assert_cmpfloat (r.cost_ms, <, 0.6 * r.etm_only_cost_ms);
  g_test_message ("chain: NONE %.4f ms, BEST %.4f ms (OPTION%d)", r.etm_only_cost_ms,
                  r.cost_ms, r.option);
  zg330_ocm_result_clear (&r);

  /* The launch overhead is the same for every placement. */
  p->merged = FALSE;
  guint64 c2[ZW_OCM_N_SLOTS];
  check_all_options (p, c2);
  guint64 extra = 8 * zg330_timing_launch_overhead (prof, FALSE)
                  - zg330_timing_launch_overhead (prof, TRUE);
  for (int o = ZW_OCM_NONE; o < ZW_OCM_N_SLOTS; o++)
    g_assert_cmpuint (c2[o], ==, c[o] + extra);
  zg330_ocm_problem_free (p);
}

/* A residual net: a 1.25 MiB map read by op 1 and again by op 9 (the long skip), with
 * 768 KiB maps in between; skip + two neighbours do not fit 2 MiB. */
static void
test_residual (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  guint64 big = 1280 * KiB, mid = 768 * KiB;

  guint in = zg330_ocm_problem_add_chunk (p, 1, 0, 0, mid, FALSE);
  guint skip = zg330_ocm_problem_add_chunk (p, 2, 0, 9, big, TRUE);
  guint prev = skip;
  guint o = zg330_ocm_problem_add_op (p, 0, 1000, 1, 4096, 0);
  zg330_ocm_problem_add_access (p, o, in, mid, FALSE);
  zg330_ocm_problem_add_access (p, o, skip, big, TRUE);
  for (guint i = 1; i <= 8; i++)
    {
      guint c = zg330_ocm_problem_add_chunk (p, 10 + i, i, i + 1, mid, TRUE);
      o = zg330_ocm_problem_add_op (p, i, mid * 16, 1, 16384, 0);
      zg330_ocm_problem_add_access (p, o, prev, i == 1 ? big : mid, FALSE);
      zg330_ocm_problem_add_access (p, o, c, mid, TRUE);
      prev = c;
    }
  guint out = zg330_ocm_problem_add_chunk (p, 3, 9, 9, big, FALSE);
  o = zg330_ocm_problem_add_op (p, 9, big * 4, 1, 4096, 0);
  zg330_ocm_problem_add_access (p, o, prev, mid, FALSE);
  zg330_ocm_problem_add_access (p, o, skip, big, FALSE);
  zg330_ocm_problem_add_access (p, o, out, big, TRUE);

  guint64 c[ZW_OCM_N_SLOTS];
  guint64 b = check_all_options (p, c);
  g_assert_cmpuint (b, <, c[0]);
  Zg330OcmResult r = { 0 };
  g_assert_true (zg330_ocm_plan (p, ZW_OCM_OPTION2, &r, NULL));
  /* Keeping the skip in OCM would push most chain maps out: worse. */
  g_assert_cmpuint (r.ocm_addr[skip], ==, G_MAXUINT64);
  g_assert_cmpuint (r.ocm_addr[in], ==, G_MAXUINT64);
  g_assert_cmpuint (r.ocm_addr[out], ==, G_MAXUINT64);
  g_assert_true (r.exact);
  g_assert_cmpuint (r.cycles, ==, b);
  g_test_message ("residual: NONE %" G_GUINT64_FORMAT " OPT1 %" G_GUINT64_FORMAT
                  " OPT2 %" G_GUINT64_FORMAT " OPT3 %" G_GUINT64_FORMAT " cycles",
                  c[0], c[1], c[2], c[3]);
  zg330_ocm_result_clear (&r);
  zg330_ocm_problem_free (p);
}

/* A knapsack: three maps live together, the densest alone (A) is worse than the two
 * others together (B + C); only the programme sees it. */
static void
test_capacity_forces_choice (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  p->capacity = 1280 * KiB;
  guint a = zg330_ocm_problem_add_chunk (p, 1, 0, 3, 768 * KiB, TRUE);
  guint b = zg330_ocm_problem_add_chunk (p, 2, 0, 3, 640 * KiB, TRUE);
  guint c = zg330_ocm_problem_add_chunk (p, 3, 0, 3, 640 * KiB, TRUE);
  guint o0 = zg330_ocm_problem_add_op (p, 0, 0, 1, 0, 0);
  zg330_ocm_problem_add_access (p, o0, a, 768 * KiB, TRUE);
  zg330_ocm_problem_add_access (p, o0, b, 640 * KiB, TRUE);
  zg330_ocm_problem_add_access (p, o0, c, 640 * KiB, TRUE);
  /* Traffic: A 7 MiB, B 5 MiB, C 5 MiB in total. */
  guint o1 = zg330_ocm_problem_add_op (p, 1, 0, 1, 0, 0);
  zg330_ocm_problem_add_access (p, o1, a, 7 * MiB - 768 * KiB, FALSE);
  guint o2 = zg330_ocm_problem_add_op (p, 2, 0, 1, 0, 0);
  zg330_ocm_problem_add_access (p, o2, b, 5 * MiB - 640 * KiB, FALSE);
  guint o3 = zg330_ocm_problem_add_op (p, 3, 0, 1, 0, 0);
  zg330_ocm_problem_add_access (p, o3, c, 5 * MiB - 640 * KiB, FALSE);

  guint64 cy[ZW_OCM_N_SLOTS];
  guint64 best = check_all_options (p, cy);
  Zg330OcmResult r = { 0 };
  g_assert_true (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, NULL));
  g_assert_cmpint (r.option, ==, 2);
  g_assert_cmpuint (r.picked->len, ==, 2);
  g_assert_cmpuint (r.ocm_addr[a], ==, G_MAXUINT64);
  g_assert_cmpuint (r.ocm_addr[b], !=, G_MAXUINT64);
  g_assert_cmpuint (r.ocm_addr[c], !=, G_MAXUINT64);
  g_assert_cmpuint (r.peak_bytes, ==, 1280 * KiB);
  g_assert_cmpuint (best, <, cy[1]);
  g_assert_cmpuint (best, <, cy[3]);
  g_assert_true (r.exact);
  zg330_ocm_result_clear (&r);
  zg330_ocm_problem_free (p);
}

/* Capacity 0 and no eligible chunk are fine: everything in ETM. */
static void
test_zero_capacity (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = chain_new (prof, 5, 200 * KiB);
  p->capacity = 0;
  for (int o = ZW_OCM_BEST_SCORE; o < ZW_OCM_N_SLOTS; o++)
    {
      Zg330OcmResult r = { 0 };
      g_autoptr (GError) error = NULL;
      g_assert_true (zg330_ocm_plan (p, o, &r, &error));
      g_assert_no_error (error);
      check_result (p, &r);
      g_assert_cmpuint (r.picked->len, ==, 0);
      g_assert_cmpuint (r.cycles, ==, r.etm_only_cycles);
      g_assert_cmpuint (r.peak_bytes, ==, 0);
      zg330_ocm_result_clear (&r);
    }
  zg330_ocm_problem_free (p);

  /* An empty problem. */
  p = zg330_ocm_problem_new (prof);
  Zg330OcmResult r = { 0 };
  g_assert_true (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, NULL));
  g_assert_cmpuint (r.cycles, ==, 0);
  g_assert_cmpuint (r.picked->len, ==, 0);
  zg330_ocm_result_clear (&r);
  zg330_ocm_problem_free (p);
}

static void
test_errors (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmResult r = { 0 };
  GError *error = NULL;

  Zg330OcmProblem *p = chain_new (prof, 4, 100 * KiB);
  g_array_index (p->chunks, Zg330OcmChunk, 2).last = 0;   /* first is 1 */
  g_assert_false (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "id 102"));
  g_assert_nonnull (strstr (error->message, "last"));
  g_assert_null (r.picked);
  g_clear_error (&error);
  zg330_ocm_problem_free (p);

  p = chain_new (prof, 4, 100 * KiB);
  zg330_ocm_problem_add_access (p, 2, 77, 10, FALSE);
  g_assert_false (zg330_ocm_plan (p, ZW_OCM_OPTION1, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "chunk 77"));
  g_assert_nonnull (strstr (error->message, "id 12"));
  g_clear_error (&error);
  zg330_ocm_problem_free (p);

  /* An access outside the chunk's lifetime. */
  p = chain_new (prof, 4, 100 * KiB);
  zg330_ocm_problem_add_access (p, 3, 1, 10, FALSE);
  g_assert_false (zg330_ocm_plan (p, ZW_OCM_OPTION2, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "lifetime"));
  g_clear_error (&error);
  zg330_ocm_problem_free (p);

  /* A chunk living past the last op. */
  p = chain_new (prof, 4, 100 * KiB);
  zg330_ocm_problem_add_chunk (p, 55, 2, 4, 10, TRUE);
  g_assert_false (zg330_ocm_plan (p, ZW_OCM_OPTION3, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "id 55"));
  g_clear_error (&error);

  g_array_set_size (p->chunks, p->chunks->len - 1);
  g_assert_false (zg330_ocm_plan (p, ZW_OCM_N_SLOTS, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_OPTION);
  g_clear_error (&error);
  g_assert_false (zg330_ocm_plan (p, -2, &r, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_OPTION);
  g_clear_error (&error);

  p->profile = NULL;
  g_assert_false (zg330_ocm_problem_validate (p, &error));
  g_assert_error (error, ZG330_OCM_ERROR, ZG330_OCM_ERROR_INVALID);
  g_clear_error (&error);
  zg330_ocm_problem_free (p);

  g_assert_cmpstr (zw_ocm_opt_to_string (-1), ==, "BEST_SCORE");
  g_assert_cmpstr (zw_ocm_opt_to_string (2), ==, "OPTION2");
  g_assert_cmpstr (zw_ocm_opt_to_string (9), ==, "?");
}

/* ---- random problems against brute force -------------------------------------------- */

static Zg330OcmProblem *
random_problem (const Zg330Profile *prof, guint32 seed, guint n_eligible)
{
  g_autoptr (GRand) rnd = g_rand_new_with_seed (seed);
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  guint n_ops = g_rand_int_range (rnd, 6, 16);

  p->capacity = (guint64) g_rand_int_range (rnd, 8, 33) * 64 * KiB;
  for (guint o = 0; o < n_ops; o++)
    {
      /* A mix of compute- and ETM-bound ops. */
      guint64 macs = (guint64) g_rand_int_range (rnd, 0, 40) * 100000000 / 10;
      zg330_ocm_problem_add_op (p, 1000 + o, macs, 1,
                                (guint64) g_rand_int_range (rnd, 0, 300) * KiB, 0);
    }
  guint n = n_eligible + 2;
  for (guint i = 0; i < n; i++)
    {
      guint first = g_rand_int_range (rnd, 0, n_ops);
      guint span = g_rand_int_range (rnd, 0, 100) < 70 ? g_rand_int_range (rnd, 1, 3)
                                                        : g_rand_int_range (rnd, 1, n_ops);
      guint last = MIN (first + span, n_ops - 1);
      guint64 size = (guint64) g_rand_int_range (rnd, 1, 17) * 64 * KiB;
      guint c = zg330_ocm_problem_add_chunk (p, i, first, last, size, i < n_eligible);
      zg330_ocm_problem_add_access (p, first, c, size, TRUE);
      for (guint t = first + 1; t <= last; t++)
        if (t == last || g_rand_int_range (rnd, 0, 3) == 0)
          zg330_ocm_problem_add_access (p, t, c, size, FALSE);
    }
  return p;
}

typedef struct {
  guint32 mask;
  guint64 cycles;
} Subset;

static gint
cmp_subset (gconstpointer a, gconstpointer b)
{
  const Subset *x = a, *y = b;
  if (x->cycles != y->cycles)
    return x->cycles < y->cycles ? -1 : 1;
  return x->mask < y->mask ? -1 : x->mask > y->mask;
}

/* Brute force over the eligible chunks.  @relaxed: the optimum under the capacity alone
 * (what OPTION2's programme solves); returns the true optimum: the cheapest subset that
 * the ETM planner's exact search can also pack into the OCM. */
static guint64
brute_force (const Zg330OcmProblem *p, guint64 *relaxed)
{
  guint nc = p->chunks->len, no = p->ops->len;
  guint64 align = MAX (p->alignment, 1);
  guint64 cap = p->capacity / align * align;
  g_autofree guint *elig = g_new (guint, nc);
  guint ne = 0;
  for (guint c = 0; c < nc; c++)
    if (g_array_index (p->chunks, Zg330OcmChunk, c).eligible)
      elig[ne++] = c;
  g_assert_cmpuint (ne, <=, 16);
  g_autofree gboolean *in = g_new0 (gboolean, nc);
  g_autofree guint64 *load = g_new (guint64, no);
  g_autoptr (GArray) ok_sets = g_array_new (FALSE, FALSE, sizeof (Subset));
  for (guint32 m = 0; m < (1u << ne); m++)
    {
      memset (load, 0, sizeof (guint64) * no);
      gboolean ok = TRUE;
      for (guint k = 0; k < ne && ok; k++)
        {
          const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, elig[k]);
          in[elig[k]] = (m >> k) & 1;
          if (!in[elig[k]])
            continue;
          for (guint t = ch->first; t <= ch->last; t++)
            if ((load[t] += aligned (p, ch->size)) > cap)
              ok = FALSE;
        }
      if (ok)
        {
          Subset s = { m, zg330_ocm_estimate_cycles (p, in) };
          g_array_append_val (ok_sets, s);
        }
    }
  g_array_sort (ok_sets, cmp_subset);
  *relaxed = g_array_index (ok_sets, Subset, 0).cycles;
  for (guint i = 0; i < ok_sets->len; i++)
    {
      guint32 m = g_array_index (ok_sets, Subset, i).mask;
      g_autoptr (GArray) buf = g_array_new (FALSE, FALSE, sizeof (Zg330Buffer));
      for (guint k = 0; k < ne; k++)
        if ((m >> k) & 1)
          {
            const Zg330OcmChunk *ch = &g_array_index (p->chunks, Zg330OcmChunk, elig[k]);
            Zg330Buffer b = { ch->id, ch->first, (gint64) ch->last + 1, ch->size, 0 };
            g_array_append_val (buf, b);
          }
      if (buf->len == 0)
        return g_array_index (ok_sets, Subset, i).cycles;
      Zg330PlanOptions opt = { .capacity = cap, .alignment = align };
      Zg330PlanStats st;
      if (zg330_etm_plan ((Zg330Buffer *) buf->data, buf->len, &opt, &st, NULL))
        return g_array_index (ok_sets, Subset, i).cycles;
    }
  g_assert_not_reached ();
}

static void
test_random_vs_optimum (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  guint n_cases = g_test_slow () ? 300 : 60;
  guint exact_hits[ZW_OCM_N_SLOTS] = { 0 }, proven = 0, truncated = 0;
  double worst_small_beam = 1.0;
  double worst_ratio[ZW_OCM_N_SLOTS];   /* saving found / optimal saving; [0] BEST_SCORE's */

  for (int o = 0; o < ZW_OCM_N_SLOTS; o++)
    worst_ratio[o] = 1.0;

  for (guint s = 0; s < n_cases; s++)
    {
      Zg330OcmProblem *p = random_problem (prof, 0x0c300 + s, 8 + s % 7);
      guint64 relaxed, opt = brute_force (p, &relaxed);
      guint64 c[ZW_OCM_N_SLOTS];
      guint64 b = check_all_options (p, c);
      guint64 none = c[0];
      g_assert_cmpuint (opt, <=, b);
      Zg330OcmResult r = { 0 };
      g_assert_true (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, NULL));
      if (r.exact)
        {
          /* The exactness claim is checkable: it must be the optimum. */
          g_assert_cmpuint (r.cycles, ==, relaxed);
          g_assert_cmpuint (r.cycles, ==, opt);
          proven++;
        }
      zg330_ocm_result_clear (&r);

      /* The programme with a tiny state budget is only locally optimal, but it must
       * still be valid, never worse than NONE, and say it is not exact unless it is. */
      p->max_states = 4;
      g_assert_true (zg330_ocm_plan (p, ZW_OCM_OPTION2, &r, NULL));
      check_result (p, &r);
      if (r.exact)
        g_assert_cmpuint (r.cycles, ==, relaxed);
      else
        truncated++;
      worst_small_beam = MIN (worst_small_beam, none > opt ? (double) (none - r.cycles)
                                                               / (double) (none - opt) : 1.0);
      zg330_ocm_result_clear (&r);
      p->max_states = 0;

      for (int o = ZW_OCM_NONE + 1; o < ZW_OCM_N_SLOTS; o++)
        {
          double ratio = none > opt ? (double) (none - c[o]) / (double) (none - opt) : 1.0;
          worst_ratio[o] = MIN (worst_ratio[o], ratio);
          exact_hits[o] += c[o] == opt;
        }
      double ratio = none > opt ? (double) (none - b) / (double) (none - opt) : 1.0;
      worst_ratio[0] = MIN (worst_ratio[0], ratio);
      exact_hits[0] += b == opt;
      /* BEST_SCORE keeps at least 98 % of the optimal saving (OPTION2's programme is
       * exact on problems this small unless the OCM cannot be packed). */
      if (ratio < 0.98)
        g_error ("seed %u: BEST_SCORE saves %.4f of the optimum (none %" G_GUINT64_FORMAT
                 ", options %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                 ", opt %" G_GUINT64_FORMAT ", relaxed %" G_GUINT64_FORMAT ")",
                 0x0c300 + s, ratio, none, c[1], c[2], c[3], opt, relaxed);
      zg330_ocm_problem_free (p);
    }
  g_test_message ("random (%u cases): optimum found BEST %u, OPT1 %u, OPT2 %u, OPT3 %u; "
                  "proven %u; worst saving ratio BEST %.4f OPT1 %.4f OPT2 %.4f OPT3 %.4f; "
                  "OPT2 with 4 states per boundary: truncated %u, worst %.4f",
                  n_cases, exact_hits[0], exact_hits[1], exact_hits[2], exact_hits[3], proven,
                  worst_ratio[0], worst_ratio[1], worst_ratio[2], worst_ratio[3],
                  truncated, worst_small_beam);
  g_assert_cmpuint (proven, >=, n_cases / 2);
}

/* Twelve chunks whose load never exceeds 23 units but which need 24 units to pack
 * (proven by the ETM planner's exhaustive search): with a 23-unit OCM every option's
 * first choice cannot be placed and must be repaired. */
static void
test_unpackable_set_repaired (void)
{
  static const struct { guint lo, hi; guint64 size; } spec[] = {
    { 2, 6, 5 }, { 6, 9, 6 }, { 2, 3, 4 }, { 3, 7, 7 }, { 7, 9, 4 }, { 4, 6, 5 },
    { 1, 4, 8 }, { 0, 3, 1 }, { 6, 7, 3 }, { 0, 2, 8 }, { 0, 3, 5 }, { 5, 8, 6 },
  };
  const guint64 unit = 64 * KiB;
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  p->capacity = 23 * unit;
  for (guint o = 0; o < 9; o++)
    zg330_ocm_problem_add_op (p, o, 0, 1, 0, 0);
  for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
    {
      guint c = zg330_ocm_problem_add_chunk (p, i, spec[i].lo, spec[i].hi - 1,
                                             spec[i].size * unit, TRUE);
      zg330_ocm_problem_add_access (p, spec[i].lo, c, spec[i].size * unit, TRUE);
      zg330_ocm_problem_add_access (p, spec[i].hi - 1, c, spec[i].size * unit, FALSE);
    }
  guint64 relaxed, opt = brute_force (p, &relaxed);
  g_assert_cmpuint (opt, >, relaxed);   /* the packing really binds */
  guint64 c[ZW_OCM_N_SLOTS];
  guint64 b = check_all_options (p, c);
  g_assert_cmpuint (b, >=, opt);
  Zg330OcmResult r = { 0 };
  g_assert_true (zg330_ocm_plan (p, ZW_OCM_OPTION2, &r, NULL));
  g_assert_cmpuint (r.dropped, >, 0);
  g_assert_false (r.exact);
  zg330_ocm_result_clear (&r);
  double ratio = (double) (c[0] - b) / (double) (c[0] - opt);
  g_test_message ("unpackable: relaxed %" G_GUINT64_FORMAT ", optimum %" G_GUINT64_FORMAT
                  ", OPTION1..3 %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                  " cycles; BEST keeps %.4f of the optimal saving",
                  relaxed, opt, c[1], c[2], c[3], ratio);
  g_assert_cmpfloat (ratio, >=, 0.95);
  zg330_ocm_problem_free (p);
}

/* ---- a YOLOv5s-like network (352x640, int8) ------------------------------------------ */

typedef struct {
  Zg330OcmProblem *p;
  GArray          *tsize;   /* per tensor: bytes */
  GArray          *parent;  /* union-find: concat inputs live in the concat's chunk */
  GArray          *first, *last;
  GArray          *acc;     /* Acc */
  GArray          *eligible;
  guint            n_ops;
} Net;

typedef struct { guint op, tensor; guint64 bytes; gboolean write; } Acc;

static guint
net_tensor (Net *n, guint64 bytes, gboolean eligible)
{
  guint i = n->tsize->len, none = G_MAXUINT;
  g_array_append_val (n->tsize, bytes);
  g_array_append_val (n->parent, i);
  g_array_append_val (n->first, none);
  g_array_append_val (n->last, none);
  g_array_append_val (n->eligible, eligible);
  return i;
}

static guint
net_root (Net *n, guint t)
{
  while (g_array_index (n->parent, guint, t) != t)
    t = g_array_index (n->parent, guint, t);
  return t;
}

static guint
net_op (Net *n, guint64 macs, guint64 weights, const guint *in, guint n_in, guint out)
{
  guint o = zg330_ocm_problem_add_op (n->p, n->n_ops, macs, 1, weights, 0);
  n->n_ops++;
  for (guint i = 0; i < n_in; i++)
    {
      Acc a = { o, in[i], g_array_index (n->tsize, guint64, in[i]), FALSE };
      g_array_append_val (n->acc, a);
    }
  Acc a = { o, out, g_array_index (n->tsize, guint64, out), TRUE };
  g_array_append_val (n->acc, a);
  return o;
}

static guint
conv (Net *n, guint in, guint cin, guint cout, guint k, guint hw_out, gboolean eligible)
{
  guint out = net_tensor (n, (guint64) cout * hw_out, eligible);
  net_op (n, (guint64) cout * hw_out * cin * k * k, (guint64) cout * cin * k * k, &in, 1, out);
  return out;
}

/* Bottleneck: 1x1 then 3x3, optional residual add fused into the second conv. */
static guint
c3 (Net *n, guint in, guint cin, guint cout, guint depth, gboolean shortcut, guint hw)
{
  guint h = cout / 2;
  guint a = conv (n, in, cin, h, 1, hw, TRUE);
  guint b = conv (n, in, cin, h, 1, hw, TRUE);
  for (guint d = 0; d < depth; d++)
    {
      guint t = conv (n, a, h, h, 1, hw, TRUE);
      guint out = net_tensor (n, (guint64) h * hw, TRUE);
      guint ins[2] = { t, a };
      net_op (n, (guint64) h * hw * h * 9, (guint64) h * h * 9, ins, shortcut ? 2 : 1, out);
      a = out;
    }
  guint cat = net_tensor (n, 0, TRUE);
  g_array_index (n->parent, guint, a) = cat;
  g_array_index (n->parent, guint, b) = cat;
  g_array_index (n->tsize, guint64, cat) = (guint64) cout * hw;
  return conv (n, cat, cout, cout, 1, hw, TRUE);
}

static guint
concat2 (Net *n, guint a, guint b)
{
  guint cat = net_tensor (n, g_array_index (n->tsize, guint64, a)
                             + g_array_index (n->tsize, guint64, b), TRUE);
  g_array_index (n->parent, guint, net_root (n, a)) = cat;
  g_array_index (n->parent, guint, net_root (n, b)) = cat;
  return cat;
}

static guint
simple (Net *n, guint in, guint64 out_bytes, guint64 macs)
{
  guint out = net_tensor (n, out_bytes, TRUE);
  net_op (n, macs, 0, &in, 1, out);
  return out;
}

static Zg330OcmProblem *
yolov5s_like_new (const Zg330Profile *prof)
{
  Net n = { zg330_ocm_problem_new (prof),
            g_array_new (FALSE, FALSE, sizeof (guint64)),
            g_array_new (FALSE, FALSE, sizeof (guint)),
            g_array_new (FALSE, FALSE, sizeof (guint)),
            g_array_new (FALSE, FALSE, sizeof (guint)),
            g_array_new (FALSE, FALSE, sizeof (Acc)),
            g_array_new (FALSE, FALSE, sizeof (gboolean)), 0 };
  const guint p1 = 176 * 320, p2 = 88 * 160, p3 = 44 * 80, p4 = 22 * 40, p5 = 11 * 20;

  guint x = net_tensor (&n, 3 * 352 * 640, FALSE);            /* network input */
  x = conv (&n, x, 3, 32, 6, p1, TRUE);
  x = conv (&n, x, 32, 64, 3, p2, TRUE);
  x = c3 (&n, x, 64, 64, 1, TRUE, p2);
  x = conv (&n, x, 64, 128, 3, p3, TRUE);
  guint b4 = c3 (&n, x, 128, 128, 2, TRUE, p3);
  x = conv (&n, b4, 128, 256, 3, p4, TRUE);
  guint b6 = c3 (&n, x, 256, 256, 3, TRUE, p4);
  x = conv (&n, b6, 256, 512, 3, p5, TRUE);
  x = c3 (&n, x, 512, 512, 1, TRUE, p5);
  /* SPPF */
  guint s0 = conv (&n, x, 512, 256, 1, p5, TRUE);
  guint s1 = simple (&n, s0, 256 * p5, 256ull * p5 * 25);
  guint s2 = simple (&n, s1, 256 * p5, 256ull * p5 * 25);
  guint s3 = simple (&n, s2, 256 * p5, 256ull * p5 * 25);
  guint sc = concat2 (&n, concat2 (&n, s0, s1), concat2 (&n, s2, s3));
  x = conv (&n, sc, 1024, 512, 1, p5, TRUE);
  /* neck */
  guint h10 = conv (&n, x, 512, 256, 1, p5, TRUE);
  guint up = simple (&n, h10, 256 * p4, 0);
  x = c3 (&n, concat2 (&n, up, b6), 512, 256, 1, FALSE, p4);
  guint h14 = conv (&n, x, 256, 128, 1, p4, TRUE);
  up = simple (&n, h14, 128 * p3, 0);
  guint p3o = c3 (&n, concat2 (&n, up, b4), 256, 128, 1, FALSE, p3);
  x = conv (&n, p3o, 128, 128, 3, p4, TRUE);
  guint p4o = c3 (&n, concat2 (&n, x, h14), 256, 256, 1, FALSE, p4);
  x = conv (&n, p4o, 256, 256, 3, p5, TRUE);
  guint p5o = c3 (&n, concat2 (&n, x, h10), 512, 512, 1, FALSE, p5);
  /* Detect: outputs are network outputs (never in OCM). */
  conv (&n, p3o, 128, 255, 1, p3, FALSE);
  conv (&n, p4o, 256, 255, 1, p4, FALSE);
  conv (&n, p5o, 512, 255, 1, p5, FALSE);

  /* Chunks: one per union-find root; lifetime over every member's accesses. */
  guint nt = n.tsize->len;
  g_autofree guint *chunk_of = g_new (guint, nt);
  g_autofree guint *cfirst = g_new (guint, nt);
  g_autofree guint *clast = g_new (guint, nt);
  for (guint t = 0; t < nt; t++)
    {
      cfirst[t] = G_MAXUINT;
      clast[t] = 0;
    }
  for (guint i = 0; i < n.acc->len; i++)
    {
      Acc *a = &g_array_index (n.acc, Acc, i);
      guint r = net_root (&n, a->tensor);
      cfirst[r] = MIN (cfirst[r], a->op);
      clast[r] = MAX (clast[r], a->op);
    }
  for (guint t = 0; t < nt; t++)
    {
      chunk_of[t] = G_MAXUINT;
      if (net_root (&n, t) != t || cfirst[t] == G_MAXUINT)
        continue;
      gboolean elig = TRUE;
      for (guint u = 0; u < nt; u++)
        if (net_root (&n, u) == t && !g_array_index (n.eligible, gboolean, u))
          elig = FALSE;
      chunk_of[t] = zg330_ocm_problem_add_chunk (n.p, t, cfirst[t], clast[t],
                                                 g_array_index (n.tsize, guint64, t), elig);
    }
  for (guint i = 0; i < n.acc->len; i++)
    {
      Acc *a = &g_array_index (n.acc, Acc, i);
      zg330_ocm_problem_add_access (n.p, a->op, chunk_of[net_root (&n, a->tensor)],
                                    a->bytes, a->write);
    }
  g_array_unref (n.tsize);
  g_array_unref (n.parent);
  g_array_unref (n.first);
  g_array_unref (n.last);
  g_array_unref (n.acc);
  g_array_unref (n.eligible);
  return n.p;
}

static void
test_yolov5s_like (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = yolov5s_like_new (prof);
  g_assert_true (zg330_ocm_problem_validate (p, NULL));
  g_test_message ("yolov5s-like: %u ops, %u chunks", p->ops->len, p->chunks->len);

  const guint64 sizes[] = { 1 * MiB, 2 * MiB, 4 * MiB };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      p->capacity = sizes[k];
      guint64 c[ZW_OCM_N_SLOTS];
      guint64 b = check_all_options (p, c);
      g_assert_cmpuint (b, <, c[0]);
      Zg330OcmResult r = { 0 };
      g_assert_true (zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &r, NULL));
      g_test_message ("yolov5s-like, OCM %" G_GUINT64_FORMAT " KiB: NONE %.4f ms, "
                      "OPTION1 %.4f, OPTION2 %.4f, OPTION3 %.4f, BEST_SCORE %.4f ms "
                      "(OPTION%d, %u chunks, peak %" G_GUINT64_FORMAT " KiB, %s, %.3f s)",
                      sizes[k] / KiB, r.option_cost_ms[0], r.option_cost_ms[1],
                      r.option_cost_ms[2], r.option_cost_ms[3], r.cost_ms, r.option,
                      r.picked->len, r.peak_bytes / KiB, r.exact ? "proven optimal" : "not proven",
                      r.seconds);
      zg330_ocm_result_clear (&r);
    }
  zg330_ocm_problem_free (p);
}

static void
test_deterministic (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = yolov5s_like_new (prof);

  for (int o = ZW_OCM_BEST_SCORE; o < ZW_OCM_N_SLOTS; o++)
    {
      Zg330OcmResult a = { 0 }, b = { 0 };
      g_assert_true (zg330_ocm_plan (p, o, &a, NULL));
      g_assert_true (zg330_ocm_plan (p, o, &b, NULL));
      g_assert_cmpint (a.option, ==, b.option);
      g_assert_cmpuint (a.cycles, ==, b.cycles);
      g_assert_cmpmem (a.picked->data, a.picked->len * sizeof (guint),
                       b.picked->data, b.picked->len * sizeof (guint));
      g_assert_cmpmem (a.ocm_addr, a.n_chunks * sizeof (guint64),
                       b.ocm_addr, b.n_chunks * sizeof (guint64));
      zg330_ocm_result_clear (&a);
      zg330_ocm_result_clear (&b);
    }
  zg330_ocm_problem_free (p);
}

/* ---- the table of options (report/zw-ocm-option.h) ------------------------------- */

/* Every number from BEST_SCORE to the last planner is a row, once; the planners come in
 * ascending order between NONE and BEST_SCORE (the order of the lists, the sweep's rows
 * and BEST_SCORE's ties); names, short names and labels are distinct. */
static void
test_table_covers_the_enum (void)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = zw_ocm_opt_get_count ();

  g_assert_cmpuint (n, ==, ZW_OCM_N_SLOTS - ZW_OCM_BEST_SCORE);
  g_assert_cmpint (zw_ocm_opt_get_nth (0), ==, ZW_OCM_NONE);
  g_assert_cmpint (zw_ocm_opt_get_nth (n - 1), ==, ZW_OCM_BEST_SCORE);
  for (guint i = 1; i + 1 < n; i++)
    g_assert_cmpint (zw_ocm_opt_get_nth (i), ==, (int) i);
  for (int v = ZW_OCM_BEST_SCORE; v < ZW_OCM_N_SLOTS; v++)
    {
      const char *texts[] = { zw_ocm_opt_to_string (v), zw_ocm_opt_get_nick (v), zw_ocm_opt_get_label (v) };

      g_assert_cmpint (zw_ocm_opt_get_nth (zw_ocm_opt_get_index (v)), ==, v);
      for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
        {
          g_assert_cmpstr (texts[k], !=, "?");
          g_assert_false (g_hash_table_contains (seen, texts[k]));
          g_hash_table_add (seen, (gpointer) texts[k]);
        }
      g_assert_cmpstr (zw_ocm_opt_get_description (v), !=, "");
      /* the planners have a method of their own, NONE and BEST_SCORE none */
      g_assert_cmpint (*zw_ocm_opt_get_method (v) != '\0', ==, v > ZW_OCM_NONE);
    }
  g_assert_cmpint (zw_ocm_opt_get_index (ZW_OCM_N_SLOTS), ==, -1);
  g_assert_cmpint (zw_ocm_opt_get_index (ZW_OCM_BEST_SCORE - 1), ==, -1);
  g_assert_cmpstr (zw_ocm_opt_get_label (ZW_OCM_N_SLOTS), ==, "?");
  g_assert_cmpstr (zw_ocm_opt_get_method (ZW_OCM_N_SLOTS), ==, "");
}

/* Every spelling the CLI, the vendor's TOML, the deploy report and the workbench's action
 * took before the table still reads, and the table's own spellings do in any case. */
static void
test_table_reads_every_spelling (void)
{
  static const struct { const char *text; ZwOcmOpt opt; } ok[] = {
    { "BEST_SCORE", ZW_OCM_BEST_SCORE }, { "best", ZW_OCM_BEST_SCORE }, { "-1", ZW_OCM_BEST_SCORE },
    { "NONE", ZW_OCM_NONE }, { "none", ZW_OCM_NONE }, { "None", ZW_OCM_NONE }, { "0", ZW_OCM_NONE },
    { "OPTION1", ZW_OCM_OPTION1 }, { "option1", ZW_OCM_OPTION1 }, { "1", ZW_OCM_OPTION1 },
    { "OPTION2", ZW_OCM_OPTION2 }, { "option2", ZW_OCM_OPTION2 }, { "2", ZW_OCM_OPTION2 },
    { "OPTION3", ZW_OCM_OPTION3 }, { "option3", ZW_OCM_OPTION3 }, { "3", ZW_OCM_OPTION3 },
  };
  static const char *bad[] = { "", "7", "-2", "OPTION", "1x", "best score", "0x1", "99999999999" };
  g_autofree char *list = zw_ocm_opt_dup_short_list ();

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      ZwOcmOpt opt = ZW_OCM_N_SLOTS;
      g_assert_true (zw_ocm_opt_from_string (ok[i].text, &opt));
      g_assert_cmpint (opt, ==, ok[i].opt);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      ZwOcmOpt opt = ZW_OCM_N_SLOTS;
      g_assert_false (zw_ocm_opt_from_string (bad[i], &opt));
      g_assert_cmpint (opt, ==, ZW_OCM_N_SLOTS);
    }
  g_assert_false (zw_ocm_opt_from_string (NULL, &(ZwOcmOpt) { 0 }));
  for (int v = ZW_OCM_BEST_SCORE; v < ZW_OCM_N_SLOTS; v++)
    {
      g_autofree char *lower = g_ascii_strdown (zw_ocm_opt_to_string (v), -1);
      g_autofree char *number = g_strdup_printf ("%d", v);
      const char *texts[] = { zw_ocm_opt_to_string (v), zw_ocm_opt_get_nick (v), lower, number };
      for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
        {
          ZwOcmOpt opt = ZW_OCM_N_SLOTS;
          g_assert_true (zw_ocm_opt_from_string (texts[k], &opt));
          g_assert_cmpint (opt, ==, v);
        }
    }
  /* what the CLI's help and errors list: the spellings its help always showed */
  g_assert_true (g_str_has_prefix (list, "none, 1, 2, 3"));
  g_assert_true (g_str_has_suffix (list, ", best"));
}

/* Every option of the table but BEST_SCORE has a planner that gives its own placement;
 * BEST_SCORE's choice is one of them and each of them ran. */
static void
test_table_every_option_plans (void)
{
  g_autoptr (Zg330Profile) prof = profile_new ();
  Zg330OcmProblem *p = chain_new (prof, 8, 64 * 88 * 160);

  for (guint i = 0; i < zw_ocm_opt_get_count (); i++)
    {
      ZwOcmOpt opt = zw_ocm_opt_get_nth (i);
      Zg330OcmResult r = { 0 };
      g_autoptr (GError) error = NULL;

      g_assert_true (zg330_ocm_plan (p, opt, &r, &error));
      g_assert_no_error (error);
      check_result (p, &r);
      if (opt == ZW_OCM_BEST_SCORE)
        {
          g_assert_cmpint (zw_ocm_opt_get_index (r.option), >=, 0);
          g_assert_cmpint (r.option, >, ZW_OCM_NONE);
          for (int o = ZW_OCM_NONE + 1; o < ZW_OCM_N_SLOTS; o++)
            g_assert_cmpfloat (r.option_cost_ms[o], >=, 0);
        }
      else
        g_assert_cmpint (r.option, ==, opt);
      zg330_ocm_result_clear (&r);
    }
  zg330_ocm_problem_free (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/zg330/ocm/chain-all-inner-maps-in-ocm", test_chain);
  g_test_add_func ("/zg330/ocm/residual-long-skip-stays-in-etm", test_residual);
  g_test_add_func ("/zg330/ocm/capacity-forces-choice", test_capacity_forces_choice);
  g_test_add_func ("/zg330/ocm/zero-capacity-all-etm", test_zero_capacity);
  g_test_add_func ("/zg330/ocm/rejects-bad-problems", test_errors);
  g_test_add_func ("/zg330/ocm/random-near-optimum", test_random_vs_optimum);
  g_test_add_func ("/zg330/ocm/unpackable-set-repaired", test_unpackable_set_repaired);
  g_test_add_func ("/zg330/ocm/yolov5s-like-per-option-costs", test_yolov5s_like);
  g_test_add_func ("/zg330/ocm/deterministic", test_deterministic);
  g_test_add_func ("/zg330/ocm/options/table-covers-the-enum", test_table_covers_the_enum);
  g_test_add_func ("/zg330/ocm/options/reads-every-spelling", test_table_reads_every_spelling);
  g_test_add_func ("/zg330/ocm/options/every-option-plans", test_table_every_option_plans);
  return g_test_run ();
}
