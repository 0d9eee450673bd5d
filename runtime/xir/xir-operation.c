/* xir-operation.c — XirOp: an op of the network, its compile target and its attributes
 * (the non-structural fields, kept as JSON), and the accessors of the bindings.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

#include <string.h>

/* ---- ops ---------------------------------------------------------------- */

void
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
      const char *inner = xir_notation_inner (text, "@zhuget(", &len);
      guint64 ver = 0;

      if (strcmp (text, "@zhuget") != 0 && (inner == NULL || !xir_parse_uint_span (inner, len, 10, 100000, &ver)))
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
                 xir_ctx_where (ctx), text);
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

XirOp *
xir_op_parse (XirNetwork *net, const char *origin, guint index, cJSON *obj, GError **error)
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
      xir_set_error (error, XIR_ERROR_FIELD, origin, "%s: must be an object", xir_ctx_where (&ctx));
      goto fail;
    }
  xir_json_fields (obj, structural_keys, N_OP_KEYS, f);
  if (!xir_json_item_int64 (&ctx, f[OP_ID], "op_id", TRUE, &op->op_id, error))
    goto fail;
  ctx_init (&ctx, origin, NULL, CTX_OP, NULL, index, op->op_id);
  if (g_hash_table_contains (net->op_by_id, &op->op_id))
    {
      xir_set_error (error, XIR_ERROR_REFERENCE, origin, "%s: op_id %" G_GINT64_FORMAT " is used twice",
                     xir_ctx_where (&ctx), op->op_id);
      goto fail;
    }
  type_key = xir_json_item_string (&ctx, f[OP_TYPE_KEY], "_type_key", TRUE, error);
  if (type_key == NULL)
    goto fail;
  if (*type_key == '\0')
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "%s: _type_key is empty", xir_ctx_where (&ctx));
      goto fail;
    }
  op->type_key = xir_string_keep (f[OP_TYPE_KEY], type_key, TRUE);  /* ops are not compared */
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

  name = xir_json_item_string (&ctx, f[OP_NAME], "name", FALSE, error);
  if (name == NULL)
    goto fail;
  op->name = xir_string_keep (f[OP_NAME], name, TRUE);
  target = xir_json_item_string (&ctx, f[OP_COMPILE_TARGET], "compile_target", TRUE, error);
  if (target == NULL || !parse_target (&ctx, target, &op->target, error))
    goto fail;

  if (op->kind == XIR_OP_HARDOP)
    {
      gint64 lc;

      if (!g_str_has_prefix (op->name, "icraft::xir::") || !g_str_has_suffix (op->name, "Node")
          || strlen (op->name) <= strlen ("icraft::xir::Node"))
        {
          xir_set_error (error, XIR_ERROR_VALUE, origin,
                         "%s: HardOp name \"%s\" is not a fused op class (icraft::xir::…Node)", xir_ctx_where (&ctx), op->name);
          goto fail;
        }
      /* "icraft::xir::Conv2dNode" -> "Conv2d" */
      op->hard_class = g_strndup (op->name + strlen ("icraft::xir::"),
                                  strlen (op->name) - strlen ("icraft::xir::") - strlen ("Node"));
      if (!xir_json_item_int64 (&ctx, f[OP_LAYER_COUNT], "layer_count", TRUE, &lc, error))
        goto fail;
      if (lc < 0 || lc > G_MAXINT)
        {
          xir_set_error (error, XIR_ERROR_RANGE, origin, "%s: layer_count %" G_GINT64_FORMAT " is out of range",
                         xir_ctx_where (&ctx), lc);
          goto fail;
        }
      op->layer_count = (gint) lc;
      origin_ids = xir_json_item_typed (&ctx, f[OP_ORIGIN_OPS_ID], "origin_ops_id", FALSE, cJSON_IsArray, "an array", error);
      if (origin_ids == NULL && f[OP_ORIGIN_OPS_ID] != NULL)
        goto fail;
      if (origin_ids != NULL)
        cJSON_ArrayForEach (item, origin_ids)
          {
            gint64 id;
            if (zw_json_int64 (item, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, &id) != ZW_NUM_OK)
              {
                xir_set_error (error, XIR_ERROR_FIELD, origin,
                               "%s: origin_ops_id must hold integers below 2^53 in magnitude", xir_ctx_where (&ctx));
                goto fail;
              }
            g_array_append_val (op->origin_ops_id, id);
          }
    }

  if (!xir_network_parse_value_list (net, &ctx, op, f[OP_INPUTS], "inputs", TRUE, op->inputs, error)
      || !xir_network_parse_value_list (net, &ctx, op, f[OP_OUTPUTS], "outputs", TRUE, op->outputs, error)
      || !xir_network_parse_value_list (net, &ctx, op, f[OP_PARAMS], "params", op->kind == XIR_OP_HARDOP, op->params, error)
      || !xir_network_parse_value_list (net, &ctx, op, f[OP_INSTR], "instr", op->kind == XIR_OP_HARDOP, op->instr, error))
    goto fail;
  if (op->kind == XIR_OP_INPUT && op->inputs->len != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "%s: an Input op must have no inputs", xir_ctx_where (&ctx));
      goto fail;
    }

  tags = f[OP_TAGS];
  if (tags != NULL && !cJSON_IsObject (tags))
    {
      xir_set_error (error, XIR_ERROR_FIELD, origin, "%s: field \"tags\" must be an object", xir_ctx_where (&ctx));
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
