/* zw-checked.c — checked number conversion and size arithmetic for every loader. */
#include "base/zw-checked.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

ZwNumStatus
zw_double_to_int64 (double value, gint64 min, gint64 max, gint64 *out)
{
  if (!isfinite (value))
    return ZW_NUM_NOT_FINITE;
  if (value != floor (value))
    return ZW_NUM_NOT_INTEGER;
  /* compare as doubles first: converting an out-of-range double to an integer is undefined */
  if (value < (double) min || value > (double) max || fabs (value) > (double) ZW_JSON_INT_MAX)
    return ZW_NUM_OUT_OF_RANGE;
  gint64 v = (gint64) value;
  if (v < min || v > max)
    return ZW_NUM_OUT_OF_RANGE;
  if (out)
    *out = v;
  return ZW_NUM_OK;
}

ZwNumStatus
zw_double_check (double value, double min, double max, double *out)
{
  if (!isfinite (value))
    return ZW_NUM_NOT_FINITE;
  if (value < min || value > max)
    return ZW_NUM_OUT_OF_RANGE;
  if (out)
    *out = value;
  return ZW_NUM_OK;
}

ZwNumStatus
zw_json_int64 (const cJSON *item, gint64 min, gint64 max, gint64 *out)
{
  if (item == NULL)
    return ZW_NUM_MISSING;
  if (!cJSON_IsNumber (item))
    return ZW_NUM_NOT_NUMBER;
  return zw_double_to_int64 (item->valuedouble, min, max, out);
}

ZwNumStatus
zw_json_double (const cJSON *item, double min, double max, double *out)
{
  if (item == NULL)
    return ZW_NUM_MISSING;
  if (!cJSON_IsNumber (item))
    return ZW_NUM_NOT_NUMBER;
  return zw_double_check (item->valuedouble, min, max, out);
}

static gboolean
text_blank_after (const char *end)
{
  while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
    end++;
  return *end == '\0';
}

ZwNumStatus
zw_text_int64 (const char *text, gint64 min, gint64 max, gint64 *out)
{
  char *end = NULL;

  if (text == NULL)
    return ZW_NUM_MISSING;
  while (*text == ' ' || *text == '\t')
    text++;
  if (*text == '\0')
    return ZW_NUM_NOT_NUMBER;
  errno = 0;
  gint64 v = g_ascii_strtoll (text, &end, 10);
  if (end == text)
    return ZW_NUM_NOT_NUMBER;
  if (!text_blank_after (end))
    {
      /* "12.0" or "1e3": read as a double and require an integer */
      double d = g_ascii_strtod (text, &end);
      if (end == text || !text_blank_after (end))
        return ZW_NUM_NOT_NUMBER;
      return zw_double_to_int64 (d, min, max, out);
    }
  if (errno == ERANGE || v < min || v > max)
    return ZW_NUM_OUT_OF_RANGE;
  if (out)
    *out = v;
  return ZW_NUM_OK;
}

ZwNumStatus
zw_text_double (const char *text, double min, double max, double *out)
{
  char *end = NULL;

  if (text == NULL)
    return ZW_NUM_MISSING;
  double d = g_ascii_strtod (text, &end);
  if (end == text || !text_blank_after (end))
    return ZW_NUM_NOT_NUMBER;
  return zw_double_check (d, min, max, out);
}

char *
zw_num_status_describe (ZwNumStatus status, const cJSON *got, double min, double max)
{
  g_autofree char *got_text = NULL;

  if (got != NULL && cJSON_IsNumber (got))
    got_text = g_strdup_printf ("%.17g", got->valuedouble);
  switch (status)
    {
    case ZW_NUM_OK:
      return g_strdup ("is valid");
    case ZW_NUM_MISSING:
      return g_strdup ("is missing");
    case ZW_NUM_NOT_NUMBER:
      return g_strdup ("must be a number");
    case ZW_NUM_NOT_FINITE:
      return g_strdup ("must be a finite number");
    case ZW_NUM_NOT_INTEGER:
      return g_strdup_printf ("must be an integer%s%s", got_text ? ", got " : "", got_text ? got_text : "");
    case ZW_NUM_OUT_OF_RANGE:
    default:
      return g_strdup_printf ("must be in [%.17g, %.17g]%s%s", min, max, got_text ? ", got " : "",
                              got_text ? got_text : "");
    }
}

gboolean
zw_u64_add (guint64 a, guint64 b, guint64 *out)
{
  return g_uint64_checked_add (out, a, b);
}

gboolean
zw_u64_mul (guint64 a, guint64 b, guint64 *out)
{
  return g_uint64_checked_mul (out, a, b);
}

gboolean
zw_shape_elements (const gint64 *shape, guint rank, guint64 limit, guint64 *out)
{
  guint64 n = 1;

  for (guint i = 0; i < rank; i++)
    {
      if (shape[i] < 0 || !g_uint64_checked_mul (&n, n, (guint64) shape[i]))
        return FALSE;
    }
  if (n > limit)
    return FALSE;
  *out = n;
  return TRUE;
}

gboolean
zw_range_inside (guint64 addr, guint64 size, guint64 base, guint64 capacity)
{
  guint64 end, limit;

  if (!g_uint64_checked_add (&end, addr, size) || !g_uint64_checked_add (&limit, base, capacity))
    return FALSE;
  return addr >= base && end <= limit;
}

static guint
depth_rec (const cJSON *item, guint level, guint limit)
{
  guint deepest = level;

  if (level > limit)
    return level;
  if (cJSON_IsArray (item) || cJSON_IsObject (item))
    {
      const cJSON *child;
      cJSON_ArrayForEach (child, item)
        {
          guint d = depth_rec (child, level + 1, limit);
          if (d > deepest)
            deepest = d;
          if (deepest > limit)
            break;
        }
    }
  return deepest;
}

guint
zw_json_depth (const cJSON *item, guint limit)
{
  if (item == NULL)
    return 0;
  return depth_rec (item, 0, limit);
}

void
zw_set_arg_error (GError **error, GQuark domain, gint code, const char *func, const char *arg, const char *condition)
{
  g_set_error (error, domain, code, "%s: invalid argument \u201c%s\u201d: %s", func, arg, condition);
}
