/* zw-dump-diff.c — per-value error and the first divergent value of two dumps. */
#include "report/zw-dump-diff.h"

#include <math.h>
#include <string.h>

#define VID_FMT "v_id %" G_GINT64_FORMAT

const char *
zw_dump_diff_status_to_string (ZwDumpDiffStatus status)
{
  switch (status)
    {
    case ZW_DUMP_DIFF_COMPARED: return "compared";
    case ZW_DUMP_DIFF_ONLY_A: return "only-a";
    case ZW_DUMP_DIFF_ONLY_B: return "only-b";
    case ZW_DUMP_DIFF_MISMATCH: return "mismatch";
    default: return "?";
    }
}

static void
entry_free (gpointer p)
{
  ZwDumpDiffEntry *e = p;

  g_free (e->origin_a);
  g_free (e->origin_b);
  g_free (e->network);
  g_free (e);
}

void
zw_dump_diff_free (ZwDumpDiff *diff)
{
  if (!diff)
    return;
  g_ptr_array_unref (diff->entries);
  g_ptr_array_unref (diff->warnings);
  g_free (diff->name_a);
  g_free (diff->name_b);
  g_free (diff);
}

void
zw_dump_diff_set_names (ZwDumpDiff *diff, const char *name_a, const char *name_b)
{
  g_return_if_fail (diff != NULL);
  g_free (diff->name_a);
  g_free (diff->name_b);
  diff->name_a = g_strdup (name_a);
  diff->name_b = g_strdup (name_b);
}

static char *
shape_text (guint rank, const gint64 *shape)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < rank; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? "," : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* ---- sides ------------------------------------------------------------------------ */

typedef struct {
  ZwTensor *t;
  gint order;      /* execution order key */
  guint pos;       /* position in its array: ties and the order without a network */
} Item;

static gint
network_order (XirNetwork *network, gint64 v_id)
{
  const XirValue *v = network ? xir_network_get_value (network, v_id) : NULL;

  if (!v)
    return G_MAXINT;
  return v->producer;   /* -1 for values no op produces */
}

/* A value's key: its v_id, or "NET:V_ID" in a pipeline's dump (a v_id of one network). */
static char *
value_key (const char *network, gint64 v_id)
{
  return network != NULL ? g_strdup_printf ("%s:%" G_GINT64_FORMAT, network, v_id)
                         : g_strdup_printf ("%" G_GINT64_FORMAT, v_id);
}

GPtrArray *
zw_dump_diff_load_side (const ZwDumpFolder *folder, XirNetwork *network, GPtrArray *warnings)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) zw_tensor_free);
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
  g_autoptr (GHashTable) manifest_pos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (folder != NULL, out);
  if (warnings)
    for (guint i = 0; i < folder->warnings->len; i++)
      g_ptr_array_add (warnings, g_strdup (g_ptr_array_index (folder->warnings, i)));
  if (folder->manifest)
    for (guint i = 0; i < folder->manifest->entries->len; i++)
      {
        const ZwDumpManifestEntry *e = g_ptr_array_index (folder->manifest->entries, i);
        char *key = value_key (e->network, e->type.v_id);
        if (!g_hash_table_contains (manifest_pos, key))
          g_hash_table_insert (manifest_pos, key, GUINT_TO_POINTER (i + 1));
        else
          g_free (key);
      }

  for (guint i = 0; i < folder->values->len; i++)
    {
      const ZwDumpData *d = g_ptr_array_index (folder->values, i);
      g_autofree char *key = value_key (d->network, d->v_id);
      g_autoptr (GError) error = NULL;
      ZwTensor *t;
      Item it;

      /* a pipeline's value is of its own network, not @network's: its manifest types it */
      XirNetwork *net = d->network == NULL ? network : NULL;

      if (net && folder->manifest)
        {
          /* a manifest types its own files: check they are this network's values */
          const XirValue *v = xir_network_get_value (net, d->v_id);
          const ZwDumpManifestEntry *e = NULL;
          gpointer pos = g_hash_table_lookup (manifest_pos, key);

          if (pos)
            e = g_ptr_array_index (folder->manifest->entries, GPOINTER_TO_UINT (pos) - 1);
          if (!v)
            {
              if (warnings)
                g_ptr_array_add (warnings, g_strdup_printf ("%s: " VID_FMT " is not a value of network %s", d->path,
                                                            d->v_id, xir_network_get_name (net)));
              continue;
            }
          if (e && (e->type.rank != v->rank || memcmp (e->type.shape, v->shape, sizeof (gint64) * v->rank) != 0))
            {
              if (warnings)
                {
                  g_autofree char *ms = shape_text (e->type.rank, e->type.shape);
                  g_autofree char *vs = shape_text (v->rank, v->shape);
                  g_ptr_array_add (warnings, g_strdup_printf ("%s: shape %s does not match " VID_FMT " of network %s %s",
                                                              d->path, ms, d->v_id, xir_network_get_name (net), vs));
                }
              continue;
            }
        }
      t = zw_tensor_new_from_folder (folder, d, net, &error);
      if (!t)
        {
          if (warnings)
            g_ptr_array_add (warnings, g_strdup (error->message));
          continue;
        }
      it.t = t;
      it.pos = i;
      if (net)
        it.order = network_order (net, d->v_id);
      else
        {
          gpointer pos = g_hash_table_lookup (manifest_pos, key);
          it.order = pos ? (gint) GPOINTER_TO_UINT (pos) : G_MAXINT;
        }
      g_array_append_val (items, it);
    }
  /* execution order, then file order (values are sorted by v_id); an insertion sort keeps
   * equal keys stable and the arrays are short (hundreds) */
  for (guint i = 1; i < items->len; i++)
    {
      Item key = g_array_index (items, Item, i);
      guint j = i;
      while (j > 0 && (g_array_index (items, Item, j - 1).order > key.order
                       || (g_array_index (items, Item, j - 1).order == key.order
                           && g_array_index (items, Item, j - 1).pos > key.pos)))
        {
          g_array_index (items, Item, j) = g_array_index (items, Item, j - 1);
          j--;
        }
      g_array_index (items, Item, j) = key;
    }
  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (out, g_array_index (items, Item, i).t);
  return out;
}

/* ---- comparing two tensors ---------------------------------------------------------- */

typedef struct {
  const ZwTensor *a, *b;
  gboolean linear;            /* same layout and shape: element i of A is element i of B */
  ZwDumpDiffEntry *e;
  double dot, aa, bb;
  gint64 first_key;           /* ((n * C + c) * H + h) * W + w of the first difference */
} CmpCtx;

static inline gint64
logical_key (const ZwTensor *t, const gint64 c[4])
{
  return ((c[0] * t->c + c[1]) * t->h + c[2]) * t->w + c[3];
}

static void
cmp_pair (CmpCtx *x, guint64 ia, guint64 ib, const gint64 *coords_in)
{
  float fa = zw_tensor_get_float (x->a, ia);
  float fb = zw_tensor_get_float (x->b, ib);
  ZwDumpDiffEntry *e = x->e;

  e->n_compared++;
  if (isfinite (fa) && isfinite (fb))
    {
      x->dot += (double) fa * fb;
      x->aa += (double) fa * fa;
      x->bb += (double) fb * fb;
    }
  if (fa == fb || (isnan (fa) && isnan (fb)))
    return;
  {
    double err = isfinite (fa) && isfinite (fb) ? fabs ((double) fa - (double) fb) : INFINITY;
    gint64 coords[4];
    gint64 key;

    if (coords_in)
      memcpy (coords, coords_in, sizeof coords);
    else
      zw_tensor_coords_of (x->a, ia, coords);
    e->n_differ++;
    if (e->n_differ == 1 || err > e->max_abs_err)
      {
        e->max_abs_err = err;
        memcpy (e->max_coords, coords, sizeof coords);
      }
    key = logical_key (x->a, coords);
    if (e->n_differ == 1 || key < x->first_key)
      {
        x->first_key = key;
        memcpy (e->first_coords, coords, sizeof coords);
        e->first_a = fa;
        e->first_b = fb;
        e->first_has_q = zw_tensor_get_quantized (x->a, ia, &e->first_qa)
                         && zw_tensor_get_quantized (x->b, ib, &e->first_qb);
      }
  }
}

static void
cmp_run (gpointer user, guint64 start, guint64 len, guint ch, gboolean step)
{
  CmpCtx *x = user;
  const ZwTensor *a = x->a, *b = x->b;

  (void) ch;
  (void) step;
  /* fast path: identical float or 8-bit quantised storage compares bytes first */
  if (a->f_bytes && b->f_bytes && a->f_elem == ZW_TENSOR_F32 && b->f_elem == ZW_TENSOR_F32)
    {
      const guint8 *pa = (const guint8 *) g_bytes_get_data (a->f_bytes, NULL) + start * 4;
      const guint8 *pb = (const guint8 *) g_bytes_get_data (b->f_bytes, NULL) + start * 4;
      if (memcmp (pa, pb, len * 4) == 0)
        {
          for (guint64 j = 0; j < len; j++)
            {
              float f;
              memcpy (&f, pa + j * 4, 4);
              if (isfinite (f))
                {
                  x->dot += (double) f * f;
                  x->aa += (double) f * f;
                  x->bb += (double) f * f;
                }
            }
          x->e->n_compared += len;
          return;
        }
    }
  for (guint64 j = 0; j < len; j++)
    cmp_pair (x, start + j, start + j, NULL);
}

static gboolean
same_storage (const ZwTensor *a, const ZwTensor *b)
{
  return g_str_equal (a->layout, b->layout) && a->rank == b->rank
         && memcmp (a->shape, b->shape, sizeof (gint64) * a->rank) == 0 && a->c == b->c;
}

/* Elements that are not N, C (with its block), H or W: such tensors only compare linearly. */
static gboolean
has_extra_axes (const ZwTensor *t)
{
  guint64 logical = (guint64) t->n * (guint64) t->c_stored * (guint64) t->h * (guint64) t->w;
  return logical != t->n_elements;
}

static void
compare_tensors (const ZwTensor *a, const ZwTensor *b, ZwDumpDiffEntry *e, const ZwDumpDiffOptions *opt,
                 GPtrArray *warnings)
{
  CmpCtx x = { .a = a, .b = b, .e = e };

  if (!same_storage (a, b)
      && (a->n != b->n || a->c != b->c || a->h != b->h || a->w != b->w || has_extra_axes (a) || has_extra_axes (b)))
    {
      g_autofree char *sa = shape_text (a->rank, a->shape);
      g_autofree char *sb = shape_text (b->rank, b->shape);
      e->status = ZW_DUMP_DIFF_MISMATCH;
      g_ptr_array_add (warnings, g_strdup_printf ("%s: " VID_FMT " is %s %s here but %s %s in %s; not compared",
                                                  b->origin, e->v_id, b->layout, sb, a->layout, sa, a->origin));
      return;
    }
  e->status = ZW_DUMP_DIFF_COMPARED;
  if (same_storage (a, b))
    {
      x.linear = TRUE;
      zw_tensor_foreach_run (a, cmp_run, &x);
    }
  else
    {
      /* different layouts (e.g. HQB vs SFB): walk logical coordinates */
      gint64 c[4];
      for (c[0] = 0; c[0] < a->n; c[0]++)
        for (c[1] = 0; c[1] < a->c; c[1]++)
          for (c[2] = 0; c[2] < a->h; c[2]++)
            for (c[3] = 0; c[3] < a->w; c[3]++)
              cmp_pair (&x, (guint64) zw_tensor_index_of (a, c[0], c[1], c[2], c[3]),
                        (guint64) zw_tensor_index_of (b, c[0], c[1], c[2], c[3]), c);
    }
  if (e->n_differ == 0)
    e->cosine = 1.0;
  else if (x.aa == 0 && x.bb == 0)
    e->cosine = 1.0;
  else if (x.aa == 0 || x.bb == 0)
    e->cosine = 0.0;
  else
    e->cosine = x.dot / sqrt (x.aa * x.bb);
  /* a NaN threshold (false in every comparison) makes any difference diverge, never none */
  e->diverges = e->n_differ > 0 && !(e->max_abs_err <= opt->max_abs && e->cosine >= 1.0 - opt->cosine);
}

static gint
entry_cmp (gconstpointer x, gconstpointer y)
{
  const ZwDumpDiffEntry *a = *(ZwDumpDiffEntry *const *) x, *b = *(ZwDumpDiffEntry *const *) y;

  if (a->order != b->order)
    return a->order < b->order ? -1 : 1;
  return 0;
}

ZwDumpDiff *
zw_dump_diff_tensors (GPtrArray *a, GPtrArray *b, XirNetwork *network, const ZwDumpDiffOptions *options,
                      GPtrArray *warnings)
{
  return zw_dump_diff_tensors_full (a, b, network, options, warnings, NULL, NULL, NULL, NULL);
}

static guint64
n_elements (const ZwTensor *t)
{
  return (guint64) MAX (t->n, 0) * (guint64) MAX (t->c, 0) * (guint64) MAX (t->h, 0) * (guint64) MAX (t->w, 0);
}

ZwDumpDiff *
zw_dump_diff_tensors_full (GPtrArray *a, GPtrArray *b, XirNetwork *network, const ZwDumpDiffOptions *options,
                           GPtrArray *warnings, ZwDumpDiffProgressFunc progress, gpointer user_data,
                           GCancellable *cancellable, GError **error)
{
  static const ZwDumpDiffOptions defaults = ZW_DUMP_DIFF_OPTIONS_INIT;
  ZwDumpDiff *d;
  /* by value key: a v_id, or "NET:V_ID" in a pipeline's dump */
  g_autoptr (GHashTable) in_b = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint pos = 0;
  guint64 total = 0, done = 0;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  d = g_new0 (ZwDumpDiff, 1);
  d->options = options ? *options : defaults;
  d->entries = g_ptr_array_new_with_free_func (entry_free);
  d->warnings = g_ptr_array_new_with_free_func (g_free);
  if (warnings)
    for (guint i = 0; i < warnings->len; i++)
      g_ptr_array_add (d->warnings, g_strdup (g_ptr_array_index (warnings, i)));
  for (guint i = 0; i < b->len; i++)
    {
      ZwTensor *t = g_ptr_array_index (b, i);
      char *key = value_key (t->network, t->v_id);
      if (!g_hash_table_contains (in_b, key))
        g_hash_table_insert (in_b, key, t);
      else
        g_free (key);
    }
  /* the work: the elements of A's values that B has too */
  for (guint i = 0; progress != NULL && i < a->len; i++)
    {
      const ZwTensor *t = g_ptr_array_index (a, i);
      g_autofree char *key = value_key (t->network, t->v_id);
      if (g_hash_table_contains (in_b, key))
        total += n_elements (t);
    }
  if (progress != NULL)
    progress (0, total, user_data);

  for (guint side = 0; side < 2; side++)
    {
      GPtrArray *arr = side == 0 ? a : b;
      for (guint i = 0; i < arr->len; i++, pos++)
        {
          const ZwTensor *t = g_ptr_array_index (arr, i);
          char *key = value_key (t->network, t->v_id);
          const ZwTensor *other = side == 0 ? g_hash_table_lookup (in_b, key) : NULL;
          ZwDumpDiffEntry *e;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              g_free (key);
              zw_dump_diff_free (d);
              return NULL;
            }
          if (g_hash_table_contains (seen, key))
            {
              g_free (key);
              continue;   /* already compared from A, or a duplicate */
            }
          g_hash_table_add (seen, key);
          e = g_new0 (ZwDumpDiffEntry, 1);
          e->v_id = t->v_id;
          e->network = g_strdup (t->network);
          e->op_id = t->op_id;
          /* a pipeline's value is of its own network: ordered as its dump lists it */
          e->order = network && t->network == NULL ? network_order (network, t->v_id)
                                                   : (gint) MIN (pos, (guint) G_MAXINT - 1);
          if (network && t->network == NULL && e->op_id < 0 && e->order >= 0 && e->order != G_MAXINT)
            e->op_id = xir_network_get_op (network, (guint) e->order)->op_id;
          e->shape[0] = t->n;
          e->shape[1] = t->c;
          e->shape[2] = t->h;
          e->shape[3] = t->w;
          e->cosine = 1.0;
          if (side == 0)
            e->origin_a = g_strdup (t->origin);
          else
            e->origin_b = g_strdup (t->origin);
          if (side == 1)
            {
              e->status = ZW_DUMP_DIFF_ONLY_B;
              d->n_only_b++;
            }
          else if (!other)
            {
              e->status = ZW_DUMP_DIFF_ONLY_A;
              d->n_only_a++;
            }
          else
            {
              e->origin_b = g_strdup (other->origin);
              compare_tensors (t, other, e, &d->options, d->warnings);
              done += n_elements (t);
              if (progress != NULL)
                progress (MIN (done, total), total, user_data);
              if (e->status == ZW_DUMP_DIFF_MISMATCH)
                d->n_mismatch++;
              else
                {
                  d->n_compared++;
                  d->n_diverged += e->diverges;
                }
            }
          g_ptr_array_add (d->entries, e);
        }
    }
  /* g_ptr_array_sort is not stable: the position breaks ties */
  {
    guint n = d->entries->len;
    for (guint i = 1; i < n; i++)
      {
        gpointer key = g_ptr_array_index (d->entries, i);
        guint j = i;
        while (j > 0 && entry_cmp (&d->entries->pdata[j - 1], &key) > 0)
          {
            d->entries->pdata[j] = d->entries->pdata[j - 1];
            j--;
          }
        d->entries->pdata[j] = key;
      }
  }
  for (guint i = 0; i < d->entries->len && !d->first; i++)
    {
      const ZwDumpDiffEntry *e = g_ptr_array_index (d->entries, i);
      if (e->diverges)
        d->first = e;
    }
  return d;
}

ZwDumpDiff *
zw_dump_diff_folders (const char *dir_a, const char *dir_b, XirNetwork *network, const char *format,
                      const ZwDumpDiffOptions *options, GError **error)
{
  g_autoptr (ZwDumpFolder) fa = NULL, fb = NULL;
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) ta = NULL, tb = NULL;
  ZwDumpDiff *diff;

  g_return_val_if_fail (dir_a != NULL && dir_b != NULL, NULL);
  fa = zw_dump_folder_load (dir_a, network, format, error);
  if (!fa)
    return NULL;
  fb = zw_dump_folder_load (dir_b, network, format, error);
  if (!fb)
    return NULL;
  ta = zw_dump_diff_load_side (fa, network, warnings);
  tb = zw_dump_diff_load_side (fb, network, warnings);
  diff = zw_dump_diff_tensors (ta, tb, network, options, warnings);
  zw_dump_diff_set_names (diff, dir_a, dir_b);
  return diff;
}

/* ---- JSON ---------------------------------------------------------------------------- */

static cJSON *
coords_json (const gint64 c[4])
{
  cJSON *o = cJSON_CreateObject ();
  cJSON_AddNumberToObject (o, "n", (double) c[0]);
  cJSON_AddNumberToObject (o, "c", (double) c[1]);
  cJSON_AddNumberToObject (o, "h", (double) c[2]);
  cJSON_AddNumberToObject (o, "w", (double) c[3]);
  return o;
}

/* JSON has no inf or NaN: those become strings */
static void
add_number (cJSON *o, const char *key, double v)
{
  if (isfinite (v))
    cJSON_AddNumberToObject (o, key, v);
  else
    cJSON_AddStringToObject (o, key, isnan (v) ? "nan" : v > 0 ? "inf" : "-inf");
}

static cJSON *
entry_json (const ZwDumpDiffEntry *e)
{
  cJSON *o = cJSON_CreateObject ();
  cJSON *shape = cJSON_AddArrayToObject (o, "shape");

  cJSON_AddNumberToObject (o, "v_id", (double) e->v_id);
  if (e->network != NULL)
    cJSON_AddStringToObject (o, "network", e->network);
  cJSON_AddNumberToObject (o, "op_id", (double) e->op_id);
  cJSON_AddNumberToObject (o, "order", e->order == G_MAXINT ? -2 : e->order);
  cJSON_AddStringToObject (o, "status", zw_dump_diff_status_to_string (e->status));
  for (guint i = 0; i < 4; i++)
    cJSON_AddItemToArray (shape, cJSON_CreateNumber ((double) e->shape[i]));
  if (e->origin_a)
    cJSON_AddStringToObject (o, "file_a", e->origin_a);
  if (e->origin_b)
    cJSON_AddStringToObject (o, "file_b", e->origin_b);
  if (e->status != ZW_DUMP_DIFF_COMPARED)
    return o;
  cJSON_AddNumberToObject (o, "compared", (double) e->n_compared);
  cJSON_AddNumberToObject (o, "differ", (double) e->n_differ);
  add_number (o, "max_abs_err", e->max_abs_err);
  add_number (o, "cosine", e->cosine);
  cJSON_AddBoolToObject (o, "diverges", e->diverges);
  if (e->n_differ > 0)
    {
      cJSON *first = coords_json (e->first_coords);
      add_number (first, "a", e->first_a);
      add_number (first, "b", e->first_b);
      if (e->first_has_q)
        {
          cJSON_AddNumberToObject (first, "qa", (double) e->first_qa);
          cJSON_AddNumberToObject (first, "qb", (double) e->first_qb);
        }
      cJSON_AddItemToObject (o, "first", first);
      cJSON_AddItemToObject (o, "max_at", coords_json (e->max_coords));
    }
  return o;
}

cJSON *
zw_dump_diff_to_json (const ZwDumpDiff *diff)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *opts = cJSON_AddObjectToObject (root, "options");
  cJSON *counts = cJSON_AddObjectToObject (root, "counts");
  cJSON *warnings = NULL, *values = NULL;

  g_return_val_if_fail (diff != NULL, root);
  cJSON_AddStringToObject (root, "format", "zhuge-dump-diff");
  cJSON_AddNumberToObject (root, "version", 1);
  cJSON_AddNumberToObject (opts, "max_abs", diff->options.max_abs);
  cJSON_AddNumberToObject (opts, "cosine", diff->options.cosine);
  if (diff->first)
    cJSON_AddItemToObject (root, "first", entry_json (diff->first));
  else
    cJSON_AddNullToObject (root, "first");
  cJSON_AddNumberToObject (counts, "compared", diff->n_compared);
  cJSON_AddNumberToObject (counts, "diverged", diff->n_diverged);
  cJSON_AddNumberToObject (counts, "only_a", diff->n_only_a);
  cJSON_AddNumberToObject (counts, "only_b", diff->n_only_b);
  cJSON_AddNumberToObject (counts, "mismatch", diff->n_mismatch);
  warnings = cJSON_AddArrayToObject (root, "warnings");
  for (guint i = 0; i < diff->warnings->len; i++)
    cJSON_AddItemToArray (warnings, cJSON_CreateString (g_ptr_array_index (diff->warnings, i)));
  values = cJSON_AddArrayToObject (root, "values");
  for (guint i = 0; i < diff->entries->len; i++)
    cJSON_AddItemToArray (values, entry_json (g_ptr_array_index (diff->entries, i)));
  return root;
}
