/* xrt-pipeline-file.c — reading a pipeline file (the format is at the top of
 * xrt-pipeline.h): TOML's tables and `key = value` lines read as a GKeyFile, values
 * (strings, integers, booleans, one-line arrays) parsed and range-checked here, then the
 * rules that need no network file: names, references, stages, cycles. */
#include "deploy/xrt-pipeline-private.h"

#include <string.h>

/* ---- values -------------------------------------------------------------------------- */

typedef enum { VAL_STRING, VAL_INT, VAL_BOOL, VAL_ARRAY } ValKind;

typedef struct {
  ValKind kind;
  char *s;                /* VAL_STRING */
  gint64 i;               /* VAL_INT */
  gboolean b;             /* VAL_BOOL */
  GPtrArray *items;       /* VAL_ARRAY: Val* (strings and integers) */
} Val;

static void
val_free (Val *v)
{
  if (v == NULL)
    return;
  g_free (v->s);
  if (v->items)
    g_ptr_array_unref (v->items);
  g_free (v);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Val, val_free)

static const char *
kind_name (ValKind k)
{
  switch (k)
    {
    case VAL_STRING: return "a string";
    case VAL_INT: return "an integer";
    case VAL_BOOL: return "true or false";
    case VAL_ARRAY: return "an array";
    }
  return "?";
}

static void
skip_blanks (const char **p)
{
  while (**p == ' ' || **p == '\t')
    (*p)++;
}

/* One scalar at *p: "string", 'literal', integer, true, false. */
static Val *
parse_scalar (const char **p, GString *why)
{
  const char *s = *p;
  g_autoptr (Val) v = g_new0 (Val, 1);

  if (*s == '"' || *s == '\'')
    {
      char q = *s++;
      GString *out = g_string_new (NULL);

      while (*s != '\0' && *s != q)
        {
          if (q == '"' && *s == '\\')
            {
              s++;
              switch (*s)
                {
                case '"': g_string_append_c (out, '"'); break;
                case '\\': g_string_append_c (out, '\\'); break;
                case 'n': g_string_append_c (out, '\n'); break;
                case 't': g_string_append_c (out, '\t'); break;
                default:
                  g_string_append_printf (why, "an unknown escape \\%c in a string", *s ? *s : '0');
                  g_string_free (out, TRUE);
                  return NULL;
                }
              s++;
              continue;
            }
          g_string_append_c (out, *s++);
        }
      if (*s != q)
        {
          g_string_append (why, "a string without its closing quote");
          g_string_free (out, TRUE);
          return NULL;
        }
      v->kind = VAL_STRING;
      v->s = g_string_free (out, FALSE);
      *p = s + 1;
      return g_steal_pointer (&v);
    }
  if (g_str_has_prefix (s, "true") || g_str_has_prefix (s, "false"))
    {
      v->kind = VAL_BOOL;
      v->b = *s == 't';
      *p = s + (v->b ? 4 : 5);
      return g_steal_pointer (&v);
    }
  if (*s == '-' || *s == '+' || g_ascii_isdigit (*s))
    {
      const char *e = s + 1;
      g_autofree char *num = NULL;
      g_autoptr (GError) err = NULL;

      while (g_ascii_isdigit (*e) || *e == '_')
        e++;
      num = g_strndup (s, (gsize) (e - s));
      /* TOML allows 1_000 */
      {
        char *w = num;
        for (char *r = num; *r; r++)
          if (*r != '_')
            *w++ = *r;
        *w = '\0';
      }
      if (!g_ascii_string_to_signed (num, 10, G_MININT32, G_MAXINT64, &v->i, &err))
        {
          g_string_append_printf (why, "%s", err->message);
          return NULL;
        }
      v->kind = VAL_INT;
      *p = e;
      return g_steal_pointer (&v);
    }
  g_string_append (why, "a value that is not a string, an integer, true, false or an array");
  return NULL;
}

/* A whole value: a scalar or a one-line array of scalars, then only blanks or a comment. */
static Val *
parse_value (const char *text, GString *why)
{
  const char *p = text;
  g_autoptr (Val) v = NULL;

  skip_blanks (&p);
  if (*p == '[')
    {
      v = g_new0 (Val, 1);
      v->kind = VAL_ARRAY;
      v->items = g_ptr_array_new_with_free_func ((GDestroyNotify) val_free);
      p++;
      skip_blanks (&p);
      while (*p != ']')
        {
          Val *item = parse_scalar (&p, why);
          if (item == NULL)
            return NULL;
          if (v->items->len >= 4096)
            {
              val_free (item);
              g_string_append (why, "an array of more than 4096 items");
              return NULL;
            }
          g_ptr_array_add (v->items, item);
          skip_blanks (&p);
          if (*p == ',')
            {
              p++;
              skip_blanks (&p);
            }
          else if (*p != ']')
            {
              g_string_append (why, *p ? "an array whose items are not separated by commas"
                                       : "an array without its closing ] on the same line");
              return NULL;
            }
        }
      p++;
    }
  else if ((v = parse_scalar (&p, why)) == NULL)
    return NULL;
  skip_blanks (&p);
  if (*p != '\0' && *p != '#')
    {
      g_string_append_printf (why, "text after the value: \"%.20s\"", p);
      return NULL;
    }
  return g_steal_pointer (&v);
}

/* ---- the file ------------------------------------------------------------------------ */

typedef struct {
  const char *origin;
  GKeyFile *kf;
  const char *group;
} Reader;

static gboolean
fail (GError **error, XrtPipelineError code, const char *origin, const char *group, const char *key, const char *fmt,
      ...) G_GNUC_PRINTF (6, 7);

static gboolean
fail (GError **error, XrtPipelineError code, const char *origin, const char *group, const char *key, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (key != NULL)
    g_set_error (error, XRT_PIPELINE_ERROR, code, "%s: [%s] %s: %s", origin, group, key, msg);
  else if (group != NULL)
    g_set_error (error, XRT_PIPELINE_ERROR, code, "%s: [%s]: %s", origin, group, msg);
  else
    g_set_error (error, XRT_PIPELINE_ERROR, code, "%s: %s", origin, msg);
  return FALSE;
}

/* The value of @key in the reader's group as @kind, or NULL with @error (absent: NULL, no
 * error). */
static Val *
get (Reader *r, const char *key, ValKind kind, GError **error)
{
  g_autofree char *raw = NULL;
  g_autoptr (GString) why = g_string_new (NULL);
  g_autoptr (Val) v = NULL;

  if (!g_key_file_has_key (r->kf, r->group, key, NULL))
    return NULL;
  raw = g_key_file_get_value (r->kf, r->group, key, NULL);
  if ((v = parse_value (raw ? raw : "", why)) == NULL)
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, key, "%s", why->str);
      return NULL;
    }
  if (v->kind != kind)
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, key, "expected %s, got %s", kind_name (kind),
            kind_name (v->kind));
      return NULL;
    }
  return g_steal_pointer (&v);
}

/* Every key of the group is one of @known (a NULL-terminated list). */
static gboolean
only_keys (Reader *r, const char *const *known, GError **error)
{
  g_auto (GStrv) keys = g_key_file_get_keys (r->kf, r->group, NULL, NULL);

  for (guint i = 0; keys && keys[i]; i++)
    if (!g_strv_contains (known, keys[i]))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) known);
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, keys[i],
                     "an unknown key (this table takes %s)", list);
      }
  return TRUE;
}

static char *
resolve (const char *dir, const char *path)
{
  return g_path_is_absolute (path) ? g_strdup (path) : g_build_filename (dir, path, NULL);
}

static void
net_free (XrtPipelineNet *n)
{
  g_free (n->name);
  g_free (n->json);
  g_free (n->raw);
  g_free (n);
}

static void
share_free (XrtPipelineShare *s)
{
  g_free (s->name);
  g_ptr_array_unref (s->networks);
  g_free (s);
}

static void
connect_free (XrtPipelineConnect *c)
{
  g_free (c->name);
  g_free (c->from);
  g_free (c->to);
  g_free (c);
}

void
xrt_pipeline_spec_free (XrtPipelineSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->origin);
  g_free (spec->dir);
  g_free (spec->name);
  g_free (spec->device);
  g_ptr_array_unref (spec->nets);
  g_ptr_array_unref (spec->shares);
  g_ptr_array_unref (spec->connects);
  g_free (spec);
}

XrtPipelineNet *
xrt_pipeline_spec_find (const XrtPipelineSpec *spec, const char *name, guint *index)
{
  for (guint i = 0; i < spec->nets->len; i++)
    {
      XrtPipelineNet *n = g_ptr_array_index (spec->nets, i);
      if (strcmp (n->name, name) == 0)
        {
          if (index)
            *index = i;
          return n;
        }
    }
  return NULL;
}

/* GKeyFile merges a table given twice and keeps the last of a key given twice: both are
 * refused here, before it reads the text, with the line. Arrays of tables ([[x]]) too. */
static gboolean
scan_repeats (const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *text = g_strndup (data, length);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *group = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *l = g_strstrip (lines[i]);
      char *eq;

      if (*l == '\0' || *l == '#')
        continue;
      if (g_str_has_prefix (l, "[["))
        {
          g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_SYNTAX,
                       "%s:%u: arrays of tables ([[…]]) are not part of a pipeline file: give each network its "
                       "own [network.NAME] table", origin, i + 1);
          return FALSE;
        }
      if (*l == '[')
        {
          char *end = strchr (l, ']');
          if (end == NULL)
            {
              g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_SYNTAX, "%s:%u: a table header without ]",
                           origin, i + 1);
              return FALSE;
            }
          g_free (group);
          group = g_strstrip (g_strndup (l + 1, (gsize) (end - l - 1)));
          if (!g_hash_table_add (groups, g_strdup (group)))
            {
              g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_REFERENCE,
                           "%s:%u: [%s] is given twice: a repeated name", origin, i + 1, group);
              return FALSE;
            }
          continue;
        }
      if ((eq = strchr (l, '=')) != NULL)
        {
          g_autofree char *key = g_strstrip (g_strndup (l, (gsize) (eq - l)));
          g_autofree char *full = g_strdup_printf ("%s\n%s", group ? group : "", key);
          if (!g_hash_table_add (keys, g_steal_pointer (&full)))
            {
              g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_SYNTAX, "%s:%u: [%s] %s: the key is given twice",
                           origin, i + 1, group ? group : "", key);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
is_name (const char *s)
{
  if (*s == '\0' || strlen (s) > 64)
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '-')
      return FALSE;
  return TRUE;
}

static gboolean
read_bool (Reader *r, const char *key, gint *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (Val) v = get (r, key, VAL_BOOL, &local);

  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  *out = v ? v->b : -1;
  return TRUE;
}

static gboolean
read_network (XrtPipelineSpec *spec, Reader *r, const char *name, GError **error)
{
  static const char *const known[] = { "json", "raw", "ops", "stage", "merge_hardop", "etm_optimize", "ocmopt", NULL };
  g_autoptr (GError) local = NULL;
  XrtPipelineNet *n;
  Val *v;

  if (!only_keys (r, known, error))
    return FALSE;
  n = g_new0 (XrtPipelineNet, 1);
  n->name = g_strdup (name);
  n->stage = -1;
  n->file_order = spec->nets->len;
  g_ptr_array_add (spec->nets, n);
  if ((v = get (r, "json", VAL_STRING, &local)) == NULL)
    {
      if (local == NULL)
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "json", "missing: the network's JSON file");
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  n->json = resolve (spec->dir, v->s);
  val_free (v);
  if ((v = get (r, "raw", VAL_STRING, &local)) != NULL)
    {
      n->raw = resolve (spec->dir, v->s);
      val_free (v);
    }
  if (local)
    goto out;
  if ((v = get (r, "ops", VAL_ARRAY, &local)) != NULL)
    {
      gboolean ok = v->items->len == 1 || v->items->len == 2;
      n->ops[1] = G_MAXINT;   /* [first]: to the end */
      for (guint k = 0; ok && k < v->items->len; k++)
        {
          Val *it = g_ptr_array_index (v->items, k);
          ok = it->kind == VAL_INT && it->i >= G_MININT32 && it->i <= G_MAXINT32;
          if (ok)
            n->ops[k] = (gint) it->i;
        }
      val_free (v);
      if (!ok)
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "ops",
                     "expected [first, end] (end excluded) or [first] (to the end): op indices, negative ones counting from the end");
      n->has_ops = TRUE;
    }
  if (local)
    goto out;
  if ((v = get (r, "stage", VAL_INT, &local)) != NULL)
    {
      gboolean ok = v->i >= 0 && v->i <= 1000;
      n->stage = (gint) v->i;
      n->stage_given = TRUE;
      val_free (v);
      if (!ok)
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "stage", "expected 0 to 1000");
    }
  if (local)
    goto out;
  if (!read_bool (r, "merge_hardop", &n->merge_hardop, error) || !read_bool (r, "etm_optimize", &n->etm_optimize, error))
    return FALSE;
  {
    g_autofree char *raw = g_key_file_get_value (r->kf, r->group, "ocmopt", NULL);
    if (raw != NULL)
      {
        g_autoptr (GString) why = g_string_new (NULL);
        g_autoptr (Val) o = parse_value (raw, why);
        g_autofree char *text = NULL;

        if (o == NULL)
          return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "ocmopt", "%s", why->str);
        text = o->kind == VAL_STRING ? g_strdup (o->s)
               : o->kind == VAL_INT ? g_strdup_printf ("%" G_GINT64_FORMAT, o->i) : g_strdup ("");
        if (!zw_ocm_opt_from_string (text, &n->ocm))
          return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "ocmopt",
                       "\"%s\" is not an OCM option (NONE, OPTION1, OPTION2, OPTION3, BEST_SCORE, or 0 to 4)", text);
        n->ocm_given = TRUE;
      }
  }
  return TRUE;
out:
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

static gboolean
read_share (XrtPipelineSpec *spec, Reader *r, const char *name, GError **error)
{
  static const char *const known[] = { "networks", "segments", NULL };
  g_autoptr (GError) local = NULL;
  g_autoptr (Val) nets = NULL, segs = NULL;
  XrtPipelineShare *s;

  if (!only_keys (r, known, error))
    return FALSE;
  if ((nets = get (r, "networks", VAL_ARRAY, &local)) == NULL || (segs = get (r, "segments", VAL_ARRAY, &local)) == NULL)
    {
      if (local)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, nets ? "segments" : "networks",
                   nets ? "missing: the segments shared (FTMP; WEIGHT and INSTR between views of one network)"
                        : "missing: the networks that share");
    }
  s = g_new0 (XrtPipelineShare, 1);
  s->name = g_strdup (name);
  s->networks = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (spec->shares, s);
  if (nets->items->len < 2)
    return fail (error, XRT_PIPELINE_ERROR_RULE, r->origin, r->group, "networks", "a share needs two networks or more");
  for (guint k = 0; k < nets->items->len; k++)
    {
      Val *it = g_ptr_array_index (nets->items, k);
      if (it->kind != VAL_STRING)
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "networks", "expected network names");
      if (xrt_pipeline_spec_find (spec, it->s, NULL) == NULL)
        return fail (error, XRT_PIPELINE_ERROR_REFERENCE, r->origin, r->group, "networks",
                     "\"%s\" is not a network of the file (no [network.%s])", it->s, it->s);
      for (guint j = 0; j < s->networks->len; j++)
        if (strcmp (g_ptr_array_index (s->networks, j), it->s) == 0)
          return fail (error, XRT_PIPELINE_ERROR_REFERENCE, r->origin, r->group, "networks", "\"%s\" is given twice",
                       it->s);
      g_ptr_array_add (s->networks, g_strdup (it->s));
    }
  if (segs->items->len == 0)
    return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "segments", "no segment given");
  for (guint k = 0; k < segs->items->len; k++)
    {
      Val *it = g_ptr_array_index (segs->items, k);
      ZwSegmentType t;
      if (it->kind != VAL_STRING || !zw_segment_type_from_string (it->s, &t)
          || (t != ZW_SEGMENT_WEIGHT && t != ZW_SEGMENT_INSTR && t != ZW_SEGMENT_FTMP))
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "segments",
                     "\"%s\" cannot be shared (WEIGHT, INSTR or FTMP)", it->kind == VAL_STRING ? it->s : "?");
      s->segments[t] = TRUE;
    }
  return TRUE;
}

/* An end of a connection: `KEY = position` or `KEY_id = v_id`, exactly one. */
static gboolean
read_end (Reader *r, const char *key, gint64 *index, gint64 *v_id, gboolean *by_id, GError **error)
{
  g_autofree char *id_key = g_strdup_printf ("%s_id", key);
  g_autoptr (GError) local = NULL;
  g_autoptr (Val) pos = get (r, key, VAL_INT, &local);
  g_autoptr (Val) id = NULL;

  if (local == NULL)
    id = get (r, id_key, VAL_INT, &local);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if ((pos == NULL) == (id == NULL))
    return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, key,
                 "give either %s (a position among the view's %ss) or %s (a v_id)", key, key, id_key);
  if (pos != NULL && (pos->i < 0 || pos->i > 100000))
    return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, key, "%" G_GINT64_FORMAT " is not a position",
                 pos->i);
  if (id != NULL && id->i < 0)
    return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, id_key, "%" G_GINT64_FORMAT " is not a v_id",
                 id->i);
  *by_id = id != NULL;
  *index = pos ? pos->i : -1;
  *v_id = id ? id->i : -1;
  return TRUE;
}

static gboolean
read_connect (XrtPipelineSpec *spec, Reader *r, const char *name, GError **error)
{
  static const char *const known[] = { "from", "to", "output", "output_id", "input", "input_id", "mode", NULL };
  const char *ends[2] = { "from", "to" };
  g_autoptr (GError) local = NULL;
  XrtPipelineConnect *c;

  if (!only_keys (r, known, error))
    return FALSE;
  c = g_new0 (XrtPipelineConnect, 1);
  c->name = g_strdup (name);
  g_ptr_array_add (spec->connects, c);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (Val) v = get (r, ends[k], VAL_STRING, &local);
      if (local)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (v == NULL)
        return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, ends[k], "missing: a network's name");
      if (xrt_pipeline_spec_find (spec, v->s, NULL) == NULL)
        return fail (error, XRT_PIPELINE_ERROR_REFERENCE, r->origin, r->group, ends[k],
                     "\"%s\" is not a network of the file (no [network.%s])", v->s, v->s);
      if (k == 0)
        c->from = g_strdup (v->s);
      else
        c->to = g_strdup (v->s);
    }
  if (strcmp (c->from, c->to) == 0)
    return fail (error, XRT_PIPELINE_ERROR_RULE, r->origin, r->group, "to",
                 "\"%s\" is connected to itself: a cycle", c->to);
  /* no end at all: every value `to` reads from `from` */
  c->every = !g_key_file_has_key (r->kf, r->group, "output", NULL) && !g_key_file_has_key (r->kf, r->group, "output_id", NULL)
             && !g_key_file_has_key (r->kf, r->group, "input", NULL) && !g_key_file_has_key (r->kf, r->group, "input_id", NULL);
  if (!c->every && (!read_end (r, "output", &c->output_index, &c->output_id, &c->output_by_id, error)
                    || !read_end (r, "input", &c->input_index, &c->input_id, &c->input_by_id, error)))
    return FALSE;
  {
    g_autoptr (Val) mode = get (r, "mode", VAL_STRING, &local);
    if (local)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return FALSE;
      }
    if (mode != NULL && strcmp (mode->s, "auto") != 0 && strcmp (mode->s, "staged") != 0)
      return fail (error, XRT_PIPELINE_ERROR_SYNTAX, r->origin, r->group, "mode",
                   "\"%s\": expected \"auto\" (zero-copy where it can) or \"staged\"", mode->s);
    c->staged = mode != NULL && strcmp (mode->s, "staged") == 0;
  }
  return TRUE;
}

/* Pass order: a network after every network that feeds it, else in file order (Kahn's
 * algorithm, the smallest file order first); a cycle is refused naming a connection on it.
 * Stages not given are the positions in that order; given ones must respect the
 * connections; networks that share FTMP must be in different stages. */
static gboolean
order_and_stage (XrtPipelineSpec *spec, GError **error)
{
  guint n = spec->nets->len;
  g_autofree guint *indeg = g_new0 (guint, n);
  g_autofree gboolean *done = g_new0 (gboolean, n);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();

  for (guint k = 0; k < spec->connects->len; k++)
    {
      XrtPipelineConnect *c = g_ptr_array_index (spec->connects, k);
      guint to;
      xrt_pipeline_spec_find (spec, c->to, &to);
      indeg[to]++;
    }
  while (order->len < n)
    {
      guint pick = G_MAXUINT;
      for (guint i = 0; i < n && pick == G_MAXUINT; i++)
        if (!done[i] && indeg[i] == 0)
          pick = i;
      if (pick == G_MAXUINT)
        {
          for (guint k = 0; k < spec->connects->len; k++)
            {
              XrtPipelineConnect *c = g_ptr_array_index (spec->connects, k);
              guint from;
              xrt_pipeline_spec_find (spec, c->from, &from);
              if (!done[from])
                {
                  g_autofree char *group = g_strdup_printf ("connect.%s", c->name);
                  return fail (error, XRT_PIPELINE_ERROR_RULE, spec->origin, group, "from",
                               "the connections form a cycle through \"%s\" and \"%s\"", c->from, c->to);
                }
            }
          g_assert_not_reached ();
        }
      done[pick] = TRUE;
      g_ptr_array_add (order, g_ptr_array_index (spec->nets, pick));
      for (guint k = 0; k < spec->connects->len; k++)
        {
          XrtPipelineConnect *c = g_ptr_array_index (spec->connects, k);
          guint from, to;
          xrt_pipeline_spec_find (spec, c->from, &from);
          xrt_pipeline_spec_find (spec, c->to, &to);
          if (from == pick)
            indeg[to]--;
        }
    }
  /* the array owns the nets: move them in the new order */
  {
    g_autoptr (GPtrArray) nets = g_ptr_array_new_with_free_func ((GDestroyNotify) net_free);
    for (guint i = 0; i < n; i++)
      g_ptr_array_add (nets, g_ptr_array_index (order, i));
    g_ptr_array_set_free_func (spec->nets, NULL);
    g_ptr_array_unref (spec->nets);
    spec->nets = g_steal_pointer (&nets);
  }
  for (guint i = 0; i < n; i++)
    {
      XrtPipelineNet *net = g_ptr_array_index (spec->nets, i);
      if (!net->stage_given)
        net->stage = (gint) i;
    }
  for (guint k = 0; k < spec->connects->len; k++)
    {
      XrtPipelineConnect *c = g_ptr_array_index (spec->connects, k);
      XrtPipelineNet *from = xrt_pipeline_spec_find (spec, c->from, NULL);
      XrtPipelineNet *to = xrt_pipeline_spec_find (spec, c->to, NULL);
      if (from->stage >= to->stage)
        {
          g_autofree char *group = g_strdup_printf ("connect.%s", c->name);
          return fail (error, XRT_PIPELINE_ERROR_RULE, spec->origin, group, "to",
                       "\"%s\" (stage %d) reads what \"%s\" (stage %d) writes: it must run in a later stage", c->to,
                       to->stage, c->from, from->stage);
        }
    }
  for (guint k = 0; k < spec->shares->len; k++)
    {
      XrtPipelineShare *s = g_ptr_array_index (spec->shares, k);
      if (!s->segments[ZW_SEGMENT_FTMP])
        continue;
      for (guint a = 0; a < s->networks->len; a++)
        for (guint b = a + 1; b < s->networks->len; b++)
          {
            XrtPipelineNet *na = xrt_pipeline_spec_find (spec, g_ptr_array_index (s->networks, a), NULL);
            XrtPipelineNet *nb = xrt_pipeline_spec_find (spec, g_ptr_array_index (s->networks, b), NULL);
            if (na->stage == nb->stage)
              {
                g_autofree char *group = g_strdup_printf ("share.%s", s->name);
                return fail (error, XRT_PIPELINE_ERROR_RULE, spec->origin, group, "segments",
                             "FTMP shared between \"%s\" and \"%s\", which are in flight together (stage %d): "
                             "each would overwrite the other's feature maps",
                             na->name, nb->name, na->stage);
              }
          }
    }
  return TRUE;
}

XrtPipelineSpec *
xrt_pipeline_spec_parse (const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr (XrtPipelineSpec) spec = g_new0 (XrtPipelineSpec, 1);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) groups = NULL;
  g_autoptr (GError) local = NULL;
  Reader r = { origin, NULL, NULL };

  spec->origin = g_strdup (origin);
  spec->dir = g_path_get_dirname (origin);
  spec->nets = g_ptr_array_new_with_free_func ((GDestroyNotify) net_free);
  spec->shares = g_ptr_array_new_with_free_func ((GDestroyNotify) share_free);
  spec->connects = g_ptr_array_new_with_free_func ((GDestroyNotify) connect_free);
  if (memchr (data, '\0', length) != NULL)
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, NULL, NULL, "a NUL byte: not a text file");
      return NULL;
    }
  if (!scan_repeats (data, length, origin, error))
    return NULL;
  if (!g_key_file_load_from_data (kf, data, length, G_KEY_FILE_NONE, &local))
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, NULL, NULL, "%s", local->message);
      return NULL;
    }
  r.kf = kf;
  groups = g_key_file_get_groups (kf, NULL);
  /* [pipeline] first, then the networks, then what refers to them */
  for (guint pass = 0; pass < 3; pass++)
    for (guint i = 0; groups[i] != NULL; i++)
      {
        const char *g = groups[i];
        const char *dot = strchr (g, '.');
        g_autofree char *table = dot ? g_strndup (g, (gsize) (dot - g)) : g_strdup (g);
        const char *name = dot ? dot + 1 : NULL;
        gboolean ok = TRUE;

        r.group = g;
        if (pass == 0)
          {
            if (strcmp (table, "pipeline") != 0 && strcmp (table, "network") != 0 && strcmp (table, "share") != 0
                && strcmp (table, "connect") != 0)
              {
                fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, g, NULL,
                      "an unknown table (a pipeline file has [pipeline], [network.NAME], [share.NAME] and "
                      "[connect.NAME])");
                return NULL;
              }
            if ((strcmp (table, "pipeline") == 0) != (name == NULL) || (name != NULL && !is_name (name)))
              {
                fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, g, NULL,
                      name == NULL ? "a table without its name: [%s.NAME]" : "\"%s\" is not a name (letters, digits, "
                      "_ and -, at most 64)", name == NULL ? table : name);
                return NULL;
              }
            if (strcmp (table, "pipeline") == 0)
              {
                static const char *const known[] = { "name", "device", NULL };
                g_autoptr (Val) v = NULL;
                if (!only_keys (&r, known, error))
                  return NULL;
                if ((v = get (&r, "name", VAL_STRING, &local)) != NULL)
                  spec->name = g_strdup (v->s);
                g_clear_pointer (&v, val_free);
                if (local == NULL && (v = get (&r, "device", VAL_STRING, &local)) != NULL)
                  spec->device = g_strdup (v->s);
                if (local)
                  {
                    g_propagate_error (error, g_steal_pointer (&local));
                    return NULL;
                  }
              }
          }
        else if (pass == 1 && strcmp (table, "network") == 0)
          ok = read_network (spec, &r, name, error);
        else if (pass == 2 && strcmp (table, "share") == 0)
          ok = read_share (spec, &r, name, error);
        else if (pass == 2 && strcmp (table, "connect") == 0)
          ok = read_connect (spec, &r, name, error);
        if (!ok)
          return NULL;
      }
  if (spec->nets->len == 0)
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, NULL, NULL, "no network: give each one a [network.NAME] table");
      return NULL;
    }
  if (spec->nets->len > 64)
    {
      fail (error, XRT_PIPELINE_ERROR_SYNTAX, origin, NULL, NULL, "%u networks: at most 64", spec->nets->len);
      return NULL;
    }
  if (spec->name == NULL)
    {
      g_autofree char *base = g_path_get_basename (origin);
      if (g_str_has_suffix (base, ".toml"))
        base[strlen (base) - 5] = '\0';
      spec->name = g_steal_pointer (&base);
    }
  if (!order_and_stage (spec, error))
    return NULL;
  return g_steal_pointer (&spec);
}
