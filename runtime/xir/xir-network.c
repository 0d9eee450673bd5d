/* xir-network.c — XirNetwork: the error domain, allocation and references, the load entry
 * points (a streamed load first, the whole-tree load when it gives up), the accessors.
 *
 * The JSON is parsed with cJSON, then walked once (xir-network-build.c): every op, value and
 * params object is validated and turned into plain structs; the op "tags" and the
 * non-structural attributes are detached from the cJSON tree and kept, the rest of the tree
 * is freed. Errors carry the file, the op id / value id and the JSON path of the field at
 * fault.
 *
 * A well-formed file is read op by op (xir-stream.c): cJSON parses each op while the framing
 * around the ops follows cJSON's own rules, so a large network never has its whole tree in
 * memory. Anything that does not load that way is loaded again from one whole tree, which
 * alone produces the error messages.
 */
#include "xir/xir-private.h"

#include "base/zw-checked.h"
#include "base/zw-file-read.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK (xir-error-quark, xir_error)

void
xir_set_error (GError **error, XirError code, const char *origin, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, XIR_ERROR, code, "%s: %s", origin ? origin : "<network>", msg);
}

static void
xir_chunk_free (XirChunk *c)
{
  g_ptr_array_unref (c->values);
  g_free (c);
}

static void
network_free (XirNetwork *net)
{
  g_free (net->path);
  g_free (net->name);
  g_free (net->ai_target);
  g_free (net->framework_kind);
  g_free (net->framework_version);
  g_free (net->icraft_version);
  g_free (net->icraft_xir_version);
  g_free (net->params_md5);
  g_free (net->params_path);
  cJSON_Delete (net->tags);
  g_clear_pointer (&net->op_by_id, g_hash_table_unref);
  g_clear_pointer (&net->value_by_id, g_hash_table_unref);
  g_clear_pointer (&net->chunk_by_id, g_hash_table_unref);
  g_clear_pointer (&net->ops, g_ptr_array_unref);
  g_clear_pointer (&net->values, g_ptr_array_unref);
  g_clear_pointer (&net->params, g_ptr_array_unref);
  g_clear_pointer (&net->inputs, g_ptr_array_unref);
  g_clear_pointer (&net->outputs, g_ptr_array_unref);
  g_clear_pointer (&net->chunks, g_ptr_array_unref);
  g_clear_pointer (&net->no_consumers, g_array_unref);
  g_clear_pointer (&net->params_blob, g_bytes_unref);
  g_free (net->param_offsets);
  g_free (net);
}

XirNetwork *
xir_network_ref (XirNetwork *net)
{
  g_return_val_if_fail (net != NULL, NULL);
  g_atomic_int_inc (&net->ref_count);
  return net;
}

void
xir_network_unref (XirNetwork *net)
{
  if (net != NULL && g_atomic_int_dec_and_test (&net->ref_count))
    network_free (net);
}

XirNetwork *
xir_network_alloc (const char *origin)
{
  XirNetwork *net = g_new0 (XirNetwork, 1);

  net->ref_count = 1;
  net->path = g_strdup (origin);
  net->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_op_free);
  net->op_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->values = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_value_free);
  net->params = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_value_free);
  net->value_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->inputs = g_ptr_array_new ();
  net->outputs = g_ptr_array_new ();
  net->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) xir_chunk_free);
  net->chunk_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  net->no_consumers = g_array_new (FALSE, FALSE, sizeof (guint));
  net->max_op_id = G_MININT64;
  return net;
}

/* Line and column of a byte offset, for JSON syntax errors. */
static void
offset_to_line_col (const char *data, gsize length, gsize offset, guint *line, guint *col)
{
  *line = 1;
  *col = 1;
  for (gsize i = 0; i < offset && i < length; i++)
    {
      if (data[i] == '\n')
        {
          (*line)++;
          *col = 1;
        }
      else
        (*col)++;
    }
}

XirNetwork *
xir_network_new_from_json_data (const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr (XirNetwork) net = NULL;
  const char *end = NULL;
  cJSON *root;
  gboolean ok;

  ZW_RETURN_VAL_IF_BAD_ARG (data != NULL || length == 0, "data", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  if (origin == NULL)
    origin = "<memory>";
  if (length == 0)
    {
      xir_set_error (error, XIR_ERROR_PARSE, origin, "the file is empty");
      return NULL;
    }
  net = xir_network_new_streamed (data, length, origin);
  if (net != NULL)
    return g_steal_pointer (&net);
  root = cJSON_ParseWithLengthOpts (data, length, &end, FALSE);
  if (root == NULL)
    {
      gsize off = end ? (gsize) (end - data) : 0;
      guint line, col;

      offset_to_line_col (data, length, off, &line, &col);
      xir_set_error (error, XIR_ERROR_PARSE, origin, "invalid JSON at line %u, column %u (byte %" G_GSIZE_FORMAT ")%s",
                     line, col, off, off >= length ? ": the file ends too early (truncated?)" : "");
      return NULL;
    }
  net = xir_network_alloc (origin);
  net->json_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  ok = xir_network_build (net, root, error);
  g_clear_pointer (&net->json_of, g_hash_table_unref);
  cJSON_Delete (root);
  if (!ok)
    return NULL;
  return g_steal_pointer (&net);
}

XirNetwork *
xir_network_new_from_json_file (const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = NULL;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XIR_ERROR, XIR_ERROR_INVALID_ARGUMENT, NULL);
  file = zw_file_map_regular (path, ZW_INPUT_NETWORK, 0, &local);
  if (file == NULL)
    {
      g_set_error_literal (error, XIR_ERROR, XIR_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  return xir_network_new_from_json_data (g_mapped_file_get_contents (file), g_mapped_file_get_length (file),
                                         path, error);
}

/* ---- accessors -------------------------------------------------------------- */

const char *xir_network_get_path (const XirNetwork *net) { return net->path; }
const char *xir_network_get_name (const XirNetwork *net) { return net->name; }
const char *xir_network_get_ai_target (const XirNetwork *net) { return net->ai_target; }
const char *xir_network_get_framework_kind (const XirNetwork *net) { return net->framework_kind; }
const char *xir_network_get_framework_version (const XirNetwork *net) { return net->framework_version; }
const char *xir_network_get_icraft_version (const XirNetwork *net) { return net->icraft_version; }
const char *xir_network_get_icraft_xir_version (const XirNetwork *net) { return net->icraft_xir_version; }
guint64 xir_network_get_params_bytes (const XirNetwork *net) { return net->params_bytes; }
const char *xir_network_get_params_md5 (const XirNetwork *net) { return net->params_md5; }
const cJSON *xir_network_get_tags (const XirNetwork *net) { return net->tags; }
guint xir_network_get_n_ops (const XirNetwork *net) { return net->ops->len; }
gint64 xir_network_get_max_op_id (const XirNetwork *net) { return net->max_op_id; }
GPtrArray *xir_network_get_values (const XirNetwork *net) { return net->values; }
GPtrArray *xir_network_get_params (const XirNetwork *net) { return net->params; }
GPtrArray *xir_network_get_inputs (const XirNetwork *net) { return net->inputs; }
GPtrArray *xir_network_get_outputs (const XirNetwork *net) { return net->outputs; }
GPtrArray *xir_network_get_chunks (const XirNetwork *net) { return net->chunks; }
guint64 xir_network_get_total_instr_words (const XirNetwork *net) { return net->total_instr_words; }

XirOp *
xir_network_get_op (const XirNetwork *net, guint index)
{
  g_return_val_if_fail (net != NULL, NULL);
  return index < net->ops->len ? g_ptr_array_index (net->ops, index) : NULL;
}

XirOp *
xir_network_get_op_by_id (const XirNetwork *net, gint64 op_id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->op_by_id, &op_id);
}

XirValue *
xir_network_get_value (const XirNetwork *net, gint64 v_id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->value_by_id, &v_id);
}

XirChunk *
xir_network_get_chunk (const XirNetwork *net, gint64 id)
{
  g_return_val_if_fail (net != NULL, NULL);
  return g_hash_table_lookup (net->chunk_by_id, &id);
}

G_DEFINE_BOXED_TYPE (XirNetwork, xir_network, (GBoxedCopyFunc) xir_network_ref, (GBoxedFreeFunc) xir_network_unref)
