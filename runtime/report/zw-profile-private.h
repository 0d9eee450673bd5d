/* zw-profile-private.h — shared by the time-profile model (zw-profile.c) and its formats
 * (zw-profile-{number,vendor,json,csv,trace,file}.c); not installed. */
#pragma once

#include "report/zw-profile.h"

#include <cjson/cJSON.h>

#define JSON_FORMAT_NAME "zhuge-time-profile"
#define JSON_VERSION 1

/* "input", "icore", "output", "cpu": the summary's keys in our JSON and its names. */
extern const char *const zw_profile_summary_names[ZW_PROFILE_N_SUMMARY];

/* ---- model (zw-profile.c) ---- */

/* A copy of the rows, the order and the flags, without totals, customops or summary: what a
 * writer recomputes the totals on when the profile has none. */
ZwProfile *zw_profile_copy_rows (const ZwProfile *src);
ZwProfileCustomop *zw_profile_customop_add (ZwProfile *p, const char *name, double total, double hard);
void zw_profile_summary_clear (ZwProfile *p);

/* ---- numbers (zw-profile-number.c) ---- */

/* Locale-independent "%.<digits><conv>" into @buf. */
void zw_profile_format_ascii (char *buf, gsize size, int digits, char conv, double value);
/* Appends zw_profile_format_number (@v, @as_float) to @s. */
void zw_profile_append_number (GString *s, double v, gboolean as_float);
/* A time (a float32's range), optionally followed by the vendor's " ms" or " ms."; an integer;
 * true/false/1/0. FALSE when @text is not one, *out unchanged. */
gboolean zw_profile_parse_number (const char *text, double *out);
gboolean zw_profile_parse_int64 (const char *text, gint64 *out);
gboolean zw_profile_parse_bool (const char *text, gboolean *out);

/* ---- parsing context (zw-profile-file.c) ---- */

typedef struct {
  const char *origin;
  GPtrArray *warnings;
  GError *error;        /* the first malformed row: the file is refused */
} ZwProfileParseCtx;

/* A warning "ORIGIN:LINE: message" (LINE 0: none) into the caller's list, if it gave one. */
void zw_profile_parse_warn (ZwProfileParseCtx *c, guint line, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
/* The first malformed row: sets c->error (later calls keep the first). */
void zw_profile_parse_bad_row (ZwProfileParseCtx *c, guint line, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

/* ---- the formats: each writer and its reader. A reader returns FALSE when nothing in
 * the text was a profile of its format; @totals_seen says the file stated its totals. ---- */

void zw_profile_write_vendor (const ZwProfile *p, GString *s);
gboolean zw_profile_parse_vendor (ZwProfile *prof, ZwProfileParseCtx *c, const char *data, gboolean *totals_seen);

char *zw_profile_write_json (const ZwProfile *p);
gboolean zw_profile_parse_json (ZwProfile *prof, ZwProfileParseCtx *c, const cJSON *root, gboolean *totals_seen);

void zw_profile_write_csv (const ZwProfile *p, GString *s);
gboolean zw_profile_parse_csv (ZwProfile *prof, ZwProfileParseCtx *c, const char *data, gsize len);

char *zw_profile_write_trace (const ZwProfile *p);
gboolean zw_profile_parse_trace (ZwProfile *prof, ZwProfileParseCtx *c, const cJSON *events);

/* ---- JSON pieces our JSON and the trace share (zw-profile-json.c) ---- */

/* A time printed shortest round-trip (null when not finite). */
void zw_profile_json_add_time (cJSON *obj, const char *key, double v);
cJSON *zw_profile_json_merge (const GArray *m);
gboolean zw_profile_json_number (const cJSON *o, const char *key, double *out);
gboolean zw_profile_json_id (const cJSON *o, const char *key, gint64 min, gint64 max, gint64 *out);
gboolean zw_profile_json_optional_time (const cJSON *o, const char *key, gboolean non_negative, double *out,
                                        ZwProfileParseCtx *c, const char *where);
void zw_profile_json_merge_from (ZwProfileRow *r, const cJSON *m, ZwProfileParseCtx *c, const char *where);
