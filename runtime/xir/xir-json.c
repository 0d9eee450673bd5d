/* xir-json.c — the JSON accessors of the loader: where an object is (Ctx, formatted only
 * for an error), the named children of an object in one pass, and fields read as int64,
 * string or a given JSON type with an error naming the file, the object and the field.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"

#include <string.h>

const char *
xir_ctx_where (const Ctx *c)
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
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s[%u]", xir_ctx_where (ctx->parent), ctx->text, ctx->index);
      break;
    case CTX_VALUE:
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s[%u] (v_id %" G_GINT64_FORMAT ")",
                  xir_ctx_where (ctx->parent), ctx->text, ctx->index, ctx->id);
      break;
    case CTX_SUFFIX:
      g_snprintf (ctx->where, sizeof ctx->where, "%s: %s", xir_ctx_where (ctx->parent), ctx->text);
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
void
xir_json_fields (const cJSON *obj, const char *const *keys, guint n_keys, const cJSON **items)
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

gboolean
xir_json_item_int64 (const Ctx *ctx, const cJSON *item, const char *key, gboolean required, gint64 *out, GError **error)
{
  if (item == NULL)
    {
      if (required)
        {
          xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", xir_ctx_where (ctx), key);
          return FALSE;
        }
      return TRUE;
    }
  if (!cJSON_IsNumber (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be a number", xir_ctx_where (ctx), key);
      return FALSE;
    }
  if (zw_json_int64 (item, -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, out) != ZW_NUM_OK)
    {
      xir_set_error (error, XIR_ERROR_RANGE, ctx->origin,
                     "%s: field \"%s\" must be an integer below 2^53, got %g", xir_ctx_where (ctx), key,
                     item->valuedouble);
      return FALSE;
    }
  return TRUE;
}

gboolean
xir_json_get_int64 (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                gint64 *out, GError **error)
{
  return xir_json_item_int64 (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, out, error);
}

const char *
xir_json_item_string (const Ctx *ctx, const cJSON *item, const char *key, gboolean required, GError **error)
{
  if (item == NULL)
    {
      if (required)
        xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", xir_ctx_where (ctx), key);
      return required ? NULL : "";
    }
  if (!cJSON_IsString (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be a string", xir_ctx_where (ctx), key);
      return NULL;
    }
  return item->valuestring;
}

const char *
xir_json_get_string (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required, GError **error)
{
  return xir_json_item_string (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, error);
}

const cJSON *
xir_json_item_typed (const Ctx *ctx, const cJSON *item, const char *key, gboolean required,
            cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error)
{
  if (item == NULL)
    {
      if (required)
        xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: missing field \"%s\"", xir_ctx_where (ctx), key);
      return NULL;
    }
  if (!is_type (item))
    {
      xir_set_error (error, XIR_ERROR_FIELD, ctx->origin, "%s: field \"%s\" must be %s", xir_ctx_where (ctx), key,
                     type_name);
      return NULL;
    }
  return item;
}

const cJSON *
xir_json_get_typed (const Ctx *ctx, const cJSON *obj, const char *key, gboolean required,
                cJSON_bool (*is_type) (const cJSON *), const char *type_name, GError **error)
{
  return xir_json_item_typed (ctx, cJSON_GetObjectItemCaseSensitive (obj, key), key, required, is_type, type_name, error);
}
