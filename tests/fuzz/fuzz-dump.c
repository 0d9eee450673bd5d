/* fuzz-dump.c — a dump folder: the input is split at lines "@@ NAME" into files (the first
 * part, before any such line, is manifest.json; NAME is sanitised to [0-9A-Za-z._]).
 * Load with and without the network, decode every value, statistics, heatmaps, and the
 * diff of the folder against itself (what `xrt-run report diff/stats` do). */
#include "zw-fuzz.h"

#include "report/zw-dump-diff.h"
#include "report/zw-tensor-stats.h"

#include <stdlib.h>
#include <string.h>

static void
write_part (const char *dir, const char *name, const uint8_t *data, size_t size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  if (!g_file_set_contents_full (path, (const char *) data, (gssize) size, G_FILE_SET_CONTENTS_NONE, 0600, NULL))
    abort ();
}

static void
split_into (const char *dir, const uint8_t *data, size_t size)
{
  const char *name = "manifest.json";
  char name_buf[64];
  size_t start = 0, i = 0;

  while (i <= size)
    {
      gboolean at_marker = i + 3 <= size && (i == 0 || data[i - 1] == '\n') && memcmp (data + i, "@@ ", 3) == 0;
      if (i == size || at_marker)
        {
          if (i > start || i == size)
            write_part (dir, name, data + start, i - start);
          if (i == size)
            break;
          size_t j = i + 3, k = 0;
          while (j < size && data[j] != '\n' && k + 1 < sizeof name_buf)
            {
              char c = (char) data[j++];
              name_buf[k++] = g_ascii_isalnum (c) || c == '.' || c == '_' ? c : '_';
            }
          name_buf[k] = '\0';
          while (j < size && data[j] != '\n')
            j++;
          name = k > 0 && strcmp (name_buf, ".") != 0 && strcmp (name_buf, "..") != 0 ? name_buf : "x.ftmp";
          start = i = j < size ? j + 1 : size;
          continue;
        }
      i++;
    }
}

static void
inspect (ZwDumpFolder *folder, XirNetwork *net)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) side = zw_dump_diff_load_side (folder, net, warnings);
  for (guint i = 0; i < side->len; i++)
    {
      const ZwTensor *t = side->pdata[i];
      zw_tensor_stats_free (zw_tensor_stats_compute (t, 16));
      g_autoptr (GError) error = NULL;
      g_free (zw_tensor_heatmap (t, 0, 0, FALSE, &error));
      gint64 coords[4];
      zw_tensor_coords_of (t, 0, coords);
    }
  g_autoptr (GPtrArray) side_b = zw_dump_diff_load_side (folder, net, NULL);
  g_autoptr (ZwDumpDiff) diff = zw_dump_diff_tensors (side, side_b, net, NULL, NULL);
  cJSON_Delete (zw_dump_diff_to_json (diff));
}

int
zw_fuzz_dump (const uint8_t *data, size_t size)
{
  static XirNetwork *net;
  g_autoptr (GError) error = NULL;

  if (net == NULL)
    {
      net = xir_network_new_from_json_file (zw_fuzz_tiny_network_path (), &error);
      if (net == NULL)
        g_error ("zw-fuzz: %s", error->message);
    }
  const char *dir = zw_fuzz_fresh_dir ("dumpSFB");
  split_into (dir, data, size);
  for (int with_net = 0; with_net < 2; with_net++)
    {
      g_clear_error (&error);
      g_autoptr (ZwDumpFolder) folder = zw_dump_folder_load (dir, with_net ? net : NULL, NULL, &error);
      if (folder == NULL)
        {
          zw_fuzz_check_error (error, "dumpSFB", "zw_dump_folder_load");
          continue;
        }
      inspect (folder, with_net ? net : NULL);
    }
  return 0;
}
