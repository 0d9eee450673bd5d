/* zw-dump.c — {v_id}.ftmp files in the vendor's six formats: types, shapes, encoding and
 * decoding (the manifest and folders: zw-dump-manifest.c, zw-dump-folder.c). */
#include "report/zw-dump-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include "base/zw-checked.h"

#include <float.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <cjson/cJSON.h>

#include "base/zw-half.h"

G_DEFINE_QUARK (zw-dump-error-quark, zw_dump_error)

#define VID_FMT "v_id %" G_GINT64_FORMAT

/* ---- formats -------------------------------------------------------------------- */

static const char *const format_names[8] = { "SFT", "SFB", "SQT", "SQB", "HFT", "HFB", "HQT", "HQB" };

const char *
zw_dump_format_to_string (ZwDumpFormat f)
{
  return format_names[(f.hardware ? 4 : 0) | (f.quantized ? 2 : 0) | (f.binary ? 1 : 0)];
}

gboolean
zw_dump_format_parse (const char *text, ZwDumpFormat *out, GError **error)
{
  char t[4];

  if (!text || strlen (text) != 3)
    goto bad;
  for (guint i = 0; i < 3; i++)
    t[i] = g_ascii_toupper (text[i]);
  t[3] = '\0';
  if ((t[0] != 'H' && t[0] != 'S') || (t[1] != 'F' && t[1] != 'Q') || (t[2] != 'B' && t[2] != 'T'))
    goto bad;
  if (t[0] == 'H' && t[1] == 'F')
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT,
                   "dump format \"%s\": float values exist only in the software layout (use SF%c or HQ%c)", text,
                   t[2], t[2]);
      return FALSE;
    }
  out->hardware = t[0] == 'H';
  out->quantized = t[1] == 'Q';
  out->binary = t[2] == 'B';
  return TRUE;

bad:
  g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT,
               "dump format \"%s\": expected three letters H|S, F|Q, B|T (SFB, SFT, SQB, SQT, HQB, HQT)",
               text ? text : "(null)");
  return FALSE;
}

const char *
zw_dump_memory_to_string (ZwDumpMemory memory)
{
  switch (memory)
    {
    case ZW_DUMP_MEMORY_ETM: return "ETM";
    case ZW_DUMP_MEMORY_OCM: return "OCM";
    case ZW_DUMP_MEMORY_HOST: return "HOST";
    default: return NULL;
    }
}

/* ---- types and shapes ------------------------------------------------------------- */

void
zw_dump_type_init_from_value (ZwDumpType *type, const XirValue *value)
{
  g_return_if_fail (type != NULL && value != NULL);
  memset (type, 0, sizeof *type);
  type->v_id = value->v_id;
  type->storage = value->element.storage;
  type->quantized = value->element.quantized && value->element.n_scales > 0;
  type->n_scales = type->quantized ? value->element.n_scales : 0;
  type->scales = type->n_scales ? g_memdup2 (value->element.scales, sizeof (float) * type->n_scales) : NULL;
  type->layout = value->layout;
  type->rank = value->rank;
  type->shape = g_memdup2 (value->shape, sizeof (gint64) * MAX (value->rank, 1));
}

void
zw_dump_type_clear (ZwDumpType *type)
{
  g_clear_pointer (&type->scales, g_free);
  g_clear_pointer (&type->shape, g_free);
  type->n_scales = 0;
  type->rank = 0;
}

static gboolean
is_blocked (const ZwDumpType *t)
{
  const XirLayout *l = &t->layout;
  return t->rank == 5 && l->n_axes == 5 && l->axes[1] == 'C' && l->axes[4] == 'c' && l->block[4] > 0
         && (guint64) t->shape[4] == l->block[4];
}

/* Logical channel count of a blocked value: the scales tell where the padding starts. */
static guint64
blocked_channels (const ZwDumpType *t)
{
  guint64 k = (guint64) t->shape[4], all = (guint64) t->shape[1] * k;

  if (t->n_scales > 1 && t->n_scales <= all && t->n_scales > all - k)
    return t->n_scales;
  return all;
}

static gboolean
storage_bytes_per_elem (const ZwDumpType *t, guint *bytes, gboolean *is_float, GError **error)
{
  const XirScalarType *s = &t->storage;

  *is_float = s->kind == XIR_SCALAR_FP;
  if (((s->kind == XIR_SCALAR_SINT || s->kind == XIR_SCALAR_UINT) && (s->bits == 8 || s->bits == 16 || s->bits == 32))
      || (s->kind == XIR_SCALAR_FP && (s->bits == 16 || s->bits == 32)))
    {
      *bytes = s->bits / 8;
      return TRUE;
    }
  {
    g_autofree char *name = xir_scalar_type_to_string (s);
    g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE, VID_FMT ": element type %s cannot be dumped", t->v_id,
                 name);
  }
  return FALSE;
}

gboolean
zw_dump_shape_for (const ZwDumpType *type, ZwDumpFormat format, ZwDumpShape *out, GError **error)
{
  guint bytes;
  gboolean is_float;

  g_return_val_if_fail (type != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (!storage_bytes_per_elem (type, &bytes, &is_float, error))
    return FALSE;
  if (format.quantized && is_float)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_FORMAT,
                   VID_FMT ": a float value cannot be dumped as Q (fixed point); use SF%c", type->v_id,
                   format.binary ? 'B' : 'T');
      return FALSE;
    }
  if (type->rank > XIR_LAYOUT_MAX_AXES)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE, VID_FMT ": rank %u is too large", type->v_id, type->rank);
      return FALSE;
    }
  out->is_float = !format.quantized;
  out->elem_bytes = format.quantized ? bytes : 4;
  if (!format.hardware && is_blocked (type))
    {
      g_strlcpy (out->layout, "NHWC", sizeof out->layout);
      out->rank = 4;
      out->shape[0] = type->shape[0];
      out->shape[1] = type->shape[2];
      out->shape[2] = type->shape[3];
      out->shape[3] = (gint64) blocked_channels (type);
    }
  else
    {
      g_strlcpy (out->layout, type->layout.text, sizeof out->layout);
      out->rank = type->rank;
      for (guint i = 0; i < type->rank; i++)
        out->shape[i] = type->shape[i];
    }
  if (!zw_shape_elements (out->shape, out->rank, ZW_MAX_TENSOR_BYTES / out->elem_bytes, &out->n_elements))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_TYPE,
                   VID_FMT ": shape is invalid (a negative dimension, or more than 2^36 bytes)", type->v_id);
      return FALSE;
    }
  return TRUE;
}

/* Stored element index of file element @i (in the file's order), and its channel. */
static void
map_element (const ZwDumpType *t, const ZwDumpShape *s, gboolean to_software, guint64 i, guint64 *stored,
             guint *channel)
{
  if (to_software)
    {
      /* file NHWC [N, H, W, C] <- stored [N, CB, H, W, K] */
      guint64 c = i % (guint64) s->shape[3];
      guint64 rest = i / (guint64) s->shape[3];
      guint64 w = rest % (guint64) s->shape[2];
      guint64 h = (rest / (guint64) s->shape[2]) % (guint64) s->shape[1];
      guint64 n = rest / (guint64) s->shape[2] / (guint64) s->shape[1];
      guint64 k = (guint64) t->shape[4], cb = (guint64) t->shape[1];

      *stored = ((((n * cb + c / k) * (guint64) t->shape[2] + h) * (guint64) t->shape[3] + w) * k) + c % k;
      *channel = (guint) c;
      return;
    }
  *stored = i;
  if (is_blocked (t))
    {
      guint64 k = (guint64) t->shape[4];
      guint64 cblock = (i / (k * (guint64) t->shape[2] * (guint64) t->shape[3])) % (guint64) t->shape[1];
      *channel = (guint) (cblock * k + i % k);
    }
  else if (t->rank > 0 && t->shape[t->rank - 1] > 0)
    *channel = (guint) (i % (guint64) t->shape[t->rank - 1]);   /* scale axis -1 */
  else
    *channel = 0;
}

static double
scale_of (const ZwDumpType *t, guint channel)
{
  if (!t->quantized || t->n_scales == 0)
    return 1.0;
  if (t->n_scales == 1)
    return t->scales[0];
  return channel < t->n_scales ? t->scales[channel] : t->scales[t->n_scales - 1];
}

/* Reads stored element @idx as an integer (Q) or a float (F of a float type). */
static gint64
get_int (const ZwDumpType *t, const guint8 *data, guint64 idx)
{
  const guint8 *p = data + idx * (t->storage.bits / 8);
  gboolean sgn = t->storage.kind == XIR_SCALAR_SINT;

  switch (t->storage.bits)
    {
    case 8: return sgn ? (gint64) (gint8) p[0] : (gint64) p[0];
    case 16: { guint16 x = (guint16) (p[0] | (p[1] << 8)); return sgn ? (gint64) (gint16) x : (gint64) x; }
    default: { guint32 x = (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
               return sgn ? (gint64) (gint32) x : (gint64) x; }
    }
}

static float
get_float (const ZwDumpType *t, const guint8 *data, guint64 idx)
{
  if (t->storage.bits == 16)
    {
      const guint8 *p = data + idx * 2;
      return zw_fp16_to_float ((guint16) (p[0] | (p[1] << 8)));
    }
  else
    {
      float f;
      guint32 x;
      memcpy (&x, data + idx * 4, 4);
      x = GUINT32_FROM_LE (x);
      memcpy (&f, &x, 4);
      return f;
    }
}

static float
read_f32 (const guint8 *bin, guint64 i)
{
  ZwDumpType ft = { .storage = { XIR_SCALAR_FP, 32 } };
  return get_float (&ft, bin, i);
}

static void
put_le (guint8 *dst, guint64 v, guint bytes)
{
  for (guint b = 0; b < bytes; b++)
    dst[b] = (guint8) (v >> (8 * b));
}

static void
put_float (guint8 *dst, float f)
{
  guint32 x;
  memcpy (&x, &f, 4);
  put_le (dst, x, 4);
}

static guint64
stored_elements (const ZwDumpType *t)
{
  guint64 n = 1;
  for (guint i = 0; i < t->rank; i++)
    n *= (guint64) MAX (t->shape[i], 0);
  return n;
}

/* The binary form of the file (B contents; T is printed from it). */
static guint8 *
encode_binary (const ZwDumpType *t, const ZwDumpShape *s, ZwDumpFormat f, const guint8 *data, gsize *out_len)
{
  gboolean to_sw = !f.hardware && is_blocked (t);
  gboolean src_float = t->storage.kind == XIR_SCALAR_FP;
  gsize len = (gsize) (s->n_elements * s->elem_bytes);
  guint8 *out = g_malloc0 (MAX (len, 1));

  for (guint64 i = 0; i < s->n_elements; i++)
    {
      guint64 idx;
      guint ch;

      map_element (t, s, to_sw, i, &idx, &ch);
      if (f.quantized)
        memcpy (out + i * s->elem_bytes, data + idx * s->elem_bytes, s->elem_bytes);
      else if (src_float)
        put_float (out + i * 4, get_float (t, data, idx));
      else
        put_float (out + i * 4, (float) get_int (t, data, idx) * (float) scale_of (t, ch));
    }
  *out_len = len;
  return out;
}

GBytes *
zw_dump_encode (const ZwDumpType *type, const guint8 *data, gsize size, ZwDumpFormat format, GError **error)
{
  ZwDumpShape s;
  guint bytes;
  gboolean is_float;
  guint8 *bin;
  gsize len;

  g_return_val_if_fail (type != NULL, NULL);
  if (!zw_dump_shape_for (type, format, &s, error) || !storage_bytes_per_elem (type, &bytes, &is_float, error))
    return NULL;
  if (size != stored_elements (type) * bytes || (size && !data))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE,
                   VID_FMT ": %" G_GSIZE_FORMAT " bytes given, the value holds %" G_GUINT64_FORMAT, type->v_id, size,
                   stored_elements (type) * bytes);
      return NULL;
    }
  bin = encode_binary (type, &s, format, data, &len);
  if (format.binary)
    return g_bytes_new_take (bin, len);
  {
    GString *text = g_string_sized_new (s.n_elements * (format.quantized ? 5 : 14) + 1);
    for (guint64 i = 0; i < s.n_elements; i++)
      {
        if (format.quantized)
          g_string_append_printf (text, "%" G_GINT64_FORMAT "\n", get_int (type, bin, i));
        else
          {
            char num[G_ASCII_DTOSTR_BUF_SIZE];
            /* %.9g: enough digits for every float32 to read back exactly. */
            g_ascii_formatd (num, sizeof num, "%.9g", read_f32 (bin, i));
            g_string_append (text, num);
            g_string_append_c (text, '\n');
          }
      }
    g_free (bin);
    len = text->len;
    return g_bytes_new_take (g_string_free (text, FALSE), len);
  }
}

gboolean
zw_dump_write_value (const char *dir, const ZwDumpType *type, const guint8 *data, gsize size, ZwDumpFormat format,
                     char **path_out, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  gsize len;
  const char *contents;

  g_return_val_if_fail (dir != NULL && type != NULL, FALSE);
  name = g_strdup_printf ("%" G_GINT64_FORMAT ".ftmp", type->v_id);
  path = g_build_filename (dir, name, NULL);
  bytes = zw_dump_encode (type, data, size, format, error);
  if (!bytes)
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, "%s: cannot create the folder: %s", dir,
                   g_strerror (errno));
      return FALSE;
    }
  contents = g_bytes_get_data (bytes, &len);
  if (!zw_file_set_contents (path, contents ? contents : "", (gssize) len, &local))
    {
      g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, "%s: %s", path, local->message);
      return FALSE;
    }
  if (path_out)
    *path_out = g_steal_pointer (&path);
  return TRUE;
}

gboolean
zw_dump_write_from_value (const char *dir, const XirValue *value, const guint8 *data, gsize size,
                          ZwDumpFormat format, char **path_out, GError **error)
{
  ZwDumpType type;
  gboolean ok;

  g_return_val_if_fail (dir != NULL && value != NULL, FALSE);
  zw_dump_type_init_from_value (&type, value);
  ok = zw_dump_write_value (dir, &type, data, size, format, path_out, error);
  zw_dump_type_clear (&type);
  return ok;
}

/* ---- decoding ----------------------------------------------------------------------- */

void
zw_dump_data_free (ZwDumpData *data)
{
  if (!data)
    return;
  g_free (data->path);
  if (!data->values_in_bytes)
    g_free (data->values);
  g_free (data->network);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_free (data);
}

static char *
describe (const ZwDumpType *t, const ZwDumpShape *s, ZwDumpFormat f)
{
  GString *d = g_string_new (NULL);
  g_autofree char *ty = xir_scalar_type_to_string (&t->storage);

  g_string_append_printf (d, "%s of " VID_FMT " (%s [", zw_dump_format_to_string (f), t->v_id, s->layout);
  for (guint i = 0; i < s->rank; i++)
    g_string_append_printf (d, "%s%" G_GINT64_FORMAT, i ? "," : "", s->shape[i]);
  g_string_append_printf (d, "] %s)", f.quantized ? ty : "float32");
  return g_string_free (d, FALSE);
}

ZwDumpData *
zw_dump_decode (const ZwDumpType *type, ZwDumpFormat format, const guint8 *contents, gsize length,
                const char *origin, GError **error)
{
  g_autoptr (ZwDumpData) d = g_new0 (ZwDumpData, 1);
  g_autofree char *what = NULL;
  guint8 *bin;
  gsize len;

  g_return_val_if_fail (type != NULL && (contents != NULL || length == 0), NULL);
  origin = origin ? origin : "(dump)";
  if (!zw_dump_shape_for (type, format, &d->shape, error))
    {
      g_prefix_error (error, "%s: ", origin);
      return NULL;
    }
  d->v_id = type->v_id;
  d->path = g_strdup (origin);
  d->format = format;
  what = describe (type, &d->shape, format);
  len = (gsize) (d->shape.n_elements * d->shape.elem_bytes);

  if (format.binary)
    {
      if (length != len)
        {
          g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE, "%s: %" G_GSIZE_FORMAT " bytes, but %s needs %"
                       G_GSIZE_FORMAT "%s", origin, length, what, len, length < len ? " (truncated)" : "");
          return NULL;
        }
      bin = g_memdup2 (contents, MAX (len, 1));
    }
  else
    {
      g_autofree char *text = g_strndup ((const char *) contents, length);
      char *p = text;
      guint64 count = 0;
      guint line = 1;
      gint64 lo = 0, hi = 0;

      if (format.quantized)
        {
          guint bits = type->storage.bits;
          gboolean sgn = type->storage.kind == XIR_SCALAR_SINT;
          lo = sgn ? -(G_GINT64_CONSTANT (1) << (bits - 1)) : 0;
          hi = sgn ? (G_GINT64_CONSTANT (1) << (bits - 1)) - 1 : (gint64) ((G_GUINT64_CONSTANT (1) << bits) - 1);
        }
      /* k numbers take at least 2k - 1 characters: the buffer is sized by what the file can
       * hold, not by what its manifest claims (a 2-byte file claiming 10^14 numbers) */
      guint64 fits = MIN (d->shape.n_elements, ((guint64) length + 1) / 2);
      bin = g_malloc0 (MAX (fits * d->shape.elem_bytes, 1));
      for (;;)
        {
          char *end;
          while (g_ascii_isspace (*p))
            line += *p++ == '\n';
          if (!*p)
            break;
          if (count >= d->shape.n_elements)
            {
              g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE, "%s:%u: more than the %" G_GUINT64_FORMAT
                           " numbers of %s", origin, line, d->shape.n_elements, what);
              g_free (bin);
              return NULL;
            }
          if (format.quantized)
            {
              gint64 v = g_ascii_strtoll (p, &end, 10);
              if (end == p || (*end && !g_ascii_isspace (*end)) || v < lo || v > hi)
                {
                  g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, "%s:%u: \"%.*s\" is not an integer in [%"
                               G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", origin, line, (int) MIN (strcspn (p, " \t\r\n"), 32),
                               p, lo, hi);
                  g_free (bin);
                  return NULL;
                }
              put_le (bin + count * d->shape.elem_bytes, (guint64) v, d->shape.elem_bytes);
            }
          else
            {
              double v = g_ascii_strtod (p, &end);
              if (end == p || (*end && !g_ascii_isspace (*end)))
                {
                  g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_PARSE, "%s:%u: \"%.*s\" is not a number", origin,
                               line, (int) MIN (strcspn (p, " \t\r\n"), 32), p);
                  g_free (bin);
                  return NULL;
                }
              if (isfinite (v) && fabs (v) > FLT_MAX)  /* what a float32 holds: converting is undefined */
                v = copysign (INFINITY, v);
              put_float (bin + count * 4, (float) v);
            }
          count++;
          p = end;
        }
      if (count != d->shape.n_elements)
        {
          g_set_error (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_SIZE, "%s: %" G_GUINT64_FORMAT " numbers, but %s needs %"
                       G_GUINT64_FORMAT "%s", origin, count, what, d->shape.n_elements,
                       count < d->shape.n_elements ? " (truncated)" : "");
          g_free (bin);
          return NULL;
        }
    }

  d->bytes = g_bytes_new_take (bin, len);
  if (!format.quantized && G_BYTE_ORDER == G_LITTLE_ENDIAN && d->shape.n_elements > 0)
    {
      /* float32 little-endian as stored: the display floats are the bytes themselves (a
       * dump is held once, not twice; g_malloc'd memory is aligned for float) */
      d->values = (float *) g_bytes_get_data (d->bytes, NULL);
      d->values_in_bytes = TRUE;
      return g_steal_pointer (&d);
    }
  d->values = g_new0 (float, MAX (d->shape.n_elements, 1));
  {
    gboolean to_sw = !format.hardware && is_blocked (type);

    for (guint64 i = 0; i < d->shape.n_elements; i++)
      {
        if (!format.quantized)
          d->values[i] = read_f32 (bin, i);
        else
          {
            guint64 idx;
            guint ch;
            /* The channel of file element i, whichever layout the file has. */
            if (to_sw)
              ch = (guint) (i % (guint64) d->shape.shape[3]);
            else
              map_element (type, &d->shape, FALSE, i, &idx, &ch);
            d->values[i] = (float) get_int (type, bin, i) * (float) scale_of (type, ch);
          }
      }
  }
  return g_steal_pointer (&d);
}

ZwDumpData *
zw_dump_read_file (const char *path, const ZwDumpType *type, ZwDumpFormat format, GError **error)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) local = NULL;
  ZwDumpShape shape;
  guint64 cap = 0;
  gsize len;

  g_return_val_if_fail (path != NULL && type != NULL, NULL);
  /* a binary dump is read up to the bytes its type needs (more is refused unread; the
   * decoder says what a shorter one lacks) */
  if (format.binary && zw_dump_shape_for (type, format, &shape, NULL))
    cap = MAX (shape.n_elements * shape.elem_bytes, 1);
  if (!zw_file_read_regular (path, ZW_INPUT_DUMP, cap, &contents, &len, &local))
    {
      g_set_error_literal (error, ZW_DUMP_ERROR, ZW_DUMP_ERROR_IO, local->message);
      return NULL;
    }
  return zw_dump_decode (type, format, (const guint8 *) contents, len, path, error);
}
