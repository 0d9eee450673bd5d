/* fuzz-buffers-csv.c — the buffer-list CSV of `xrt-run plan --buffers` (MiniMalloc's
 * id,lower,upper,size): load, lower bound, a greedy placement and the checker. */
#include "zw-fuzz.h"

#include "backends/zg330/zg330-etm-plan.h"

#include <stdio.h>
#include <stdlib.h>

int
zw_fuzz_buffers_csv (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  const char *path = zw_fuzz_write_file ("fuzz.csv", data, size);
  g_autoptr (GArray) b = zg330_buffers_load_csv (path, &error);

  if (b == NULL)
    {
      zw_fuzz_check_error (error, "fuzz.csv", "zg330_buffers_load_csv");
      return 0;
    }
  Zg330Buffer *buf = (Zg330Buffer *) (void *) b->data;
  guint64 lb = zg330_etm_lower_bound (buf, b->len, 1);
  Zg330PlanStats stats;
  if (b->len <= 4096 && zg330_etm_plan_greedy_by_size (buf, b->len, 1, &stats))
    {
      if (!zg330_etm_plan_check (buf, b->len, 0, &error))
        {
          fprintf (stderr, "zw-fuzz: a greedy plan fails the checker: %s\n", error->message);
          abort ();
        }
      if (stats.arena < lb)
        {
          fprintf (stderr, "zw-fuzz: arena %" G_GUINT64_FORMAT " below the lower bound %" G_GUINT64_FORMAT "\n",
                   stats.arena, lb);
          abort ();
        }
    }
  return 0;
}
