/* xrt-session-private.h — what the files of the session share: the session struct and the
 * steps of a forward (xrt-session.c, -forward.c, -values.c, -step.c, -dump.c, -snapshot.c);
 * not installed. */
#pragma once

#include "xrt/xrt-session.h"
#include "base/zw-checked.h"

#include <stdio.h>

G_BEGIN_DECLS

/* Public calls check their arguments into the GError (the caller's error handling sees them). */
#define CHECK_ARG(cond, arg, val) \
  ZW_RETURN_VAL_IF_BAD_ARG (cond, arg, error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, val)

struct _XrtSession {
  gint ref_count;
  XirNetworkView *view;
  XirNetwork *net;
  XrtDevice *device;          /* the board, or NULL */
  GPtrArray *backends;        /* XrtBackend (refs), priority order */
  XrtBackend *board;          /* the first board backend, or NULL when the view has no board op */
  gboolean applied;
  GArray *forwards;           /* XrtForward */
  GHashTable *op_backend;     /* op_id -> XrtBackend* (borrowed from backends) */

  /* forward state */
  GHashTable *host_values;    /* v_id -> XrtTensor* (host copies) */
  GHashTable *on_device;      /* v_id set: the board holds the current bytes */
  guint position;             /* next forward step (stepTo) */
  guint part_op;              /* step @position is a merged launch stopped after this op index; G_MAXUINT: none */
  double part_ms[3];          /* memcpy, hard, other of its parts so far */
  GHashTable *in_place;       /* v_id set: forward_into outputs the hardops write in place */
  GPtrArray *pending_inputs;
  guint next_input;

  XrtSessionCallback pre_cb, post_cb;
  gpointer pre_data, post_data;
  GDestroyNotify pre_destroy, post_destroy;
  gboolean log_io, log_time;
  FILE *log_stream;
  gboolean dump;
  char *dump_dir;
  char *dump_format;
  ZwDumpFormat dump_fmt;
  GHashTable *dump_only;      /* v_id set: dump only these (setDumpOutputs' choice); NULL: every value */
  ZwDumpManifest *manifest;
  gboolean profile_on;
  ZwProfile *profile;
  double total_ms;
  double clock_ms;            /* timeline position inside a forward */
  gint busy;                  /* a public call runs (session_enter) */
};

/* xrt-session.c */
void xrt_session_forward_clear (gpointer p);

/* xrt-session-forward.c: the steps, apply, running them (the _unguarded calls are the
 * public ones after their argument checks and the one-call guard) */
gboolean xrt_session_build_forwards (XrtSession *s, GError **error);
gboolean xrt_session_check_applied (XrtSession *s, const char *call, GError **error);
gboolean xrt_forward_is_merged_launch (const XrtForward *f);
GPtrArray *xrt_session_step_outputs (XrtSession *s, const XrtForward *f, GError **error);
gboolean xrt_session_run_step_part (XrtSession *s, guint index, guint until, GError **error);
void xrt_session_backends_forward_begin (XrtSession *s);
void xrt_session_begin_forward (XrtSession *s, GPtrArray *inputs);
gboolean xrt_session_end_forward (XrtSession *s, gboolean ok, GError **error);
gboolean xrt_session_apply_unguarded (XrtSession *s, GError **error);
GPtrArray *xrt_session_forward_unguarded (XrtSession *s, GPtrArray *inputs, GError **error);
gboolean xrt_session_forward_into_unguarded (XrtSession *s, GPtrArray *inputs, GPtrArray *outputs, GError **error);

/* xrt-session-step.c */
GPtrArray *xrt_session_step_to_unguarded (XrtSession *s, gint64 op_id, GPtrArray *inputs, GError **error);
GPtrArray *xrt_session_forward_step_unguarded (XrtSession *s, guint index, GPtrArray *inputs, GError **error);

/* xrt-session-values.c */
gboolean xrt_session_device_place_of (XrtSession *s, gint64 v_id, XrtMemRegion **region, guint64 *addr,
                                      XrtBackend **owner);
XrtTensor *xrt_session_host_value (XrtSession *s, const XirValue *v, double *memcpy_ms, GError **error);
gboolean xrt_session_ensure_on_device (XrtSession *s, const XrtForward *f, double *memcpy_ms, GError **error);
double xrt_session_leaving_ms (XrtSession *s, const XrtForward *f);
void xrt_session_tell_connected_values (XrtSession *s);

/* xrt-session-dump.c */
void xrt_session_describe_values (XrtSession *s, const XrtForward *f, GString *out, GArray *ids);
char *xrt_forward_step_type (const XrtForward *f);
char *xrt_forward_profile_type (const XrtForward *f);
gboolean xrt_session_dump_step (XrtSession *s, const XrtForward *f, GArray *ids, GError **error);

G_END_DECLS
