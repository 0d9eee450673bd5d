/* test-pipeline.c — several networks on one board (runtime/deploy/xrt-pipeline.h): a network
 * cut in two and joined on ETM gives the whole network's bytes, zero-copy or staged; networks
 * sharing FTMP give the bytes they give apart; the report's ETM is the checker's; every bad
 * file is refused naming the file, the table and the key; the CLI plans, runs and checks. */
#include "deploy/xrt-pipeline.h"
#include "report/zw-pipeline-check.h"
#include "report/zw-dump.h"
#include "report/zw-dump-diff.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
net_json (const char *name)
{
  if (strcmp (name, "real") == 0)
    return zw_test_shared_file ("real/yolov5s_plin_352x640_ZG.json");
  return g_strdup_printf ("%s/networks/%s_ZG.json", g_getenv ("ZW_DATA_DIR"), name);
}

/* A pipeline file in a temporary folder; returns its path. */
static char *
write_pipe (const char *dir, const char *text)
{
  g_autofree char *path = g_build_filename (dir, "pipe.toml", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  return g_steal_pointer (&path);
}

/* The file of @json cut at op @k: head [0, k), tail [k, end), every value the tail reads
 * from the head connected (by v_id), FTMP shared. */
static char *
split_text (const char *json, XirNetwork *net, gint k)
{
  g_autoptr (XirNetworkView) head = xir_network_view (net, 0, k, NULL);
  g_autoptr (XirNetworkView) tail = xir_network_view (net, k, G_MAXINT, NULL);
  GPtrArray *outs = xir_network_view_get_outputs (head), *ins = xir_network_view_get_inputs (tail);
  GString *s = g_string_new ("[pipeline]\nname = \"split\"\n\n");

  g_string_append_printf (s, "[network.head]\njson = \"%s\"\nops = [0, %d]\n\n", json, k);
  g_string_append_printf (s, "[network.tail]\njson = \"%s\"\nops = [%d]\n\n", json, k);
  g_string_append (s, "[share.ftmp]\nnetworks = [\"head\", \"tail\"]\nsegments = [\"FTMP\"]\n\n");
  for (guint i = 0; i < ins->len; i++)
    {
      XirValue *v = g_ptr_array_index (ins, i);
      g_assert_true (g_ptr_array_find (outs, v, NULL));
      g_string_append_printf (s, "[connect.v%" G_GINT64_FORMAT "]\nfrom = \"head\"\noutput_id = %" G_GINT64_FORMAT
                              "\nto = \"tail\"\ninput_id = %" G_GINT64_FORMAT "\n\n", v->v_id, v->v_id, v->v_id);
    }
  return g_string_free (s, FALSE);
}

static char *
digest_outputs (GPtrArray *tensors)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  for (guint i = 0; i < tensors->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) b = xrt_tensor_get_bytes (g_ptr_array_index (tensors, i), &error);
      gsize n;
      const guint8 *d;
      g_assert_no_error (error);
      d = g_bytes_get_data (b, &n);
      g_checksum_update (sum, d, (gssize) n);
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* The whole network, alone on its own board: the bytes a pass must give. */
static char *
whole_digest (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, &error);
  g_autoptr (XrtDeployment) d = NULL;
  g_autoptr (GPtrArray) in = NULL, out = NULL;
  g_autofree char *raw = xrt_deployment_params_path_for (json);

  g_assert_no_error (error);
  d = xrt_deployment_new (net, &error);
  if (g_file_test (raw, G_FILE_TEST_IS_REGULAR))
    g_assert_true (xrt_deployment_load_params (d, raw, 0, FALSE, &error));
  else
    xrt_deployment_use_synthetic_params (d);
  g_assert_true (xrt_deployment_open_board (d, NULL, &error));
  g_assert_true (xrt_deployment_apply (d, &error));
  in = xrt_deployment_make_inputs (d, 0, &error);
  g_assert_no_error (error);
  out = xrt_deployment_forward (d, in, &error);
  g_assert_no_error (error);
  return digest_outputs (out);
}

static void
check_report (XrtPipeline *p, ZwPipelineCheck *c)
{
  g_autoptr (GError) error = NULL;
  cJSON *root = xrt_pipeline_report_to_json (p, &error);

  g_assert_no_error (error);
  g_assert_true (zw_pipeline_report_check_json (root, "report", c, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "etm"), "board_bytes")), ==,
                     (double) c->etm_bytes);
  g_assert_cmpuint (c->n_networks, ==, xrt_pipeline_get_n_networks (p));
  cJSON_Delete (root);
}

static void
test_split (gconstpointer data)
{
  const char *name = data;
  g_autofree char *json = net_json (name);
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autoptr (XirNetwork) net = NULL;
  g_autofree char *whole = NULL, *text = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;

  if (json == NULL)
    {
      g_test_skip ("../shared/real is absent: the real network is not here");
      return;
    }
  net = xir_network_new_from_json_file (json, &error);
  g_assert_no_error (error);
  whole = whole_digest (json);
  text = split_text (json, net, (gint) xir_network_get_n_ops (net) / 2);
  path = write_pipe (dir, text);
  for (int staged = 0; staged < 2; staged++)
    {
      g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
      g_autoptr (GPtrArray) outs = NULL;
      g_autofree char *got = NULL;
      ZwPipelineCheck c;

      g_assert_no_error (error);
      g_assert_cmpuint (xrt_pipeline_get_n_networks (p), ==, 2);
      g_assert_cmpstr (xrt_pipeline_get_network_name (p, 0), ==, "head");
      if (staged)
        xrt_pipeline_force_staged (p);
      g_assert_true (xrt_pipeline_apply (p, NULL, &error));
      g_assert_no_error (error);
      xrt_pipeline_enable_time_profile (p, TRUE);
      outs = xrt_pipeline_forward (p, 0, &error);
      g_assert_no_error (error);
      got = digest_outputs (g_ptr_array_index (outs, 1));
      g_assert_cmpstr (got, ==, whole);
      check_report (p, &c);
      g_assert_cmpuint (c.n_shared, ==, 1);
      g_assert_cmpuint (c.n_connections, >, 0);
      if (staged)
        g_assert_cmpuint (c.n_zero_copy, ==, 0);
      g_test_message ("%s cut in two%s: %u connection(s), %u zero-copy; board ETM %" G_GUINT64_FORMAT
                      " bytes, apart %" G_GUINT64_FORMAT, name, staged ? " (staged)" : "", c.n_connections,
                      c.n_zero_copy, c.etm_bytes, c.apart_bytes);
    }
}

/* Two different networks sharing FTMP in turn: each gives the bytes it gives alone, and
 * the board holds one FTMP instead of two. */
static void
test_apart (void)
{
  g_autofree char *a = net_json ("tiny"), *b = net_json ("mobilenetv2");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autofree char *text = g_strdup_printf ("[network.tiny]\njson = \"%s\"\n\n[network.mobile]\njson = \"%s\"\n\n"
                                           "[share.f]\nnetworks = [\"tiny\", \"mobile\"]\nsegments = [\"FTMP\"]\n", a, b);
  g_autofree char *path = write_pipe (dir, text);
  g_autofree char *da = whole_digest (a), *db = whole_digest (b);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
  g_autoptr (GPtrArray) outs = NULL;
  g_autofree char *ga = NULL, *gb = NULL;
  ZwPipelineCheck c;

  g_assert_no_error (error);
  g_assert_cmpstr (xrt_pipeline_get_name (p), ==, "pipe");
  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  g_assert_no_error (error);
  outs = xrt_pipeline_forward (p, 0, &error);
  g_assert_no_error (error);
  ga = digest_outputs (g_ptr_array_index (outs, 0));
  gb = digest_outputs (g_ptr_array_index (outs, 1));
  g_assert_cmpstr (ga, ==, da);
  g_assert_cmpstr (gb, ==, db);
  check_report (p, &c);
  /* one FTMP for two: the board takes less than the two apart */
  g_assert_cmpuint (c.etm_bytes, <, c.apart_bytes);
}

/* One network alone: its ETM on the pipeline's board is what it takes apart. */
static void
test_single (void)
{
  g_autofree char *a = net_json ("resnet18");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autofree char *text = g_strdup_printf ("[network.only]\njson = \"%s\"\nocmopt = \"NONE\"\n", a);
  g_autofree char *path = write_pipe (dir, text);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
  ZwPipelineCheck c;

  g_assert_no_error (error);
  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  check_report (p, &c);
  g_assert_cmpuint (c.etm_bytes, ==, c.apart_bytes);
  g_assert_cmpuint (c.etm_bytes, >, 0);
}

typedef struct {
  const char *what;
  const char *text;       /* %1$s: tiny, %2$s: mobilenetv2 */
  const char *expect[3];  /* substrings of the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "different sizes",
    "[network.a]\njson = \"%1$s\"\n[network.b]\njson = \"%2$s\"\n[connect.c]\nfrom = \"a\"\noutput = 0\nto = \"b\"\ninput = 0\n",
    { "[connect.c]", "input", "different sizes" } },
  { "FTMP shared in flight",
    "[network.a]\njson = \"%1$s\"\nstage = 0\n[network.b]\njson = \"%2$s\"\nstage = 0\n"
    "[share.s]\nnetworks = [\"a\", \"b\"]\nsegments = [\"FTMP\"]\n",
    { "[share.s]", "segments", "in flight together" } },
  { "a cycle",
    "[network.a]\njson = \"%1$s\"\n[network.b]\njson = \"%1$s\"\n"
    "[connect.x]\nfrom = \"a\"\noutput = 0\nto = \"b\"\ninput = 0\n[connect.y]\nfrom = \"b\"\noutput = 0\nto = \"a\"\ninput = 0\n",
    { "[connect.", "from", "cycle" } },
  { "a missing network",
    "[network.a]\njson = \"%1$s\"\n[connect.x]\nfrom = \"a\"\noutput = 0\nto = \"nobody\"\ninput = 0\n",
    { "[connect.x]", "to", "\"nobody\" is not a network" } },
  { "a repeated name",
    "[network.a]\njson = \"%1$s\"\n[network.a]\njson = \"%2$s\"\n",
    { "[network.a]", "given twice", "repeated name" } },
  { "a missing json",
    "[network.a]\njson = \"/nonexistent/net_ZG.json\"\n",
    { "[network.a]", "json", "nonexistent" } },
  { "an unknown key",
    "[network.a]\njson = \"%1$s\"\nocm = \"BEST_SCORE\"\n",
    { "[network.a]", "ocm", "unknown key" } },
  { "a wrong type",
    "[network.a]\njson = \"%1$s\"\nstage = \"first\"\n",
    { "[network.a]", "stage", "expected an integer" } },
  { "arrays of tables",
    "[[network]]\njson = \"%1$s\"\n",
    { "pipe.toml:1", "[[", "[network.NAME]" } },
  { "a bad OCM option",
    "[network.a]\njson = \"%1$s\"\nocmopt = \"OPTION9\"\n",
    { "[network.a]", "ocmopt", "OPTION9" } },
  { "WEIGHT across networks",
    "[network.a]\njson = \"%1$s\"\n[network.b]\njson = \"%2$s\"\n[share.w]\nnetworks = [\"a\", \"b\"]\nsegments = [\"WEIGHT\"]\n",
    { "[share.w]", "segments", "WEIGHT and INSTR" } },
  { "an output past the view's",
    "[network.a]\njson = \"%1$s\"\n[network.b]\njson = \"%1$s\"\n[connect.c]\nfrom = \"a\"\noutput = 7\nto = \"b\"\ninput = 0\n",
    { "[connect.c]", "output", "has 1 outputs" } },
  { "a stage against a connection",
    "[network.a]\njson = \"%1$s\"\nstage = 3\n[network.b]\njson = \"%1$s\"\nstage = 1\n"
    "[connect.c]\nfrom = \"a\"\noutput = 0\nto = \"b\"\ninput = 0\n",
    { "[connect.c]", "to", "later stage" } },
  { "no network", "[pipeline]\nname = \"empty\"\n", { "pipe.toml", "no network", "[network.NAME]" } },
  { "an unterminated string", "[network.a]\njson = \"%1$s\n", { "[network.a]", "json", "closing quote" } },
};

static void
test_bad_files (void)
{
  g_autofree char *a = net_json ("tiny"), *b = net_json ("mobilenetv2");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");

  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      g_autofree char *path = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (XrtPipeline) p = NULL;
      const char *t = bad_cases[i].text;

      /* %1$s and %2$s by hand: a format from a table is not a literal */
      for (; *t; t++)
        if (g_str_has_prefix (t, "%1$s") || g_str_has_prefix (t, "%2$s"))
          {
            g_string_append (text, t[1] == '1' ? a : b);
            t += 3;
          }
        else
          g_string_append_c (text, *t);
      path = write_pipe (dir, text->str);
      p = xrt_pipeline_new_from_file (path, &error);
      g_assert_null (p);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", bad_cases[i].what, error->message);
      g_assert_nonnull (strstr (error->message, "pipe.toml"));
      for (guint k = 0; k < 3; k++)
        if (strstr (error->message, bad_cases[i].expect[k]) == NULL)
          g_error ("%s: \"%s\" lacks \"%s\"", bad_cases[i].what, error->message, bad_cases[i].expect[k]);
    }
}

/* The checker does not take the report's word: moved addresses and figures are caught. */
static void
test_check_catches (void)
{
  g_autofree char *json = net_json ("tiny");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
  g_autofree char *text = split_text (json, net, 2);
  g_autofree char *path = write_pipe (dir, text);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
  cJSON *root, *bad;

  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  root = xrt_pipeline_report_to_json (p, &error);
  g_assert_true (zw_pipeline_report_check_json (root, "r", NULL, &error));

  bad = cJSON_Duplicate (root, TRUE);
  cJSON_SetNumberValue (cJSON_GetObjectItem (cJSON_GetObjectItem (bad, "etm"), "board_bytes"),
                        cJSON_GetNumberValue (cJSON_GetObjectItem (cJSON_GetObjectItem (bad, "etm"), "board_bytes")) + 4096);
  g_assert_false (zw_pipeline_report_check_json (bad, "r", NULL, &error));
  g_assert_nonnull (strstr (error->message, "board_bytes"));
  g_clear_error (&error);
  cJSON_Delete (bad);

  bad = cJSON_Duplicate (root, TRUE);
  {
    cJSON *c = cJSON_GetArrayItem (cJSON_GetObjectItem (bad, "connections"), 0);
    cJSON_SetNumberValue (cJSON_GetObjectItem (c, "addr"), cJSON_GetNumberValue (cJSON_GetObjectItem (c, "addr")) + 4096);
  }
  g_assert_false (zw_pipeline_report_check_json (bad, "r", NULL, &error));
  g_assert_nonnull (strstr (error->message, "connection \"v"));
  g_clear_error (&error);
  cJSON_Delete (bad);

  /* the tail's WEIGHT said to lie in the head's: two networks on the same bytes */
  bad = cJSON_Duplicate (root, TRUE);
  {
    cJSON *nets = cJSON_GetObjectItem (bad, "networks");
    cJSON *hs = cJSON_GetArrayItem (cJSON_GetObjectItem (cJSON_GetObjectItem (cJSON_GetArrayItem (nets, 0), "report"), "segments"), 0);
    cJSON *ts = cJSON_GetArrayItem (cJSON_GetObjectItem (cJSON_GetObjectItem (cJSON_GetArrayItem (nets, 1), "report"), "segments"), 0);
    g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (ts, "type")), ==, "WEIGHT");
    cJSON_SetNumberValue (cJSON_GetObjectItem (ts, "phy_addr"), cJSON_GetNumberValue (cJSON_GetObjectItem (hs, "phy_addr")));
  }
  g_assert_false (zw_pipeline_report_check_json (bad, "r", NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "network \"tail\""));
  g_clear_error (&error);
  cJSON_Delete (bad);
  cJSON_Delete (root);
}

static void
test_call_order (void)
{
  g_autofree char *json = net_json ("tiny");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autofree char *text = g_strdup_printf ("[network.a]\njson = \"%s\"\n", json);
  g_autofree char *path = write_pipe (dir, text);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);

  g_assert_null (xrt_pipeline_forward (p, 0, &error));
  g_assert_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_null (xrt_pipeline_report_to_json (p, &error));
  g_assert_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  g_assert_false (xrt_pipeline_apply (p, NULL, &error));
  g_assert_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_CALL_ORDER);
}

static void
test_cli (void)
{
  g_autofree char *json = net_json ("yolov5s");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
  g_autofree char *text = split_text (json, net, 2);
  g_autofree char *path = write_pipe (dir, text);
  g_autofree char *report = g_build_filename (dir, "report.json", NULL);
  g_autofree char *dumps = g_build_filename (dir, "dumps", NULL);
  g_autofree char *dumped = g_build_filename (dumps, "manifest.json", NULL);
  g_auto (ZwRun) plan = { 0 }, run = { 0 }, check = { 0 }, bad = { 0 };

  zw_test_xrt_run (&plan, "plan", path, "--json", report, NULL);
  g_assert_cmpint (plan.status, ==, 0);
  g_assert_nonnull (strstr (plan.out, "zero-copy / zero-copy"));
  g_assert_nonnull (strstr (plan.out, "deployed apart"));
  zw_test_xrt_run (&check, "check", report, NULL);
  g_assert_cmpint (check.status, ==, 0);
  g_assert_nonnull (strstr (check.out, "OK — 2 networks"));
  zw_test_xrt_run (&run, "run", path, "--profile", "--dump", dumps, "--iterations", "2", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "One pass:"));
  g_assert_true (g_file_test (dumped, G_FILE_TEST_IS_REGULAR));
  {
    /* one folder for the pipeline: NET.V_ID.ftmp, one manifest naming each value's network,
     * no part folder left */
    g_autoptr (GError) error = NULL;
    g_autoptr (ZwDumpFolder) folder = zw_dump_folder_load (dumps, NULL, NULL, &error);
    g_autoptr (GDir) d = g_dir_open (dumps, 0, NULL);
    guint per[2] = { 0, 0 };
    const char *name;
    g_assert_no_error (error);
    g_assert_cmpuint (folder->warnings->len, ==, 0);
    for (guint i = 0; i < folder->values->len; i++)
      {
        const ZwDumpData *v = g_ptr_array_index (folder->values, i);
        g_autofree char *base = g_path_get_basename (v->path);
        g_autofree char *want = g_strdup_printf ("%s.%" G_GINT64_FORMAT ".ftmp", v->network, v->v_id);
        g_assert_nonnull (v->network);
        g_assert_cmpstr (base, ==, want);
        per[g_str_equal (v->network, "tail")]++;
        /* head's values first (pass order), then tail's */
        if (i > 0)
          g_assert_true (!g_str_equal (v->network, "head")
                         || g_str_equal (((ZwDumpData *) g_ptr_array_index (folder->values, i - 1))->network, "head"));
      }
    g_assert_cmpuint (per[0], >, 0);
    g_assert_cmpuint (per[1], >, 0);
    while ((name = g_dir_read_name (d)) != NULL)
      g_assert_true (g_str_has_suffix (name, ".ftmp") || g_str_equal (name, "manifest.json"));
  }
  zw_test_xrt_run (&bad, "plan", path, "--profile", NULL);
  g_assert_cmpint (bad.status, ==, 2);
}

/* The options swept jointly: every point checked, the front non-dominated, the same points
 * twice over. */
static void
test_sweep (void)
{
  g_autofree char *json = net_json ("tiny");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-XXXXXX");
  g_autoptr (XirNetwork) net = xir_network_new_from_json_file (json, NULL);
  g_autofree char *text = split_text (json, net, 3);
  g_autofree char *path = write_pipe (dir, text);
  g_autofree char *out = g_build_filename (dir, "sweep.json", NULL);
  g_autofree char *first = NULL, *second = NULL;
  g_auto (ZwRun) run = { 0 }, again = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) points = xrt_pipeline_sweep (path, NULL, &error);
  guint n_front = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (points->len, ==, 4 * zw_ocm_opt_get_count ());
  for (guint i = 0; i < points->len; i++)
    {
      const XrtPipelinePoint *a = &g_array_index (points, XrtPipelinePoint, i);
      g_assert_true (a->ok);
      g_assert_cmpfloat (a->pass_ms, >, 0);
      n_front += a->front;
      for (guint j = 0; a->front && j < points->len; j++)
        {
          const XrtPipelinePoint *b = &g_array_index (points, XrtPipelinePoint, j);
          g_assert_false (b->pass_ms < a->pass_ms && b->board_bytes < a->board_bytes);
        }
    }
  g_assert_cmpuint (n_front, >, 0);
  zw_test_xrt_run (&run, "sweep", path, "--json", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &first, NULL, NULL));
  zw_test_xrt_run (&again, "sweep", path, "--json", out, NULL);
  g_assert_true (g_file_get_contents (out, &second, NULL, NULL));
  g_assert_cmpstr (first, ==, second);
  g_assert_nonnull (strstr (first, "\"front\":\ttrue"));
}

/* The demo's pass dumped twice into one folder each: every value by network and v_id (v_ids
 * repeat across networks), each network's values typed by its own entries, and the two
 * dumps diffed value for value — every value of every network compared and equal. */
static void
dump_demo (const char *dir, gboolean staged)
{
  g_autofree char *path = g_strdup_printf ("%s/networks/yolov5s_pipeline.toml", g_getenv ("ZW_DATA_DIR"));
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
  g_autoptr (GPtrArray) outs = NULL;

  g_assert_no_error (error);
  if (staged)
    xrt_pipeline_force_staged (p);
  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  g_assert_true (xrt_pipeline_set_dump (p, dir, "SQB", &error));
  outs = xrt_pipeline_forward (p, 0, &error);
  g_assert_no_error (error);
}

static void
test_dump_diff (void)
{
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-pipe-dump-XXXXXX");
  g_autofree char *a = g_build_filename (dir, "a", NULL);
  g_autofree char *b = g_build_filename (dir, "b", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpFolder) fa = NULL;
  g_autoptr (ZwDumpDiff) diff = NULL;
  g_autoptr (GHashTable) nets_of_vid = g_hash_table_new (g_int64_hash, g_int64_equal);
  gboolean repeated = FALSE;

  dump_demo (a, FALSE);
  /* every connection staged: the same values */
  dump_demo (b, TRUE);
  fa = zw_dump_folder_load (a, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fa->warnings->len, ==, 0);
  for (guint i = 0; i < fa->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (fa->values, i);
      const char *other = g_hash_table_lookup (nets_of_vid, &d->v_id);
      g_assert_nonnull (d->network);
      if (other != NULL && !g_str_equal (other, d->network))
        repeated = TRUE;
      g_hash_table_insert (nets_of_vid, (gpointer) &d->v_id, d->network);
    }
  /* backbone's and tiny's input is v_id 0 in both: only the network tells them apart */
  g_assert_true (repeated);
  diff = zw_dump_diff_folders (a, b, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (diff->entries->len, ==, fa->values->len);
  for (guint i = 0; i < diff->entries->len; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (diff->entries, i);
      g_assert_nonnull (e->network);
      if (e->status != ZW_DUMP_DIFF_COMPARED || e->n_differ != 0)
        g_error ("%s:%" G_GINT64_FORMAT ": %s, %" G_GUINT64_FORMAT " elements differ", e->network, e->v_id,
                 zw_dump_diff_status_to_string (e->status), e->n_differ);
    }
  {
    /* the workbench diffs with the network it has open: a pipeline's values keep their own */
    g_autofree char *yolo = net_json ("yolov5s");
    g_autoptr (XirNetwork) net = xir_network_new_from_json_file (yolo, NULL);
    g_autoptr (ZwDumpDiff) with_net = zw_dump_diff_folders (a, b, net, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (with_net->entries->len, ==, fa->values->len);
    g_assert_cmpuint (with_net->warnings->len, ==, 0);
    g_assert_cmpuint (with_net->n_compared, ==, fa->values->len);
  }
  zw_test_remove_tree (a);
  zw_test_remove_tree (b);
  g_rmdir (dir);
}

/* The demo pipeline as installed: the detector cut in three around its host op gives the
 * whole detector's bytes, the tiny network its own, and sharing and connecting save ETM. */
static void
test_demo (void)
{
  g_autofree char *path = g_strdup_printf ("%s/networks/yolov5s_pipeline.toml", g_getenv ("ZW_DATA_DIR"));
  g_autofree char *yolo = net_json ("yolov5s"), *tiny = net_json ("tiny");
  g_autofree char *dy = whole_digest (yolo), *dt = whole_digest (tiny);
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtPipeline) p = xrt_pipeline_new_from_file (path, &error);
  g_autoptr (GPtrArray) outs = NULL;
  g_autofree char *gy = NULL, *gt = NULL;
  cJSON *root, *it;
  ZwPipelineCheck c;
  guint zero = 0, host = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (xrt_pipeline_get_n_networks (p), ==, 4);
  g_assert_cmpstr (xrt_pipeline_get_network_name (p, 2), ==, "post");
  g_assert_true (xrt_pipeline_apply (p, NULL, &error));
  g_assert_no_error (error);
  xrt_pipeline_enable_time_profile (p, TRUE);
  outs = xrt_pipeline_forward (p, 0, &error);
  g_assert_no_error (error);
  gy = digest_outputs (g_ptr_array_index (outs, 2));
  gt = digest_outputs (g_ptr_array_index (outs, 3));
  g_assert_cmpstr (gy, ==, dy);
  g_assert_cmpstr (gt, ==, dt);
  check_report (p, &c);
  g_assert_cmpuint (c.etm_bytes, <, c.apart_bytes);
  root = xrt_pipeline_report_to_json (p, &error);
  cJSON_ArrayForEach (it, cJSON_GetObjectItem (root, "connections"))
    {
      const char *mode = cJSON_GetStringValue (cJSON_GetObjectItem (it, "from_mode"));
      zero += g_str_equal (mode, "zero-copy");
      host += g_str_equal (mode, "host");
    }
  g_assert_cmpuint (zero, ==, 3);
  g_assert_cmpuint (host, ==, 3);
  g_assert_cmpfloat (cJSON_GetNumberValue (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "time"), "pass_ms")), >, 0);
  g_test_message ("demo pipeline: board ETM %" G_GUINT64_FORMAT ", apart %" G_GUINT64_FORMAT ", one pass %.3f ms",
                  c.etm_bytes, c.apart_bytes,
                  cJSON_GetNumberValue (cJSON_GetObjectItem (cJSON_GetObjectItem (root, "time"), "pass_ms")));
  cJSON_Delete (root);
}

/* A network that passes its one input through (Input -> Output, host ops only) whose input
 * is @from's output: written into @dir as pass_ZG.json (the case where networks opened
 * together are connected). */
static char *
write_pass_network (const char *from, const char *dir)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  cJSON *root, *ops, *in_op = NULL, *out_op = NULL, *value, *item;
  char *printed;
  char *path = g_build_filename (dir, "pass_ZG.json", NULL);

  g_assert_true (g_file_get_contents (from, &text, NULL, &error));
  root = cJSON_Parse (text);
  ops = cJSON_GetObjectItemCaseSensitive (root, "ops");
  cJSON_ArrayForEach (item, ops)
    {
      const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "_type_key"));
      if (g_strcmp0 (type, "icraft::xir::Input") == 0 && in_op == NULL)
        in_op = cJSON_Duplicate (item, TRUE);
      if (g_strcmp0 (type, "icraft::xir::Output") == 0)
        out_op = cJSON_Duplicate (item, TRUE);
    }
  g_assert_nonnull (in_op);
  g_assert_nonnull (out_op);
  value = cJSON_Duplicate (cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (out_op, "inputs"), 0), TRUE);
  cJSON_ReplaceItemInObject (value, "v_id", cJSON_CreateNumber (0));
  cJSON_ReplaceItemInObject (value, "mtype", cJSON_CreateString ("@chunk(0@0)"));
  cJSON_ReplaceItemInObject (in_op, "op_id", cJSON_CreateNumber (0));
  cJSON_ReplaceItemInObject (in_op, "outputs", cJSON_CreateArray ());
  cJSON_AddItemToArray (cJSON_GetObjectItemCaseSensitive (in_op, "outputs"), cJSON_Duplicate (value, TRUE));
  cJSON_ReplaceItemInObject (out_op, "op_id", cJSON_CreateNumber (1));
  cJSON_ReplaceItemInObject (out_op, "inputs", cJSON_CreateArray ());
  cJSON_AddItemToArray (cJSON_GetObjectItemCaseSensitive (out_op, "inputs"), value);
  ops = cJSON_CreateArray ();
  cJSON_AddItemToArray (ops, in_op);
  cJSON_AddItemToArray (ops, out_op);
  cJSON_ReplaceItemInObject (root, "ops", ops);
  cJSON_ReplaceItemInObject (root, "name", cJSON_CreateString ("pass"));
  cJSON_ReplaceItemInObject (root, "params_bytes", cJSON_CreateNumber (0));
  cJSON_ReplaceItemInObject (root, "params_md5", cJSON_CreateString (""));
  printed = cJSON_Print (root);
  g_assert_true (g_file_set_contents (path, printed, -1, &error));
  cJSON_free (printed);
  cJSON_Delete (root);
  return path;
}

/* Networks opened together (xrt_pipeline_compose): every ordered pair of three demo
 * networks and one network twice; the text reads back as a pipeline of those networks in
 * that order, with absolute json paths, unique names, no share, and a connection by
 * position exactly when the first's outputs are the second's inputs by shape and bytes. */
static void
test_compose (void)
{
  static const char *const names[] = { "tiny", "twoin", "mobilenetv2" };
  g_autofree char *origin = g_build_filename (g_get_tmp_dir (), "composed.toml", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint j = 0; j < G_N_ELEMENTS (names); j++)
      {
        g_autofree char *a = net_json (names[i]);
        g_autofree char *b = net_json (names[j]);
        const char *paths[] = { a, b, NULL };
        g_autoptr (GError) error = NULL;
        g_autofree char *text = xrt_pipeline_compose (paths, NULL, &error);
        g_autoptr (XrtPipeline) pipe = NULL;
        g_autoptr (XirNetwork) na = NULL, nb = NULL;
        g_autoptr (XirNetworkView) va = NULL, vb = NULL;
        GPtrArray *outs, *ins;
        gboolean feeds;
        g_autofree char *second = g_strdup_printf (i == j ? "%s_2" : "%s", names[j]);

        g_assert_no_error (error);
        g_assert_nonnull (strstr (text, "[network."));
        g_assert_null (strstr (text, "[share."));
        pipe = xrt_pipeline_new_from_data (text, strlen (text), origin, TRUE, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (xrt_pipeline_get_n_networks (pipe), ==, 2);
        g_assert_cmpstr (xrt_pipeline_get_network_name (pipe, 0), ==, names[i]);
        g_assert_cmpstr (xrt_pipeline_get_network_name (pipe, 1), ==, second);
        g_assert_true (g_path_is_absolute (strstr (text, "json = \"") + strlen ("json = \"")));
        /* the rule, read again here */
        na = xir_network_new_from_json_file (a, &error);
        nb = xir_network_new_from_json_file (b, &error);
        g_assert_no_error (error);
        va = xir_network_view (na, 0, G_MAXINT, &error);
        vb = xir_network_view (nb, 0, G_MAXINT, &error);
        outs = xir_network_view_get_outputs (va);
        ins = xir_network_view_get_inputs (vb);
        feeds = outs->len > 0 && outs->len == ins->len;
        for (guint k = 0; feeds && k < outs->len; k++)
          {
            const XirValue *o = g_ptr_array_index (outs, k), *in = g_ptr_array_index (ins, k);
            feeds = o->rank == in->rank && o->storage_bytes == in->storage_bytes
                    && memcmp (o->shape, in->shape, sizeof (gint64) * o->rank) == 0;
          }
        g_test_message ("%s then %s: %s", names[i], names[j], feeds ? "connected" : "apart");
        g_assert_cmpint (strstr (text, "[connect.") != NULL, ==, feeds);
      }
  /* outputs that are the next one's inputs: connected by position, and the pass moves
   * the bytes (the pass-through network gives tiny's output) */
  {
    g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("pipeline-compose-XXXXXX");
    g_autofree char *tiny = net_json ("tiny");
    g_autofree char *pass = write_pass_network (tiny, dir);
    const char *paths[] = { tiny, pass, NULL };
    g_autoptr (GError) error = NULL;
    g_autofree char *text = xrt_pipeline_compose (paths, "joined", &error);
    g_autofree char *whole = whole_digest (tiny);
    g_autofree char *got = NULL;
    g_autoptr (XrtPipeline) pipe = NULL;
    g_autoptr (GPtrArray) outs = NULL;

    g_assert_no_error (error);
    g_assert_nonnull (strstr (text, "name = \"joined\""));
    g_assert_nonnull (strstr (text, "[connect.tiny_to_pass_0]\nfrom = \"tiny\"\noutput = 0\nto = \"pass\"\ninput = 0\n"));
    pipe = xrt_pipeline_new_from_data (text, strlen (text), origin, TRUE, &error);
    g_assert_no_error (error);
    g_assert_true (xrt_pipeline_apply (pipe, NULL, &error));
    g_assert_no_error (error);
    outs = xrt_pipeline_forward (pipe, 0, &error);
    g_assert_no_error (error);
    got = digest_outputs (g_ptr_array_index (outs, 1));
    g_assert_cmpstr (got, ==, whole);
    g_unlink (pass);
    g_rmdir (dir);
  }
  /* a network that cannot be read is named */
  {
    const char *paths[] = { "/nonexistent/x_ZG.json", NULL };
    g_autoptr (GError) error = NULL;
    g_autofree char *text = xrt_pipeline_compose (paths, NULL, &error);
    g_assert_null (text);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "/nonexistent/x_ZG.json"));
  }
}

int
main (int argc, char **argv)
{
  static const char *const nets[] = { "tiny", "mobilenetv2", "resnet18", "yolov5s", "real" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *name = g_strdup_printf ("/pipeline/split-equals-whole/%s", nets[i]);
      g_test_add_data_func (name, nets[i], test_split);
    }
  g_test_add_func ("/pipeline/networks-apart", test_apart);
  g_test_add_func ("/pipeline/single-network", test_single);
  g_test_add_func ("/pipeline/bad-files", test_bad_files);
  g_test_add_func ("/pipeline/check-catches", test_check_catches);
  g_test_add_func ("/pipeline/call-order", test_call_order);
  g_test_add_func ("/pipeline/cli", test_cli);
  g_test_add_func ("/pipeline/demo", test_demo);
  g_test_add_func ("/pipeline/dump-by-network-diffed-zero-copy-vs-staged", test_dump_diff);
  g_test_add_func ("/pipeline/sweep", test_sweep);
  g_test_add_func ("/pipeline/compose-networks-opened-together", test_compose);
  return g_test_run ();
}
