/* test-step — stepTo inside merged launches, post-callbacks and dumps with merge on, and
 * forward into caller-given outputs written in place. */
#include "report/zw-dump.h"
#include "report/zw-profile.h"
#include "xrt/xrt-session.h"
#include "backends/zg330/zg330-backend.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
quick (void)
{
  return g_getenv ("ZW_TEST_QUICK") != NULL;
}

static XrtSession *
new_session (XirNetwork *net, XrtDevice *dev, gboolean merge, ZwOcmOpt ocm)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
  XrtSession *s = xrt_session_new (view, types, devs, 2, &error);

  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), merge, TRUE, ocm, &error));
  g_assert_true (xrt_session_apply (s, &error));
  g_assert_no_error (error);
  return s;
}

/* Does op @index run inside a merged launch of @s, before its last op? */
static gboolean
inside_merged_launch (XrtSession *s, guint index)
{
  GArray *fw = xrt_session_get_forwards (s);

  for (guint i = 0; i < fw->len; i++)
    {
      const XrtForward *f = &g_array_index (fw, XrtForward, i);
      if (f->merge_from->len > 1 && index >= f->first_index && index < f->last_index)
        return TRUE;
    }
  return FALSE;
}

static void
assert_same_tensors (GPtrArray *a, GPtrArray *b, gint64 op_id, const char *what)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint k = 0; k < a->len; k++)
    {
      g_autofree guint8 *x = xrt_tensor_dup_bytes (g_ptr_array_index (a, k), NULL);
      g_autofree guint8 *y = xrt_tensor_dup_bytes (g_ptr_array_index (b, k), NULL);
      gsize n = xrt_tensor_get_size (g_ptr_array_index (a, k));
      g_assert_cmpuint (n, ==, xrt_tensor_get_size (g_ptr_array_index (b, k)));
      if (memcmp (x, y, n) != 0)
        {
          gsize diff = 0;
          for (gsize i = 0; i < n; i++)
            diff += x[i] != y[i];
          g_error ("%s: op %" G_GINT64_FORMAT " output %u: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                   " bytes differ between merge on and merge off", what, op_id, k, diff, n);
        }
    }
}

/* stepTo every op in order with merge on and off: bit-identical outputs. */
static void
test_step_every_op (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) on = NULL, off = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  guint inside = 0;

  if (net == NULL)
    return;
  dev = xrt_device_open ("mock://zg330", NULL);
  on = new_session (net, dev, TRUE, ZW_OCM_BEST_SCORE);
  off = new_session (net, dev, FALSE, ZW_OCM_BEST_SCORE);
  inputs = zw_test_seeded_inputs (net, 11);
  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      const XirOp *op = xir_network_get_op (net, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) a = xrt_session_step_to (on, op->op_id, i == 0 ? inputs : NULL, &error);
      g_assert_no_error (error);
      g_autoptr (GPtrArray) b = xrt_session_step_to (off, op->op_id, i == 0 ? inputs : NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (a->len, ==, op->outputs->len);
      assert_same_tensors (a, b, op->op_id, name);
      inside += inside_merged_launch (on, i);
    }
  /* every demo network merges hardops: the stops inside launches were exercised */
  g_assert_cmpuint (inside, >, 0);
  g_test_message ("%s: %u ops, %u of them inside a merged launch, all bit-identical to merge off", name,
                  xir_network_get_n_ops (net), inside);
}

/* Out of order, back and forth, and with another session's launch on the board in
 * between: a stopped launch then cannot resume, and stepTo starts over. */
static void
test_step_back_and_interleaved (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("resnet18");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (XrtSession) on = new_session (net, dev, TRUE, ZW_OCM_OPTION2);
  g_autoptr (XrtSession) off = new_session (net, dev, FALSE, ZW_OCM_NONE);
  g_autoptr (XrtSession) other = new_session (net, dev, TRUE, ZW_OCM_OPTION1);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 12);
  g_autoptr (GPtrArray) other_in = zw_test_seeded_inputs (net, 99);
  g_autoptr (GError) error = NULL;
  guint n = xir_network_get_n_ops (net);
  guint order[32];
  guint len = 0, inside = 0;

  /* ops inside merged launches, in a scrambled order with steps back */
  for (guint i = 1; i < n && len < G_N_ELEMENTS (order); i++)
    if (inside_merged_launch (on, i))
      order[len++] = i;
  g_assert_cmpuint (len, >=, 4);
  for (guint k = 0; k + 1 < len; k += 2)
    {
      guint t = order[k];
      order[k] = order[k + 1];
      order[k + 1] = t;
    }
  for (guint k = 0; k < len; k++)
    {
      const XirOp *op = xir_network_get_op (net, order[k]);
      g_autoptr (GPtrArray) a = xrt_session_step_to (on, op->op_id, inputs, &error);
      g_assert_no_error (error);
      if (k % 3 == 1)
        {
          /* another session runs a whole forward on the same board meanwhile */
          g_autoptr (GPtrArray) o = xrt_session_forward (other, other_in, &error);
          g_assert_no_error (error);
          g_assert_nonnull (o);
        }
      g_autoptr (GPtrArray) b = xrt_session_step_to (off, op->op_id, inputs, &error);
      g_assert_no_error (error);
      assert_same_tensors (a, b, op->op_id, "resnet18 scrambled");
      inside++;
    }
  /* after a stop inside a launch, forward gives the whole network's outputs */
  {
    g_autoptr (GPtrArray) a = NULL, b = NULL, c = NULL;
    a = xrt_session_step_to (on, xir_network_get_op (net, order[0])->op_id, inputs, &error);
    g_assert_no_error (error);
    b = xrt_session_forward (on, inputs, &error);
    g_assert_no_error (error);
    c = xrt_session_forward (off, inputs, &error);
    g_assert_no_error (error);
    assert_same_tensors (b, c, -1, "forward after a stop");
  }
  g_test_message ("%u stops inside merged launches out of order, one of three after another session's forward", inside);
}

typedef struct {
  GHashTable *bytes;   /* v_id -> GBytes */
  guint merged_steps;
  guint merged_tensors;
} Collect;

static void
collect_post (XrtSession *s, const XrtForward *step, GPtrArray *outputs, gpointer data)
{
  Collect *c = data;

  (void) s;
  if (step->op == NULL)
    {
      c->merged_steps++;
      c->merged_tensors += outputs->len;
    }
  for (guint k = 0; k < outputs->len; k++)
    {
      XrtTensor *t = g_ptr_array_index (outputs, k);
      gint64 *key = g_new (gint64, 1);
      guint8 *b = xrt_tensor_dup_bytes (t, NULL);
      *key = xrt_tensor_get_value (t)->v_id;
      g_hash_table_replace (c->bytes, key, g_bytes_new_take (b, xrt_tensor_get_size (t)));
    }
}

/* The post-callback of a merged launch gets the values that leave it, with the bytes a
 * merge-off run gives them. */
static void
test_post_callback_merged (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (XrtSession) on = new_session (net, dev, TRUE, ZW_OCM_BEST_SCORE);
  g_autoptr (XrtSession) off = new_session (net, dev, FALSE, ZW_OCM_BEST_SCORE);
  g_autoptr (GPtrArray) inputs = zw_test_seeded_inputs (net, 13);
  g_autoptr (GError) error = NULL;
  Collect a = { g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_bytes_unref), 0, 0 };
  Collect b = { g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_bytes_unref), 0, 0 };
  GHashTableIter it;
  gpointer k, v;
  guint want = 0;
  GArray *fw = xrt_session_get_forwards (on);

  xrt_session_set_post_callback (on, collect_post, &a);
  xrt_session_set_post_callback (off, collect_post, &b);
  g_ptr_array_unref (xrt_session_forward (on, inputs, &error));
  g_assert_no_error (error);
  g_ptr_array_unref (xrt_session_forward (off, inputs, &error));
  g_assert_no_error (error);
  /* what should come: per merged launch, its values read after it or network outputs */
  for (guint i = 0; i < fw->len; i++)
    {
      const XrtForward *f = &g_array_index (fw, XrtForward, i);
      if (f->op != NULL)
        continue;
      for (guint j = 0; j < f->output_ids->len; j++)
        {
          const XirValue *val = xir_network_get_value (net, g_array_index (f->output_ids, gint64, j));
          want += val->last_use > (gint) f->last_index || val->is_network_output;
        }
    }
  g_assert_cmpuint (a.merged_steps, >, 0);
  g_assert_cmpuint (a.merged_tensors, ==, want);
  g_assert_cmpuint (a.merged_tensors, >, 0);
  g_hash_table_iter_init (&it, a.bytes);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      GBytes *other = g_hash_table_lookup (b.bytes, k);
      g_assert_nonnull (other);
      if (!g_bytes_equal (v, other))
        g_error ("post-callback value v_id %" G_GINT64_FORMAT " differs between merge on and off", *(gint64 *) k);
    }
  g_test_message ("%u merged launches gave %u tensors to the post-callback, equal to merge off", a.merged_steps,
                  a.merged_tensors);
  g_hash_table_unref (a.bytes);
  g_hash_table_unref (b.bytes);
}

/* A dump forward with merge on holds every value, each the bytes of the merge-off dump,
 * and its manifest says how it got them. */
static void
test_dump_merge_on (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (GPtrArray) inputs = NULL;
  g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-step-dump-XXXXXX");
  g_autoptr (ZwDumpManifest) mon = NULL, moff = NULL;
  g_autoptr (GError) error = NULL;
  guint ocm = 0;

  if (net == NULL)
    return;
  dev = xrt_device_open ("mock://zg330", NULL);
  inputs = zw_test_seeded_inputs (net, 14);
  for (int merge = 1; merge >= 0; merge--)
    {
      g_autoptr (XrtSession) s = new_session (net, dev, merge, ZW_OCM_BEST_SCORE);
      g_autofree char *sub = g_build_filename (dir, merge ? "on" : "off", NULL);
      g_autofree char *mpath = g_build_filename (sub, "manifest.json", NULL);
      g_autoptr (GPtrArray) w = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GPtrArray) outs = NULL;

      g_assert_true (xrt_session_set_dump_outputs (s, TRUE, sub, "SQB", &error));
      outs = xrt_session_forward (s, inputs, &error);
      g_assert_no_error (error);
      if (merge)
        mon = zw_dump_manifest_load (mpath, w, &error);
      else
        moff = zw_dump_manifest_load (mpath, w, &error);
      g_assert_no_error (error);
    }
  g_assert_true (mon->complete);
  g_assert_nonnull (strstr (mon->note, "sync point"));
  g_assert_cmpuint (mon->entries->len, ==, moff->entries->len);
  for (guint i = 0; i < moff->entries->len; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (moff->entries, i);
      g_autofree char *a = g_strdup_printf ("%s/on/%" G_GINT64_FORMAT ".ftmp", dir, e->type.v_id);
      g_autofree char *b = g_strdup_printf ("%s/off/%" G_GINT64_FORMAT ".ftmp", dir, e->type.v_id);
      g_autofree char *x = NULL, *y = NULL;
      gsize xn = 0, yn = 0;
      g_assert_true (g_file_get_contents (a, &x, &xn, NULL));
      g_assert_true (g_file_get_contents (b, &y, &yn, NULL));
      if (xn != yn || memcmp (x, y, xn) != 0)
        g_error ("%s: dump of v_id %" G_GINT64_FORMAT " differs between merge on and off", name, e->type.v_id);
    }
  for (guint i = 0; i < mon->entries->len; i++)
    ocm += ((ZwDumpManifestEntry *) g_ptr_array_index (mon->entries, i))->memory == ZW_DUMP_MEMORY_OCM;
  g_test_message ("%s: %u values dumped with merge on (%u read from OCM at their sync point), equal to merge off",
                  name, mon->entries->len, ocm);
}

typedef struct {
  XrtSession *s;
  GPtrArray *values;
  GPtrArray *tensors;   /* the caller's, in the view outputs' order */
  guint checked;
} PlaceCheck;

/* While forward_into runs, each output's place on the board is the caller's tensor. */
static void
place_post (XrtSession *s, const XrtForward *step, GPtrArray *outputs, gpointer data)
{
  PlaceCheck *c = data;

  (void) step;
  (void) outputs;
  for (guint k = 0; k < c->values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (c->values, k);
      XrtTensor *t = g_ptr_array_index (c->tensors, k);
      const char *region;
      guint64 addr;
      if (!zg330_backend_get_value_place (ZG330_BACKEND (xrt_session_get_board_backend (s)), v->v_id, &region, &addr))
        continue;
      g_assert_cmpstr (region, ==, "ETM");
      g_assert_cmphex (addr, ==, xrt_mem_chunk_get_addr (xrt_tensor_get_chunk (t)) + xrt_tensor_get_offset (t));
      c->checked++;
    }
}

static double
output_row_memcpy (XrtSession *s)
{
  const ZwProfile *p = xrt_session_get_time_profile (s);
  double ms = -1;

  g_assert_nonnull (p);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      if (g_str_has_suffix (r->op_type, "OutputNode"))
        ms = r->memcpy_ms;
    }
  g_assert_cmpfloat (ms, >=, 0);
  return ms;
}

/* forward(inputs, outputs) with ETM tensors given in reverse order: matched by v_id,
 * written in place by the hardops, no memcpy; host tensors still get copies. "yolov5s":
 * its outputs come from the host's DetPostZG, so the session is its sub-view up to that
 * op, whose three outputs are the hardops' (and it has no Output op to time). */
static void
test_forward_into_in_place (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (XrtSession) whole = NULL, s = NULL;
  g_autoptr (GPtrArray) inputs = NULL, ref = NULL, etm_outs = NULL, host_outs = NULL, given = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *values;
  PlaceCheck pc = { 0 };
  XrtMemRegion *etm;
  gboolean sub = g_strcmp0 (name, "yolov5s") == 0;

  if (net == NULL)
    return;
  dev = xrt_device_open ("mock://zg330", NULL);
  etm = xrt_device_get_default_mem_region (dev);
  whole = new_session (net, dev, TRUE, ZW_OCM_BEST_SCORE);
  if (sub)
    {
      gint end = -1;
      for (guint i = 1; i < xir_network_get_n_ops (net) && end < 0; i++)
        if (xir_network_get_op (net, i)->kind == XIR_OP_CUSTOM)
          end = (gint) i;
      g_assert_cmpint (end, >, 0);
      s = xrt_session_sub (whole, 0, end, &error);
      g_assert_no_error (error);
    }
  else
    s = xrt_session_ref (whole);
  values = xir_network_view_get_outputs (xrt_session_get_view (s));
  g_assert_cmpuint (values->len, ==, sub ? 3 : 1);
  inputs = zw_test_seeded_inputs (net, 15);
  xrt_session_enable_time_profile (s, TRUE);
  ref = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);

  etm_outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  host_outs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  given = g_ptr_array_new ();
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autoptr (XrtMemChunk) c = xrt_mem_region_malloc (etm, v->storage_bytes + 4096, TRUE, 4096, &error);
      g_assert_no_error (error);
      /* an offset inside the caller's chunk: the place must honour it */
      g_ptr_array_add (etm_outs, xrt_tensor_new (net, v, c, 64, &error));
      g_assert_no_error (error);
      g_ptr_array_add (host_outs, xrt_tensor_new_host (net, v, NULL, 0, &error));
      g_assert_no_error (error);
    }
  for (guint k = values->len; k-- > 0;)
    g_ptr_array_add (given, g_ptr_array_index (etm_outs, k));

  pc.s = s;
  pc.values = values;
  pc.tensors = etm_outs;
  xrt_session_set_post_callback (s, place_post, &pc);
  g_assert_true (xrt_session_forward_into (s, inputs, given, &error));
  g_assert_no_error (error);
  xrt_session_set_post_callback (s, NULL, NULL);
  g_assert_cmpuint (pc.checked, >=, values->len);
  if (!sub)
    g_assert_cmpfloat (output_row_memcpy (s), ==, 0.0);
  assert_same_tensors (etm_outs, ref, -1, "forward_into ETM");
  /* after the forward the backend's own OUTPUT places are back */
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      XrtTensor *t = g_ptr_array_index (etm_outs, k);
      guint64 addr;
      if (zg330_backend_get_value_place (ZG330_BACKEND (xrt_session_get_board_backend (s)), v->v_id, NULL, &addr))
        g_assert_cmphex (addr, !=, xrt_mem_chunk_get_addr (xrt_tensor_get_chunk (t)) + xrt_tensor_get_offset (t));
    }

  /* host tensors: copied after the run, and the Output op pays for it */
  g_assert_true (xrt_session_forward_into (s, inputs, host_outs, &error));
  g_assert_no_error (error);
  if (!sub)
    g_assert_cmpfloat (output_row_memcpy (s), >, 0.0);
  assert_same_tensors (host_outs, ref, -1, "forward_into host");
  g_test_message ("%s: %u outputs written in place (%u place checks)%s", name, values->len, pc.checked,
                  sub ? "" : ", Output op memcpy 0 ms (host tensors: > 0)");
}

int
main (int argc, char **argv)
{
  static const char *nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s", "real" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/session/step-to/merge-on-equals-merge-off/%s", nets[i]);
      if (quick () && i > 0 && i < 4)
        continue;
      g_test_add_data_func (path, nets[i], test_step_every_op);
    }
  g_test_add_func ("/session/step-to/back-and-forth-and-after-another-session", test_step_back_and_interleaved);
  g_test_add_func ("/session/post-callback/merged-launch-gets-its-outputs", test_post_callback_merged);
  g_test_add_data_func ("/session/dump/merge-on-holds-every-value/tiny", "tiny", test_dump_merge_on);
  g_test_add_data_func ("/session/dump/merge-on-holds-every-value/real", "real", test_dump_merge_on);
  g_test_add_data_func ("/session/forward-into/in-place-zero-memcpy/tiny", "tiny", test_forward_into_in_place);
  g_test_add_data_func ("/session/forward-into/in-place-zero-memcpy/yolov5s", "yolov5s", test_forward_into_in_place);
  return g_test_run ();
}
