/* zw-profile.c — the time-profile model and its four file formats (see zw-profile.h). */
#include "report/zw-profile.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <float.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

G_DEFINE_QUARK (zw-profile-error-quark, zw_profile_error)

#define JSON_FORMAT_NAME "zhuge-time-profile"
#define JSON_VERSION 1
#define STARS_ROWS "************************************"
#define STARS_TOTALS "******************************************************"

static const char *const summary_names[ZW_PROFILE_N_SUMMARY] = { "input", "icore", "output", "cpu" };

/* The vendor's summary headers, and the English part we recognise them by. */
static const char *const summary_headers[ZW_PROFILE_N_SUMMARY] = {
  "数据传入耗时(Data input time consumption):",
  "icore[npu]耗时(Icore [npu] time-consuming):",
  "数据传出耗时(Data output time consumption):",
  "cpu算子耗时(CPU operator time consumption):",
};
static const char *const summary_keys[ZW_PROFILE_N_SUMMARY] = {
  "(Data input time consumption)", "(Icore [npu] time-consuming)", "(Data output time consumption)",
  "(CPU operator time consumption)",
};
#define SUMMARY_TITLE "统计分析结果如下(The analysis results are as follows):"

/* ---- model ------------------------------------------------------------------------ */

static void
row_free (gpointer p)
{
  ZwProfileRow *r = p;

  g_free (r->op_type);
  g_free (r->op_name);
  g_free (r->backend);
  g_array_unref (r->merge_from);
  g_free (r);
}

static void
customop_free (gpointer p)
{
  ZwProfileCustomop *c = p;

  g_free (c->name);
  g_free (c);
}

ZwProfile *
zw_profile_new (const char *network)
{
  ZwProfile *p = g_new0 (ZwProfile, 1);

  p->network = g_strdup (network);
  p->rows = g_ptr_array_new_with_free_func (row_free);
  p->customops = g_ptr_array_new_with_free_func (customop_free);
  return p;
}

static void
summary_clear (ZwProfile *p)
{
  for (guint i = 0; i < ZW_PROFILE_N_SUMMARY; i++)
    {
      g_clear_pointer (&p->summary[i].device, g_free);
      p->summary[i].time_ms = 0;
    }
}

void
zw_profile_free (ZwProfile *profile)
{
  if (!profile)
    return;
  g_free (profile->network);
  g_clear_pointer (&profile->order, g_array_unref);
  g_free (profile->flags);
  g_ptr_array_unref (profile->rows);
  g_ptr_array_unref (profile->customops);
  summary_clear (profile);
  g_free (profile);
}

ZwProfileRow *
zw_profile_add_row (ZwProfile *profile, gint64 op_id, const char *op_type, const char *op_name, double total_ms,
                    double memcpy_ms, double hard_ms, double other_ms)
{
  ZwProfileRow *r;

  g_return_val_if_fail (profile != NULL, NULL);
  r = g_new0 (ZwProfileRow, 1);
  r->op_id = op_id;
  r->op_type = g_strdup (op_type ? op_type : "");
  r->op_name = g_strdup (op_name ? op_name : "");
  r->total_ms = total_ms;
  r->memcpy_ms = memcpy_ms;
  r->hard_ms = hard_ms;
  r->other_ms = other_ms;
  r->merge_from = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->start_ms = -1;
  r->host_measured_ms = -1;
  g_ptr_array_add (profile->rows, r);
  /* a row added after ordering runs last */
  if (profile->order != NULL)
    {
      guint idx = profile->rows->len - 1;
      g_array_append_val (profile->order, idx);
    }
  if (profile->flags != NULL)
    {
      profile->flags = g_renew (guint, profile->flags, profile->rows->len);
      profile->flags[profile->rows->len - 1] = zw_profile_row_check (r);
      profile->n_flagged += (profile->flags[profile->rows->len - 1] & ZW_PROFILE_ROW_IMPOSSIBLE) != 0;
    }
  return r;
}

/* ---- row checks and execution order ------------------------------------------------ */

guint
zw_profile_row_check (const ZwProfileRow *row)
{
  guint f = 0;

  g_return_val_if_fail (row != NULL, 0);
  if (row->hard_ms > row->total_ms)
    f |= ZW_PROFILE_ROW_HARD_OVER_TOTAL;
  if (row->memcpy_ms + row->hard_ms > row->total_ms && !(f & ZW_PROFILE_ROW_HARD_OVER_TOTAL))
    f |= ZW_PROFILE_ROW_PARTS_OVER_TOTAL;
  if (row->other_ms < 0)
    f |= ZW_PROFILE_ROW_NEGATIVE_OTHER;
  if (row->total_ms < 0 || row->memcpy_ms < 0 || row->hard_ms < 0)
    f |= ZW_PROFILE_ROW_NEGATIVE_TIME;
  return f;
}

void
zw_profile_check_rows (ZwProfile *profile)
{
  guint *old;

  g_return_if_fail (profile != NULL);
  old = profile->flags;
  profile->flags = g_new0 (guint, MAX (profile->rows->len, 1u));
  profile->n_flagged = 0;
  for (guint i = 0; i < profile->rows->len; i++)
    {
      profile->flags[i] = zw_profile_row_check (g_ptr_array_index (profile->rows, i))
                          | (old != NULL ? old[i] & ZW_PROFILE_ROW_NOT_IN_NETWORK : 0);
      profile->n_flagged += (profile->flags[i] & ZW_PROFILE_ROW_IMPOSSIBLE) != 0;
    }
  g_free (old);
}

guint
zw_profile_get_row_flags (const ZwProfile *profile, guint index)
{
  g_return_val_if_fail (profile != NULL, 0);
  return profile->flags != NULL && index < profile->rows->len ? profile->flags[index] : 0;
}

static const char *const order_names[] = { "recorded", "network", "inferred" };

const char *
zw_profile_order_source_to_string (ZwProfileOrderSource source)
{
  g_return_val_if_fail ((guint) source < G_N_ELEMENTS (order_names), NULL);
  return order_names[source];
}

guint
zw_profile_order_get (const ZwProfile *profile, guint pos)
{
  g_return_val_if_fail (profile != NULL, pos);
  if (profile->order == NULL || pos >= profile->order->len)
    return pos;
  return g_array_index (profile->order, guint, pos);
}

typedef struct {
  guint index;     /* row index */
  double key1;     /* stage, network position or start time */
  gint64 key2;     /* op id within a stage */
} OrderKey;

static gint
order_key_cmp (gconstpointer a, gconstpointer b)
{
  const OrderKey *x = a, *y = b;

  if (x->key1 != y->key1)
    return x->key1 < y->key1 ? -1 : 1;
  if (x->key2 != y->key2)
    return x->key2 < y->key2 ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
order_set (ZwProfile *p, GArray *keys, ZwProfileOrderSource source)
{
  g_array_sort (keys, order_key_cmp);
  g_clear_pointer (&p->order, g_array_unref);
  p->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), keys->len);
  for (guint i = 0; i < keys->len; i++)
    g_array_append_val (p->order, g_array_index (keys, OrderKey, i).index);
  p->order_source = source;
}

static gboolean
type_is (const ZwProfileRow *r, const char *node)
{
  return g_str_equal (r->op_type, node) || (g_str_has_suffix (node, "Node")
                                            && strlen (r->op_type) + 4 == strlen (node)
                                            && strncmp (r->op_type, node, strlen (r->op_type)) == 0);
}

static gboolean is_hardop (const ZwProfileRow *r);

/* The inferred stage of a row (rules in the header). */
static gint
infer_stage (const ZwProfileRow *r, gint64 first_hardop)
{
  gboolean custom = g_str_has_prefix (r->op_type, "customop::");

  if (type_is (r, "icraft::xir::InputNode"))
    return 0;
  if (type_is (r, "icraft::xir::OutputNode"))
    return 5;
  if (is_hardop (r))
    return r->has_io_process && r->is_io_process ? 2 : 3;
  if (custom)
    return g_str_has_prefix (r->op_type, "customop::ImageMake") || (r->has_io_process && r->is_io_process) ? 2 : 4;
  if (r->has_io_process && r->is_io_process)
    return 2;
  return r->op_id < first_hardop ? 1 : 4;
}

void
zw_profile_order_infer (ZwProfile *profile)
{
  g_autoptr (GArray) keys = NULL;
  gint64 first_hardop = G_MAXINT64;

  g_return_if_fail (profile != NULL);
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      if (is_hardop (r))
        first_hardop = MIN (first_hardop, r->op_id);
    }
  keys = g_array_new (FALSE, FALSE, sizeof (OrderKey));
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      OrderKey k = { i, infer_stage (r, first_hardop), r->op_id };
      g_array_append_val (keys, k);
    }
  order_set (profile, keys, ZW_PROFILE_ORDER_INFERRED);
}

void
zw_profile_order_recorded (ZwProfile *profile)
{
  g_autoptr (GArray) keys = NULL;
  gboolean all_start = TRUE;

  g_return_if_fail (profile != NULL);
  for (guint i = 0; i < profile->rows->len && all_start; i++)
    all_start = ((const ZwProfileRow *) g_ptr_array_index (profile->rows, i))->start_ms >= 0;
  keys = g_array_new (FALSE, FALSE, sizeof (OrderKey));
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      /* ties keep row order */
      OrderKey k = { i, all_start ? r->start_ms : 0, 0 };
      g_array_append_val (keys, k);
    }
  order_set (profile, keys, ZW_PROFILE_ORDER_RECORDED);
}

guint
zw_profile_order_by_network (ZwProfile *profile, const gint64 *op_ids, guint n_ops)
{
  g_autoptr (GHashTable) pos = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GArray) keys = NULL;
  g_autoptr (ZwProfile) inferred = NULL;
  g_autofree guint *inferred_pos = NULL;
  guint placed = 0;

  g_return_val_if_fail (profile != NULL && (op_ids != NULL || n_ops == 0), 0);
  for (guint i = 0; i < n_ops; i++)
    if (!g_hash_table_contains (pos, &op_ids[i]))
      g_hash_table_insert (pos, (gpointer) &op_ids[i], GUINT_TO_POINTER (i + 1));
  /* rows the network does not know go after the rest, in their inferred order */
  inferred = zw_profile_new (NULL);
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      ZwProfileRow *c = zw_profile_add_row (inferred, r->op_id, r->op_type, r->op_name, r->total_ms, r->memcpy_ms,
                                            r->hard_ms, r->other_ms);
      c->has_io_process = r->has_io_process;
      c->is_io_process = r->is_io_process;
    }
  zw_profile_order_infer (inferred);
  inferred_pos = g_new0 (guint, MAX (profile->rows->len, 1u));
  for (guint k = 0; k < inferred->order->len; k++)
    inferred_pos[g_array_index (inferred->order, guint, k)] = k;
  if (profile->flags == NULL)
    zw_profile_check_rows (profile);

  keys = g_array_new (FALSE, FALSE, sizeof (OrderKey));
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      gint64 id = r->merge_from->len > 0 ? g_array_index (r->merge_from, gint64, 0) : r->op_id;
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (pos, &id));
      OrderKey k = { i, 0, 0 };

      if (at == 0)
        at = GPOINTER_TO_UINT (g_hash_table_lookup (pos, &r->op_id));
      if (at != 0)
        {
          k.key1 = at;
          placed++;
          profile->flags[i] &= ~(guint) ZW_PROFILE_ROW_NOT_IN_NETWORK;
        }
      else
        {
          k.key1 = (double) n_ops + 1;
          k.key2 = inferred_pos[i];
          profile->flags[i] |= ZW_PROFILE_ROW_NOT_IN_NETWORK;
        }
      g_array_append_val (keys, k);
    }
  profile->n_flagged = 0;
  for (guint i = 0; i < profile->rows->len; i++)
    profile->n_flagged += (profile->flags[i] & ZW_PROFILE_ROW_IMPOSSIBLE) != 0;
  order_set (profile, keys, ZW_PROFILE_ORDER_NETWORK);
  return placed;
}

static ZwProfileCustomop *
customop_add (ZwProfile *p, const char *name, double total, double hard)
{
  ZwProfileCustomop *c = g_new0 (ZwProfileCustomop, 1);

  c->name = g_strdup (name);
  c->total_ms = total;
  c->hard_ms = hard;
  g_ptr_array_add (p->customops, c);
  return c;
}

/* "customop::DetPostNode" -> "DetPost"; NULL for anything else. */
static char *
customop_short_name (const char *type)
{
  const char *s;
  gsize len;

  if (!g_str_has_prefix (type, "customop::"))
    return NULL;
  s = type + strlen ("customop::");
  len = strlen (s);
  if (len > 4 && g_str_has_suffix (s, "Node"))
    len -= 4;
  return g_strndup (s, len);
}

static gboolean
is_hardop (const ZwProfileRow *r)
{
  return g_str_equal (r->op_type, "icraft::xir::HardOpNode") || g_str_equal (r->op_type, "icraft::xir::HardOp");
}

void
zw_profile_compute_totals (ZwProfile *profile)
{
  double tot = 0, mem = 0, hard = 0, other = 0, hop_tot = 0, hop_hard = 0;
  double in_io = 0, icore = 0, cpu = 0;
  ZwProfileCustomop *imagemake = NULL, *detpost = NULL;

  g_return_if_fail (profile != NULL);
  g_ptr_array_set_size (profile->customops, 0);
  /* Sums in double, printed as float32 by the writer: that reproduces the vendor's
   * "5.429985" (a float accumulator would give 5.4299855). */
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      g_autofree char *cname = customop_short_name (r->op_type);

      tot += r->total_ms;
      mem += r->memcpy_ms;
      hard += r->hard_ms;
      other += r->other_ms;
      if (is_hardop (r))
        {
          hop_tot += r->total_ms;
          hop_hard += r->hard_ms;
          if (r->has_io_process && r->is_io_process)
            in_io += r->total_ms;
          else
            icore += r->total_ms;
        }
      else if (cname)
        {
          ZwProfileCustomop *c = NULL;
          for (guint j = 0; j < profile->customops->len && !c; j++)
            {
              ZwProfileCustomop *x = g_ptr_array_index (profile->customops, j);
              if (g_str_equal (x->name, cname))
                c = x;
            }
          if (!c)
            c = customop_add (profile, cname, 0, 0);
          c->total_ms += r->total_ms;
          c->hard_ms += r->hard_ms;
        }
      else
        {
          if (r->has_io_process && r->is_io_process)
            in_io += r->total_ms;
          else
            cpu += r->total_ms;
        }
    }
  profile->total_ms = tot;
  profile->total_memcpy_ms = mem;
  profile->total_hard_ms = hard;
  profile->total_other_ms = other;
  profile->hardop_total_ms = hop_tot;
  profile->hardop_hard_ms = hop_hard;
  profile->has_totals = TRUE;

  for (guint j = 0; j < profile->customops->len; j++)
    {
      ZwProfileCustomop *x = g_ptr_array_index (profile->customops, j);
      if (g_str_equal (x->name, "ImageMake"))
        imagemake = x;
      else if (g_str_has_prefix (x->name, "DetPost"))
        detpost = x;
    }
  summary_clear (profile);
  profile->summary[ZW_PROFILE_SUMMARY_INPUT].time_ms = imagemake ? imagemake->hard_ms : in_io;
  profile->summary[ZW_PROFILE_SUMMARY_INPUT].device = g_strdup (imagemake ? "ImageMake" : "Null");
  profile->summary[ZW_PROFILE_SUMMARY_ICORE].time_ms = icore;
  profile->summary[ZW_PROFILE_SUMMARY_ICORE].device = g_strdup ("Null");
  profile->summary[ZW_PROFILE_SUMMARY_OUTPUT].time_ms = detpost ? detpost->total_ms : 0;
  profile->summary[ZW_PROFILE_SUMMARY_OUTPUT].device = g_strdup (detpost ? "DetPost" : "Null");
  profile->summary[ZW_PROFILE_SUMMARY_CPU].time_ms = cpu;
  profile->summary[ZW_PROFILE_SUMMARY_CPU].device = g_strdup ("Null");
  profile->has_summary = TRUE;

  /* the dev host's measured time: summed apart, in no simulated figure above */
  profile->has_host_measured = FALSE;
  profile->host_measured_ms = 0;
  for (guint i = 0; i < profile->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (profile->rows, i);
      if (r->host_measured_ms >= 0)
        {
          profile->has_host_measured = TRUE;
          profile->host_measured_ms += r->host_measured_ms;
        }
    }
  zw_profile_check_rows (profile);
}

const char *
zw_profile_summary_kind_to_string (ZwProfileSummaryKind kind)
{
  g_return_val_if_fail (kind < ZW_PROFILE_N_SUMMARY, NULL);
  return summary_names[kind];
}

static const char *const format_names[] = { "vendor", "json", "csv", "trace" };

const char *
zw_profile_format_to_string (ZwProfileFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);
  return format_names[format];
}

gboolean
zw_profile_format_from_string (const char *text, ZwProfileFormat *out, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (text && g_ascii_strcasecmp (text, format_names[i]) == 0)
      {
        *out = (ZwProfileFormat) i;
        return TRUE;
      }
  if (text && (g_ascii_strcasecmp (text, "txt") == 0 || g_ascii_strcasecmp (text, "text") == 0))
    {
      *out = ZW_PROFILE_FORMAT_VENDOR;
      return TRUE;
    }
  g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_FORMAT,
               "unknown time-profile format \"%s\" (vendor, json, csv or trace)", text ? text : "(null)");
  return FALSE;
}

/* ---- numbers ---------------------------------------------------------------------- */

/* Locale-independent "%.<digits><conv>" (the app may run under a locale with a decimal comma). */
static void
format_ascii (char *buf, gsize size, int digits, char conv, double value)
{
  char fmt[16];

  snprintf (fmt, sizeof fmt, "%%.%d%c", digits, conv);
  g_ascii_formatd (buf, (gint) size, fmt, value);
}

char *
zw_profile_format_number (double value, gboolean as_float)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];
  int max_digits = as_float ? 9 : 17;
  int p, exp10;

  if (value == 0)
    return g_strdup ("0");
  if (!isfinite (value))
    return g_strdup (isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
  if (as_float && fabs (value) > FLT_MAX)  /* no float32 holds it (and the cast is undefined) */
    return g_strdup (value > 0 ? "inf" : "-inf");
  if (as_float)
    value = (float) value;
  /* Fewest significant digits that read back as the same value. */
  for (p = 1; p < max_digits; p++)
    {
      double back;

      format_ascii (buf, sizeof buf, p - 1, 'e', value);
      back = g_ascii_strtod (buf, NULL);
      if (as_float ? (float) back == (float) value : back == value)
        break;
    }
  format_ascii (buf, sizeof buf, p - 1, 'e', value);
  exp10 = atoi (strchr (buf, 'e') + 1);
  /* "{}"-style: plain decimals from 1e-4 up to 1e16, scientific outside. */
  if (exp10 < -4 || exp10 >= 16)
    return g_strdup (buf);
  format_ascii (buf, sizeof buf, MAX (0, p - 1 - exp10), 'f', value);
  return g_strdup (buf);
}

/* ---- writers ---------------------------------------------------------------------- */

static ZwProfile *
profile_copy (const ZwProfile *src)
{
  ZwProfile *p = zw_profile_new (src->network);

  for (guint i = 0; i < src->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (src->rows, i);
      ZwProfileRow *c = zw_profile_add_row (p, r->op_id, r->op_type, r->op_name, r->total_ms, r->memcpy_ms,
                                            r->hard_ms, r->other_ms);
      c->has_io_process = r->has_io_process;
      c->is_io_process = r->is_io_process;
      g_array_append_vals (c->merge_from, r->merge_from->data, r->merge_from->len);
      c->backend = g_strdup (r->backend);
      c->start_ms = r->start_ms;
      c->host_measured_ms = r->host_measured_ms;
    }
  if (src->order != NULL)
    {
      p->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), src->order->len);
      g_array_append_vals (p->order, src->order->data, src->order->len);
    }
  p->order_source = src->order_source;
  if (src->flags != NULL)
    p->flags = g_memdup2 (src->flags, sizeof (guint) * MAX (src->rows->len, 1u));
  p->n_flagged = src->n_flagged;
  return p;
}

ZwProfile *
zw_profile_copy (const ZwProfile *src)
{
  ZwProfile *p;

  g_return_val_if_fail (src != NULL, NULL);
  p = profile_copy (src);
  p->has_totals = src->has_totals;
  p->total_ms = src->total_ms;
  p->total_memcpy_ms = src->total_memcpy_ms;
  p->total_hard_ms = src->total_hard_ms;
  p->total_other_ms = src->total_other_ms;
  p->hardop_total_ms = src->hardop_total_ms;
  p->hardop_hard_ms = src->hardop_hard_ms;
  for (guint i = 0; i < src->customops->len; i++)
    {
      const ZwProfileCustomop *c = g_ptr_array_index (src->customops, i);
      customop_add (p, c->name, c->total_ms, c->hard_ms);
    }
  p->has_summary = src->has_summary;
  for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      p->summary[k].time_ms = src->summary[k].time_ms;
      p->summary[k].device = g_strdup (src->summary[k].device);
    }
  p->has_host_measured = src->has_host_measured;
  p->host_measured_ms = src->host_measured_ms;
  return p;
}

static void
append_number (GString *s, double v, gboolean as_float)
{
  g_autofree char *t = zw_profile_format_number (v, as_float);
  g_string_append (s, t);
}

static void
write_vendor (const ZwProfile *p, GString *s)
{
  g_autoptr (ZwProfile) computed = NULL;

  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);

      g_string_append_printf (s, "op_id: %" G_GINT64_FORMAT ", op_type: %s, op_name: %s, total_time: ", r->op_id,
                              r->op_type, r->op_name);
      append_number (s, r->total_ms, FALSE);
      g_string_append (s, ", memcpy_time: ");
      append_number (s, r->memcpy_ms, FALSE);
      g_string_append (s, ", hard_time: ");
      append_number (s, r->hard_ms, FALSE);
      g_string_append (s, ", other_time: ");
      append_number (s, r->other_ms, FALSE);
      if (r->has_io_process)
        g_string_append_printf (s, ", is_io_process: %s", r->is_io_process ? "true" : "false");
      g_string_append_c (s, '\n');
    }
  if (!p->has_totals || !p->has_summary)
    {
      computed = profile_copy (p);
      zw_profile_compute_totals (computed);
      p = computed;
    }
  g_string_append (s, STARS_ROWS "\nTotal_TotalTime: ");
  append_number (s, p->total_ms, TRUE);
  g_string_append (s, ", Total_MemcpyTime: ");
  append_number (s, p->total_memcpy_ms, TRUE);
  g_string_append (s, ", Total_HardTime: ");
  append_number (s, p->total_hard_ms, TRUE);
  g_string_append (s, ", Total_OtherTime: ");
  append_number (s, p->total_other_ms, TRUE);
  g_string_append (s, "\nHardop_Total_Time: ");
  append_number (s, p->hardop_total_ms, TRUE);
  g_string_append (s, " ms, Hardop_Hard_Time : ");
  append_number (s, p->hardop_hard_ms, TRUE);
  g_string_append (s, " ms.\n");
  for (guint i = 0; i < p->customops->len; i++)
    {
      const ZwProfileCustomop *c = g_ptr_array_index (p->customops, i);
      g_string_append_printf (s, "Customop: %s,TotalTime: ", c->name);
      append_number (s, c->total_ms, TRUE);
      g_string_append (s, " ms, HardTime : ");
      append_number (s, c->hard_ms, TRUE);
      g_string_append (s, " ms.\n");
    }
  g_string_append (s, STARS_TOTALS "\n" SUMMARY_TITLE "\n");
  for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE + 32];

      format_ascii (num, sizeof num, 6, 'g', p->summary[k].time_ms);
      g_string_append_printf (s, "%s\nTime(ms):%-12sDevice:%s\n", summary_headers[k], num,
                              p->summary[k].device ? p->summary[k].device : "Null");
    }
}

/* cJSON prints %.15g and accepts a 1-ulp error before falling back to %.17g; times must
 * read back bit for bit, so they are printed with our shortest round-trip format. */
static void
json_add_time (cJSON *obj, const char *key, double v)
{
  if (isfinite (v))
    {
      g_autofree char *t = zw_profile_format_number (v, FALSE);
      cJSON_AddRawToObject (obj, key, t);
    }
  else
    cJSON_AddNullToObject (obj, key);
}

static cJSON *
merge_json (const GArray *m)
{
  cJSON *a = cJSON_CreateArray ();

  for (guint j = 0; j < m->len; j++)
    cJSON_AddItemToArray (a, cJSON_CreateNumber ((double) g_array_index (m, gint64, j)));
  return a;
}

static char *
write_json (const ZwProfile *p)
{
  g_autoptr (ZwProfile) computed = NULL;
  cJSON *root = cJSON_CreateObject ();
  cJSON *rows = cJSON_AddArrayToObject (root, "rows");
  cJSON *totals, *customs, *summary;
  char *text;

  cJSON_AddStringToObject (root, "format", JSON_FORMAT_NAME);
  cJSON_AddNumberToObject (root, "version", JSON_VERSION);
  if (p->network)
    cJSON_AddStringToObject (root, "network", p->network);
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      cJSON *o = cJSON_CreateObject ();

      cJSON_AddNumberToObject (o, "op_id", (double) r->op_id);
      cJSON_AddStringToObject (o, "op_type", r->op_type);
      cJSON_AddStringToObject (o, "op_name", r->op_name);
      json_add_time (o, "total_ms", r->total_ms);
      json_add_time (o, "memcpy_ms", r->memcpy_ms);
      json_add_time (o, "hard_ms", r->hard_ms);
      json_add_time (o, "other_ms", r->other_ms);
      if (r->has_io_process)
        cJSON_AddBoolToObject (o, "is_io_process", r->is_io_process);
      cJSON_AddItemToObject (o, "merge_from", merge_json (r->merge_from));
      if (r->backend)
        cJSON_AddStringToObject (o, "backend", r->backend);
      if (r->start_ms >= 0)
        json_add_time (o, "start_ms", r->start_ms);
      if (r->host_measured_ms >= 0)
        json_add_time (o, "host_measured_ms", r->host_measured_ms);
      cJSON_AddItemToArray (rows, o);
    }
  if (!p->has_totals || !p->has_summary)
    {
      computed = profile_copy (p);
      zw_profile_compute_totals (computed);
      p = computed;
    }
  totals = cJSON_AddObjectToObject (root, "totals");
  json_add_time (totals, "total_ms", p->total_ms);
  json_add_time (totals, "memcpy_ms", p->total_memcpy_ms);
  json_add_time (totals, "hard_ms", p->total_hard_ms);
  json_add_time (totals, "other_ms", p->total_other_ms);
  json_add_time (totals, "hardop_total_ms", p->hardop_total_ms);
  json_add_time (totals, "hardop_hard_ms", p->hardop_hard_ms);
  customs = cJSON_AddArrayToObject (root, "customops");
  for (guint i = 0; i < p->customops->len; i++)
    {
      const ZwProfileCustomop *c = g_ptr_array_index (p->customops, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "name", c->name);
      json_add_time (o, "total_ms", c->total_ms);
      json_add_time (o, "hard_ms", c->hard_ms);
      cJSON_AddItemToArray (customs, o);
    }
  summary = cJSON_AddObjectToObject (root, "summary");
  for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
    {
      cJSON *o = cJSON_AddObjectToObject (summary, summary_names[k]);
      json_add_time (o, "time_ms", p->summary[k].time_ms);
      cJSON_AddStringToObject (o, "device", p->summary[k].device ? p->summary[k].device : "Null");
    }
  text = cJSON_Print (root);
  cJSON_Delete (root);
  return text;
}

static void
csv_field (GString *s, const char *text)
{
  if (!text)
    return;
  if (strpbrk (text, ",\"\r\n"))
    {
      g_string_append_c (s, '"');
      for (const char *c = text; *c; c++)
        {
          if (*c == '"')
            g_string_append_c (s, '"');
          g_string_append_c (s, *c);
        }
      g_string_append_c (s, '"');
    }
  else
    g_string_append (s, text);
}

#define CSV_HEADER "op_id,op_type,op_name,total_ms,memcpy_ms,hard_ms,other_ms,is_io_process,merge_from,backend,start_ms,host_measured_ms"

static void
write_csv (const ZwProfile *p, GString *s)
{
  g_string_append (s, CSV_HEADER "\n");
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);

      g_string_append_printf (s, "%" G_GINT64_FORMAT ",", r->op_id);
      csv_field (s, r->op_type);
      g_string_append_c (s, ',');
      csv_field (s, r->op_name);
      g_string_append_c (s, ',');
      append_number (s, r->total_ms, FALSE);
      g_string_append_c (s, ',');
      append_number (s, r->memcpy_ms, FALSE);
      g_string_append_c (s, ',');
      append_number (s, r->hard_ms, FALSE);
      g_string_append_c (s, ',');
      append_number (s, r->other_ms, FALSE);
      g_string_append_c (s, ',');
      if (r->has_io_process)
        g_string_append (s, r->is_io_process ? "true" : "false");
      g_string_append_c (s, ',');
      for (guint j = 0; j < r->merge_from->len; j++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ";" : "", g_array_index (r->merge_from, gint64, j));
      g_string_append_c (s, ',');
      csv_field (s, r->backend);
      g_string_append_c (s, ',');
      if (r->start_ms >= 0)
        append_number (s, r->start_ms, FALSE);
      g_string_append_c (s, ',');
      if (r->host_measured_ms >= 0)
        append_number (s, r->host_measured_ms, FALSE);
      g_string_append_c (s, '\n');
    }
}

/* pid per backend: the ZG330 (NPU) first, the host second, others after. */
static gint
trace_pid (GPtrArray *names, const char *backend)
{
  const char *b = backend ? backend : "unknown";

  for (guint i = 0; i < names->len; i++)
    if (g_str_equal (g_ptr_array_index (names, i), b))
      return (gint) i + 1;
  g_ptr_array_add (names, g_strdup (b));
  return (gint) names->len;
}

static char *
write_trace (const ZwProfile *p)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  cJSON *root = cJSON_CreateObject ();
  cJSON *events = cJSON_AddArrayToObject (root, "traceEvents");
  double cursor = 0;
  char *text;

  g_ptr_array_add (names, g_strdup ("ZG330"));
  g_ptr_array_add (names, g_strdup ("Host"));
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (p->rows, i);
      cJSON *e = cJSON_CreateObject ();
      cJSON *args;
      double start = r->start_ms >= 0 ? r->start_ms : cursor;
      g_autofree char *name = NULL;
      const char *cls = strrchr (r->op_type, ':');

      cls = cls ? cls + 1 : r->op_type;
      name = r->op_name[0] ? g_strdup_printf ("%s %s", cls, r->op_name)
                           : g_strdup_printf ("%s #%" G_GINT64_FORMAT, cls, r->op_id);
      cJSON_AddStringToObject (e, "name", name);
      cJSON_AddStringToObject (e, "cat", r->op_type);
      cJSON_AddStringToObject (e, "ph", "X");
      json_add_time (e, "ts", start * 1000.0);
      json_add_time (e, "dur", MAX (r->total_ms, 0) * 1000.0);
      cJSON_AddNumberToObject (e, "pid", trace_pid (names, r->backend));
      cJSON_AddNumberToObject (e, "tid", 1);
      args = cJSON_AddObjectToObject (e, "args");
      cJSON_AddNumberToObject (args, "op_id", (double) r->op_id);
      cJSON_AddStringToObject (args, "op_type", r->op_type);
      cJSON_AddStringToObject (args, "op_name", r->op_name);
      json_add_time (args, "total_ms", r->total_ms);
      json_add_time (args, "memcpy_ms", r->memcpy_ms);
      json_add_time (args, "hard_ms", r->hard_ms);
      json_add_time (args, "other_ms", r->other_ms);
      if (r->has_io_process)
        cJSON_AddBoolToObject (args, "is_io_process", r->is_io_process);
      cJSON_AddItemToObject (args, "merge_from", merge_json (r->merge_from));
      if (r->backend)
        cJSON_AddStringToObject (args, "backend", r->backend);
      if (r->host_measured_ms >= 0)
        json_add_time (args, "host_measured_ms", r->host_measured_ms);
      cJSON_AddItemToArray (events, e);
      cursor = start + MAX (r->total_ms, 0);
    }
  for (guint i = 0; i < names->len; i++)
    {
      cJSON *m = cJSON_CreateObject ();
      cJSON *args;

      cJSON_AddStringToObject (m, "name", "process_name");
      cJSON_AddStringToObject (m, "ph", "M");
      cJSON_AddNumberToObject (m, "pid", i + 1);
      cJSON_AddNumberToObject (m, "tid", 1);
      args = cJSON_AddObjectToObject (m, "args");
      cJSON_AddStringToObject (args, "name", g_ptr_array_index (names, i));
      cJSON_AddItemToArray (events, m);
    }
  cJSON_AddStringToObject (root, "displayTimeUnit", "ms");
  if (p->network)
    {
      cJSON *other = cJSON_AddObjectToObject (root, "otherData");
      cJSON_AddStringToObject (other, "network", p->network);
    }
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  return text;
}

char *
zw_profile_to_string (const ZwProfile *profile, ZwProfileFormat format)
{
  GString *s;

  g_return_val_if_fail (profile != NULL, NULL);
  switch (format)
    {
    case ZW_PROFILE_FORMAT_VENDOR:
      s = g_string_new (NULL);
      write_vendor (profile, s);
      return g_string_free (s, FALSE);
    case ZW_PROFILE_FORMAT_CSV:
      s = g_string_new (NULL);
      write_csv (profile, s);
      return g_string_free (s, FALSE);
    case ZW_PROFILE_FORMAT_JSON:
      return write_json (profile);
    case ZW_PROFILE_FORMAT_TRACE:
      return write_trace (profile);
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
zw_profile_write (const ZwProfile *profile, const char *path, ZwProfileFormat format, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (profile != NULL && path != NULL, FALSE);
  text = zw_profile_to_string (profile, format);
  if (!text)
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_FORMAT, "%s: unknown time-profile format %d", path,
                   (int) format);
      return FALSE;
    }
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_IO, "%s: cannot write the time profile: %s", path,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- parsers ---------------------------------------------------------------------- */

typedef struct {
  const char *origin;
  GPtrArray *warnings;
  GError *error;        /* the first malformed row: the file is refused */
} Ctx;

static void warn (Ctx *c, guint line, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
static void bad_row (Ctx *c, guint line, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

/* A row that is there but cannot be read whole refuses the file, in every format: a profile
 * read without one of its rows would compare as if that op had not run. */
static void
bad_row (Ctx *c, guint line, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  if (c->error != NULL)
    return;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (line)
    c->error = g_error_new (ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s:%u: %s", c->origin, line, msg);
  else
    c->error = g_error_new (ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s: %s", c->origin, msg);
}

static void
warn (Ctx *c, guint line, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  if (!c->warnings)
    return;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (line)
    g_ptr_array_add (c->warnings, g_strdup_printf ("%s:%u: %s", c->origin, line, msg));
  else
    g_ptr_array_add (c->warnings, g_strdup_printf ("%s: %s", c->origin, msg));
}

/* A number, optionally followed by the vendor's " ms" or " ms." unit. */
static gboolean
parse_number (const char *text, double *out)
{
  char *end;
  double v;

  while (g_ascii_isspace (*text))
    text++;
  if (!*text)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  /* the vendor writes float32 times: anything a float32 cannot hold is not a time */
  if (end == text || !isfinite (v) || fabs (v) > FLT_MAX)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (g_str_has_prefix (end, "ms"))
    end += 2;
  if (*end == '.')
    end++;
  while (g_ascii_isspace (*end))
    end++;
  if (*end)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
parse_int64 (const char *text, gint64 *out)
{
  char *end;
  gint64 v;

  while (g_ascii_isspace (*text))
    text++;
  if (!*text)
    return FALSE;
  v = g_ascii_strtoll (text, &end, 10);
  while (g_ascii_isspace (*end))
    end++;
  if (*end || end == text)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
parse_bool (const char *text, gboolean *out)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (g_ascii_strcasecmp (t, "true") == 0 || g_str_equal (t, "1"))
    *out = TRUE;
  else if (g_ascii_strcasecmp (t, "false") == 0 || g_str_equal (t, "0"))
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

static gsize
ident_len (const char *p)
{
  gsize n = 0;

  while (g_ascii_isalnum (p[n]) || p[n] == '_')
    n++;
  return n;
}

/* "k1: v1, k2: v2 …" -> table; a value runs to the next ", <ident> :" (the vendor writes
 * "Hardop_Hard_Time :" with a space).  FALSE when the line does not have that shape. */
static gboolean
parse_pairs (const char *line, GHashTable *kv)
{
  const char *p = line;
  const char *end = line + strlen (line);

  while (p < end)
    {
      gsize klen = ident_len (p);
      const char *v, *q, *next = NULL;

      if (klen == 0)
        return FALSE;
      q = p + klen;
      while (*q == ' ')
        q++;
      if (*q != ':')
        return FALSE;
      v = q + 1;
      if (*v == ' ')
        v++;
      for (const char *s = strstr (v, ", "); s; s = strstr (s + 1, ", "))
        {
          const char *r = s + 2;
          gsize il = ident_len (r);
          if (il == 0)
            continue;
          r += il;
          while (*r == ' ')
            r++;
          if (*r == ':')
            {
              next = s;
              break;
            }
        }
      g_hash_table_insert (kv, g_strndup (p, klen), g_strndup (v, (gsize) ((next ? next : end) - v)));
      p = next ? next + 2 : end;
    }
  return TRUE;
}

static void
parse_row_line (ZwProfile *prof, Ctx *c, guint lineno, const char *line)
{
  static const char *const times[4] = { "total_time", "memcpy_time", "hard_time", "other_time" };
  g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *type, *name, *io;
  double t[4];
  gint64 id;
  ZwProfileRow *r;

  if (!parse_pairs (line, kv))
    {
      bad_row (c, lineno, "not an op line (\"key: value, …\" expected)");
      return;
    }
  if (!g_hash_table_contains (kv, "op_id") || !parse_int64 (g_hash_table_lookup (kv, "op_id"), &id))
    {
      bad_row (c, lineno, "field op_id is missing or not an integer");
      return;
    }
  type = g_hash_table_lookup (kv, "op_type");
  if (!type)
    {
      bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field op_type is missing", id);
      return;
    }
  for (guint i = 0; i < 4; i++)
    {
      const char *v = g_hash_table_lookup (kv, times[i]);
      if (!v || !parse_number (v, &t[i]))
        {
          bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field %s is %s", id, times[i], v ? "not a number" : "missing");
          return;
        }
    }
  name = g_hash_table_lookup (kv, "op_name");
  r = zw_profile_add_row (prof, id, type, name ? name : "", t[0], t[1], t[2], t[3]);
  io = g_hash_table_lookup (kv, "is_io_process");
  if (io)
    {
      if (parse_bool (io, &r->is_io_process))
        r->has_io_process = TRUE;
      else
        bad_row (c, lineno, "op %" G_GINT64_FORMAT ": field is_io_process is not true/false", id);
    }
}

static gboolean
lookup_number (GHashTable *kv, const char *key, double *out)
{
  const char *v = g_hash_table_lookup (kv, key);
  return v && parse_number (v, out);
}

/* Parses the vendor's text.  Returns FALSE when nothing in it was a profile line. */
static gboolean
parse_vendor (ZwProfile *prof, Ctx *c, const char *data, gboolean *totals_seen)
{
  g_auto (GStrv) lines = g_strsplit (data, "\n", -1);
  gint kind = -1;
  gboolean any = FALSE;
  gboolean hardop_seen = FALSE;

  *totals_seen = FALSE;
  for (guint i = 0; lines[i] && c->error == NULL; i++)
    {
      guint lineno = i + 1;
      char *line = lines[i];
      gsize len = strlen (line);

      if (len && line[len - 1] == '\r')
        line[--len] = '\0';
      if (strspn (line, " \t") == len)
        continue;
      if (g_str_has_prefix (line, "op_id:"))
        {
          guint before = prof->rows->len;
          parse_row_line (prof, c, lineno, line);
          any |= prof->rows->len > before;
        }
      else if (strspn (line, "*") == len)
        any = TRUE;
      else if (g_str_has_prefix (line, "Total_TotalTime:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          if (parse_pairs (line, kv) && lookup_number (kv, "Total_TotalTime", &prof->total_ms)
              && lookup_number (kv, "Total_MemcpyTime", &prof->total_memcpy_ms)
              && lookup_number (kv, "Total_HardTime", &prof->total_hard_ms)
              && lookup_number (kv, "Total_OtherTime", &prof->total_other_ms))
            *totals_seen = any = TRUE;
          else
            warn (c, lineno, "totals line: a Total_* field is missing or not a number");
        }
      else if (g_str_has_prefix (line, "Hardop_Total_Time:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          if (parse_pairs (line, kv) && lookup_number (kv, "Hardop_Total_Time", &prof->hardop_total_ms)
              && lookup_number (kv, "Hardop_Hard_Time", &prof->hardop_hard_ms))
            hardop_seen = any = TRUE;
          else
            warn (c, lineno, "Hardop line: Hardop_Total_Time or Hardop_Hard_Time is missing or not a number");
        }
      else if (g_str_has_prefix (line, "Customop:"))
        {
          g_autoptr (GHashTable) kv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          /* "Customop: DetPost,TotalTime: …": the vendor omits the space after the name. */
          g_autofree char *fixed = NULL;
          const char *comma = strchr (line, ',');
          double tot, hard;

          if (comma)
            fixed = g_strdup_printf ("%.*s, %s", (int) (comma - line), line, comma + 1);
          if (fixed && parse_pairs (fixed, kv) && lookup_number (kv, "TotalTime", &tot)
              && lookup_number (kv, "HardTime", &hard))
            {
              customop_add (prof, g_strstrip ((char *) g_hash_table_lookup (kv, "Customop")), tot, hard);
              any = TRUE;
            }
          else
            warn (c, lineno, "Customop line: name, TotalTime or HardTime is missing or not a number");
        }
      else if (strstr (line, "(The analysis results are as follows)"))
        {
          prof->has_summary = TRUE;
          any = TRUE;
        }
      else if (g_str_has_prefix (line, "Time(ms):"))
        {
          char *end;
          const char *p = line + strlen ("Time(ms):");
          double v = g_ascii_strtod (p, &end);
          const char *dev;

          while (g_ascii_isspace (*end))
            end++;
          dev = g_str_has_prefix (end, "Device:") ? end + strlen ("Device:") : NULL;
          if (kind < 0)
            warn (c, lineno, "Time(ms) line outside a summary section");
          else if (end == p || !dev)
            warn (c, lineno, "summary %s: expected \"Time(ms):<number> Device:<name>\"", summary_names[kind]);
          else
            {
              g_free (prof->summary[kind].device);
              prof->summary[kind].device = g_strstrip (g_strdup (dev));
              prof->summary[kind].time_ms = v;
              prof->has_summary = any = TRUE;
            }
        }
      else
        {
          gint k = -1;
          for (guint j = 0; j < ZW_PROFILE_N_SUMMARY; j++)
            if (strstr (line, summary_keys[j]))
              k = (gint) j;
          if (k >= 0)
            kind = k;
          else
            {
              g_autofree char *shown = g_utf8_make_valid (line, MIN (len, 60));
              warn (c, lineno, "unrecognised line \"%s%s\"", shown, len > 60 ? "…" : "");
            }
        }
    }
  if (*totals_seen && !hardop_seen)
    warn (c, 0, "no Hardop_Total_Time line after the totals");
  return any;
}

/* ---- JSON (ours) and trace ---- */

static gboolean
json_number (const cJSON *o, const char *key, double *out)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (o, key);

  return zw_json_double (v, -FLT_MAX, FLT_MAX, out) == ZW_NUM_OK;
}

/* A trace's ts or dur: microseconds, so up to 1000 times the largest time in ms. */
static gboolean
json_micros (const cJSON *o, const char *key, double *out)
{
  return zw_json_double (cJSON_GetObjectItemCaseSensitive (o, key), -1e3 * FLT_MAX, 1e3 * FLT_MAX, out) == ZW_NUM_OK;
}

/* An op id or process id: an integer a double holds exactly, converted only when it is one. */
static gboolean
json_id (const cJSON *o, const char *key, gint64 min, gint64 max, gint64 *out)
{
  return zw_json_int64 (cJSON_GetObjectItemCaseSensitive (o, key), min, max, out) == ZW_NUM_OK;
}

/* An optional time: absent leaves *out as it is; present, it must be a number (and, for
 * @non_negative, not below 0). FALSE (and the file refused) when it is not. */
static gboolean
json_optional_time (const cJSON *o, const char *key, gboolean non_negative, double *out, Ctx *c, const char *where)
{
  double v;

  if (cJSON_GetObjectItemCaseSensitive (o, key) == NULL)
    return TRUE;
  if (!json_number (o, key, &v) || (non_negative && v < 0))
    {
      bad_row (c, 0, "%s: field %s is not a %s", where, key, non_negative ? "time" : "number");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static void
json_merge_from (ZwProfileRow *r, const cJSON *m, Ctx *c, const char *where)
{
  const cJSON *x;

  if (!m)
    return;
  if (!cJSON_IsArray (m))
    {
      bad_row (c, 0, "%s: field merge_from is not an array", where);
      return;
    }
  cJSON_ArrayForEach (x, m)
    {
      gint64 id;
      if (zw_json_int64 (x, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) != ZW_NUM_OK)
        {
          bad_row (c, 0, "%s: field merge_from holds something other than an op id", where);
          return;
        }
      g_array_append_val (r->merge_from, id);
    }
}

static gboolean
parse_json_ours (ZwProfile *prof, Ctx *c, const cJSON *root, gboolean *totals_seen)
{
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive (root, "rows");
  const cJSON *net = cJSON_GetObjectItemCaseSensitive (root, "network");
  const cJSON *totals = cJSON_GetObjectItemCaseSensitive (root, "totals");
  const cJSON *customs = cJSON_GetObjectItemCaseSensitive (root, "customops");
  const cJSON *summary = cJSON_GetObjectItemCaseSensitive (root, "summary");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive (root, "version");
  const cJSON *o;
  guint i = 0;

  *totals_seen = FALSE;
  if (cJSON_IsNumber (ver) && ver->valuedouble > JSON_VERSION)
    warn (c, 0, "version %g is newer than this build reads (%d); reading what it can", ver->valuedouble,
          JSON_VERSION);
  if (!cJSON_IsArray (rows))
    return FALSE;
  if (cJSON_IsString (net))
    {
      g_free (prof->network);
      prof->network = g_strdup (net->valuestring);
    }
  cJSON_ArrayForEach (o, rows)
    {
      g_autofree char *where = g_strdup_printf ("rows[%u]", i++);
      if (c->error != NULL)
        break;
      const cJSON *type = cJSON_GetObjectItemCaseSensitive (o, "op_type");
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (o, "op_name");
      const cJSON *io = cJSON_GetObjectItemCaseSensitive (o, "is_io_process");
      const cJSON *backend = cJSON_GetObjectItemCaseSensitive (o, "backend");
      static const char *const keys[4] = { "total_ms", "memcpy_ms", "hard_ms", "other_ms" };
      double t[4], start;
      gint64 id;
      gboolean ok = TRUE;
      ZwProfileRow *r;

      if (!cJSON_IsObject (o) || !json_id (o, "op_id", -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) || !cJSON_IsString (type))
        {
          bad_row (c, 0, "%s: field op_id (an integer) or op_type is missing", where);
          break;
        }
      for (guint k = 0; k < 4 && ok; k++)
        if (!json_number (o, keys[k], &t[k]))
          {
            bad_row (c, 0, "%s (op %" G_GINT64_FORMAT "): field %s is missing or not a number", where, id, keys[k]);
            ok = FALSE;
          }
      if (!ok)
        break;
      r = zw_profile_add_row (prof, id, type->valuestring, cJSON_IsString (name) ? name->valuestring : "",
                              t[0], t[1], t[2], t[3]);
      if (cJSON_IsBool (io))
        {
          r->has_io_process = TRUE;
          r->is_io_process = cJSON_IsTrue (io);
        }
      else if (io != NULL && !cJSON_IsNull (io))
        bad_row (c, 0, "%s (op %" G_GINT64_FORMAT "): field is_io_process is not true/false", where, id);
      json_merge_from (r, cJSON_GetObjectItemCaseSensitive (o, "merge_from"), c, where);
      if (cJSON_IsString (backend))
        r->backend = g_strdup (backend->valuestring);
      start = r->start_ms;
      if (json_optional_time (o, "start_ms", FALSE, &start, c, where))
        r->start_ms = start;
      json_optional_time (o, "host_measured_ms", TRUE, &r->host_measured_ms, c, where);
    }
  if (cJSON_IsObject (totals))
    {
      if (json_number (totals, "total_ms", &prof->total_ms) && json_number (totals, "memcpy_ms", &prof->total_memcpy_ms)
          && json_number (totals, "hard_ms", &prof->total_hard_ms)
          && json_number (totals, "other_ms", &prof->total_other_ms)
          && json_number (totals, "hardop_total_ms", &prof->hardop_total_ms)
          && json_number (totals, "hardop_hard_ms", &prof->hardop_hard_ms))
        *totals_seen = TRUE;
      else
        warn (c, 0, "totals: a field is missing or not a number; recomputing them");
    }
  if (*totals_seen && cJSON_IsArray (customs))
    {
      i = 0;
      cJSON_ArrayForEach (o, customs)
        {
          const cJSON *name = cJSON_GetObjectItemCaseSensitive (o, "name");
          double tot, hard;
          if (cJSON_IsString (name) && json_number (o, "total_ms", &tot) && json_number (o, "hard_ms", &hard))
            customop_add (prof, name->valuestring, tot, hard);
          else
            warn (c, 0, "customops[%u]: name, total_ms or hard_ms is missing", i);
          i++;
        }
    }
  if (cJSON_IsObject (summary))
    {
      guint found = 0;
      for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
        {
          const cJSON *s = cJSON_GetObjectItemCaseSensitive (summary, summary_names[k]);
          const cJSON *dev = cJSON_GetObjectItemCaseSensitive (s, "device");
          double t;
          if (cJSON_IsObject (s) && json_number (s, "time_ms", &t) && cJSON_IsString (dev))
            {
              prof->summary[k].time_ms = t;
              prof->summary[k].device = g_strdup (dev->valuestring);
              found++;
            }
          else
            warn (c, 0, "summary.%s: time_ms or device is missing", summary_names[k]);
        }
      prof->has_summary = found == ZW_PROFILE_N_SUMMARY;
    }
  return TRUE;
}

static gboolean
parse_trace (ZwProfile *prof, Ctx *c, const cJSON *events)
{
  g_autoptr (GHashTable) pid_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const cJSON *e;
  guint i = 0;
  gboolean any = FALSE;

  cJSON_ArrayForEach (e, events)
    {
      const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (e, "name");
      const cJSON *args = cJSON_GetObjectItemCaseSensitive (e, "args");
      const cJSON *an = cJSON_GetObjectItemCaseSensitive (args, "name");
      gint64 pid;

      if (cJSON_IsString (ph) && g_str_equal (ph->valuestring, "M") && cJSON_IsString (name)
          && g_str_equal (name->valuestring, "process_name") && cJSON_IsString (an)
          && json_id (e, "pid", G_MININT, G_MAXINT, &pid))
        g_hash_table_insert (pid_names, GINT_TO_POINTER ((gint) pid), g_strdup (an->valuestring));
    }
  cJSON_ArrayForEach (e, events)
    {
      if (c->error != NULL)
        break;
      const cJSON *ph = cJSON_GetObjectItemCaseSensitive (e, "ph");
      const cJSON *args = cJSON_GetObjectItemCaseSensitive (e, "args");
      const cJSON *type = cJSON_GetObjectItemCaseSensitive (args, "op_type");
      const cJSON *cat = cJSON_GetObjectItemCaseSensitive (e, "cat");
      const cJSON *ename = cJSON_GetObjectItemCaseSensitive (e, "name");
      const cJSON *oname = cJSON_GetObjectItemCaseSensitive (args, "op_name");
      const cJSON *io = cJSON_GetObjectItemCaseSensitive (args, "is_io_process");
      const cJSON *backend = cJSON_GetObjectItemCaseSensitive (args, "backend");
      g_autofree char *where = g_strdup_printf ("traceEvents[%u]", i++);
      double ts, dur, total, memcpy_ms = 0, hard = 0, other;
      gint64 id, pid;
      ZwProfileRow *r;

      if (!cJSON_IsString (ph) || !g_str_equal (ph->valuestring, "X"))
        continue;
      if (!json_micros (e, "ts", &ts) || !json_micros (e, "dur", &dur))
        {
          bad_row (c, 0, "%s: field %s is missing or not a number", where, json_micros (e, "ts", &ts) ? "dur" : "ts");
          break;
        }
      if (cJSON_GetObjectItemCaseSensitive (args, "op_id") == NULL)
        id = (gint64) prof->rows->len;
      else if (!json_id (args, "op_id", -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id))
        {
          bad_row (c, 0, "%s: field args.op_id is not an integer", where);
          break;
        }
      total = dur / 1000.0;
      other = G_MAXDOUBLE;
      if (!json_optional_time (args, "total_ms", FALSE, &total, c, where)
          || !json_optional_time (args, "memcpy_ms", FALSE, &memcpy_ms, c, where)
          || !json_optional_time (args, "hard_ms", FALSE, &hard, c, where)
          || !json_optional_time (args, "other_ms", FALSE, &other, c, where))
        break;
      if (other == G_MAXDOUBLE)
        other = total - hard - memcpy_ms;
      r = zw_profile_add_row (prof, id,
                              cJSON_IsString (type) ? type->valuestring
                              : cJSON_IsString (cat) ? cat->valuestring
                              : cJSON_IsString (ename) ? ename->valuestring : "",
                              cJSON_IsString (oname) ? oname->valuestring : "", total, memcpy_ms, hard, other);
      r->start_ms = ts / 1000.0;
      if (cJSON_IsBool (io))
        {
          r->has_io_process = TRUE;
          r->is_io_process = cJSON_IsTrue (io);
        }
      json_merge_from (r, cJSON_GetObjectItemCaseSensitive (args, "merge_from"), c, where);
      json_optional_time (args, "host_measured_ms", TRUE, &r->host_measured_ms, c, where);
      if (cJSON_IsString (backend))
        r->backend = g_strdup (backend->valuestring);
      else if (json_id (e, "pid", G_MININT, G_MAXINT, &pid) && g_hash_table_lookup (pid_names, GINT_TO_POINTER ((gint) pid)))
        r->backend = g_strdup (g_hash_table_lookup (pid_names, GINT_TO_POINTER ((gint) pid)));
      any = TRUE;
    }
  return any;
}

/* ---- CSV ---- */

typedef struct {
  GPtrArray *fields;  /* char* */
  guint line;
} CsvRecord;

static void
csv_record_free (gpointer p)
{
  CsvRecord *r = p;
  g_ptr_array_unref (r->fields);
  g_free (r);
}

/* RFC 4180 records (quoted fields may hold commas, quotes and newlines). */
static GPtrArray *
csv_split (const char *data, gsize len)
{
  GPtrArray *records = g_ptr_array_new_with_free_func (csv_record_free);
  GString *field = g_string_new (NULL);
  CsvRecord *rec = NULL;
  gboolean quoted = FALSE, was_quoted = FALSE;
  guint line = 1;

  for (gsize i = 0; i <= len; i++)
    {
      char ch = i < len ? data[i] : '\n';

      if (!rec)
        {
          rec = g_new0 (CsvRecord, 1);
          rec->fields = g_ptr_array_new_with_free_func (g_free);
          rec->line = line;
        }
      if (quoted)
        {
          if (ch == '"' && i + 1 < len && data[i + 1] == '"')
            {
              g_string_append_c (field, '"');
              i++;
            }
          else if (ch == '"')
            quoted = FALSE;
          else
            {
              if (ch == '\n')
                line++;
              g_string_append_c (field, ch);
            }
          continue;
        }
      if (ch == '"' && field->len == 0 && !was_quoted)
        quoted = was_quoted = TRUE;
      else if (ch == ',')
        {
          g_ptr_array_add (rec->fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
        }
      else if (ch == '\n')
        {
          gboolean empty = rec->fields->len == 0 && field->len == 0;
          if (field->len && field->str[field->len - 1] == '\r')
            g_string_truncate (field, field->len - 1);
          g_ptr_array_add (rec->fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
          if (empty)
            csv_record_free (rec);
          else
            g_ptr_array_add (records, rec);
          rec = NULL;
          line++;
        }
      else
        g_string_append_c (field, ch);
    }
  if (rec)
    csv_record_free (rec);
  g_string_free (field, TRUE);
  return records;
}

static gboolean
parse_csv (ZwProfile *prof, Ctx *c, const char *data, gsize len)
{
  static const char *const cols[] = { "op_id", "op_type", "op_name", "total_ms", "memcpy_ms", "hard_ms",
                                      "other_ms", "is_io_process", "merge_from", "backend", "start_ms",
                                      "host_measured_ms" };
  enum { C_ID, C_TYPE, C_NAME, C_TOTAL, C_MEMCPY, C_HARD, C_OTHER, C_IO, C_MERGE, C_BACKEND, C_START, C_MEASURED,
         N_COLS };
  g_autoptr (GPtrArray) records = csv_split (data, len);
  gint idx[N_COLS];
  CsvRecord *head;

  if (records->len == 0)
    return FALSE;
  head = g_ptr_array_index (records, 0);
  for (guint k = 0; k < N_COLS; k++)
    {
      idx[k] = -1;
      for (guint f = 0; f < head->fields->len; f++)
        if (g_str_equal (g_strstrip ((char *) g_ptr_array_index (head->fields, f)), cols[k]))
          idx[k] = (gint) f;
    }
  if (idx[C_ID] < 0 || idx[C_TYPE] < 0 || idx[C_TOTAL] < 0)
    return FALSE;

  for (guint i = 1; i < records->len && c->error == NULL; i++)
    {
      CsvRecord *rec = g_ptr_array_index (records, i);
      const char *v[N_COLS];
      double t[4] = { 0, 0, 0, 0 };
      gint64 id;
      ZwProfileRow *r;
      gboolean ok = TRUE;

      for (guint k = 0; k < N_COLS; k++)
        v[k] = idx[k] >= 0 && (guint) idx[k] < rec->fields->len ? g_ptr_array_index (rec->fields, idx[k]) : "";
      if (!parse_int64 (v[C_ID], &id))
        {
          bad_row (c, rec->line, "field op_id is missing or not an integer");
          break;
        }
      for (guint k = 0; k < 4 && ok; k++)
        if (!parse_number (v[C_TOTAL + k], &t[k]))
          {
            if (k > 0 && !v[C_TOTAL + k][0])
              continue;  /* an absent column or an empty field */
            bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field %s is not a number", id, cols[C_TOTAL + k]);
            ok = FALSE;
          }
      if (!ok)
        break;
      r = zw_profile_add_row (prof, id, v[C_TYPE], v[C_NAME], t[0], t[1], t[2], t[3]);
      if (v[C_IO][0])
        {
          if (parse_bool (v[C_IO], &r->is_io_process))
            r->has_io_process = TRUE;
          else
            bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field is_io_process is not true/false", id);
        }
      if (v[C_MERGE][0])
        {
          g_auto (GStrv) ids = g_strsplit (v[C_MERGE], ";", -1);
          for (guint j = 0; ids[j]; j++)
            {
              gint64 m;
              if (parse_int64 (ids[j], &m))
                g_array_append_val (r->merge_from, m);
              else
                bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field merge_from: \"%s\" is not an op id", id,
                         ids[j]);
            }
        }
      if (v[C_BACKEND][0])
        r->backend = g_strdup (v[C_BACKEND]);
      if (v[C_START][0] && !parse_number (v[C_START], &r->start_ms))
        bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field start_ms is not a number", id);
      if (v[C_MEASURED][0] && (!parse_number (v[C_MEASURED], &r->host_measured_ms) || r->host_measured_ms < 0))
        bad_row (c, rec->line, "op %" G_GINT64_FORMAT ": field host_measured_ms is not a time", id);
    }
  return TRUE;
}

/* Totals computed from the rows, keeping what the file stated. */
static void
fill_missing (ZwProfile *prof, gboolean totals_seen)
{
  g_autoptr (ZwProfile) computed = NULL;

  prof->has_totals = TRUE;
  if (totals_seen && prof->has_summary)
    return;
  computed = profile_copy (prof);
  zw_profile_compute_totals (computed);
  if (!totals_seen)
    {
      prof->total_ms = computed->total_ms;
      prof->total_memcpy_ms = computed->total_memcpy_ms;
      prof->total_hard_ms = computed->total_hard_ms;
      prof->total_other_ms = computed->total_other_ms;
      prof->hardop_total_ms = computed->hardop_total_ms;
      prof->hardop_hard_ms = computed->hardop_hard_ms;
      g_ptr_array_set_size (prof->customops, 0);
      for (guint i = 0; i < computed->customops->len; i++)
        {
          ZwProfileCustomop *x = g_ptr_array_index (computed->customops, i);
          customop_add (prof, x->name, x->total_ms, x->hard_ms);
        }
    }
  prof->has_totals = TRUE;
  if (!prof->has_summary)
    {
      summary_clear (prof);
      for (guint k = 0; k < ZW_PROFILE_N_SUMMARY; k++)
        {
          prof->summary[k].time_ms = computed->summary[k].time_ms;
          prof->summary[k].device = g_strdup (computed->summary[k].device);
        }
      prof->has_summary = TRUE;
    }
}

ZwProfile *
zw_profile_parse (const char *data, gssize length, const char *origin, GPtrArray *warnings,
                  ZwProfileFormat *format_out, GError **error)
{
  g_autoptr (ZwProfile) prof = NULL;
  g_autofree char *copy = NULL;
  Ctx c = { origin ? origin : "(profile)", warnings, NULL };
  const char *p;
  gboolean ok = FALSE, totals_seen = FALSE;
  ZwProfileFormat fmt;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  len = length < 0 ? strlen (data) : (gsize) length;
  copy = g_strndup (data, len);  /* NUL-terminated, and the parsers may edit it */
  len = strlen (copy);
  p = copy;
  if (g_str_has_prefix (p, "\xEF\xBB\xBF"))
    p += 3;
  while (g_ascii_isspace (*p))
    p++;
  prof = zw_profile_new (NULL);

  if (*p == '{' || *p == '[')
    {
      cJSON *root = cJSON_ParseWithLength (p, len - (gsize) (p - copy));
      const cJSON *fmt_name = cJSON_GetObjectItemCaseSensitive (root, "format");
      const cJSON *events = cJSON_IsArray (root) ? root : cJSON_GetObjectItemCaseSensitive (root, "traceEvents");

      if (!root)
        {
          g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE, "%s: not valid JSON (near byte %ld)", c.origin,
                       (long) (cJSON_GetErrorPtr () ? cJSON_GetErrorPtr () - p : 0));
          return NULL;
        }
      if (cJSON_IsArray (events))
        {
          const cJSON *other = cJSON_GetObjectItemCaseSensitive (root, "otherData");
          const cJSON *net = cJSON_GetObjectItemCaseSensitive (other, "network");
          fmt = ZW_PROFILE_FORMAT_TRACE;
          ok = parse_trace (prof, &c, events);
          if (cJSON_IsString (net))
            prof->network = g_strdup (net->valuestring);
        }
      else
        {
          fmt = ZW_PROFILE_FORMAT_JSON;
          if (cJSON_IsString (fmt_name) && !g_str_equal (fmt_name->valuestring, JSON_FORMAT_NAME))
            warn (&c, 0, "format is \"%s\", not \"" JSON_FORMAT_NAME "\"; reading it anyway", fmt_name->valuestring);
          ok = parse_json_ours (prof, &c, root, &totals_seen);
        }
      cJSON_Delete (root);
    }
  else if (g_str_has_prefix (p, "op_id,"))
    {
      fmt = ZW_PROFILE_FORMAT_CSV;
      ok = parse_csv (prof, &c, p, len - (gsize) (p - copy));
    }
  else
    {
      fmt = ZW_PROFILE_FORMAT_VENDOR;
      ok = parse_vendor (prof, &c, p, &totals_seen);
    }
  if (c.error != NULL)
    {
      g_propagate_error (error, c.error);
      return NULL;
    }
  /* empty is refused alike in every format (a header alone, "rows": [], a trace without a
   * complete event, a vendor file of totals or summaries only): compared, an empty profile
   * would show every op of the other as gone rather than fail */
  if (!ok || prof->rows->len == 0)
    {
      g_set_error (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_PARSE,
                   "%s: no time profile in it (no op lines, rows or trace events)", c.origin);
      return NULL;
    }
  if (!totals_seen)
    prof->has_summary = FALSE;
  fill_missing (prof, totals_seen);
  {
    gboolean all_start = TRUE;
    for (guint i = 0; i < prof->rows->len && all_start; i++)
      all_start = ((const ZwProfileRow *) g_ptr_array_index (prof->rows, i))->start_ms >= 0;
    if (all_start)
      zw_profile_order_recorded (prof);
    else
      zw_profile_order_infer (prof);
  }
  zw_profile_check_rows (prof);
  prof->has_host_measured = FALSE;
  prof->host_measured_ms = 0;
  for (guint i = 0; i < prof->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (prof->rows, i);
      if (r->host_measured_ms >= 0)
        {
          prof->has_host_measured = TRUE;
          prof->host_measured_ms += r->host_measured_ms;
        }
    }
  if (format_out)
    *format_out = fmt;
  return g_steal_pointer (&prof);
}

ZwProfile *
zw_profile_load (const char *path, GPtrArray *warnings, ZwProfileFormat *format_out, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autoptr (GError) local = NULL;
  ZwProfile *prof;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_TIME_PROFILE, 0, &data, &len, &local))
    {
      g_set_error_literal (error, ZW_PROFILE_ERROR, ZW_PROFILE_ERROR_IO, local->message);
      return NULL;
    }
  prof = zw_profile_parse (data, (gssize) len, path, warnings, format_out, error);
  if (prof && !prof->network)
    {
      /* "<net>_time.txt" names its network. */
      base = g_path_get_basename (path);
      if (g_str_has_suffix (base, "_time.txt"))
        prof->network = g_strndup (base, strlen (base) - strlen ("_time.txt"));
    }
  return prof;
}

G_DEFINE_BOXED_TYPE (ZwProfile, zw_profile, (GBoxedCopyFunc) zw_profile_copy, (GBoxedFreeFunc) zw_profile_free)

guint
zw_profile_get_n_rows (const ZwProfile *profile)
{
  g_return_val_if_fail (profile != NULL, 0);
  return profile->rows->len;
}

const ZwProfileRow *
zw_profile_get_row (const ZwProfile *profile, guint index)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return index < profile->rows->len ? g_ptr_array_index (profile->rows, index) : NULL;
}
