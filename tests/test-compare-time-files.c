/* test-compare-time-files — two bare time files (the vendor's *_time.txt: op ids and types,
 * nothing of what a launch merged) of the demo, merge on against merge off, compared with
 * the demo network's deploy report as the workbench has it open: every op id belongs, the
 * merged launch gets its members from the merge plan, so no hardop is "only A" or "only B",
 * the members' estimated A shares sum to the launch's time and the classes are the
 * network's, never "HardOp".  A time file of another network does not belong: the error
 * names its op, and the files compare as before.  The CLI does the same with --network.
 * The network open (or given) with merge off: the same network planned again with merge on
 * (plan only) maps the merge-on file as the merge-on run's report does. */
#include "report/zw-compare-rows.h"
#include "zw-test-util.h"
#include "report/zw-compare.h"
#include "report/zw-profile-plan.h"
#include "deploy/xrt-merge-on-plan.h"
#include <glib/gstdio.h>
#include <string.h>

/* @p written as the vendor's text and read back: a bare time file */
static ZwProfile *
bare_time_file (const ZwProfile *p, const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = zw_profile_to_string (p, ZW_PROFILE_FORMAT_VENDOR);
  g_autoptr (GError) error = NULL;
  ZwProfile *bare;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  bare = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < bare->rows->len; i++)
    g_assert_cmpuint (((ZwProfileRow *) g_ptr_array_index (bare->rows, i))->merge_from->len, ==, 0);
  return bare;
}

static gboolean
is_hardop (const ZwCompareRow *r)
{
  return g_str_has_suffix (r->op_type, "HardOpNode") || g_str_has_suffix (r->op_type, "HardOp");
}

/* The members of @on's merged launches (more than one; the profile has one launch: its time
 * in *@launch_ms). */
static guint
launch_members (const ZwProfile *on, double *launch_ms)
{
  guint n = 0;

  for (guint i = 0; i < on->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (on->rows, i);
      if (r->merge_from != NULL && r->merge_from->len > 1)
        {
          n += r->merge_from->len;
          *launch_ms = r->total_ms;
        }
    }
  g_assert_cmpuint (n, >, 1);
  return n;
}

static void
test_demo_merge_on_against_off (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-time-files-XXXXXX");
  g_autoptr (ZwProfile) on = NULL, off = NULL, bare_on = NULL, bare_off = NULL, map_on = NULL, map_off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  g_autoptr (ZwProfileCompare) today = NULL, cmp = NULL;
  g_autoptr (ZwCompareShown) shown = NULL;
  g_autoptr (GHashTable) all = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GError) error = NULL;
  ZwCompareShowOptions o;
  guint n_today_only = 0, n_launches = 0, n_members = 0, n_hard_rows = 0;
  const ZwLaunch *merged = NULL;

  zw_test_run_profiled (net, TRUE, &on, &report_on);
  zw_test_run_profiled (net, FALSE, &off, &report_off);
  bare_on = bare_time_file (on, tmp, "on_time.txt");
  bare_off = bare_time_file (off, tmp, "off_time.txt");
  for (guint i = 0; i < report_on->launches->len; i++)
    if (g_array_index (report_on->launches, ZwLaunch, i).merge_from->len > 1)
      merged = &g_array_index (report_on->launches, ZwLaunch, i);
  g_assert_nonnull (merged);

  /* today, without the network: the launch only in A, its members only in B */
  today = zw_profile_compare (bare_on, bare_off, NULL);
  for (guint i = 0; i < today->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (today->rows, i);
      n_today_only += r->side != ZW_COMPARE_BOTH && is_hardop (r);
    }
  g_assert_cmpuint (n_today_only, >=, merged->merge_from->len + 1);

  /* with the open network (merge on): both files belong; the launch gets its members */
  map_on = zw_profile_map_to_plan (bare_on, report_on, &error);
  g_assert_no_error (error);
  map_off = zw_profile_map_to_plan (bare_off, report_on, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < map_on->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (map_on->rows, i);
      if (r->op_id == merged->op_id)
        {
          g_assert_cmpuint (r->merge_from->len, ==, merged->merge_from->len);
          g_assert_cmpmem (r->merge_from->data, sizeof (gint64) * r->merge_from->len, merged->merge_from->data,
                           sizeof (gint64) * merged->merge_from->len);
        }
    }
  cmp = zw_profile_compare (map_on, map_off, NULL);
  zw_profile_compare_set_plan (cmp, report_on);
  g_assert_cmpstr (cmp->plan_network, ==, report_on->network_name);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_merge_mapped, ==, 1);
  g_assert_cmpfloat_with_epsilon (cmp->a_total_ms, today->a_total_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (cmp->b_total_ms, today->b_total_ms, 1e-9);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      g_assert_cmpint (r->side, ==, ZW_COMPARE_BOTH);
      if (!is_hardop (r))
        continue;
      n_hard_rows++;
      /* the network's class ("Reshape +87"), never the bare "HardOp" */
      g_assert_nonnull (r->op_class);
      g_assert_false (g_str_has_prefix (r->op_class, "HardOp"));
      if (r->merge_from->len > 1)
        g_hash_table_add (all, &r->op_id);
    }
  g_assert_cmpuint (n_hard_rows, ==, 1);
  g_assert_cmpuint (g_hash_table_size (all), ==, 1);

  /* expanded as the view does (the network's report on both sides): each member once, A's
   * figure an estimated share summing to the launch's time, B's its own measured row */
  o = (ZwCompareShowOptions) { FALSE, 0, all, map_on, map_off, report_on, report_on };
  shown = zw_compare_shown_new (cmp, &o);
  for (guint i = 0; i < shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      double sum_a = 0, sum_b = 0;
      if (s->member >= 0 || !s->expandable)
        continue;
      n_launches++;
      for (guint k = 0; k < s->row->merge_from->len; k++)
        {
          const ZwCompareShownRow *m = zw_compare_shown_get (shown, i + 1 + k);
          g_assert_nonnull (m);
          g_assert_cmpint (m->member, ==, (gint) k);
          g_assert_true (m->has_a && m->a_estimated);
          g_assert_true (m->has_b && !m->b_estimated);
          g_assert_nonnull (m->op_class);
          g_assert_cmpstr (m->op_class, !=, "HardOp");
          sum_a += m->a_ms;
          sum_b += m->b_ms;
          n_members++;
        }
      g_assert_cmpfloat_with_epsilon (sum_a, s->row->a_ms, 1e-9);
      g_assert_cmpfloat_with_epsilon (sum_b, s->row->b_ms, 1e-9);
    }
  g_assert_cmpuint (n_launches, ==, 1);
  g_assert_cmpuint (n_members, ==, merged->merge_from->len);

  /* a plan with merge off has no launches: the merge-on file does not belong to it */
  g_assert_null (zw_profile_map_to_plan (bare_on, report_off, &error));
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "merge off"));
  g_clear_error (&error);
  /* … while the merge-off file does (every op of it is the network's) */
  g_clear_pointer (&map_off, zw_profile_free);
  map_off = zw_profile_map_to_plan (bare_off, report_off, &error);
  g_assert_no_error (error);
}

/* the merged launches (two ops or more) of @r: "ID:M1,M2,…;" each */
static char *
launches_text (const ZwDeployReport *r)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < r->launches->len; i++)
    {
      const ZwLaunch *l = &g_array_index (r->launches, ZwLaunch, i);
      if (l->merge_from == NULL || l->merge_from->len < 2)
        continue;
      g_string_append_printf (s, "%" G_GINT64_FORMAT ":", l->op_id);
      for (guint k = 0; k < l->merge_from->len; k++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, k ? "," : "", g_array_index (l->merge_from, gint64, k));
      g_string_append_c (s, ';');
    }
  return g_string_free (s, FALSE);
}

/* The network open with merge off: the merge-on file does not belong to its report, but the
 * same network planned again with merge on gives the merge-on run's launches, and the files
 * map through that plan op by op: nothing only in A or B, the members' shares summing to the
 * launch's time.  The network a deploy report names is found beside the report; a report
 * naming a file that is nowhere, or another network's file, is said. */
static void
test_merge_off_network_planned_again (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-time-files-again-XXXXXX");
  g_autoptr (ZwProfile) on = NULL, off = NULL, bare_on = NULL, bare_off = NULL, map_on = NULL, map_off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL, again = NULL, moved = NULL;
  g_autoptr (ZwProfileCompare) cmp = NULL;
  g_autoptr (ZwCompareShown) shown = NULL;
  g_autoptr (GHashTable) all = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL, *want = NULL, *got = NULL, *copy = NULL, *found = NULL, *text = NULL;
  g_autofree char *report_path = g_build_filename (tmp, "off_plan.json", NULL);
  g_autofree char *tiny = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  ZwCompareShowOptions o;
  guint n_launches = 0, n_members = 0;

  zw_test_run_profiled (net, TRUE, &on, &report_on);
  zw_test_run_profiled (net, FALSE, &off, &report_off);
  g_assert_false (report_off->merge_hardop);
  bare_on = bare_time_file (on, tmp, "on_time.txt");
  bare_off = bare_time_file (off, tmp, "off_time.txt");
  g_assert_null (zw_profile_map_to_plan (bare_on, report_off, &error));
  g_clear_error (&error);

  /* wanted for the merge-on file against the merge-off report only */
  g_assert_true (zw_profile_wants_merge_on_plan (bare_on, bare_off, report_off));
  g_assert_true (zw_profile_wants_merge_on_plan (bare_off, bare_on, report_off));
  g_assert_false (zw_profile_wants_merge_on_plan (bare_off, bare_off, report_off));
  g_assert_false (zw_profile_wants_merge_on_plan (bare_on, bare_off, report_on));

  /* planned again from the network the live report names */
  json = xrt_merge_on_plan_find_network (report_off, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, report_off->network_path);
  again = xrt_merge_on_plan (json, report_off, &error);
  g_assert_no_error (error);
  g_assert_true (again->merge_hardop);
  g_assert_cmpint (again->etm_optimize, ==, report_off->etm_optimize);
  want = launches_text (report_on);
  got = launches_text (again);
  g_assert_cmpstr (want, !=, "");
  g_assert_cmpstr (got, ==, want);

  map_on = zw_profile_map_to_plan (bare_on, again, &error);
  g_assert_no_error (error);
  map_off = zw_profile_map_to_plan (bare_off, again, &error);
  g_assert_no_error (error);
  cmp = zw_profile_compare (map_on, map_off, NULL);
  zw_profile_compare_set_plan (cmp, again);
  g_assert_cmpuint (cmp->n_only_a, ==, 0);
  g_assert_cmpuint (cmp->n_only_b, ==, 0);
  g_assert_cmpuint (cmp->n_merge_mapped, ==, 1);
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);
      g_assert_cmpint (r->side, ==, ZW_COMPARE_BOTH);
      if (r->merge_from->len > 1)
        g_hash_table_add (all, &r->op_id);
    }
  o = (ZwCompareShowOptions) { FALSE, 0, all, map_on, map_off, again, again };
  shown = zw_compare_shown_new (cmp, &o);
  for (guint i = 0; i < shown->rows->len; i++)
    {
      const ZwCompareShownRow *s = zw_compare_shown_get (shown, i);
      double sum_a = 0;
      if (s->member >= 0 || !s->expandable)
        continue;
      n_launches++;
      for (guint k = 0; k < s->row->merge_from->len; k++)
        {
          const ZwCompareShownRow *m = zw_compare_shown_get (shown, i + 1 + k);
          g_assert_true (m->has_a && m->a_estimated);
          sum_a += m->a_ms;
          n_members++;
        }
      g_assert_cmpfloat (s->row->a_ms, >, 0);
      g_assert_cmpfloat_with_epsilon (sum_a, s->row->a_ms, 1e-9);
    }
  g_assert_cmpuint (n_launches, ==, 1);
  g_assert_cmpuint (n_members, >, 1);

  /* a report read from a file whose network path is gone: the JSON beside the report serves */
  g_assert_true (zw_deploy_report_save (report_off, report_path, &error));
  g_assert_no_error (error);
  moved = zw_deploy_report_load (report_path, &error);
  g_assert_no_error (error);
  g_free (moved->network_path);
  moved->network_path = g_strdup ("gone/yolov5s_ZG.json");
  g_assert_null (xrt_merge_on_plan_find_network (moved, report_path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "gone/yolov5s_ZG.json"));
  g_assert_nonnull (strstr (error->message, report_path));
  g_clear_error (&error);
  copy = g_build_filename (tmp, "yolov5s_ZG.json", NULL);
  g_assert_true (g_file_get_contents (report_off->network_path, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (copy, text, -1, NULL));
  found = xrt_merge_on_plan_find_network (moved, report_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, copy);

  /* another network's file is not this report's network */
  g_clear_pointer (&again, zw_deploy_report_unref);
  g_assert_null (xrt_merge_on_plan (tiny, report_off, &error));
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, tiny));
}

static void
test_other_network_does_not_belong (void)
{
  g_autofree char *path = zw_test_shared_file ("real/bytetrack_BY_int8_time.txt");
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwProfile) other = NULL, on = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *needle = NULL;
  const ZwProfileRow *first_bad = NULL;

  if (path == NULL)
    {
      g_test_skip ("no shared real/bytetrack_BY_int8_time.txt");
      return;
    }
  other = zw_profile_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  zw_test_run_profiled (net, TRUE, &on, &report);
  for (guint i = 0; i < other->rows->len && first_bad == NULL; i++)
    if (!zw_profile_row_belongs (g_ptr_array_index (other->rows, i), report))
      first_bad = g_ptr_array_index (other->rows, i);
  g_assert_nonnull (first_bad);
  g_assert_null (zw_profile_map_to_plan (other, report, &error));
  g_assert_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT);
  /* the error names the op and the network */
  needle = g_strdup_printf ("op %" G_GINT64_FORMAT " ", first_bad->op_id);
  g_assert_nonnull (strstr (error->message, needle));
  g_assert_nonnull (strstr (error->message, report->network_name));
  /* the demo's own rows all belong */
  for (guint i = 0; i < on->rows->len; i++)
    g_assert_true (zw_profile_row_belongs (g_ptr_array_index (on->rows, i), report));
}

/* xrt-run report compare A_time.txt B_time.txt --network NET.json */
static void
test_cli_network (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-time-files-cli-XXXXXX");
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  g_autofree char *a = g_build_filename (tmp, "on_time.txt", NULL);
  g_autofree char *b = g_build_filename (tmp, "off_time.txt", NULL);
  g_autofree char *csv = g_build_filename (tmp, "cmp.csv", NULL);
  g_autofree char *table = NULL, *net_path = NULL, *other = NULL;
  g_autofree char *data_dir = g_strdup (g_getenv ("ZW_DATA_DIR"));
  g_auto (ZwRun) run = { 0 };
  g_auto (ZwRun) run_other = { 0 };
  g_auto (GStrv) lines = NULL;
  guint n_b_only = 0;

  g_assert_nonnull (data_dir);
  net_path = g_build_filename (data_dir, "networks", "yolov5s_ZG.json", NULL);
  other = g_build_filename (data_dir, "networks", "tiny_ZG.json", NULL);
  zw_test_write_merge_on_off (net, a, b, &on, &report_on, &off, &report_off);

  zw_test_xrt_run (&run, "report", "compare", a, b, "--network", net_path, "--csv", csv, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "only in A: 0, only in B: 0"));
  g_assert_nonnull (strstr (run.out, "ops mapped through network yolov5s"));
  g_assert_null (strstr (run.out, "HardOpNode"));
  g_assert_true (g_file_get_contents (csv, &table, NULL, NULL));
  lines = g_strsplit (table, "\r\n", -1);
  for (guint i = 1; lines[i] != NULL && *lines[i] != '\0'; i++)
    n_b_only += strstr (lines[i], ",b,") != NULL || strstr (lines[i], ",a,") != NULL;
  g_assert_cmpuint (n_b_only, ==, 0);

  /* --expand: the launch's members under it, a merged side's shares marked ≈ and summing to
   * the launch's time (to the printed rounding), the merge-off side's own measured rows */
  {
    g_auto (ZwRun) run_expand = { 0 };
    g_auto (GStrv) out = NULL;
    double launch_a = -1, sum_a = 0;
    guint n_members = 0, n_own_b = 0, n_launch_members = 0;

    n_launch_members = launch_members (on, &launch_a);
    zw_test_xrt_run (&run_expand, "report", "compare", a, b, "--network", net_path, "--expand", NULL);
    g_assert_cmpint (run_expand.status, ==, 0);
    out = g_strsplit (run_expand.out, "\n", -1);
    for (guint i = 0; out[i] != NULL; i++)
      {
        g_auto (GStrv) f = g_strsplit_set (g_strstrip (out[i]), " ", -1);
        g_autoptr (GPtrArray) w = g_ptr_array_new ();
        for (guint k = 0; f[k] != NULL; k++)
          if (*f[k] != '\0')
            g_ptr_array_add (w, f[k]);
        if (w->len >= 5 && g_str_has_prefix (out[i], "↳"))
          {
            const char *am = g_ptr_array_index (w, 3), *bm = g_ptr_array_index (w, 4);
            gint64 id = g_ascii_strtoll (g_ptr_array_index (w, 1), NULL, 10);
            n_members++;
            g_assert_true (g_str_has_prefix (am, "≈"));             /* merged in A: a share */
            sum_a += g_ascii_strtod (am + strlen ("≈"), NULL);
            g_assert_false (g_str_has_prefix (bm, "≈"));            /* merge off in B: its own row */
            for (guint k = 0; k < off->rows->len; k++)
              {
                const ZwProfileRow *r = g_ptr_array_index (off->rows, k);
                if (r->op_id == id)
                  {
                    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (bm, NULL), r->total_ms, 6e-5);
                    n_own_b++;
                  }
              }
          }
      }
    g_assert_cmpuint (n_members, ==, n_launch_members);
    g_assert_cmpuint (n_own_b, ==, n_launch_members);
    g_assert_cmpfloat (launch_a, >, 0);
    /* each share is printed to 0.0001 ms */
    g_assert_cmpfloat_with_epsilon (sum_a, launch_a, 5e-5 * (n_members + 1));
  }

  /* the network's deploy report (xrt-run plan --json) serves as well as its JSON */
  {
    g_autofree char *report_path = g_build_filename (tmp, "plan.json", NULL);
    g_autoptr (GError) error = NULL;
    g_auto (ZwRun) run_report = { 0 };
    g_assert_true (zw_deploy_report_save (report_on, report_path, &error));
    g_assert_no_error (error);
    zw_test_xrt_run (&run_report, "report", "compare", a, b, "--network", report_path, NULL);
    g_assert_cmpint (run_report.status, ==, 0);
    g_assert_nonnull (strstr (run_report.out, "only in A: 0, only in B: 0"));
    g_assert_nonnull (strstr (run_report.out, "ops mapped through network yolov5s"));
  }

  /* another network's plan: said, and today's rows (the members only in B) */
  zw_test_xrt_run (&run_other, "report", "compare", a, b, "--network", other, NULL);
  g_assert_cmpint (run_other.status, ==, 0);
  g_assert_nonnull (strstr (run_other.err, "does not belong to network tiny"));
  g_assert_null (strstr (run_other.out, "only in B: 0"));
  g_assert_nonnull (strstr (run_other.out, "HardOpNode"));
}

/* the ≈ shares of the members listed by --expand, summed (each printed to 0.0001 ms) */
static double
expanded_shares (const char *out, guint *n_members)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  double sum = 0;

  *n_members = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      g_autoptr (GPtrArray) w = g_ptr_array_new ();

      if (!g_str_has_prefix (g_strstrip (lines[i]), "↳"))
        continue;
      f = g_strsplit_set (lines[i], " ", -1);
      for (guint k = 0; f[k] != NULL; k++)
        if (*f[k] != '\0')
          g_ptr_array_add (w, f[k]);
      g_assert_cmpuint (w->len, >=, 5);
      g_assert_true (g_str_has_prefix (g_ptr_array_index (w, 3), "≈"));
      sum += g_ascii_strtod ((const char *) g_ptr_array_index (w, 3) + strlen ("≈"), NULL);
      (*n_members)++;
    }
  return sum;
}

/* --network a deploy report of the network with merge off: the network it names is planned
 * again with merge on and the merge-on file maps through that plan; a report naming a
 * network that is nowhere: said, and the files compare by op id. */
static void
test_cli_network_merge_off (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (ZwTestTmpDir) tmp = zw_test_tmp_dir_new ("zw-time-files-cli-off-XXXXXX");
  g_autoptr (ZwProfile) on = NULL, off = NULL;
  g_autoptr (ZwDeployReport) report_on = NULL, report_off = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *a = g_build_filename (tmp, "on_time.txt", NULL);
  g_autofree char *b = g_build_filename (tmp, "off_time.txt", NULL);
  g_autofree char *csv = g_build_filename (tmp, "cmp.csv", NULL);
  g_autofree char *plan = g_build_filename (tmp, "off_plan.json", NULL);
  g_autofree char *lost_dir = g_build_filename (tmp, "lost", NULL);
  g_autofree char *lost = g_build_filename (lost_dir, "off_plan.json", NULL);
  g_autofree char *table = NULL;
  g_auto (ZwRun) run = { 0 };
  g_auto (ZwRun) run_expand = { 0 };
  g_auto (ZwRun) run_lost = { 0 };
  g_auto (GStrv) lines = NULL;
  double launch_a = -1, sum_a;
  guint n_one_side = 0, n_members = 0, n_launch_members = 0;

  zw_test_write_merge_on_off (net, a, b, &on, &report_on, &off, &report_off);
  n_launch_members = launch_members (on, &launch_a);
  g_assert_false (report_off->merge_hardop);
  g_assert_true (zw_deploy_report_save (report_off, plan, &error));
  g_assert_no_error (error);

  zw_test_xrt_run (&run, "report", "compare", a, b, "--network", plan, "--csv", csv, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "only in A: 0, only in B: 0"));
  g_assert_nonnull (strstr (run.out, "ops mapped through network yolov5s's merge-on plan"));
  g_assert_nonnull (strstr (run.out, "has merge off"));
  g_assert_null (strstr (run.out, "HardOpNode"));
  g_assert_null (strstr (run.err, "does not belong"));
  g_assert_true (g_file_get_contents (csv, &table, NULL, NULL));
  lines = g_strsplit (table, "\r\n", -1);
  g_assert_nonnull (lines[1]);
  for (guint i = 1; lines[i] != NULL && *lines[i] != '\0'; i++)
    n_one_side += strstr (lines[i], ",b,") != NULL || strstr (lines[i], ",a,") != NULL;
  g_assert_cmpuint (n_one_side, ==, 0);

  zw_test_xrt_run (&run_expand, "report", "compare", a, b, "--network", plan, "--expand", NULL);
  g_assert_cmpint (run_expand.status, ==, 0);
  sum_a = expanded_shares (run_expand.out, &n_members);
  g_assert_cmpuint (n_members, ==, n_launch_members);
  g_assert_cmpfloat (launch_a, >, 0);
  g_assert_cmpfloat_with_epsilon (sum_a, launch_a, 5e-5 * (n_members + 1));

  /* the report moved where its network is not (the path it names is absolute: renamed) */
  {
    g_autoptr (ZwDeployReport) moved = zw_deploy_report_load (plan, &error);
    g_assert_no_error (error);
    g_free (moved->network_path);
    moved->network_path = g_strdup ("elsewhere/yolov5s_ZG.json");
    g_assert_cmpint (g_mkdir_with_parents (lost_dir, 0700), ==, 0);
    g_assert_true (zw_deploy_report_save (moved, lost, &error));
    g_assert_no_error (error);
  }
  zw_test_xrt_run (&run_lost, "report", "compare", a, b, "--network", lost, NULL);
  g_assert_cmpint (run_lost.status, ==, 0);
  g_assert_nonnull (strstr (run_lost.err, "could not be planned again with merge on"));
  g_assert_nonnull (strstr (run_lost.err, "elsewhere/yolov5s_ZG.json"));
  g_assert_nonnull (strstr (run_lost.err, "give --network the network's JSON"));
  g_assert_nonnull (strstr (run_lost.err, "does not belong to network yolov5s"));
  g_assert_null (strstr (run_lost.out, "only in A: 0,"));
  g_assert_nonnull (strstr (run_lost.out, "HardOpNode"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-time-files/demo/merge-on-against-off-op-by-op", test_demo_merge_on_against_off);
  g_test_add_func ("/compare-time-files/demo/merge-off-network-planned-again-merge-on",
                   test_merge_off_network_planned_again);
  g_test_add_func ("/compare-time-files/other-network/does-not-belong", test_other_network_does_not_belong);
  g_test_add_func ("/compare-time-files/cli/network", test_cli_network);
  g_test_add_func ("/compare-time-files/cli/network-merge-off-planned-again", test_cli_network_merge_off);
  return g_test_run ();
}
