/* xrt-run-decode.c — icraft-run's decode_dll: a preprocessing plugin (the signature is in
 * xrt-run-decode-plugin.h) loaded with GModule, called once per input file of a forward. */
#include "xrt-run-private.h"
#include "xrt-run-decode-plugin.h"

#include "base/zw-file-read.h"

#include <glib/gi18n.h>
#include <gmodule.h>
#include <string.h>
#include <unistd.h>

struct _XrtRunDecoder {
  GModule *module;
  char *path;
  XrtRunDecodeFunc decode;
};

XrtRunDecoder *
xrt_run_decoder_open (const char *path, GError **error)
{
  g_autoptr (XrtRunDecoder) d = g_new0 (XrtRunDecoder, 1);
  gpointer sym = NULL;
  guint64 size = 0;
  int fd;

  /* a regular file (never a FIFO or a device) before the loader maps it */
  fd = zw_file_open_regular (path, ZW_INPUT_PLUGIN, 0, &size, error);
  if (fd < 0)
    return NULL;
  close (fd);
  d->path = g_strdup (path);
  /* a bare name would be looked up in the library path: a path names this file */
  {
    g_autofree char *where = g_path_is_absolute (path) || strchr (path, '/') != NULL ? g_strdup (path)
                                                                                       : g_build_filename (".", path, NULL);
    d->module = g_module_open (where, G_MODULE_BIND_LOCAL);
  }
  if (d->module == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: cannot load the decode plugin: %s"), path,
                   g_module_error ());
      return NULL;
    }
  if (!g_module_symbol (d->module, XRT_RUN_DECODE_SYMBOL, &sym) || sym == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s: the decode plugin exports no %s (see xrt-run-decode-plugin.h)"), path, XRT_RUN_DECODE_SYMBOL);
      return NULL;
    }
  d->decode = (XrtRunDecodeFunc) sym;
  return g_steal_pointer (&d);
}

guint8 *
xrt_run_decoder_decode (XrtRunDecoder *d, const char *path, guint index, const XirValue *v, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *dtype = xir_value_get_storage_text (v);
  g_autofree guint8 *dest = NULL;
  char message[512] = "";
  gsize len = 0;
  XrtRunDecodeInput in = {
    .abi_version = XRT_RUN_DECODE_ABI_VERSION,
    .index = index,
    .v_id = v->v_id,
    .path = path,
    .dtype = dtype,
    .layout = v->layout.text,
    .rank = v->rank,
    .shape = v->shape,
    .storage_bytes = v->storage_bytes,
  };
  int rc;

  if (!zw_file_read_regular (path, ZW_INPUT_TENSOR, 0, &data, &len, error))
    return NULL;
  dest = g_malloc0 (MAX (v->storage_bytes, 1));
  rc = d->decode (&in, (const unsigned char *) data, len, dest, message, sizeof message);
  message[sizeof message - 1] = '\0';
  if (rc != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: the decode plugin %s failed on input v_id %li: %s"),
                   path, d->path, (long) v->v_id, *message ? message : _("(no reason given)"));
      return NULL;
    }
  return g_steal_pointer (&dest);
}

void
xrt_run_decoder_free (XrtRunDecoder *d)
{
  if (d == NULL)
    return;
  /* the plugin stays mapped: it may have left atexit handlers or thread-locals behind */
  if (d->module != NULL)
    g_module_make_resident (d->module);
  g_clear_pointer (&d->module, g_module_close);
  g_free (d->path);
  g_free (d);
}
