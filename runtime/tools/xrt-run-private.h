/* xrt-run-private.h — shared by the xrt-run command files. */
#pragma once

#include <glib.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"
#include "xir/xir-network.h"
#include "xrt/xrt-tensor.h"

enum {
  XRT_RUN_EXIT_OK = 0,
  XRT_RUN_EXIT_INPUT = 1,  /* a file or value is bad: the message names it */
  XRT_RUN_EXIT_USAGE = 2,  /* the command line is wrong */
};

/* Prints "xrt-run: <message>", frees @error, returns XRT_RUN_EXIT_INPUT. */
int xrt_run_fail (GError *error);
/* g_option_context_parse with the error printed; returns 0 or XRT_RUN_EXIT_USAGE. */
int xrt_run_parse (GOptionContext *ctx, int *argc, char ***argv);
/* A number option (GLib reads "nan" and "inf" as doubles): 0 when @value is finite and in
 * [@min, @max] (G_MAXDOUBLE: no upper bound), else prints "xrt-run CMD: --OPTION must be a
 * finite number in [MIN, MAX], not VALUE" and returns XRT_RUN_EXIT_USAGE.  A NaN threshold compares false with everything and
 * would turn a check off. */
int xrt_run_check_number (const char *cmd, const char *option, double value, double min, double max);

int xrt_run_cmd_info (int argc, char **argv);
int xrt_run_cmd_fake_params (int argc, char **argv);
int xrt_run_cmd_plan (int argc, char **argv);
int xrt_run_cmd_run (int argc, char **argv);
int xrt_run_cmd_check (int argc, char **argv);
int xrt_run_cmd_report (int argc, char **argv);
/* xrt-run report's shared pieces (xrt-run-report.c) and its tensor subcommands
 * (xrt-run-report-tensors.c) */
int xrt_run_report_usage (const char *cmd, const char *message);
void xrt_run_print_warnings (GPtrArray *warnings);
int xrt_run_report_diff (int argc, char **argv);
int xrt_run_report_stats (int argc, char **argv);
int xrt_run_cmd_sweep (int argc, char **argv);

/* Pipelines (xrt-run-pipeline.c): `run` and `plan` given a pipeline file hand the command
 * to these; `check` given a pipeline report. */
gboolean    xrt_run_is_pipeline_file   (const char *path);
const char *xrt_run_find_pipeline_file (int argc, char **argv);
int         xrt_run_pipeline_cmd_plan  (int argc, char **argv);
int         xrt_run_pipeline_cmd_run   (int argc, char **argv);
int         xrt_run_pipeline_cmd_sweep (int argc, char **argv);
/* -1 when @path is not a pipeline report (the deploy report's check goes on) */
int         xrt_run_pipeline_check_if_pipeline (const char *path);

/* --ocm: its one-line help and, for a command's --help, the options one per line with
 * what each does (both from the table of OCM options; g_free them).  xrt_run_parse_ocm
 * reads @text (a name, short name or number); on other text it prints why, naming
 * @command, and returns FALSE. */
char    *xrt_run_ocm_help         (void);
char    *xrt_run_ocm_options_text (void);
gboolean xrt_run_parse_ocm        (const char *command, const char *text, ZwOcmOpt *out);

/* The options of `xrt-run run`, from our command line, icraft-run's flags or a config file. */
typedef struct {
  char *json, *raw, *input, *ocm, *dump_dir, *dump_format, *save_snapshot, *load_snapshot, *device, *log_dir;
  char *jr_path, *network;     /* icraft-run's jr_path + network: json and raw in a folder */
  char *backends;              /* backends as written */
  char *board_backend;         /* backends = "ZG330,URL;Host" / "BY,URL;Host": "ZG330", "BY" (URL in device) */
  char *decode_dll;            /* a preprocessing plugin (xrt-run-decode-plugin.h) */
  GArray *dump_ftmp;           /* gint64 v_ids: dump only these (dump_ftmp = "5,12,75") */
  gboolean no_merge, no_etm, profile, log, lazy, log_io, log_time, precheck, no_md5, summary;
  gboolean vendor;             /* icraft-run's form (a config file, --json …): its defaults and log folder */
  gboolean merge_set;          /* merge_hardop given */
  gboolean dump_output;        /* dump only the network's outputs */
  gboolean host_run;           /* backends = "Host": the host reference run */
  gint iterations;
  guint64 frequency_mhz;       /* frequency: the ICore clock (0: the board's) */
  guint64 wait_time_ms;        /* wait_time: the device's wait limit (0: its default, 10000) */
} RunOptions;

void xrt_run_options_clear (RunOptions *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunOptions, xrt_run_options_clear)

/* Reads the [run] section of an icraft-run config file into @o (xrt-run-keys.c's table; a key
 * outside it, or a bad value, fails naming @path, the key and the value). */
gboolean xrt_run_load_config (const char *path, RunOptions *o, GError **error);

/* icraft-run's keys (xrt-run-keys.c): xrt_run_options_set_key sets @key from @value as a
 * config file (@origin its path) or the command line (@origin NULL) gives it, checking the
 * value; errors name @origin, the key and the value. xrt_run_take_vendor_flags takes the
 * vendor's `--key value` / `--flag` / `--key=value` out of @argv (the others stay, in order,
 * for GOption). xrt_run_options_finish checks what needs several keys (jr_path + network,
 * dump_ftmp with dump_format …) and puts in icraft-run's defaults when @o->vendor. */
gboolean xrt_run_options_set_key   (RunOptions *o, const char *origin, const char *key, const char *value,
                                    GError **error);
gboolean xrt_run_take_vendor_flags (int *argc, char **argv, RunOptions *o, GError **error);
gboolean xrt_run_options_finish    (RunOptions *o, const char *origin, GError **error);
gboolean xrt_run_key_exists        (const char *name);
gboolean xrt_run_key_is_flag       (const char *name);
char    *xrt_run_keys_dup_list     (void);
/* "run.toml: [run] frequency = “860”" (@origin a config file) or "--frequency “860”" (NULL). */
char    *xrt_run_key_describe      (const char *origin, const char *key, const char *value);

/* An input image (PNG, JPEG, BMP … whatever gdk-pixbuf decodes) as @value's bytes: scaled to
 * its H×W, its channels (1 grey, 3 RGB, 4 RGBA; more in a blocked layout are zero), laid out
 * in its layout and converted to its type (xrt-run-image.c). NULL with an error naming @path
 * and the v_id. xrt_run_image_is_image: @path's name ends as an image's does. */
guint8  *xrt_run_image_load        (const char *path, const XirValue *value, gsize *size, GError **error);
gboolean xrt_run_image_is_image    (const char *path);

/* A decode_dll plugin (xrt-run-decode.c): loaded once, it turns each input file's bytes into
 * the input's bytes. Errors name the plugin, the file and the v_id. */
typedef struct _XrtRunDecoder XrtRunDecoder;
XrtRunDecoder *xrt_run_decoder_open  (const char *path, GError **error);
guint8        *xrt_run_decoder_decode (XrtRunDecoder *decoder, const char *path, guint index, const XirValue *value,
                                       GError **error);
void           xrt_run_decoder_free  (XrtRunDecoder *decoder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrtRunDecoder, xrt_run_decoder_free)

/* One tensor per input of @view for forward @iteration from @spec (xrt-run-inputs.c: files
 * separated by ";" or a .txt list; images, raw bytes or SQB .ftmp, or through @decoder),
 * or the seeded inputs when @spec is NULL. */
GPtrArray *xrt_run_make_inputs (XirNetwork *net, XirNetworkView *view, const char *spec, guint iteration,
                                XrtRunDecoder *decoder, GError **error);

/* What the workbench shows first, as text (xrt-run run --summary): segment sizes, FTMP
 * against its lower bound, the OCM option and its saving, launches, the simulated time and
 * the five slowest steps. Either argument may be NULL. */
void xrt_run_print_summary (const ZwDeployReport *report, const ZwProfile *profile);
