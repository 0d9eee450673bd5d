/* xrt-tensor-dump.c — a tensor in one of the vendor's six dump formats (Tensor::dump: H/S
 * layout, Q/F numbers, B/T serialisation; report/zw-dump.h), as bytes and, for the binary
 * formats, as a new host tensor of the converted type (layout H -> S, quantised -> float).
 */
#include "xrt/xrt-tensor-private.h"

#include "base/zw-checked.h"
#include "report/zw-dump.h"

#include <string.h>

GBytes *
xrt_tensor_dump (const XrtTensor *t, const char *format, GError **error)
{
  g_autoptr (GBytes) stored = NULL;
  ZwDumpFormat fmt;
  ZwDumpType type;
  GBytes *out;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (format != NULL, "format", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  /* the manual's default, an empty format: the bytes in memory as they are */
  if (*format == '\0')
    return xrt_tensor_get_bytes (t, error);
  if (!zw_dump_format_parse (format, &fmt, error))
    {
      g_prefix_error (error, "%s: dump: ", xrt_tensor_name (t).s);
      return NULL;
    }
  if ((stored = xrt_tensor_get_bytes (t, error)) == NULL)
    return NULL;
  zw_dump_type_init_from_value (&type, t->value);
  out = zw_dump_encode (&type, g_bytes_get_data (stored, NULL), g_bytes_get_size (stored), fmt, error);
  zw_dump_type_clear (&type);
  if (out == NULL)
    g_prefix_error (error, "%s: dump %s: ", xrt_tensor_name (t).s, zw_dump_format_to_string (fmt));
  return out;
}

XrtTensor *
xrt_tensor_convert (const XrtTensor *t, const char *format, GError **error)
{
  g_autoptr (GBytes) data = NULL;
  g_autoptr (XirValue) dtype = NULL;
  g_autofree char *storage = NULL;
  const XirElementType *el;
  ZwDumpFormat fmt;
  ZwDumpType type;
  ZwDumpShape shape;
  gboolean relaid, ok;
  guint n_scales = 0;
  gint axis = -1;

  ZW_RETURN_VAL_IF_BAD_ARG (t != NULL, "tensor", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (format != NULL, "format", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  if (!zw_dump_format_parse (format, &fmt, error))
    {
      g_prefix_error (error, "%s: convert: ", xrt_tensor_name (t).s);
      return NULL;
    }
  if (!fmt.binary)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "%s: convert: format %s is text; a tensor holds binary numbers (use %c%cB, or dump for text)",
                   xrt_tensor_name (t).s, zw_dump_format_to_string (fmt), fmt.hardware ? 'H' : 'S',
                   fmt.quantized ? 'Q' : 'F');
      return NULL;
    }
  zw_dump_type_init_from_value (&type, t->value);
  ok = zw_dump_shape_for (&type, fmt, &shape, error);
  zw_dump_type_clear (&type);
  if (!ok)
    {
      g_prefix_error (error, "%s: convert %s: ", xrt_tensor_name (t).s, zw_dump_format_to_string (fmt));
      return NULL;
    }
  if ((data = xrt_tensor_dump (t, format, error)) == NULL)
    return NULL;
  el = &t->value->element;
  relaid = strcmp (shape.layout, t->value->layout.text) != 0;
  if (shape.is_float)
    storage = g_strdup ("@fp(32)");
  else
    {
      storage = xir_scalar_type_to_string (&el->storage);
      if (el->quantized && el->n_scales > 0)
        {
          /* S of a blocked layout puts the channels last (NHWC) and drops the padding
           * channels: their scales go with them */
          n_scales = el->n_scales;
          axis = el->scale_axis;
          if (relaid && shape.rank > 0)
            {
              axis = -1;
              if (n_scales > 1 && (guint64) shape.shape[shape.rank - 1] < n_scales)
                n_scales = (guint) shape.shape[shape.rank - 1];
            }
        }
    }
  dtype = xrt_tensor_make_dtype (storage, shape.layout, shape.shape, shape.rank, axis, el->scales, n_scales,
                                 relaid || shape.is_float ? NULL : el->zero_points,
                                 relaid || shape.is_float ? 0 : el->n_zero_points, error);
  if (dtype == NULL)
    {
      g_prefix_error (error, "%s: convert %s: ", xrt_tensor_name (t).s, zw_dump_format_to_string (fmt));
      return NULL;
    }
  dtype->v_id = t->value->v_id;
  g_free (dtype->name);
  dtype->name = g_strdup (t->value->name);
  return xrt_tensor_new_from_bytes (dtype, data, error);
}
