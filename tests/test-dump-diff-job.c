/* test-dump-diff-job — a long dump diff off the main thread (issue 37 item 3).
 *
 * Suite render (no display): the worker's diff (a GTask) of two yolov5s dumps, one byte
 * planted in B, is the synchronous zw_dump_diff_folders() one, value by value; the progress
 * goes 0 … total elements (the compared values' elements summed) and never back; a
 * cancelled diff stops with G_IO_ERROR_CANCELLED.
 * Suite display: the Dump Diff view runs it in its worker — the main loop keeps turning,
 * the progress bar over the table shows while it runs and is gone after, the fraction read
 * is within 0…1 — and its Cancel button stops a second one, the diff shown staying.
 */
#include "zw-dump-diff-job.h"
#include "zw-dump-diff-view.h"
#include "zw-test-util.h"
#include "backends/zg330/zg330-backend.h"
#include "xrt/xrt-session.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean have_display;
static char *root, *dir_a, *dir_b;
static XirNetwork *net;
static gint64 planted_v_id = -1;

static void
copy_dir (const char *from, const char *to)
{
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_mkdir_with_parents (to, 0700);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL), *b = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (a, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (b, contents, (gssize) len, NULL));
    }
}

/* Two dumps of one yolov5s forward (merge off, every hardop's output, float32): A, and B
 * with one byte changed in the largest value's file. */
static void
make_dumps (void)
{
  static const char *const types[] = { "ZG330Backend", "HostBackend" };
  g_autoptr (GError) error = NULL;
  g_autoptr (XrtDevice) dev = xrt_device_open ("mock://zg330", &error);
  XrtDevice *devs[] = { dev, NULL };
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autoptr (GPtrArray) inputs = NULL, outs = NULL;
  g_autoptr (ZwDumpManifest) m = NULL;
  g_autofree char *manifest = NULL, *planted = NULL, *contents = NULL;
  const ZwDumpManifestEntry *largest = NULL;
  gsize length;

  net = zw_test_load_net ("yolov5s");
  view = xir_network_view (net, 0, G_MAXINT, &error);
  g_assert_no_error (error);
  root = g_dir_make_tmp ("dump-diff-job-XXXXXX", NULL);
  dir_a = g_build_filename (root, "a", NULL);
  dir_b = g_build_filename (root, "b", NULL);
  s = xrt_session_new (view, types, devs, 2, &error);
  g_assert_no_error (error);
  g_assert_true (zg330_backend_set_options (ZG330_BACKEND (xrt_session_get_board_backend (s)), FALSE, TRUE,
                                            ZW_OCM_BEST_SCORE, &error));
  g_assert_true (xrt_session_apply (s, &error));
  inputs = zw_test_seeded_inputs (net, 7);
  g_assert_true (xrt_session_set_dump_outputs (s, TRUE, dir_a, "SFB", &error));
  outs = xrt_session_forward (s, inputs, &error);
  g_assert_no_error (error);
  copy_dir (dir_a, dir_b);
  manifest = g_build_filename (dir_b, "manifest.json", NULL);
  m = zw_dump_manifest_load (manifest, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0, best = 0; i < m->entries->len; i++)
    {
      const ZwDumpManifestEntry *e = g_ptr_array_index (m->entries, i);
      g_autofree char *f = g_build_filename (dir_b, e->file, NULL);
      GStatBuf st;
      if (g_stat (f, &st) == 0 && (guint) st.st_size > best)
        {
          best = (guint) st.st_size;
          largest = e;
        }
    }
  g_assert_nonnull (largest);
  planted = g_build_filename (dir_b, largest->file, NULL);
  g_assert_true (g_file_get_contents (planted, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 1000);
  contents[length / 2] ^= 0x40;
  g_assert_true (g_file_set_contents (planted, contents, (gssize) length, NULL));
  planted_v_id = largest->type.v_id;
  g_test_message ("dumps of %u values; %s (v%" G_GINT64_FORMAT ", %" G_GSIZE_FORMAT " bytes) changed", m->entries->len,
                  largest->file, planted_v_id, length);
}

/* The two diffs say the same, value by value. */
static void
assert_same_diff (const ZwDumpDiff *x, const ZwDumpDiff *y)
{
  g_assert_cmpuint (x->entries->len, ==, y->entries->len);
  g_assert_cmpuint (x->n_compared, ==, y->n_compared);
  g_assert_cmpuint (x->n_diverged, ==, y->n_diverged);
  g_assert_cmpuint (x->n_only_a, ==, y->n_only_a);
  g_assert_cmpuint (x->n_only_b, ==, y->n_only_b);
  g_assert_cmpuint (x->warnings->len, ==, y->warnings->len);
  g_assert_nonnull (x->first);
  g_assert_nonnull (y->first);
  g_assert_cmpint (x->first->v_id, ==, y->first->v_id);
  for (guint i = 0; i < x->entries->len; i++)
    {
      const ZwDumpDiffEntry *a = g_ptr_array_index (x->entries, i), *b = g_ptr_array_index (y->entries, i);
      g_assert_cmpint (a->v_id, ==, b->v_id);
      g_assert_cmpint (a->status, ==, b->status);
      g_assert_cmpuint (a->n_compared, ==, b->n_compared);
      g_assert_cmpuint (a->n_differ, ==, b->n_differ);
      g_assert_true (a->max_abs_err == b->max_abs_err);
      g_assert_true (a->cosine == b->cosine);
      g_assert_cmpmem (a->first_coords, sizeof a->first_coords, b->first_coords, sizeof b->first_coords);
    }
}

typedef struct {
  GMainLoop *loop;
  gboolean ok;
  GError *error;
} Wait;

static void
on_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Wait *w = user_data;
  (void) source;
  w->ok = zw_dump_diff_job_run_finish (result, &w->error);
  g_main_loop_quit (w->loop);
}

typedef struct {
  guint calls;
  guint64 last_done, total;
  gboolean backwards;
} Progress;

static void
record_progress (guint64 done, guint64 total, gpointer user_data)
{
  Progress *p = user_data;

  if (p->calls > 0 && (done < p->last_done || total != p->total))
    p->backwards = TRUE;
  g_assert_cmpuint (done, <=, total);
  p->calls++;
  p->last_done = done;
  p->total = total;
}

static void
test_worker_same_as_sync (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) sync = NULL;
  g_autoptr (ZwDumpDiffJob) job = NULL;
  g_autoptr (ZwDumpDiff) async = NULL;
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait w = { loop, FALSE, NULL };
  guint64 elements = 0;

  sync = zw_dump_diff_folders (dir_a, dir_b, net, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sync->n_diverged, ==, 1);
  g_assert_cmpint (sync->first->v_id, ==, planted_v_id);

  job = zw_dump_diff_job_new (dir_a, dir_b, net, NULL, NULL);
  g_assert_cmpfloat (zw_dump_diff_job_get_fraction (job), ==, -1);   /* not started: loading */
  zw_dump_diff_job_run_async (job, NULL, NULL, on_job_done, &w);
  g_main_loop_run (loop);
  g_assert_no_error (w.error);
  g_assert_true (w.ok);
  g_assert_cmpfloat (zw_dump_diff_job_get_fraction (job), ==, 1.0);
  async = zw_dump_diff_job_steal_diff (job);
  g_assert_nonnull (async);
  assert_same_diff (async, sync);
  g_assert_cmpstr (async->name_a, ==, dir_a);
  g_assert_cmpstr (async->name_b, ==, dir_b);
  {
    g_autoptr (GPtrArray) side_a = zw_dump_diff_job_steal_side (job, 0);
    g_autoptr (GPtrArray) side_b = zw_dump_diff_job_steal_side (job, 1);
    g_assert_nonnull (side_a);
    g_assert_nonnull (side_b);
    g_assert_cmpuint (side_a->len, ==, sync->entries->len);
    g_assert_null (zw_dump_diff_job_steal_diff (job));
  }

  /* the progress: 0 first, then up to the compared values' elements, never back */
  {
    g_autoptr (ZwDumpFolder) fa = zw_dump_folder_load (dir_a, net, NULL, &error);
    g_autoptr (ZwDumpFolder) fb = zw_dump_folder_load (dir_b, net, NULL, &error);
    g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GPtrArray) ta = zw_dump_diff_load_side (fa, net, warnings);
    g_autoptr (GPtrArray) tb = zw_dump_diff_load_side (fb, net, warnings);
    g_autoptr (ZwDumpDiff) d = NULL;
    Progress p = { 0 };

    d = zw_dump_diff_tensors_full (ta, tb, net, NULL, warnings, record_progress, &p, NULL, &error);
    g_assert_no_error (error);
    assert_same_diff (d, sync);
    for (guint i = 0; i < sync->entries->len; i++)
      {
        const ZwDumpDiffEntry *e = g_ptr_array_index (sync->entries, i);
        if (e->status == ZW_DUMP_DIFF_COMPARED)
          elements += e->n_compared;
      }
    g_test_message ("progress: %u calls, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " elements", p.calls,
                    p.last_done, p.total);
    g_assert_false (p.backwards);
    g_assert_cmpuint (p.calls, ==, sync->n_compared + sync->n_mismatch + 1);
    g_assert_cmpuint (p.total, ==, elements);
    g_assert_cmpuint (p.last_done, ==, elements);

    /* cancelled before the first value: nothing, and why */
    {
      g_autoptr (GCancellable) c = g_cancellable_new ();
      g_autoptr (GError) cancelled = NULL;
      g_cancellable_cancel (c);
      g_assert_null (zw_dump_diff_tensors_full (ta, tb, net, NULL, warnings, NULL, NULL, c, &cancelled));
      g_assert_error (cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  }
}

/* ---- display ---- */

typedef struct {
  gboolean done, ok;
  GError *error;
} ViewWait;

static void
on_view_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ViewWait *w = user_data;
  w->ok = zw_dump_diff_view_load_finish (ZW_DUMP_DIFF_VIEW (source), result, &w->error);
  w->done = TRUE;
}

static void
test_view_progress_and_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwDumpDiff) sync = NULL;
  GtkWidget *window, *view;
  ZwDumpDiffView *dv;
  ViewWait w = { 0 }, c = { 0 };
  guint turns = 0, visible_turns = 0, fractions_seen = 0;
  const ZwDumpDiff *shown;
  gint64 t0;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  sync = zw_dump_diff_folders (dir_a, dir_b, net, NULL, NULL, &error);
  g_assert_no_error (error);
  window = gtk_window_new ();
  view = zw_dump_diff_view_new (NULL);
  dv = ZW_DUMP_DIFF_VIEW (view);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_present (GTK_WINDOW (window));

  /* in the worker: the main loop turns while it runs, the progress lies over the table */
  t0 = g_get_monotonic_time ();
  zw_dump_diff_view_load_async (dv, dir_a, dir_b, net, NULL, NULL, on_view_done, &w);
  g_assert_true (zw_dump_diff_view_get_running (dv));
  g_assert_null (zw_dump_diff_view_get_diff (dv));
  while (!w.done)
    {
      double f;
      g_main_context_iteration (NULL, TRUE);
      turns++;
      if (w.done)
        break;
      f = zw_dump_diff_view_get_progress (dv);
      g_assert_cmpfloat (f, <=, 1.0);
      fractions_seen += f >= 0;
      visible_turns += gtk_widget_get_visible (gtk_widget_get_ancestor (zw_dump_diff_view_get_progress_bar (dv),
                                                                        GTK_TYPE_BOX));
      g_assert_cmpint (g_get_monotonic_time () - t0, <, 120 * G_USEC_PER_SEC);
    }
  g_test_message ("diff in the worker: %.0f ms, %u main loop turns, %u with the bar shown, %u with a fraction",
                  (g_get_monotonic_time () - t0) / 1000.0, turns, visible_turns, fractions_seen);
  g_assert_no_error (w.error);
  g_assert_true (w.ok);
  g_assert_cmpuint (turns, >, 1);
  g_assert_cmpuint (visible_turns, >, 0);
  g_assert_cmpuint (fractions_seen, >, 0);
  g_assert_false (zw_dump_diff_view_get_running (dv));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_ancestor (zw_dump_diff_view_get_progress_bar (dv), GTK_TYPE_BOX)));
  shown = zw_dump_diff_view_get_diff (dv);
  g_assert_nonnull (shown);
  assert_same_diff (shown, sync);
  /* the first divergent value selected, as a synchronous load does */
  g_assert_cmpint (zw_dump_diff_view_get_selected_value (dv), ==, planted_v_id);

  /* the Cancel button stops the next one; the diff shown stays */
  zw_dump_diff_view_load_async (dv, dir_b, dir_a, net, NULL, NULL, on_view_done, &c);
  g_assert_true (zw_dump_diff_view_get_running (dv));
  g_signal_emit_by_name (zw_dump_diff_view_get_cancel_button (dv), "clicked");
  g_assert_false (zw_dump_diff_view_get_running (dv));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_ancestor (zw_dump_diff_view_get_progress_bar (dv), GTK_TYPE_BOX)));
  while (!c.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (c.ok);
  g_assert_error (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&c.error);
  g_assert_true (zw_dump_diff_view_get_diff (dv) == shown);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gboolean render_suite, display;
  int status;

  zw_test_suites_from_args (&argc, &argv, &render_suite, &display);
  g_test_init (&argc, &argv, NULL);
  have_display = display && gtk_init_check ();
  make_dumps ();
  if (render_suite)
    g_test_add_func ("/dump-diff-job/render/worker-same-as-sync-progress-counts-elements", test_worker_same_as_sync);
  if (display)
    g_test_add_func ("/dump-diff-job/display/view-worker-progress-bar-and-cancel", test_view_progress_and_cancel);
  status = g_test_run ();
  zw_test_remove_tree (dir_a);
  zw_test_remove_tree (dir_b);
  g_rmdir (root);
  g_free (dir_a);
  g_free (dir_b);
  g_free (root);
  xir_network_unref (net);
  return status;
}
