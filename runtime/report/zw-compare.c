/* zw-compare.c — per-op deltas of two time profiles; two deploy reports side by side; two
 * compiles of one model aligned op by op. */
#include "report/zw-compare.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

void
zw_compare_row_free (ZwCompareRow *r)
{
  if (r == NULL)
    return;
  g_free (r->network);
  g_free (r->op_type);
  g_free (r->op_name);
  g_free (r->op_class);
  g_array_unref (r->merge_from);
  g_free (r);
}

void
zw_profile_compare_free (ZwProfileCompare *cmp)
{
  if (!cmp)
    return;
  g_ptr_array_unref (cmp->rows);
  g_free (cmp->plan_network);
  g_free (cmp);
}

static double
ratio_of (double a, double b)
{
  if (a == 0)
    return b == 0 ? 1.0 : INFINITY;
  return b / a;
}

static gboolean
same_merge (const ZwProfileRow *a, const ZwProfileRow *b)
{
  if (a->merge_from->len == 0 || b->merge_from->len == 0)
    return TRUE;   /* one side does not know (a vendor text file): the op id decides */
  return a->merge_from->len == b->merge_from->len
         && memcmp (a->merge_from->data, b->merge_from->data, sizeof (gint64) * a->merge_from->len) == 0;
}

static ZwCompareRow *
row_new (const ZwProfileRow *src)
{
  ZwCompareRow *r = g_new0 (ZwCompareRow, 1);

  r->op_id = src->op_id;
  r->op_type = g_strdup (src->op_type ? src->op_type : "");
  r->op_name = g_strdup (src->op_name ? src->op_name : "");
  r->merge_from = g_array_copy (src->merge_from);
  r->ratio = NAN;
  return r;
}

static gboolean
merge_has (const ZwProfileRow *merged, gint64 op_id)
{
  for (guint k = 0; k < merged->merge_from->len; k++)
    if (g_array_index (merged->merge_from, gint64, k) == op_id)
      return TRUE;
  return FALSE;
}

/* Rows of @x (not yet matched, not merged themselves) that are members of @merged, a launch
 * of the other side: merge on against merge off. Marks them in @group_of with @id. */
static guint
map_members (const ZwProfileRow *merged, const ZwProfile *x, const gint *match_x, gint *group_of, gint id)
{
  guint n = 0;

  for (guint i = 0; i < x->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (x->rows, i);
      if (match_x[i] < 0 && group_of[i] < 0 && r->merge_from->len == 0 && merge_has (merged, r->op_id))
        {
          group_of[i] = id;
          n++;
        }
    }
  return n;
}

static const char *
row_kind (const ZwProfileRow *r)
{
  return r->op_type != NULL ? r->op_type : "";
}

/* A hardop launch: one of many of one kind, told apart by op id only. */
static gboolean
row_is_hardop (const ZwProfileRow *r)
{
  return r->op_type != NULL && g_str_has_suffix (r->op_type, "HardOpNode");
}

/* Two compiles number their ops differently: the rows still unmatched are aligned by op kind
 * in execution order (a longest common subsequence of their op types).  @all_kinds FALSE
 * leaves hardop launches out (ids that mostly match tell them apart; only the other ops,
 * one of a kind — DetPost, ImageMake — are aligned by kind). */
static guint
match_by_kind (const ZwProfile *a, const ZwProfile *b, gint *match_a, gint *match_b, const gint *group_a,
               const gint *group_b, gboolean all_kinds)
{
  g_autoptr (GArray) ia = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) ib = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *len = NULL;
  guint n, m, i, j, matched = 0;

  for (i = 0; i < a->rows->len; i++)
    if (match_a[i] < 0 && group_a[i] < 0 && (all_kinds || !row_is_hardop (g_ptr_array_index (a->rows, i))))
      g_array_append_val (ia, i);
  for (j = 0; j < b->rows->len; j++)
    if (match_b[j] < 0 && group_b[j] < 0 && (all_kinds || !row_is_hardop (g_ptr_array_index (b->rows, j))))
      g_array_append_val (ib, j);
  n = ia->len;
  m = ib->len;
  if (n == 0 || m == 0 || (guint64) (n + 1) * (m + 1) > 16u * 1024 * 1024)
    return 0;
  len = g_new0 (guint, (gsize) (n + 1) * (m + 1));
#define L(x, y) len[(gsize) (x) * (m + 1) + (y)]
  for (i = n; i-- > 0;)
    for (j = m; j-- > 0;)
      {
        const ZwProfileRow *ra = g_ptr_array_index (a->rows, g_array_index (ia, guint, i));
        const ZwProfileRow *rb = g_ptr_array_index (b->rows, g_array_index (ib, guint, j));
        L (i, j) = g_strcmp0 (row_kind (ra), row_kind (rb)) == 0 ? L (i + 1, j + 1) + 1
                                                                   : MAX (L (i + 1, j), L (i, j + 1));
      }
  for (i = 0, j = 0; i < n && j < m;)
    {
      guint x = g_array_index (ia, guint, i), y = g_array_index (ib, guint, j);
      if (g_strcmp0 (row_kind (g_ptr_array_index (a->rows, x)), row_kind (g_ptr_array_index (b->rows, y))) == 0)
        {
          match_a[x] = (gint) y;
          match_b[y] = (gint) x;
          matched++;
          i++;
          j++;
        }
      else if (L (i + 1, j) >= L (i, j + 1))
        i++;
      else
        j++;
    }
#undef L
  return matched;
}

static void
row_set_a (ZwCompareRow *r, const ZwProfileRow *ar)
{
  r->a_ms += ar->total_ms;
  r->a_hard_ms += ar->hard_ms;
  r->a_memcpy_ms += ar->memcpy_ms;
  r->a_other_ms += ar->other_ms;
}

static void
row_set_b (ZwCompareRow *r, const ZwProfileRow *br)
{
  r->b_ms += br->total_ms;
  r->b_hard_ms += br->hard_ms;
  r->b_memcpy_ms += br->memcpy_ms;
  r->b_other_ms += br->other_ms;
}

static void
row_finish_both (ZwProfileCompare *c, ZwCompareRow *r)
{
  r->side = ZW_COMPARE_BOTH;
  r->delta_ms = r->b_ms - r->a_ms;
  r->ratio = ratio_of (r->a_ms, r->b_ms);
  /* written so that a NaN threshold (which compares false with everything) finds every
   * slower op a regression, rather than none: it cannot turn a CI gate off */
  r->regression = !(r->ratio <= 1.0 + c->options.tolerance) && !(r->delta_ms <= c->options.min_delta_ms);
  r->improvement = r->ratio < 1.0 / (1.0 + c->options.tolerance) && -r->delta_ms > c->options.min_delta_ms;
  c->n_matched++;
  c->n_regressions += r->regression;
  c->n_improvements += r->improvement;
}

ZwProfileCompare *
zw_profile_compare (const ZwProfile *a, const ZwProfile *b, const ZwCompareOptions *options)
{
  static const ZwCompareOptions defaults = ZW_COMPARE_OPTIONS_INIT;
  ZwProfileCompare *c;
  g_autoptr (GHashTable) by_id = NULL;   /* op_id -> GArray of B row indices, in order */
  g_autofree gint *match_a = NULL, *match_b = NULL;   /* the other side's row, -1 */
  g_autofree gint *group_a = NULL, *group_b = NULL;   /* a member of the other side's launch row, -1 */
  g_autofree gboolean *emitted_b = NULL;               /* a B launch row already made (its A members) */
  guint n_by_id = 0;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  c = g_new0 (ZwProfileCompare, 1);
  c->options = options ? *options : defaults;
  c->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_compare_row_free);
  by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  match_a = g_new (gint, MAX (a->rows->len, 1));
  group_a = g_new (gint, MAX (a->rows->len, 1));
  match_b = g_new (gint, MAX (b->rows->len, 1));
  group_b = g_new (gint, MAX (b->rows->len, 1));
  emitted_b = g_new0 (gboolean, MAX (b->rows->len, 1));
  for (guint i = 0; i < a->rows->len; i++)
    match_a[i] = group_a[i] = -1;
  for (guint i = 0; i < b->rows->len; i++)
    {
      const ZwProfileRow *br = g_ptr_array_index (b->rows, i);
      GArray *list = g_hash_table_lookup (by_id, &br->op_id);
      match_b[i] = group_b[i] = -1;
      if (!list)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_id, g_memdup2 (&br->op_id, sizeof (gint64)), list);
        }
      g_array_append_val (list, i);
    }

  /* 1. by op id: the first unused B row with this op id (and merge group) */
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *ar = g_ptr_array_index (a->rows, i);
      GArray *list = g_hash_table_lookup (by_id, &ar->op_id);

      for (guint k = 0; list && k < list->len && match_a[i] < 0; k++)
        {
          guint j = g_array_index (list, guint, k);
          if (match_b[j] < 0 && same_merge (ar, g_ptr_array_index (b->rows, j)))
            {
              match_b[j] = (gint) i;
              match_a[i] = (gint) j;
              n_by_id++;
            }
        }
    }
  /* 2. a merged launch of one side against its members on the other (merge on vs off) */
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *ar = g_ptr_array_index (a->rows, i);
      if (match_a[i] < 0 && ar->merge_from->len > 0 && map_members (ar, b, match_b, group_b, (gint) i) > 0)
        c->n_merge_mapped++;
    }
  for (guint j = 0; j < b->rows->len; j++)
    {
      const ZwProfileRow *br = g_ptr_array_index (b->rows, j);
      if (match_b[j] < 0 && group_b[j] < 0 && br->merge_from->len > 0
          && map_members (br, a, match_a, group_a, (gint) j) > 0)
        c->n_merge_mapped++;
    }
  /* 3. op ids that mostly differ (two compiles, e.g. two vendor time files): by kind and
   * order; else the ops that are not hardops still unmatched (a DetPost, an ImageMake
   * renumbered between two time files) by kind and order */
  c->n_kind_matched = match_by_kind (a, b, match_a, match_b, group_a, group_b,
                                     n_by_id * 2 < MIN (a->rows->len, b->rows->len));

  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *ar = g_ptr_array_index (a->rows, i);
      ZwCompareRow *r;

      if (group_a[i] >= 0)
        {
          /* a member of B's launch: the launch's row is made at its first member, with the
           * members' times summed on A's side */
          guint j = (guint) group_a[i];
          const ZwProfileRow *br = g_ptr_array_index (b->rows, j);
          if (emitted_b[j])
            continue;
          emitted_b[j] = TRUE;
          r = row_new (br);
          r->match = ZW_COMPARE_MATCH_MERGE;
          r->b_op_id = br->op_id;
          for (guint k = i; k < a->rows->len; k++)
            if (group_a[k] == (gint) j)
              row_set_a (r, g_ptr_array_index (a->rows, k));
          row_set_b (r, br);
          row_finish_both (c, r);
        }
      else
        {
          r = row_new (ar);
          r->b_op_id = ar->op_id;
          row_set_a (r, ar);
          if (match_a[i] >= 0)
            {
              const ZwProfileRow *br = g_ptr_array_index (b->rows, match_a[i]);
              r->match = br->op_id == ar->op_id ? ZW_COMPARE_MATCH_ID : ZW_COMPARE_MATCH_KIND;
              r->b_op_id = br->op_id;
              row_set_b (r, br);
              row_finish_both (c, r);
              if (r->merge_from->len == 0 && br->merge_from->len > 0)
                g_array_append_vals (r->merge_from, br->merge_from->data, br->merge_from->len);
            }
          else
            {
              gboolean grouped = FALSE;
              for (guint j = 0; j < b->rows->len; j++)
                if (group_b[j] == (gint) i)
                  {
                    row_set_b (r, g_ptr_array_index (b->rows, j));
                    grouped = TRUE;
                  }
              if (grouped)
                {
                  r->match = ZW_COMPARE_MATCH_MERGE;
                  row_finish_both (c, r);
                }
              else
                {
                  r->side = ZW_COMPARE_ONLY_A;
                  r->delta_ms = -r->a_ms;
                  c->n_only_a++;
                }
            }
        }
      c->a_total_ms += r->a_ms;
      c->b_total_ms += r->b_ms;
      c->a_hard_ms += r->a_hard_ms;
      c->b_hard_ms += r->b_hard_ms;
      r->order = c->rows->len;
      g_ptr_array_add (c->rows, r);
    }
  for (guint j = 0; j < b->rows->len; j++)
    if (match_b[j] < 0 && group_b[j] < 0 && !emitted_b[j])
      {
        const ZwProfileRow *br = g_ptr_array_index (b->rows, j);
        ZwCompareRow *r = row_new (br);

        r->side = ZW_COMPARE_ONLY_B;
        r->b_op_id = br->op_id;
        row_set_b (r, br);
        r->delta_ms = r->b_ms;
        c->n_only_b++;
        c->b_total_ms += r->b_ms;
        c->b_hard_ms += r->b_hard_ms;
        r->order = c->rows->len;
      g_ptr_array_add (c->rows, r);
      }
  c->delta_ms = c->b_total_ms - c->a_total_ms;
  c->ratio = ratio_of (c->a_total_ms, c->b_total_ms);
  for (guint i = 0; i < a->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (a->rows, i);
      if (r->host_measured_ms >= 0)
        {
          c->a_has_host_measured = TRUE;
          c->a_host_measured_ms += r->host_measured_ms;
        }
    }
  for (guint i = 0; i < b->rows->len; i++)
    {
      const ZwProfileRow *r = g_ptr_array_index (b->rows, i);
      if (r->host_measured_ms >= 0)
        {
          c->b_has_host_measured = TRUE;
          c->b_host_measured_ms += r->host_measured_ms;
        }
    }
  return c;
}

static void
csv_field (GString *s, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (s, text);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static void
csv_number (GString *s, double v)
{
  if (isnan (v))
    return;   /* empty = unknown, as in our profile CSV */
  if (isinf (v))
    g_string_append (s, v > 0 ? "inf" : "-inf");
  else
    {
      /* the shortest decimal that reads back as the same double, as the profile files */
      g_autofree char *text = zw_profile_format_number (v, FALSE);
      g_string_append (s, text);
    }
}

char *
zw_profile_compare_to_csv (const ZwProfileCompare *cmp)
{
  static const char *sides[] = { "both", "a", "b" };
  GString *s = g_string_new ("op_id,op_type,op_name,merge_from,side,a_ms,b_ms,delta_ms,ratio,a_hard_ms,b_hard_ms,"
                             "regression\r\n");

  g_return_val_if_fail (cmp != NULL, g_string_free (s, FALSE));
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompareRow *r = g_ptr_array_index (cmp->rows, i);

      if (r->network != NULL)
        {
          /* a pipeline's op: NET:OP_ID */
          g_autofree char *name = g_strdup_printf ("%s:%" G_GINT64_FORMAT, r->network, r->op_id);
          csv_field (s, name);
          g_string_append_c (s, ',');
        }
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT ",", r->op_id);
      csv_field (s, r->op_type);
      g_string_append_c (s, ',');
      csv_field (s, r->op_name);
      g_string_append_c (s, ',');
      for (guint k = 0; k < r->merge_from->len; k++)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, k ? ";" : "", g_array_index (r->merge_from, gint64, k));
      g_string_append_printf (s, ",%s,", sides[r->side]);
      csv_number (s, r->side == ZW_COMPARE_ONLY_B ? NAN : r->a_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_A ? NAN : r->b_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->delta_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->ratio);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_B ? NAN : r->a_hard_ms);
      g_string_append_c (s, ',');
      csv_number (s, r->side == ZW_COMPARE_ONLY_A ? NAN : r->b_hard_ms);
      g_string_append_printf (s, ",%s\r\n", r->regression ? "true" : "false");
    }
  return g_string_free (s, FALSE);
}

/* ---- two compiles of one model ------------------------------------------------------ */

static const struct {
  const char *key;
  const char *label;
  ZwCompileUnit unit;
} total_meta[ZW_COMPILE_N_TOTALS] = {
  [ZW_COMPILE_TOTAL_ETM_WEIGHT] = { "etm.weight", N_("ETM WEIGHT"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_ETM_INSTR] = { "etm.instr", N_("ETM INSTR"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_ETM_FTMP] = { "etm.ftmp", N_("ETM FTMP"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_ETM_INPUT] = { "etm.input", N_("ETM INPUT"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_ETM_OUTPUT] = { "etm.output", N_("ETM OUTPUT"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_ETM_ALL] = { "etm.total", N_("ETM total"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_OCM_BYTES] = { "ocm.bytes", N_("OCM placed over time"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_OCM_PEAK] = { "ocm.peak", N_("OCM peak"), ZW_COMPILE_UNIT_BYTES },
  [ZW_COMPILE_TOTAL_HARDOPS] = { "hardops", N_("Hardops"), ZW_COMPILE_UNIT_COUNT },
  [ZW_COMPILE_TOTAL_LAUNCHES] = { "launches", N_("Launches"), ZW_COMPILE_UNIT_COUNT },
  [ZW_COMPILE_TOTAL_TIME] = { "time.total", N_("Simulated time"), ZW_COMPILE_UNIT_MS },
  [ZW_COMPILE_TOTAL_HARD_TIME] = { "time.hard", N_("Hard time"), ZW_COMPILE_UNIT_MS },
  [ZW_COMPILE_TOTAL_MEMCPY_TIME] = { "time.memcpy", N_("Memcpy time"), ZW_COMPILE_UNIT_MS },
  [ZW_COMPILE_TOTAL_OTHER_TIME] = { "time.other", N_("Other time"), ZW_COMPILE_UNIT_MS },
};

gboolean
zw_compile_logical_nchw (const gint64 *shape, guint rank, const char *layout, gint64 out[4])
{
  static const char axes[] = "NCHW";
  gint64 nchw[4] = { 1, 1, 1, 1 };
  const char *p = layout;
  guint dim = 0;

  for (guint k = 0; k < 4; k++)
    out[k] = -1;
  if (shape == NULL || layout == NULL)
    return FALSE;
  if (g_str_has_prefix (p, "@layout("))
    p += strlen ("@layout(");
  while (*p != '\0' && *p != ')')
    {
      char axis = *p++;
      const char *which;

      if (!g_ascii_isalpha (axis) && axis != '*')
        return FALSE;
      while (g_ascii_isdigit (*p))   /* a block's size: the shape says it too */
        p++;
      if (dim >= rank)
        return FALSE;
      which = axis != '*' ? strchr (axes, g_ascii_toupper (axis)) : NULL;
      if (which != NULL)
        nchw[which - axes] *= shape[dim];
      dim++;
    }
  if (dim != rank || dim == 0)
    return FALSE;
  memcpy (out, nchw, sizeof nchw);
  return TRUE;
}

/* One hardop of a compile, with what the alignment and the rows need. */
typedef struct {
  const ZwOpInfo *op;
  const ZwValueInfo *out;     /* first output, NULL when the report has none */
  gint64 nchw[4];
  gboolean known;
} CompileOp;

static GArray *
compile_ops (const ZwDeployReport *r)
{
  GArray *ops = g_array_new (FALSE, TRUE, sizeof (CompileOp));
  g_autoptr (GHashTable) first_out = g_hash_table_new (g_int64_hash, g_int64_equal);

  /* values are listed by producer in output order: the first one seen is the first output */
  for (guint i = 0; i < r->values->len; i++)
    {
      const ZwValueInfo *v = &g_array_index (r->values, ZwValueInfo, i);
      if (v->producer >= 0 && !g_hash_table_contains (first_out, &v->producer))
        g_hash_table_insert (first_out, (gpointer) &v->producer, (gpointer) v);
    }
  for (guint i = 0; i < r->ops->len; i++)
    {
      const ZwOpInfo *o = &g_array_index (r->ops, ZwOpInfo, i);
      CompileOp c = { 0 };

      if (g_strcmp0 (o->kind, "HardOp") != 0)
        continue;
      c.op = o;
      c.out = g_hash_table_lookup (first_out, &o->op_id);
      c.known = c.out != NULL && zw_compile_logical_nchw ((const gint64 *) c.out->shape->data, c.out->shape->len,
                                                          c.out->layout, c.nchw);
      if (!c.known)
        for (guint k = 0; k < 4; k++)
          c.nchw[k] = -1;
      g_array_append_val (ops, c);
    }
  return ops;
}

static gboolean
compile_ops_match (const CompileOp *x, const CompileOp *y)
{
  if (g_strcmp0 (x->op->op_class, y->op->op_class) != 0 || x->known != y->known)
    return FALSE;
  if (x->known)
    return memcmp (x->nchw, y->nchw, sizeof x->nchw) == 0;
  /* no logical shape: the stored shapes must be the same (or both absent) */
  if ((x->out == NULL) != (y->out == NULL))
    return FALSE;
  return x->out == NULL
         || (x->out->shape->len == y->out->shape->len
             && memcmp (x->out->shape->data, y->out->shape->data, sizeof (gint64) * x->out->shape->len) == 0);
}

/* op id -> profile row; a merged launch's row is found by its own (merged) op id */
static GHashTable *
profile_index (const ZwProfile *p)
{
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; p != NULL && i < p->rows->len; i++)
    {
      ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      if (!g_hash_table_contains (index, &row->op_id))
        g_hash_table_insert (index, &row->op_id, row);
    }
  return index;
}

/* The profile row of a launch of several ops when it is not under the launch's op id (a
 * file that numbered it otherwise): the row whose merge_from is the launch's. */
static const ZwProfileRow *
profile_find_launch (const ZwProfile *p, const ZwLaunch *l)
{
  for (guint i = 0; p != NULL && i < p->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      if (row->merge_from->len == l->merge_from->len && l->merge_from->len > 0
          && memcmp (row->merge_from->data, l->merge_from->data, sizeof (gint64) * l->merge_from->len) == 0)
        return row;
    }
  return NULL;
}

static void
op_side_fill (ZwCompileOpSide *s, const CompileOp *c, const ZwDeployReport *r, const ZwProfile *p,
              GHashTable *rows)
{
  const ZwProfileRow *row = NULL;
  const ZwLaunch *launch = NULL;

  s->present = TRUE;
  s->op_id = c->op->op_id;
  s->index = c->op->index;
  memcpy (s->nchw, c->nchw, sizeof s->nchw);
  s->v_id = c->out != NULL ? c->out->v_id : -1;
  s->layout = c->out != NULL ? g_strdup (c->out->layout) : NULL;
  s->out_bytes = c->out != NULL ? c->out->byte_size : 0;
  s->place = c->out == NULL ? ZW_COMPILE_PLACE_NONE
             : c->out->is_host ? ZW_COMPILE_PLACE_HOST
             : c->out->is_ocm  ? ZW_COMPILE_PLACE_OCM
                               : ZW_COMPILE_PLACE_ETM;
  s->launch_op_id = -1;
  s->ms = s->hard_ms = NAN;
  if (c->op->launch >= 0 && (guint) c->op->launch < r->launches->len)
    {
      launch = &g_array_index (r->launches, ZwLaunch, c->op->launch);
      s->launch_op_id = launch->op_id;
      s->merged = launch->merge_from->len > 1;
      s->launch_first = s->merged && g_array_index (launch->merge_from, gint64, 0) == c->op->op_id;
    }
  if (p == NULL)
    return;
  if (!s->merged)
    row = g_hash_table_lookup (rows, &s->op_id);
  else if (s->launch_first)
    {
      row = g_hash_table_lookup (rows, &s->launch_op_id);
      if (row == NULL)
        row = profile_find_launch (p, launch);
    }
  if (row != NULL)
    {
      s->ms = row->total_ms;
      s->hard_ms = row->hard_ms;
    }
}

static void
op_row_free (gpointer data)
{
  ZwCompileOpRow *row = data;

  g_free (row->op_class);
  g_free (row->a.layout);
  g_free (row->b.layout);
  g_free (row);
}

static void
compile_info_init (ZwCompileInfo *info, const ZwDeployReport *r, const ZwProfile *p)
{
  info->network = g_strdup (r->network_name != NULL ? r->network_name : "");
  info->path = g_strdup (r->network_path);
  info->device_url = g_strdup (r->device_url != NULL ? r->device_url : "");
  info->merge_hardop = r->merge_hardop;
  info->etm_optimize = r->etm_optimize;
  info->ocm_chosen = r->ocm_chosen;
  info->ocm_capacity = r->ocm_capacity;
  info->has_profile = p != NULL;
  for (guint i = 0; i < r->ops->len && info->chip == NULL; i++)
    {
      const ZwOpInfo *o = &g_array_index (r->ops, ZwOpInfo, i);
      if (g_strcmp0 (o->kind, "HardOp") == 0 && o->backend != NULL && *o->backend != '\0')
        info->chip = g_strdup (o->backend);
    }
  if (info->chip == NULL)
    info->chip = g_strdup ("?");
}

static void
compile_info_clear (ZwCompileInfo *info)
{
  g_clear_pointer (&info->network, g_free);
  g_clear_pointer (&info->path, g_free);
  g_clear_pointer (&info->chip, g_free);
  g_clear_pointer (&info->device_url, g_free);
}

/* The totals of one side, by ZwCompileTotalKind (NaN: no figure). */
static void
compile_totals (const ZwDeployReport *r, const ZwProfile *p, double out[ZW_COMPILE_N_TOTALS])
{
  guint64 etm = 0, ocm = 0, peak = 0;
  guint n_hardops = 0, n_live;
  g_autofree guint64 *live = NULL;

  for (guint s = 0; s < ZW_N_SEGMENTS; s++)
    {
      out[ZW_COMPILE_TOTAL_ETM_WEIGHT + s] = (double) r->segments[s].byte_size;
      etm += r->segments[s].byte_size;
    }
  out[ZW_COMPILE_TOTAL_ETM_ALL] = (double) etm;
  for (guint i = 0; i < r->chunks->len; i++)
    {
      const ZwChunkInfo *c = &g_array_index (r->chunks, ZwChunkInfo, i);
      if (c->in_ocm)
        ocm += c->size;
    }
  live = zw_deploy_report_live_bytes (r, TRUE, &n_live);
  for (guint i = 0; i < r->ops->len; i++)
    {
      peak = MAX (peak, live[i]);
      n_hardops += g_strcmp0 (g_array_index (r->ops, ZwOpInfo, i).kind, "HardOp") == 0;
    }
  out[ZW_COMPILE_TOTAL_OCM_BYTES] = (double) ocm;
  out[ZW_COMPILE_TOTAL_OCM_PEAK] = (double) peak;
  out[ZW_COMPILE_TOTAL_HARDOPS] = n_hardops;
  out[ZW_COMPILE_TOTAL_LAUNCHES] = r->launches->len;
  if (p == NULL)
    {
      out[ZW_COMPILE_TOTAL_TIME] = out[ZW_COMPILE_TOTAL_HARD_TIME] = NAN;
      out[ZW_COMPILE_TOTAL_MEMCPY_TIME] = out[ZW_COMPILE_TOTAL_OTHER_TIME] = NAN;
      return;
    }
  if (p->has_totals)
    {
      out[ZW_COMPILE_TOTAL_TIME] = p->total_ms;
      out[ZW_COMPILE_TOTAL_HARD_TIME] = p->total_hard_ms;
      out[ZW_COMPILE_TOTAL_MEMCPY_TIME] = p->total_memcpy_ms;
      out[ZW_COMPILE_TOTAL_OTHER_TIME] = p->total_other_ms;
      return;
    }
  out[ZW_COMPILE_TOTAL_TIME] = out[ZW_COMPILE_TOTAL_HARD_TIME] = 0;
  out[ZW_COMPILE_TOTAL_MEMCPY_TIME] = out[ZW_COMPILE_TOTAL_OTHER_TIME] = 0;
  for (guint i = 0; i < p->rows->len; i++)
    {
      const ZwProfileRow *row = g_ptr_array_index (p->rows, i);
      out[ZW_COMPILE_TOTAL_TIME] += row->total_ms;
      out[ZW_COMPILE_TOTAL_HARD_TIME] += row->hard_ms;
      out[ZW_COMPILE_TOTAL_MEMCPY_TIME] += row->memcpy_ms;
      out[ZW_COMPILE_TOTAL_OTHER_TIME] += row->other_ms;
    }
}

ZwCompileCompare *
zw_compare_compiles (const ZwDeployReport *a, const ZwProfile *pa, const ZwDeployReport *b, const ZwProfile *pb)
{
  ZwCompileCompare *c;
  g_autoptr (GArray) ops_a = NULL, ops_b = NULL;
  g_autoptr (GHashTable) rows_a = NULL, rows_b = NULL;
  g_autofree guint *lcs = NULL;
  double ta[ZW_COMPILE_N_TOTALS], tb[ZW_COMPILE_N_TOTALS];
  guint n, m, i, j;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  c = g_new0 (ZwCompileCompare, 1);
  compile_info_init (&c->a, a, pa);
  compile_info_init (&c->b, b, pb);
  compile_totals (a, pa, ta);
  compile_totals (b, pb, tb);
  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++)
    {
      ZwCompileTotal *t = &c->totals[k];
      t->kind = (ZwCompileTotalKind) k;
      t->key = total_meta[k].key;
      t->label = total_meta[k].label;
      t->unit = total_meta[k].unit;
      t->a = ta[k];
      t->b = tb[k];
      t->ratio = isnan (t->a) || isnan (t->b) ? NAN : ratio_of (t->a, t->b);
    }

  /* longest common subsequence of the two hardop sequences (a few hundred ops: the
   * (n+1) x (m+1) table is small) */
  ops_a = compile_ops (a);
  ops_b = compile_ops (b);
  n = ops_a->len;
  m = ops_b->len;
  c->n_hardops_a = n;
  c->n_hardops_b = m;
  lcs = g_new0 (guint, (gsize) (n + 1) * (m + 1));
#define LCS(x, y) lcs[(gsize) (x) * (m + 1) + (y)]
  for (i = n; i-- > 0;)
    for (j = m; j-- > 0;)
      LCS (i, j) = compile_ops_match (&g_array_index (ops_a, CompileOp, i), &g_array_index (ops_b, CompileOp, j))
                       ? LCS (i + 1, j + 1) + 1
                       : MAX (LCS (i + 1, j), LCS (i, j + 1));

  rows_a = profile_index (pa);
  rows_b = profile_index (pb);
  c->rows = g_ptr_array_new_with_free_func (op_row_free);
  i = j = 0;
  while (i < n || j < m)
    {
      const CompileOp *x = i < n ? &g_array_index (ops_a, CompileOp, i) : NULL;
      const CompileOp *y = j < m ? &g_array_index (ops_b, CompileOp, j) : NULL;
      ZwCompileOpRow *row = g_new0 (ZwCompileOpRow, 1);

      row->a.v_id = row->b.v_id = -1;
      row->a.launch_op_id = row->b.launch_op_id = -1;
      row->a.ms = row->a.hard_ms = row->b.ms = row->b.hard_ms = NAN;
      for (guint k = 0; k < 4; k++)
        row->a.nchw[k] = row->b.nchw[k] = -1;
      if (x != NULL && y != NULL && compile_ops_match (x, y) && LCS (i, j) == LCS (i + 1, j + 1) + 1)
        {
          row->side = ZW_COMPARE_BOTH;
          op_side_fill (&row->a, x, a, pa, rows_a);
          op_side_fill (&row->b, y, b, pb, rows_b);
          c->n_aligned++;
          i++;
          j++;
        }
      else if (y == NULL || (x != NULL && LCS (i + 1, j) >= LCS (i, j + 1)))
        {
          /* A's op first: ops only in A come before B's at a tie (A is the reference) */
          row->side = ZW_COMPARE_ONLY_A;
          op_side_fill (&row->a, x, a, pa, rows_a);
          c->n_only_a++;
          i++;
        }
      else
        {
          row->side = ZW_COMPARE_ONLY_B;
          op_side_fill (&row->b, y, b, pb, rows_b);
          c->n_only_b++;
          j++;
        }
      row->op_class = g_strdup (row->a.present ? g_array_index (ops_a, CompileOp, i - 1).op->op_class
                                               : g_array_index (ops_b, CompileOp, j - 1).op->op_class);
      g_ptr_array_add (c->rows, row);
    }
#undef LCS
  return c;
}

void
zw_compile_compare_free (ZwCompileCompare *cmp)
{
  if (cmp == NULL)
    return;
  compile_info_clear (&cmp->a);
  compile_info_clear (&cmp->b);
  g_clear_pointer (&cmp->rows, g_ptr_array_unref);
  g_free (cmp);
}

char *
zw_compile_info_label (const ZwCompileInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);
  return g_strdup_printf ("%s (%s)", info->network != NULL ? info->network : "", info->chip != NULL ? info->chip : "?");
}

const char *
zw_compile_place_to_string (ZwCompilePlace place)
{
  switch (place)
    {
    case ZW_COMPILE_PLACE_ETM: return "ETM";
    case ZW_COMPILE_PLACE_OCM: return "OCM";
    case ZW_COMPILE_PLACE_HOST: return "host";
    case ZW_COMPILE_PLACE_NONE:
    default: return "";
    }
}

static cJSON *
json_number (double v)
{
  if (isnan (v))
    return cJSON_CreateNull ();
  if (isinf (v))
    return cJSON_CreateString (v > 0 ? "inf" : "-inf");
  return cJSON_CreateNumber (v);
}

static cJSON *
info_to_json (const ZwCompileInfo *info)
{
  cJSON *o = cJSON_CreateObject ();

  cJSON_AddStringToObject (o, "network", info->network);
  if (info->path != NULL)
    cJSON_AddStringToObject (o, "path", info->path);
  else
    cJSON_AddNullToObject (o, "path");
  cJSON_AddStringToObject (o, "chip", info->chip);
  cJSON_AddStringToObject (o, "device", info->device_url);
  cJSON_AddBoolToObject (o, "merge_hardop", info->merge_hardop);
  cJSON_AddBoolToObject (o, "etm_optimize", info->etm_optimize);
  cJSON_AddStringToObject (o, "ocm_chosen", zw_ocm_opt_to_string (info->ocm_chosen));
  cJSON_AddNumberToObject (o, "ocm_capacity", (double) info->ocm_capacity);
  cJSON_AddBoolToObject (o, "has_profile", info->has_profile);
  return o;
}

static cJSON *
op_side_to_json (const ZwCompileOpSide *s)
{
  cJSON *o = cJSON_CreateObject ();
  cJSON *nchw = cJSON_CreateArray ();

  cJSON_AddNumberToObject (o, "op_id", (double) s->op_id);
  cJSON_AddNumberToObject (o, "index", s->index);
  cJSON_AddNumberToObject (o, "v_id", (double) s->v_id);
  for (guint k = 0; k < 4; k++)
    cJSON_AddItemToArray (nchw, cJSON_CreateNumber ((double) s->nchw[k]));
  cJSON_AddItemToObject (o, "nchw", nchw);
  if (s->layout != NULL)
    cJSON_AddStringToObject (o, "layout", s->layout);
  else
    cJSON_AddNullToObject (o, "layout");
  cJSON_AddStringToObject (o, "place", zw_compile_place_to_string (s->place));
  cJSON_AddNumberToObject (o, "out_bytes", (double) s->out_bytes);
  cJSON_AddBoolToObject (o, "merged", s->merged);
  cJSON_AddBoolToObject (o, "launch_first", s->launch_first);
  cJSON_AddNumberToObject (o, "launch_op_id", (double) s->launch_op_id);
  cJSON_AddItemToObject (o, "ms", json_number (s->ms));
  cJSON_AddItemToObject (o, "hard_ms", json_number (s->hard_ms));
  return o;
}

cJSON *
zw_compile_compare_to_json (const ZwCompileCompare *cmp)
{
  static const char *units[] = { "bytes", "count", "ms" };
  static const char *sides[] = { "both", "a", "b" };
  cJSON *root, *totals, *ops;

  g_return_val_if_fail (cmp != NULL, NULL);
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", "zhuge-compile-compare");
  cJSON_AddNumberToObject (root, "version", 1);
  cJSON_AddItemToObject (root, "a", info_to_json (&cmp->a));
  cJSON_AddItemToObject (root, "b", info_to_json (&cmp->b));
  totals = cJSON_AddArrayToObject (root, "totals");
  for (guint k = 0; k < ZW_COMPILE_N_TOTALS; k++)
    {
      const ZwCompileTotal *t = &cmp->totals[k];
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "key", t->key);
      cJSON_AddStringToObject (o, "label", t->label);
      cJSON_AddStringToObject (o, "unit", units[t->unit]);
      cJSON_AddItemToObject (o, "a", json_number (t->a));
      cJSON_AddItemToObject (o, "b", json_number (t->b));
      cJSON_AddItemToObject (o, "ratio", json_number (t->ratio));
      cJSON_AddItemToArray (totals, o);
    }
  cJSON_AddNumberToObject (root, "n_aligned", cmp->n_aligned);
  cJSON_AddNumberToObject (root, "n_only_a", cmp->n_only_a);
  cJSON_AddNumberToObject (root, "n_only_b", cmp->n_only_b);
  ops = cJSON_AddArrayToObject (root, "ops");
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const ZwCompileOpRow *row = g_ptr_array_index (cmp->rows, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "side", sides[row->side]);
      cJSON_AddStringToObject (o, "class", row->op_class != NULL ? row->op_class : "");
      if (row->a.present)
        cJSON_AddItemToObject (o, "a", op_side_to_json (&row->a));
      if (row->b.present)
        cJSON_AddItemToObject (o, "b", op_side_to_json (&row->b));
      cJSON_AddItemToArray (ops, o);
    }
  return root;
}
