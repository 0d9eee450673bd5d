/* test-hostile.c — hostile inputs through the normal CLI: each ends in a
 * clear error (exit 1) naming the file and the field, never a crash or an abort. The inputs
 * are those of the regression corpus (tests/fuzz/corpus), copied to a scratch folder under
 * the names a user would give them. */
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  const char *harness, *name;  /* corpus file */
  const char *as;              /* file name given to xrt-run */
  const char *argv[8];         /* xrt-run arguments, "@" = the file */
  const char *expect;          /* a substring of the error */
} Case;

static const Case cases[] = {
  { "network", "origin-ops-id-1e20", "net_ZG.json", { "info", "@" }, "origin_ops_id" },
  { "network", "weight-864GB", "net_ZG.json", { "info", "@" }, "4 GiB" },
  { "network", "weight-864GB", "net_ZG.json", { "fake-params", "@", "-o", "/dev/null" }, "4 GiB" },
  { "network", "layer-count-1e999", "net_ZG.json", { "info", "@" }, "layer_count" },
  { "network", "zero-point-huge", "net_ZG.json", { "info", "@" }, "zero_points" },
  { "deploy_report", "sync-idx-7e117", "r_zg330_0.json", { "check", "@" }, "sync_idx" },
  { "deploy_report", "n-ops-2147483647", "r_zg330_0.json", { "check", "@" }, "n_ops" },
  { "deploy_report", "address-2p63-size-2p63", "r_zg330_0.json", { "check", "@" }, "logic_addr" },
  { "deploy_report", "ocm-capacity-0", "r_zg330_0.json", { "check", "@" }, "OCM's 0 bytes" },
  { "profile", "other-time-2e39", "x_time.txt", { "report", "profile", "@", "--to", "vendor" }, "x_time.txt" },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  const char *corpus = g_getenv ("ZW_FUZZ_CORPUS");
  g_autofree char *src = g_build_filename (corpus, c->harness, c->name, NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, c->as, NULL);
  g_autofree char *contents = NULL;
  gsize len;
  const char *argv[10] = { 0 };
  guint n = 0;
  g_auto (ZwRun) run = { 0 };

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (c->argv) && c->argv[i]; i++)
    argv[n++] = strcmp (c->argv[i], "@") == 0 ? path : c->argv[i];
  zw_test_xrt_run (&run, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], NULL);
  g_test_message ("%s", run.err);
  if (strcmp (c->harness, "profile") == 0)
    {
      /* a time no float32 holds is a line that is not a time: skipped with a warning
       * naming the file, the rest converts */
      g_assert_true (run.status == 0 || run.status == 1);
      g_assert_nonnull (strstr (run.err, c->expect));
    }
  else
    {
      g_assert_cmpint (run.status, ==, 1);
      g_assert_nonnull (strstr (run.err, c->as));
      g_assert_nonnull (strstr (run.err, c->expect));
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* `report stats` on a 2-byte text dump whose manifest claims 10^10 numbers (40 GB as
 * float32): refused after reading the 2 bytes, without allocating for the claim; a claim of
 * 10^14 numbers is refused at the manifest already. */
static void
text_dump_claim (const char *shape, const char *expect)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *manifest = g_build_filename (dir, "manifest.json", NULL);
  g_autofree char *ftmp = g_build_filename (dir, "7.ftmp", NULL);
  g_auto (ZwRun) run = { 0 };
  const char *json =
    "{\"format\":\"zhuge-dump-manifest\",\"version\":1,\"dump_format\":\"SFT\",\"complete\":false,\"entries\":["
    "{\"v_id\":7,\"shape\":%s,\"dtype\":\"@fp(32)\",\"layout\":\"NHWC\",\"format\":\"SFT\","
    "\"file\":\"7.ftmp\"}]}";

  g_autofree char *text = g_strdup_printf (json, shape);

  g_assert_true (g_file_set_contents (manifest, text, -1, NULL));
  g_assert_true (g_file_set_contents (ftmp, "1\n", -1, NULL));
  zw_test_xrt_run (&run, "report", "stats", dir, "--v-id", "7", NULL);
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, dir));
  g_assert_nonnull (strstr (run.err, expect));
  g_unlink (manifest);
  g_unlink (ftmp);
  g_rmdir (dir);
}

static void
test_text_dump_claims_too_much (void)
{
  text_dump_claim ("[10000,1000,1000,1]", "7.ftmp: 1 numbers, but");
  text_dump_claim ("[100000,1000,1000,1000]", "shape");
}

/* Snapshots (corpus bodies; the checksum line is added here, as a tool that rewrites a
 * snapshot would): a plan that fails the checker, a view out of the network, a negative
 * address and a huge shape are refused before a byte reaches the board; a valid one runs. */
static void
test_snapshot (gconstpointer data)
{
  const char *const *c = data;  /* corpus name, expected substring (NULL: runs) */
  g_autofree char *src = g_build_filename (g_getenv ("ZW_FUZZ_CORPUS"), "snapshot", c[0], NULL);
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.snapshot", NULL);
  g_autofree char *body = NULL;
  gsize len;
  g_auto (ZwRun) run = { 0 };

  g_assert_true (g_file_get_contents (src, &body, &len, NULL));
  g_autofree char *digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) body, len);
  g_autofree char *text = g_strdup_printf ("%s\nsha256 %s\n", body, digest);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  zw_test_xrt_run (&run, "run", net, "--load-snapshot", path, NULL);
  g_test_message ("%s", run.err);
  if (c[1] == NULL)
    g_assert_cmpint (run.status, ==, 0);
  else
    {
      g_assert_cmpint (run.status, ==, 1);
      g_assert_nonnull (strstr (run.err, path));
      g_assert_nonnull (strstr (run.err, c[1]));
    }
  g_unlink (path);
  g_rmdir (dir);
}

static const char *const snapshot_cases[][2] = {
  { "ftmp-chunks-all-at-offset-0", "fails the checker" },
  { "view-ops-1e300", "view_ops" },
  { "ocm-address-negative", "logic_addr" },
  { "shape-4.4e19", "shape" },
  { "tiny-ocm-none-valid", NULL },
  /* plans applied as verified (issue 33): the chunk table against the checked values */
  { "ftmp-chunk-onto-a-live-chunk-values-untouched", "chunk 2" },
  { "value-in-another-chunk-at-the-same-address", "v_id 48: field chunk" },
  { "ftmp-chunk-past-the-segment", "field ftmp_offset" },
  { "ocm-chunk-address-negative", "field ocm_addr" },
};

/* ---- inputs that are not regular files (issue 33) ------------------------------------------ */

typedef struct {
  const char *name;
  const char *fifo;        /* the FIFO's name in a scratch folder */
  gboolean dev_zero;       /* also /dev/zero in its place */
  const char *argv[10];    /* "@IN" (also inside an argument) the input, "@NET" the tiny network,
                            * "@DIR" the scratch folder */
  const char *what;        /* what the input was meant to be, as the message says */
} ReaderCase;

static const ReaderCase readers[] = {
  { "network-json", "n.json", TRUE, { "info", "@IN" }, "network JSON" },
  { "params", "p.raw", TRUE, { "run", "@NET", "--raw", "@IN" }, "params file" },
  { "params-lazy", "p.raw", TRUE, { "run", "@NET", "--lazy-load", "--raw", "@IN" }, "params file" },
  { "input", "in.bin", TRUE, { "run", "@NET", "--input", "@IN" }, "input tensor" },
  { "input-list", "inputs.txt", FALSE, { "run", "@NET", "--input", "@IN" }, "input list" },
  { "device-profile", "zg330.json", TRUE, { "run", "@NET", "--device", "mock://zg330?profile=@IN" }, "device profile" },
  { "snapshot", "s.snapshot", TRUE, { "run", "@NET", "--load-snapshot", "@IN" }, "snapshot" },
  { "run-config", "run.toml", FALSE, { "run", "@IN" }, "run config" },
  { "deploy-report", "r.json", TRUE, { "check", "@IN" }, "deploy report" },
  { "time-profile", "x_time.txt", TRUE, { "report", "profile", "@IN" }, "time profile" },
  { "time-profile-compare", "x_time.txt", TRUE, { "report", "compare", "@IN", "@IN" }, "time profile" },
  { "buffer-csv", "b.csv", TRUE, { "plan", "--buffers", "@IN" }, "buffer list" },
  { "dump-ftmp", "31.ftmp", TRUE, { "report", "stats", "@IN", "--v-id", "31", "--net", "@NET", "--format", "SFB" },
    "dumped tensor" },
  { "dump-manifest", "manifest.json", FALSE, { "report", "stats", "@DIR", "--v-id", "31" }, "dump manifest" },
};

static void
run_reader (const ReaderCase *c, const char *dir, const char *in)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autoptr (GPtrArray) own = g_ptr_array_new_with_free_func (g_free);
  const char *args[12] = { 0 };
  g_auto (ZwRun) run = { 0 };

  for (guint i = 0; c->argv[i]; i++)
    {
      const char *at = strstr (c->argv[i], "@IN");
      if (strcmp (c->argv[i], "@NET") == 0)
        args[i] = net;
      else if (strcmp (c->argv[i], "@DIR") == 0)
        args[i] = dir;
      else if (at != NULL)
        {
          char *a = g_strdup_printf ("%.*s%s%s", (int) (at - c->argv[i]), c->argv[i], in, at + 3);
          g_ptr_array_add (own, a);
          args[i] = a;
        }
      else
        args[i] = c->argv[i];
    }
  /* before: a FIFO blocked forever, /dev/zero was read until memory ran out (here: until the
   * run's 4 GiB address space did) */
  zw_test_xrt_run_bounded (&run, dir, 30, args, NULL);
  g_test_message ("%s (%s): exit %d: %s", c->name, in, run.status, run.err);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "not a regular file"));
  g_assert_nonnull (strstr (run.err, c->what));
}

/* A FIFO (and /dev/zero) in the place of every input the CLI reads: "PATH: not a regular
 * file (a FIFO), expected …" at once. */
static void
test_reader (gconstpointer data)
{
  const ReaderCase *c = data;
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, c->fifo, NULL);
  g_auto (ZwRun) run = { 0 };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  run_reader (c, dir, fifo);
  if (c->dev_zero)
    run_reader (c, dir, "/dev/zero");
  g_unlink (fifo);
  g_rmdir (dir);
}

/* ---- thresholds and profiles ------------------------------------------------------------------ */

static int
xrt_run_in (const char *dir, ZwRun *run, const char *const *args)
{
  zw_test_xrt_run_bounded (run, dir, 120, args, NULL);
  g_test_message ("%s %s: exit %d\n%s%s", args[0], args[1], run->status, run->out, run->err);
  return run->status;
}

/* `report diff -t nan --cosine nan` said "0 diverge" (exit 0) of dumps with a divergent
 * value: every number option refuses NaN and infinities, naming the option. */
static void
test_diff_nan_thresholds (void)
{
  g_autofree char *net = g_build_filename (g_getenv ("ZW_DATA_DIR"), "networks", "tiny_ZG.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *in = g_build_filename (dir, "in.bin", NULL);
  g_autofree char *bytes = g_malloc (16 * 16 * 3);
  g_auto (ZwRun) run = { 0 };
  static const char *const bad[][4] = {
    { "-t", "nan", "--cosine", "nan" }, { "--threshold", "nan", NULL }, { "--cosine", "nan", NULL },
    { "--cosine", "inf", NULL }, { "-t", "-inf", NULL }, { "-t", "-1", NULL },
  };

  memset (bytes, 7, 16 * 16 * 3);
  g_assert_true (g_file_set_contents (in, bytes, 16 * 16 * 3, NULL));
  {
    const char *a[] = { "run", net, "--dump", "A", NULL };
    const char *b[] = { "run", net, "--dump", "B", "--input", in, NULL };
    g_assert_cmpint (xrt_run_in (dir, &run, a), ==, 0);
    g_assert_cmpint (xrt_run_in (dir, &run, b), ==, 0);
  }
  {
    const char *args[] = { "report", "diff", "A", "B", NULL };
    g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 1);
    g_assert_nonnull (strstr (run.out, "First divergent value"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "report", "diff", "A", "B", bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL };
      g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 2);
      g_assert_nonnull (strstr (run.err, bad[i][2] ? "--threshold" : (bad[i][0][1] == 't' ? "--threshold"
                                                                                             : bad[i][0])));
      g_assert_nonnull (strstr (run.err, "finite"));
    }
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
    g_assert_cmpint (system (cmd), ==, 0);
  }
}

static const char profile_a[] =
  "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms\n"
  "1,icraft::xir::HardOpNode,a,1,0,1,0\n2,icraft::xir::HardOpNode,b,1,0,1,0\n3,icraft::xir::HardOpNode,c,1,0,1,0\n";
static const char profile_b10[] =
  "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms\n"
  "1,icraft::xir::HardOpNode,a,10,0,10,0\n2,icraft::xir::HardOpNode,b,10,0,10,0\n3,icraft::xir::HardOpNode,c,10,0,10,0\n";

/* `report compare --fail-on-regression --tolerance nan` (or --min-delta nan) passed a
 * profile where every op is 10x slower: a NaN turned the CI gate off. */
static void
test_compare_nan_tolerance (void)
{
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a.csv", NULL);
  g_autofree char *b = g_build_filename (dir, "b.csv", NULL);
  g_auto (ZwRun) run = { 0 };
  static const char *const bad[][2] = {
    { "--tolerance", "nan" }, { "--min-delta", "nan" }, { "--tolerance", "inf" }, { "--min-delta", "-inf" },
  };

  g_assert_true (g_file_set_contents (a, profile_a, -1, NULL));
  g_assert_true (g_file_set_contents (b, profile_b10, -1, NULL));
  {
    const char *args[] = { "report", "compare", a, b, "--fail-on-regression", NULL };
    g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 1);
    g_assert_nonnull (strstr (run.out, "regressions (ratio > "));
    g_assert_nonnull (strstr (run.out, " ms): 3, faster"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "report", "compare", a, b, "--fail-on-regression", bad[i][0], bad[i][1], NULL };
      g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 2);
      g_assert_nonnull (strstr (run.err, bad[i][0]));
      g_assert_nonnull (strstr (run.err, "finite"));
    }
  {
    const char *args[] = { "plan", "--buffers", a, "--time-limit", "nan", NULL };
    g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 2);
    g_assert_nonnull (strstr (run.err, "--time-limit"));
  }
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* A CSV profile with a header and one malformed row was read as a 0-row profile, while the
 * trace written from it was refused: now a malformed row is an error naming the file, the
 * line and the field, and an empty profile is refused alike in every format. */
static void
test_profile_one_rule (void)
{
  static const char *const cases[][3] = {
    { "bad.csv", "op_id,op_type,op_name,total_ms\n7,icraft::xir::HardOpNode,conv,zz\n", "bad.csv:2: op 7: field total_ms" },
    { "bad_time.txt", "op_id: 7, op_type: icraft::xir::HardOpNode, op_name: , total_time: 1, memcpy_time: 0, "
      "hard_time: x, other_time: 0\n", "bad_time.txt:1: op 7: field hard_time" },
    { "empty.csv", "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms\n", "empty.csv: no time profile in it" },
    { "empty.json", "{\"format\":\"zhuge-time-profile\",\"version\":1,\"rows\":[]}", "empty.json: no time profile in it" },
    { "empty_trace.json", "{\"traceEvents\":[]}", "empty_trace.json: no time profile in it" },
    { "empty_time.txt", "\n", "empty_time.txt: no time profile in it" },
  };
  g_autofree char *dir = g_dir_make_tmp ("zw-hostile-XXXXXX", NULL);
  g_auto (ZwRun) run = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, cases[i][0], NULL);
      g_autofree char *trace = g_build_filename (dir, "out_trace.json", NULL);
      g_autofree char *b = g_build_filename (dir, "b.csv", NULL);
      g_assert_true (g_file_set_contents (path, cases[i][1], -1, NULL));
      g_assert_true (g_file_set_contents (b, profile_b10, -1, NULL));
      {
        const char *args[] = { "report", "profile", path, "--to", "trace", "-o", trace, NULL };
        g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 1);
        g_assert_nonnull (strstr (run.err, cases[i][2]));
        g_assert_false (g_file_test (trace, G_FILE_TEST_EXISTS));
      }
      {
        /* and as a side of a comparison: refused, not "every op only in B" */
        const char *args[] = { "report", "compare", path, b, "--fail-on-regression", NULL };
        g_assert_cmpint (xrt_run_in (dir, &run, args), ==, 1);
        g_assert_nonnull (strstr (run.err, cases[i][2]));
      }
      g_unlink (path);
      g_unlink (b);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *p = g_strdup_printf ("/hostile/cli/%s/%s/%s", cases[i].argv[0], cases[i].harness, cases[i].name);
      g_test_add_data_func (p, &cases[i], test_case);
    }
  g_test_add_func ("/hostile/cli/report-stats/text-dump-claims-1e14-numbers", test_text_dump_claims_too_much);
  for (guint i = 0; i < G_N_ELEMENTS (snapshot_cases); i++)
    {
      g_autofree char *p = g_strdup_printf ("/hostile/cli/run-load-snapshot/%s", snapshot_cases[i][0]);
      g_test_add_data_func (p, snapshot_cases[i], test_snapshot);
    }
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      g_autofree char *p = g_strdup_printf ("/hostile/cli/not-a-regular-file/%s", readers[i].name);
      g_test_add_data_func (p, &readers[i], test_reader);
    }
  g_test_add_func ("/hostile/cli/report-diff/nan-thresholds-refused", test_diff_nan_thresholds);
  g_test_add_func ("/hostile/cli/report-compare/nan-tolerance-refused", test_compare_nan_tolerance);
  g_test_add_func ("/hostile/cli/report-profile/malformed-row-and-empty-one-rule", test_profile_one_rule);
  return g_test_run ();
}
