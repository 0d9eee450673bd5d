/* zw-test-util.h — what several test binaries need: the demo networks and the real sample. */
#pragma once

#include "xir/xir-network.h"

#include <cjson/cJSON.h>

/* A demo network from the build (<ZW_DATA_DIR>/networks/NAME_ZG.json with its .raw), or
 * "real": the vendor's sample with synthetic params — NULL, after g_test_skip(), when
 * ../shared is absent. */
XirNetwork *zw_test_load_net (const char *name);

/* One host tensor per network input, of random bytes from @seed (the same for every test
 * that gives the same seed). */
GPtrArray *zw_test_seeded_inputs (XirNetwork *net, guint32 seed);

/* The C API's reference run: a session of @net on mock://zg330 made as `xrt-run run` makes
 * it (xrt_session_new_for_device), one forward of @inputs; every value dumped as HQB into
 * @dump_dir when not NULL. zw_test_assert_same_outputs: byte for byte, not all zeros. */
XirNetworkView *zw_test_whole_view (XirNetwork *net);
GPtrArray *zw_test_reference_outputs (XirNetwork *net, GPtrArray *inputs, const char *dump_dir);
void zw_test_assert_same_outputs (GPtrArray *outs, GPtrArray *ref);

/* <ZW_SHARED_DIR>/@rel, or NULL after g_test_skip() when it does not exist. */
char *zw_test_shared_file (const char *rel);

/* ---- temporary folders: every test removes what it made ---------------------------------- */

/* Removes @path and everything under it: symbolic links are removed, never followed; folders
 * a test made read-only are made writable first. Nothing happens when @path does not exist. */
void zw_test_remove_tree (const char *path);

/* A temporary folder of its own (g_dir_make_tmp of @tmpl, e.g. "zw-app-XXXXXX"; the test fails
 * when it cannot be made), removed with everything under it when freed:
 *   g_autoptr (ZwTestTmpDir) dir = zw_test_tmp_dir_new ("zw-app-XXXXXX");
 * @dir is the folder's path (a string). */
typedef char ZwTestTmpDir;
ZwTestTmpDir *zw_test_tmp_dir_new (const char *tmpl);
void zw_test_tmp_dir_free (ZwTestTmpDir *dir);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwTestTmpDir, zw_test_tmp_dir_free)

/* Does one of the strings of @texts contain @needle? */
gboolean zw_test_texts_contain (GPtrArray *texts, const char *needle);

/* Copies the files of the folder @from into the folder @to (one level: dumps are flat; @to is
 * made when missing). */
void zw_test_copy_folder (const char *from, const char *to);

/* xrt-run as a user runs it ($XRT_RUN): exit status and what it printed. */
typedef struct {
  int status;
  char *out;
  char *err;
} ZwRun;

void zw_run_clear (ZwRun *run);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ZwRun, zw_run_clear)

/* Runs $XRT_RUN with the NULL-terminated arguments and waits for it. */
void zw_test_xrt_run (ZwRun *run, ...) G_GNUC_NULL_TERMINATED;

/* $XRT_RUN with @args (NULL-terminated) in @cwd (NULL: here), bounded for inputs that could
 * block or eat memory: killed after @seconds (status -1, "timed out" in err), and its address
 * space capped at 4 GiB outside sanitizer builds (a read without bound then fails instead of
 * taking the machine's memory).  Standard output is kept as bytes in @out (a writer may put
 * binary there; @out_len bytes, NUL-terminated). */
void zw_test_xrt_run_bounded (ZwRun *run, const char *cwd, guint seconds, const char *const *args, gsize *out_len);

/* A value object in the vendor's JSON: quantised with "@scales([axis=-1]SCALES)" when
 * @scales is not NULL, else of plain @storage dtype. */
cJSON *zw_test_value_json (gint64 v_id, const char *storage, const char *scales, const char *layout,
                           const int *shape, int rank, const char *mtype);

/* An op object in the vendor's JSON (no inputs or outputs yet, empty tags), appended to
 * @ops and returned. */
cJSON *zw_test_op_json (cJSON *ops, const char *type, const char *target, gint64 op_id);

/* Iterates the main context until @done returns TRUE or 60 s pass (never sleeps unbounded:
 * a 20 ms tick wakes it). Returns @done's last answer. */
gboolean zw_test_wait_until (gboolean (*done) (gpointer), gpointer data);

/* One forward of @net (seeded inputs, seed 7) on the simulated ZG330 with merge @merge, ETM
 * optimize on and OCM Best score, a time profile on: its profile (as read back from the
 * session's JSON) and its deploy report, both new. */
#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"
void zw_test_run_profiled (XirNetwork *net, gboolean merge, ZwProfile **profile, ZwDeployReport **report);
/* @net run with merge on and with merge off (zw_test_run_profiled), each profile written as
 * the vendor's *_time.txt: to @path_on and @path_off. */
void zw_test_write_merge_on_off (XirNetwork *net, const char *path_on, const char *path_off, ZwProfile **on,
                                 ZwDeployReport **report_on, ZwProfile **off, ZwDeployReport **report_off);
/* The same forward as a value: its profile and deploy report (the test owns both: clear it
 * with zw_test_forward_clear), every value dumped into @dump_dir in @dump_format ("SQB",
 * "SFB"…) when @dump_dir is not NULL. */
typedef struct {
  ZwProfile *profile;
  ZwDeployReport *report;
} ZwTestForward;
ZwTestForward zw_test_forward (XirNetwork *net, gboolean merge, const char *dump_dir, const char *dump_format);
void zw_test_forward_clear (ZwTestForward *forward);

/* The ZG330 deployment (applied on mock://zg330, merge @merge) of the demo network @name, or
 * of "real" (the vendor's sample, synthetic params), with the network's graph attached as the
 * workbench does; NULL after g_test_skip() when ../shared is absent. */
ZwDeployReport *zw_test_deploy (const char *name, gboolean merge);

/* Asserts that @contents (@len bytes) is well-formed XML whose root element is <svg>. */
void zw_test_assert_svg (const char *contents, gsize len);

/* One profiled pass of @pipe on the simulated board: applied, forwarded once (its outputs in
 * *@outputs when not NULL) and its pipeline report JSON (the test owns it), which the
 * independent checker has passed (@origin names the file in messages). */
#include "deploy/xrt-pipeline.h"
cJSON *zw_test_pipeline_pass (XrtPipeline *pipe, const char *origin, GPtrArray **outputs);

/* ---- boards over a socket (issue 18) ---------------------------------------------------- */

#include "xrt/xrt-device.h"
#include <gio/gio.h>

/* A zhuge-board process ($ZW_TEST_BOARD) the test started on a free loopback port: it dies
 * with the test (PR_SET_PDEATHSIG), stops by itself after 15 minutes at the latest, and
 * zw_test_board_stop() ends it. */
typedef struct {
  GSubprocess *proc;
  guint port;
  char *kind;
  char *url;   /* socket://KIND@127.0.0.1:PORT */
} ZwBoard;

/* Starts a board of @kind ("zg330", "buyi") with the extra arguments (NULL-terminated, e.g.
 * "--fault", "die@3"); NULL after g_test_skip() when $ZW_TEST_BOARD is not set. */
ZwBoard *zw_test_board_start (const char *kind, ...) G_GNUC_NULL_TERMINATED;
void     zw_test_board_stop  (ZwBoard *board);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ZwBoard, zw_test_board_stop)

/* Opens @mock_url ("mock://zg330", "mock://buyi") — or, when $ZW_TEST_SOCKET is set (the
 * suites' second run against a board), the same board kind served by a zhuge-board of a pool
 * the test starts (another board when every one is busy), stopped at exit.  Asserts it opens. */
XrtDevice *zw_test_open_device (const char *mock_url);
/* The URL zw_test_open_device() would open for @mock_url (a board of the pool when in
 * socket mode; it may be busy). */
const char *zw_test_device_url (const char *mock_url);

/* Takes "--socket" out of the arguments (before g_test_init) and, when it was there, runs
 * the test against zhuge-board boards (sets $ZW_TEST_SOCKET). */
void zw_test_socket_mode_from_args (int *argc, char ***argv);

/* "--suite render|display" (meson runs a view test binary once per suite): our own option,
 * taken out of @argv before g_test_init sees it.  Without it both suites run. */
void zw_test_suites_from_args (int *argc, char ***argv, gboolean *render, gboolean *display);
