/* netgen-json.c — the built graph as the vendor's JSON: values, params, HardOps, DetPost and
 * io ops, keys sorted. */
#include "netgen-private.h"

static const char *const class_names[] = {
  [NG_CONV] = "icraft::xir::Conv2dNode",
  [NG_CAST] = "icraft::xir::CastNode",
  [NG_UPSAMPLE] = "icraft::xir::UpsampleNode",
  [NG_ADD] = "icraft::xir::AddNode",
  [NG_MAXPOOL] = "icraft::xir::MaxPool2dNode",
  [NG_RESHAPE] = "icraft::xir::ReshapeNode",
  [NG_CONCAT] = "icraft::xir::ConcatNode",
};

/* ---- JSON ------------------------------------------------------------------- */

static gboolean
format_float_prec (char *buf, gsize size, float f, int prec)
{
  char fmt[8];

  g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
  g_ascii_formatd (buf, size, fmt, f);
  return (float) g_ascii_strtod (buf, NULL) == f;
}

/* Shortest text that reads back as the same float, as the vendor prints scales.
 * If p digits read back so do p + 1, so search from 6 in the right direction
 * (random scales need 7-9 digits; 9 always suffice). */
static void
append_float (GString *s, float f)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int prec = 6;

  if (format_float_prec (buf, sizeof buf, f, prec))
    {
      while (prec > 1 && format_float_prec (buf, sizeof buf, f, prec - 1))
        prec--;
      format_float_prec (buf, sizeof buf, f, prec);
    }
  else
    while (!format_float_prec (buf, sizeof buf, f, ++prec))
      ;
  g_string_append (s, buf);
}

/* "@scales([axis=A]...)" with runs of equal values written "N*v". */
static char *
format_scales (gint axis, const float *values, guint n)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "@scales([axis=%d]", axis);
  for (guint i = 0; i < n;)
    {
      guint run = 1;

      while (i + run < n && values[i + run] == values[i])
        run++;
      if (i > 0)
        g_string_append_c (s, ',');
      if (run > 1)
        g_string_append_printf (s, "%u*", run);
      append_float (s, values[i]);
      i += run;
    }
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

static cJSON *
quantized_type (char *scale_text)
{
  cJSON *q = cJSON_CreateObject ();

  cJSON_AddStringToObject (q, "_type_key", "icraft::xir::QuantizedType");
  cJSON_AddStringToObject (q, "expressed_dtype", "@fp(32)");
  cJSON_AddStringToObject (q, "scale", scale_text);
  cJSON_AddStringToObject (q, "storage_dtype", "@sint(8)");
  cJSON_AddItemToObject (q, "zero_points", cJSON_CreateArray ());
  g_free (scale_text);
  return q;
}

static cJSON *
distr (guint axis_a, guint axis_b, guint valid)
{
  char *text = g_strdup_printf ("@merged_distr([%u, %u]^ZERO:{v:[0, %u)})", axis_a, axis_b, valid);
  cJSON *s = cJSON_CreateString (text);

  g_free (text);
  return s;
}

static cJSON *
tensor_type (cJSON *element, const char *layout, cJSON *distrs, const gint64 *shape, guint rank)
{
  cJSON *t = cJSON_CreateObject ();
  cJSON *dims = cJSON_CreateArray ();
  char *layout_text = g_strdup_printf ("@layout(%s)", layout);

  for (guint i = 0; i < rank; i++)
    cJSON_AddItemToArray (dims, cJSON_CreateNumber ((double) shape[i]));
  cJSON_AddStringToObject (t, "_type_key", "icraft::xir::TensorType");
  cJSON_AddItemToObject (t, "element_dtype", element);
  cJSON_AddStringToObject (t, "layout", layout_text);
  cJSON_AddItemToObject (t, "merged_distrs", distrs);
  cJSON_AddItemToObject (t, "shape", dims);
  g_free (layout_text);
  return t;
}

static void
add_chunk_mtype (cJSON *obj, gint64 chunk, guint64 offset)
{
  char *text = g_strdup_printf ("@chunk(%" G_GINT64_FORMAT "@%" G_GUINT64_FORMAT ")", chunk, offset);

  cJSON_AddStringToObject (obj, "mtype", text);
  g_free (text);
}

static cJSON *
value_json (NgGraph *g, gint index)
{
  const NgValue *v = VAL (g, index);
  cJSON *obj = cJSON_CreateObject ();
  cJSON *element, *distrs = cJSON_CreateArray ();
  gint64 shape[5];
  guint rank;
  char layout[16];

  if (v->layout == NG_LAYOUT_NHWC)
    {
      gint64 s[4] = { 1, v->height, v->width, v->channels };
      memcpy (shape, s, sizeof s);
      rank = 4;
      g_strlcpy (layout, "NHWC", sizeof layout);
    }
  else
    {
      gint64 s[5] = { 1, v->channels / v->block, v->height, v->width, v->block };
      memcpy (shape, s, sizeof s);
      rank = 5;
      g_snprintf (layout, sizeof layout, v->layout == NG_LAYOUT_STAR_C ? "*C**c%u" : "NCHWc%u",
                  v->block);
      cJSON_AddItemToArray (distrs, distr (1, 4, v->channels));
    }
  if (v->quantized)
    {
      float *scales = g_new (float, v->channels);

      for (guint i = 0; i < v->channels; i++)
        scales[i] = v->scale;
      element = quantized_type (format_scales (-1, scales, v->channels));
      g_free (scales);
    }
  else
    element = cJSON_CreateString ("@uint(8)");

  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::Value");
  cJSON_AddItemToObject (obj, "dtype", tensor_type (element, layout, distrs, shape, rank));
  if (v->host)
    cJSON_AddStringToObject (obj, "mtype", "@hostm");
  else
    add_chunk_mtype (obj, v->chunk, v->offset);
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddItemToObject (obj, "tags", cJSON_CreateObject ());
  cJSON_AddNumberToObject (obj, "v_id", (double) v->v_id);
  return obj;
}

static cJSON *
params_json (gint64 v_id, const char *name, cJSON *dtype, gint64 chunk, guint64 offset)
{
  cJSON *obj = cJSON_CreateObject ();

  cJSON_AddBoolToObject (obj, "_allow_no_data", FALSE);
  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::Params");
  cJSON_AddItemToObject (obj, "dtype", dtype);
  add_chunk_mtype (obj, chunk, offset);
  cJSON_AddStringToObject (obj, "name", name);
  cJSON_AddItemToObject (obj, "tags", cJSON_CreateObject ());
  cJSON_AddNumberToObject (obj, "v_id", (double) v_id);
  return obj;
}

static cJSON *
values_json (NgGraph *g, const gint *values, guint n)
{
  cJSON *array = cJSON_CreateArray ();

  for (guint i = 0; i < n; i++)
    cJSON_AddItemToArray (array, value_json (g, values[i]));
  return array;
}

static void
add_conv_params (const NgOp *op, cJSON *params)
{
  guint i_dim = op->depthwise ? 1 : op->cin;
  gint64 wshape[6] = { op->cout / op->ob, i_dim / op->ib, op->kernel, op->kernel, op->ob, op->ib };
  gint64 bshape[2] = { op->cout / op->ob, op->ob };
  guint64 weight_bytes = (guint64) op->cout * i_dim * op->kernel * op->kernel;
  char layout[32];
  cJSON *distrs = cJSON_CreateArray ();

  cJSON_AddItemToArray (distrs, distr (1, 5, i_dim));
  cJSON_AddItemToArray (distrs, distr (0, 4, op->cout));
  g_snprintf (layout, sizeof layout, "OIHWo%ui%u", op->ob, op->ib);
  cJSON_AddItemToArray (params,
                        params_json (op->weight_vid, "",
                                     tensor_type (quantized_type (format_scales (4, op->wscales, op->cout)),
                                                  layout, distrs, wshape, 6),
                                     op->params_chunk, 0));
  g_snprintf (layout, sizeof layout, "Oo%u", op->ob);
  /* The bias follows the weights in the same chunk. */
  cJSON_AddItemToArray (params,
                        params_json (op->bias_vid, "",
                                     tensor_type (cJSON_CreateString ("@fp(16)"), layout,
                                                  cJSON_CreateArray (), bshape, 2),
                                     op->params_chunk, weight_bytes));
}

static cJSON *
hardop_json (NgGraph *g, const NgOp *op)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON *instr = cJSON_CreateArray (), *params = cJSON_CreateArray ();
  cJSON *origin = cJSON_CreateArray (), *tags = cJSON_CreateObject (), *rs;
  gint64 words = (gint64) op->instr_words;
  char *instr_name = g_strdup_printf ("%" G_GINT64_FORMAT "_instr", op->op_id);

  cJSON_AddStringToObject (obj, "_type_key", "icraft::xir::HardOp");
  cJSON_AddStringToObject (obj, "compile_target", "@zhuget(330)");
  cJSON_AddItemToObject (obj, "device_info", cJSON_CreateObject ());
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddItemToArray (instr,
                        params_json (op->instr_vid, instr_name,
                                     tensor_type (cJSON_CreateString ("@uint(64)"), "*",
                                                  cJSON_CreateArray (), &words, 1),
                                     g->instr_chunk, 0));
  cJSON_AddItemToObject (obj, "instr", instr);
  cJSON_AddNumberToObject (obj, "layer_count", ng_op_is_zero_copy (op) ? 0 : 1);
  cJSON_AddStringToObject (obj, "name", class_names[op->cls]);
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToArray (origin, cJSON_CreateNumber ((double) op->origin[0]));
  if (op->fused_act)
    cJSON_AddItemToArray (origin, cJSON_CreateNumber ((double) op->origin[1]));
  cJSON_AddItemToObject (obj, "origin_ops_id", origin);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  if (op->cls == NG_CONV)
    add_conv_params (op, params);
  cJSON_AddItemToObject (obj, "params", params);
  cJSON_AddItemToObject (obj, "sub_hard_ops", cJSON_CreateArray ());
  rs = cJSON_CreateArray ();
  cJSON_AddItemToArray (rs, cJSON_CreateNumber (0));
  cJSON_AddItemToArray (rs, cJSON_CreateNumber (op->read_state));
  cJSON_AddItemToObject (tags, "ReadState", rs);
  if (op->io_process)
    cJSON_AddBoolToObject (tags, "io_process", TRUE);
  cJSON_AddItemToObject (obj, "tags", tags);
  g_free (instr_name);
  return obj;
}

static cJSON *
detpost_json (NgGraph *g, const NgOp *op)
{
  static const int data_thr[3] = { -15, -18, -19 };
  cJSON *obj = cJSON_CreateObject ();
  cJSON *tags = cJSON_CreateObject ();

  /* The attributes of the real yolov5s's DetPostZG. */
  cJSON_AddStringToObject (obj, "_type_key", "customop::DetPostZG");
  cJSON_AddNumberToObject (obj, "anchor_num", 3);
  cJSON_AddNumberToObject (obj, "chn_1st", 2);
  cJSON_AddNumberToObject (obj, "chn_2nd", 0);
  cJSON_AddNumberToObject (obj, "chn_3rd", 0);
  cJSON_AddNumberToObject (obj, "cmp_chn", 1);
  cJSON_AddNumberToObject (obj, "cmp_en", 1);
  cJSON_AddNumberToObject (obj, "cmp_mask0", -17);
  cJSON_AddNumberToObject (obj, "cmp_mask1", -1);
  cJSON_AddStringToObject (obj, "compile_target", "@fpgat");
  cJSON_AddItemToObject (obj, "data_thr", cJSON_CreateIntArray (data_thr, 3));
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddNumberToObject (obj, "layer_en", 1);
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  cJSON_AddNumberToObject (obj, "reg_base", 0);
  cJSON_AddNumberToObject (obj, "sleep_time", 0);
  cJSON_AddBoolToObject (tags, "input_etm", TRUE);
  cJSON_AddBoolToObject (tags, "output_etm", FALSE);
  cJSON_AddItemToObject (obj, "tags", tags);
  /* A float attribute: the vendor writes the float32 widened to double. */
  cJSON_AddNumberToObject (obj, "thr_f", (double) 0.1f);
  cJSON_AddNumberToObject (obj, "valid_chn", 3);
  return obj;
}

static cJSON *
io_op_json (NgGraph *g, const NgOp *op, gboolean detpost)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON *tags = cJSON_CreateObject ();

  cJSON_AddStringToObject (obj, "_type_key",
                           op->kind == NG_OP_INPUT ? "icraft::xir::Input" : "icraft::xir::Output");
  cJSON_AddStringToObject (obj, "compile_target", "@hostt");
  cJSON_AddItemToObject (obj, "inputs", values_json (g, op->inputs, op->n_inputs));
  cJSON_AddStringToObject (obj, "name", "");
  cJSON_AddNumberToObject (obj, "op_id", (double) op->op_id);
  cJSON_AddItemToObject (obj, "outputs", values_json (g, op->outputs, op->n_outputs));
  if (op->kind == NG_OP_OUTPUT && detpost)
    cJSON_AddBoolToObject (tags, "detpost", TRUE);
  cJSON_AddItemToObject (obj, "tags", tags);
  return obj;
}

static int
compare_keys (const void *a, const void *b)
{
  return strcmp ((*(cJSON *const *) a)->string, (*(cJSON *const *) b)->string);
}

/* The vendor writes every object's keys in byte order; sort ours the same way so a
 * file diff against a real network shows only real differences. */
static void
json_sort_keys (cJSON *item)
{
  cJSON *children[64];
  guint n = 0;

  for (cJSON *c = item->child; c != NULL; c = c->next)
    json_sort_keys (c);
  if (!cJSON_IsObject (item) || item->child == NULL)
    return;
  for (cJSON *c = item->child; c != NULL; c = c->next)
    {
      g_assert (n < G_N_ELEMENTS (children));
      children[n++] = c;
    }
  qsort (children, n, sizeof children[0], compare_keys);
  for (guint i = 0; i < n; i++)
    {
      /* cJSON lists: head->prev is the tail, tail->next is NULL. */
      children[i]->prev = children[i == 0 ? n - 1 : i - 1];
      children[i]->next = i + 1 < n ? children[i + 1] : NULL;
    }
  item->child = children[0];
}

cJSON *
ng_graph_to_json (NgGraph *g)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *ops = cJSON_CreateArray ();
  cJSON *tags = cJSON_CreateObject ();
  gboolean detpost = FALSE;

  for (guint i = 0; i < g->ops->len; i++)
    detpost |= OP (g, i)->kind == NG_OP_DETPOST;
  for (guint i = 0; i < g->ops->len; i++)
    {
      const NgOp *op = OP (g, i);

      switch (op->kind)
        {
        case NG_OP_HARD:
          cJSON_AddItemToArray (ops, hardop_json (g, op));
          break;
        case NG_OP_DETPOST:
          cJSON_AddItemToArray (ops, detpost_json (g, op));
          break;
        case NG_OP_INPUT:
        case NG_OP_OUTPUT:
        default:
          cJSON_AddItemToArray (ops, io_op_json (g, op, detpost));
          break;
        }
    }
  cJSON_AddStringToObject (root, "_type_key", "icraft::xir::Network");
  cJSON_AddStringToObject (root, "ai_target", "@zhuget(330)");
  cJSON_AddStringToObject (root, "framework_kind", "PYTORCH");
  cJSON_AddStringToObject (root, "framework_version", "1.9");
  cJSON_AddStringToObject (root, "icraft_version", "v3.33.1");
  cJSON_AddStringToObject (root, "icraft_xir_version", "3.33.1.0");
  cJSON_AddStringToObject (root, "name", g->name);
  cJSON_AddItemToObject (root, "ops", ops);
  cJSON_AddNumberToObject (root, "params_bytes", 0);
  cJSON_AddStringToObject (root, "params_md5", "");
  cJSON_AddBoolToObject (tags, "bgr_order", TRUE);
  /* Not a vendor tag: says the file is synthetic and how to make it again. */
  cJSON_AddStringToObject (tags, "generator", g->generator);
  cJSON_AddItemToObject (root, "tags", tags);
  json_sort_keys (root);
  return root;
}
