/* planted-packing.c — generated ETM planner instances with a known perfect packing. */
#include "planted-packing.h"

void
zw_buffers_shuffle (GRand *rng, Zg330Buffer *b, guint n)
{
  for (guint i = n; i-- > 1;)
    {
      guint j = (guint) g_rand_int_range (rng, 0, (gint32) i + 1);
      Zg330Buffer tmp = b[i]; b[i] = b[j]; b[j] = tmp;
    }
}

GArray *
zw_planted_packing (GRand *rng, guint n, guint64 cap, gint64 horizon)
{
  typedef struct { gint64 t0, t1; guint64 off, h; } Piece;
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  Piece all = { 0, horizon, 0, cap };
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Zg330Buffer));

  g_array_append_val (pieces, all);
  for (guint tries = 0; pieces->len < n && tries < 100000; tries++)
    {
      guint k = (guint) g_rand_int_range (rng, 0, (gint32) pieces->len);
      Piece a = g_array_index (pieces, Piece, k), b = a;
      if (g_rand_boolean (rng))
        {
          if (a.t1 - a.t0 < 2)
            continue;
          a.t1 = b.t0 = g_rand_int_range (rng, (gint32) a.t0 + 1, (gint32) a.t1);
        }
      else
        {
          if (a.h / 512 < 2)
            continue;
          a.h = 512 * (guint64) g_rand_int_range (rng, 1, (gint32) (a.h / 512));
          b.off = a.off + a.h;
          b.h -= a.h;
        }
      g_array_index (pieces, Piece, k) = a;
      g_array_append_val (pieces, b);
    }
  for (guint i = 0; i < pieces->len; i++)
    {
      Piece x = g_array_index (pieces, Piece, i);
      Zg330Buffer b = { i, x.t0, x.t1, x.h, 0 };
      g_array_append_val (out, b);
    }
  zw_buffers_shuffle (rng, (Zg330Buffer *) out->data, out->len);
  return out;
}

void
zw_planted_series_init (ZwPlantedSeries *s, guint32 seed)
{
  s->rng = g_rand_new_with_seed (seed);
}

GArray *
zw_planted_series_next (ZwPlantedSeries *s, guint64 cap)
{
  guint n = 100 + (guint) g_rand_int_range (s->rng, 0, 401);
  return zw_planted_packing (s->rng, n, cap, 2000);
}

void
zw_planted_series_clear (ZwPlantedSeries *s)
{
  g_clear_pointer (&s->rng, g_rand_free);
}
