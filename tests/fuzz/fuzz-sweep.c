/* fuzz-sweep.c — a sweep JSON (`xrt-run sweep --json`; the workbench's Sweep view opens
 * it): load; the front must be non-dominated and the recommendation on it; written back as
 * JSON it loads to the same rows, and as CSV it writes; every row's what-if point gives a
 * board profile or an error naming the point (the workbench deploys an opened row on it). */
#include "zw-fuzz.h"

#include "deploy/zg330-sweep.h"
#include "devices/zg330-timing.h"
#include "report/zw-sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
zw_fuzz_sweep (const uint8_t *data, size_t size)
{
  const char *path = zw_fuzz_write_file ("fuzz-sweep.json", data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (ZwSweep) sweep = zw_sweep_load (path, &error);
  g_autoptr (Zg330Profile) base = NULL;
  g_autoptr (ZwSweep) again = NULL;
  g_autofree char *text = NULL, *csv = NULL;
  cJSON *json;

  if (sweep == NULL)
    {
      zw_fuzz_check_error (error, "fuzz-sweep.json", "zw_sweep_load");
      return 0;
    }
  for (guint i = 0; i < sweep->rows->len; i++)
    {
      const ZwSweepRow *a = &g_array_index (sweep->rows, ZwSweepRow, i);
      for (guint j = 0; a->on_front && j < sweep->rows->len; j++)
        {
          const ZwSweepRow *b = &g_array_index (sweep->rows, ZwSweepRow, j);
          if (b->error == NULL && zw_sweep_row_dominates (b, a))
            {
              fprintf (stderr, "zw-fuzz: sweep row %u is on the front but row %u dominates it\n", i, j);
              abort ();
            }
        }
    }
  if (sweep->recommended >= (gint) sweep->rows->len
      || (sweep->recommended >= 0 && !g_array_index (sweep->rows, ZwSweepRow, sweep->recommended).on_front))
    {
      fprintf (stderr, "zw-fuzz: the recommended row %d is not a row on the front\n", sweep->recommended);
      abort ();
    }

  json = zw_sweep_to_json (sweep);
  text = cJSON_PrintUnformatted (json);
  cJSON_Delete (json);
  path = zw_fuzz_write_file ("written-sweep.json", (const uint8_t *) text, strlen (text));
  again = zw_sweep_load (path, &error);
  if (again == NULL || again->rows->len != sweep->rows->len || again->recommended != sweep->recommended)
    {
      fprintf (stderr, "zw-fuzz: a sweep we wrote does not load back the same: %s\n",
               error ? error->message : "other rows");
      abort ();
    }
  csv = zw_sweep_to_csv (sweep);
  g_assert_nonnull (csv);

  base = zg330_profile_new_builtin ();
  for (guint i = 0; i < MIN (sweep->rows->len, 64u); i++)
    {
      const ZwSweepRow *row = &g_array_index (sweep->rows, ZwSweepRow, i);
      g_autoptr (GError) perr = NULL;
      g_autoptr (Zg330Profile) p = zg330_sweep_profile_for_point (base, row->what_if, &perr);
      if (p == NULL && (perr == NULL || perr->message == NULL || *perr->message == '\0'))
        {
          fprintf (stderr, "zw-fuzz: what-if point of row %u refused without a message\n", i);
          abort ();
        }
    }
  return 0;
}
