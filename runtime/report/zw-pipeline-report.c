/* zw-pipeline-report.c — the pipeline report's model and the one reader of its JSON (see the
 * header; the JSON is described at the top of deploy/xrt-pipeline-report.c, its writer). */
#include "report/zw-pipeline-report-private.h"

#include "base/zw-checked.h"

#include <string.h>

#define FORMAT "zhuge-pipeline-report"
#define VERSION 1

static void
network_clear (gpointer p)
{
  ZwPipelineNetwork *n = p;
  g_free (n->name);
  g_free (n->json);
  g_clear_pointer (&n->report, zw_deploy_report_unref);
  g_clear_pointer (&n->profile, zw_profile_free);
}

static void
chunk_clear (gpointer p)
{
  ZwBoardChunk *c = p;
  g_free (c->owner);
  g_free (c->name);
}

static void
share_clear (gpointer p)
{
  ZwPipelineShare *s = p;
  g_free (s->name);
  g_clear_pointer (&s->networks, g_ptr_array_unref);
}

static void
connection_clear (gpointer p)
{
  ZwPipelineConnection *c = p;
  g_free (c->name);
  g_free (c->from_mode);
  g_free (c->to_mode);
}

static ZwPipelineReport *
report_new (void)
{
  ZwPipelineReport *self = g_new0 (ZwPipelineReport, 1);

  self->ref_count = 1;
  self->networks = g_array_new (FALSE, TRUE, sizeof (ZwPipelineNetwork));
  g_array_set_clear_func (self->networks, network_clear);
  self->chunks = g_array_new (FALSE, TRUE, sizeof (ZwBoardChunk));
  g_array_set_clear_func (self->chunks, chunk_clear);
  self->shares = g_array_new (FALSE, TRUE, sizeof (ZwPipelineShare));
  g_array_set_clear_func (self->shares, share_clear);
  self->connections = g_array_new (FALSE, TRUE, sizeof (ZwPipelineConnection));
  g_array_set_clear_func (self->connections, connection_clear);
  self->pass_ms = -1;
  return self;
}

ZwPipelineReport *
zw_pipeline_report_ref (ZwPipelineReport *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
zw_pipeline_report_unref (ZwPipelineReport *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_free (self->name);
  g_free (self->file);
  g_free (self->device);
  g_array_unref (self->networks);
  g_array_unref (self->chunks);
  g_array_unref (self->shares);
  g_array_unref (self->connections);
  g_free (self);
}

/* ---- reading ------------------------------------------------------------------------- */

gboolean
zw_pipeline_report_fail (GError **error, const char *origin, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT, "%s: %s", origin, msg);
  return FALSE;
}

static gboolean
get_u64 (const cJSON *obj, const char *key, guint64 *out, const char *origin, const char *where, GError **error)
{
  gint64 v;

  if (zw_json_int64 (cJSON_GetObjectItemCaseSensitive (obj, key), 0, ZW_JSON_INT_MAX, &v) != ZW_NUM_OK)
    return zw_pipeline_report_fail (error, origin, "%s: \"%s\" is not a byte count", where, key);
  *out = (guint64) v;
  return TRUE;
}

static gboolean
get_i64 (const cJSON *obj, const char *key, gint64 *out, const char *origin, const char *where, GError **error)
{
  if (zw_json_int64 (cJSON_GetObjectItemCaseSensitive (obj, key), -ZW_JSON_INT_MAX, ZW_JSON_INT_MAX, out) != ZW_NUM_OK)
    return zw_pipeline_report_fail (error, origin, "%s: \"%s\" is not an integer", where, key);
  return TRUE;
}

static const char *
get_str (const cJSON *obj, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (obj, key);
  return cJSON_IsString (v) ? v->valuestring : NULL;
}

static gboolean
need_str (const cJSON *obj, const char *key, const char **out, const char *origin, const char *where, GError **error)
{
  if ((*out = get_str (obj, key)) == NULL)
    return zw_pipeline_report_fail (error, origin, "%s: \"%s\" is not a string", where, key);
  return TRUE;
}

static gboolean
parse_network (ZwPipelineReport *self, const cJSON *it, guint index, const char *origin, GError **error)
{
  ZwPipelineNetwork n = { 0 };
  g_autofree char *where = g_strdup_printf ("networks[%u]", index);
  const char *name, *json;
  const cJSON *view, *time, *on_board, *prof;
  guint64 stage = 0;

  if (!need_str (it, "name", &name, origin, where, error) || !need_str (it, "json", &json, origin, where, error))
    return FALSE;
  g_free (where);
  where = g_strdup_printf ("network \"%s\"", name);
  if (zw_pipeline_report_find_network (self, name) >= 0)
    return zw_pipeline_report_fail (error, origin, "%s: the name is repeated", where);
  if (!get_u64 (it, "stage", &stage, origin, where, error) || stage > G_MAXUINT)
    return stage > G_MAXUINT ? zw_pipeline_report_fail (error, origin, "%s: \"stage\" is out of range", where) : FALSE;
  n.first_op = n.n_ops = -1;
  view = cJSON_GetObjectItemCaseSensitive (it, "view");
  if (view != NULL)
    {
      gint64 a, b;
      if (!cJSON_IsArray (view) || cJSON_GetArraySize (view) != 2
          || zw_json_int64 (cJSON_GetArrayItem (view, 0), 0, G_MAXINT, &a) != ZW_NUM_OK
          || zw_json_int64 (cJSON_GetArrayItem (view, 1), 0, G_MAXINT, &b) != ZW_NUM_OK)
        return zw_pipeline_report_fail (error, origin, "%s: \"view\" is not [first op index, op count]", where);
      n.first_op = (gint) a;
      n.n_ops = (gint) b;
    }
  if (!get_u64 (it, "apart_etm_bytes", &n.apart_etm_bytes, origin, where, error))
    return FALSE;
  n.time_ms = -1;
  time = cJSON_GetObjectItemCaseSensitive (it, "time_ms");
  if (time != NULL && zw_json_double (time, 0, G_MAXDOUBLE, &n.time_ms) != ZW_NUM_OK)
    return zw_pipeline_report_fail (error, origin, "%s: \"time_ms\" is not a time", where);
  on_board = cJSON_GetObjectItemCaseSensitive (it, "on_board");
  if (on_board != NULL && !cJSON_IsBool (on_board))
    return zw_pipeline_report_fail (error, origin, "%s: \"on_board\" is not true or false", where);
  n.on_board = !cJSON_IsFalse (on_board);
  if (!n.on_board && cJSON_GetObjectItemCaseSensitive (it, "report") != NULL)
    return zw_pipeline_report_fail (error, origin, "%s: not on the board but has a deploy report", where);
  if (n.on_board)
    {
      g_autofree char *report_origin = g_strdup_printf ("%s (%s)", origin, where);
      const cJSON *r = cJSON_GetObjectItemCaseSensitive (it, "report");
      if (r == NULL)
        return zw_pipeline_report_fail (error, origin, "%s: on the board but no \"report\"", where);
      if ((n.report = zw_deploy_report_from_json (r, report_origin, error)) == NULL)
        return FALSE;
    }
  if ((prof = cJSON_GetObjectItemCaseSensitive (it, "profile")) != NULL)
    {
      g_autofree char *text = cJSON_PrintUnformatted (prof);
      g_autofree char *prof_origin = g_strdup_printf ("%s (%s, \"profile\")", origin, where);
      if (!cJSON_IsObject (prof) || text == NULL)
        {
          g_clear_pointer (&n.report, zw_deploy_report_unref);
          return zw_pipeline_report_fail (error, origin, "%s: \"profile\" is not a time profile", where);
        }
      if ((n.profile = zw_profile_parse (text, -1, prof_origin, NULL, NULL, error)) == NULL)
        {
          g_clear_pointer (&n.report, zw_deploy_report_unref);
          return FALSE;
        }
    }
  n.name = g_strdup (name);
  n.json = g_strdup (json);
  n.stage = (guint) stage;
  g_array_append_val (self->networks, n);
  return TRUE;
}

/* "NET:SEGMENT", "share:NAME:SEGMENT", "connect:NAME" or "other" */
static gboolean
parse_owner (ZwPipelineReport *self, ZwBoardChunk *c, const char *origin, const char *where, GError **error)
{
  const char *colon;
  ZwSegmentType type;

  c->network = -1;
  c->segment = -1;
  if (strcmp (c->owner, "other") == 0)
    {
      c->kind = ZW_BOARD_CHUNK_OTHER;
      return TRUE;
    }
  if (g_str_has_prefix (c->owner, "connect:") && c->owner[8] != '\0')
    {
      c->kind = ZW_BOARD_CHUNK_CONNECT;
      c->name = g_strdup (c->owner + 8);
      return TRUE;
    }
  colon = strrchr (c->owner, ':');
  if (colon == NULL || colon == c->owner || !zw_segment_type_from_string (colon + 1, &type))
    return zw_pipeline_report_fail (error, origin,
                                    "%s: owner \"%s\" is not NETWORK:SEGMENT, share:NAME:SEGMENT, connect:NAME or other",
                                    where, c->owner);
  c->segment = (gint) type;
  if (g_str_has_prefix (c->owner, "share:") && colon > c->owner + 6)
    {
      c->kind = ZW_BOARD_CHUNK_SHARE;
      c->name = g_strndup (c->owner + 6, (gsize) (colon - c->owner - 6));
      return TRUE;
    }
  {
    g_autofree char *net = g_strndup (c->owner, (gsize) (colon - c->owner));
    c->kind = ZW_BOARD_CHUNK_NETWORK;
    if ((c->network = zw_pipeline_report_find_network (self, net)) < 0)
      return zw_pipeline_report_fail (error, origin, "%s: owner \"%s\" names no network of the report", where,
                                      c->owner);
  }
  return TRUE;
}

static gint
by_addr (gconstpointer a, gconstpointer b)
{
  const ZwBoardChunk *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static gboolean
parse_rest (ZwPipelineReport *self, const cJSON *root, const char *origin, GError **error)
{
  const cJSON *it, *etm, *time;
  guint i = 0;

  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "board_chunks"))
    {
      ZwBoardChunk c = { 0 };
      g_autofree char *where = g_strdup_printf ("board_chunks[%u]", i++);
      const char *owner;
      if (!get_u64 (it, "addr", &c.addr, origin, where, error) || !get_u64 (it, "size", &c.size, origin, where, error)
          || !need_str (it, "owner", &owner, origin, where, error))
        return FALSE;
      if (c.size == 0 || c.addr > G_MAXUINT64 - c.size)
        return zw_pipeline_report_fail (error, origin, "%s: an empty or wrapping range", where);
      c.owner = g_strdup (owner);
      g_array_append_val (self->chunks, c);
      if (!parse_owner (self, &g_array_index (self->chunks, ZwBoardChunk, self->chunks->len - 1), origin, where, error))
        return FALSE;
    }
  g_array_sort (self->chunks, by_addr);

  i = 0;
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "shares"))
    {
      ZwPipelineShare s = { 0 };
      g_autofree char *where = g_strdup_printf ("shares[%u]", i++);
      const char *name, *segment;
      const cJSON *nn;
      ZwSegmentType type;
      if (!need_str (it, "name", &name, origin, where, error) || !need_str (it, "segment", &segment, origin, where, error)
          || !get_u64 (it, "addr", &s.addr, origin, where, error) || !get_u64 (it, "size", &s.size, origin, where, error))
        return FALSE;
      if (!zw_segment_type_from_string (segment, &type))
        return zw_pipeline_report_fail (error, origin, "%s: \"segment\" \"%s\" is not a segment type", where, segment);
      s.name = g_strdup (name);
      s.segment = (gint) type;
      s.networks = g_ptr_array_new_with_free_func (g_free);
      g_array_append_val (self->shares, s);
      cJSON_ArrayForEach (nn, cJSON_GetObjectItemCaseSensitive (it, "networks"))
        {
          if (!cJSON_IsString (nn) || zw_pipeline_report_find_network (self, nn->valuestring) < 0)
            return zw_pipeline_report_fail (error, origin, "%s: \"networks\" holds a name no network has", where);
          g_ptr_array_add (s.networks, g_strdup (nn->valuestring));
        }
    }

  i = 0;
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "connections"))
    {
      ZwPipelineConnection c = { 0 };
      g_autofree char *where = g_strdup_printf ("connections[%u]", i++);
      const char *name, *from, *to, *fm, *tm;
      if (!need_str (it, "name", &name, origin, where, error) || !need_str (it, "from", &from, origin, where, error)
          || !need_str (it, "to", &to, origin, where, error) || !need_str (it, "from_mode", &fm, origin, where, error)
          || !need_str (it, "to_mode", &tm, origin, where, error)
          || !get_i64 (it, "output_v_id", &c.output_v_id, origin, where, error)
          || !get_i64 (it, "input_v_id", &c.input_v_id, origin, where, error)
          || !get_u64 (it, "addr", &c.addr, origin, where, error) || !get_u64 (it, "size", &c.size, origin, where, error)
          || !get_u64 (it, "bytes", &c.bytes, origin, where, error))
        return FALSE;
      c.from = zw_pipeline_report_find_network (self, from);
      c.to = zw_pipeline_report_find_network (self, to);
      if (c.from < 0 || c.to < 0)
        return zw_pipeline_report_fail (error, origin, "%s: \"%s\" is not a network of the report", where,
                                        c.from < 0 ? from : to);
      c.name = g_strdup (name);
      c.from_mode = g_strdup (fm);
      c.to_mode = g_strdup (tm);
      g_array_append_val (self->connections, c);
    }

  etm = cJSON_GetObjectItemCaseSensitive (root, "etm");
  if (!get_u64 (etm, "board_bytes", &self->board_bytes, origin, "etm", error)
      || !get_u64 (etm, "apart_bytes", &self->apart_bytes, origin, "etm", error)
      || !get_i64 (etm, "saved_bytes", &self->saved_bytes, origin, "etm", error))
    return FALSE;
  time = cJSON_GetObjectItemCaseSensitive (root, "time");
  if (time != NULL)
    {
      guint64 passes = 0;
      if (zw_json_double (cJSON_GetObjectItemCaseSensitive (time, "pass_ms"), 0, G_MAXDOUBLE, &self->pass_ms) != ZW_NUM_OK)
        return zw_pipeline_report_fail (error, origin, "time: \"pass_ms\" is not a time");
      if (!get_u64 (time, "passes", &passes, origin, "time", error) || passes > G_MAXUINT)
        return passes > G_MAXUINT ? zw_pipeline_report_fail (error, origin, "time: \"passes\" is out of range") : FALSE;
      self->passes = (guint) passes;
    }
  return TRUE;
}

gboolean
zw_pipeline_report_is_pipeline (const cJSON *root)
{
  const char *format = get_str (root, "format");
  return format != NULL && strcmp (format, FORMAT) == 0;
}

ZwPipelineReport *
zw_pipeline_report_from_json (const cJSON *root, const char *origin, GError **error)
{
  g_autoptr (ZwPipelineReport) self = NULL;
  const cJSON *pipe, *it;
  gint64 version;
  guint i = 0;

  g_return_val_if_fail (origin != NULL, NULL);
  if (!zw_pipeline_report_is_pipeline (root))
    return zw_pipeline_report_fail (error, origin, "not a pipeline report (\"format\" is not \"" FORMAT "\")"), NULL;
  if (zw_json_int64 (cJSON_GetObjectItemCaseSensitive (root, "version"), 1, G_MAXINT, &version) != ZW_NUM_OK)
    return zw_pipeline_report_fail (error, origin, "\"version\" is not a version number"), NULL;
  if (version > VERSION)
    {
      g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_VERSION,
                   "%s: pipeline report version %" G_GINT64_FORMAT " is newer than this build reads (%d)", origin,
                   version, VERSION);
      return NULL;
    }
  if (!cJSON_IsArray (cJSON_GetObjectItemCaseSensitive (root, "networks"))
      || cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (root, "networks")) == 0
      || !cJSON_IsArray (cJSON_GetObjectItemCaseSensitive (root, "shares"))
      || !cJSON_IsArray (cJSON_GetObjectItemCaseSensitive (root, "connections"))
      || !cJSON_IsArray (cJSON_GetObjectItemCaseSensitive (root, "board_chunks"))
      || !cJSON_IsObject (cJSON_GetObjectItemCaseSensitive (root, "etm")))
    return zw_pipeline_report_fail (error, origin,
                                    "\"networks\", \"shares\", \"connections\", \"board_chunks\" and \"etm\" are required"),
           NULL;

  self = report_new ();
  pipe = cJSON_GetObjectItemCaseSensitive (root, "pipeline");
  self->name = g_strdup (get_str (pipe, "name") != NULL ? get_str (pipe, "name") : "");
  self->file = g_strdup (get_str (pipe, "file"));
  self->device = g_strdup (get_str (root, "device") != NULL ? get_str (root, "device") : "");
  cJSON_ArrayForEach (it, cJSON_GetObjectItemCaseSensitive (root, "networks"))
    if (!parse_network (self, it, i++, origin, error))
      return NULL;
  if (!parse_rest (self, root, origin, error))
    return NULL;
  return g_steal_pointer (&self);
}

ZwPipelineReport *
zw_pipeline_report_load (const char *path, GError **error)
{
  cJSON *root;
  ZwPipelineReport *r;

  g_return_val_if_fail (path != NULL, NULL);
  if ((root = zw_report_json_load (path, error)) == NULL)
    return NULL;
  r = zw_pipeline_report_from_json (root, path, error);
  cJSON_Delete (root);
  return r;
}

gint
zw_pipeline_report_find_network (const ZwPipelineReport *self, const char *name)
{
  g_return_val_if_fail (self != NULL, -1);
  for (guint i = 0; name != NULL && i < self->networks->len; i++)
    if (strcmp (g_array_index (self->networks, ZwPipelineNetwork, i).name, name) == 0)
      return (gint) i;
  return -1;
}

guint64
zw_pipeline_report_network_bytes (const ZwPipelineReport *self, guint index)
{
  guint64 sum = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i < self->chunks->len; i++)
    {
      const ZwBoardChunk *c = &g_array_index (self->chunks, ZwBoardChunk, i);
      if (c->kind == ZW_BOARD_CHUNK_NETWORK && c->network == (gint) index && !zw_u64_add (sum, c->size, &sum))
        return G_MAXUINT64;
    }
  return sum;
}
