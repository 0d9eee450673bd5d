/* xir-stream.c — the streamed load: the top-level object and its "ops" array framed with
 * cJSON's own rules, each op parsed, built and freed while it is hot.
 */
#include "xir/xir-private.h"

#include <string.h>

/* ---- the streamed load ----------------------------------------------------------
 *
 * A large network's tree does not fit in any cache: walking it after the parse and freeing
 * it cost more than the parse. So the usual file is read op by op: the top-level object and
 * the "ops" array are framed here with cJSON's own rules (whitespace is any byte <= 32,
 * cJSON_ParseWithLengthOpts() with the rest of the buffer parses each key and value, so every
 * byte is judged by cJSON as in one parse), each op's tree is parsed, turned into an XirOp
 * and freed while it is hot. Anything unusual (a syntax error, a BOM, a duplicate "ops",
 * deep nesting, a field at fault) gives up and the whole-tree load runs instead: every error
 * comes from one code path, with its exact message. The JSON of a value's first appearance
 * is kept until the end, where later appearances are compared with it. */

#define JSON_SKIP_WS(p, end) while ((p) < (end) && (unsigned char) *(p) <= 32) (p)++

/* The number of '[' and '{' bytes in @n bytes at @s, eight at a time ('[' | 0x20 == '{'). */
static gsize
count_brackets (const char *s, gsize n)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), low7 = ones * 0x7F;
  gsize count = 0, i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 x;

      memcpy (&x, s + i, 8);
      x = (x | ones * 0x20) ^ (ones * '{');                /* a zero byte where a bracket was */
      x = ~(((x & low7) + low7) | x | low7) >> 7;           /* 1 in each such byte, else 0 */
      count += (gsize) ((x * ones) >> 56);                  /* the sum of the bytes */
    }
  for (; i < n; i++)
    count += (s[i] | 0x20) == '{';
  return count;
}

/* One JSON value at @p (cJSON parses it with the rest of the buffer, as in a whole parse);
 * NULL if it does not parse, starts with something that is no value (a BOM that cJSON would
 * skip at a buffer's start), or nests more than half of cJSON's limit (counting brackets,
 * strings' included: the whole parse sees it deeper than this one). */
static cJSON *
json_piece (const char **p, const char *end)
{
  const char *start = *p, *after = NULL;
  cJSON *item;
  gsize brackets = 0;

  if (start >= end || strchr ("{[\"-0123456789tfn", *start) == NULL || *start == '\0')
    return NULL;
  item = cJSON_ParseWithLengthOpts (start, (gsize) (end - start), &after, FALSE);
  if (item == NULL)
    return NULL;
  brackets = count_brackets (start, (gsize) (after - start));
  if (brackets >= CJSON_NESTING_LIMIT / 2)
    {
      cJSON_Delete (item);
      return NULL;
    }
  *p = after;
  return item;
}

/* Frames the JSON object at *@p (at its '{') member by member: @member reads each value
 * (the key's string is handed over) and adds it to @obj. FALSE on anything unusual. */
typedef gboolean (*MemberFunc) (cJSON *obj, char *key, const char **p, const char *end, gpointer data);


/* After an item of an object or array (@close '}' or ']'): a ',' and more items, the
 * closing bracket, or anything else (not the framing this reader takes). */
typedef enum { JSON_BAD, JSON_MORE, JSON_CLOSED } JsonAfter;

static JsonAfter
json_after_item (const char **pp, const char *end, char close)
{
  const char *p = *pp;

  JSON_SKIP_WS (p, end);
  if (p < end && *p == ',')
    {
      p++;
      JSON_SKIP_WS (p, end);
      *pp = p;
      return JSON_MORE;
    }
  *pp = p;
  return p < end && *p == close ? JSON_CLOSED : JSON_BAD;
}

static gboolean
json_frame_object (cJSON *obj, const char **pp, const char *end, MemberFunc member, gpointer data)
{
  const char *p = *pp;

  if (p >= end || *p != '{')
    return FALSE;
  p++;
  JSON_SKIP_WS (p, end);
  for (;;)
    {
      cJSON *key;
      char *name;

      if (p >= end || *p != '"' || (key = json_piece (&p, end)) == NULL)
        return FALSE;
      name = key->valuestring;
      key->valuestring = NULL;
      cJSON_Delete (key);
      if (name == NULL)
        return FALSE;
      JSON_SKIP_WS (p, end);
      if (p >= end || *p != ':')
        {
          cJSON_free (name);
          return FALSE;
        }
      p++;
      JSON_SKIP_WS (p, end);
      if (!member (obj, name, &p, end, data))
        return FALSE;
      switch (json_after_item (&p, end, '}'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

/* Adds @value as @obj's member @key (taking the key string, as cJSON's parser does). */
static void
json_add_member (cJSON *obj, char *key, cJSON *value)
{
  value->string = key;
  cJSON_AddItemToArray (obj, value);  /* an object's members are its children in order */
}

/* A member read as one piece. */
static gboolean
member_piece (cJSON *obj, char *key, const char **p, const char *end, gpointer data)
{
  cJSON *value = json_piece (p, end);

  (void) data;
  if (value == NULL)
    {
      cJSON_free (key);
      return FALSE;
    }
  json_add_member (obj, key, value);
  return TRUE;
}

/* A member of an op: "inputs" and "outputs" item by item, with each item's text. */
static gboolean
member_of_op (cJSON *obj, char *key, const char **pp, const char *end, gpointer data)
{
  XirLoadText *lt = data;
  GArray *spans = strcmp (key, "inputs") == 0 ? lt->inputs : strcmp (key, "outputs") == 0 ? lt->outputs : NULL;
  const char *p = *pp;
  cJSON *arr;

  if (spans == NULL || p >= end || *p != '[')
    return member_piece (obj, key, pp, end, NULL);
  if (spans->len > 0 || cJSON_GetObjectItemCaseSensitive (obj, key) != NULL)
    {
      cJSON_free (key);  /* a second "inputs": only a whole parse says what it means */
      return FALSE;
    }
  arr = cJSON_CreateArray ();
  json_add_member (obj, key, arr);
  p++;
  JSON_SKIP_WS (p, end);
  if (p < end && *p == ']')
    {
      *pp = p + 1;
      return TRUE;
    }
  for (;;)
    {
      TextSpan span = { p, 0 };
      cJSON *item = json_piece (&p, end);

      if (item == NULL)
        return FALSE;
      span.len = (gsize) (p - span.text);
      g_array_append_val (spans, span);
      cJSON_AddItemToArray (arr, item);
      switch (json_after_item (&p, end, ']'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

typedef struct {
  XirNetwork *net;
  gboolean seen_ops;
} StreamState;

/* A member of the network: "ops" op by op, each built and freed at once. */
static gboolean
member_of_network (cJSON *obj, char *key, const char **pp, const char *end, gpointer data)
{
  StreamState *st = data;
  XirLoadText *lt = st->net->load_text;
  const char *p = *pp;

  if (strcmp (key, "ops") != 0)
    return member_piece (obj, key, pp, end, NULL);
  cJSON_free (key);
  if (st->seen_ops || p >= end || *p != '[')
    return FALSE;
  st->seen_ops = TRUE;
  p++;
  JSON_SKIP_WS (p, end);
  for (guint index = 0;; index++)
    {
      cJSON *op = cJSON_CreateObject ();
      gboolean ok;

      g_array_set_size (lt->inputs, 0);
      g_array_set_size (lt->outputs, 0);
      ok = json_frame_object (op, &p, end, member_of_op, lt) && xir_network_build_op (st->net, index, op, NULL);
      cJSON_Delete (op);
      if (!ok)
        return FALSE;
      switch (json_after_item (&p, end, ']'))
        {
        case JSON_MORE:
          continue;
        case JSON_CLOSED:
          break;
        default:
          return FALSE;
        }
      break;
    }
  *pp = p + 1;
  return TRUE;
}

/* The streamed load, or NULL: then the whole-tree load gives the answer. */
XirNetwork *
xir_network_new_streamed (const char *data, gsize length, const char *origin)
{
  g_autoptr (XirNetwork) net = xir_network_alloc (origin);
  XirLoadText lt;
  StreamState st = { net, FALSE };
  cJSON *head = cJSON_CreateObject ();
  const char *p = data, *end = data + length;
  gboolean ok;

  lt.first = g_hash_table_new (g_int64_hash, g_int64_equal);
  lt.spans = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  lt.inputs = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  lt.outputs = g_array_new (FALSE, FALSE, sizeof (TextSpan));
  net->load_text = &lt;
  JSON_SKIP_WS (p, end);
  /* what follows the top-level object is not read, as in cJSON_ParseWithLengthOpts () */
  ok = json_frame_object (head, &p, end, member_of_network, &st) && st.seen_ops
       && xir_network_build_head (net, head, NULL) && xir_network_build_tail (net, NULL);
  net->load_text = NULL;
  g_hash_table_unref (lt.first);
  g_array_unref (lt.spans);
  g_array_unref (lt.inputs);
  g_array_unref (lt.outputs);
  cJSON_Delete (head);
  return ok ? g_steal_pointer (&net) : NULL;
}
