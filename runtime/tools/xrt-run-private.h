/* xrt-run-private.h — shared by the xrt-run command files. */
#pragma once

#include <glib.h>

#include "report/zw-deploy-report.h"
#include "report/zw-profile.h"

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
int xrt_run_cmd_sweep (int argc, char **argv);

/* --ocm: its one-line help and, for a command's --help, the options one per line with
 * what each does (both from the table of OCM options; g_free them).  xrt_run_parse_ocm
 * reads @text (a name, short name or number); on other text it prints why, naming
 * @command, and returns FALSE. */
char    *xrt_run_ocm_help         (void);
char    *xrt_run_ocm_options_text (void);
gboolean xrt_run_parse_ocm        (const char *command, const char *text, ZwOcmOpt *out);

/* The options of `xrt-run run`, from the command line or a config file. */
typedef struct {
  char *json, *raw, *input, *ocm, *dump_dir, *dump_format, *save_snapshot, *load_snapshot, *device, *log_dir;
  gboolean no_merge, no_etm, profile, log, lazy, log_io, log_time, precheck, no_md5, summary;
  gint iterations;
} RunOptions;

void xrt_run_options_clear (RunOptions *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunOptions, xrt_run_options_clear)

/* Reads the [run] section of an icraft-run config file into @o (keys it does not use are
 * reported on stderr). FALSE with the error naming @path. */
gboolean xrt_run_load_config (const char *path, RunOptions *o, GError **error);

/* What the workbench shows first, as text (xrt-run run --summary): segment sizes, FTMP
 * against its lower bound, the OCM option and its saving, launches, the simulated time and
 * the five slowest steps. Either argument may be NULL. */
void xrt_run_print_summary (const ZwDeployReport *report, const ZwProfile *profile);
