/* zg330-wire.c — encoding and checked decoding of the board protocol (zg330-wire.h). */
#include "devices/zg330-wire.h"
#include "devices/hardops/zg330-hardop-class.h"
#include "base/zw-checked.h"

#include <string.h>

static const char *const type_names[ZG330_WIRE_N_REQUESTS] = {
  "?", "hello", "memory read", "memory write", "register read", "register write", "icoreCalc",
  "timer read", "configTimer", "reset", "profile what-if", "setMasterCID", "status", "close",
};

const char *
zg330_wire_type_to_string (guint type)
{
  if (type == ZG330_WIRE_ERROR)
    return "error";
  if (type == ZG330_WIRE_BUSY)
    return "busy";
  if (type == ZG330_WIRE_PROGRESS)
    return "progress";
  type &= ~(guint) ZG330_WIRE_REPLY;
  return type > 0 && type < ZG330_WIRE_N_REQUESTS ? type_names[type] : "unknown message";
}

/* ---- header ------------------------------------------------------------------------ */

static void
put_le32 (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static guint32
get_le32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

void
zg330_wire_header_encode (guint8 out[ZG330_WIRE_HEADER_BYTES], guint16 type, guint32 seq, guint32 length)
{
  guint16 t = GUINT16_TO_LE (type), f = 0;

  put_le32 (out, ZG330_WIRE_MAGIC);
  memcpy (out + 4, &t, 2);
  memcpy (out + 6, &f, 2);
  put_le32 (out + 8, seq);
  put_le32 (out + 12, length);
}

gboolean
zg330_wire_header_decode (const guint8 in[ZG330_WIRE_HEADER_BYTES], Zg330WireHeader *h, GError **error)
{
  guint16 t, f;

  memcpy (&t, in + 4, 2);
  memcpy (&f, in + 6, 2);
  h->type = GUINT16_FROM_LE (t);
  h->seq = get_le32 (in + 8);
  h->length = get_le32 (in + 12);
  if (get_le32 (in) != ZG330_WIRE_MAGIC)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "not a board protocol frame (magic 0x%08x, expected 0x%08x)",
                   get_le32 (in), ZG330_WIRE_MAGIC);
      return FALSE;
    }
  if (GUINT16_FROM_LE (f) != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "frame flags 0x%x (must be 0)", GUINT16_FROM_LE (f));
      return FALSE;
    }
  if (h->length > ZG330_WIRE_MAX_PAYLOAD)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "frame of %u payload bytes (at most %u)", h->length,
                   ZG330_WIRE_MAX_PAYLOAD);
      return FALSE;
    }
  return TRUE;
}

/* ---- writer ------------------------------------------------------------------------ */

static void
put_u8 (GByteArray *o, guint8 v)
{
  g_byte_array_append (o, &v, 1);
}

static void
put_u16 (GByteArray *o, guint16 v)
{
  v = GUINT16_TO_LE (v);
  g_byte_array_append (o, (const guint8 *) &v, 2);
}

static void
put_u32 (GByteArray *o, guint32 v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (o, (const guint8 *) &v, 4);
}

static void
put_u64 (GByteArray *o, guint64 v)
{
  v = GUINT64_TO_LE (v);
  g_byte_array_append (o, (const guint8 *) &v, 8);
}

static void
put_i64 (GByteArray *o, gint64 v)
{
  put_u64 (o, (guint64) v);
}

static void
put_f32 (GByteArray *o, float v)
{
  guint32 bits;
  memcpy (&bits, &v, 4);
  put_u32 (o, bits);
}

static void
put_f64 (GByteArray *o, double v)
{
  guint64 bits;
  memcpy (&bits, &v, 8);
  put_u64 (o, bits);
}

/* Strings longer than @max are cut at a character boundary (messages only). */
static void
put_str (GByteArray *o, const char *s, guint max)
{
  gsize n = s ? strlen (s) : 0;

  if (n > max)
    {
      const char *end = g_utf8_find_prev_char (s, s + max + 1);
      n = end ? (gsize) (end - s) : 0;
    }
  put_u16 (o, (guint16) n);
  if (n > 0)
    g_byte_array_append (o, (const guint8 *) s, (guint) n);
}

static void
put_blob (GByteArray *o, const guint8 *data, guint32 n)
{
  put_u32 (o, n);
  if (n > 0)
    g_byte_array_append (o, data, n);
}

static void
put_work (GByteArray *o, const Zg330OpWork *w)
{
  put_u64 (o, w->macs);
  put_u64 (o, w->etm_read_bytes);
  put_u64 (o, w->etm_write_bytes);
  put_u64 (o, w->ocm_read_bytes);
  put_u64 (o, w->ocm_write_bytes);
  put_u32 (o, w->layer_count);
}

static void
put_tensor (GByteArray *o, const Zg330CallTensor *t)
{
  put_i64 (o, t->v_id);
  put_u8 (o, (guint8) t->layout);
  put_u8 (o, (guint8) t->dtype);
  put_u32 (o, t->n);
  put_u32 (o, t->c);
  put_u32 (o, t->h);
  put_u32 (o, t->w);
  put_u32 (o, t->k);
  put_u64 (o, t->size);
  put_u32 (o, t->n_scales);
  for (guint32 i = 0; i < t->n_scales; i++)
    put_f32 (o, t->scales[i]);
  put_u8 (o, (guint8) t->region);
  put_u64 (o, t->addr);
}

void
zg330_wire_put_call (GByteArray *o, const Zg330HardopCall *c)
{
  put_i64 (o, c->op_id);
  put_u8 (o, (guint8) c->kind);
  put_u8 (o, c->zero_copy ? 1 : 0);
  put_work (o, &c->work);
  put_u32 (o, c->kernel_h);
  put_u32 (o, c->kernel_w);
  put_u32 (o, c->stride_h);
  put_u32 (o, c->stride_w);
  put_u32 (o, c->pad_top);
  put_u32 (o, c->pad_left);
  if (c->zero_copy)
    return;
  put_u8 (o, (guint8) c->n_inputs);
  for (guint i = 0; i < c->n_inputs; i++)
    put_tensor (o, &c->inputs[i]);
  put_tensor (o, &c->output);
  put_u8 (o, zg330_hardop_class_get (c->kind)->has_weights ? 1 : 0);
  if (zg330_hardop_class_get (c->kind)->has_weights)
    {
      const Zg330CallWeights *w = &c->weights;
      put_i64 (o, w->v_id);
      for (guint i = 0; i < 6; i++)
        put_u32 (o, w->dims[i]);
      put_u64 (o, w->size);
      put_u32 (o, w->n_scales);
      for (guint32 i = 0; i < w->n_scales; i++)
        put_f32 (o, w->scales[i]);
      put_u8 (o, (guint8) w->region);
      put_u64 (o, w->addr);
      put_u8 (o, w->has_bias ? 1 : 0);
      if (w->has_bias)
        {
          put_i64 (o, w->bias_v_id);
          put_u64 (o, w->bias_size);
          put_u8 (o, (guint8) w->bias_region);
          put_u64 (o, w->bias_addr);
        }
    }
}

static void
put_stats (GByteArray *o, const Zg330LaunchStats *s)
{
  put_u64 (o, s->addr);
  put_u64 (o, s->size);
  put_u32 (o, s->n_hardops);
  put_u8 (o, s->merged ? 1 : 0);
  put_u32 (o, s->first_layer);
  put_u32 (o, s->layers);
  put_u64 (o, s->icore_cycles);
  put_u64 (o, s->host_sync_cycles);
  put_f64 (o, s->icore_ms);
  put_f64 (o, s->host_sync_ms);
  put_work (o, &s->work);
  put_u64 (o, s->work.read_tiles);
  put_u64 (o, s->work.write_tiles);
  put_u32 (o, s->stamps_dropped);
  put_u8 (o, s->failed ? 1 : 0);
  put_u64 (o, s->seq);
}

GByteArray *
zg330_wire_encode_request (const Zg330WireRequest *r)
{
  GByteArray *o = g_byte_array_new ();

  switch (r->type)
    {
    case ZG330_WIRE_HELLO:
      put_u32 (o, r->version);
      put_str (o, r->name, ZG330_WIRE_MAX_STRING);
      if (r->token != NULL)
        put_str (o, r->token, ZG330_WIRE_MAX_TOKEN);
      break;
    case ZG330_WIRE_MEM_READ:
      put_u8 (o, r->region);
      put_u64 (o, r->offset);
      put_u32 (o, r->length);
      break;
    case ZG330_WIRE_MEM_WRITE:
      put_u8 (o, r->region);
      put_u64 (o, r->offset);
      put_blob (o, r->data, r->length);
      break;
    case ZG330_WIRE_REG_READ:
    case ZG330_WIRE_REG_WRITE:
      put_u32 (o, r->cid);
      put_u32 (o, r->rid);
      put_u32 (o, r->reg);
      if (r->type == ZG330_WIRE_REG_WRITE)
        put_u32 (o, r->value);
      break;
    case ZG330_WIRE_ICORE_CALC:
      put_u64 (o, r->addr);
      put_u64 (o, r->size);
      put_u32 (o, r->bindings ? r->bindings->len : 0);
      for (guint i = 0; r->bindings && i < r->bindings->len; i++)
        {
          const Zg330WireBinding *b = &g_array_index (r->bindings, Zg330WireBinding, i);
          put_u64 (o, b->addr);
          put_u64 (o, b->bytes);
          put_u8 (o, b->merged ? 1 : 0);
          put_u8 (o, b->has_call ? 1 : 0);
          if (b->has_call)
            zg330_wire_put_call (o, &b->call);
        }
      break;
    case ZG330_WIRE_CONFIG_TIMER:
      put_u8 (o, r->which);
      put_u64 (o, r->addr);
      put_u64 (o, r->size);
      break;
    case ZG330_WIRE_RESET:
    case ZG330_WIRE_STATUS:
      put_u32 (o, r->level);
      break;
    case ZG330_WIRE_SET_FIELD:
      put_str (o, r->field, ZG330_WIRE_MAX_STRING);
      put_f64 (o, r->fvalue);
      break;
    case ZG330_WIRE_SET_MASTER:
      put_u32 (o, r->cid);
      break;
    default:
      break;
    }
  return o;
}

GByteArray *
zg330_wire_encode_reply (guint16 request_type, const Zg330WireReply *r)
{
  GByteArray *o = g_byte_array_new ();

  if (r->type == ZG330_WIRE_ERROR)
    {
      put_u32 (o, r->code);
      put_str (o, r->message, ZG330_WIRE_MAX_STRING);
      return o;
    }
  if (r->type == ZG330_WIRE_BUSY)
    {
      put_str (o, r->message, ZG330_WIRE_MAX_STRING);
      return o;
    }
  switch (request_type)
    {
    case ZG330_WIRE_HELLO:
      put_u32 (o, r->version);
      put_str (o, r->board, ZG330_WIRE_MAX_STRING);
      put_blob (o, (const guint8 *) r->profile_json, r->profile_json ? (guint32) strlen (r->profile_json) : 0);
      put_u32 (o, r->max_payload);
      break;
    case ZG330_WIRE_MEM_READ:
      put_blob (o, r->data, r->length);
      break;
    case ZG330_WIRE_REG_READ:
      put_u32 (o, r->value);
      break;
    case ZG330_WIRE_ICORE_CALC:
      put_u8 (o, r->ok ? 1 : 0);
      put_stats (o, &r->stats);
      if (!r->ok)
        {
          put_u32 (o, r->code);
          put_str (o, r->message, ZG330_WIRE_MAX_STRING);
        }
      break;
    case ZG330_WIRE_TIMER_READ:
      put_u64 (o, r->timer);
      put_u32 (o, r->layer_count);
      put_u32 (o, r->state);
      put_u32 (o, r->master_cid);
      break;
    case ZG330_WIRE_STATUS:
      put_u32 (o, r->etm_pages);
      put_str (o, r->text, ZG330_WIRE_MAX_STATUS);
      break;
    default:
      break;
    }
  return o;
}

/* ---- reader ------------------------------------------------------------------------ */

typedef struct {
  const guint8 *p;
  gsize left;
  const char *what;     /* the message, for errors */
  GError **error;
  gboolean failed;
} Reader;

static gboolean
fail (Reader *r, const char *field, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Reader *r, const char *field, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *why = NULL;

  if (r->failed)
    return FALSE;
  va_start (ap, fmt);
  why = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (r->error, XRT_ERROR, XRT_ERROR_DEVICE, "malformed %s message: field '%s': %s", r->what, field, why);
  r->failed = TRUE;
  return FALSE;
}

static gboolean
take (Reader *r, const char *field, gsize n, const guint8 **out)
{
  *out = NULL;
  if (r->failed)
    return FALSE;
  if (n > r->left)
    return fail (r, field, "needs %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " left", n, r->left);
  *out = r->p;
  r->p += n;
  r->left -= n;
  return TRUE;
}

static gboolean
get_u8 (Reader *r, const char *field, guint8 *v)
{
  const guint8 *p;
  if (!take (r, field, 1, &p))
    return FALSE;
  *v = p[0];
  return TRUE;
}

static gboolean
get_u16 (Reader *r, const char *field, guint16 *v)
{
  const guint8 *p;
  if (!take (r, field, 2, &p))
    return FALSE;
  memcpy (v, p, 2);
  *v = GUINT16_FROM_LE (*v);
  return TRUE;
}

static gboolean
get_u32 (Reader *r, const char *field, guint32 *v)
{
  const guint8 *p;
  if (!take (r, field, 4, &p))
    return FALSE;
  *v = get_le32 (p);
  return TRUE;
}

static gboolean
get_u64 (Reader *r, const char *field, guint64 *v)
{
  const guint8 *p;
  if (!take (r, field, 8, &p))
    return FALSE;
  memcpy (v, p, 8);
  *v = GUINT64_FROM_LE (*v);
  return TRUE;
}

/* An unsigned number in [min, max]. */
static gboolean
get_u32_in (Reader *r, const char *field, guint32 min, guint32 max, guint32 *v)
{
  if (!get_u32 (r, field, v))
    return FALSE;
  if (*v < min || *v > max)
    return fail (r, field, "%u is outside [%u, %u]", *v, min, max);
  return TRUE;
}

static gboolean
get_u64_max (Reader *r, const char *field, guint64 max, guint64 *v)
{
  if (!get_u64 (r, field, v))
    return FALSE;
  if (*v > max)
    return fail (r, field, "%" G_GUINT64_FORMAT " is above %" G_GUINT64_FORMAT, *v, max);
  return TRUE;
}

static gboolean
get_i64 (Reader *r, const char *field, gint64 *v)
{
  guint64 u;
  if (!get_u64 (r, field, &u))
    return FALSE;
  /* ids are JSON integers on the runtime's side: the same range here */
  if ((gint64) u < -ZW_JSON_INT_MAX || (gint64) u > ZW_JSON_INT_MAX)
    return fail (r, field, "%" G_GINT64_FORMAT " is not an id", (gint64) u);
  *v = (gint64) u;
  return TRUE;
}

static gboolean
get_bool (Reader *r, const char *field, gboolean *v)
{
  guint8 b;
  if (!get_u8 (r, field, &b))
    return FALSE;
  if (b > 1)
    return fail (r, field, "%u is not 0 or 1", b);
  *v = b == 1;
  return TRUE;
}

static gboolean
get_enum (Reader *r, const char *field, guint n, guint *v)
{
  guint8 b;
  if (!get_u8 (r, field, &b))
    return FALSE;
  if (b >= n)
    return fail (r, field, "%u is not one of 0..%u", b, n - 1);
  *v = b;
  return TRUE;
}

static gboolean
get_f64 (Reader *r, const char *field, double min, double max, double *v)
{
  guint64 bits;
  double d;
  if (!get_u64 (r, field, &bits))
    return FALSE;
  memcpy (&d, &bits, 8);
  if (zw_double_check (d, min, max, v) != ZW_NUM_OK)
    return fail (r, field, "%g is not a finite number in [%g, %g]", d, min, max);
  return TRUE;
}

/* A scale the kernels take: finite and > 0. */
static gboolean
get_scales (Reader *r, const char *field, guint32 n, float **out)
{
  const guint8 *p;
  gsize bytes;

  *out = NULL;
  if (n == 0)
    return TRUE;
  bytes = (gsize) n * 4;
  if (!take (r, field, bytes, &p))
    return FALSE;
  *out = g_new (float, n);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 bits = get_le32 (p + (gsize) i * 4);
      float f;
      double checked;
      memcpy (&f, &bits, 4);
      if (zw_double_check ((double) f, 0.0, G_MAXFLOAT, &checked) != ZW_NUM_OK || !(f > 0.0f))
        {
          g_clear_pointer (out, g_free);
          return fail (r, field, "scale %u is %g (must be finite and > 0)", i, (double) f);
        }
      (*out)[i] = f;
    }
  return TRUE;
}

static gboolean
get_str (Reader *r, const char *field, guint max, char **out)
{
  guint16 n;
  const guint8 *p;

  *out = NULL;
  if (!get_u16 (r, field, &n))
    return FALSE;
  if (n > max)
    return fail (r, field, "string of %u bytes (at most %u)", n, max);
  if (!take (r, field, n, &p))
    return FALSE;
  if (memchr (p, '\0', n) != NULL || !g_utf8_validate ((const char *) p, n, NULL))
    return fail (r, field, "not UTF-8 text");
  *out = g_strndup ((const char *) p, n);
  return TRUE;
}

static gboolean
get_blob (Reader *r, const char *field, guint32 max, const guint8 **data, guint32 *n)
{
  if (!get_u32_in (r, field, 0, max, n))
    return FALSE;
  return take (r, field, *n, data);
}

static gboolean
get_work (Reader *r, Zg330OpWork *w)
{
  const guint64 max = G_GUINT64_CONSTANT (1) << 56;   /* far above any network's bytes or MACs */
  guint32 layers;

  memset (w, 0, sizeof *w);
  return get_u64_max (r, "work.macs", max, &w->macs) && get_u64_max (r, "work.etm_read", max, &w->etm_read_bytes)
         && get_u64_max (r, "work.etm_write", max, &w->etm_write_bytes)
         && get_u64_max (r, "work.ocm_read", max, &w->ocm_read_bytes)
         && get_u64_max (r, "work.ocm_write", max, &w->ocm_write_bytes)
         && get_u32_in (r, "work.layer_count", 0, 1u << 20, &layers) && ((w->layer_count = layers), TRUE);
}

static gboolean
get_tensor (Reader *r, Zg330CallTensor *t)
{
  guint layout, dtype, region;
  guint64 elements = 0;
  gint64 dims[4];

  memset (t, 0, sizeof *t);
  if (!get_i64 (r, "operand.v_id", &t->v_id) || !get_enum (r, "operand.layout", 2, &layout)
      || !get_enum (r, "operand.dtype", 2, &dtype) || !get_u32_in (r, "operand.n", 1, 1u << 16, &t->n)
      || !get_u32_in (r, "operand.c", 1, ZG330_CALL_MAX_SCALES, &t->c)
      || !get_u32_in (r, "operand.h", 1, 1u << 20, &t->h) || !get_u32_in (r, "operand.w", 1, 1u << 20, &t->w)
      || !get_u32_in (r, "operand.k", 0, 1024, &t->k)
      || !get_u64_max (r, "operand.size", ZG330_CALL_MAX_TENSOR_BYTES, &t->size))
    return FALSE;
  t->layout = layout;
  t->dtype = dtype;
  if (t->layout == ZG330_KERNEL_LAYOUT_NCHWC && t->k == 0)
    return fail (r, "operand.k", "0 for an NCHWcK operand");
  dims[0] = t->n;
  dims[1] = t->c;
  dims[2] = t->h;
  dims[3] = t->w;
  if (!zw_shape_elements (dims, 4, ZG330_CALL_MAX_TENSOR_BYTES, &elements))
    return fail (r, "operand.size", "n x c x h x w exceeds %" G_GUINT64_FORMAT, ZG330_CALL_MAX_TENSOR_BYTES);
  if (!get_u32_in (r, "operand.n_scales", 0, ZG330_CALL_MAX_SCALES, &t->n_scales))
    return FALSE;
  if (t->n_scales != 0 && t->n_scales != t->c)
    return fail (r, "operand.n_scales", "%u scales for %u channels (0 or one per channel)", t->n_scales, t->c);
  if (!get_scales (r, "operand.scales", t->n_scales, &t->scales) || !get_enum (r, "operand.region", 2, &region)
      || !get_u64 (r, "operand.addr", &t->addr))
    return FALSE;
  t->region = region;
  {
    guint64 end;
    if (!zw_u64_add (t->addr, t->size, &end))
      return fail (r, "operand.addr", "address + size wraps around");
  }
  return TRUE;
}

static gboolean
get_call (Reader *r, Zg330HardopCall *c)
{
  guint kind;
  guint8 n_in, has_w;
  const guint32 geo_max = 1u << 16;
  const Zg330HardopClass *klass;

  memset (c, 0, sizeof *c);
  if (!get_i64 (r, "call.op_id", &c->op_id) || !get_enum (r, "call.kind", ZG330_N_HARDOP_KINDS, &kind)
      || !get_bool (r, "call.zero_copy", &c->zero_copy) || !get_work (r, &c->work)
      || !get_u32_in (r, "call.kernel_h", 0, geo_max, &c->kernel_h)
      || !get_u32_in (r, "call.kernel_w", 0, geo_max, &c->kernel_w)
      || !get_u32_in (r, "call.stride_h", 0, geo_max, &c->stride_h)
      || !get_u32_in (r, "call.stride_w", 0, geo_max, &c->stride_w)
      || !get_u32_in (r, "call.pad_top", 0, geo_max, &c->pad_top)
      || !get_u32_in (r, "call.pad_left", 0, geo_max, &c->pad_left))
    return FALSE;
  c->kind = kind;
  klass = zg330_hardop_class_get (c->kind);
  if (c->zero_copy)
    return TRUE;
  if (!get_u8 (r, "call.n_inputs", &n_in))
    return FALSE;
  if (n_in < 1 || n_in > ZG330_CALL_MAX_INPUTS)
    return fail (r, "call.n_inputs", "%u (1 to %u)", n_in, (guint) ZG330_CALL_MAX_INPUTS);
  if (n_in < klass->min_inputs || n_in > klass->max_inputs)
    return fail (r, "call.n_inputs", "%u for a %s (%u to %u)", n_in, klass->name, klass->min_inputs,
                 klass->max_inputs);
  for (guint i = 0; i < n_in; i++)
    {
      if (!get_tensor (r, &c->inputs[i]))
        return FALSE;
      c->n_inputs = i + 1;
    }
  if (!get_tensor (r, &c->output) || !get_u8 (r, "call.has_weights", &has_w))
    return FALSE;
  if (has_w != (klass->has_weights ? 1 : 0))
    return fail (r, "call.has_weights", "%u for a %s", has_w, klass->name);
  if (has_w)
    {
      Zg330CallWeights *w = &c->weights;
      gint64 dims[6];
      guint64 elements = 0;
      guint region;

      if (!get_i64 (r, "weights.v_id", &w->v_id))
        return FALSE;
      for (guint i = 0; i < 6; i++)
        {
          if (!get_u32_in (r, "weights.dims", 1, 1u << 16, &w->dims[i]))
            return FALSE;
          dims[i] = w->dims[i];
        }
      if (!zw_shape_elements (dims, 6, ZG330_CALL_MAX_TENSOR_BYTES, &elements))
        return fail (r, "weights.dims", "more than %" G_GUINT64_FORMAT " elements", ZG330_CALL_MAX_TENSOR_BYTES);
      if (!get_u64_max (r, "weights.size", ZG330_CALL_MAX_TENSOR_BYTES, &w->size)
          || !get_u32_in (r, "weights.n_scales", 1, ZG330_CALL_MAX_SCALES, &w->n_scales))
        return FALSE;
      if ((guint64) w->dims[0] * w->dims[4] != w->n_scales)
        return fail (r, "weights.n_scales", "%u scales for %u x %u output channels", w->n_scales, w->dims[0],
                     w->dims[4]);
      if (!get_scales (r, "weights.scales", w->n_scales, &w->scales) || !get_enum (r, "weights.region", 2, &region)
          || !get_u64 (r, "weights.addr", &w->addr) || !get_bool (r, "weights.has_bias", &w->has_bias))
        return FALSE;
      w->region = region;
      if (w->has_bias)
        {
          if (!get_i64 (r, "bias.v_id", &w->bias_v_id)
              || !get_u64_max (r, "bias.size", ZG330_CALL_MAX_TENSOR_BYTES, &w->bias_size)
              || !get_enum (r, "bias.region", 2, &region) || !get_u64 (r, "bias.addr", &w->bias_addr))
            return FALSE;
          w->bias_region = region;
        }
    }
  return TRUE;
}

static gboolean
get_stats (Reader *r, Zg330LaunchStats *s)
{
  guint32 n_hardops, dropped;
  guint64 tiles_r, tiles_w;

  memset (s, 0, sizeof *s);
  if (!get_u64 (r, "stats.addr", &s->addr) || !get_u64 (r, "stats.size", &s->size)
      || !get_u32_in (r, "stats.hardops", 0, ZG330_WIRE_MAX_CALLS, &n_hardops) || !get_bool (r, "stats.merged", &s->merged)
      || !get_u32 (r, "stats.first_layer", &s->first_layer) || !get_u32 (r, "stats.layers", &s->layers)
      || !get_u64 (r, "stats.icore_cycles", &s->icore_cycles)
      || !get_u64 (r, "stats.host_sync_cycles", &s->host_sync_cycles)
      || !get_f64 (r, "stats.icore_ms", 0.0, 1e300, &s->icore_ms)
      || !get_f64 (r, "stats.host_sync_ms", 0.0, 1e300, &s->host_sync_ms) || !get_work (r, &s->work)
      || !get_u64 (r, "stats.read_tiles", &tiles_r) || !get_u64 (r, "stats.write_tiles", &tiles_w)
      || !get_u32 (r, "stats.stamps_dropped", &dropped) || !get_bool (r, "stats.failed", &s->failed)
      || !get_u64 (r, "stats.seq", &s->seq))
    return FALSE;
  s->n_hardops = n_hardops;
  s->stamps_dropped = dropped;
  s->work.read_tiles = tiles_r;
  s->work.write_tiles = tiles_w;
  return TRUE;
}

static gboolean
finish (Reader *r)
{
  if (r->failed)
    return FALSE;
  if (r->left != 0)
    return fail (r, "end", "%" G_GSIZE_FORMAT " bytes after the last field", r->left);
  return TRUE;
}

void
zg330_wire_request_clear (Zg330WireRequest *req)
{
  if (req == NULL)
    return;
  g_free (req->name);
  if (req->token != NULL)
    memset (req->token, 0, strlen (req->token));
  g_free (req->token);
  g_free (req->field);
  if (req->bindings)
    {
      for (guint i = 0; i < req->bindings->len; i++)
        zg330_hardop_call_clear (&g_array_index (req->bindings, Zg330WireBinding, i).call);
      g_array_unref (req->bindings);
    }
  memset (req, 0, sizeof *req);
}

void
zg330_wire_reply_clear (Zg330WireReply *rep)
{
  if (rep == NULL)
    return;
  g_free (rep->message);
  g_free (rep->board);
  g_free (rep->profile_json);
  g_free (rep->data);
  g_free (rep->text);
  memset (rep, 0, sizeof *rep);
}

gboolean
zg330_wire_decode_request (guint16 type, const guint8 *payload, gsize length, Zg330WireRequest *req,
                           GError **error)
{
  Reader r = { payload, length, zg330_wire_type_to_string (type), error, FALSE };
  guint8 b;

  memset (req, 0, sizeof *req);
  req->type = type;
  switch (type)
    {
    case ZG330_WIRE_HELLO:
      /* the token is optional: a board without --token-file takes a HELLO without one */
      if (get_u32 (&r, "version", &req->version) && get_str (&r, "name", 64, &req->name) && r.left > 0)
        (void) get_str (&r, "token", ZG330_WIRE_MAX_TOKEN, &req->token);
      break;
    case ZG330_WIRE_MEM_READ:
      if (get_u8 (&r, "region", &req->region) && req->region > 1)
        fail (&r, "region", "%u (0 ETM, 1 OCM)", req->region);
      (void) (get_u64 (&r, "offset", &req->offset) && get_u32_in (&r, "length", 1, ZG330_WIRE_MAX_DATA, &req->length));
      break;
    case ZG330_WIRE_MEM_WRITE:
      if (get_u8 (&r, "region", &req->region) && req->region > 1)
        fail (&r, "region", "%u (0 ETM, 1 OCM)", req->region);
      (void) (get_u64 (&r, "offset", &req->offset) && get_blob (&r, "data", ZG330_WIRE_MAX_DATA, &req->data, &req->length));
      break;
    case ZG330_WIRE_REG_READ:
    case ZG330_WIRE_REG_WRITE:
      (void) (get_u32 (&r, "cid", &req->cid) && get_u32 (&r, "rid", &req->rid) && get_u32 (&r, "offset", &req->reg));
      if (type == ZG330_WIRE_REG_WRITE)
        (void) (get_u32 (&r, "value", &req->value));
      break;
    case ZG330_WIRE_ICORE_CALC:
      {
        guint32 n = 0;
        guint64 end;
        if (!get_u64 (&r, "addr", &req->addr) || !get_u64 (&r, "size", &req->size)
            || !get_u32_in (&r, "n_bindings", 0, ZG330_WIRE_MAX_CALLS, &n))
          break;
        if (!zw_u64_add (req->addr, req->size, &end))
          {
            fail (&r, "size", "address + size wraps around");
            break;
          }
        req->bindings = g_array_sized_new (FALSE, TRUE, sizeof (Zg330WireBinding), MIN (n, 64));
        for (guint32 i = 0; i < n && !r.failed; i++)
          {
            Zg330WireBinding wb = { 0 };
            guint64 bend;
            if (!get_u64 (&r, "binding.addr", &wb.addr) || !get_u64 (&r, "binding.bytes", &wb.bytes)
                || !get_bool (&r, "binding.merged", &wb.merged) || !get_bool (&r, "binding.has_call", &wb.has_call))
              break;
            if (wb.bytes == 0 || !zw_u64_add (wb.addr, wb.bytes, &bend) || wb.addr < req->addr || bend > end)
              {
                fail (&r, "binding.addr", "[0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT ") is not inside the launch",
                      wb.addr, wb.bytes);
                break;
              }
            if (wb.has_call && !get_call (&r, &wb.call))
              {
                zg330_hardop_call_clear (&wb.call);
                break;
              }
            g_array_append_val (req->bindings, wb);
          }
        break;
      }
    case ZG330_WIRE_CONFIG_TIMER:
      if (get_u8 (&r, "which", &req->which) && req->which > 1)
        fail (&r, "which", "%u (0 timer, 1 profiler)", req->which);
      (void) (get_u64 (&r, "addr", &req->addr) && get_u64_max (&r, "size", G_MAXUINT32, &req->size));
      break;
    case ZG330_WIRE_RESET:
    case ZG330_WIRE_STATUS:
      (void) (get_u32_in (&r, "level", 0, 16, &req->level));
      break;
    case ZG330_WIRE_SET_FIELD:
      (void) (get_str (&r, "field", 64, &req->field) && get_f64 (&r, "value", -1e300, 1e300, &req->fvalue));
      break;
    case ZG330_WIRE_SET_MASTER:
      (void) (get_u32 (&r, "cid", &req->cid));
      break;
    case ZG330_WIRE_TIMER_READ:
    case ZG330_WIRE_CLOSE:
      break;
    default:
      (void) b;
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "unknown request type %u", type);
      zg330_wire_request_clear (req);
      return FALSE;
    }
  if (!finish (&r))
    {
      zg330_wire_request_clear (req);
      return FALSE;
    }
  return TRUE;
}

gboolean
zg330_wire_decode_reply (guint16 request_type, guint16 frame_type, const guint8 *payload, gsize length,
                         Zg330WireReply *rep, GError **error)
{
  Reader r = { payload, length, zg330_wire_type_to_string (frame_type), error, FALSE };

  memset (rep, 0, sizeof *rep);
  rep->type = frame_type;
  if (frame_type == ZG330_WIRE_ERROR)
    {
      (void) (get_u32_in (&r, "code", 0, XRT_ERROR_TIMEOUT, &rep->code)
        && get_str (&r, "message", ZG330_WIRE_MAX_STRING, &rep->message));
    }
  else if (frame_type == ZG330_WIRE_BUSY)
    (void) (get_str (&r, "message", ZG330_WIRE_MAX_STRING, &rep->message));
  else if (frame_type != (request_type | ZG330_WIRE_REPLY))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "a frame of type 0x%x (%s) where the reply to %s was due",
                   frame_type, zg330_wire_type_to_string (frame_type), zg330_wire_type_to_string (request_type));
      return FALSE;
    }
  else
    switch (request_type)
      {
      case ZG330_WIRE_HELLO:
        {
          const guint8 *p;
          guint32 n;
          if (get_u32 (&r, "version", &rep->version) && get_str (&r, "board", 64, &rep->board)
              && get_blob (&r, "profile", ZG330_WIRE_MAX_PROFILE, &p, &n))
            {
              if (memchr (p, '\0', n) != NULL || !g_utf8_validate ((const char *) p, n, NULL))
                fail (&r, "profile", "not UTF-8 text");
              else
                rep->profile_json = g_strndup ((const char *) p, n);
            }
          (void) (get_u32_in (&r, "max_payload", ZG330_WIRE_HEADER_BYTES, ZG330_WIRE_MAX_PAYLOAD, &rep->max_payload));
          break;
        }
      case ZG330_WIRE_MEM_READ:
        {
          const guint8 *p;
          if (get_blob (&r, "data", ZG330_WIRE_MAX_DATA, &p, &rep->length))
            rep->data = rep->length > 0 ? g_memdup2 (p, rep->length) : g_malloc0 (1);
          break;
        }
      case ZG330_WIRE_REG_READ:
        (void) (get_u32 (&r, "value", &rep->value));
        break;
      case ZG330_WIRE_ICORE_CALC:
        if (get_bool (&r, "ok", &rep->ok) && get_stats (&r, &rep->stats) && !rep->ok)
          (void) (get_u32_in (&r, "code", 0, XRT_ERROR_TIMEOUT, &rep->code)
            && get_str (&r, "message", ZG330_WIRE_MAX_STRING, &rep->message));
        break;
      case ZG330_WIRE_TIMER_READ:
        (void) (get_u64 (&r, "timer", &rep->timer) && get_u32 (&r, "layer_count", &rep->layer_count)
          && get_u32 (&r, "state", &rep->state) && get_u32 (&r, "master_cid", &rep->master_cid));
        break;
      case ZG330_WIRE_STATUS:
        (void) (get_u32 (&r, "etm_pages", &rep->etm_pages) && get_str (&r, "text", ZG330_WIRE_MAX_STATUS, &rep->text));
        break;
      default:
        break;
      }
  if (!finish (&r))
    {
      zg330_wire_reply_clear (rep);
      return FALSE;
    }
  return TRUE;
}
