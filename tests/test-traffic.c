/* test-traffic.c — the memory traffic the views show is the board's cost model: each
 * hardop's ETM/OCM bytes in the deploy report equal what zg330_hardop_work charges it under
 * the plan's placement (and its estimate is that work's time); the report alone recomputes
 * them; the figures survive the JSON. */
#include "backends/zg330/zg330-backend.h"
#include "backends/zg330/zg330-hardop.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"
#include "report/zw-deploy-graph.h"
#include "report/zw-etm-traffic.h"
#include "xir/xir-network.h"
#include "xrt/xrt-device.h"
#include "zw-test-util.h"

static gboolean
value_in_ocm (const ZwDeployReport *r, const XirValue *v)
{
  const ZwValueInfo *vi = zw_deploy_report_find_value (r, v->v_id);
  g_assert_nonnull (vi);
  return vi->is_ocm;
}

static void
test_per_op_bytes_are_the_board_model (gconstpointer data)
{
  const char *name = data;
  g_autoptr (XirNetwork) net = zw_test_load_net (name);
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", NULL);
  const Zg330Profile *profile = zg330_sim_get_profile (dev);
  static const ZwOcmOpt ocms[] = { ZW_OCM_NONE, ZW_OCM_BEST_SCORE };

  for (int merge = 0; merge < 2; merge++)
    for (guint o = 0; o < G_N_ELEMENTS (ocms); o++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (XirNetworkView) view = xir_network_view (net, 0, G_MAXINT, &error);
        g_autoptr (Zg330Backend) b = NULL;
        g_autoptr (ZwDeployReport) r = NULL, back = NULL;
        g_autoptr (ZwEtmTraffic) t = NULL, t_back = NULL;
        guint64 sum_read = 0, sum_write = 0, ocm_bytes = 0;
        guint same_from_report = 0, zero_copy = 0;
        cJSON *json;

        g_assert_no_error (error);
        b = zg330_backend_new (view, dev, &error);
        g_assert_no_error (error);
        g_assert_true (zg330_backend_set_options (b, merge, TRUE, ocms[o], &error));
        g_assert_true (zg330_backend_apply (b, &error));
        r = zg330_backend_get_report (b);
        zw_deploy_report_attach_network (r, net);
        g_assert_cmpuint (r->hardops->len, >, 0);

        for (guint i = 0; i < r->hardops->len; i++)
          {
            const ZwHardOpInfo *h = &g_array_index (r->hardops, ZwHardOpInfo, i);
            const XirOp *op = xir_network_get_op_by_id (net, h->op_id);
            g_autofree gboolean *in_ocm = NULL, *out_ocm = NULL;
            Zg330HardopDesc desc;
            Zg330OpWork work;
            guint64 er, ew, orr, ow;

            g_assert_nonnull (op);
            g_assert_true (zg330_hardop_describe (op, &desc, &error));
            g_assert_no_error (error);
            in_ocm = g_new0 (gboolean, MAX (op->inputs->len, 1u));
            out_ocm = g_new0 (gboolean, MAX (op->outputs->len, 1u));
            for (guint k = 0; k < op->inputs->len; k++)
              in_ocm[k] = value_in_ocm (r, g_ptr_array_index (op->inputs, k));
            for (guint k = 0; k < op->outputs->len; k++)
              out_ocm[k] = value_in_ocm (r, g_ptr_array_index (op->outputs, k));
            /* the board's model under the report's placement */
            zg330_hardop_work (&desc, in_ocm, out_ocm, &work);
            g_assert_true (h->has_traffic);
            g_assert_cmpuint (h->etm_read_bytes, ==, work.etm_read_bytes);
            g_assert_cmpuint (h->etm_write_bytes, ==, work.etm_write_bytes);
            g_assert_cmpuint (h->ocm_read_bytes, ==, work.ocm_read_bytes);
            g_assert_cmpuint (h->ocm_write_bytes, ==, work.ocm_write_bytes);
            /* …and the estimate the timing shows is that work's time */
            if (desc.zero_copy)
              {
                zero_copy++;
                g_assert_cmpfloat (h->est_ms, ==, 0.0);
              }
            else
              g_assert_cmpfloat_with_epsilon (h->est_ms, zg330_timing_cycles_to_ms (profile, zg330_timing_op_cycles (profile, &work)),
                                              1e-12);
            sum_read += work.etm_read_bytes;
            sum_write += work.etm_write_bytes;
            ocm_bytes += work.ocm_read_bytes + work.ocm_write_bytes;
            /* the report alone (a report saved before the fields existed) */
            g_assert_true (zw_etm_traffic_from_placement (r, h, &er, &ew, &orr, &ow));
            same_from_report += er == work.etm_read_bytes && ew == work.etm_write_bytes && orr == work.ocm_read_bytes
                                && ow == work.ocm_write_bytes;
          }
        g_test_message ("%s merge=%d ocm=%s: %u hardops (%u zero-copy), ETM read %" G_GUINT64_FORMAT
                        " written %" G_GUINT64_FORMAT ", OCM %" G_GUINT64_FORMAT "; recomputed from the report alone: %u "
                        "of %u exact",
                        name, merge, zw_ocm_opt_to_string (ocms[o]), r->hardops->len, zero_copy, sum_read, sum_write,
                        ocm_bytes, same_from_report, r->hardops->len);
        /* the report's placement tells the same story, hardop for hardop */
        g_assert_cmpuint (same_from_report, ==, r->hardops->len);
        if (ocms[o] == ZW_OCM_BEST_SCORE && r->ocm_chosen != ZW_OCM_NONE)
          g_assert_cmpuint (ocm_bytes, >, 0);

        /* the series by op index sums to the same totals */
        t = zw_etm_traffic_compute (r);
        g_assert_true (t->exact);
        g_assert_true (t->known);
        g_assert_cmpuint (t->n, ==, r->ops->len);
        g_assert_cmpuint (t->total_etm_read, ==, sum_read);
        g_assert_cmpuint (t->total_etm_write, ==, sum_write);

        /* through the JSON: the same figures */
        json = zw_deploy_report_to_json (r);
        back = zw_deploy_report_from_json (json, "round-trip", &error);
        cJSON_Delete (json);
        g_assert_no_error (error);
        t_back = zw_etm_traffic_compute (back);
        g_assert_true (t_back->exact);
        g_assert_cmpmem (t_back->etm_read, sizeof (guint64) * t->n, t->etm_read, sizeof (guint64) * t->n);
        g_assert_cmpmem (t_back->etm_write, sizeof (guint64) * t->n, t->etm_write, sizeof (guint64) * t->n);

        /* a report without them (older files) recomputes them from the placement */
        for (guint i = 0; i < back->hardops->len; i++)
          g_array_index (back->hardops, ZwHardOpInfo, i).has_traffic = FALSE;
        g_clear_pointer (&t_back, zw_etm_traffic_free);
        t_back = zw_etm_traffic_compute (back);
        g_assert_false (t_back->exact);
        g_assert_true (t_back->known);
        g_assert_cmpuint (t_back->total_etm_read, ==, sum_read);
        g_assert_cmpuint (t_back->total_etm_write, ==, sum_write);
      }
}

/* The report's lookups by id: first of equal ids, absent ids, an index rebuilt after the
 * report grows, and lookups from several threads at once. */
static gpointer
lookup_thread (gpointer data)
{
  const ZwDeployReport *r = data;
  guint found = 0;

  for (gint64 id = 0; id < 4000; id++)
    found += zw_deploy_report_find_value (r, id) != NULL;
  return GUINT_TO_POINTER (found);
}

static void
test_report_lookups (void)
{
  g_autoptr (ZwDeployReport) r = zw_deploy_report_new ();
  static const gint64 ids[] = { 5, 3, 5, 9 };
  GThread *threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      ZwValueInfo v;
      ZwChunkInfo c;
      ZwOpInfo o = { 0 };
      zw_value_info_init (&v);
      v.v_id = ids[i];
      v.byte_size = 100 + i;
      g_array_append_val (r->values, v);
      zw_chunk_info_init (&c);
      c.id = ids[i];
      c.size = 200 + i;
      g_array_append_val (r->chunks, c);
      o.op_id = ids[i];
      o.index = i;
      o.inputs = g_array_new (FALSE, FALSE, sizeof (gint64));
      o.outputs = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_val (r->ops, o);
    }
  g_assert_cmpuint (zw_deploy_report_find_value (r, 5)->byte_size, ==, 100);   /* the first 5 */
  g_assert_cmpuint (zw_deploy_report_find_value (r, 9)->byte_size, ==, 103);
  g_assert_cmpuint (zw_deploy_report_find_chunk (r, 3)->size, ==, 201);
  g_assert_cmpuint (zw_deploy_report_find_chunk (r, 5)->size, ==, 200);
  g_assert_cmpuint (zw_deploy_report_find_op (r, 9)->index, ==, 3);
  g_assert_null (zw_deploy_report_find_value (r, 4));
  g_assert_null (zw_deploy_report_find_op (r, -1));
  g_assert_null (zw_deploy_report_find_chunk (r, G_MAXINT64));

  /* the report grows after a lookup: the new element is found */
  for (gint64 id = 10; id < 3000; id++)
    {
      ZwValueInfo v;
      zw_value_info_init (&v);
      v.v_id = id;
      v.byte_size = (guint64) id * 2;
      g_array_append_val (r->values, v);
    }
  g_assert_cmpuint (zw_deploy_report_find_value (r, 2999)->byte_size, ==, 5998);
  g_assert_cmpuint (zw_deploy_report_find_value (r, 5)->byte_size, ==, 100);
  g_assert_null (zw_deploy_report_find_value (r, 3000));

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("lookup", lookup_thread, r);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (threads[i])), ==, 2990 + 3);
}

/* Live bytes per op index, in each memory, by hand: 5 ops and chunks
 *   A ETM 100 B [0, 2]   B ETM  10 B [2, 4]   C OCM 7 B [1, 1]   D OCM 3 B [1, 9] (ends at op 4)
 *   E ETM 1000 B first -1 (no lifetime)   F OCM 500 B [3, 2] (empty)   G ETM 50 B [7, 8] (past the ops). */
static void
test_report_live_bytes (void)
{
  g_autoptr (ZwDeployReport) r = zw_deploy_report_new ();
  g_autoptr (ZwDeployReport) empty = zw_deploy_report_new ();
  static const struct { gboolean ocm; guint64 size; gint first, last; } chunks[] = {
    { FALSE, 100, 0, 2 }, { FALSE, 10, 2, 4 }, { TRUE, 7, 1, 1 }, { TRUE, 3, 1, 9 },
    { FALSE, 1000, -1, 3 }, { TRUE, 500, 3, 2 }, { FALSE, 50, 7, 8 },
  };
  static const guint64 etm_want[5] = { 100, 100, 110, 10, 10 };
  static const guint64 ocm_want[5] = { 0, 10, 3, 3, 3 };
  g_autofree guint64 *etm = NULL;
  g_autofree guint64 *ocm = NULL;
  g_autofree guint64 *none = NULL;
  guint n = 0;

  for (guint i = 0; i < 5; i++)
    {
      ZwOpInfo o = { 0 };
      o.op_id = i;
      o.index = i;
      o.inputs = g_array_new (FALSE, FALSE, sizeof (gint64));
      o.outputs = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_val (r->ops, o);
    }
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      ZwChunkInfo c;
      zw_chunk_info_init (&c);
      c.id = i;
      c.in_ocm = chunks[i].ocm;
      c.size = chunks[i].size;
      c.first = chunks[i].first;
      c.last = chunks[i].last;
      g_array_append_val (r->chunks, c);
    }
  etm = zw_deploy_report_live_bytes (r, FALSE, &n);
  g_assert_cmpuint (n, ==, 5);
  for (guint t = 0; t < 5; t++)
    g_assert_cmpuint (etm[t], ==, etm_want[t]);
  ocm = zw_deploy_report_live_bytes (r, TRUE, &n);
  g_assert_cmpuint (n, ==, 5);
  for (guint t = 0; t < 5; t++)
    g_assert_cmpuint (ocm[t], ==, ocm_want[t]);
  /* no ops: one zero entry, n 0 */
  none = zw_deploy_report_live_bytes (empty, TRUE, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (none[0], ==, 0);
}

int
main (int argc, char **argv)
{
  static const char *nets[] = { "tiny", "resnet18", "mobilenetv2", "yolov5s" };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/lookups-by-id", test_report_lookups);
  g_test_add_func ("/report/live-bytes-per-op-index", test_report_live_bytes);
  for (guint i = 0; i < G_N_ELEMENTS (nets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/traffic/per-op-bytes-are-the-board-model/%s", nets[i]);
      g_test_add_data_func (path, nets[i], test_per_op_bytes_are_the_board_model);
    }
  return g_test_run ();
}
