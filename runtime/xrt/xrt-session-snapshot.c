/* xrt-session-snapshot.c — dumpSnapshot and CreateWithSnapshot: the options and placement of
 * an applied session, and what it was made of (the network files and their digests).
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* ---- snapshot -------------------------------------------------------------------------- */

#define SNAPSHOT_FORMAT "zhuge-snapshot"
/* 1: options and placement; 2: + "network_files", what the snapshot was made of (the
 * network JSON and its params, with their digests), so that a snapshot alone restores. */
#define SNAPSHOT_VERSION 2

/* Fingerprint of what the plan depends on: the ops, values and chunks of the network. */
static char *
network_fingerprint (XirNetwork *net)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  char *out;

  for (guint i = 0; i < xir_network_get_n_ops (net); i++)
    {
      XirOp *op = xir_network_get_op (net, i);
      g_checksum_update (sum, (const guchar *) &op->op_id, sizeof op->op_id);
      g_checksum_update (sum, (const guchar *) op->type_key, -1);
      for (guint k = 0; k < op->outputs->len; k++)
        {
          XirValue *v = g_ptr_array_index (op->outputs, k);
          g_checksum_update (sum, (const guchar *) &v->v_id, sizeof v->v_id);
          g_checksum_update (sum, (const guchar *) &v->storage_bytes, sizeof v->storage_bytes);
          g_checksum_update (sum, (const guchar *) &v->mtype, sizeof v->mtype);
        }
    }
  out = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return out;
}

static char *
file_sha256 (const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = zw_file_map_regular (path, ZW_INPUT_NETWORK, 0, error);

  if (file == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents (file),
                                      g_mapped_file_get_length (file));
}

static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = NULL;

  if (g_path_is_absolute (path))
    return g_canonicalize_filename (path, NULL);
  cwd = g_get_current_dir ();
  return g_canonicalize_filename (path, cwd);
}

/* "network_files": { "json", "json_sha256", "params" (a .raw or null), "params_seed"
 * (synthetic params), "params_sha256" }: the network the snapshot deploys. */
static cJSON *
network_files_json (XirNetwork *net, GError **error)
{
  g_autofree char *json = absolute_path (xir_network_get_path (net));
  g_autofree char *json_sum = NULL, *params_sum = NULL;
  const char *raw = xir_network_get_params_path (net);
  guint64 seed = 0;
  cJSON *files;

  if ((json_sum = file_sha256 (json, NULL)) == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: the network was not loaded from a file that still exists: a snapshot records the network's "
                   "JSON to restore it", json);
      return NULL;
    }
  params_sum = xir_network_compute_params_sha256 (net);
  files = cJSON_CreateObject ();
  cJSON_AddStringToObject (files, "json", json);
  cJSON_AddStringToObject (files, "json_sha256", json_sum);
  if (raw != NULL)
    {
      g_autofree char *abs = absolute_path (raw);
      cJSON_AddStringToObject (files, "params", abs);
    }
  else
    cJSON_AddNullToObject (files, "params");
  if (xir_network_get_params_seed (net, &seed))
    cJSON_AddNumberToObject (files, "params_seed", (double) seed);
  cJSON_AddStringToObject (files, "params_sha256", params_sum ? params_sum : "");
  return files;
}

gboolean
xrt_session_dump_snapshot (XrtSession *s, const char *path, GError **error)
{
  g_autoptr (ZwDeployReport) report = NULL;
  g_autofree char *fingerprint = NULL, *body = NULL, *text = NULL, *digest = NULL;
  cJSON *root, *files;
  GError *local = NULL;

  ZW_RETURN_VAL_IF_BAD_ARG (s != NULL, "session", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, FALSE);
  if (!xrt_session_check_applied (s, "dumpSnapshot", error))
    return FALSE;
  if (s->board == NULL || (report = xrt_backend_get_report (s->board)) == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: a snapshot records a board backend's placement, and this session has none (host ops only)",
                   xir_network_get_path (s->net));
      return FALSE;
    }
  if ((files = network_files_json (s->net, error)) == NULL)
    return FALSE;
  fingerprint = network_fingerprint (s->net);
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "format", SNAPSHOT_FORMAT);
  cJSON_AddNumberToObject (root, "version", SNAPSHOT_VERSION);
  cJSON_AddStringToObject (root, "network", xir_network_get_name (s->net));
  cJSON_AddStringToObject (root, "network_fingerprint", fingerprint);
  cJSON_AddStringToObject (root, "backend", xrt_backend_get_name (s->board));
  cJSON_AddItemToObject (root, "network_files", files);
  cJSON_AddNumberToObject (root, "view_start", xir_network_view_get_start (s->view));
  cJSON_AddNumberToObject (root, "view_ops", xir_network_view_get_n_ops (s->view));
  cJSON_AddItemToObject (root, "deploy", zw_deploy_report_to_json (report));
  body = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  /* the last line carries the SHA-256 of everything before it */
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, body, -1);
  text = g_strdup_printf ("%s\nsha256 %s\n", body, digest);
  /* atomic, like every file the runtime writes */
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, "%s: cannot write the snapshot: %s", path,
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* A file the snapshot recorded as @recorded: beside the snapshot first (a folder moved as a
 * whole), then beside @also (the JSON found, for its .raw), then where it was. NULL with an
 * error naming every place looked at. */
static char *
find_recorded_file (const char *snapshot, const char *field, const char *recorded, const char *also,
                    GError **error)
{
  g_autofree char *base = g_path_get_basename (recorded);
  g_autofree char *snap_dir = g_path_get_dirname (snapshot);
  g_autoptr (GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *list = NULL;

  g_ptr_array_add (tried, g_build_filename (snap_dir, base, NULL));
  if (also != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (also);
      g_ptr_array_add (tried, g_build_filename (dir, base, NULL));
    }
  g_ptr_array_add (tried, g_strdup (recorded));
  for (guint i = 0; i < tried->len; i++)
    if (g_file_test (g_ptr_array_index (tried, i), G_FILE_TEST_IS_REGULAR))
      return g_strdup (g_ptr_array_index (tried, i));
  g_ptr_array_add (tried, NULL);
  list = g_strjoinv (", ", (char **) tried->pdata);
  g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
               "%s: network_files.%s: %s not found (looked at %s)", snapshot, field, base, list);
  return NULL;
}

/* The network a version-2 snapshot records, found, loaded and checked against its digests. */
static XirNetwork *
snapshot_network (const char *path, const cJSON *root, GError **error)
{
  const cJSON *files = cJSON_GetObjectItem (root, "network_files");
  const cJSON *json = cJSON_GetObjectItem (files, "json");
  const cJSON *json_sum = cJSON_GetObjectItem (files, "json_sha256");
  const cJSON *params = cJSON_GetObjectItem (files, "params");
  const cJSON *seed = cJSON_GetObjectItem (files, "params_seed");
  const cJSON *params_sum = cJSON_GetObjectItem (files, "params_sha256");
  g_autofree char *json_path = NULL, *raw_path = NULL, *sum = NULL;
  g_autoptr (XirNetwork) net = NULL;
  GError *local = NULL;

  if (!cJSON_IsObject (files))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files: a version-1 snapshot does not record its network; give the network JSON "
                   "with it (json = … in [run], or NET.json on the command line)", path);
      return NULL;
    }
  if (!cJSON_IsString (json) || !cJSON_IsString (json_sum) || !cJSON_IsString (params_sum)
      || !(cJSON_IsString (params) || (cJSON_IsNull (params) && cJSON_IsNumber (seed))))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files: needs json, json_sha256, params (or params_seed) and params_sha256", path);
      return NULL;
    }
  if ((json_path = find_recorded_file (path, "json", json->valuestring, NULL, error)) == NULL)
    return NULL;
  if ((sum = file_sha256 (json_path, &local)) == NULL || strcmp (sum, json_sum->valuestring) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files.json_sha256: %s %s", path, json_path,
                   local ? local->message : "is not the network JSON the snapshot was made of (its SHA-256 differs)");
      g_clear_error (&local);
      return NULL;
    }
  if ((net = xir_network_new_from_json_file (json_path, error)) == NULL)
    return NULL;
  if (cJSON_IsString (params))
    {
      if ((raw_path = find_recorded_file (path, "params", params->valuestring, json_path, error)) == NULL)
        return NULL;
      /* the digest below is the check: the .raw may be synthetic (no md5 match) */
      if (!xir_network_load_params_from_file_full (net, raw_path, XIR_LOAD_NO_MD5, error))
        return NULL;
    }
  else
    {
      gint64 s = 0;
      if (zw_json_int64 (seed, 0, ZW_JSON_INT_MAX, &s) != ZW_NUM_OK)
        {
          g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                       "%s: network_files.params_seed: not a seed", path);
          return NULL;
        }
      xir_network_fake_params (net, (guint64) s);
    }
  g_free (sum);
  sum = xir_network_compute_params_sha256 (net);
  if (g_strcmp0 (sum, params_sum->valuestring) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: network_files.params_sha256: %s are not the params the snapshot was made of (their SHA-256 "
                   "differs)", path, raw_path ? raw_path : "the synthetic params");
      return NULL;
    }
  return g_steal_pointer (&net);
}

XrtSession *
xrt_session_new_from_snapshot (const char *path, XirNetwork *net, XrtDevice *device, GError **error)
{
  g_autofree char *text = NULL, *fingerprint = NULL;
  g_autoptr (ZwDeployReport) plan = NULL;
  g_autoptr (XirNetworkView) view = NULL;
  g_autoptr (XirNetwork) own_net = NULL;
  g_autoptr (XrtBackend) board = NULL;
  g_autoptr (XrtDevice) own_device = NULL;
  g_autoptr (XrtSession) s = NULL;
  g_autofree char *backend_name = NULL;
  GError *local = NULL;
  gsize len = 0;
  char *nl;
  cJSON *root = NULL;
  const cJSON *item;
  gint start = 0, n_ops = 0;

  ZW_RETURN_VAL_IF_BAD_ARG (path != NULL, "path", error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_INVALID_ARGUMENT, NULL);
  if (!zw_file_read_regular (path, ZW_INPUT_SNAPSHOT, 0, &text, &len, &local))
    {
      g_set_error_literal (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, local->message);
      g_error_free (local);
      return NULL;
    }
  nl = len > 0 ? g_strrstr_len (text, (gssize) len - 1, "\nsha256 ") : NULL;
  if (nl == NULL)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: not a Zhuge Workbench snapshot (no checksum line)", path);
      return NULL;
    }
  *nl = '\0';
  {
    g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
    const char *stored = nl + strlen ("\nsha256 ");
    if (strncmp (digest, stored, 64) != 0)
      {
        g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                     "%s: checksum mismatch: the snapshot is corrupted", path);
        return NULL;
      }
  }
  root = cJSON_Parse (text);
  if (root == NULL || !cJSON_IsString (item = cJSON_GetObjectItem (root, "format"))
      || strcmp (item->valuestring, SNAPSHOT_FORMAT) != 0)
    {
      cJSON_Delete (root);
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "%s: format: not a Zhuge Workbench snapshot", path);
      return NULL;
    }
  item = cJSON_GetObjectItem (root, "version");
  if (!cJSON_IsNumber (item) || item->valueint > SNAPSHOT_VERSION || item->valueint < 1)
    {
      cJSON_Delete (root);
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: version: this build reads snapshot versions 1 to %d", path, SNAPSHOT_VERSION);
      return NULL;
    }
  if (net == NULL)
    {
      own_net = snapshot_network (path, root, error);
      if (own_net == NULL)
        {
          cJSON_Delete (root);
          return NULL;
        }
      net = own_net;
    }
  fingerprint = network_fingerprint (net);
  item = cJSON_GetObjectItem (root, "network_fingerprint");
  if (!cJSON_IsString (item) || strcmp (item->valuestring, fingerprint) != 0)
    {
      const cJSON *name = cJSON_GetObjectItem (root, "network");
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                   "%s: the snapshot is of network \"%s\", not of %s (%s)", path,
                   cJSON_IsString (name) ? name->valuestring : "?", xir_network_get_name (net), xir_network_get_path (net));
      cJSON_Delete (root);
      return NULL;
    }
  {
    /* the view: op indices of this network, checked before any conversion */
    gint64 v = 0;
    guint n_net = xir_network_get_n_ops (net);
    const char *keys[2] = { "view_start", "view_ops" };
    gint *outs[2] = { &start, &n_ops };
    for (guint k = 0; k < 2; k++)
      {
        item = cJSON_GetObjectItem (root, keys[k]);
        if (item == NULL)
          continue;
        if (zw_json_int64 (item, k == 0 ? 0 : 1, n_net, &v) != ZW_NUM_OK)
          {
            g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT,
                         "%s: field \"%s\" must be an integer in [%u, %u] (the network has %u ops)", path, keys[k],
                         k == 0 ? 0 : 1, n_net, n_net);
            cJSON_Delete (root);
            return NULL;
          }
        *outs[k] = (gint) v;
      }
  }
  item = cJSON_GetObjectItem (root, "backend");
  if (item != NULL && !cJSON_IsString (item))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "%s: field \"backend\" must be a backend's name",
                   path);
      cJSON_Delete (root);
      return NULL;
    }
  backend_name = item ? g_strdup (item->valuestring) : NULL;
  plan = zw_deploy_report_from_json (cJSON_GetObjectItem (root, "deploy"), path, error);
  cJSON_Delete (root);
  if (plan == NULL)
    return NULL;
  view = xir_network_view (net, start, n_ops > 0 ? start + n_ops : G_MAXINT, error);
  if (view == NULL)
    return NULL;
  if (backend_name == NULL)
    {
      /* snapshots before "backend" was recorded: the board backend of the view's ops */
      GType t = xrt_backend_find_for_view (view);
      backend_name = g_strdup (t != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (t))->name : "ZG330Backend");
    }
  if (device == NULL)
    {
      /* no board named: the one the recorded backend runs on by default */
      GType t = xrt_backend_lookup (backend_name);
      const char *url = t != G_TYPE_INVALID ? ((XrtBackendClass *) g_type_class_peek (t))->default_device_url : NULL;
      if (url != NULL && (own_device = xrt_device_open (url, error)) == NULL)
        return NULL;
      device = own_device;
    }
  board = xrt_backend_new (backend_name, view, device, error);
  if (board != NULL && !xrt_backend_runs_on_board (board))
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_SNAPSHOT, "backend: %s runs no placement to restore",
                   backend_name);
      return NULL;
    }
  if (board == NULL || !xrt_backend_apply_with_plan (board, plan, error))
    {
      if (error && *error)
        g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  s = xrt_session_new_with_backend (view, board, error);
  if (s == NULL || !xrt_session_apply (s, error))
    return NULL;
  return g_steal_pointer (&s);
}
