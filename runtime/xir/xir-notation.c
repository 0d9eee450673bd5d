/* xir-notation.c — parsers of the vendor's "@…" notation: scalar types ("@fp(32)",
 * "@sint(8)"…), layouts ("@layout(NHWC)"), memory types ("@etm(…)", "@chunk(…)"…), and the
 * run-length lists of "@scales", "@exp_scales" and "@norm_ratios"; and the names of the
 * enums as the vendor writes them.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* ---- vendor string parsers ---------------------------------------------- */

/* Matches "@prefix(" … ")" and returns where the inside starts (not a copy) and its length, or
 * NULL. Most strings of a network are parsed through this: no allocation per string. */
const char *
xir_notation_inner (const char *text, const char *prefix, gsize *inner_len)
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
gboolean
xir_parse_uint_span (const char *text, gsize len, int base, guint64 max, guint64 *out)
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
      const char *inner = xir_notation_inner (text, kinds[i].prefix, &len);
      guint64 bits;

      if (inner == NULL)
        continue;
      if (!xir_parse_uint_span (inner, len, 10, 64, &bits) || bits == 0)
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
  const char *inner = xir_notation_inner (text, "@layout(", &len);
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
    const char *inner = xir_notation_inner (text, "@chunk(", &len);
    if (inner != NULL)
      {
        const char *at = memchr (inner, '@', len);
        guint64 id, off;

        if (at == NULL)
          goto bad;
        if (!xir_parse_uint_span (inner, (gsize) (at - inner), 10, G_MAXINT64, &id)
            || !xir_parse_uint_span (at + 1, len - (gsize) (at - inner) - 1, 10, G_MAXINT64, &off))
          goto bad;
        out->kind = XIR_MEM_CHUNK;
        out->chunk_id = (gint64) id;
        out->offset = off;
        return TRUE;
      }
  }
  {
    gsize elen = 0, olen = 0;
    const char *etm = xir_notation_inner (text, "@etm(", &elen);
    const char *ocm = xir_notation_inner (text, "@ocm(", &olen);
    const char *inner = etm ? etm : ocm;
    guint64 addr;

    if (inner != NULL && xir_parse_uint_span (inner, etm ? elen : olen, 0, G_MAXINT64, &addr))
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
  const char *inner = xir_notation_inner (text, wrapper, &len), *close, *p, *stop;
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
