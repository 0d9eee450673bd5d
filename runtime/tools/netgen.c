/* netgen.c — the generator's entry points: the networks by name, built, then written as the
 * vendor's JSON and a .raw.
 *
 * The graph is built in execution order with builder calls (ng_conv, ng_concat …;
 * netgen-graph.c, the networks in netgen-networks.c); ids, chunks and scales are then
 * assigned in passes (netgen-passes.c) that imitate what the Icraft compiler does to the
 * real yolov5s_plin_352x640, and the JSON is emitted (netgen-json.c); see netgen.h for the facts:
 *  - op ids are not monotonic: HardOps are numbered by class group (convs with a fused
 *    activation, cast, upsample, add, maxpool, reshape, concat, the other convs), the
 *    pre-fusion ids go to origin_ops_id, DetPostZG and Output keep low ids;
 *  - chunk 0 holds the input, then one chunk per concat (its inputs are written at
 *    consecutive offsets inside it), then in execution order one chunk per conv's
 *    params and per feature map, and the last chunk holds every instr (offset 0);
 *  - scales: concat inputs and output, and maxpool/upsample input and output, share
 *    one scale (a zero-copy concat cannot rescale).
 */
#include "netgen-private.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "xir/xir-network.h"

G_DEFINE_QUARK (zw-netgen-error-quark, zw_netgen_error)

/* ---- public API ------------------------------------------------------------- */

static const char *const network_names[] = {
  "tiny", "resnet18", "mobilenetv2", "yolov5s", "twoin", "tail", "chain", NULL,
};

void
zw_netgen_options_init (ZwNetgenOptions *opts)
{
  g_return_if_fail (opts != NULL);
  opts->seed = 1;
  opts->n_ops = 0;
}

const char *const *
zw_netgen_get_names (void)
{
  return network_names;
}

cJSON *
zw_netgen_build_json (const char *name, const ZwNetgenOptions *opts, GError **error)
{
  ZwNetgenOptions defaults;
  g_autoptr (NgGraph) g = NULL;
  g_autofree char *generator = NULL;
  gboolean is_chain;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (opts == NULL)
    {
      zw_netgen_options_init (&defaults);
      opts = &defaults;
    }
  if (!g_strv_contains (network_names, name))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) network_names);
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_UNKNOWN_NETWORK,
                   "unknown network \"%s\" (known: %s)", name, known);
      return NULL;
    }
  is_chain = strcmp (name, "chain") == 0;
  if (!is_chain && opts->n_ops != 0)
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "network \"%s\": --ops applies to chain only", name);
      return NULL;
    }
  if (is_chain && opts->n_ops != 0
      && (opts->n_ops < ZW_NETGEN_CHAIN_MIN_OPS || opts->n_ops > ZW_NETGEN_CHAIN_MAX_OPS))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_INVALID_OPTION,
                   "network \"chain\": --ops %u is out of range [%d, %d]", opts->n_ops,
                   ZW_NETGEN_CHAIN_MIN_OPS, ZW_NETGEN_CHAIN_MAX_OPS);
      return NULL;
    }

  if (is_chain)
    generator = g_strdup_printf ("zw-netgen chain --ops %u --seed %" G_GUINT64_FORMAT,
                                 opts->n_ops ? opts->n_ops : ZW_NETGEN_CHAIN_DEFAULT_OPS, opts->seed);
  else
    generator = g_strdup_printf ("zw-netgen %s --seed %" G_GUINT64_FORMAT, name, opts->seed);
  g = ng_graph_new (name, opts->seed, generator);
  if (strcmp (name, "tiny") == 0)
    ng_build_tiny (g);
  else if (strcmp (name, "twoin") == 0)
    ng_build_twoin (g);
  else if (strcmp (name, "tail") == 0)
    ng_build_tail (g);
  else if (strcmp (name, "resnet18") == 0)
    ng_build_resnet18 (g);
  else if (strcmp (name, "mobilenetv2") == 0)
    ng_build_mobilenetv2 (g);
  else if (strcmp (name, "yolov5s") == 0)
    ng_build_yolov5s (g);
  else
    ng_build_chain (g, opts->n_ops ? opts->n_ops : ZW_NETGEN_CHAIN_DEFAULT_OPS);

  ng_assign_ids (g);
  ng_assign_chunks (g);
  ng_assign_scales (g);
  return ng_graph_to_json (g);
}

/* The placeholders ng_graph_to_json writes; keys are sorted, so they are adjacent. */
#define PARAMS_PLACEHOLDER "\"params_bytes\":0,\"params_md5\":\"\""

gboolean
zw_netgen_write_network (const char *name, const ZwNetgenOptions *opts, const char *dir,
                         char **json_path_out, char **raw_path_out, GError **error)
{
  cJSON *root;
  char *text = NULL;
  const char *slot;
  g_autofree char *base = NULL, *json_path = NULL, *raw_path = NULL, *md5 = NULL;
  g_autoptr (XirNetwork) net = NULL;
  g_autoptr (GMappedFile) raw = NULL;
  g_autoptr (GString) final = NULL;
  GError *local = NULL;
  ZwNetgenOptions defaults;
  gsize raw_size;
  gboolean raw_written = FALSE;

  g_return_val_if_fail (name != NULL && dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (opts == NULL)
    {
      zw_netgen_options_init (&defaults);
      opts = &defaults;
    }
  root = zw_netgen_build_json (name, opts, error);
  if (root == NULL)
    return FALSE;
  /* Only the text is kept: a 10,000-op tree is hundreds of MB. */
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  if (text == NULL)
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO, "network %s: out of memory printing the JSON", name);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO,
                   "cannot create output directory %s: %s", dir, g_strerror (saved));
      goto fail;
    }
  base = g_build_filename (dir, name, NULL);
  json_path = g_strconcat (base, "_ZG.json", NULL);
  raw_path = g_strconcat (base, "_ZG.raw", NULL);

  /* 1. Load the JSON (with placeholders) with the xir loader, so the params are
   *    laid out by the same code that will read them. Nothing is on disk yet. */
  net = xir_network_new_from_json_data (text, strlen (text), json_path, &local);
  if (net == NULL)
    goto fail_params;
  /* 2. The .raw. */
  xir_network_fake_params (net, opts->seed);
  if (!xir_network_write_params_file (net, raw_path, &local))
    goto fail_params;
  raw_written = TRUE;
  raw = zw_file_map_regular (raw_path, ZW_INPUT_PARAMS, 0, &local);
  if (raw == NULL)
    goto fail_params;
  raw_size = g_mapped_file_get_length (raw);
  if (raw_size != xir_network_compute_params_bytes (net))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_PARAMS,
                   "%s: wrote %" G_GSIZE_FORMAT " bytes, expected %" G_GUINT64_FORMAT,
                   raw_path, raw_size, xir_network_compute_params_bytes (net));
      goto fail;
    }
  md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5,
                                     (const guchar *) g_mapped_file_get_contents (raw), raw_size);

  /* 3. The JSON, with the size and md5 of the .raw just written. */
  slot = strstr (text, PARAMS_PLACEHOLDER);
  g_assert (slot != NULL && strstr (slot + 1, PARAMS_PLACEHOLDER) == NULL);
  final = g_string_sized_new (strlen (text) + 64);
  g_string_append_len (final, text, slot - text);
  g_string_append_printf (final, "\"params_bytes\":%" G_GSIZE_FORMAT ",\"params_md5\":\"%s\"", raw_size, md5);
  g_string_append (final, slot + strlen (PARAMS_PLACEHOLDER));
  if (!zw_file_set_contents (json_path, final->str, (gssize) final->len, &local))
    {
      g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_IO, "%s", local->message);
      g_error_free (local);
      goto fail;
    }

  cJSON_free (text);
  if (json_path_out != NULL)
    *json_path_out = g_steal_pointer (&json_path);
  if (raw_path_out != NULL)
    *raw_path_out = g_steal_pointer (&raw_path);
  return TRUE;

fail_params:
  g_set_error (error, ZW_NETGEN_ERROR, ZW_NETGEN_ERROR_PARAMS, "%s", local->message);
  g_error_free (local);
fail:
  /* Never leave a .raw that no JSON (or an older JSON) describes. */
  if (raw_written)
    g_remove (raw_path);
  cJSON_free (text);
  return FALSE;
}
