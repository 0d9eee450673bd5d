/* test-zg330 — the ZG330Backend: every option combination on the demo nets and the real
 * sample, the independent checker, precheck, merge, segment reuse, network connection, log. */
#include "backends/zg330/zg330-backend.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-check.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"
#include "zw-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
demo_path (const char *name)
{
  return g_strdup_printf ("%s/networks/%s_ZG.json", g_getenv ("ZW_DATA_DIR"), name);
}

/* Loads a demo net with its .raw, or the real sample with synthetic params (NULL + skip if absent). */

static Zg330Backend *
new_backend (XirNetwork *net, XrtDevice *dev, gint start, gint end)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (XirNetworkView) view = xir_network_view (net, start, end, &error);
  Zg330Backend *b;

  g_assert_no_error (error);
  b = zg330_backend_new (view, dev, &error);
  g_assert_no_error (error);
  return b;
}

/* Deterministic bytes into every INPUT value of the backend. */
static void
write_inputs (Zg330Backend *b, guint32 seed)
{
  g_autoptr (ZwDeployReport) r = zg330_backend_get_report (b);
  XrtDevice *dev = zg330_backend_get_device (b);
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      const char *region;
      guint64 addr;
      g_autofree guint8 *bytes = NULL;

      if (v->segment != ZW_SEGMENT_INPUT || !v->real)
        continue;
      g_assert_true (zg330_backend_get_value_place (b, v->v_id, &region, &addr));
      bytes = g_malloc (v->byte_size);
      for (guint64 k = 0; k < v->byte_size; k++)
        bytes[k] = (guint8) g_rand_int_range (rand, 0, 256);
      g_assert_true (xrt_mem_region_write (xrt_device_get_mem_region (dev, region, NULL), addr, bytes, v->byte_size, NULL));
    }
  g_rand_free (rand);
}

static double
run_all (Zg330Backend *b)
{
  g_autoptr (GError) error = NULL;
  double total = 0;

  for (guint i = 0; i < zg330_backend_get_n_launches (b); i++)
    {
      double icore = 0, sync = 0;
      g_assert_true (zg330_backend_run_launch (b, i, &icore, &sync, &error));
      g_assert_no_error (error);
      total += icore + sync;
    }
  return total;
}

/* MD5 over every OUTPUT value's bytes, in v_id order of the report. */
static char *
outputs_digest (Zg330Backend *b)
{
  g_autoptr (ZwDeployReport) r = zg330_backend_get_report (b);
  XrtDevice *dev = zg330_backend_get_device (b);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_MD5);
  char *out;

  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      const char *region;
      guint64 addr;
      g_autofree guint8 *bytes = NULL;

      if (v->segment != ZW_SEGMENT_OUTPUT)
        continue;
      g_assert_true (zg330_backend_get_value_place (b, v->v_id, &region, &addr));
      bytes = g_malloc (v->byte_size);
      g_assert_true (xrt_mem_region_read (xrt_device_get_mem_region (dev, region, NULL), addr, bytes, v->byte_size, NULL));
      g_checksum_update (sum, (const guchar *) &v->v_id, sizeof v->v_id);
      g_checksum_update (sum, bytes, v->byte_size);
    }
  out = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return out;
}

static gboolean
is_quick (void)
{
  return g_getenv ("ZW_TEST_QUICK") != NULL;
}

/* Every combination of merge, ETM optimize and the OCM options of the table: apply,
 * check, invariants; forward and compare outputs. */
static void
test_all_combinations (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *reference = NULL;
  gboolean forward = !is_quick () || g_strcmp0 (name, "tiny") == 0;
  double none_ms = 0, best_ms = 0;

  if (net == NULL)
    return;
  dev = xrt_device_open ("mock://zg330", &error);
  g_assert_no_error (error);
  for (int merge = 1; merge >= 0; merge--)
    for (int etm = 1; etm >= 0; etm--)
      for (guint row = 0; row < zw_ocm_opt_get_count (); row++)
        {
          ZwOcmOpt ocm = zw_ocm_opt_get_nth (row);
          g_autoptr (Zg330Backend) b = new_backend (net, dev, 0, G_MAXINT);
          g_autoptr (ZwDeployReport) r = NULL;
          ZwDeployCheck check;

          g_assert_true (zg330_backend_set_options (b, merge, etm, ocm, &error));
          g_assert_true (zg330_backend_apply (b, &error));
          g_assert_no_error (error);
          r = zg330_backend_get_report (b);
          if (!zw_deploy_report_check (r, &check, &error))
            g_error ("%s merge=%d etm=%d ocm=%s: %s", name, merge, etm, zw_ocm_opt_to_string (ocm), error->message);
          g_assert_cmpuint (r->ftmp_bytes, >=, check.ftmp_lower_bound);
          if (!etm)
            g_assert_cmpuint (r->ftmp_bytes, ==, r->sum_of_chunks);
          else if (ocm == ZW_OCM_NONE)
            {
              /* plain CNNs reach the liveness lower bound exactly */
              g_assert_cmpuint (r->ftmp_bytes, ==, r->lower_bound);
              g_test_message ("%s: FTMP %" G_GUINT64_FORMAT " = lower bound; sum of chunks %" G_GUINT64_FORMAT " (%.1fx)",
                              name, r->ftmp_bytes, r->sum_of_chunks, (double) r->sum_of_chunks / MAX (r->ftmp_bytes, 1));
            }
          if (ocm == ZW_OCM_BEST_SCORE)
            {
              g_assert_cmpuint (r->ocm_options->len, ==, ZW_OCM_N_SLOTS - 1);   /* every planner */
              for (guint k = 0; k < r->ocm_options->len; k++)
                {
                  const ZwOcmOptionResult *opt = &g_array_index (r->ocm_options, ZwOcmOptionResult, k);
                  const ZwOcmOptionResult *chosen = NULL;
                  for (guint c = 0; c < r->ocm_options->len; c++)
                    if (g_array_index (r->ocm_options, ZwOcmOptionResult, c).option == r->ocm_chosen)
                      chosen = &g_array_index (r->ocm_options, ZwOcmOptionResult, c);
                  g_assert_nonnull (chosen);
                  g_assert_cmpfloat (chosen->cost_ms, <=, opt->cost_ms);
                  g_assert_cmpfloat (opt->cost_ms, <=, r->none_cost_ms + 1e-9);
                }
              g_assert_cmpint (zg330_backend_get_ocm_opt (b), !=, ZW_OCM_BEST_SCORE);
            }
          g_assert_true (zg330_backend_precheck (b, &error));
          g_assert_no_error (error);
          if (forward)
            {
              g_autofree char *digest = NULL;
              double ms;

              write_inputs (b, 7);
              ms = run_all (b);
              digest = outputs_digest (b);
              if (reference == NULL)
                reference = g_strdup (digest);
              else if (strcmp (reference, digest) != 0)
                g_error ("%s merge=%d etm=%d ocm=%s: outputs differ from merge=1 etm=1 ocm=NONE", name, merge, etm,
                         zw_ocm_opt_to_string (ocm));
              if (merge && etm && ocm == ZW_OCM_NONE)
                none_ms = ms;
              if (merge && etm && ocm == ZW_OCM_BEST_SCORE)
                best_ms = ms;
            }
        }
  if (forward)
    {
      g_test_message ("%s: simulated %.3f ms with OCM NONE, %.3f ms with BEST_SCORE", name, none_ms, best_ms);
      g_assert_cmpfloat (best_ms, <=, none_ms);
    }
}

static void
test_precheck_flipped_weight (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) b = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (ZwDeployReport) r = NULL;
  g_autoptr (GError) error = NULL;
  const ZwHardOpInfo *victim = NULL;
  XrtMemRegion *etm = xrt_device_get_mem_region (dev, "ETM", NULL);
  guint8 byte;
  g_autofree char *expect = NULL;

  g_assert_true (zg330_backend_apply (b, &error));
  g_assert_true (zg330_backend_precheck (b, &error));
  r = zg330_backend_get_report (b);
  for (guint i = 0; i < r->hardops->len && victim == NULL; i++)
    if (g_array_index (r->hardops, ZwHardOpInfo, i).weights_size > 16)
      victim = &g_array_index (r->hardops, ZwHardOpInfo, i);
  g_assert_nonnull (victim);
  g_assert_true (xrt_mem_region_read (etm, victim->weights_phy_addr + 5, &byte, 1, NULL));
  byte ^= 0x10;
  g_assert_true (xrt_mem_region_write (etm, victim->weights_phy_addr + 5, &byte, 1, NULL));
  g_assert_false (zg330_backend_precheck (b, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_PRECHECK);
  expect = g_strdup_printf ("The Weight of opid:%" G_GINT64_FORMAT " at PLDDR is incorrect", victim->op_id);
  g_assert_nonnull (strstr (error->message, expect));
  g_clear_error (&error);
  /* an instruction word too */
  byte ^= 0x10;
  g_assert_true (xrt_mem_region_write (etm, victim->weights_phy_addr + 5, &byte, 1, NULL));
  g_assert_true (zg330_backend_precheck (b, &error));
  g_assert_true (xrt_mem_region_read (etm, victim->instr_phy_addr, &byte, 1, NULL));
  byte ^= 1;
  g_assert_true (xrt_mem_region_write (etm, victim->instr_phy_addr, &byte, 1, NULL));
  g_assert_false (zg330_backend_precheck (b, &error));
  g_assert_nonnull (strstr (error->message, "The Instruction of opid:"));
}

static void
test_call_order (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XirNetwork) bare = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) b = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (Zg330Backend) nb = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = demo_path ("tiny");

  g_assert_false (zg330_backend_precheck (b, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_false (zg330_backend_log (b, "/tmp", NULL, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER);
  g_clear_error (&error);
  g_assert_true (zg330_backend_apply (b, &error));
  g_assert_false (zg330_backend_disable_merge_hardop (b, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER);
  g_assert_nonnull (strstr (error->message, "disableMergeHardOp"));
  g_clear_error (&error);
  g_assert_false (zg330_backend_disable_etm_optimize (b, &error));
  g_clear_error (&error);
  g_assert_false (zg330_backend_ocm_optimize (b, ZW_OCM_NONE, &error));
  g_clear_error (&error);
  g_assert_false (zg330_backend_apply (b, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_CALL_ORDER);
  g_clear_error (&error);
  /* apply without params */
  bare = xir_network_new_from_json_file (path, NULL);
  nb = new_backend (bare, dev, 0, G_MAXINT);
  g_assert_false (zg330_backend_apply (nb, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_NO_PARAMS);
  g_assert_nonnull (strstr (error->message, "tiny_ZG.json"));
  g_clear_error (&error);
  g_assert_false (zg330_backend_ocm_optimize (nb, (ZwOcmOpt) 7, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE);
}

static void
test_merge_launches (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) on = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (Zg330Backend) off = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (ZwDeployReport) ron = NULL, roff = NULL;
  const ZwLaunch *l;
  guint hardops = 0, instr_ops = 0;

  g_assert_true (zg330_backend_disable_merge_hardop (off, NULL));
  g_assert_true (zg330_backend_apply (on, NULL));
  g_assert_true (zg330_backend_apply (off, NULL));
  ron = zg330_backend_get_report (on);
  roff = zg330_backend_get_report (off);
  for (guint i = 0; i < ron->hardops->len; i++)
    {
      hardops++;
      if (g_array_index (ron->hardops, ZwHardOpInfo, i).instr_size > 0)
        instr_ops++;
    }
  /* the hardops run back to back: one merged launch with a new op id above the network's */
  g_assert_cmpuint (ron->launches->len, ==, 1);
  l = &g_array_index (ron->launches, ZwLaunch, 0);
  g_assert_cmpint (l->op_id, ==, xir_network_get_max_op_id (net) + 1);
  g_assert_cmpuint (l->merge_from->len, ==, hardops);
  g_assert_cmpint (g_array_index (ron->hardops, ZwHardOpInfo, 0).merged_into, ==, l->op_id);
  /* merge off: one launch per hardop that has instructions, each under its own op id */
  g_assert_cmpuint (roff->launches->len, ==, instr_ops);
  g_assert_cmpuint (roff->launches->len, >, ron->launches->len);
  for (guint i = 0; i < roff->launches->len; i++)
    {
      l = &g_array_index (roff->launches, ZwLaunch, i);
      g_assert_cmpuint (l->merge_from->len, ==, 1);
      g_assert_cmpint (l->op_id, ==, g_array_index (l->merge_from, gint64, 0));
    }
  g_assert_cmpuint (zg330_backend_get_n_launches (off), ==, instr_ops);
}

/* The manual's §2.3.1: two backends of one network share WEIGHT, INSTR and FTMP chunks. */
static void
test_reuse_segments (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("resnet18");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) b1 = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (Zg330Backend) b2 = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (Zg330Backend) alone = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (GError) error = NULL;
  XrtMemRegion *etm = xrt_device_get_default_mem_region (dev);
  g_autoptr (XrtMemChunk) weight = NULL, instr = NULL, ftmp = NULL, small = NULL;
  g_autofree char *d1 = NULL, *d2 = NULL, *d0 = NULL;
  guint64 wsize, isize, fsize, saved;

  wsize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_WEIGHT, &error);
  isize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_INSTR, &error);
  fsize = zg330_backend_get_logic_segment_size (b1, ZW_SEGMENT_FTMP, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wsize, >, 0);
  g_assert_cmpuint (fsize, >, 0);
  weight = xrt_mem_region_malloc (etm, wsize, TRUE, 4096, &error);
  instr = xrt_mem_region_malloc (etm, isize, TRUE, 4096, &error);
  ftmp = xrt_mem_region_malloc (etm, fsize, TRUE, 4096, &error);
  g_assert_no_error (error);
  /* a chunk that is too small is refused, naming the sizes */
  small = xrt_mem_region_malloc (etm, 4096, TRUE, 4096, &error);
  g_assert_false (zg330_backend_user_reuse_segment (b1, small, ZW_SEGMENT_WEIGHT, &error));
  g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_USER_CHUNK);
  g_clear_error (&error);
  g_assert_false (zg330_backend_user_reuse_segment (b1, small, ZW_SEGMENT_INPUT, &error));
  g_clear_error (&error);
  for (int k = 0; k < 2; k++)
    {
      Zg330Backend *b = k ? b2 : b1;
      g_assert_true (zg330_backend_user_reuse_segment (b, weight, ZW_SEGMENT_WEIGHT, &error));
      g_assert_true (zg330_backend_user_reuse_segment (b, instr, ZW_SEGMENT_INSTR, &error));
      g_assert_true (zg330_backend_user_reuse_segment (b, ftmp, ZW_SEGMENT_FTMP, &error));
      g_assert_no_error (error);
    }
  g_assert_true (zg330_backend_apply (b1, &error));
  g_assert_true (zg330_backend_apply (b2, &error));
  g_assert_true (zg330_backend_apply (alone, &error));
  g_assert_no_error (error);
  {
    g_autoptr (ZwDeployReport) r1 = zg330_backend_get_report (b1);
    g_autoptr (ZwDeployReport) r2 = zg330_backend_get_report (b2);
    g_assert_true (r1->segments[ZW_SEGMENT_WEIGHT].user_used);
    g_assert_cmpuint (r1->segments[ZW_SEGMENT_WEIGHT].phy_addr, ==, r2->segments[ZW_SEGMENT_WEIGHT].phy_addr);
    g_assert_cmpuint (r1->segments[ZW_SEGMENT_INSTR].phy_addr, ==, r2->segments[ZW_SEGMENT_INSTR].phy_addr);
    g_assert_cmpuint (r1->segments[ZW_SEGMENT_FTMP].phy_addr, ==, r2->segments[ZW_SEGMENT_FTMP].phy_addr);
  }
  saved = wsize + isize + fsize;
  g_test_message ("two resnet18 backends sharing WEIGHT+INSTR+FTMP save %" G_GUINT64_FORMAT " ETM bytes (%.1f MiB)",
                  saved, saved / 1048576.0);
  write_inputs (b1, 3);
  write_inputs (b2, 3);
  write_inputs (alone, 3);
  run_all (b1);
  d1 = outputs_digest (b1);
  run_all (b2);
  d2 = outputs_digest (b2);
  run_all (alone);
  d0 = outputs_digest (alone);
  g_assert_cmpstr (d1, ==, d0);
  g_assert_cmpstr (d2, ==, d0);
  g_assert_true (zg330_backend_precheck (b2, &error));
}

/* The manual's §2.3.2: the output of one network is the input of the next, in one ETM chunk.
 * The two networks are the halves of one: running both equals running the whole. */
static void
test_connect_networks (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("tiny");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) whole = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (Zg330Backend) first = NULL, second = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) rf = NULL;
  g_autofree char *dw = NULL, *ds = NULL;
  gint split = (gint) xir_network_get_n_ops (net) / 2;
  guint connected = 0;
  guint64 saved = 0;

  first = new_backend (net, dev, 0, split);
  second = new_backend (net, dev, split, G_MAXINT);
  rf = zg330_backend_get_report (first);
  for (guint i = 0; i < rf->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (rf->values, ZwValueInfo, i);
      g_autoptr (XrtMemChunk) chunk = NULL;
      guint64 size = 0;
      gboolean seen = FALSE;

      if (v->segment != ZW_SEGMENT_OUTPUT || !zg330_backend_owns_op (first, v->producer))
        continue;
      /* one user chunk per compiler chunk: a concat's inputs travel together */
      for (guint k = 0; k < rf->values->len; k++)
        {
          const ZwValueInfo *o = &g_array_index (rf->values, ZwValueInfo, k);
          if (o->chunk == v->chunk)
            {
              size = MAX (size, o->chunk_offset + o->byte_size);
              seen |= k < i && o->segment == ZW_SEGMENT_OUTPUT && zg330_backend_owns_op (first, o->producer);
            }
        }
      if (seen)
        continue;
      chunk = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), size, TRUE, 4096, &error);
      g_assert_true (zg330_backend_user_connect_network (first, chunk, v->v_id, &error));
      g_assert_true (zg330_backend_user_connect_network (second, chunk, v->v_id, &error));
      g_assert_no_error (error);
      saved += size;
      connected++;
    }
  g_assert_cmpuint (connected, >, 0);
  g_test_message ("tiny split at op %d: %u value(s) connected, %" G_GUINT64_FORMAT " ETM bytes and a host copy saved",
                  split, connected, saved);
  {
    g_autoptr (XrtMemChunk) spare = xrt_mem_region_malloc (xrt_device_get_default_mem_region (dev), 4096, TRUE, 4096, NULL);
    g_assert_false (zg330_backend_user_connect_network (first, spare, 123456, &error));
    g_assert_error (error, ZG330_BACKEND_ERROR, ZG330_BACKEND_ERROR_VALUE);
    g_clear_error (&error);
  }
  g_assert_true (zg330_backend_apply (first, &error));
  g_assert_true (zg330_backend_apply (second, &error));
  g_assert_true (zg330_backend_apply (whole, &error));
  g_assert_no_error (error);
  write_inputs (whole, 11);
  write_inputs (first, 11);
  run_all (first);
  run_all (second);
  run_all (whole);
  dw = outputs_digest (whole);
  ds = outputs_digest (second);
  g_assert_cmpstr (dw, ==, ds);
}

static void
test_log_and_offline_check (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("mobilenetv2");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  g_autoptr (Zg330Backend) b = new_backend (net, dev, 0, G_MAXINT);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDeployReport) live = NULL, disk = NULL;
  g_autofree char *dir = g_dir_make_tmp ("zw-log-XXXXXX", NULL);
  g_autofree char *json = NULL, *text_path = NULL, *text = NULL;
  ZwDeployReport *bad;
  ZwValueInfo *a = NULL, *c = NULL;

  /* everything in ETM, so that the FTMP checks have values to bite on */
  g_assert_true (zg330_backend_ocm_optimize (b, ZW_OCM_NONE, &error));
  g_assert_true (zg330_backend_apply (b, &error));
  g_assert_true (zg330_backend_log (b, dir, &json, &error));
  g_assert_no_error (error);
  disk = zw_deploy_report_load (json, &error);
  g_assert_no_error (error);
  live = zg330_backend_get_report (b);
  g_assert_cmpuint (disk->values->len, ==, live->values->len);
  g_assert_cmpuint (disk->launches->len, ==, live->launches->len);
  g_assert_cmpuint (disk->ftmp_bytes, ==, live->ftmp_bytes);
  g_assert_cmpint (disk->ocm_chosen, ==, live->ocm_chosen);
  g_assert_true (zw_deploy_report_check (disk, NULL, &error));
  text_path = g_strdup (json);
  strcpy (text_path + strlen (text_path) - 4, "log");
  g_assert_true (g_file_get_contents (text_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "FTMP"));
  g_assert_nonnull (strstr (text, "chosen"));

  /* the checker catches a value moved onto another live one */
  bad = zw_deploy_report_ref (disk);
  for (guint i = 0; i < bad->values->len; i++)
    {
      ZwValueInfo *v = &g_array_index (bad->values, ZwValueInfo, i);
      if (v->segment != ZW_SEGMENT_FTMP || v->is_ocm || !v->real)
        continue;
      if (a == NULL)
        a = v;
      else if (v->chunk != a->chunk && v->first <= a->last && a->first <= v->last && v->byte_size <= a->byte_size)
        {
          c = v;
          break;
        }
    }
  if (a != NULL && c != NULL)
    {
      g_autofree char *ia = g_strdup_printf ("v_id %" G_GINT64_FORMAT, a->v_id);
      g_autofree char *ic = g_strdup_printf ("v_id %" G_GINT64_FORMAT, c->v_id);
      c->phy_addr = a->phy_addr;
      c->logic_addr = a->logic_addr;
      g_assert_false (zw_deploy_report_check (bad, NULL, &error));
      g_assert_nonnull (strstr (error->message, ia));
      g_assert_nonnull (strstr (error->message, ic));
      g_clear_error (&error);
    }
  else
    g_test_incomplete ("no two live FTMP values to collide");
  bad->ftmp_bytes = 1;
  g_assert_false (zw_deploy_report_check (bad, NULL, &error));
  g_assert_nonnull (strstr (error->message, "lower bound"));
  zw_deploy_report_unref (bad);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *f;
    while ((f = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (dir, f, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (dir);
}

/* The OCM options' estimator and the board's timer are one model: per launch, the
 * simulated icore time is the launch's start-up plus the estimates of its hardops. */
static void
test_estimate_matches_simulation (void)
{
  g_autoptr (XirNetwork) net = zw_test_load_net ("yolov5s");
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  const Zg330Profile *profile = zg330_sim_get_profile (dev);

  for (int merge = 1; merge >= 0; merge--)
    {
      g_autoptr (Zg330Backend) b = new_backend (net, dev, 0, G_MAXINT);
      g_autoptr (ZwDeployReport) r = NULL;
      g_autoptr (GError) error = NULL;
      double launch_ms = zg330_timing_cycles_to_ms (profile, profile->launch_cycles);

      g_assert_true (zg330_backend_set_options (b, merge, TRUE, ZW_OCM_BEST_SCORE, &error));
      g_assert_true (zg330_backend_apply (b, &error));
      r = zg330_backend_get_report (b);
      write_inputs (b, 2);
      for (guint i = 0; i < zg330_backend_get_n_launches (b); i++)
        {
          const ZwLaunch *l = &g_array_index (r->launches, ZwLaunch, i);
          double icore = 0, sync = 0, est = 0;

          g_assert_true (zg330_backend_run_launch (b, i, &icore, &sync, &error));
          for (guint k = 0; k < l->merge_from->len; k++)
            for (guint h = 0; h < r->hardops->len; h++)
              if (g_array_index (r->hardops, ZwHardOpInfo, h).op_id == g_array_index (l->merge_from, gint64, k))
                est += g_array_index (r->hardops, ZwHardOpInfo, h).est_ms;
          g_assert_cmpfloat_with_epsilon (icore, launch_ms + est, 1e-6);
        }
      g_test_message ("yolov5s merge=%d: %u launches, simulated icore time = start-up + estimates", merge,
                      zg330_backend_get_n_launches (b));
    }
}

int
main (int argc, char **argv)
{
  static const char *nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s", "real" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/zg330/apply/every-option-combination/%s", nets[i]);
      g_test_add_data_func (path, nets[i], test_all_combinations);
    }
  g_test_add_func ("/zg330/precheck/names-the-op-of-a-flipped-byte", test_precheck_flipped_weight);
  g_test_add_func ("/zg330/options/call-order-errors", test_call_order);
  g_test_add_func ("/zg330/merge/launches-and-merged-op-ids", test_merge_launches);
  g_test_add_func ("/zg330/reuse/same-network-shares-weight-instr-ftmp", test_reuse_segments);
  g_test_add_func ("/zg330/connect/two-networks-output-to-input", test_connect_networks);
  g_test_add_func ("/zg330/log/text-and-json-report-checked-offline", test_log_and_offline_check);
  g_test_add_func ("/zg330/estimate/equals-the-board-timer", test_estimate_matches_simulation);
  return g_test_run ();
}
