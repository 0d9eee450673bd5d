/* xir-network-build.c — builds an XirNetwork from its JSON: the network's own fields, each
 * op with its value lists (a value appears in every op that reads or writes it: each later
 * appearance must describe the same tensor), consumers and lifetimes, the chunks and the
 * params' total. The whole-tree load and the streamed load (xir-stream.c) both build
 * through here.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

#include <string.h>

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
gboolean
xir_network_parse_value_list (XirNetwork *net, const Ctx *ctx, XirOp *op, const cJSON *field_item, const char *field,
                  gboolean required, GPtrArray *dest, GError **error)
{
  const cJSON *arr = xir_json_item_typed (ctx, field_item, field, required, cJSON_IsArray, "an array", error);
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
      v = xir_value_parse (ctx, field, idx, item, is_params, dest != op->outputs || net->load_text != NULL,
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
                             xir_ctx_where (ctx), field, idx, v->v_id);
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
                             xir_ctx_where (ctx), idx, v->v_id,
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
                             "%s: inputs[%u]: v_id %" G_GINT64_FORMAT " is %s", xir_ctx_where (ctx), idx, v->v_id,
                             known ? "a params v_id, not a feature value" : "not produced by any earlier op");
              xir_value_free (v);
              return FALSE;
            }
          if (!xir_value_same (known, v))
            {
              xir_set_error (error, XIR_ERROR_REFERENCE, ctx->origin,
                             "%s: inputs[%u]: v_id %" G_GINT64_FORMAT
                             ": dtype or mtype differs from where op index %d produced it",
                             xir_ctx_where (ctx), idx, v->v_id, known->producer);
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
gboolean
xir_network_build_head (XirNetwork *net, const cJSON *root, GError **error)
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
  s = xir_json_get_string (&ctx, root, "_type_key", TRUE, error);
  if (s == NULL)
    return FALSE;
  if (strcmp (s, "icraft::xir::Network") != 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "network: _type_key is \"%s\", expected \"icraft::xir::Network\"", s);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      s = xir_json_get_string (&ctx, root, strings[i], i == 0, error);
      if (s == NULL)
        return FALSE;
      *string_fields[i] = g_strdup (s);
    }
  s = xir_json_get_string (&ctx, root, "params_md5", FALSE, error);
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
  if (!xir_json_get_int64 (&ctx, root, "params_bytes", FALSE, &pb, error))
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
gboolean
xir_network_build_op (XirNetwork *net, guint index, cJSON *item, GError **error)
{
  XirOp *op = xir_op_parse (net, net->path, index, item, error);

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
gboolean
xir_network_build_tail (XirNetwork *net, GError **error)
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

gboolean
xir_network_build (XirNetwork *net, cJSON *root, GError **error)
{
  const char *origin = net->path;
  Ctx ctx;
  const cJSON *ops;
  cJSON *item;
  guint index = 0;

  if (!xir_network_build_head (net, root, error))
    return FALSE;
  ctx_init (&ctx, origin, NULL, CTX_FIXED, "network", 0, 0);
  ops = xir_json_get_typed (&ctx, root, "ops", TRUE, cJSON_IsArray, "an array", error);
  if (ops == NULL)
    return FALSE;
  if (cJSON_GetArraySize (ops) == 0)
    {
      xir_set_error (error, XIR_ERROR_VALUE, origin, "network: \"ops\" is empty");
      return FALSE;
    }
  cJSON_ArrayForEach (item, ops)
    if (!xir_network_build_op (net, index++, item, error))
      return FALSE;
  return xir_network_build_tail (net, error);
}
