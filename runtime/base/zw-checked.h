/* zw-checked.h — the one validation layer every loader uses: checked number conversion and
 * overflow-checked size arithmetic.
 *
 * Numbers arrive from cJSON (and from text files) as doubles; a double is only turned into
 * an integer after it has been found finite, integral and inside the range the field allows.
 * Sizes (shape products, byte counts, address + size) are computed with overflow checks, and
 * allocations are bounded by what the file can justify. The checks do not set errors
 * themselves: each loader formats its own message (file, op or value id, field) in its own
 * error domain, with the reason zw_num_status_describe() gives.
 */
#pragma once

#include <cjson/cJSON.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  ZW_NUM_OK,
  ZW_NUM_MISSING,       /* the field is absent */
  ZW_NUM_NOT_NUMBER,    /* present but not a JSON number (or not numeric text) */
  ZW_NUM_NOT_FINITE,    /* inf or nan (e.g. 2.2e39 read into a float) */
  ZW_NUM_NOT_INTEGER,   /* has a fractional part */
  ZW_NUM_OUT_OF_RANGE,  /* outside [min, max] */
} ZwNumStatus;

/* Largest integer a double holds exactly: JSON integers beyond it are refused. */
#define ZW_JSON_INT_MAX G_GINT64_CONSTANT (9007199254740992)

/* A double as an integer in [min, max]. */
ZwNumStatus zw_double_to_int64 (double value, gint64 min, gint64 max, gint64 *out);
/* A double in [min, max] (both finite) that is itself finite. */
ZwNumStatus zw_double_check (double value, double min, double max, double *out);
/* A cJSON item (NULL = missing) as an integer / a finite double in range. */
ZwNumStatus zw_json_int64 (const cJSON *item, gint64 min, gint64 max, gint64 *out);
ZwNumStatus zw_json_double (const cJSON *item, double min, double max, double *out);
/* Text (the whole string, surrounding blanks allowed) as an integer / a finite double. */
ZwNumStatus zw_text_int64 (const char *text, gint64 min, gint64 max, gint64 *out);
ZwNumStatus zw_text_double (const char *text, double min, double max, double *out);

/* The reason, in words, for an error message: "must be an integer in [0, 4294967296], got 1e+20".
 * @got may be NULL (missing, not a number). Returns a new string. */
char *zw_num_status_describe (ZwNumStatus status, const cJSON *got, double min, double max);

/* Overflow-checked arithmetic: FALSE (and *out untouched) on overflow. */
gboolean zw_u64_add (guint64 a, guint64 b, guint64 *out);
gboolean zw_u64_mul (guint64 a, guint64 b, guint64 *out);
/* The element count of a shape (every axis >= 0), FALSE if it overflows or exceeds @limit. */
gboolean zw_shape_elements (const gint64 *shape, guint rank, guint64 limit, guint64 *out);
/* [addr, addr + size) lies inside [base, base + capacity), without wrap-around anywhere. */
gboolean zw_range_inside (guint64 addr, guint64 size, guint64 base, guint64 capacity);

/* Bounds on what a file can justify. */
#define ZW_MAX_TENSOR_BYTES   (G_GUINT64_CONSTANT (1) << 36)  /* 64 GiB: more than any board's ETM */
#define ZW_MAX_JSON_DEPTH     64                             /* nesting of any file we read */

/* Deepest nesting of arrays/objects in @item (0 for a scalar); stops counting at @limit + 1. */
guint zw_json_depth (const cJSON *item, guint limit);

/* Argument checks of public calls that take a GError: an invalid argument (NULL where an
 * object is needed, a value out of its range) is a programmer's error, but the caller's
 * error handling must still see it, so instead of g_return_val_if_fail (which leaves the
 * GError unset) it fails with "FUNC: invalid argument “ARG”: CONDITION" in @domain/@code. */
void zw_set_arg_error (GError **error, GQuark domain, gint code, const char *func, const char *arg,
                       const char *condition);
#define ZW_RETURN_VAL_IF_BAD_ARG(cond, arg, error, domain, code, val)                          \
  G_STMT_START                                                                               \
  {                                                                                          \
    if (G_UNLIKELY (!(cond)))                                                                \
      {                                                                                      \
        zw_set_arg_error ((error), (domain), (code), G_STRFUNC, (arg), #cond);               \
        return (val);                                                                        \
      }                                                                                      \
  }                                                                                          \
  G_STMT_END

G_END_DECLS
