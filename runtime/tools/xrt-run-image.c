/* xrt-run-image.c — an image given as a network input (`xrt-run run --input cat.png`, the
 * icraft-run manual's `input`): decoded by gdk-pixbuf, then made the input's bytes.
 *
 * Only the CLI decodes images: the runtime links no toolkit library (tests/test-layers.c
 * allows gdk-pixbuf in this one file). The file is read under the runtime's file rule (a
 * regular file, size-capped) and handed to a GdkPixbufLoader, so a FIFO or a device is never
 * opened by the decoder.
 *
 * The conversion: the image is scaled (bilinear) to the input's H×W when its size differs;
 * its channels are taken as decoded, R, G, B (A): an input of 1 channel gets the grey level
 * (ITU-R BT.601 weights), 3 gets RGB, 4 RGBA (opaque when the image has no alpha); a blocked
 * layout's padding channels (NCHWc32's 29 beyond RGB) are zero. Each pixel value, 0 to 255,
 * is stored in the input's type by xrt_tensor_quantize(): a plain uint8 input holds the pixel
 * bytes unchanged, a quantised input round(x / scale) + zero point, a float input the value.
 * The layout may order N, H, W, C and one inner block of C in any way (NHWC, NCHW,
 * NCHWc32 …); N must be 1.
 */
#include "xrt-run-private.h"

#include "base/zw-file-read.h"
#include "xrt/xrt-tensor.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

gboolean
xrt_run_image_is_image (const char *path)
{
  static const char *const suffixes[] = { ".png", ".jpg", ".jpeg", ".bmp" };
  g_autofree char *lower = g_ascii_strdown (path, -1);

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (lower, suffixes[i]))
      return TRUE;
  return FALSE;
}

static GdkPixbuf *
decode (const char *path, GError **error)
{
  g_autoptr (GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autofree char *bytes = NULL;
  gsize len = 0;
  GError *local = NULL;
  GdkPixbuf *pb;

  if (!zw_file_read_regular (path, ZW_INPUT_IMAGE, 0, &bytes, &len, error))
    return NULL;
  if (!gdk_pixbuf_loader_write (loader, (const guchar *) bytes, len, &local)
      || !gdk_pixbuf_loader_close (loader, &local))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: not an image gdk-pixbuf decodes: %s"), path,
                   local ? local->message : "?");
      g_clear_error (&local);
      return NULL;
    }
  pb = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pb == NULL || gdk_pixbuf_get_colorspace (pb) != GDK_COLORSPACE_RGB || gdk_pixbuf_get_bits_per_sample (pb) != 8)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: not an 8-bit RGB image"), path);
      return NULL;
    }
  return g_object_ref (pb);
}

/* The axes of @v's layout: where N, H, W, C and C's inner block c sit (-1: absent). */
typedef struct {
  gint n, h, w, c, cb;
} Axes;

static gboolean
axes_of (const char *path, const XirValue *v, Axes *a, GError **error)
{
  a->n = xir_layout_index_of (&v->layout, 'N');
  a->h = xir_layout_index_of (&v->layout, 'H');
  a->w = xir_layout_index_of (&v->layout, 'W');
  a->c = xir_layout_index_of (&v->layout, 'C');
  a->cb = xir_layout_index_of (&v->layout, 'c');
  if (v->layout.any_rank || v->layout.n_axes != v->rank || a->h < 0 || a->w < 0 || a->c < 0
      || (guint) ((a->n >= 0) + 3 + (a->cb >= 0)) != v->rank)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s: input v_id %li has layout %s: an image fits a layout of N, H, W and C (NHWC, NCHW, NCHWc32 …)"),
                   path, (long) v->v_id, v->layout.text);
      return FALSE;
    }
  if (a->n >= 0 && v->shape[a->n] != 1)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: input v_id %li has a batch of %li: one image fills a batch of 1"),
                   path, (long) v->v_id, (long) v->shape[a->n]);
      return FALSE;
    }
  return TRUE;
}

guint8 *
xrt_run_image_load (const char *path, const XirValue *v, gsize *size, GError **error)
{
  g_autoptr (GdkPixbuf) image = NULL;
  g_autoptr (GdkPixbuf) scaled = NULL;
  g_autoptr (XirValue) ftype = NULL;
  g_autoptr (XrtTensor) floats = NULL;
  g_autoptr (XrtTensor) stored = NULL;
  g_autofree float *f = NULL;
  gint64 idx[XIR_LAYOUT_MAX_AXES] = { 0 };
  guint64 n;
  gint64 height, width, channels;
  const guchar *px;
  gint stride, nch;
  gboolean alpha;
  guint8 *out;
  Axes a;

  if (!axes_of (path, v, &a, error))
    return NULL;
  height = v->shape[a.h];
  width = v->shape[a.w];
  channels = v->shape[a.c] * (a.cb >= 0 ? v->shape[a.cb] : 1);
  if (height < 1 || width < 1 || height > G_MAXINT || width > G_MAXINT || channels < 1)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: input v_id %li has an empty or oversized image shape"),
                   path, (long) v->v_id);
      return NULL;
    }
  if (a.cb < 0 && channels != 1 && channels != 3 && channels != 4)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s: input v_id %li has %li channels: an image gives 1 (grey), 3 (RGB) or 4 (RGBA)"), path,
                   (long) v->v_id, (long) channels);
      return NULL;
    }
  if ((image = decode (path, error)) == NULL)
    return NULL;
  if (gdk_pixbuf_get_width (image) != width || gdk_pixbuf_get_height (image) != height)
    scaled = gdk_pixbuf_scale_simple (image, (int) width, (int) height, GDK_INTERP_BILINEAR);
  else
    scaled = g_object_ref (image);
  if (scaled == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, _("%s: cannot scale the image to %li×%li"), path,
                   (long) width, (long) height);
      return NULL;
    }
  px = gdk_pixbuf_read_pixels (scaled);
  stride = gdk_pixbuf_get_rowstride (scaled);
  nch = gdk_pixbuf_get_n_channels (scaled);
  alpha = gdk_pixbuf_get_has_alpha (scaled);

  /* every element of the input, in its layout's order: the pixel value it takes */
  n = v->n_elements;
  f = g_new0 (float, MAX (n, 1));
  for (guint64 e = 0; e < n; e++)
    {
      gint64 y = idx[a.h], x = idx[a.w];
      gint64 ch = a.cb >= 0 ? idx[a.c] * v->shape[a.cb] + idx[a.cb] : idx[a.c];
      const guchar *p = px + (gsize) y * (gsize) stride + (gsize) x * (gsize) nch;
      float value = 0;

      if (a.cb < 0 && channels == 1)
        value = (float) lrint (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
      else if (ch < 3)
        value = p[ch];
      else if (ch == 3 && a.cb < 0)
        value = alpha ? p[3] : 255;
      f[e] = value;
      /* the next index, the last axis fastest */
      for (gint k = (gint) v->rank - 1; k >= 0; k--)
        {
          if (++idx[k] < v->shape[k])
            break;
          idx[k] = 0;
        }
    }

  ftype = xrt_tensor_make_dtype ("@fp(32)", v->layout.text, v->shape, v->rank, -1, NULL, 0, NULL, 0, error);
  if (ftype == NULL)
    return NULL;
  floats = xrt_tensor_new_host_for_dtype (ftype, (const guint8 *) f, (gsize) n * sizeof (float), error);
  if (floats == NULL)
    return NULL;
  stored = xrt_tensor_quantize (floats, v, error);
  if (stored == NULL)
    {
      g_prefix_error (error, "%s: input v_id %li: ", path, (long) v->v_id);
      return NULL;
    }
  out = xrt_tensor_dup_bytes (stored, error);
  if (out != NULL)
    *size = (gsize) v->storage_bytes;
  return out;
}
