/* xir-network.c — loads the vendor's XIR network JSON into XirNetwork.
 *
 * The JSON is parsed with cJSON, then walked once: every op, value and params
 * object is validated and turned into plain structs; the op "tags" and the
 * non-structural attributes are detached from the cJSON tree and kept, the
 * rest of the tree is freed. Errors carry the file, the op id / value id and
 * the JSON path of the field at fault.
 *
 * A well-formed file is read op by op (see "the streamed load"): cJSON parses each op
 * while the framing around the ops follows cJSON's own rules, so a large network never
 * has its whole tree in memory. Anything that does not load that way is loaded again
 * from one whole tree, which alone produces the error messages.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"
#include "base/zw-file-read.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK (xir-error-quark, xir_error)

void
xir_set_error (GError **error, XirError code, const char *origin, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, XIR_ERROR, code, "%s: %s", origin ? origin : "<network>", msg);
}

/* ---- small JSON accessors ----------------------------------------------- */

/* Context of the object being parsed, for error messages. The "where" text ("op 5 (ops[3]):
 * inputs[0] (v_id 7): dtype") is formatted only when an error needs it: a large network has
 * hundreds of thousands of contexts and no error. */
typedef enum {
  CTX_FIXED,        /* text */
  CTX_OP_INDEX,     /* "ops[index]" */
  CTX_OP,           /* "op id (ops[index])" */
  CTX_VALUE_INDEX,  /* "parent: text[index]" */
  CTX_VALUE,        /* "parent: text[index] (v_id id)" */
  CTX_SUFFIX,       /* "parent: text" */
} CtxKind;

typedef struct Ctx Ctx;
struct Ctx {
  const char *origin;
  const Ctx *parent;
  CtxKind kind;
  const char *text;
  guint index;
  gint64 id;
  gboolean formatted;  /* where[] holds the text (a cache, filled through a const pointer) */
  char where[160];
};

static void
ctx_init (Ctx *ctx, const char *origin, const Ctx *parent, CtxKind kind, const char *text, guint index, gint64 id)
{
  ctx->origin = origin;
  ctx->parent = parent;
  ctx->kind = kind;
  ctx->text = text;
  ctx->index = index;
  ctx->id = id;
  ctx->formatted = FALSE;
}

static const char *
ctx_where (const Ctx *c)
{
  Ctx *ctx = (Ctx *) c;  /* every Ctx is a non-const local: the cast only fills the cache */

  if (ctx->formatted)
    return ctx->where;
  switch (ctx->kind)
    {
    case CTX_FIXED:
      g_strlcpy (ctx->where, ctx->text, sizeof ctx->where);
      break;
    case CTX_OP_INDEX:
      g_snprintf (ctx->where, sizeof ctx->where, "ops[%u]", ctx->index);
      break;
    case CTX_OP:
      g_snprintf (ctx->where, sizeof ctx->where, "op %" G_GINT64_FORMAT " (ops[%u])", ctx->id, ctx->index);
      break;
    case CTX_VALUE_INDEX:
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s[%u]", ctx_where (ctx->parent), ctx->text, ctx->index);
      break;
    case CTX_VALUE:
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s[%u] (v_id %" G_GINT64_FORMAT ")",
                  ctx_where (ctx->parent), ctx->text, ctx->index, ctx->id);
      break;
    case CTX_SUFFIX:
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s", ctx_where (ctx->parent), ctx->text);
      break;
    default:
      g_assert_not_reached ();
    }
  ctx->formatted = TRUE;
  return ctx->where;
}

/* The children of @obj named @keys, each the first of its name as
 * cJSON_GetObjectItemCaseSensitive() would find it, in one pass over the object instead of
 * one scan per key. */
static void
json_fields (const cJSON *obj, const char *const *keys, guint n_keys, const cJSON **items)
{
  memset (items, 0, sizeof *items * n_keys);
  for (const cJSON *c = obj ? obj->child : NULL; c != NULL && c->string != NULL; c = c->next)
    for (guint k = 0; k < n_keys; k++)
      if (c->string[0] == keys[k][0] && items[k] == NULL && strcmp (c->string, keys[k]) == 0)
        {
          items[k] = c;
          break;
        }
}

static gboolean
item_int64 (const Ctx *ctx, const cJSON *item, const char *key, gboolean required, gint64 *out, GError **error)
{
  if (item == NULL)
    {
      if (required)
        {
          xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", ctx_where (ctx), key);
          return FALSE;
        }
      return TRUE;
    }
  if (!cJSON_IsNumber (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be a number", ctx_where (ctx), key);
      return FALSE;
    }
  if (zw_json_int64 (item, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, out) != ZW_NUM_OK)
    {
      xir_set_error (error, XIR_ERROR_RANGE, ctx->origin,
                     "%s: field \"%s\" must be an integer below 2^53, got %g", ctx_where (ctx), key,
                     item->valuedouble);
      return FALSE;
    }
  return TRUE;
}

static gboolean
json_get_int64 (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                gint64 *out, GError **error)
{
  return item_int64 (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, out, error);
}

static const char *
item_string (const Ctx *ctx, const cJSON *item, const char *key, gboolean required, GError **error)
{
  if (item == NULL)
    {
      if (required)
        xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", ctx_where (ctx), key);
      return required ? NULL : "";
    }
  if (!cJSON_IsString (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be a string", ctx_where (ctx), key);
      return NULL;
    }
  return item->valuestring;
}

static const char *
json_get_string (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required, GError **error)
{
  return item_string (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, error);
}

static const cJSON *
item_typed (const Ctx *ctx, const cJSON *item, const char *key, gboolean required,
            cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error)
{
  if (item == NULL)
    {
      if (required)
        xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", ctx_where (ctx), key);
      return NULL;
    }
  if (!is_type (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be %s", ctx_where (ctx), key,
                     type_name);
      return NULL;
    }
  return item;
}

static const cJSON *
json_get_typed (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error)
{
  return item_typed (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, is_type, type_name, error);
}

/* ---- vendor string parsers ---------------------------------------------- */

/* Matches "@prefix(" … ")" and returns where the inside starts (not a copy) and its length, or
 * NULL. Most strings of a network are parsed through this: no allocation per string. */
static const char *
wrapper_inner (const char *text, const char *prefix, gsize *inner_len)
{
  gsize plen = strlen (prefix);
  gsize len;

  if (text == NULL || strncmp (text, prefix, plen) != 0)
    return NULL;
  len = strlen (text);
  if (len < plen + 1 || text[len - 1] != ')')
    return NULL;
  *inner_len = len - plen - 1;
  return text + plen;
}

static gboolean
parse_uint_full (const char *text, int base, guint64 max, guint64 *out)
{
  char *end = NULL;
  guint64 v;

  if (text == NULL || *text == '\0' || *text == '-' || *text == '+' || g_ascii_isspace (*text))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, base);
  if (errno != 0 || end == text || *end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

/* parse_uint_full() of the @len bytes at @text (a part of a longer string). */
static gboolean
parse_uint_span (const char *text, gsize len, int base, guint64 max, guint64 *out)
{
  char buf[64];

  if (len < sizeof buf)
    {
      memcpy (buf, text, len);
      buf[len] = '\0';
      return parse_uint_full (buf, base, max, out);
    }
  g_autofree char *copy = g_strndup (text, len);
  return parse_uint_full (copy, base, max, out);
}

gboolean
xir_parse_scalar_type (const char *text, XirScalarType *out, GError **error)
{
  static const struct { const char *prefix; XirScalarKind kind; } kinds[] = {
    { "@sint(", XIR_SCALAR_SINT }, { "@uint(", XIR_SCALAR_UINT },
    { "@fp(", XIR_SCALAR_FP }, { "@bf(", XIR_SCALAR_BF },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      gsize len;
      const char *inner = wrapper_inner (text, kinds[i].prefix, &len);
      guint64 bits;

      if (inner == NULL)
        continue;
      if (!parse_uint_span (inner, len, 10, 64, &bits) || bits == 0)
        break;
      if (kinds[i].kind == XIR_SCALAR_FP && bits != 16 && bits != 32 && bits != 64)
        break;
      if (kinds[i].kind == XIR_SCALAR_BF && bits != 16)
        break;
      out->kind = kinds[i].kind;
      out->bits = (guint) bits;
      return TRUE;
    }
  g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
               "unknown dtype \"%s\" (expected @sint(N), @uint(N), @fp(16|32|64) or @bf(16))",
               text ? text : "(null)");
  return FALSE;
}

char *
xir_scalar_type_to_string (const XirScalarType *type)
{
  static const char *names[] = { "sint", "uint", "fp", "bf" };
  return g_strdup_printf ("@%s(%u)", names[type->kind], type->bits);
}

gint
xir_layout_index_of (const XirLayout *layout, char axis)
{
  for (guint i = 0; i < layout->n_axes; i++)
    if (layout->axes[i] == axis)
      return (gint) i;
  return -1;
}

gboolean
xir_parse_layout (const char *text, XirLayout *out, GError **error)
{
  gsize len = 0;
  const char *inner = wrapper_inner (text, "@layout(", &len);
  const char *p;

  memset (out, 0, sizeof *out);
  if (inner == NULL || len == 0 || len >= sizeof out->text)
    goto bad;
  memcpy (out->text, inner, len);  /* NUL-terminated by the memset */
  inner = out->text;
  if (strcmp (inner, "*") == 0)
    {
      out->any_rank = TRUE;
      out->n_axes = 1;
      out->axes[0] = '*';
      return TRUE;
    }
  for (p = inner; *p != '\0';)
    {
      char axis = *p++;

      if (strchr ("NHWDCIO*nhwdcio", axis) == NULL || out->n_axes >= XIR_LAYOUT_MAX_AXES)
        goto bad;
      out->axes[out->n_axes] = axis;
      if (g_ascii_isdigit (*p))
        {
          guint64 block = 0;

          if (!g_ascii_islower (axis))
            goto bad;
          while (g_ascii_isdigit (*p))
            {
              block = block * 10 + (guint64) (*p++ - '0');
              if (block > 65536)
                goto bad;
            }
          if (block == 0)
            goto bad;
          out->block[out->n_axes] = (guint) block;
        }
      out->n_axes++;
    }
  return TRUE;

bad:
  g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
               "unknown layout \"%s\" (expected @layout(AXES) with axes from \"NHWDCIO*nhwdcio\", "
               "lower-case axes optionally followed by their block size)", text ? text : "(null)");
  return FALSE;
}

gboolean
xir_parse_mtype (const char *text, XirMemType *out, GError **error)
{
  memset (out, 0, sizeof *out);
  if (g_strcmp0 (text, "@hostm") == 0)
    {
      out->kind = XIR_MEM_HOST;
      return TRUE;
    }
  {
    gsize len;
    const char *inner = wrapper_inner (text, "@chunk(", &len);
    if (inner != NULL)
      {
        const char *at = memchr (inner, '@', len);
        guint64 id, off;

        if (at == NULL)
          goto bad;
        if (!parse_uint_span (inner, (gsize) (at - inner), 10, G_MAXINT64, &id)
            || !parse_uint_span (at + 1, len - (gsize) (at - inner) - 1, 10, G_MAXINT64, &off))
          goto bad;
        out->kind = XIR_MEM_CHUNK;
        out->chunk_id = (gint64) id;
        out->offset = off;
        return TRUE;
      }
  }
  {
    gsize elen = 0, olen = 0;
    const char *etm = wrapper_inner (text, "@etm(", &elen);
    const char *ocm = wrapper_inner (text, "@ocm(", &olen);
    const char *inner = etm ? etm : ocm;
    guint64 addr;

    if (inner != NULL && parse_uint_span (inner, etm ? elen : olen, 0, G_MAXINT64, &addr))
      {
        out->kind = etm ? XIR_MEM_ETM : XIR_MEM_OCM;
        out->addr = addr;
        return TRUE;
      }
  }
bad:
  g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
               "unknown mtype \"%s\" (expected @chunk(id@offset), @hostm, @etm(addr) or @ocm(addr))",
               text ? text : "(null)");
  return FALSE;
}

const char *
xir_element_kind_to_string (XirElementKind kind)
{
  switch (kind)
    {
    case XIR_ELEMENT_PLAIN: return "";
    case XIR_ELEMENT_QUANTIZED: return "QuantizedType";
    case XIR_ELEMENT_NORMALIZED_QUANTIZED: return "NormalizedQuantizedType";
    case XIR_ELEMENT_NORMALIZED: return "NormalizedType";
    case XIR_ELEMENT_CALIBRATED: return "CalibratedType";
    default: return "?";
    }
}

const char *
xir_mem_kind_to_string (XirMemKind kind)
{
  switch (kind)
    {
    case XIR_MEM_CHUNK: return "chunk";
    case XIR_MEM_HOST: return "host";
    case XIR_MEM_ETM: return "ETM";
    case XIR_MEM_OCM: return "OCM";
    default: return "?";
    }
}

const char *
xir_op_kind_to_string (XirOpKind kind)
{
  switch (kind)
    {
    case XIR_OP_INPUT: return "Input";
    case XIR_OP_OUTPUT: return "Output";
    case XIR_OP_HARDOP: return "HardOp";
    case XIR_OP_HOST: return "HostOp";
    case XIR_OP_CUSTOM: return "CustomOp";
    default: return "?";
    }
}


/* The powers of ten that a double holds exactly. */
static const double exact_pow10[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* g_ascii_strtod() of @text, whose usual form in the vendor's lists ("0.0054445593", "-3")
 * is read directly: with at most 2^53 as digits and at most 22 decimals, the quotient of two
 * exact doubles, rounded once, is the correctly rounded value strtod gives (Clinger's fast
 * path). Anything else (exponents, hex, inf, long digit strings, leading blanks) goes to
 * g_ascii_strtod; errno as it sets it. */
static double
ascii_strtod (const char *text, char **end)
{
  const char *p = text;
  guint64 m = 0;
  guint n_digits = 0, n_significant = 0, n_decimals = 0;
  gboolean neg = FALSE, point = FALSE;

  if (*p == '-' || *p == '+')
    neg = *p++ == '-';
  for (;; p++)
    {
      if (*p == '.' && !point)
        {
          point = TRUE;
          continue;
        }
      if (*p < '0' || *p > '9')
        break;
      n_digits++;
      n_decimals += point;
      if (m == 0 && *p == '0')
        continue;
      if (++n_significant <= 15)
        m = m * 10 + (guint64) (*p - '0');
    }
  if (n_digits == 0 || n_significant > 15 || n_decimals >= G_N_ELEMENTS (exact_pow10)
      || *p == 'e' || *p == 'E' || *p == 'x' || *p == 'X' || *p == 'p' || *p == 'P')
    {
      errno = 0;
      return g_ascii_strtod (text, end);
    }
  errno = 0;
  *end = (char *) p;
  double v = (double) m / exact_pow10[n_decimals];
  return neg ? -v : v;
}

#define XIR_MAX_SCALES (1u << 24)

/* The run-length lists of the vendor strings: "@scales([axis=A]N*s,s,…)",
 * "@exp_scales([axis=A]N*m/e/s,…)" (m×2^-e, and the original scale s) and
 * "@norm_ratios([axis=A]N*r,…)". @arity is the number of '/'-separated numbers per item;
 * the lists come back expanded, one double array per position. */
typedef struct {
  guint64 count;
  double v[3];
} RleItem;

/* The items come back as written (count and numbers) in @items_out: @stack (of
 * RLE_STACK_ITEMS) or, for a longer list, an array to g_free(); the callers expand them into
 * their arrays at their final type. (No allocation for the usual list: an array growing past
 * 1 KiB would make malloc consolidate its fast bins, per value.) */
#define RLE_STACK_ITEMS 64
static gboolean
parse_rle_list (const char *text, const char *wrapper, guint arity, gint *axis, RleItem *stack,
                RleItem **items_out, gsize *n_items_out, guint *n_out)
{
  gsize len = 0;
  const char *inner = wrapper_inner (text, wrapper, &len), *close, *p, *stop;
  char *end = NULL;
  gint64 ax;
  guint64 total = 0;
  RleItem *items = stack;
  gsize n_items = 0, cap_items = RLE_STACK_ITEMS;

  if (inner == NULL || len < 6 || strncmp (inner, "[axis=", 6) != 0
      || (close = memchr (inner, ']', len)) == NULL)
    return FALSE;
  {
    char buf[32];
    gsize alen = (gsize) (close - (inner + 6));
    g_autofree char *heap = alen >= sizeof buf ? g_strndup (inner + 6, alen) : NULL;
    char *atext = heap ? heap : buf;

    if (heap == NULL)
      {
        memcpy (buf, inner + 6, alen);
        buf[alen] = '\0';
      }
    errno = 0;
    ax = g_ascii_strtoll (atext, &end, 10);
    if (errno != 0 || end == atext || *end != '\0' || ax < -16 || ax > 16)
      return FALSE;
  }
  /* One pass reads the items (count and numbers); the callers allocate their arrays at
   * their size: every number is parsed once and no array grows per channel. */
  p = close + 1;
  stop = inner + len;
  while (p < stop)
    {
      const char *item_end = memchr (p, ',', (gsize) (stop - p));
      gsize ilen = (gsize) ((item_end ? item_end : stop) - p);
      char buf[128];
      g_autofree char *heap = NULL;
      char *item = buf, *it, *star;
      RleItem r = { 1, { 0, 0, 0 } };

      if (ilen >= sizeof buf)
        item = heap = g_malloc (ilen + 1);
      memcpy (item, p, ilen);
      item[ilen] = '\0';
      it = g_strstrip (item);
      star = strchr (it, '*');
      if (star != NULL)
        {
          *star = '\0';
          if (!parse_uint_full (it, 10, XIR_MAX_SCALES, &r.count) || r.count == 0)
            goto bad;
          it = star + 1;
        }
      for (guint c = 0; c < arity; c++)
        {
          r.v[c] = ascii_strtod (it, &end);
          if (errno != 0 || end == it || !isfinite (r.v[c]) || fabs (r.v[c]) > FLT_MAX)
            goto bad;
          if (c + 1 < arity)
            {
              if (*end != '/')
                goto bad;
              it = end + 1;
            }
        }
      if (*end != '\0')
        goto bad;
      total += r.count;
      if (total > XIR_MAX_SCALES)
        goto bad;
      if (n_items == cap_items)
        {
          items = items == stack ? g_memdup2 (stack, sizeof (RleItem) * cap_items) : items;
          cap_items *= 2;
          items = g_renew (RleItem, items, cap_items);
        }
      items[n_items++] = r;
      if (item_end == NULL)
        break;
      p = item_end + 1;
      if (p == stop)
        goto bad;  /* trailing comma */
    }
  *axis = (gint) ax;
  *items_out = items;
  *n_items_out = n_items;
  *n_out = (guint) total;
  return TRUE;

bad:
  if (items != stack)
    g_free (items);
  return FALSE;
}

static void
rle_items_free (RleItem *items, RleItem *stack)
{
  if (items != stack)
    g_free (items);
}

/* Item @col of every item, expanded, as floats (an array of MAX (total, 1)). */
static float *
rle_expand_floats (const RleItem *items, gsize n_items, guint total, guint col)
{
  float *f = g_new (float, MAX (total, 1));
  guint at = 0;

  for (gsize i = 0; i < n_items; i++)
    {
      float x = (float) items[i].v[col];
      for (guint64 k = 0; k < items[i].count; k++)
        f[at++] = x;
    }
  return f;
}

gboolean
xir_parse_scales (const char *text, gint *axis, float **scales, guint *n_scales, GError **error)
{
  RleItem stack[RLE_STACK_ITEMS], *items = NULL;
  gsize n_items;
  guint n;

  if (!parse_rle_list (text, "@scales(", 1, axis, stack, &items, &n_items, &n))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                   "unknown scales \"%s\" (expected @scales([axis=A]N*s,s,…))", text ? text : "(null)");
      return FALSE;
    }
  *scales = rle_expand_floats (items, n_items, n, 0);
  *n_scales = n;
  rle_items_free (items, stack);
  return TRUE;
}

gboolean
xir_parse_exp_scales (const char *text, gint *axis, float **scales, gint32 **mantissas, gint32 **exponents,
                      guint *n_scales, GError **error)
{
  RleItem stack[RLE_STACK_ITEMS], *items = NULL;
  gsize n_items;
  guint n, at = 0;

  if (!parse_rle_list (text, "@exp_scales(", 3, axis, stack, &items, &n_items, &n))
    goto bad;
  for (gsize i = 0; i < n_items; i++)
    {
      const double *v = items[i].v;
      if (v[0] != floor (v[0]) || v[1] != floor (v[1]) || fabs (v[0]) > G_MAXINT32 || v[1] < -64 || v[1] > 64)
        {
          rle_items_free (items, stack);
          goto bad;
        }
    }
  *scales = rle_expand_floats (items, n_items, n, 2);
  *mantissas = g_new (gint32, MAX (n, 1));
  *exponents = g_new (gint32, MAX (n, 1));
  for (gsize i = 0; i < n_items; i++)
    for (guint64 k = 0; k < items[i].count; k++, at++)
      {
        (*mantissas)[at] = (gint32) items[i].v[0];
        (*exponents)[at] = (gint32) items[i].v[1];
      }
  *n_scales = n;
  rle_items_free (items, stack);
  return TRUE;

bad:
  g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
               "unknown exponent scales \"%s\" (expected @exp_scales([axis=A]N*m/e/s,…): integers m and e, "
               "|e| <= 64, the scale m×2^-e and the original s)", text ? text : "(null)");
  return FALSE;
}

gboolean
xir_parse_norm_ratios (const char *text, gint *axis, float **ratios, guint *n_ratios, GError **error)
{
  RleItem stack[RLE_STACK_ITEMS], *items = NULL;
  gsize n_items;
  guint n;

  if (!parse_rle_list (text, "@norm_ratios(", 1, axis, stack, &items, &n_items, &n))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                   "unknown norm ratios \"%s\" (expected @norm_ratios([axis=A]N*r,r,…))", text ? text : "(null)");
      return FALSE;
    }
  *ratios = rle_expand_floats (items, n_items, n, 0);
  *n_ratios = n;
  rle_items_free (items, stack);
  return TRUE;
}

/* ---- values ------------------------------------------------------------- */

void
xir_value_free (XirValue *v)
{
  if (v == NULL)
    return;
  g_free (v->name);
  g_free (v->element.scales);
  g_free (v->element.scale_mantissas);
  g_free (v->element.scale_exponents);
  g_free (v->element.zero_points);
  g_free (v->element.norm_ratios);
  g_free (v->element.calib_min);
  g_free (v->element.calib_max);
  g_free (v->element.calib_sat);
  g_free (v->shape);
  g_strfreev (v->merged_distrs);
  cJSON_Delete (v->tags);
  if (v->consumers)
    g_array_unref (v->consumers);
  g_free (v);
}

/* ---- standalone values ----------------------------------------------------- */

static void
element_copy (XirElementType *dst, const XirElementType *src)
{
  *dst = *src;
  dst->scales = src->n_scales ? g_memdup2 (src->scales, sizeof (float) * src->n_scales) : NULL;
  dst->scale_mantissas = src->n_scales && src->scale_mantissas
                           ? g_memdup2 (src->scale_mantissas, sizeof (gint32) * src->n_scales) : NULL;
  dst->scale_exponents = src->n_scales && src->scale_exponents
                           ? g_memdup2 (src->scale_exponents, sizeof (gint32) * src->n_scales) : NULL;
  dst->zero_points = src->n_zero_points ? g_memdup2 (src->zero_points, sizeof (gint64) * src->n_zero_points) : NULL;
  dst->norm_ratios = src->n_norm_ratios ? g_memdup2 (src->norm_ratios, sizeof (float) * src->n_norm_ratios) : NULL;
  dst->calib_min = src->n_calibrated && src->calib_min ? g_memdup2 (src->calib_min, sizeof (double) * src->n_calibrated) : NULL;
  dst->calib_max = src->n_calibrated && src->calib_max ? g_memdup2 (src->calib_max, sizeof (double) * src->n_calibrated) : NULL;
  dst->calib_sat = src->n_calibrated && src->calib_sat ? g_memdup2 (src->calib_sat, sizeof (double) * src->n_calibrated) : NULL;
  if (dst->n_zero_points == 0)
    dst->zero_points = NULL;
}

XirValue *
xir_value_copy (const XirValue *value)
{
  XirValue *v;

  g_return_val_if_fail (value != NULL, NULL);
  v = g_new0 (XirValue, 1);
  v->v_id = value->v_id;
  v->name = g_strdup (value->name);
  v->is_params = value->is_params;
  v->param_index = -1;
  v->allow_no_data = value->allow_no_data;
  element_copy (&v->element, &value->element);
  v->layout = value->layout;
  v->rank = value->rank;
  v->shape = g_new0 (gint64, MAX (value->rank, 1));
  if (value->rank > 0)
    memcpy (v->shape, value->shape, sizeof (gint64) * value->rank);
  v->n_merged_distrs = value->merged_distrs ? value->n_merged_distrs : 0;
  v->merged_distrs = value->merged_distrs ? g_strdupv (value->merged_distrs) : g_new0 (char *, 1);
  v->mtype = value->mtype;
  v->n_elements = value->n_elements;
  v->storage_bytes = value->storage_bytes;
  v->tags = value->tags ? cJSON_Duplicate (value->tags, TRUE) : cJSON_CreateObject ();
  v->producer = -1;
  v->consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  v->first_use = -1;
  v->last_use = -1;
  return v;
}

XirValue *
xir_value_new (const XirElementType *element, const char *layout, const gint64 *shape, guint rank, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *wrapped = NULL;
  XirValue *v;
  XirLayout lay;
  guint64 n_elements = 0, bits = 0;

  if (element == NULL || (shape == NULL && rank > 0))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, "standalone value: %s is NULL",
                   element == NULL ? "element" : "shape");
      return NULL;
    }
  if (element->storage.bits == 0 || element->storage.bits > 64)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: storage has %u bits (1 to 64)",
                   element->storage.bits);
      return NULL;
    }
  if (rank > XIR_LAYOUT_MAX_AXES)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE, "standalone value: shape has %u dimensions (at most %d)", rank,
                   XIR_LAYOUT_MAX_AXES);
      return NULL;
    }
  for (guint i = 0; i < rank; i++)
    if (shape[i] < 0 || shape[i] > G_GINT64_CONSTANT (4294967296))
      {
        g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE,
                     "standalone value: shape[%u] is %" G_GINT64_FORMAT ", must be in [0, 2^32]", i, shape[i]);
        return NULL;
      }
  if (!zw_shape_elements (shape, rank, (guint64) 1 << 40, &n_elements)
      || !zw_u64_mul (n_elements, element->storage.bits, &bits) || (bits + 7) / 8 > XIR_MAX_VALUE_BYTES)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE,
                   "standalone value: shape needs more than the 4 GiB a ZG330 can address");
      return NULL;
    }
  if (layout == NULL)
    layout = "*";
  if (!g_str_has_prefix (layout, "@layout("))
    layout = wrapped = g_strdup_printf ("@layout(%s)", layout);
  if (!xir_parse_layout (layout, &lay, &local))
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: layout: %s", local->message);
      return NULL;
    }
  if (!lay.any_rank && lay.n_axes != rank)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: layout \"%s\" has %u axes but shape has %u",
                   lay.text, lay.n_axes, rank);
      return NULL;
    }
  for (guint i = 0; !lay.any_rank && i < rank; i++)
    if (lay.block[i] != 0 && (guint64) shape[i] != lay.block[i])
      {
        g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                     "standalone value: layout \"%s\" axis '%c' is a block of %u but shape[%u] is %" G_GINT64_FORMAT,
                     lay.text, lay.axes[i], lay.block[i], i, shape[i]);
        return NULL;
      }
  if (element->kind == XIR_ELEMENT_QUANTIZED || element->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED)
    {
      if (element->n_scales == 0 || element->scales == NULL)
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: a %s needs scales",
                       xir_element_kind_to_string (element->kind));
          return NULL;
        }
      for (guint i = 0; i < element->n_scales; i++)
        if (!isfinite (element->scales[i]) || element->scales[i] == 0.0f)
          {
            g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE, "standalone value: scales[%u] is %g (finite, not 0)", i,
                         (double) element->scales[i]);
            return NULL;
          }
      if ((element->scale_mantissas == NULL) != (element->scale_exponents == NULL))
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                       "standalone value: exponent scales need both mantissas and exponents");
          return NULL;
        }
      if (element->n_zero_points > 0 && (element->zero_points == NULL
                                         || (element->n_zero_points != 1 && element->n_zero_points != element->n_scales)))
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_VALUE,
                       "standalone value: %u zero_points for %u scales (0, 1 or one per scale)", element->n_zero_points,
                       element->n_scales);
          return NULL;
        }
      if (rank > 0 ? (element->scale_axis < -(gint) rank || element->scale_axis >= (gint) rank)
                   : element->scale_axis != -1 && element->scale_axis != 0)
        {
          g_set_error (error, XIR_ERROR, XIR_ERROR_RANGE, "standalone value: scale_axis %d is outside a shape of rank %u",
                       element->scale_axis, rank);
          return NULL;
        }
    }
  v = g_new0 (XirValue, 1);
  v->v_id = -1;
  v->param_index = -1;
  element_copy (&v->element, element);
  v->element.quantized = element->kind == XIR_ELEMENT_QUANTIZED || element->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED;
  if (!v->element.quantized)
    {
      g_clear_pointer (&v->element.scales, g_free);
      g_clear_pointer (&v->element.scale_mantissas, g_free);
      g_clear_pointer (&v->element.scale_exponents, g_free);
      g_clear_pointer (&v->element.zero_points, g_free);
      v->element.n_scales = 0;
      v->element.n_zero_points = 0;
    }
  if (v->element.kind == XIR_ELEMENT_PLAIN)
    v->element.expressed = v->element.storage;
  v->layout = lay;
  v->rank = rank;
  v->shape = g_new0 (gint64, MAX (rank, 1));
  if (rank > 0)
    memcpy (v->shape, shape, sizeof (gint64) * rank);
  v->merged_distrs = g_new0 (char *, 1);
  v->mtype.kind = XIR_MEM_HOST;
  v->n_elements = n_elements;
  v->storage_bytes = (bits + 7) / 8;
  v->tags = cJSON_CreateObject ();
  v->producer = -1;
  v->consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  v->first_use = -1;
  v->last_use = -1;
  return v;
}

G_DEFINE_BOXED_TYPE (XirValue, xir_value, xir_value_copy, xir_value_free)

static void
xir_chunk_free (XirChunk *c)
{
  g_ptr_array_unref (c->values);
  g_free (c);
}

static gboolean
parse_scalar_field (const Ctx *ctx, const cJSON *item, const char *key, XirScalarType *out, GError **error)
{
  const char *s = item_string (ctx, item, key, TRUE, error);
  GError *local = NULL;

  if (s == NULL)
    return FALSE;
  if (!xir_parse_scalar_type (s, out, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s: %s", ctx_where (ctx), key, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* CalibratedType: "min", "max", "sat" arrays of one length (finite numbers). */
static gboolean
parse_calibrated (const Ctx *ctx, const cJSON *e, XirElementType *el, GError **error)
{
  const char *keys[] = { "min", "max", "sat" };
  double **cols[] = { &el->calib_min, &el->calib_max, &el->calib_sat };

  for (guint k = 0; k < 3; k++)
    {
      const cJSON *arr = json_get_typed (ctx, e, keys[k], TRUE, cJSON_IsArray, "an array", error), *x;
      guint n, i = 0;

      if (arr == NULL)
        return FALSE;
      n = (guint) cJSON_GetArraySize (arr);
      if (k == 0)
        el->n_calibrated = n;
      else if (n != el->n_calibrated)
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s has %u numbers but min has %u", ctx_where (ctx),
                         keys[k], n, el->n_calibrated);
          return FALSE;
        }
      *cols[k] = g_new0 (double, MAX (n, 1));
      cJSON_ArrayForEach (x, arr)
        {
          if (zw_json_double (x, -G_MAXDOUBLE, G_MAXDOUBLE, &(*cols[k])[i]) != ZW_NUM_OK)
            {
              xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: %s[%u] must be a finite number", ctx_where (ctx),
                             keys[k], i);
              return FALSE;
            }
          i++;
        }
    }
  return TRUE;
}

/* The keys of an element type object. */
enum { EL_TYPE_KEY, EL_STORAGE, EL_EXPRESSED, EL_NORMRATIO, EL_SCALE, EL_ZERO_POINTS, N_EL_KEYS };
static const char *const element_keys[N_EL_KEYS] = {
  "_type_key", "storage_dtype", "expressed_dtype", "normratio", "scale", "zero_points",
};

/* @e: the dtype's "element_dtype" (NULL if missing) */
static gboolean
parse_element (const Ctx *ctx, const cJSON *e, XirElementType *el, GError **error)
{
  Ctx sub;
  const char *type_key, *scale;
  const cJSON *zps, *f[N_EL_KEYS];
  GError *local = NULL;

  memset (el, 0, sizeof *el);
  if (e == NULL)
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"element_dtype\"", ctx_where (ctx));
      return FALSE;
    }
  if (cJSON_IsString (e))
    {
      if (!xir_parse_scalar_type (e->valuestring, &el->storage, &local))
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: element_dtype: %s", ctx_where (ctx), local->message);
          g_error_free (local);
          return FALSE;
        }
      return TRUE;
    }
  if (!cJSON_IsObject (e))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin,
                     "%s: field \"element_dtype\" must be a string or a QuantizedType object", ctx_where (ctx));
      return FALSE;
    }
  ctx_init (&sub, ctx->origin, ctx, CTX_SUFFIX, "element_dtype", 0, 0);
  json_fields (e, element_keys, N_EL_KEYS, f);
  type_key = item_string (&sub, f[EL_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    return FALSE;
  if (strcmp (type_key, "icraft::xir::QuantizedType") == 0)
    el->kind = XIR_ELEMENT_QUANTIZED;
  else if (strcmp (type_key, "icraft::xir::NormalizedQuantizedType") == 0)
    el->kind = XIR_ELEMENT_NORMALIZED_QUANTIZED;
  else if (strcmp (type_key, "icraft::xir::NormalizedType") == 0)
    el->kind = XIR_ELEMENT_NORMALIZED;
  else if (strcmp (type_key, "icraft::xir::CalibratedType") == 0)
    el->kind = XIR_ELEMENT_CALIBRATED;
  else
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin,
                     "%s: unknown element type \"%s\" (expected QuantizedType, NormalizedQuantizedType, "
                     "NormalizedType or CalibratedType)", ctx_where (&sub), type_key);
      return FALSE;
    }
  el->quantized = el->kind == XIR_ELEMENT_QUANTIZED || el->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED;
  el->scale_axis = -1;
  el->norm_axis = -1;
  if (!parse_scalar_field (&sub, f[EL_STORAGE], "storage_dtype", &el->storage, error))
    return FALSE;
  if (f[EL_EXPRESSED] != NULL)
    {
      if (!parse_scalar_field (&sub, f[EL_EXPRESSED], "expressed_dtype", &el->expressed, error))
        return FALSE;
    }
  else
    {
      el->expressed.kind = XIR_SCALAR_FP;
      el->expressed.bits = 32;
    }
  if (el->kind == XIR_ELEMENT_NORMALIZED || el->kind == XIR_ELEMENT_NORMALIZED_QUANTIZED)
    {
      const char *ratios = item_string (&sub, f[EL_NORMRATIO], "normratio", TRUE, error);
      if (ratios == NULL)
        return FALSE;
      if (!xir_parse_norm_ratios (ratios, &el->norm_axis, &el->norm_ratios, &el->n_norm_ratios, &local))
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: normratio: %s", ctx_where (&sub), local->message);
          g_error_free (local);
          return FALSE;
        }
    }
  if (el->kind == XIR_ELEMENT_CALIBRATED)
    return parse_calibrated (&sub, e, el, error);
  if (!el->quantized)
    return TRUE;
  scale = item_string (&sub, f[EL_SCALE], "scale", TRUE, error);
  if (scale == NULL)
    return FALSE;
  if (g_str_has_prefix (scale, "@exp_scales(")
          ? !xir_parse_exp_scales (scale, &el->scale_axis, &el->scales, &el->scale_mantissas, &el->scale_exponents,
                                   &el->n_scales, &local)
          : !xir_parse_scales (scale, &el->scale_axis, &el->scales, &el->n_scales, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx->origin, "%s: scale: %s", ctx_where (&sub), local->message);
      g_error_free (local);
      return FALSE;
    }
  zps = item_typed (&sub, f[EL_ZERO_POINTS], "zero_points", FALSE, cJSON_IsArray, "an array", error);
  if (zps == NULL && f[EL_ZERO_POINTS] != NULL)
    return FALSE;
  if (zps != NULL)
    {
      guint n = (guint) cJSON_GetArraySize (zps), i = 0;
      const cJSON *z;

      el->zero_points = n > 0 ? g_new0 (gint64, n) : NULL;
      cJSON_ArrayForEach (z, zps)
        {
          if (zw_json_int64 (z, -G_GINT64_CONSTANT (1000000000000000), G_GINT64_CONSTANT (1000000000000000),
                             &el->zero_points[i]) != ZW_NUM_OK)
            {
              xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: zero_points[%u] must be an integer", ctx_where (&sub), i);
              return FALSE;
            }
          i++;
        }
      el->n_zero_points = n;
    }
  return TRUE;
}

/* The keys of a Value or Params object, and of its dtype. */
enum { V_ID, V_TYPE_KEY, V_NAME, V_ALLOW_NO_DATA, V_DTYPE, V_MTYPE, V_TAGS, N_V_KEYS };
static const char *const value_keys[N_V_KEYS] = {
  "v_id", "_type_key", "name", "_allow_no_data", "dtype", "mtype", "tags",
};
enum { D_TYPE_KEY, D_ELEMENT, D_LAYOUT, D_SHAPE, D_MERGED_DISTRS, N_D_KEYS };
static const char *const dtype_keys[N_D_KEYS] = {
  "_type_key", "element_dtype", "layout", "shape", "merged_distrs",
};

/* @s as item_string() found it in @item: a copy, or with @take the tree's own string, taken
 * out of it (cJSON allocates with malloc, as g_free frees: no cJSON_InitHooks here). */
static char *
string_keep (const cJSON *item, const char *s, gboolean take)
{
  if (take && item != NULL && item->valuestring == s)
    {
      ((cJSON *) item)->valuestring = NULL;
      return (char *) s;
    }
  return g_strdup (s);
}

/* Parses a Value or Params object into a new XirValue. @consume: nothing reads @obj later
 * (no comparison with it), so its strings and "tags" may be taken out of it instead of
 * copied. */
static XirValue *
parse_value (const Ctx *op_ctx, const char *field, guint idx, const cJSON *obj, gboolean is_params,
             gboolean consume, GArray *no_consumers, GError **error)
{
  g_autoptr (GError) local = NULL;
  XirValue *v = g_new0 (XirValue, 1);
  Ctx ctx;
  const cJSON *dtype, *shape, *distrs, *tags, *item, *anod, *f[N_V_KEYS], *df[N_D_KEYS];
  const char *type_key, *name, *mtype, *layout;
  guint64 n_elements = 1;
  guint i;

  v->param_index = -1;
  v->producer = -1;
  v->first_use = -1;
  v->last_use = -1;
  ctx_init (&ctx, op_ctx->origin, op_ctx, CTX_VALUE_INDEX, field, idx, 0);
  if (!cJSON_IsObject (obj))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: must be an object", ctx_where (&ctx));
      goto fail;
    }
  json_fields (obj, value_keys, N_V_KEYS, f);
  if (!item_int64 (&ctx, f[V_ID], "v_id", TRUE, &v->v_id, error))
    goto fail;
  ctx_init (&ctx, op_ctx->origin, op_ctx, CTX_VALUE, field, idx, v->v_id);
  type_key = item_string (&ctx, f[V_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    goto fail;
  if (strcmp (type_key, is_params ? "icraft::xir::Params" : "icraft::xir::Value") != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: _type_key is \"%s\", expected \"%s\"",
                     ctx_where (&ctx), type_key, is_params ? "icraft::xir::Params" : "icraft::xir::Value");
      goto fail;
    }
  v->is_params = is_params;
  name = item_string (&ctx, f[V_NAME], "name", FALSE, error);
  if (name == NULL)
    goto fail;
  v->name = string_keep (f[V_NAME], name, consume);
  anod = f[V_ALLOW_NO_DATA];
  if (anod != NULL)
    {
      if (!cJSON_IsBool (anod))
        {
          xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: field \"_allow_no_data\" must be a boolean", ctx_where (&ctx));
          goto fail;
        }
      v->allow_no_data = cJSON_IsTrue (anod);
    }

  dtype = item_typed (&ctx, f[V_DTYPE], "dtype", TRUE, cJSON_IsObject, "an object", error);
  if (dtype == NULL)
    goto fail;
  {
    Ctx dctx;
    const char *dkey;

    ctx_init (&dctx, ctx.origin, &ctx, CTX_SUFFIX, "dtype", 0, 0);
    json_fields (dtype, dtype_keys, N_D_KEYS, df);
    dkey = item_string (&dctx, df[D_TYPE_KEY], "_type_key", TRUE, error);
    if (dkey == NULL)
      goto fail;
    if (strcmp (dkey, "icraft::xir::TensorType") != 0)
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: unknown type \"%s\" (expected icraft::xir::TensorType)",
                       ctx_where (&dctx), dkey);
        goto fail;
      }
    if (!parse_element (&dctx, df[D_ELEMENT], &v->element, error))
      goto fail;
    layout = item_string (&dctx, df[D_LAYOUT], "layout", TRUE, error);
    if (layout == NULL)
      goto fail;
    if (!xir_parse_layout (layout, &v->layout, &local))
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: layout: %s", ctx_where (&dctx), local->message);
        goto fail;
      }
    shape = item_typed (&dctx, df[D_SHAPE], "shape", TRUE, cJSON_IsArray, "an array", error);
    if (shape == NULL)
      goto fail;
    v->rank = (guint) cJSON_GetArraySize (shape);
    if (v->rank > XIR_LAYOUT_MAX_AXES)
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin, "%s: shape has %u dimensions (at most %d)",
                       ctx_where (&dctx), v->rank, XIR_LAYOUT_MAX_AXES);
        goto fail;
      }
    v->shape = g_new0 (gint64, MAX (v->rank, 1));
    i = 0;
    cJSON_ArrayForEach (item, shape)
      {
        if (zw_json_int64 (item, 0, G_GINT64_CONSTANT (4294967296), &v->shape[i]) != ZW_NUM_OK)
          {
            xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                           "%s: shape[%u] must be an integer in [0, 2^32]", ctx_where (&dctx), i);
            goto fail;
          }
        if (v->shape[i] != 0 && n_elements > G_MAXUINT64 / 64 / (guint64) v->shape[i])
          {
            xir_set_error (error, XIR_ERROR_RANGE, ctx.origin, "%s: shape is too large", ctx_where (&dctx));
            goto fail;
          }
        n_elements *= (guint64) v->shape[i];
        i++;
      }
    if (n_elements > ((guint64) 1 << 40))
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                       "%s: shape has %" G_GUINT64_FORMAT " elements (more than 2^40)", ctx_where (&dctx), n_elements);
        goto fail;
      }
    if (!v->layout.any_rank && v->layout.n_axes != v->rank)
      {
        xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: layout \"%s\" has %u axes but shape has %u",
                       ctx_where (&dctx), v->layout.text, v->layout.n_axes, v->rank);
        goto fail;
      }
    for (i = 0; !v->layout.any_rank && i < v->rank; i++)
      if (v->layout.block[i] != 0 && (guint64) v->shape[i] != v->layout.block[i])
        {
          xir_set_error (error, XIR_ERROR_VALUE, ctx.origin,
                         "%s: layout \"%s\" axis '%c' is a block of %u but shape[%u] is %" G_GINT64_FORMAT,
                         ctx_where (&dctx), v->layout.text, v->layout.axes[i], v->layout.block[i], i, v->shape[i]);
          goto fail;
        }
    v->n_elements = n_elements;
    v->storage_bytes = (n_elements * v->element.storage.bits + 7) / 8;
    if (v->storage_bytes > XIR_MAX_VALUE_BYTES)
      {
        xir_set_error (error, XIR_ERROR_RANGE, ctx.origin,
                       "%s: shape needs %" G_GUINT64_FORMAT " bytes, more than the 4 GiB a ZG330 can address",
                       ctx_where (&dctx), v->storage_bytes);
        goto fail;
      }
    distrs = item_typed (&dctx, df[D_MERGED_DISTRS], "merged_distrs", FALSE, cJSON_IsArray, "an array", error);
    if (distrs == NULL && df[D_MERGED_DISTRS] != NULL)
      goto fail;
    v->n_merged_distrs = distrs ? (guint) cJSON_GetArraySize (distrs) : 0;
    v->merged_distrs = g_new0 (char *, v->n_merged_distrs + 1);
    i = 0;
    if (distrs != NULL)
      cJSON_ArrayForEach (item, distrs)
        {
          if (!cJSON_IsString (item))
            {
              xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: merged_distrs[%u] must be a string", ctx_where (&dctx), i);
              goto fail;
            }
          v->merged_distrs[i++] = string_keep (item, item->valuestring, consume);
        }
  }

  mtype = item_string (&ctx, f[V_MTYPE], "mtype", TRUE, error);
  if (mtype == NULL)
    goto fail;
  if (!xir_parse_mtype (mtype, &v->mtype, &local))
    {
      xir_set_error (error, XIR_ERROR_VALUE, ctx.origin, "%s: mtype: %s", ctx_where (&ctx), local->message);
      goto fail;
    }
  tags = f[V_TAGS];
  if (tags != NULL && !cJSON_IsObject (tags))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx.origin, "%s: field \"tags\" must be an object", ctx_where (&ctx));
      goto fail;
    }
  if (tags == NULL)
    v->tags = cJSON_CreateObject ();
  else if (consume)
    v->tags = cJSON_DetachItemViaPointer ((cJSON *) obj, (cJSON *) tags);
  else
    v->tags = cJSON_Duplicate (tags, TRUE);
  /* params are read by no op: they share one empty list */
  v->consumers = is_params ? g_array_ref (no_consumers) : g_array_new (FALSE, FALSE, sizeof (guint));
  return v;

fail:
  xir_value_free (v);
  return NULL;
}

/* Two appearances of one v_id must describe the same tensor. */
static gboolean
same_value (const XirValue *a, const XirValue *b)
{
  if (a->rank != b->rank || a->element.quantized != b->element.quantized
      || a->element.storage.kind != b->element.storage.kind || a->element.storage.bits != b->element.storage.bits
      || strcmp (a->layout.text, b->layout.text) != 0 || a->mtype.kind != b->mtype.kind
      || a->mtype.chunk_id != b->mtype.chunk_id || a->mtype.offset != b->mtype.offset
      || a->mtype.addr != b->mtype.addr || a->element.n_scales != b->element.n_scales
      || a->element.kind != b->element.kind || a->element.n_norm_ratios != b->element.n_norm_ratios)
    return FALSE;
  if (a->element.n_norm_ratios > 0
      && memcmp (a->element.norm_ratios, b->element.norm_ratios, a->element.n_norm_ratios * sizeof (float)) != 0)
    return FALSE;
  for (guint i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i])
      return FALSE;
  return a->element.n_scales == 0
         || memcmp (a->element.scales, b->element.scales, a->element.n_scales * sizeof (float)) == 0;
}

/* ---- ops ---------------------------------------------------------------- */

static void
xir_op_free (XirOp *op)
{
  if (op == NULL)
    return;
  g_free (op->type_key);
  g_free (op->name);
  g_free (op->hard_class);
  g_free (op->target.text);
  g_clear_pointer (&op->inputs, g_ptr_array_unref);
  g_clear_pointer (&op->outputs, g_ptr_array_unref);
  g_clear_pointer (&op->params, g_ptr_array_unref);
  g_clear_pointer (&op->instr, g_ptr_array_unref);
  g_clear_pointer (&op->origin_ops_id, g_array_unref);
  cJSON_Delete (op->attrs);
  cJSON_Delete (op->tags);
  g_free (op);
}

enum {
  OP_TYPE_KEY, OP_COMPILE_TARGET, OP_INPUTS, OP_OUTPUTS, OP_NAME, OP_ID, OP_TAGS, OP_INSTR, OP_PARAMS,
  OP_ORIGIN_OPS_ID, OP_LAYER_COUNT, N_OP_KEYS
};
static const char *const structural_keys[N_OP_KEYS] = {
  "_type_key", "compile_target", "inputs", "outputs", "name", "op_id", "tags",
  "instr", "params", "origin_ops_id", "layer_count",
};

static gboolean
is_structural_key (const char *key)
{
  for (guint k = 0; k < N_OP_KEYS; k++)
    if (key[0] == structural_keys[k][0] && strcmp (key, structural_keys[k]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
parse_target (const Ctx *ctx, const char *text, XirCompileTarget *t, GError **error)
{
  t->text = g_strdup (text);
  t->version = 0;
  if (strcmp (text, "@hostt") == 0)
    t->kind = XIR_TARGET_HOST;
  else if (strcmp (text, "@fpgat") == 0)
    t->kind = XIR_TARGET_FPGA;
  else if (strcmp (text, "@buyit") == 0)
    t->kind = XIR_TARGET_BUYI;
  else if (g_str_has_prefix (text, "@zhuget"))
    {
      gsize len = 0;
      const char *inner = wrapper_inner (text, "@zhuget(", &len);
      guint64 ver = 0;

      if (strcmp (text, "@zhuget") != 0 && (inner == NULL || !parse_uint_span (inner, len, 10, 100000, &ver)))
        goto bad;
      t->kind = XIR_TARGET_ZHUGE;
      t->version = (gint) ver;
    }
  else if (text[0] == '@' && text[1] != '\0')
    t->kind = XIR_TARGET_OTHER;
  else
    goto bad;
  return TRUE;
bad:
  xir_set_error (error, XIR_ERROR_VALUE, ctx->origin,
                 "%s: compile_target \"%s\" is not a target (expected @hostt, @zhuget(330), @fpgat, @buyit …)",
                 ctx_where (ctx), text);
  return FALSE;
}

const cJSON *
xir_op_get_attr (const XirOp *op, const char *key)
{
  g_return_val_if_fail (op != NULL && key != NULL, NULL);
  return cJSON_GetObjectItemCaseSensitive (op->attrs, key);
}

gboolean
xir_op_get_attr_int (const XirOp *op, const char *key, gint64 *out, GError **error)
{
  const cJSON *a = xir_op_get_attr (op, key);

  if (zw_json_int64 (a, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, out) != ZW_NUM_OK)
    {
      g_set_error (error, XIR_ERROR, a ? XIR_ERROR_FIELD : XIR_ERROR_FIELD,
                   "op %" G_GINT64_FORMAT ": attribute \"%s\" %s", op->op_id, key,
                   a ? "is not an integer below 2^53 in magnitude" : "is missing");
      return FALSE;
    }
  return TRUE;
}

gboolean
xir_op_get_attr_double (const XirOp *op, const char *key, double *out, GError **error)
{
  const cJSON *a = xir_op_get_attr (op, key);

  if (zw_json_double (a, -G_MAXDOUBLE, G_MAXDOUBLE, out) != ZW_NUM_OK)
    {
      g_set_error (error, XIR_ERROR, XIR_ERROR_FIELD, "op %" G_GINT64_FORMAT ": attribute \"%s\" %s",
                   op->op_id, key, a ? "is not a finite number" : "is missing");
      return FALSE;
    }
  return TRUE;
}

char *
xir_op_describe (const XirOp *op)
{
  switch (op->kind)
    {
    case XIR_OP_HARDOP:
      return g_strdup_printf ("HardOp %s", op->hard_class ? op->hard_class : "?");
    case XIR_OP_INPUT:
    case XIR_OP_OUTPUT:
      return g_strdup (xir_op_kind_to_string (op->kind));
    default:
      return g_strdup (op->type_key);
    }
}

/* ---- network building ----------------------------------------------------- */

static void
network_free (XirNetwork *net)
{
  g_free (net->path);
  g_free (net->name);
  g_free (net->ai_target);
  g_free (net->framework_kind);
  g_free (net->framework_version);
  g_free (net->icraft_version);
  g_free (net->icraft_xir_version);
  g_free (net->params_md5);
  g_free (net->params_path);
  cJSON_Delete (net->tags);
  g_clear_pointer (&net->op_by_id, g_hash_table_unref);
  g_clear_pointer (&net->value_by_id, g_hash_table_unref);
  g_clear_pointer (&net->chunk_by_id, g_hash_table_unref);
  g_clear_pointer (&net->ops, g_ptr_array_unref);
  g_clear_pointer (&net->values, g_ptr_array_unref);
  g_clear_pointer (&net->params, g_ptr_array_unref);
  g_clear_pointer (&net->inputs, g_ptr_array_unref);
  g_clear_pointer (&net->outputs, g_ptr_array_unref);
  g_clear_pointer (&net->chunks, g_ptr_array_unref);
  g_clear_pointer (&net->no_consumers, g_array_unref);
  g_clear_pointer (&net->params_blob, g_bytes_unref);
  g_free (net->param_offsets);
  g_free (net);
}

XirNetwork *
xir_network_ref (XirNetwork *net)
{
  g_return_val_if_fail (net != NULL, NULL);
  g_atomic_int_inc (&net->ref_count);
  return net;
}

void
xir_network_unref (XirNetwork *net)
{
  if (net != NULL && g_atomic_int_dec_and_test (&net->ref_count))
    network_free (net);
}

static XirNetwork *
network_alloc (const char *origin)
{
  XirNetwork *net = g_new0 (XirNetwork, 1);

  net->ref_count = 1;
  net->path = g_strdup (origin);
  net->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_op_free);
  net->op_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->values = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_value_free);
  net->params = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_value_free);
  net->value_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->inputs = g_ptr_array_new ();
  net->outputs = g_ptr_array_new ();
  net->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_chunk_free);
  net->chunk_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->no_consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  net->max_op_id = G_MININT64;
  return net;
}

/* @op reads @v: consumers, lifetime, network outputs. */
static void
note_use (XirNetwork *net, XirValue *v, const XirOp *op)
{
  guint index = op->index;

  if (v->consumers->len == 0 || g_array_index (v->consumers, guint, v->consumers->len - 1) != index)
    g_array_append_val (v->consumers, index);
  v->last_use = (gint) index;
  if (op->kind == XIR_OP_OUTPUT && !v->is_network_output)
    {
      v->is_network_output = TRUE;
      g_ptr_array_add (net->outputs, v);
    }
}

/* TRUE if @a and @b are written alike: the same keys in the same order, the same strings and
 * numbers (exactly), the same nesting. Then parsing either gives the same value (the parse
 * is a function of the text), so a value read again where it was written can skip
 * cJSON_Compare's scan per key (quadratic in an object's keys); FALSE means only "ask
 * cJSON_Compare". */
static gboolean
json_written_alike (const cJSON *a, const cJSON *b)
{
  if ((a->type & 0xFF) != (b->type & 0xFF))
    return FALSE;
  switch (a->type & 0xFF)
    {
    case cJSON_False:
    case cJSON_True:
    case cJSON_NULL:
      return TRUE;
    case cJSON_Number:
      return a->valuedouble == b->valuedouble && a->valueint == b->valueint;
    case cJSON_String:
      return a->valuestring != NULL && b->valuestring != NULL && strcmp (a->valuestring, b->valuestring) == 0;
    case cJSON_Array:
    case cJSON_Object:
      {
        const cJSON *x = a->child, *y = b->child;

        for (; x != NULL && y != NULL; x = x->next, y = y->next)
          if ((a->type & 0xFF) == cJSON_Object
              && (x->string == NULL || y->string == NULL || strcmp (x->string, y->string) != 0))
            return FALSE;
          else if (!json_written_alike (x, y))
            return FALSE;
        return x == NULL && y == NULL;
      }
    default:
      return FALSE;
    }
}

/* A streamed load keeps no JSON tree: a value's first appearance is kept as its text, and
 * the text of the current op's inputs and outputs is known item by item. */
typedef struct {
  const char *text;
  gsize len;
} TextSpan;

typedef struct XirLoadText XirLoadText;
struct XirLoadText {
  GHashTable *first;     /* v_id -> 1 + index in spans */
  GArray *spans;         /* TextSpan: first appearances */
  GArray *inputs;        /* TextSpan: the current op's "inputs" items */
  GArray *outputs;       /* TextSpan: the current op's "outputs" items */
};

/* Is @item (whose text is @text) the same value as the first appearance @first_text, whose
 * parse was accepted? The same bytes parse to the same tree; else their trees are compared as
 * the whole-tree load compares them. */
static gboolean
same_as_first (const TextSpan *first_text, const TextSpan *text, const cJSON *item)
{
  cJSON *first;
  gboolean same;

  if (first_text->len == text->len && memcmp (first_text->text, text->text, text->len) == 0)
    return TRUE;
  first = cJSON_ParseWithLength (first_text->text, first_text->len);
  same = first != NULL && (json_written_alike (first, item) || cJSON_Compare (first, item, TRUE));
  cJSON_Delete (first);
  return same;
}

/* Registers a value list of an op (inputs, outputs, params or instr). */
static gboolean
parse_value_list (XirNetwork *net, const Ctx *ctx, XirOp *op, const cJSON *field_item, const char *field,
                  gboolean required, GPtrArray *dest, GError **error)
{
  const cJSON *arr = item_typed (ctx, field_item, field, required, cJSON_IsArray, "an array", error);
  const cJSON *item;
  guint idx = 0;
  gboolean is_params = dest == op->params || dest == op->instr;

  if (arr == NULL)
    return !required && field_item == NULL;
  cJSON_ArrayForEach (item, arr)
    {
      XirValue *v, *known;

      /* A value used again: compare its JSON with the first appearance (no allocation),
       * and parse it in full only to explain a difference. */
      if (dest == op->inputs && net->json_of != NULL && cJSON_IsObject (item))
        {
          const cJSON *vid = cJSON_GetObjectItemCaseSensitive (item, "v_id");
          gint64 id;
          if (zw_json_int64 (vid, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) == ZW_NUM_OK)
            {
              const cJSON *first = g_hash_table_lookup (net->json_of, &id);
              known = first ? g_hash_table_lookup (net->value_by_id, &id) : NULL;
              if (known != NULL && !known->is_params
                  && (json_written_alike (first, item) || cJSON_Compare (first, item, TRUE)))
                {
                  note_use (net, known, op);
                  g_ptr_array_add (dest, known);
                  idx++;
                  continue;
                }
            }
        }
      else if (dest == op->inputs && net->load_text != NULL && cJSON_IsObject (item)
               && idx < net->load_text->inputs->len)
        {
          const cJSON *vid = cJSON_GetObjectItemCaseSensitive (item, "v_id");
          gint64 id;
          if (zw_json_int64 (vid, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) == ZW_NUM_OK)
            {
              guint first = GPOINTER_TO_UINT (g_hash_table_lookup (net->load_text->first, &id));
              known = first ? g_hash_table_lookup (net->value_by_id, &id) : NULL;
              if (known != NULL && !known->is_params
                  && same_as_first (&g_array_index (net->load_text->spans, TextSpan, first - 1),
                                    &g_array_index (net->load_text->inputs, TextSpan, idx), item))
                {
                  note_use (net, known, op);
                  g_ptr_array_add (dest, known);
                  idx++;
                  continue;
                }
            }
        }
      /* the tree of a streamed op is freed after it is read; a whole tree's feature values
       * stay for the comparisons (json_of) */
      v = parse_value (ctx, field, idx, item, is_params, dest != op->outputs || net->load_text != NULL,
                       net->no_consumers, error);

      if (v == NULL)
        return FALSE;
      known = g_hash_table_lookup (net->value_by_id, &v->v_id);
      if (is_params)
        {
          if (known != NULL)
            {
              xir_set_error (error, XIR_ERROR_REFERENCE, ctx->origin,
                             "%s: %s[%u]: v_id %" G_GINT64_FORMAT " is used twice (params v_ids must be unique)",
                             ctx_where (ctx), field, idx, v->v_id);
              xir_value_free (v);
              return FALSE;
            }
          v->param_index = (gint) net->params->len;
          v->producer = (gint) op->index;
          v->first_use = v->last_use = (gint) op->index;
          g_ptr_array_add (net->params, v);
          g_hash_table_insert (net->value_by_id, &v->v_id, v);
          if (dest == op->instr)
            op->instr_words += v->n_elements;
          g_ptr_array_add (dest, v);
        }
      else if (dest == op->outputs)
        {
          if (known != NULL)
            {
              xir_set_error (error, XIR_ERROR_REFERENCE, ctx->origin,
                             "%s: outputs[%u]: v_id %" G_GINT64_FORMAT " is already %s",
                             ctx_where (ctx), idx, v->v_id,
                             known->is_params ? "a params v_id" : "produced by an earlier op");
              xir_value_free (v);
              return FALSE;
            }
          v->producer = (gint) op->index;
          v->first_use = v->last_use = (gint) op->index;
          v->is_network_input = op->kind == XIR_OP_INPUT;
          g_ptr_array_add (net->values, v);
          g_hash_table_insert (net->value_by_id, &v->v_id, v);
          if (net->json_of != NULL)
            g_hash_table_insert (net->json_of, &v->v_id, (gpointer) item);
          else if (net->load_text != NULL && idx < net->load_text->outputs->len)
            {
              g_array_append_val (net->load_text->spans, g_array_index (net->load_text->outputs, TextSpan, idx));
              g_hash_table_insert (net->load_text->first, &v->v_id, GUINT_TO_POINTER (net->load_text->spans->len));
            }
          g_ptr_array_add (dest, v);
        }
      else /* inputs */
        {
          if (known == NULL || known->is_params)
            {
              xir_set_error (error, XIR_ERROR_REFERENCE, ctx->origin,
                             "%s: inputs[%u]: v_id %" G_GINT64_FORMAT " is %s", ctx_where (ctx), idx, v->v_id,
                             known ? "a params v_id, not a feature value" : "not produced by any earlier op");
              xir_value_free (v);
              return FALSE;
            }
          if (!same_value (known, v))
            {
              xir_set_error (error, XIR_ERROR_REFERENCE, ctx->origin,
                             "%s: inputs[%u]: v_id %" G_GINT64_FORMAT
                             ": dtype or mtype differs from where op index %d produced it",
                             ctx_where (ctx), idx, v->v_id, known->producer);
              xir_value_free (v);
              return FALSE;
            }
          xir_value_free (v);
          note_use (net, known, op);
          g_ptr_array_add (dest, known);
        }
      idx++;
    }
  return TRUE;
}

static XirOp *
parse_op (XirNetwork *net, const char *origin, guint index, cJSON *obj, GError **error)
{
  XirOp *op = g_new0 (XirOp, 1);
  Ctx ctx;
  const char *type_key, *name, *target;
  const cJSON *tags, *origin_ids, *item, *f[N_OP_KEYS];
  cJSON *child;

  op->network = net;
  op->index = index;
  op->inputs = g_ptr_array_new ();
  op->outputs = g_ptr_array_new ();
  op->params = g_ptr_array_new ();
  op->instr = g_ptr_array_new ();
  op->origin_ops_id = g_array_new (FALSE, FALSE, sizeof (gint64));
  op->attrs = cJSON_CreateObject ();
  ctx_init (&ctx, origin, NULL, CTX_OP_INDEX, NULL, index, 0);
  if (!cJSON_IsObject (obj))
    {
      xir_set_error (error, XIR_ERROR_FIELD, origin, "%s: must be an object", ctx_where (&ctx));
      goto fail;
    }
  json_fields (obj, structural_keys, N_OP_KEYS, f);
  if (!item_int64 (&ctx, f[OP_ID], "op_id", TRUE, &op->op_id, error))
    goto fail;
  ctx_init (&ctx, origin, NULL, CTX_OP, NULL, index, op->op_id);
  if (g_hash_table_contains (net->op_by_id, &op->op_id))
    {
      xir_set_error (error, XIR_ERROR_REFERENCE, origin, "%s: op_id %" G_GINT64_FORMAT " is used twice",
                     ctx_where (&ctx), op->op_id);
      goto fail;
    }
  type_key = item_string (&ctx, f[OP_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    goto fail;
  if (*type_key == '\0')
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "%s: _type_key is empty", ctx_where (&ctx));
      goto fail;
    }
  op->type_key = string_keep (f[OP_TYPE_KEY], type_key, TRUE);  /* ops are not compared */
  if (strcmp (type_key, "icraft::xir::Input") == 0)
    op->kind = XIR_OP_INPUT;
  else if (strcmp (type_key, "icraft::xir::Output") == 0)
    op->kind = XIR_OP_OUTPUT;
  else if (strcmp (type_key, "icraft::xir::HardOp") == 0)
    op->kind = XIR_OP_HARDOP;
  else if (g_str_has_prefix (type_key, "icraft::xir::"))
    op->kind = XIR_OP_HOST;
  else
    op->kind = XIR_OP_CUSTOM;

  name = item_string (&ctx, f[OP_NAME], "name", FALSE, error);
  if (name == NULL)
    goto fail;
  op->name = string_keep (f[OP_NAME], name, TRUE);
  target = item_string (&ctx, f[OP_COMPILE_TARGET], "compile_target", TRUE, error);
  if (target == NULL || !parse_target (&ctx, target, &op->target, error))
    goto fail;

  if (op->kind == XIR_OP_HARDOP)
    {
      gint64 lc;

      if (!g_str_has_prefix (op->name, "icraft::xir::") || !g_str_has_suffix (op->name, "Node")
          || strlen (op->name) <= strlen ("icraft::xir::Node"))
        {
          xir_set_error (error, XIR_ERROR_VALUE, origin,
                         "%s: HardOp name \"%s\" is not a fused op class (icraft::xir::…Node)", ctx_where (&ctx), op->name);
          goto fail;
        }
      /* "icraft::xir::Conv2dNode" -> "Conv2d" */
      op->hard_class = g_strndup (op->name + strlen ("icraft::xir::"),
                                  strlen (op->name) - strlen ("icraft::xir::") - strlen ("Node"));
      if (!item_int64 (&ctx, f[OP_LAYER_COUNT], "layer_count", TRUE, &lc, error))
        goto fail;
      if (lc < 0 || lc > G_MAXINT)
        {
          xir_set_error (error, XIR_ERROR_RANGE, origin, "%s: layer_count %" G_GINT64_FORMAT " is out of range",
                         ctx_where (&ctx), lc);
          goto fail;
        }
      op->layer_count = (gint) lc;
      origin_ids = item_typed (&ctx, f[OP_ORIGIN_OPS_ID], "origin_ops_id", FALSE, cJSON_IsArray, "an array", error);
      if (origin_ids == NULL && f[OP_ORIGIN_OPS_ID] != NULL)
        goto fail;
      if (origin_ids != NULL)
        cJSON_ArrayForEach (item, origin_ids)
          {
            gint64 id;
            if (zw_json_int64 (item, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) != ZW_NUM_OK)
              {
                xir_set_error (error, XIR_ERROR_FIELD, origin,
                               "%s: origin_ops_id must hold integers below 2^53 in magnitude", ctx_where (&ctx));
                goto fail;
              }
            g_array_append_val (op->origin_ops_id, id);
          }
    }

  if (!parse_value_list (net, &ctx, op, f[OP_INPUTS], "inputs", TRUE, op->inputs, error)
      || !parse_value_list (net, &ctx, op, f[OP_OUTPUTS], "outputs", TRUE, op->outputs, error)
      || !parse_value_list (net, &ctx, op, f[OP_PARAMS], "params", op->kind == XIR_OP_HARDOP, op->params, error)
      || !parse_value_list (net, &ctx, op, f[OP_INSTR], "instr", op->kind == XIR_OP_HARDOP, op->instr, error))
    goto fail;
  if (op->kind == XIR_OP_INPUT && op->inputs->len != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "%s: an Input op must have no inputs", ctx_where (&ctx));
      goto fail;
    }

  tags = f[OP_TAGS];
  if (tags != NULL && !cJSON_IsObject (tags))
    {
      xir_set_error (error, XIR_ERROR_FIELD, origin, "%s: field \"tags\" must be an object", ctx_where (&ctx));
      goto fail;
    }
  op->tags = tags ? cJSON_DetachItemViaPointer (obj, (cJSON *) tags) : cJSON_CreateObject ();

  /* Everything that is not structure is an attribute, kept as written. */
  child = obj->child;
  while (child != NULL)
    {
      cJSON *next = child->next;

      if (!is_structural_key (child->string))
        cJSON_AddItemToArray (op->attrs, cJSON_DetachItemViaPointer (obj, child));  /* with its key */
      child = next;
    }
  return op;

fail:
  xir_op_free (op);
  return NULL;
}

static gint
compare_chunks (gconstpointer a, gconstpointer b)
{
  const XirChunk *ca = *(XirChunk *const *) a, *cb = *(XirChunk *const *) b;
  return (ca->id > cb->id) - (ca->id < cb->id);
}

static gboolean
add_to_chunk (XirNetwork *net, XirValue *v, GError **error)
{
  XirChunk *c;

  if (v->mtype.kind != XIR_MEM_CHUNK)
    return TRUE;
  c = g_hash_table_lookup (net->chunk_by_id, &v->mtype.chunk_id);
  if (c == NULL)
    {
      c = g_new0 (XirChunk, 1);
      c->id = v->mtype.chunk_id;
      c->is_params = v->is_params;
      c->values = g_ptr_array_new ();
      g_ptr_array_add (net->chunks, c);
      g_hash_table_insert (net->chunk_by_id, &c->id, c);
    }
  else if (c->is_params != v->is_params)
    {
      xir_set_error (error, XIR_ERROR_VALUE, net->path,
                     "v_id %" G_GINT64_FORMAT ": mtype: chunk %" G_GINT64_FORMAT
                     " holds both params and feature values", v->v_id, c->id);
      return FALSE;
    }
  g_ptr_array_add (c->values, v);
  c->size = MAX (c->size, v->mtype.offset + v->storage_bytes);
  return TRUE;
}

/* The network's own fields (everything at the top level but "ops"). */
static gboolean
build_head (XirNetwork *net, const cJSON *root, GError **error)
{
  const char *origin = net->path;
  Ctx ctx;
  const cJSON *tags;
  const char *s;
  gint64 pb = 0;
  static const char *const strings[] = {
    "name", "ai_target", "framework_kind", "framework_version", "icraft_version", "icraft_xir_version",
  };
  char **string_fields[] = {
    &net->name, &net->ai_target, &net->framework_kind, &net->framework_version,
    &net->icraft_version, &net->icraft_xir_version,
  };

  ctx_init (&ctx, origin, NULL, CTX_FIXED, "network", 0, 0);
  if (!cJSON_IsObject (root))
    {
      xir_set_error (error, XIR_ERROR_FIELD, origin, "network: the top level must be an object");
      return FALSE;
    }
  s = json_get_string (&ctx, root, "_type_key", TRUE, error);
  if (s == NULL)
    return FALSE;
  if (strcmp (s, "icraft::xir::Network") != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "network: _type_key is \"%s\", expected \"icraft::xir::Network\"", s);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      s = json_get_string (&ctx, root, strings[i], i == 0, error);
      if (s == NULL)
        return FALSE;
      *string_fields[i] = g_strdup (s);
    }
  s = json_get_string (&ctx, root, "params_md5", FALSE, error);
  if (s == NULL)
    return FALSE;
  if (*s != '\0')
    {
      gboolean ok = strlen (s) == 32;
      for (const char *p = s; ok && *p; p++)
        ok = g_ascii_isxdigit (*p);
      if (!ok)
        {
          xir_set_error (error, XIR_ERROR_VALUE, origin, "network: params_md5 \"%s\" is not 32 hex digits", s);
          return FALSE;
        }
      net->params_md5 = g_ascii_strdown (s, -1);
    }
  if (!json_get_int64 (&ctx, root, "params_bytes", FALSE, &pb, error))
    return FALSE;
  if (pb < 0)
    {
      xir_set_error (error, XIR_ERROR_RANGE, origin, "network: params_bytes is negative");
      return FALSE;
    }
  net->params_bytes = (guint64) pb;
  net->has_params_bytes = cJSON_GetObjectItemCaseSensitive (root, "params_bytes") != NULL;
  tags = cJSON_GetObjectItemCaseSensitive (root, "tags");
  if (tags != NULL && !cJSON_IsObject (tags))
    {
      xir_set_error (error, XIR_ERROR_FIELD, origin, "network: field \"tags\" must be an object");
      return FALSE;
    }
  net->tags = tags ? cJSON_Duplicate (tags, TRUE) : cJSON_CreateObject ();
  return TRUE;
}

/* Parses and registers the op at @index. */
static gboolean
build_op (XirNetwork *net, guint index, cJSON *item, GError **error)
{
  XirOp *op = parse_op (net, net->path, index, item, error);

  if (op == NULL)
    return FALSE;
  g_ptr_array_add (net->ops, op);
  g_hash_table_insert (net->op_by_id, &op->op_id, op);
  net->max_op_id = MAX (net->max_op_id, op->op_id);
  net->total_instr_words += op->instr_words;
  if (op->kind == XIR_OP_INPUT)
    for (guint i = 0; i < op->outputs->len; i++)
      g_ptr_array_add (net->inputs, g_ptr_array_index (op->outputs, i));
  return TRUE;
}

/* What follows the ops: chunks, the params' total. */
static gboolean
build_tail (XirNetwork *net, GError **error)
{
  for (guint i = 0; i < net->values->len; i++)
    if (!add_to_chunk (net, g_ptr_array_index (net->values, i), error))
      return FALSE;
  guint64 params_total = 0;
  for (guint i = 0; i < net->params->len; i++)
    {
      XirValue *p = g_ptr_array_index (net->params, i);
      /* what fake-params and a forward allocate: bounded by what the board can hold */
      if (!zw_u64_add (params_total, p->storage_bytes, &params_total) || params_total > XIR_MAX_VALUE_BYTES)
        {
          xir_set_error (error, XIR_ERROR_RANGE, net->path,
                         "params: v_id %" G_GINT64_FORMAT " brings the params past the 4 GiB a ZG330 can address",
                         p->v_id);
          return FALSE;
        }
      if (!add_to_chunk (net, p, error))
        return FALSE;
    }
  g_ptr_array_sort (net->chunks, compare_chunks);
  return TRUE;
}

static gboolean
build_network (XirNetwork *net, cJSON *root, GError **error)
{
  const char *origin = net->path;
  Ctx ctx;
  const cJSON *ops;
  cJSON *item;
  guint index = 0;

  if (!build_head (net, root, error))
    return FALSE;
  ctx_init (&ctx, origin, NULL, CTX_FIXED, "network", 0, 0);
  ops = json_get_typed (&ctx, root, "ops", TRUE, cJSON_IsArray, "an array", error);
  if (ops == NULL)
    return FALSE;
  if (cJSON_GetArraySize (ops) == 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "network: \"ops\" is empty");
      return FALSE;
    }
  cJSON_ArrayForEach (item, ops)
    if (!build_op (net, index++, item, error))
      return FALSE;
  return build_tail (net, error);
}

/* ---- the streamed load ----------------------------------------------------------
 *
 * A large network's tree does not fit in any cache: walking it after the parse and freeing
 * it cost more than the parse. So the usual file is read op by op: the top-level object and
 * the "ops" array are framed here with cJSON's own rules (whitespace is any byte <= 32,
 * cJSON_ParseWithLengthOpts() with the rest of the buffer parses each key and value, so every
 * byte is judged by cJSON as in one parse), each op's tree is parsed, turned into an XirOp
 * and freed while it is hot. Anything unusual (a syntax error, a BOM, a duplicate "ops",
 * deep nesting, a field at fault) gives up and the whole-tree load runs instead: every error
 * comes from one code path, with its exact message. The JSON of a value's first appearance
 * is kept until the end, where later appearances are compared with it. */

#define JSON_SKIP_WS(p, end) while ((p) < (end) && (unsigned char) *(p) <= 32) (p)++

/* The number of '[' and '{' bytes in @n bytes at @s, eight at a time ('[' | 0x20 == '{'). */
static gsize
count_brackets (const char *s, gsize n)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), low7 = ones * 0x7F;
  gsize count = 0, i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 x;

      memcpy (&x, s + i, 8);
      x = (x | ones * 0x20) ^ (ones * '{');                /* a zero byte where a bracket was */
      x = ~(((x & low7) + low7) | x | low7) >> 7;           /* 1 in each such byte, else 0 */
      count += (gsize) ((x * ones) >> 56);                  /* the sum of the bytes */
    }
  for (; i < n; i++)
    count += (s[i] | 0x20) == '{';
  return count;
}

/* One JSON value at @p (cJSON parses it with the rest of the buffer, as in a whole parse);
 * NULL if it does not parse, starts with something that is no value (a BOM that cJSON would
 * skip at a buffer's start), or nests more than half of cJSON's limit (counting brackets,
 * strings' included: the whole parse sees it deeper than this one). */
static cJSON *
json_piece (const char **p, const char *end)
{
  const char *start = *p, *after = NULL;
  cJSON *item;
  gsize brackets = 0;

  if (start >= end || strchr ("{[\"-0123456789tfn", *start) == NULL || *start == '\0')
    return NULL;
  item = cJSON_ParseWithLengthOpts (start, (gsize) (end - start), &after, FALSE);
  if (item == NULL)
    return NULL;
  brackets = count_brackets (start, (gsize) (after - start));
  if (brackets >= CJSON_NESTING_LIMIT / 2)
    {
      cJSON_Delete (item);
      return NULL;
    }
  *p = after;
  return item;
}

/* Frames the JSON object at *@p (at its '{') member by member: @member reads each value
 * (the key's string is handed over) and adds it to @obj. FALSE on anything unusual. */
typedef gboolean (*MemberFunc) (cJSON *obj, char *key, const char **p, const char *end, gpointer data);


/* After an item of an object or array (@close '}' or ']'): a ',' and more items, the
 * closing bracket, or anything else (not the framing this reader takes). */
typedef enum { JSON_BAD, JSON_MORE, JSON_CLOSED } JsonAfter;

static JsonAfter
json_after_item (const char **pp, const char *end, char close)
{
  const char *p = *pp;

  JSON_SKIP_WS (p, end);
  if (p < end && *p == ',')
    {
      p++;
      JSON_SKIP_WS (p, end);
      *pp = p;
      return JSON_MORE;
    }
  *pp = p;
  return p < end && *p == close ? JSON_CLOSED : JSON_BAD;
}

static gboolean
json_frame_object (cJSON *obj, const char **pp, const char *end, MemberFunc member, gpointer data)
{
  const char *p = *pp;

  if (p >= end || *p != '{')
    return FALSE;
  p++;
  JSON_SKIP_WS (p, end);
  for (;;)
    {
      cJSON *key;
      char *name;

      if (p >= end || *p != '"' || (key = json_piece (&p, end)) == NULL)
        return FALSE;
      name = key->valuestring;
      key->valuestring = NULL;
      cJSON_Delete (key);
      if (name == NULL)
        return FALSE;
      JSON_SKIP_WS (p, end);
      if (p >= end || *p != ':')
        {
          cJSON_free (name);
          return FALSE;
        }
      p++;
      JSON_SKIP_WS (p, end);
      if (!member (obj, name, &p, end, data))
        return FALSE;
      switch (json_after_item (&p, end, '}'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

/* Adds @value as @obj's member @key (taking the key string, as cJSON's parser does). */
static void
json_add_member (cJSON *obj, char *key, cJSON *value)
{
  value->string = key;
  cJSON_AddItemToArray (obj, value);  /* an object's members are its children in order */
}

/* A member read as one piece. */
static gboolean
member_piece (cJSON *obj, char *key, const char **p, const char *end, gpointer data)
{
  cJSON *value = json_piece (p, end);

  (void) data;
  if (value == NULL)
    {
      cJSON_free (key);
      return FALSE;
    }
  json_add_member (obj, key, value);
  return TRUE;
}

/* A member of an op: "inputs" and "outputs" item by item, with each item's text. */
static gboolean
member_of_op (cJSON *obj, char *key, const char **pp, const char *end, gpointer data)
{
  XirLoadText *lt = data;
  GArray *spans = strcmp (key, "inputs") == 0 ? lt->inputs : strcmp (key, "outputs") == 0 ? lt->outputs : NULL;
  const char *p = *pp;
  cJSON *arr;

  if (spans == NULL || p >= end || *p != '[')
    return member_piece (obj, key, pp, end, NULL);
  if (spans->len > 0 || cJSON_GetObjectItemCaseSensitive (obj, key) != NULL)
    {
      cJSON_free (key);  /* a second "inputs": only a whole parse says what it means */
      return FALSE;
    }
  arr = cJSON_CreateArray ();
  json_add_member (obj, key, arr);
  p++;
  JSON_SKIP_WS (p, end);
  if (p < end && *p == ']')
    {
      *pp = p + 1;
      return TRUE;
    }
  for (;;)
    {
      TextSpan span = { p, 0 };
      cJSON *item = json_piece (&p, end);

      if (item == NULL)
        return FALSE;
      span.len = (gsize) (p - span.text);
      g_array_append_val (spans, span);
      cJSON_AddItemToArray (arr, item);
      switch (json_after_item (&p, end, ']'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

typedef struct {
  XirNetwork *net;
  gboolean seen_ops;
} StreamState;

/* A member of the network: "ops" op by op, each built and freed at once. */
static gboolean
member_of_network (cJSON *obj, char *key, const char **pp, const char *end, gpointer data)
{
  StreamState *st = data;
  XirLoadText *lt = st->net->load_text;
  const char *p = *pp;

  if (strcmp (key, "ops") != 0)
    return member_piece (obj, key, pp, end, NULL);
  cJSON_free (key);
  if (st->seen_ops || p >= end || *p != '[')
    return FALSE;
  st->seen_ops = TRUE;
  p++;
  JSON_SKIP_WS (p, end);
  for (guint index = 0;; index++)
    {
      cJSON *op = cJSON_CreateObject ();
      gboolean ok;

      g_array_set_size (lt->inputs, 0);
      g_array_set_size (lt->outputs, 0);
      ok = json_frame_object (op, &p, end, member_of_op, lt) && build_op (st->net, index, op, NULL);
      cJSON_Delete (op);
      if (!ok)
        return FALSE;
      switch (json_after_item (&p, end, ']'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

/* The streamed load, or NULL: then the whole-tree load gives the answer. */
static XirNetwork *
network_new_streamed (const char *data, gsize length, const char *origin)
{
  g_autoptr (XirNetwork) net = network_alloc (origin);
  XirLoadText lt;
  StreamState st = { net, FALSE };
  cJSON *head = cJSON_CreateObject ();
  const char *p = data, *end = data + length;
  gboolean ok;

  lt.first = g_hash_table_new (g_int64_hash, g_int64_equal);
  lt.spans = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  lt.inputs = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  lt.outputs = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  net->load_text = &lt;
  JSON_SKIP_WS (p, end);
  /* what follows the top-level object is not read, as in cJSON_ParseWithLengthOpts () */
  ok = json_frame_object (head, &p, end, member_of_network, &st) && st.seen_ops
       && build_head (net, head, NULL) && build_tail (net, NULL);
  net->load_text = NULL;
  g_hash_table_unref (lt.first);
  g_array_unref (lt.spans);
  g_array_unref (lt.inputs);
  g_array_unref (lt.outputs);
  cJSON_Delete (head);
  return ok ? g_steal_pointer (&net) : NULL;
}

/* Line and column of a byte offset, for JSON syntax errors. */
static void
offset_to_line_col (const char *data, gsize length, gsize offset, guint *line, guint *col)
{
  *line = 1;
  *col = 1;
  for (gsize i = 0; i < offset && i < length; i++)
    {
      if (data[i] == '\n')
        {
          (*line)++;
          *col = 1;
        }
      else
        (*col)++;
    }
}

XirNetwork *
xir_network_new_from_json_data (const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr (XirNetwork) net = NULL;
  const char *end = NULL;
  cJSON *root;
  gboolean ok;

  ZW_RETURN_VAL_IF_BAD_ARG (data != NULL || length == 0, "data", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  if (origin == NULL)
    origin = "<memory>";
  if (length == 0)
    {
      xir_set_error (error, XIR_ERROR_PARSE, origin, "the file is empty");
      return NULL;
    }
  net = network_new_streamed (data, length, origin);
  if (net != NULL)
    return g_steal_pointer (&net);
  root = cJSON_ParseWithLengthOpts (data, length, &end, FALSE);
  if (root == NULL)
    {
      gsize off = end ? (gsize) (end - data) : 0;
      guint line, col;

      offset_to_line_col (data, length, off, &line, &col);
      xir_set_error (error, XIR_ERROR_PARSE, origin, "invalid JSON at line %u, column %u (byte %" G_GSIZE_FORMAT ")%s",
                     line, col, off, off >= length ? ": the file ends too early (truncated?)" : "");
      return NULL;
    }
  net = network_alloc (origin);
  net->json_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  ok = build_network (net, root, error);
  g_clear_pointer (&net->json_of, g_hash_table_unref);
  cJSON_Delete (root);
  if (!ok)
    return NULL;
  return g_steal_pointer (&net);
}

XirNetwork *
xir_network_new_from_json_file (const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = NULL;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  file = zw_file_map_regular (path, ZW_INPUT_NETWORK, 0, &local);
  if (file == NULL)
    {
      g_set_error_literal (error, XIR_ERROR, XIR_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  return xir_network_new_from_json_data (g_mapped_file_get_contents (file), g_mapped_file_get_length (file),
                                         path, error);
}

/* ---- accessors -------------------------------------------------------------- */

const char *xir_network_get_path (const XirNetwork *net) { return net->path; }
const char *xir_network_get_name (const XirNetwork *net) { return net->name; }
const char *xir_network_get_ai_target (const XirNetwork *net) { return net->ai_target; }
const char *xir_network_get_framework_kind (const XirNetwork *net) { return net->framework_kind; }
const char *xir_network_get_framework_version (const XirNetwork *net) { return net->framework_version; }
const char *xir_network_get_icraft_version (const XirNetwork *net) { return net->icraft_version; }
const char *xir_network_get_icraft_xir_version (const XirNetwork *net) { return net->icraft_xir_version; }
guint64 xir_network_get_params_bytes (const XirNetwork *net) { return net->params_bytes; }
const char *xir_network_get_params_md5 (const XirNetwork *net) { return net->params_md5; }
const cJSON *xir_network_get_tags (const XirNetwork *net) { return net->tags; }
guint xir_network_get_n_ops (const XirNetwork *net) { return net->ops->len; }
gint64 xir_network_get_max_op_id (const XirNetwork *net) { return net->max_op_id; }
GPtrArray *xir_network_get_values (const XirNetwork *net) { return net->values; }
GPtrArray *xir_network_get_params (const XirNetwork *net) { return net->params; }
GPtrArray *xir_network_get_inputs (const XirNetwork *net) { return net->inputs; }
GPtrArray *xir_network_get_outputs (const XirNetwork *net) { return net->outputs; }
GPtrArray *xir_network_get_chunks (const XirNetwork *net) { return net->chunks; }
guint64 xir_network_get_total_instr_words (const XirNetwork *net) { return net->total_instr_words; }

XirOp *
xir_network_get_op (const XirNetwork *net, guint index)
{
  g_return_val_if_fail (net != NULL, NULL);
  return index < net->ops->len ? g_ptr_array_index (net->ops, index) : NULL;
}

XirOp *
xir_network_get_op_by_id (const XirNetwork *net, gint64 op_id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->op_by_id, &op_id);
}

XirValue *
xir_network_get_value (const XirNetwork *net, gint64 v_id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->value_by_id, &v_id);
}

XirChunk *
xir_network_get_chunk (const XirNetwork *net, gint64 id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->chunk_by_id, &id);
}

/* ---- views -------------------------------------------------------------------- */

struct _XirNetworkView {
  gint ref_count;
  XirNetwork *net;
  guint start;
  guint n_ops;
  GPtrArray *inputs;
  GPtrArray *outputs;
};

XirNetworkView *
xir_network_view (XirNetwork *net, gint start, gint end, GError **error)
{
  XirNetworkView *view;
  gint n;

  ZW_RETURN_VAL_IF_BAD_ARG (net != NULL, "net", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  n = (gint) net->ops->len;
  if (end == G_MAXINT)
    end = n;
  if (start < 0)
    start += n;
  if (end < 0)
    end += n;
  if (start < 0 || end > n || start >= end)
    {
      xir_set_error (error, XIR_ERROR_RANGE, net->path,
                     "view(%d, %d): the range is empty or outside the network's %d ops", start, end, n);
      return NULL;
    }
  view = g_new0 (XirNetworkView, 1);
  view->ref_count = 1;
  view->net = xir_network_ref (net);
  view->start = (guint) start;
  view->n_ops = (guint) (end - start);
  view->inputs = g_ptr_array_new ();
  view->outputs = g_ptr_array_new ();
  for (gint i = start; i < end; i++)
    {
      XirOp *op = g_ptr_array_index (net->ops, i);

      for (guint k = 0; k < op->inputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->inputs, k);
          if (v->producer < start && !g_ptr_array_find (view->inputs, v, NULL))
            g_ptr_array_add (view->inputs, v);
        }
      if (op->kind == XIR_OP_INPUT)
        for (guint k = 0; k < op->outputs->len; k++)
          g_ptr_array_add (view->inputs, g_ptr_array_index (op->outputs, k));
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          if (v->last_use >= end || v->is_network_output)
            g_ptr_array_add (view->outputs, v);
        }
    }
  return view;
}

XirNetworkView *
xir_network_view_ref (XirNetworkView *view)
{
  g_atomic_int_inc (&view->ref_count);
  return view;
}

void
xir_network_view_unref (XirNetworkView *view)
{
  if (view == NULL || !g_atomic_int_dec_and_test (&view->ref_count))
    return;
  g_ptr_array_unref (view->inputs);
  g_ptr_array_unref (view->outputs);
  xir_network_unref (view->net);
  g_free (view);
}

XirNetwork *xir_network_view_get_network (const XirNetworkView *view) { return view->net; }
guint xir_network_view_get_start (const XirNetworkView *view) { return view->start; }
guint xir_network_view_get_n_ops (const XirNetworkView *view) { return view->n_ops; }
GPtrArray *xir_network_view_get_inputs (const XirNetworkView *view) { return view->inputs; }
GPtrArray *xir_network_view_get_outputs (const XirNetworkView *view) { return view->outputs; }

XirOp *
xir_network_view_get_op (const XirNetworkView *view, guint i)
{
  return i < view->n_ops ? g_ptr_array_index (view->net->ops, view->start + i) : NULL;
}

G_DEFINE_BOXED_TYPE (XirNetwork, xir_network, (GBoxedCopyFunc) xir_network_ref, (GBoxedFreeFunc) xir_network_unref)

G_DEFINE_BOXED_TYPE (XirNetworkView, xir_network_view, (GBoxedCopyFunc) xir_network_view_ref, (GBoxedFreeFunc) xir_network_view_unref)

/* An op lives as long as its network: a binding's reference to an op holds the network. */
static XirOp *
xir_op_boxed_ref (XirOp *op)
{
  xir_network_ref (op->network);
  return op;
}

static void
xir_op_boxed_unref (XirOp *op)
{
  xir_network_unref (op->network);
}

G_DEFINE_BOXED_TYPE (XirOp, xir_op, xir_op_boxed_ref, xir_op_boxed_unref)

const gint64 *
xir_value_get_shape (const XirValue *value, guint *rank)
{
  g_return_val_if_fail (value != NULL && rank != NULL, NULL);
  *rank = value->rank;
  return value->shape;
}

char *
xir_value_get_storage_text (const XirValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);
  return xir_scalar_type_to_string (&value->element.storage);
}

const char *
xir_value_get_layout_text (const XirValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);
  return value->layout.text[0] != '\0' ? value->layout.text : "*";
}

GPtrArray *
xir_op_get_inputs (const XirOp *op)
{
  g_return_val_if_fail (op != NULL, NULL);
  return op->inputs;
}

GPtrArray *
xir_op_get_outputs (const XirOp *op)
{
  g_return_val_if_fail (op != NULL, NULL);
  return op->outputs;
}
