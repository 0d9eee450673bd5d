/* zw-profile.c — the time-profile model: rows, checks, execution order, totals, copy.
 * The file formats are apart: zw-profile-{vendor,json,csv,trace}.c, read and written through
 * zw-profile-file.c (see zw-profile.h). */
#include "report/zw-profile-private.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (zw-profile-error-quark, zw_profile_error)

const char *const zw_profile_summary_names[ZW_PROFILE_N_SUMMARY] = { "input", "icore", "output", "cpu" };

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

void
zw_profile_summary_clear (ZwProfile *p)
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
  zw_profile_summary_clear (profile);
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

ZwProfileCustomop *
zw_profile_customop_add (ZwProfile *p, const char *name, double total, double hard)
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
            c = zw_profile_customop_add (profile, cname, 0, 0);
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
  zw_profile_summary_clear (profile);
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
  return zw_profile_summary_names[kind];
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

ZwProfile *
zw_profile_copy_rows (const ZwProfile *src)
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
  p = zw_profile_copy_rows (src);
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
      zw_profile_customop_add (p, c->name, c->total_ms, c->hard_ms);
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
