/* zw-profile-number.c — times as text in every format: written with the fewest digits that
 * read back the same, read back checked (a float32 range, the vendor's " ms" unit). */
#include "report/zw-profile-private.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---------------------------------------------------------------------- */

/* Locale-independent "%.<digits><conv>" (the app may run under a locale with a decimal comma). */
void
zw_profile_format_ascii (char *buf, gsize size, int digits, char conv, double value)
{
  char fmt[16];

  snprintf (fmt, sizeof fmt, "%%.%d%c", digits, conv);
  g_ascii_formatd (buf, (gint) size, fmt, value);
}

char *
zw_profile_format_number (double value, gboolean as_float)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];
  int max_digits = as_float ? 9 : 17;
  int p, exp10;

  if (value == 0)
    return g_strdup ("0");
  if (!isfinite (value))
    return g_strdup (isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
  if (as_float && fabs (value) > FLT_MAX)  /* no float32 holds it (and the cast is undefined) */
    return g_strdup (value > 0 ? "inf" : "-inf");
  if (as_float)
    value = (float) value;
  /* Fewest significant digits that read back as the same value. */
  for (p = 1; p < max_digits; p++)
    {
      double back;

      zw_profile_format_ascii (buf, sizeof buf, p - 1, 'e', value);
      back = g_ascii_strtod (buf, NULL);
      if (as_float ? (float) back == (float) value : back == value)
        break;
    }
  zw_profile_format_ascii (buf, sizeof buf, p - 1, 'e', value);
  exp10 = atoi (strchr (buf, 'e') + 1);
  /* "{}"-style: plain decimals from 1e-4 up to 1e16, scientific outside. */
  if (exp10 < -4 || exp10 >= 16)
    return g_strdup (buf);
  zw_profile_format_ascii (buf, sizeof buf, MAX (0, p - 1 - exp10), 'f', value);
  return g_strdup (buf);
}

void
zw_profile_append_number (GString *s, double v, gboolean as_float)
{
  g_autofree char *t = zw_profile_format_number (v, as_float);
  g_string_append (s, t);
}

/* A number, optionally followed by the vendor's " ms" or " ms." unit. */
gboolean
zw_profile_parse_number (const char *text, double *out)
{
  char *end;
  double v;

  while (g_ascii_isspace (*text))
    text++;
  if (!*text)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  /* the vendor writes float32 times: anything a float32 cannot hold is not a time */
  if (end == text || !isfinite (v) || fabs (v) > FLT_MAX)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (g_str_has_prefix (end, "ms"))
    end += 2;
  if (*end == '.')
    end++;
  while (g_ascii_isspace (*end))
    end++;
  if (*end)
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
zw_profile_parse_int64 (const char *text, gint64 *out)
{
  char *end;
  gint64 v;

  while (g_ascii_isspace (*text))
    text++;
  if (!*text)
    return FALSE;
  v = g_ascii_strtoll (text, &end, 10);
  while (g_ascii_isspace (*end))
    end++;
  if (*end || end == text)
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
zw_profile_parse_bool (const char *text, gboolean *out)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (g_ascii_strcasecmp (t, "true") == 0 || g_str_equal (t, "1"))
    *out = TRUE;
  else if (g_ascii_strcasecmp (t, "false") == 0 || g_str_equal (t, "0"))
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}
