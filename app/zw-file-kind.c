/* zw-file-kind.c — tell the workbench's input files apart (see the header). */
#include "zw-file-kind.h"

#include "base/zw-file-read.h"

#include <gio/gio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Enough to see a JSON document's "format" or a profile's first row. */
#define PREFIX_BYTES 8192

static gboolean
read_prefix (const char *path, char **out, gsize *length, GError **error)
{
  g_autofree char *buffer = g_malloc0 (PREFIX_BYTES + 1);
  gsize n = 0;
  /* a FIFO or a device is refused before it is opened (base/zw-file-read.h) */
  int fd = zw_file_open_regular (path, ZW_INPUT_ANY, 0, NULL, error);

  if (fd < 0)
    return FALSE;
  while (n < PREFIX_BYTES)
    {
      ssize_t got = read (fd, buffer + n, PREFIX_BYTES - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
          return FALSE;
        }
      if (got == 0)
        break;
      n += (gsize) got;
    }
  close (fd);
  buffer[n] = '\0';
  *out = g_steal_pointer (&buffer);
  *length = n;
  return TRUE;
}

/* A pipeline file (deploy/xrt-pipeline.h) has [pipeline], [network.NAME], [share.NAME] or
 * [connect.NAME] tables; an icraft-run config's [run] table comes first in one that is not. */
static gboolean
is_pipeline_file (const char *text)
{
  for (const char *line = text; line != NULL && *line != '\0';)
    {
      const char *next = strchr (line, '\n');
      while (*line == ' ' || *line == '\t')
        line++;
      if (g_str_has_prefix (line, "[run]"))
        return FALSE;
      if (g_str_has_prefix (line, "[pipeline]") || g_str_has_prefix (line, "[network.")
          || g_str_has_prefix (line, "[share.") || g_str_has_prefix (line, "[connect."))
        return TRUE;
      line = next != NULL ? next + 1 : NULL;
    }
  return FALSE;
}

gboolean
zw_file_kind_guess (const char *path, ZwFileKind *kind, char **dir_out, GError **error)
{
  g_autofree char *prefix = NULL;
  g_autofree char *base = NULL;
  const char *p;
  gsize length = 0;

  g_return_val_if_fail (path != NULL && kind != NULL, FALSE);

  if (dir_out != NULL)
    *dir_out = NULL;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      *kind = ZW_FILE_KIND_DUMP;
      if (dir_out != NULL)
        *dir_out = g_strdup (path);
      return TRUE;
    }
  base = g_path_get_basename (path);
  if (g_strcmp0 (base, "manifest.json") == 0)
    {
      *kind = ZW_FILE_KIND_DUMP;
      if (dir_out != NULL)
        *dir_out = g_path_get_dirname (path);
      return TRUE;
    }
  if (!read_prefix (path, &prefix, &length, error))
    return FALSE;

  /* every file we read is UTF-8 text: binary data is refused here, so it never replaces
   * what the views show (a character cut at the end of the prefix is not binary) */
  const char *bad = NULL;
  if (length == 0 || memchr (prefix, '\0', length) != NULL
      || (!g_utf8_validate (prefix, (gssize) length, &bad) && (gsize) (bad - prefix) + 4 < length))
    {
      *kind = ZW_FILE_KIND_UNKNOWN;
      return TRUE;
    }
  p = prefix;
  if (g_str_has_prefix (p, "\xEF\xBB\xBF"))
    p += 3;
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
    p++;
  /* a pipeline file's tables start with '[' too, as a JSON array does */
  if (!g_str_has_suffix (base, ".json") && is_pipeline_file (p))
    {
      *kind = ZW_FILE_KIND_PIPELINE;
      return TRUE;
    }
  /* a .json that is no JSON is a damaged network or report: the controller says how */
  if (*p == '{' || *p == '[' || g_str_has_suffix (base, ".json"))
    {
      /* our profile JSON, sweeps and Chrome traces say so near the top; everything else
       * JSON is a network or a deploy report */
      /* a pipeline report holds its networks' time profiles: it is asked about first */
      if (strstr (p, "\"zhuge-pipeline-report\"") != NULL)
        *kind = ZW_FILE_KIND_PIPELINE;
      else if (strstr (p, "\"zhuge-time-profile\"") != NULL || strstr (p, "\"traceEvents\"") != NULL)
        *kind = ZW_FILE_KIND_PROFILE;
      else if (strstr (p, "\"zhuge-sweep\"") != NULL)
        *kind = ZW_FILE_KIND_SWEEP;
      else
        *kind = ZW_FILE_KIND_NETWORK;
      return TRUE;
    }
  /* the vendor's rows start "op_id: ", our CSV header "op_id,op_type"; a file named like
   * the vendor's profile is one even when it is damaged (its loader says what is wrong) */
  if (g_str_has_prefix (p, "op_id:") || g_str_has_prefix (p, "op_id,op_type") || g_str_has_suffix (base, "_time.txt"))
    *kind = ZW_FILE_KIND_PROFILE;
  else
    *kind = ZW_FILE_KIND_LOG;
  return TRUE;
}
