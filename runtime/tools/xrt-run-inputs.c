/* xrt-run-inputs.c — the inputs of a forward of `xrt-run run` (icraft-run's `input`): files
 * separated by ";", or a .txt list of such lines (one forward per line, round robin), each
 * file an image (xrt-run-image.c), the raw bytes or an SQB .ftmp of the input, or whatever a
 * decode_dll plugin turns into them; without files, the deployment's seeded inputs. A list
 * of one file per line for each input gives a multi-input network its inputs (the manual's
 * §2.3.2).
 */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include "deploy/xrt-deployment.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

/* The input's bytes from a raw file or an SQB .ftmp: exactly its storage bytes, the size
 * checked before a byte is read. */
static guint8 *
read_raw (const char *path, const XirValue *v, GError **error)
{
  g_autofree char *contents = NULL;
  guint64 on_disk = 0;
  gsize size = 0;
  int fd = zw_file_open_regular (path, ZW_INPUT_TENSOR, 0, &on_disk, error);

  if (fd < 0)
    return NULL;
  close (fd);
  if (on_disk != v->storage_bytes)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: %" G_GUINT64_FORMAT " bytes, input v_id %" G_GINT64_FORMAT " needs %" G_GUINT64_FORMAT
                   " (raw bytes or an SQB .ftmp, or a PNG, JPEG or BMP image)", path, on_disk, v->v_id,
                   v->storage_bytes);
      return NULL;
    }
  if (!zw_file_read_regular (path, ZW_INPUT_TENSOR, MAX (v->storage_bytes, 1), &contents, &size, error))
    return NULL;
  if (size != v->storage_bytes)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: changed while read (%" G_GSIZE_FORMAT " bytes)", path,
                   size);
      return NULL;
    }
  return (guint8 *) g_steal_pointer (&contents);
}

/* The files of forward @iteration: @spec's, or those of a .txt list it names. A list of as
 * many lines as the network has inputs, one file each, gives the inputs (the manual's §2.3.2);
 * otherwise each line holds one forward's files separated by ";" and the forwards take the
 * lines in turn. */
static GStrv
files_of (const char *spec, guint n_inputs, guint iteration, GError **error)
{
  g_auto (GStrv) files = g_strsplit (spec, ";", -1);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) kept = g_ptr_array_new ();
  gboolean one_each = TRUE;

  for (guint i = 0; files[i] != NULL; i++)
    g_strstrip (files[i]);
  if (g_strv_length (files) != 1 || !g_str_has_suffix (files[0], ".txt"))
    return g_steal_pointer (&files);
  if (!zw_file_read_regular (files[0], ZW_INPUT_INPUT_LIST, 0, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (*g_strstrip (lines[i]) != '\0')
      {
        g_ptr_array_add (kept, lines[i]);
        one_each = one_each && strchr (lines[i], ';') == NULL;
      }
  if (kept->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: the input list is empty", files[0]);
      return NULL;
    }
  if (one_each && kept->len == n_inputs && n_inputs > 1)
    {
      g_ptr_array_add (kept, NULL);
      return g_strdupv ((char **) kept->pdata);
    }
  {
    GStrv line = g_strsplit (g_ptr_array_index (kept, iteration % kept->len), ";", -1);
    for (guint j = 0; line[j] != NULL; j++)
      g_strstrip (line[j]);
    return line;
  }
}

GPtrArray *
xrt_run_make_inputs (XirNetwork *net, XirNetworkView *view, const char *spec, guint iteration, XrtRunDecoder *decoder,
                     GError **error)
{
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_tensor_unref);
  GPtrArray *values = xir_network_view_get_inputs (view);
  g_auto (GStrv) files = NULL;

  if (spec == NULL)
    /* no files: the deployment's seeded inputs */
    return xrt_deployment_seeded_inputs (view, xrt_deployment_input_seed (iteration), error);
  if ((files = files_of (spec, values->len, iteration, error)) == NULL)
    return NULL;
  if (g_strv_length (files) != values->len)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "--input: %u file(s) given, the network has %u input(s)",
                   g_strv_length (files), values->len);
      return NULL;
    }
  for (guint k = 0; k < values->len; k++)
    {
      const XirValue *v = g_ptr_array_index (values, k);
      g_autofree guint8 *bytes = NULL;
      gsize size = (gsize) v->storage_bytes;
      XrtTensor *t;

      if (decoder != NULL)
        bytes = xrt_run_decoder_decode (decoder, files[k], k, v, error);
      else if (xrt_run_image_is_image (files[k]))
        bytes = xrt_run_image_load (files[k], v, &size, error);
      else
        bytes = read_raw (files[k], v, error);
      if (bytes == NULL)
        return NULL;
      t = xrt_tensor_new_host (net, v, bytes, size, error);
      if (t == NULL)
        return NULL;
      g_ptr_array_add (inputs, t);
    }
  return g_steal_pointer (&inputs);
}
