/* xir-summary.c — network summary as a JSON report model. */
#include "xir/xir-summary.h"

#include <string.h>

char *
xir_value_describe_dtype (const XirValue *v)
{
  g_autofree char *storage = xir_scalar_type_to_string (&v->element.storage);

  const XirElementType *e = &v->element;
  g_autoptr (GString) s = g_string_new (storage);

  if (e->quantized)
    g_string_append_printf (s, " quantized (axis %d, %u %sscales)", e->scale_axis, e->n_scales,
                            e->scale_mantissas ? "exponent " : "");
  if (e->n_norm_ratios > 0)
    g_string_append_printf (s, " normalized (axis %d, %u norm ratios)", e->norm_axis, e->n_norm_ratios);
  if (e->kind == XIR_ELEMENT_CALIBRATED)
    g_string_append_printf (s, " calibrated (%u channels)", e->n_calibrated);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
xir_value_describe_mtype (const XirValue *v)
{
  switch (v->mtype.kind)
    {
    case XIR_MEM_CHUNK:
      return g_strdup_printf ("chunk %" G_GINT64_FORMAT "@%" G_GUINT64_FORMAT, v->mtype.chunk_id, v->mtype.offset);
    case XIR_MEM_HOST:
      return g_strdup ("host");
    case XIR_MEM_ETM:
    case XIR_MEM_OCM:
      return g_strdup_printf ("%s 0x%" G_GINT64_MODIFIER "x", xir_mem_kind_to_string (v->mtype.kind), v->mtype.addr);
    default:
      return g_strdup ("?");
    }
}

static void
count_key (cJSON *obj, const char *key)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);

  if (item == NULL)
    cJSON_AddNumberToObject (obj, key, 1);
  else
    cJSON_SetNumberValue (item, item->valuedouble + 1);
}

static cJSON *
describe_values (GPtrArray *values)
{
  cJSON *arr = cJSON_CreateArray ();

  for (guint i = 0; i < values->len; i++)
    {
      XirValue *v = g_ptr_array_index (values, i);
      cJSON *o = cJSON_CreateObject ();
      cJSON *shape = cJSON_AddArrayToObject (o, "shape");
      g_autofree char *dtype = xir_value_describe_dtype (v);
      g_autofree char *mtype = xir_value_describe_mtype (v);

      cJSON_AddNumberToObject (o, "v_id", (double) v->v_id);
      for (guint k = 0; k < v->rank; k++)
        cJSON_AddItemToArray (shape, cJSON_CreateNumber ((double) v->shape[k]));
      cJSON_AddStringToObject (o, "dtype", dtype);
      cJSON_AddStringToObject (o, "layout", v->layout.text);
      cJSON_AddStringToObject (o, "mtype", mtype);
      cJSON_AddNumberToObject (o, "bytes", (double) v->storage_bytes);
      cJSON_AddItemToArray (arr, o);
    }
  return arr;
}

/* Ops by compile target: {"@buyit": 85, "@hostt": 2, …}. */
static cJSON *
summarize_targets (const XirNetwork *net)
{
  cJSON *t = cJSON_CreateObject ();

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      count_key (t, op->target.text && *op->target.text ? op->target.text : "(none)");
    }
  return t;
}

/* Where the compiler put the values: in chunks to be placed at deploy (ZG330), or at
 * addresses it chose itself (@etm(addr), @ocm(addr): Buyi), or on the host. */
static cJSON *
summarize_placement (GPtrArray *vals, GPtrArray *pars)
{
  cJSON *p = cJSON_CreateObject ();
  guint64 n[4] = { 0 }, bytes[4] = { 0 };
  const char *names[4] = { "chunk", "host", "etm", "ocm" };

  for (int set = 0; set < 2; set++)
    {
      GPtrArray *a = set == 0 ? vals : pars;
      for (guint i = 0; i < a->len; i++)
        {
          const XirValue *v = g_ptr_array_index (a, i);
          guint k = v->mtype.kind == XIR_MEM_CHUNK ? 0 : v->mtype.kind == XIR_MEM_HOST ? 1
                  : v->mtype.kind == XIR_MEM_ETM ? 2 : 3;
          n[k]++;
          bytes[k] += v->storage_bytes;
        }
    }
  for (guint k = 0; k < 4; k++)
    {
      g_autofree char *key = g_strdup_printf ("%s_bytes", names[k]);
      cJSON_AddNumberToObject (p, names[k], (double) n[k]);
      cJSON_AddNumberToObject (p, key, (double) bytes[k]);
    }
  return p;
}

static gint
compare_by_number (gconstpointer a, gconstpointer b)
{
  double x = (*(const cJSON *const *) a)->valuedouble, y = (*(const cJSON *const *) b)->valuedouble;
  return (x > y) - (x < y);
}

/* The segments a compiler placed itself, from the network's tags
 * ("ftmp_segment_addr", "ftmp_segment_bytesize" …), in address order. */
static cJSON *
summarize_segments (const XirNetwork *net)
{
  const cJSON *tags = xir_network_get_tags (net), *t;
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  cJSON *arr = cJSON_CreateArray ();

  cJSON_ArrayForEach (t, tags)
    {
      if (t->string && g_str_has_suffix (t->string, "_segment_addr") && cJSON_IsNumber (t))
        g_ptr_array_add (list, (gpointer) t);
    }
  g_ptr_array_sort (list, compare_by_number);
  for (guint i = 0; i < list->len; i++)
    {
      const cJSON *addr = g_ptr_array_index (list, i);
      g_autofree char *name = g_strndup (addr->string, strlen (addr->string) - strlen ("_segment_addr"));
      g_autofree char *size_key = g_strdup_printf ("%s_segment_bytesize", name);
      const cJSON *size = cJSON_GetObjectItemCaseSensitive (tags, size_key);
      cJSON *o = cJSON_CreateObject ();
      g_autofree char *upper = g_ascii_strup (name, -1);
      cJSON_AddStringToObject (o, "name", upper);
      cJSON_AddNumberToObject (o, "addr", addr->valuedouble);
      cJSON_AddNumberToObject (o, "bytes", cJSON_IsNumber (size) ? size->valuedouble : 0);
      cJSON_AddItemToArray (arr, o);
    }
  return arr;
}

/* Custom ops with their attributes (ImageMake, DetPost, DetPostZG …). */
static cJSON *
summarize_custom_ops (const XirNetwork *net)
{
  cJSON *arr = cJSON_CreateArray ();

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      cJSON *o;
      if (op->kind != XIR_OP_CUSTOM)
        continue;
      o = cJSON_CreateObject ();
      cJSON_AddNumberToObject (o, "op_id", (double) op->op_id);
      cJSON_AddStringToObject (o, "type", op->type_key);
      cJSON_AddStringToObject (o, "target", op->target.text ? op->target.text : "");
      cJSON_AddItemToObject (o, "attrs", cJSON_Duplicate (op->attrs, TRUE));
      cJSON_AddItemToArray (arr, o);
    }
  return arr;
}

cJSON *
xir_network_summarize (const XirNetwork *net)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_CreateObject ();
  cJSON *by_kind = cJSON_CreateObject ();
  cJSON *classes = cJSON_CreateObject ();
  cJSON *values = cJSON_CreateObject ();
  cJSON *chunks = cJSON_CreateObject ();
  cJSON *params = cJSON_CreateObject ();
  GPtrArray *vals = xir_network_get_values (net);
  GPtrArray *pars = xir_network_get_params (net);
  GPtrArray *chs = xir_network_get_chunks (net);
  guint64 bytes = 0, layers = 0, feature_bytes = 0, n_feature = 0, n_params_chunks = 0, instr_count = 0;

  g_return_val_if_fail (net != NULL, NULL);
  cJSON_AddStringToObject (root, "name", xir_network_get_name (net));
  cJSON_AddStringToObject (root, "ai_target", xir_network_get_ai_target (net));
  cJSON_AddStringToObject (root, "framework_kind", xir_network_get_framework_kind (net));
  cJSON_AddStringToObject (root, "framework_version", xir_network_get_framework_version (net));
  cJSON_AddStringToObject (root, "icraft_version", xir_network_get_icraft_version (net));
  cJSON_AddStringToObject (root, "icraft_xir_version", xir_network_get_icraft_xir_version (net));
  cJSON_AddNumberToObject (root, "params_bytes", (double) xir_network_get_params_bytes (net));
  cJSON_AddStringToObject (root, "params_md5", xir_network_get_params_md5 (net) ? xir_network_get_params_md5 (net) : "");
  cJSON_AddBoolToObject (root, "params_loaded", xir_network_has_params (net));

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);

      switch (op->kind)
        {
        case XIR_OP_HARDOP:
          count_key (by_kind, "HardOp");
          count_key (classes, op->hard_class);
          layers += (guint64) op->layer_count;
          break;
        case XIR_OP_INPUT:
        case XIR_OP_OUTPUT:
          count_key (by_kind, xir_op_kind_to_string (op->kind));
          break;
        default:
          count_key (by_kind, op->type_key);
          break;
        }
    }
  cJSON_AddNumberToObject (ops, "total", xir_network_get_n_ops (net));
  cJSON_AddItemToObject (ops, "by_kind", by_kind);
  cJSON_AddItemToObject (ops, "hardop_classes", classes);
  cJSON_AddNumberToObject (ops, "layers", (double) layers);
  cJSON_AddItemToObject (root, "ops", ops);

  for (guint i = 0; i < vals->len; i++)
    bytes += ((XirValue *) g_ptr_array_index (vals, i))->storage_bytes;
  cJSON_AddNumberToObject (values, "count", vals->len);
  cJSON_AddNumberToObject (values, "bytes", (double) bytes);
  cJSON_AddItemToObject (root, "values", values);

  for (guint i = 0; i < chs->len; i++)
    {
      XirChunk *c = g_ptr_array_index (chs, i);
      if (c->is_params)
        n_params_chunks++;
      else
        {
          n_feature++;
          feature_bytes += c->size;
        }
    }
  cJSON_AddNumberToObject (chunks, "feature", (double) n_feature);
  cJSON_AddNumberToObject (chunks, "feature_bytes", (double) feature_bytes);
  cJSON_AddNumberToObject (chunks, "params", (double) n_params_chunks);
  cJSON_AddItemToObject (root, "chunks", chunks);

  bytes = 0;
  for (guint i = 0; i < pars->len; i++)
    {
      XirValue *p = g_ptr_array_index (pars, i);
      bytes += p->storage_bytes;
      if (p->element.storage.kind == XIR_SCALAR_UINT && p->element.storage.bits == 64)
        instr_count++;
    }
  cJSON_AddNumberToObject (params, "count", pars->len);
  cJSON_AddNumberToObject (params, "bytes", (double) bytes);
  cJSON_AddNumberToObject (params, "instr_count", (double) instr_count);
  cJSON_AddNumberToObject (params, "instr_words", (double) xir_network_get_total_instr_words (net));
  cJSON_AddItemToObject (root, "params", params);

  cJSON_AddItemToObject (root, "targets", summarize_targets (net));
  cJSON_AddItemToObject (root, "placement", summarize_placement (vals, pars));
  cJSON_AddItemToObject (root, "segments", summarize_segments (net));
  cJSON_AddItemToObject (root, "custom_ops", summarize_custom_ops (net));
  cJSON_AddItemToObject (root, "inputs", describe_values (xir_network_get_inputs (net)));
  cJSON_AddItemToObject (root, "outputs", describe_values (xir_network_get_outputs (net)));
  return root;
}
