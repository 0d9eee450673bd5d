/* zw-half.c — IEEE half precision <-> float (zw-half.h). */
#include "base/zw-half.h"

#include <math.h>
#include <string.h>

float
zw_fp16_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000u) << 16;
  guint32 exp = (h >> 10) & 0x1fu;
  guint32 man = h & 0x3ffu;
  guint32 bits;
  float f;

  if (exp == 0x1f)
    bits = sign | 0x7f800000u | (man << 13);
  else if (exp != 0)
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  else if (man == 0)
    bits = sign;
  else
    {
      /* Subnormal half: value = man * 2^-24, exact in float. */
      f = (float) man * 5.9604644775390625e-8f;
      return sign ? -f : f;
    }
  memcpy (&f, &bits, sizeof f);
  return f;
}

guint16
zw_float_to_fp16 (float f)
{
  guint32 x;
  guint32 sign, absx;

  memcpy (&x, &f, sizeof x);
  sign = (x >> 16) & 0x8000u;
  absx = x & 0x7fffffffu;

  if (absx >= 0x7f800000u)                       /* inf or NaN */
    return (guint16) (sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0));
  if (absx >= 0x477ff000u)                       /* rounds to >= 65520: overflow */
    return (guint16) (sign | 0x7c00u);
  if (absx < 0x38800000u)                        /* below the smallest normal half */
    {
      /* Scale to units of 2^-24 and round to nearest even in float arithmetic,
       * which is exact here (the float has at most 24 significant bits). */
      float a;
      memcpy (&a, &absx, sizeof a);
      float u = a * 16777216.0f;                 /* a / 2^-24 */
      float r = nearbyintf (u);                  /* default mode: nearest even */
      return (guint16) (sign | (guint32) r);
    }
  {
    guint32 exp = (absx >> 23) - 112u;
    guint32 man = absx & 0x7fffffu;
    guint32 h = (exp << 10) | (man >> 13);
    guint32 rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      h++;                                       /* may carry into the exponent: fine */
    return (guint16) (sign | h);
  }
}

void
zw_fp16_array_to_float (const guint8 *src, gsize n, float *dst)
{
  for (gsize i = 0; i < n; i++)
    dst[i] = zw_fp16_to_float ((guint16) (src[2 * i] | (src[2 * i + 1] << 8)));
}

void
zw_float_array_to_fp16 (const float *src, gsize n, guint8 *dst)
{
  for (gsize i = 0; i < n; i++)
    {
      guint16 h = zw_float_to_fp16 (src[i]);
      dst[2 * i] = (guint8) (h & 0xff);
      dst[2 * i + 1] = (guint8) (h >> 8);
    }
}

