/* test-hostile.c — the hostile inputs of issue 12 through the normal CLI: each ends in a
 * clear error (exit 1) naming the file and the field, never a crash or an abort. The inputs
 * are those of the regression corpus (tests/fuzz/corpus), copied to a scratch folder under
 * the names a user would give them. */
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

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
};

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
  return g_test_run ();
}
