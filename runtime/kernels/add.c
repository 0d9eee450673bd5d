/* add.c: the element-wise add (zg330_kernel_add): the flat loop, its table, the general case.
 */
#include "kernels/kernels-private.h"

#define ADD_TABLE_MIN ((gsize) 1 << 18)  /* bytes from which the table pays for itself */
#define ADD_PART ((gsize) 1 << 16)

static inline guint8
add_rule (const AddJob *job, guint8 x, guint8 y)
{
  double v = (double) raw_value (x, job->da) * job->ra;
  v = v + (double) raw_value (y, job->db) * job->rb;
  return (guint8) round_clamp (v, job->lo, job->hi);
}

void
add_part (const AddJob *job, gsize from, gsize to)
{
  for (gsize i = from; i < to; i++)
    job->po[i] = add_rule (job, job->pa[i], job->pb[i]);
}

static void
add_table_row (gpointer data, guint x)
{
  AddJob *job = data;

  for (guint y = 0; y < 256; y++)
    job->table[x * 256 + y] = add_rule (job, (guint8) x, (guint8) y);
}

static void
add_part_table (const AddJob *job, gsize from, gsize to)
{
  for (gsize i = from; i < to; i++)
    job->po[i] = job->table[(guint) job->pa[i] << 8 | job->pb[i]];
}

/* Part @part (ADD_PART bytes) of the flat add, by its loop. */
static void
add_part_range (gpointer data, guint part)
{
  const AddJob *job = data;
  gsize from = (gsize) part * ADD_PART;

  job->part (job, from, MIN (job->n, from + ADD_PART));
}

gboolean
zg330_kernel_add (const Zg330KernelTensor *a,
                  const Zg330KernelTensor *b,
                  const Zg330KernelTensor *out,
                  GError                 **error)
{
  FP_ENV_GUARD;
  gint lo, hi;

  g_return_val_if_fail (a != NULL && b != NULL && out != NULL, FALSE);
  if (!tensor_check (a, "add", "input a", TRUE, error)
      || !tensor_check (b, "add", "input b", TRUE, error)
      || !tensor_check (out, "add", "output", TRUE, error)
      || !check_same_nhw ("add", "input a", a, "output", out, TRUE, error)
      || !check_same_nhw ("add", "input b", b, "output", out, TRUE, error))
    return FALSE;
  dtype_range (out->dtype, &lo, &hi);

  if (same_memory_layout (a, out) && same_memory_layout (b, out)
      && (out->layout == ZG330_KERNEL_LAYOUT_NHWC || out->c % out->k == 0)
      && scales_uniform (a) && scales_uniform (b) && scales_uniform (out))
    {
      /* The common case: one flat loop over the bytes: with AVX-512 or AVX2, the rule 16
       * bytes at a time; else a large one reads a table of the rule's 65536 results
       * (computed by the same expression); in parallel when large. */
      AddJob job = { a->data, b->data, out->data, zg330_kernel_tensor_get_size (out),
                     (double) scale_of (a, 0) / (double) scale_of (out, 0),
                     (double) scale_of (b, 0) / (double) scale_of (out, 0),
                     a->dtype, b->dtype, lo, hi, NULL, add_part };
      const guint parts = (guint) ((job.n + ADD_PART - 1) / ADD_PART);
      if (kernel_platform ()->add_part != NULL)
        job.part = kernel_platform ()->add_part;
      else if (job.n >= ADD_TABLE_MIN)
        {
          job.table = g_malloc (65536);
          job.part = add_part_table;
          parallel_for (256, add_table_row, &job, 65536 * 5.0);
        }
      parallel_for (parts, add_part_range, &job, (double) job.n * (job.part == add_part ? 5.0 : 1.0));
      g_free (job.table);
      return TRUE;
    }

  {
    Addr aa, ab, ao;
    const guint8 *pa = a->data, *pb = b->data;
    guint8 *po = out->data;
    double *ra = g_new (double, out->c), *rb = g_new (double, out->c);

    addr_init (&aa, a); addr_init (&ab, b); addr_init (&ao, out);
    for (guint c = 0; c < out->c; c++)
      {
        ra[c] = (double) scale_of (a, c) / (double) scale_of (out, c);
        rb[c] = (double) scale_of (b, c) / (double) scale_of (out, c);
      }
    for (guint n = 0; n < out->n; n++)
      for (guint h = 0; h < out->h; h++)
        for (guint w = 0; w < out->w; w++)
          for (guint c = 0; c < out->c; c++)
            {
              double v = (double) raw_value (pa[n * aa.batch + aa.chan[c] + h * aa.row + w * aa.pix],
                                             a->dtype) * ra[c];
              v = v + (double) raw_value (pb[n * ab.batch + ab.chan[c] + h * ab.row + w * ab.pix],
                                          b->dtype) * rb[c];
              po[n * ao.batch + ao.chan[c] + h * ao.row + w * ao.pix] = (guint8) round_clamp (v, lo, hi);
            }
    addr_clear (&aa); addr_clear (&ab); addr_clear (&ao);
    g_free (ra);
    g_free (rb);
  }
  zero_padding (out);
  return TRUE;
}
