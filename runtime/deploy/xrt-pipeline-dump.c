/* xrt-pipeline-dump.c — a pipeline's values dumped into one folder (issue 38 item 3).
 *
 * Each network's session dumps as one network's does (setDumpOutputs: {v_id}.ftmp and a
 * manifest.json) into a part folder of its own inside the dump folder; after the pass its
 * files are moved up as "NET.V_ID.ftmp" and its manifest's entries join one manifest.json
 * whose entries name their network (report/zw-dump.h), and the part folders go. So a value
 * of the pipeline is named by network and v_id everywhere: "NET:V_ID". */
#include "deploy/xrt-pipeline-private.h"

#include "report/zw-dump.h"
#include "report/zw-pipeline-pass.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* Where network @m's session dumps during a pass. */
static char *
part_dir (XrtPipeline *self, const XrtPipelineMember *m)
{
  g_autofree char *part = g_strdup_printf (".%s.part", m->name);
  return g_build_filename (self->dump_dir, part, NULL);
}

gboolean
xrt_pipeline_set_dump (XrtPipeline *self, const char *dir, const char *format, GError **error)
{
  ZwDumpFormat parsed;

  g_return_val_if_fail (XRT_IS_PIPELINE (self), FALSE);
  if (dir != NULL && !zw_dump_format_parse (format != NULL ? format : "SQB", &parsed, error))
    return FALSE;
  g_clear_pointer (&self->dump_dir, g_free);
  g_clear_pointer (&self->dump_format, g_free);
  if (dir != NULL)
    {
      self->dump_dir = g_strdup (dir);
      self->dump_format = g_strdup (zw_dump_format_to_string (parsed));
    }
  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      XrtSession *session = xrt_deployment_get_session (m->deployment);
      g_autofree char *part = dir != NULL ? part_dir (self, m) : NULL;
      if (session == NULL)
        continue;
      if (!xrt_session_set_dump_outputs (session, dir != NULL, part, self->dump_format, error))
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
io_error (GError **error, const char *origin, const char *path, const char *what, int saved)
{
  g_set_error (error, XRT_PIPELINE_ERROR, XRT_PIPELINE_ERROR_DUMP, "%s: dump: %s: %s: %s", origin, path, what,
               g_strerror (saved));
  return FALSE;
}

gboolean
xrt_pipeline_dump_collect (XrtPipeline *self, GError **error)
{
  g_autoptr (ZwDumpManifest) all = NULL;
  g_autoptr (GString) note = g_string_new (NULL);
  ZwDumpFormat format;

  if (self->dump_dir == NULL)
    return TRUE;
  if (!zw_dump_format_parse (self->dump_format, &format, error))
    return FALSE;
  all = zw_dump_manifest_new (self->spec->name, format, TRUE, NULL);
  for (guint i = 0; i < self->members->len; i++)
    {
      XrtPipelineMember *m = XRT_PIPELINE_MEMBER (self, i);
      g_autofree char *part = part_dir (self, m);
      g_autofree char *manifest_path = g_build_filename (part, "manifest.json", NULL);
      g_autoptr (ZwDumpManifest) mine = NULL;
      g_autofree gpointer *entries = NULL;
      gsize n = 0;

      if (!g_file_test (manifest_path, G_FILE_TEST_IS_REGULAR))
        continue;   /* it dumped nothing */
      if ((mine = zw_dump_manifest_load (manifest_path, NULL, error)) == NULL)
        {
          g_prefix_error (error, "%s: network \"%s\": ", self->spec->origin, m->name);
          return FALSE;
        }
      if (!mine->complete)
        {
          all->complete = FALSE;
          g_string_append_printf (note, "%s%s: %s", note->len > 0 ? "; " : "", m->name,
                                  mine->note != NULL ? mine->note : "not every value");
        }
      entries = g_ptr_array_steal (mine->entries, &n);
      for (gsize k = 0; k < n; k++)
        {
          ZwDumpManifestEntry *e = entries[k];
          g_autofree char *from = g_build_filename (part, e->file, NULL);
          g_autofree char *name = zw_pipeline_value_file_name (m->name, e->type.v_id);
          g_autofree char *to = g_build_filename (self->dump_dir, name, NULL);
          if (g_rename (from, to) != 0)
            {
              int saved = errno;
              /* the rest of this manifest's entries go with it */
              for (gsize r = k; r < n; r++)
                g_ptr_array_add (mine->entries, entries[r]);
              return io_error (error, self->spec->origin, from, "cannot move it into the dump folder", saved);
            }
          g_free (e->file);
          e->file = g_steal_pointer (&name);
          g_free (e->network);
          e->network = g_strdup (m->name);
          g_ptr_array_add (all->entries, e);
        }
      if (g_unlink (manifest_path) != 0 || g_rmdir (part) != 0)
        return io_error (error, self->spec->origin, part, "cannot remove the network's part folder", errno);
    }
  if (note->len > 0)
    all->note = g_strdup (note->str);
  return zw_dump_manifest_write (all, self->dump_dir, error);
}
