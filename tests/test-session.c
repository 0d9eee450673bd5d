/* test-session — Session on the simulated board: forward under every option combination,
 * stepTo, sub, forward into caller outputs, snapshot, fork, dumps, time profile, logs. */
#include "kernels/zg330-kernels.h"
#include "report/zw-deploy-check.h"
#include "report/zw-dump.h"
#include "report/zw-profile.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>


static XrtSession *
new_session (XirNetwork *net, XrtDevice *dev, gboolean merge, gboolean etm, ZwOcmOpt ocm)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  XrtSession *s = xrt_session_new (view, types, devs, 2, &error);

  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, etm, ocm, &error));
  g_assert_true (xrt_session_apply (s, &error));
  g_assert_no_error (error);
  return s;
}

static char *
digest (GPtrArray *tensors)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_MD5);
  char *out;

  for (guint k = 0; k < tensors->len; k++)
    {
      g_autofree guint8 *b = xrt_tensor_dup_bytes (g_ptr_array_index (tensors, k), NULL);
      g_checksum_update (sum, b, xrt_tensor_get_size (g_ptr_array_index (tensors, k)));
    }
  out = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return out;
}

static gboolean
quick (void)
{
  return g_getenv ("ZW_TEST_QUICK") != NULL;
}

static void
test_all_combinations (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autofree char *reference = NULL;
  guint runs = 0;

  if (net == NULL)
    return;
  dev = zw_test_open_device ("mock://zg330");
  inputs = zw_test_seeded_inputs (net, 17);
  for (int merge = 1; merge >= 0; merge--)
    for (int etm = 1; etm >= 0; etm--)
      for (guint row = 0; row < zw_ocm_opt_get_count (); row++)
        {
          ZwOcmOpt ocm = zw_ocm_opt_get_nth (row);
          g_autoptr (XrtSession) s = NULL;
          g_autoptr (GPtrArray) outs = NULL;
          g_autoptr (GError) error = NULL;
          g_autofree char *d = NULL;

          if (quick () && g_strcmp0 (name, "tiny") != 0 && !(etm && (ocm == ZW_OCM_NONE || ocm == ZW_OCM_BEST_SCORE)))
            continue;
          s = new_session (net, dev, merge, etm, ocm);
          outs = xrt_session_forward (s, inputs, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (outs->len, ==, xir_network_get_outputs (net)->len);
          d = digest (outs);
          if (reference == NULL)
            reference = g_strdup (d);
          else if (strcmp (d, reference) != 0)
            g_error ("%s merge=%d etm=%d ocm=%s: outputs differ", name, merge, etm, zw_ocm_opt_to_string (ocm));
          runs++;
        }
  g_test_message ("%s: %u option combinations, bit-identical outputs", name, runs);
}

static void
test_step_to_and_sub (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, FALSE, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 3);
  g_autoptr (GPtrArray) whole = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *want = NULL;
  GArray *fw = xrt_session_get_forwards (s);
  const XirOp *last_hard = NULL;

  whole = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  want = digest (whole);

  /* stepTo every op in turn: the last step's outputs are the network's */
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      const XirOp *op = xir_network_get_op (net, i);
      g_autoptr (GPtrArray) outs = xrt_session_step_to (s, op->op_id, i == 0 ? inputs : NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (outs->len, ==, op->outputs->len);
      if (op->kind == XIR_OP_HARDOP)
        last_hard = op;
    }
  g_assert_nonnull (last_hard);
  {
    /* a hardop's output by stepTo equals what the full forward left for its consumer */
    g_autoptr (GPtrArray) a = xrt_session_step_to (s, last_hard->op_id, inputs, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (a->len, ==, 1);
  }
  g_assert_null (xrt_session_step_to (s, 987654, inputs, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP);
  g_clear_error (&error);

  /* sub: the first half then the second half give the whole network's outputs */
  {
    gint split = -1;
    for (guint i = 0; i < fw->len && split < 0; i++)
      if (g_array_index (fw, XrtForward, i).first_index >= xir_network_get_n_ops (net) / 2)
        split = (gint) g_array_index (fw, XrtForward, i).first_index;
    g_autoptr (XrtSession) a = xrt_session_sub (s, 0, split, &error);
    g_assert_no_error (error);
    g_autoptr (XrtSession) b = xrt_session_sub (s, split, G_MAXINT, &error);
    g_assert_no_error (error);
    g_autoptr (GPtrArray) mid = xrt_session_forward (a, inputs, &error);
    g_assert_no_error (error);
    g_autoptr (GPtrArray) end = xrt_session_forward (b, mid, &error);
    g_assert_no_error (error);
    g_autofree char *got = digest (end);
    g_assert_cmpstr (got, ==, want);
  }
  /* a range that splits a merged launch is refused */
  {
    g_autoptr (XrtSession) m = new_session (net, dev, TRUE, TRUE, ZW_OCM_NONE);
    g_autoptr (XrtSession) bad = xrt_session_sub (m, 0, 5, &error);
    g_assert_null (bad);
    g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_OP);
  }
}

static void
test_forward_into_ring (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 4);
  g_autoptr (GPtrArray) ref = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *values = xir_network_get_outputs (net);
  XrtMemRegion *etm = xrt_device_get_default_mem_region (dev);
  g_autofree char *want = NULL;

  ref = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  want = digest (ref);
  /* a ring of two output buffers in ETM, as the manual's §1.3.2 */
  for (int ring = 0; ring < 2; ring++)
    {
      g_autoptr (GPtrArray) outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
      g_autofree char *got = NULL;
      for (guint k = 0; k < values->len; k++)
        {
          const XirValue *v = g_ptr_array_index (values, k);
          g_autoptr (XrtMemChunk) c = xrt_mem_region_malloc (etm, v->storage_bytes, TRUE, 4096, &error);
          g_ptr_array_add (outs, xrt_tensor_new (net, v, c, 0, &error));
        }
      g_assert_true (xrt_session_forward_into (s, inputs, outs, &error));
      g_assert_no_error (error);
      got = digest (outs);
      g_assert_cmpstr (got, ==, want);
    }
  /* wrong number of outputs */
  {
    g_autoptr (GPtrArray) none = g_ptr_array_new ();
    g_assert_false (xrt_session_forward_into (s, inputs, none, &error));
    g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS);
  }
}

static void
test_snapshot_round_trip (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("resnet18");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtDevice) dev2 = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_OPTION2);
  g_autoptr (XrtSession) r = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 5);
  g_autoptr (GPtrArray) a = NULL, b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-snap-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "net.snapshot", NULL);
  g_autofree char *da = NULL, *db = NULL, *text = NULL;
  gsize len;

  a = xrt_session_forward (s, inputs, &error);
  g_assert_true (xrt_session_dump_snapshot (s, path, &error));
  g_assert_no_error (error);
  r = xrt_session_new_from_snapshot (path, net, dev2, &error);
  g_assert_no_error (error);
  g_assert_cmpint (zg330_backend_get_ocm_opt (ZG330_BACKEND (xrt_session_get_board_backend (r))), ==, ZW_OCM_OPTION2);
  b = xrt_session_forward (r, inputs, &error);
  g_assert_no_error (error);
  da = digest (a);
  db = digest (b);
  g_assert_cmpstr (da, ==, db);
  {
    g_autoptr (ZwDeployReport) ra = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
    g_autoptr (ZwDeployReport) rb = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (r)));
    g_assert_cmpuint (ra->ftmp_bytes, ==, rb->ftmp_bytes);
    g_assert_nonnull (strstr (rb->etm_method, "restored"));
  }
  /* corrupted: one byte changed */
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  text[len / 2] ^= 1;
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  g_assert_null (xrt_session_new_from_snapshot (path, net, dev2, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT);
  g_assert_nonnull (strstr (error->message, "checksum"));
  g_clear_error (&error);
  text[len / 2] ^= 1;
  g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  /* foreign: another network */
  {
    g_autoptr (XirNetwork) other = zw_test_load_net ("tiny");
    g_assert_null (xrt_session_new_from_snapshot (path, other, dev2, &error));
    g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT);
    g_assert_nonnull (strstr (error->message, "resnet18"));
    g_clear_error (&error);
  }
  /* not a snapshot at all */
  g_assert_true (g_file_set_contents (path, "hello", -1, NULL));
  g_assert_null (xrt_session_new_from_snapshot (path, net, dev2, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- plans applied as verified (issue 33) ----------------------------------------------- */

/* A snapshot of the tiny network's session, its body parsed, to edit. */
static cJSON *
snapshot_body (XirNetwork *net, ZwOcmOpt ocm, const char *path)
{
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ocm);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  char *nl;

  g_assert_true (xrt_session_dump_snapshot (s, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  nl = strstr (text, "\nsha256 ");
  g_assert_nonnull (nl);
  *nl = '\0';
  return cJSON_Parse (text);
}

/* Writes @body as a snapshot with its checksum (as a tool that rewrites one would). */
static void
snapshot_write (const cJSON *body, const char *path)
{
  g_autofree char *json = cJSON_PrintUnformatted (body);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, json, -1);
  g_autofree char *text = g_strdup_printf ("%s\nsha256 %s\n", json, digest);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static cJSON *
chunk_json (cJSON *body, gint64 id)
{
  cJSON *c;
  cJSON_ArrayForEach (c, cJSON_GetObjectItem (cJSON_GetObjectItem (body, "deploy"), "chunks"))
    if ((gint64) cJSON_GetNumberValue (cJSON_GetObjectItem (c, "id")) == id)
      return c;
  g_assert_not_reached ();
}

/* Two FTMP chunks whose lifetimes overlap, at different offsets: the first and second. */
static void
live_pair (cJSON *body, cJSON **a, cJSON **b)
{
  cJSON *chunks = cJSON_GetObjectItem (cJSON_GetObjectItem (body, "deploy"), "chunks"), *x, *y;
  cJSON_ArrayForEach (x, chunks)
    cJSON_ArrayForEach (y, chunks)
      if (x != y && !cJSON_IsTrue (cJSON_GetObjectItem (x, "in_ocm")) && !cJSON_IsTrue (cJSON_GetObjectItem (y, "in_ocm"))
          && cJSON_GetNumberValue (cJSON_GetObjectItem (x, "first")) <= cJSON_GetNumberValue (cJSON_GetObjectItem (y, "last"))
          && cJSON_GetNumberValue (cJSON_GetObjectItem (y, "first")) <= cJSON_GetNumberValue (cJSON_GetObjectItem (x, "last"))
          && cJSON_GetNumberValue (cJSON_GetObjectItem (x, "ftmp_offset"))
             != cJSON_GetNumberValue (cJSON_GetObjectItem (y, "ftmp_offset")))
        {
          *a = x;
          *b = y;
          return;
        }
  g_assert_not_reached ();
}

static void
assert_refused (const char *path, XirNetwork *net, const char *const *needles)
{
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtSession) r = xrt_session_new_from_snapshot (path, net, dev, &error);

  g_assert_null (r);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, path));
  for (guint i = 0; needles[i] != NULL; i++)
    if (strstr (error->message, needles[i]) == NULL)
      g_error ("\"%s\" not in: %s", needles[i], error->message);
}

/* The snapshot's chunk table is what apply places, its values what the checker verifies:
 * a chunk moved onto a live one (values untouched) restored, ran and gave wrong outputs; a
 * value claiming another chunk at the same address passed the checker; a chunk past FTMP
 * or at a negative OCM address reached the board.  Each is refused now, naming the file,
 * the chunk or value and the field; the unedited snapshot still restores bit-exact. */
static void
test_snapshot_chunks_as_verified (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-snap-XXXXXX");
  g_autofree char *good = g_build_filename (dir, "good.snapshot", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.snapshot", NULL);
  cJSON *body, *a, *b;

  {
    /* two live FTMP chunks at one offset, the values' addresses untouched */
    body = snapshot_body (net, ZW_OCM_NONE, good);
    live_pair (body, &a, &b);
    g_autofree char *id = g_strdup_printf ("chunk %.0f", cJSON_GetNumberValue (cJSON_GetObjectItem (a, "id")));
    cJSON_SetNumberValue (cJSON_GetObjectItem (a, "ftmp_offset"), cJSON_GetNumberValue (cJSON_GetObjectItem (b, "ftmp_offset")));
    snapshot_write (body, bad);
    assert_refused (bad, net, (const char *const[]) { "v_id", id, "logic_addr", NULL });
    /* the checker alone says so too (`xrt-run check` on the plan) */
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwDeployReport) plan = zw_deploy_report_from_json (cJSON_GetObjectItem (body, "deploy"), bad, &error);
      g_assert_no_error (error);
      g_assert_false (zw_deploy_report_check (plan, NULL, &error));
      g_assert_nonnull (strstr (error->message, id));
    }
    cJSON_Delete (body);
  }
  {
    /* a value claims another chunk at the same FTMP offset (other lifetime): its address
     * and the chunk table agree, so the checker passes; apply would keep the value in its
     * own chunk, and that disagreement is refused */
    cJSON *chunks, *x, *y, *v;
    gint64 moved = -1;
    body = snapshot_body (net, ZW_OCM_NONE, good);
    chunks = cJSON_GetObjectItem (cJSON_GetObjectItem (body, "deploy"), "chunks");
    cJSON_ArrayForEach (x, chunks)
      cJSON_ArrayForEach (y, chunks)
        if (moved < 0 && x != y
            && cJSON_GetNumberValue (cJSON_GetObjectItem (x, "ftmp_offset"))
               == cJSON_GetNumberValue (cJSON_GetObjectItem (y, "ftmp_offset"))
            && cJSON_GetNumberValue (cJSON_GetObjectItem (x, "size")) <= cJSON_GetNumberValue (cJSON_GetObjectItem (y, "size")))
          {
            cJSON *ids = cJSON_GetObjectItem (x, "v_ids");
            moved = (gint64) cJSON_GetNumberValue (cJSON_GetArrayItem (ids, 0));
            cJSON_AddItemToArray (cJSON_GetObjectItem (y, "v_ids"), cJSON_DetachItemFromArray (ids, 0));
            cJSON_ArrayForEach (v, cJSON_GetObjectItem (cJSON_GetObjectItem (body, "deploy"), "values"))
              if ((gint64) cJSON_GetNumberValue (cJSON_GetObjectItem (v, "v_id")) == moved)
                cJSON_SetNumberValue (cJSON_GetObjectItem (v, "chunk"), cJSON_GetNumberValue (cJSON_GetObjectItem (y, "id")));
          }
    g_assert_cmpint (moved, >=, 0);
    snapshot_write (body, bad);
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ZwDeployReport) plan = zw_deploy_report_from_json (cJSON_GetObjectItem (body, "deploy"), bad, &error);
      g_assert_true (zw_deploy_report_check (plan, NULL, &error));
      g_assert_no_error (error);
    }
    g_autofree char *vid = g_strdup_printf ("v_id %" G_GINT64_FORMAT ": field chunk", moved);
    assert_refused (bad, net, (const char *const[]) { vid, NULL });
    cJSON_Delete (body);
  }
  {
    /* a chunk past the FTMP segment */
    body = snapshot_body (net, ZW_OCM_NONE, good);
    live_pair (body, &a, &b);
    cJSON_SetNumberValue (cJSON_GetObjectItem (a, "ftmp_offset"), 1125899906842624.0);
    snapshot_write (body, bad);
    assert_refused (bad, net, (const char *const[]) { "ftmp_offset", "outside the FTMP segment", NULL });
    cJSON_Delete (body);
  }
  {
    /* a negative OCM address: refused as the snapshot loads, before the board */
    body = snapshot_body (net, ZW_OCM_OPTION1, good);
    a = chunk_json (body, 2);
    g_assert_true (cJSON_IsTrue (cJSON_GetObjectItem (a, "in_ocm")));
    cJSON_SetNumberValue (cJSON_GetObjectItem (a, "ocm_addr"), -4096);
    snapshot_write (body, bad);
    assert_refused (bad, net, (const char *const[]) { "chunks[", "(chunk 2)", "field ocm_addr", NULL });
    cJSON_Delete (body);
  }
  {
    /* the unedited one restores and runs as the session it was saved from */
    g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
    g_autoptr (XrtDevice) dev2 = zw_test_open_device ("mock://zg330");
    g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_NONE);
    g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 3);
    g_autoptr (GError) error = NULL;
    g_assert_true (xrt_session_dump_snapshot (s, good, &error));
    g_autoptr (XrtSession) r = xrt_session_new_from_snapshot (good, net, dev2, &error);
    g_assert_no_error (error);
    g_autoptr (GPtrArray) x = xrt_session_forward (s, inputs, &error);
    g_autoptr (GPtrArray) y = xrt_session_forward (r, inputs, &error);
    g_assert_no_error (error);
    g_autofree char *dx = digest (x), *dy = digest (y);
    g_assert_cmpstr (dx, ==, dy);
  }
  g_unlink (good);
  g_unlink (bad);
  g_rmdir (dir);
}

/* The same rule where a plan reaches apply without a file (fork, bindings): a report whose
 * chunk table puts a chunk onto a live one is refused by zg330_backend_apply_with_plan. */
static void
test_apply_with_plan_as_verified (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtDevice) dev2 = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_NONE);
  g_autoptr (ZwDeployReport) plan = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, NULL);
  g_autoptr (Zg330Backend) b = zg330_backend_new (view, dev2, NULL);
  g_autoptr (GError) error = NULL;
  ZwChunkInfo *x = NULL, *y = NULL;

  for (guint i = 0; i < plan->chunks->len && x == NULL; i++)
    for (guint j = 0; j < plan->chunks->len && x == NULL; j++)
      {
        ZwChunkInfo *c = &g_array_index (plan->chunks, ZwChunkInfo, i), *d = &g_array_index (plan->chunks, ZwChunkInfo, j);
        if (i != j && c->first <= d->last && d->first <= c->last && c->ftmp_offset != d->ftmp_offset)
          x = c, y = d;
      }
  g_assert_nonnull (x);
  x->ftmp_offset = y->ftmp_offset;
  g_assert_false (zg330_backend_apply_with_plan (b, plan, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE);
  g_autofree char *id = g_strdup_printf ("chunk %" G_GINT64_FORMAT, x->id);
  g_assert_nonnull (strstr (error->message, id));
  g_assert_nonnull (strstr (error->message, "logic_addr"));
}

typedef struct {
  XrtSession *session;
  GPtrArray *inputs;
  char *digest[3];
} ForkJob;

static gpointer
fork_thread (gpointer data)
{
  ForkJob *j = data;
  for (int i = 0; i < 3; i++)
    {
      g_autoptr (GPtrArray) outs = xrt_session_forward (j->session, j->inputs, NULL);
      j->digest[i] = outs ? digest (outs) : g_strdup ("failed");
    }
  return NULL;
}

static void
test_fork_two_threads (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, FALSE, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (XrtSession) f = NULL;
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 6);
  g_autoptr (GPtrArray) ref = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *want = NULL;
  ForkJob a = { 0 }, b = { 0 };
  GThread *ta, *tb;

  f = xrt_session_fork (s, &error);
  g_assert_no_error (error);
  {
    g_autoptr (ZwDeployReport) rs = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
    g_autoptr (ZwDeployReport) rf = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (f)));
    g_assert_cmpuint (rs->segments[ZW_SEGMENT_WEIGHT].phy_addr, ==, rf->segments[ZW_SEGMENT_WEIGHT].phy_addr);
    g_assert_cmpuint (rs->segments[ZW_SEGMENT_INSTR].phy_addr, ==, rf->segments[ZW_SEGMENT_INSTR].phy_addr);
    g_assert_cmpuint (rs->segments[ZW_SEGMENT_FTMP].phy_addr, !=, rf->segments[ZW_SEGMENT_FTMP].phy_addr);
  }
  ref = xrt_session_forward (s, inputs, &error);
  want = digest (ref);
  a.session = s;
  b.session = f;
  a.inputs = b.inputs = inputs;
  ta = g_thread_new ("fork-a", fork_thread, &a);
  tb = g_thread_new ("fork-b", fork_thread, &b);
  g_thread_join (ta);
  g_thread_join (tb);
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpstr (a.digest[i], ==, want);
      g_assert_cmpstr (b.digest[i], ==, want);
      g_free (a.digest[i]);
      g_free (b.digest[i]);
    }
}

static void
test_time_profile (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 8);
  g_autoptr (GError) error = NULL;
  struct { gboolean merge; ZwOcmOpt ocm; double hard, sync; guint rows, launches; } runs[3] = {
    { TRUE, ZW_OCM_NONE, 0, 0, 0, 0 }, { TRUE, ZW_OCM_BEST_SCORE, 0, 0, 0, 0 }, { FALSE, ZW_OCM_BEST_SCORE, 0, 0, 0, 0 },
  };

  for (int k = 0; k < 3; k++)
    {
      g_autoptr (XrtSession) s = new_session (net, dev, runs[k].merge, TRUE, runs[k].ocm);
      g_autoptr (GPtrArray) outs = NULL;
      const ZwProfile *p;
      double sum = 0, sum_hard = 0;

      xrt_session_enable_time_profile (s, TRUE);
      outs = xrt_session_forward (s, inputs, &error);
      g_assert_no_error (error);
      p = xrt_session_get_time_profile (s);
      g_assert_nonnull (p);
      for (guint i = 0; i < p->rows->len; i++)
        {
          const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
          g_assert_cmpfloat_with_epsilon (row->total_ms, row->memcpy_ms + row->hard_ms + row->other_ms, 1e-9);
          sum += row->total_ms;
          sum_hard += row->hard_ms;
          if (g_strcmp0 (row->op_type, "icraft::xir::HardOpNode") == 0)
            {
              runs[k].launches++;
              runs[k].sync += row->other_ms;
            }
        }
      g_assert_cmpfloat_with_epsilon (sum, p->total_ms, 1e-3);
      g_assert_cmpfloat_with_epsilon (sum, xrt_session_get_total_time (s), 1e-6);
      runs[k].hard = sum_hard;
      runs[k].rows = p->rows->len;
    }
  g_test_message ("yolov5s: simulated hard time %.3f ms with OCM NONE, %.3f ms with BEST_SCORE; "
                  "merge off: %u launches, %.3f ms sync vs %u launch(es), %.3f ms", runs[0].hard, runs[1].hard,
                  runs[2].launches, runs[2].sync, runs[1].launches, runs[1].sync);
  g_assert_cmpfloat (runs[1].hard, <, runs[0].hard);
  g_assert_cmpuint (runs[2].launches, >, runs[1].launches);
  g_assert_cmpfloat (runs[2].sync, >, runs[1].sync);
}

static void
test_dumps (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("real");
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = NULL, outs = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) report = NULL;
  g_autoptr (ZwTestTmpDir) dir = NULL;
  g_autoptr (GHashTable) ocm_seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint ocm_checked = 0;
  static const char *formats[] = { "SQB", "SFB", "HQB" };

  if (net == NULL)
    return;
  dev = zw_test_open_device ("mock://zg330");
  s = new_session (net, dev, FALSE, TRUE, ZW_OCM_BEST_SCORE);
  report = zg330_backend_get_report (ZG330_BACKEND (xrt_session_get_board_backend (s)));
  inputs = zw_test_seeded_inputs (net, 9);
  dir = zw_test_tmp_dir_new ("zw-dump-XXXXXX");
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *sub = g_build_filename (dir, formats[f], NULL);
      g_autoptr (ZwDumpManifest) m = NULL;
      g_autofree char *mpath = g_build_filename (sub, "manifest.json", NULL);

      g_assert_true (xrt_session_set_dump_outputs (s, TRUE, sub, formats[f], &error));
      g_clear_pointer (&outs, g_ptr_array_unref);
      outs = xrt_session_forward (s, inputs, &error);
      g_assert_no_error (error);
      m = zw_dump_manifest_load (mpath, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (m->complete);
      /* every OCM-resident value of the plan is there, and holds what the board computed:
       * the network's results only depend on them, so a stepTo re-run must agree */
      for (guint i = 0; i < report->values->len; i++)
        {
          const ZwValueInfo *v = &g_array_index (report->values, ZwValueInfo, i);
          const ZwDumpManifestEntry *e = NULL;
          if (!v->is_ocm)
            continue;
          for (guint k = 0; k < m->entries->len && e == NULL; k++)
            if (((ZwDumpManifestEntry *) g_ptr_array_index (m->entries, k))->type.v_id == v->v_id)
              e = g_ptr_array_index (m->entries, k);
          if (e == NULL)
            g_error ("%s: OCM value v_id %" G_GINT64_FORMAT " is missing from the dump", formats[f], v->v_id);
          g_assert_cmpint (e->memory, ==, ZW_DUMP_MEMORY_OCM);
          g_hash_table_add (ocm_seen, (gpointer) &v->v_id);
        }
    }
  g_assert_cmpuint (g_hash_table_size (ocm_seen), >, 0);

  /* the bytes: SQB equals the tensor, SFB its dequantised floats, HQB the hardware layout */
  {
    const XirOp *op = NULL;
    for (guint i = 0; i < xir_network_get_n_ops (net) && op == NULL; i++)
      {
        const XirOp *o = xir_network_get_op (net, i);
        if (o->kind == XIR_OP_HARDOP && g_strcmp0 (o->hard_class, "Conv2d") == 0
            && zw_deploy_report_find_value (report, ((XirValue *) g_ptr_array_index (o->outputs, 0))->v_id)->is_ocm
            && ((XirValue *) g_ptr_array_index (o->outputs, 0))->rank == 5
            && ((XirValue *) g_ptr_array_index (o->outputs, 0))->shape[1] > 1)
          op = o;
      }
    g_assert_nonnull (op);
    {
      const XirValue *v = g_ptr_array_index (op->outputs, 0);
      g_autoptr (GPtrArray) step = xrt_session_step_to (s, op->op_id, inputs, &error);
      g_autofree guint8 *truth = xrt_tensor_dup_bytes (g_ptr_array_index (step, 0), NULL);
      g_autofree char *sqb = g_strdup_printf ("%s/SQB/%" G_GINT64_FORMAT ".ftmp", dir, v->v_id);
      g_autofree char *hqb = g_strdup_printf ("%s/HQB/%" G_GINT64_FORMAT ".ftmp", dir, v->v_id);
      g_autofree char *sfb = g_strdup_printf ("%s/SFB/%" G_GINT64_FORMAT ".ftmp", dir, v->v_id);
      g_autofree char *hq = NULL, *sq = NULL, *sf = NULL;
      gsize hq_len, sq_len, sf_len;
      guint n = (guint) (v->shape[1] * v->shape[4]), h = (guint) v->shape[2], w = (guint) v->shape[3];
      guint c_real = v->element.n_scales ? v->element.n_scales : n;
      ZwDumpType type;
      ZwDumpFormat sq_fmt;
      ZwDumpShape sq_shape;

      zw_dump_type_init_from_value (&type, v);
      g_assert_true (zw_dump_format_parse ("SQB", &sq_fmt, NULL));
      g_assert_true (zw_dump_shape_for (&type, sq_fmt, &sq_shape, NULL));
      zw_dump_type_clear (&type);
      g_assert_cmpstr (sq_shape.layout, ==, "NHWC");

      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (hqb, &hq, &hq_len, NULL));
      g_assert_cmpmem (hq, hq_len, truth, v->storage_bytes);   /* hardware layout: the bytes as stored */
      g_assert_true (g_file_get_contents (sqb, &sq, &sq_len, NULL));
      g_assert_true (g_file_get_contents (sfb, &sf, &sf_len, NULL));
      g_assert_cmpuint (sf_len, ==, sq_len * sizeof (float));
      /* S layout is NHWC: element (h, w, c) of the NCHWc32 bytes */
      for (guint y = 0; y < h; y += 7)
        for (guint x = 0; x < w; x += 5)
          for (guint c = 0; c < MIN (n, c_real); c += 3)
            {
              gint8 q = (gint8) truth[(((c / 32) * h + y) * w + x) * 32 + c % 32];
              gsize idx = ((gsize) y * w + x) * (gsize) sq_shape.shape[3] + c;
              if (c >= (guint) sq_shape.shape[3])
                continue;
              float fv;
              g_assert_cmpint ((gint8) sq[idx], ==, q);
              memcpy (&fv, sf + idx * sizeof (float), sizeof fv);
              g_assert_cmpfloat_with_epsilon (fv, q * v->element.scales[c], 1e-6);
              ocm_checked++;
            }
    }
  }
  g_assert_cmpuint (ocm_checked, >, 0);
  g_test_message ("real sample, merge off: %u OCM-resident values dumped; %u elements of one checked in SQB/SFB/HQB",
                  g_hash_table_size (ocm_seen), ocm_checked);
  /* bad format strings are refused */
  g_assert_false (xrt_session_set_dump_outputs (s, TRUE, dir, "HFB", &error));
  g_clear_error (&error);
  g_assert_false (xrt_session_set_dump_outputs (s, TRUE, dir, "XYZ", &error));
}

static void
test_log_io_lines (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_NONE);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 1);
  g_autoptr (GPtrArray) outs = NULL;
  g_autoptr (GError) error = NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *stream = open_memstream (&buf, &len);

  xrt_session_set_log_io (s, TRUE);
  xrt_session_set_log_time (s, TRUE);
  xrt_session_set_log_stream (s, stream);
  outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  fclose (stream);
  g_assert_nonnull (strstr (buf, "opId: 0 opType: icraft::xir::Input"));
  g_assert_nonnull (strstr (buf, "opType: HardOp(Merged) Inputs: ("));
  g_assert_nonnull (strstr (buf, " Outputs: ("));
  g_assert_nonnull (strstr (buf, " time: "));
  free (buf);
}

static int pre_calls, post_calls;

static void
count_pre (XrtSession *s, const XrtForward *f, GPtrArray *outs, gpointer data)
{
  (void) s; (void) f; (void) outs; (void) data;
  pre_calls++;
}

static void
count_post (XrtSession *s, const XrtForward *f, GPtrArray *outs, gpointer data)
{
  (void) s; (void) data;
  if (f->op != NULL)
    g_assert_cmpuint (outs->len, ==, f->op->outputs->len);
  post_calls++;
}

static void
test_callbacks_and_forwards (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = new_session (net, dev, TRUE, TRUE, ZW_OCM_NONE);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 2);
  g_autoptr (GPtrArray) outs = NULL;
  GArray *fw = xrt_session_get_forwards (s);
  guint merged = 0;

  for (guint i = 0; i < fw->len; i++)
    if (g_array_index (fw, XrtForward, i).op == NULL)
      {
        merged++;
        g_assert_cmpint (g_array_index (fw, XrtForward, i).op_id, >, xir_network_get_max_op_id (net));
        g_assert_cmpuint (g_array_index (fw, XrtForward, i).merge_from->len, >, 1);
      }
  g_assert_cmpuint (merged, ==, 1);
  g_assert_cmpstr (xrt_backend_get_name (xrt_session_get_op_backend (s, 0)), ==, "HostBackend");
  xrt_session_set_pre_callback (s, count_pre, NULL);
  xrt_session_set_post_callback (s, count_post, NULL);
  pre_calls = post_calls = 0;
  outs = xrt_session_forward (s, inputs, NULL);
  g_assert_nonnull (outs);
  g_assert_cmpint (pre_calls, ==, (gint) fw->len);
  g_assert_cmpint (post_calls, ==, (gint) fw->len);
}

static void
test_bad_inputs (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) none = g_ptr_array_new ();
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, NULL);

  s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_null (xrt_session_forward (s, none, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_true (xrt_session_apply (s, &error));
  g_assert_null (xrt_session_forward (s, none, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INPUTS);
  g_clear_error (&error);
  {
    /* a board-only session cannot take the host ops (Input, Output); a host-only one takes
     * everything since the host reference run (issue 36: test-host-reference.c) */
    static const char *const board[] = { "ZG330Backend" };
    static const char *const host[] = { "HostBackend" };
    g_autoptr (XrtSession) b = xrt_session_new (view, board, devs, 1, &error);
    g_autoptr (XrtSession) h = NULL;
    g_assert_null (b);
    g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_UNSUPPORTED_OP);
    g_assert_nonnull (strstr (error->message, "HostBackend"));
    g_clear_error (&error);
    h = xrt_session_new (view, host, NULL, 1, &error);
    g_assert_no_error (error);
    g_assert_nonnull (h);
  }
}

/* Issue 36: a session of the caller's own backends (CreateWithBackends) gives the bytes of
 * xrt_session_new's; a backend given twice, or one of another network, is refused naming its
 * index; calls before apply name themselves; Tensor::dump bytes are the dump files'. */
static void
test_with_backends_and_tensor_dump (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XirNetwork) other = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = zw_test_open_device ("mock://zg330");
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 36);
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  g_autoptr (XirNetworkView) other_view = xir_network_view (other, 0, G_MAXINT, &error);
  g_autoptr (XrtBackend) zg = xrt_backend_new ("ZG330Backend", view, dev, &error);
  g_autoptr (XrtBackend) host = xrt_backend_new ("HostBackend", view, dev, &error);
  g_autoptr (XrtBackend) stranger = xrt_backend_new ("HostBackend", other_view, dev, &error);
  g_autoptr (XrtSession) ref = new_session (net, dev, TRUE, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) a = NULL, b = NULL;
  g_autofree char *da = NULL, *db = NULL, *file = NULL, *contents = NULL;
  g_autoptr (ZwTestTmpDir) dir = NULL;
  XrtBackend *twice[] = { zg, zg }, *foreign[] = { zg, stranger }, *mine[] = { zg, host };
  gsize length = 0;

  g_assert_no_error (error);
  g_assert_null (xrt_session_new_with_backends (view, twice, 2, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "backends[1]"));
  g_clear_error (&error);
  g_assert_null (xrt_session_new_with_backends (view, foreign, 2, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "another network"));
  g_clear_error (&error);
  g_assert_null (xrt_session_new_with_backends (view, mine, 1, &error));   /* the host ops: nobody */
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_UNSUPPORTED_OP);
  g_clear_error (&error);
  s = xrt_session_new_with_backends (view, mine, 2, &error);
  g_assert_no_error (error);
  g_assert_null (xrt_session_step_to (s, 72, inputs, &error));
  g_assert_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_CALL_ORDER);
  g_assert_nonnull (strstr (error->message, "stepTo before apply()"));
  g_clear_error (&error);
  g_assert_true (xrt_session_apply (s, &error));
  a = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  b = xrt_session_forward (ref, inputs, &error);
  g_assert_no_error (error);
  da = digest (a);
  db = digest (b);
  g_assert_cmpstr (da, ==, db);

  /* Tensor::dump in SQB = the session's dump file of the same value */
  dir = zw_test_tmp_dir_new ("zw-dump-XXXXXX");
  g_assert_true (xrt_session_set_dump_outputs (ref, TRUE, dir, "SQB", &error));
  g_clear_pointer (&b, g_ptr_array_unref);
  b = xrt_session_forward (ref, inputs, &error);
  g_assert_no_error (error);
  {
    XrtTensor *out = g_ptr_array_index (b, 0);
    g_autoptr (GBytes) bytes = xrt_tensor_dump (out, "SQB", &error);
    g_autoptr (XrtTensor) sq = xrt_tensor_convert (out, "SQB", &error);
    g_autoptr (GBytes) sq_bytes = NULL;

    g_assert_no_error (error);
    file = g_strdup_printf ("%s/%" G_GINT64_FORMAT ".ftmp", dir, xrt_tensor_get_value (out)->v_id);
    g_assert_true (g_file_get_contents (file, &contents, &length, &error));
    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), contents, length);
    sq_bytes = xrt_tensor_get_bytes (sq, &error);
    g_assert_true (g_bytes_equal (sq_bytes, bytes));
    g_assert_cmpstr (xrt_tensor_get_value (sq)->layout.text, ==, "NHWC");
    g_assert_null (xrt_tensor_dump (out, "HFB", &error));
    g_assert_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT);
    g_clear_error (&error);
    g_assert_null (xrt_tensor_convert (out, "SQT", &error));
    g_assert_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  xrt_session_set_dump_outputs (ref, FALSE, dir, "SQB", NULL);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_remove (path);
      }
  }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  static const char *nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s", "real" };

  zw_test_socket_mode_from_args (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/session/forward/bit-identical-across-options/%s", nets[i]);
      g_test_add_data_func (path, nets[i], test_all_combinations);
    }
  g_test_add_func ("/session/step-to-and-sub-give-the-same-outputs", test_step_to_and_sub);
  g_test_add_func ("/session/forward-into-a-ring-of-caller-outputs", test_forward_into_ring);
  g_test_add_func ("/session/snapshot/round-trip-and-corruption", test_snapshot_round_trip);
  g_test_add_func ("/session/snapshot/chunk-table-applied-as-verified", test_snapshot_chunks_as_verified);
  g_test_add_func ("/session/apply-with-plan/chunk-table-applied-as-verified", test_apply_with_plan_as_verified);
  g_test_add_func ("/session/fork/two-threads-identical", test_fork_two_threads);
  g_test_add_func ("/session/profile/sums-merge-and-ocm", test_time_profile);
  g_test_add_func ("/session/dumps/ocm-values-with-merge-off", test_dumps);
  g_test_add_func ("/session/log-io-lines", test_log_io_lines);
  g_test_add_func ("/session/callbacks-and-get-forwards", test_callbacks_and_forwards);
  g_test_add_func ("/session/bad-inputs-and-call-order", test_bad_inputs);
  g_test_add_func ("/session/with-backends-and-tensor-dump", test_with_backends_and_tensor_dump);
  return g_test_run ();
}
