/* bench-ocm.c — the OCM options on larger synthetic networks: cost of each option
 * relative to NONE and to BEST_SCORE, wall time, and whether OPTION2's programme stayed
 * exact.  Figures are ratios measured in this run; nothing is asserted on time.
 */
#include "backends/zg330/zg330-ocm-plan.h"

#define KiB (G_GUINT64_CONSTANT (1024))

/* A network-like problem: op i writes map i and reads the previous map, plus, with
 * probability @skip_pct, one older map up to @reach ops back (skips, concats). */
static Zg330OcmProblem *
network_new (const Zg330Profile *prof, guint32 seed, guint n_ops, guint skip_pct, guint reach)
{
  g_autoptr (GRand) rnd = g_rand_new_with_seed (seed);
  Zg330OcmProblem *p = zg330_ocm_problem_new (prof);
  g_autofree guint *last = g_new0 (guint, n_ops);
  g_autofree guint *src = g_new0 (guint, n_ops);
  g_autofree guint64 *size = g_new0 (guint64, n_ops);

  /* Lifetimes first: map i lives from op i to its last reader. */
  for (guint i = 0; i < n_ops; i++)
    {
      size[i] = (guint64) g_rand_int_range (rnd, 1, 24) * 64 * KiB;
      last[i] = MIN (i + 1, n_ops - 1);
      src[i] = G_MAXUINT;
      if (i >= 2 && (guint) g_rand_int_range (rnd, 0, 100) < skip_pct)
        {
          src[i] = i - 2 - (guint) g_rand_int_range (rnd, 0, MIN (reach, i - 1));
          last[src[i]] = MAX (last[src[i]], i);
        }
    }
  for (guint i = 0; i < n_ops; i++)
    zg330_ocm_problem_add_chunk (p, i, i, last[i], size[i], i > 0 && i < n_ops - 1);
  for (guint i = 0; i < n_ops; i++)
    {
      guint64 macs = (guint64) g_rand_int_range (rnd, 1, 60) * 1000000;
      guint o = zg330_ocm_problem_add_op (p, i, macs, 1, (guint64) g_rand_int_range (rnd, 1, 600) * KiB, 0);
      if (i > 0)
        zg330_ocm_problem_add_access (p, o, i - 1, size[i - 1], FALSE);
      if (src[i] != G_MAXUINT)
        zg330_ocm_problem_add_access (p, o, src[i], size[src[i]], FALSE);
      zg330_ocm_problem_add_access (p, o, i, size[i], TRUE);
    }
  return p;
}

static void
run (const char *name, Zg330OcmProblem *p)
{
  Zg330OcmResult r[4] = { { 0 } }, best = { 0 };
  g_autoptr (GError) error = NULL;

  for (int o = 1; o <= 3; o++)
    if (!zg330_ocm_plan (p, o, &r[o], &error))
      g_error ("%s", error->message);
  if (!zg330_ocm_plan (p, ZW_OCM_BEST_SCORE, &best, &error))
    g_error ("%s", error->message);
  g_print ("%-34s ops %5u chunks %5u OCM %5" G_GUINT64_FORMAT " KiB | NONE %8.3f ms\n",
           name, p->ops->len, p->chunks->len, p->capacity / KiB, best.etm_only_cost_ms);
  for (int o = 1; o <= 3; o++)
    g_print ("    OPTION%d  %8.3f ms  = %.3f x NONE, %.4f x BEST  %4u chunks  %7.3f s%s\n",
             o, r[o].cost_ms, r[o].cost_ms / r[o].etm_only_cost_ms,
             r[o].cost_ms / best.cost_ms, r[o].picked->len, r[o].seconds,
             o == 2 ? (r[o].exact ? "  (proven optimal)" : "  (not proven)") : "");
  g_print ("    BEST     %8.3f ms  = %.3f x NONE (OPTION%d)  %.3f s  dropped %u\n",
           best.cost_ms, best.cost_ms / best.etm_only_cost_ms, best.option, best.seconds,
           best.dropped);
  for (int o = 1; o <= 3; o++)
    zg330_ocm_result_clear (&r[o]);
  zg330_ocm_result_clear (&best);
}

int
main (void)
{
  g_autoptr (Zg330Profile) prof = zg330_profile_new_builtin ();
  const struct { const char *name; guint n, skip, reach; guint64 cap; } cases[] = {
    { "chain-like, 200 ops",             200, 10, 4, 2048 * KiB },
    { "skips, 500 ops",                  500, 35, 12, 2048 * KiB },
    { "many skips, 1000 ops",           1000, 60, 30, 2048 * KiB },
    { "many skips, 1000 ops, 4 MiB",    1000, 60, 30, 4096 * KiB },
    { "many skips, 3000 ops",           3000, 60, 30, 2048 * KiB },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Zg330OcmProblem *p = network_new (prof, 7 + i, cases[i].n, cases[i].skip, cases[i].reach);
      p->capacity = cases[i].cap;
      run (cases[i].name, p);
      zg330_ocm_problem_free (p);
    }
  return 0;
}
