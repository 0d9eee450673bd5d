/* xir-raw.c — the vendor's params file (.raw): read, validate, write, synthesise.
 *
 * Format (DESIGN.md §4), little-endian, packed:
 *   12 bytes  magic  A5 'I' 'C' 'R' 'A' 'F' 'T' '_' 'R' 'A' 'W' A5
 *    4 bytes  uint32 N
 *   N x 12    { int32 v_id, uint64 absolute offset }
 *   blobs     back to back; blob size = prod(shape) * bits / 8
 * The JSON's params_bytes is the whole file size and params_md5 its MD5.
 */
#include "xir/xir-private.h"
#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <string.h>

static const guint8 raw_magic[12] = { 0xA5, 'I', 'C', 'R', 'A', 'F', 'T', '_', 'R', 'A', 'W', 0xA5 };
#define RAW_HEADER 16u
#define RAW_ENTRY 12u

static guint32
read_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static guint64
read_u64 (const guint8 *p)
{
  return (guint64) read_u32 (p) | (guint64) read_u32 (p + 4) << 32;
}

static void
write_u32 (guint8 *p, guint32 v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static void
write_u64 (guint8 *p, guint64 v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (guint8) (v >> (8 * i));
}

guint64
xir_network_compute_params_bytes (const XirNetwork *net)
{
  guint64 total = RAW_HEADER + (guint64) RAW_ENTRY * net->params->len;

  for (guint i = 0; i < net->params->len; i++)
    total += ((XirValue *) g_ptr_array_index (net->params, i))->storage_bytes;
  return total;
}

typedef struct {
  guint64 offset;
  XirValue *param;
} Entry;

static gint
compare_entries (gconstpointer a, gconstpointer b)
{
  const Entry *ea = a, *eb = b;

  if (ea->offset != eb->offset)
    return ea->offset < eb->offset ? -1 : 1;
  /* Zero-byte blobs share their offset with the next blob: put them first. */
  return (ea->param->storage_bytes > eb->param->storage_bytes) - (ea->param->storage_bytes < eb->param->storage_bytes);
}

/* Validates @blob as the .raw of @net and, on success, takes it as the params data. */
static gboolean
attach_params (XirNetwork *net, GBytes *blob, const char *path, gboolean check_md5, GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (blob, &size);
  g_autofree Entry *entries = NULL;
  g_autofree guint64 *offsets = NULL;
  guint n_params = net->params->len;
  guint32 n;
  guint64 table_end;

  if (size == 0)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path, "the params file is empty");
      return FALSE;
    }
  if (size < RAW_HEADER || memcmp (data, raw_magic, sizeof raw_magic) != 0)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path,
                     "header: not an Icraft raw params file (bad magic; expected \\xA5ICRAFT_RAW\\xA5)");
      return FALSE;
    }
  n = read_u32 (data + 12);
  if (n != n_params)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path, "header: count is %u but network %s has %u params",
                     n, net->name, n_params);
      return FALSE;
    }
  table_end = RAW_HEADER + (guint64) RAW_ENTRY * n;
  if (table_end > size)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path,
                     "table: %u entries need %" G_GUINT64_FORMAT " bytes but the file has %" G_GSIZE_FORMAT,
                     n, table_end, size);
      return FALSE;
    }
  if (net->has_params_bytes && net->params_bytes != size)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path,
                     "file size is %" G_GSIZE_FORMAT " bytes but the network's params_bytes is %" G_GUINT64_FORMAT,
                     size, net->params_bytes);
      return FALSE;
    }

  entries = g_new0 (Entry, MAX (n, 1));
  offsets = g_new0 (guint64, MAX (n_params, 1));
  {
    g_autofree gboolean *seen = g_new0 (gboolean, MAX (n_params, 1));

    for (guint32 i = 0; i < n; i++)
      {
        const guint8 *e = data + RAW_HEADER + (gsize) RAW_ENTRY * i;
        gint32 v_id = (gint32) read_u32 (e);
        guint64 off = read_u64 (e + 4);
        XirValue *p = xir_network_get_value (net, v_id);

        if (p == NULL || !p->is_params)
          {
            xir_set_error (error, XIR_ERROR_PARAMS, path, "table entry %u: v_id %d is not a params of network %s",
                           i, v_id, net->name);
            return FALSE;
          }
        if (seen[p->param_index])
          {
            xir_set_error (error, XIR_ERROR_PARAMS, path, "table entry %u: v_id %d appears twice", i, v_id);
            return FALSE;
          }
        seen[p->param_index] = TRUE;
        if (off < table_end || off > size || p->storage_bytes > size - off)
          {
            xir_set_error (error, XIR_ERROR_PARAMS, path,
                           "table entry %u: v_id %d: offset %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
                           " bytes is outside the blob area [%" G_GUINT64_FORMAT ", %" G_GSIZE_FORMAT ")",
                           i, v_id, off, p->storage_bytes, table_end, size);
            return FALSE;
          }
        entries[i].offset = off;
        entries[i].param = p;
        offsets[p->param_index] = off;
      }
  }

  /* Blobs are back to back: each one's size is the distance to the next. */
  qsort (entries, n, sizeof (Entry), compare_entries);
  for (guint32 i = 0; i < n; i++)
    {
      guint64 start = entries[i].offset;
      guint64 next = i + 1 < n ? entries[i + 1].offset : size;
      guint64 expect_start = i == 0 ? table_end : entries[i - 1].offset + entries[i - 1].param->storage_bytes;

      if (start != expect_start || next - start < entries[i].param->storage_bytes
          || (i + 1 < n && next - start != entries[i].param->storage_bytes))
        {
          xir_set_error (error, XIR_ERROR_PARAMS, path,
                         "v_id %" G_GINT64_FORMAT ": blob at offset %" G_GUINT64_FORMAT " is %" G_GUINT64_FORMAT
                         " bytes but its Params (shape x dtype) needs %" G_GUINT64_FORMAT,
                         entries[i].param->v_id, start, next - start, entries[i].param->storage_bytes);
          return FALSE;
        }
    }
  if (n > 0 && entries[n - 1].offset + entries[n - 1].param->storage_bytes != size)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path, "%" G_GUINT64_FORMAT " trailing bytes after the last blob",
                     size - entries[n - 1].offset - entries[n - 1].param->storage_bytes);
      return FALSE;
    }
  if (n == 0 && size != RAW_HEADER)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path, "trailing bytes after an empty table");
      return FALSE;
    }

  if (check_md5 && net->params_md5 != NULL)
    {
      g_autofree char *md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, data, size);
      if (strcmp (md5, net->params_md5) != 0)
        {
          xir_set_error (error, XIR_ERROR_PARAMS, path,
                         "md5 is %s but the network's params_md5 is %s (synthetic params from "
                         "fake-params never match the compiler's md5: skip the check with xrt-run's "
                         "--no-md5, or XIR_LOAD_NO_MD5 in C)",
                         md5, net->params_md5);
          return FALSE;
        }
    }

  g_clear_pointer (&net->params_blob, g_bytes_unref);
  g_free (net->param_offsets);
  net->params_blob = g_bytes_ref (blob);
  net->param_offsets = g_steal_pointer (&offsets);
  g_free (net->params_path);
  net->params_path = g_strdup (path);
  net->params_synthetic = FALSE;
  return TRUE;
}

gboolean
xir_network_load_params_from_file (XirNetwork *net, const char *path, GError **error)
{
  return xir_network_load_params_from_file_full (net, path, XIR_LOAD_DEFAULT, error);
}

gboolean
xir_network_load_params_from_file_full (XirNetwork *net, const char *path, XirLoadFlags flags, GError **error)
{
  g_autoptr (GBytes) blob = NULL;
  GError *local = NULL;
  char *contents = NULL;
  gsize length = 0;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  if (!zw_file_read_regular (path, ZW_INPUT_PARAMS, 0, &contents, &length, &local))
    {
      g_set_error_literal (error, XIR_ERROR, XIR_ERROR_IO, local->message);
      g_error_free (local);
      return FALSE;
    }
  blob = g_bytes_new_take (contents, length);
  return attach_params (net, blob, path, (flags & XIR_LOAD_NO_MD5) == 0, error);
}

gboolean
xir_network_lazy_load_params_from_file (XirNetwork *net, const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = NULL;
  g_autoptr (GBytes) blob = NULL;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  file = zw_file_map_regular (path, ZW_INPUT_PARAMS, 0, &local);
  if (file == NULL)
    {
      g_set_error_literal (error, XIR_ERROR, XIR_ERROR_IO, local->message);
      g_error_free (local);
      return FALSE;
    }
  blob = g_mapped_file_get_bytes (file);
  /* The md5 would read every page, which is what lazy loading avoids. */
  return attach_params (net, blob, path, FALSE, error);
}

gboolean
xir_network_has_params (const XirNetwork *net)
{
  return net->params_blob != NULL;
}

const guint8 *
xir_network_get_params_data (const XirNetwork *net, const XirValue *param)
{
  g_return_val_if_fail (net != NULL && param != NULL, NULL);
  if (net->params_blob == NULL || !param->is_params || param->param_index < 0
      || (guint) param->param_index >= net->params->len
      || g_ptr_array_index (net->params, param->param_index) != param)
    return NULL;
  return (const guint8 *) g_bytes_get_data (net->params_blob, NULL) + net->param_offsets[param->param_index];
}

/* ---- synthetic params --------------------------------------------------------- */

static guint64
splitmix64 (guint64 *state)
{
  guint64 z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static guint16
float_to_half (float f)
{
  union { float f; guint32 u; } in = { f };
  guint32 sign = (in.u >> 16) & 0x8000u;
  gint32 exp = (gint32) ((in.u >> 23) & 0xFF) - 127 + 15;
  guint32 mant = in.u & 0x7FFFFFu;

  if (exp <= 0)
    return (guint16) sign;  /* tiny values flush to zero: fine for synthetic bias */
  if (exp >= 31)
    return (guint16) (sign | 0x7C00u);
  /* round to nearest even on the 13 dropped bits */
  {
    guint32 h = sign | ((guint32) exp << 10) | (mant >> 13);
    guint32 rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      h++;
    return (guint16) h;
  }
}

/* The recipe, so other tools can reproduce it: for every Params in file order,
 * state = seed ^ (v_id * 0x9E3779B97F4A7C15); then, drawing 64-bit words with
 * splitmix64(state):
 *   int8 (quantised weights): (w % 61) - 30, a small symmetric range so that
 *       requantised convolutions stay inside int8 most of the time;
 *   fp16 (bias): half((w % 2001 - 1000) / 10000.0), i.e. within ±0.1;
 *   uint64 (instructions): the words themselves (they are opaque);
 *   anything else: the low byte of each word. */
void
xir_network_fake_params (XirNetwork *net, guint64 seed)
{
  guint64 total = xir_network_compute_params_bytes (net);
  guint8 *buf;
  guint64 off = RAW_HEADER + (guint64) RAW_ENTRY * net->params->len;

  g_return_if_fail (net != NULL);
  buf = g_malloc0 (total);
  memcpy (buf, raw_magic, sizeof raw_magic);
  write_u32 (buf + 12, net->params->len);
  g_free (net->param_offsets);
  net->param_offsets = g_new0 (guint64, MAX (net->params->len, 1));
  for (guint i = 0; i < net->params->len; i++)
    {
      XirValue *p = g_ptr_array_index (net->params, i);
      guint64 state = seed ^ ((guint64) p->v_id * 0x9E3779B97F4A7C15ull);
      guint8 *dst = buf + off;
      const XirScalarType *t = &p->element.storage;

      write_u32 (buf + RAW_HEADER + (gsize) RAW_ENTRY * i, (guint32) (gint32) p->v_id);
      write_u64 (buf + RAW_HEADER + (gsize) RAW_ENTRY * i + 4, off);
      net->param_offsets[i] = off;
      if (t->bits == 8 && t->kind == XIR_SCALAR_SINT)
        for (guint64 k = 0; k < p->storage_bytes; k++)
          dst[k] = (guint8) (gint8) ((gint) (splitmix64 (&state) % 61) - 30);
      else if (t->bits == 16 && t->kind == XIR_SCALAR_FP)
        for (guint64 k = 0; k + 1 < p->storage_bytes; k += 2)
          {
            guint16 h = float_to_half ((float) ((double) ((gint64) (splitmix64 (&state) % 2001) - 1000) / 10000.0));
            dst[k] = (guint8) h;
            dst[k + 1] = (guint8) (h >> 8);
          }
      else if (t->bits == 64)
        for (guint64 k = 0; k + 7 < p->storage_bytes; k += 8)
          write_u64 (dst + k, splitmix64 (&state));
      else
        for (guint64 k = 0; k < p->storage_bytes; k++)
          dst[k] = (guint8) splitmix64 (&state);
      off += p->storage_bytes;
    }
  g_clear_pointer (&net->params_blob, g_bytes_unref);
  net->params_blob = g_bytes_new_take (buf, total);
  g_free (net->params_path);
  net->params_path = NULL;
  net->params_synthetic = TRUE;
  net->params_seed = seed;
}

const char *
xir_network_get_params_path (const XirNetwork *net)
{
  g_return_val_if_fail (net != NULL, NULL);
  return net->params_path;
}

gboolean
xir_network_get_params_seed (const XirNetwork *net, guint64 *seed)
{
  g_return_val_if_fail (net != NULL, FALSE);
  if (net->params_blob == NULL || !net->params_synthetic)
    return FALSE;
  if (seed)
    *seed = net->params_seed;
  return TRUE;
}

char *
xir_network_compute_params_sha256 (const XirNetwork *net)
{
  gsize size = 0;
  const guint8 *data;

  g_return_val_if_fail (net != NULL, NULL);
  if (net->params_blob == NULL)
    return NULL;
  data = g_bytes_get_data (net->params_blob, &size);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
}

gboolean
xir_network_write_params_file (const XirNetwork *net, const char *path, GError **error)
{
  g_autofree guint8 *buf = NULL;
  guint64 total, off;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, FALSE);
  if (net->params_blob == NULL)
    {
      xir_set_error (error, XIR_ERROR_PARAMS, path, "network %s has no params loaded to write", net->name);
      return FALSE;
    }
  for (guint i = 0; i < net->params->len; i++)
    {
      XirValue *p = g_ptr_array_index (net->params, i);
      if (p->v_id < G_MININT32 || p->v_id > G_MAXINT32)
        {
          xir_set_error (error, XIR_ERROR_RANGE, path, "v_id %" G_GINT64_FORMAT
                         ": does not fit the raw table's int32 v_id", p->v_id);
          return FALSE;
        }
    }
  total = xir_network_compute_params_bytes (net);
  buf = g_malloc (total);
  memcpy (buf, raw_magic, sizeof raw_magic);
  write_u32 (buf + 12, net->params->len);
  off = RAW_HEADER + (guint64) RAW_ENTRY * net->params->len;
  for (guint i = 0; i < net->params->len; i++)
    {
      XirValue *p = g_ptr_array_index (net->params, i);

      write_u32 (buf + RAW_HEADER + (gsize) RAW_ENTRY * i, (guint32) (gint32) p->v_id);
      write_u64 (buf + RAW_HEADER + (gsize) RAW_ENTRY * i + 4, off);
      memcpy (buf + off, xir_network_get_params_data (net, p), p->storage_bytes);
      off += p->storage_bytes;
    }
  if (!zw_file_set_contents (path, (const char *) buf, (gssize) total, &local))
    {
      xir_set_error (error, XIR_ERROR_IO, path, "cannot write the params file: %s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}
