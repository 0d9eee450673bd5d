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

int xrt_run_cmd_info (int argc, char **argv);
int xrt_run_cmd_fake_params (int argc, char **argv);
int xrt_run_cmd_plan (int argc, char **argv);
int xrt_run_cmd_run (int argc, char **argv);
int xrt_run_cmd_check (int argc, char **argv);
int xrt_run_cmd_report (int argc, char **argv);

/* What the workbench shows first, as text (xrt-run run --summary): segment sizes, FTMP
 * against its lower bound, the OCM option and its saving, launches, the simulated time and
 * the five slowest steps. Either argument may be NULL. */
void xrt_run_print_summary (const ZwDeployReport *report, const ZwProfile *profile);
