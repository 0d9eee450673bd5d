/* xrt-session-dump.c — what a forward step leaves behind: the vendor's log lines of its
 * values, its profile type, and the dumps of the values it produced (setDumpOutputs).
 */
#include "xrt/xrt-session-private.h"

#include "base/zw-checked.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* ---- logs, dumps, profile ---------------------------------------------------------- */

/* The values of a step as the vendor logs them; for a merged launch only those that leave
 * it (its internal values never reach the host). */
void
xrt_session_describe_values (XrtSession *s, const XrtForward *f, GString *out, GArray *ids)
{
  gboolean first = TRUE;

  g_string_append_c (out, '(');
  for (guint k = 0; k < ids->len; k++)
    {
      const XirValue *v = xir_network_get_value (s->net, g_array_index (ids, gint64, k));
      g_autofree char *dt = NULL;
      if (f->op == NULL && ids == f->output_ids && (guint) v->last_use <= f->last_index && !v->is_network_output)
        continue;
      dt = xir_scalar_type_to_string (&v->element.storage);
      g_string_append_printf (out, "%sv%" G_GINT64_FORMAT " [", first ? "" : ", ", v->v_id);
      first = FALSE;
      for (guint d = 0; d < v->rank; d++)
        g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d ? "," : "", v->shape[d]);
      g_string_append_printf (out, "] %s %s", dt, v->layout.text);
    }
  g_string_append_c (out, ')');
}

char *
xrt_forward_step_type (const XrtForward *f)
{
  if (f->op == NULL)
    return g_strdup ("HardOp(Merged)");
  if (f->op->kind == XIR_OP_HARDOP)
    return g_strdup_printf ("HardOp(%s)", f->op->hard_class);
  return g_strdup (f->op->type_key);
}

/* "icraft::xir::HardOpNode", "icraft::xir::InputNode", "customop::DetPostZGNode" as the vendor's profile writes. */
char *
xrt_forward_profile_type (const XrtForward *f)
{
  if (f->op == NULL || f->op->kind == XIR_OP_HARDOP)
    return g_strdup ("icraft::xir::HardOpNode");
  return g_strdup_printf ("%sNode", f->op->type_key);
}

/* Dumps the values @ids that step @f produced, from where they are now. */
gboolean
xrt_session_dump_step (XrtSession *s, const XrtForward *f, GArray *ids, GError **error)
{
  for (guint k = 0; k < ids->len; k++)
    {
      gint64 v_id = g_array_index (ids, gint64, k);
      const XirValue *v = xir_network_get_value (s->net, v_id);
      XrtTensor *host = g_hash_table_lookup (s->host_values, &v_id);
      g_autofree guint8 *buf = NULL;
      const char *memory = "HOST";
      guint64 addr = 0;
      XrtMemRegion *region;
      XrtBackend *owner = NULL;
      const char *rname;

      if (s->dump_only != NULL && !g_hash_table_contains (s->dump_only, &v_id))
        continue;
      if (host != NULL)
        buf = xrt_tensor_dup_bytes (host, error);
      else if (xrt_session_device_place_of (s, v_id, &region, &addr, &owner))
        {
          /* inside a merged launch this runs at the sync point right after the value's
           * op (run_launch_step): later layers may overwrite it, and it may be in OCM */
          rname = xrt_mem_region_get_name (region);
          memory = g_ascii_strcasecmp (rname, "OCM") == 0 ? "OCM" : "ETM";
          if (!xrt_backend_can_read_back (owner, rname))
            {
              /* a board that cannot read this memory back (Buyi's OCM): the manifest says
               * which values are missing and why, the others are dumped */
              g_autofree char *note = g_strdup_printf ("%s%sv_id %" G_GINT64_FORMAT " not dumped: it lives in %s at 0x%"
                                                       G_GINT64_MODIFIER "x, which the %s cannot read back",
                                                       s->manifest->note ? s->manifest->note : "",
                                                       s->manifest->note ? "; " : "", v_id, rname, addr,
                                                       xrt_backend_get_name (owner));
              g_free (s->manifest->note);
              s->manifest->note = g_steal_pointer (&note);
              s->manifest->complete = FALSE;
              continue;
            }
          buf = g_malloc (MAX (v->storage_bytes, 1));
          if (!xrt_mem_region_read (region, addr, buf, v->storage_bytes, error))
            return FALSE;
        }
      else
        continue;
      if (buf == NULL)
        return FALSE;
      {
        ZwDumpType type;
        gboolean ok;
        zw_dump_type_init_from_value (&type, v);
        ok = zw_dump_write_value (s->dump_dir, &type, buf, v->storage_bytes, s->dump_fmt, NULL, error);
        zw_dump_type_clear (&type);
        if (!ok)
          return FALSE;
      }
      zw_dump_manifest_add (s->manifest, v, f->op != NULL ? f->op_id : xir_network_get_op (s->net, (guint) v->producer)->op_id,
                            g_strcmp0 (memory, "OCM") == 0 ? ZW_DUMP_MEMORY_OCM
                            : g_strcmp0 (memory, "ETM") == 0 ? ZW_DUMP_MEMORY_ETM : ZW_DUMP_MEMORY_HOST,
                            g_strcmp0 (memory, "HOST") == 0 ? -1 : (gint64) addr);
    }
  return TRUE;
}

gboolean
xrt_session_set_dump_outputs (XrtSession *s, gboolean flag, const char *dir, const char *format, GError **error)
{
  ZwDumpFormat fmt = { 0 };

  CHECK_ARG (s != NULL, "session", FALSE);
  CHECK_ARG (!flag || dir != NULL, "dir", FALSE);
  CHECK_ARG (!flag || format != NULL, "format", FALSE);
  if (flag && !zw_dump_format_parse (format, &fmt, error))
    return FALSE;
  if (flag && g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, XRT_SESSION_ERROR, XRT_SESSION_ERROR_IO, "%s: cannot create the dump folder", dir);
      return FALSE;
    }
  s->dump = flag;
  g_free (s->dump_dir);
  g_free (s->dump_format);
  s->dump_dir = g_strdup (dir);
  s->dump_format = g_strdup (format);
  s->dump_fmt = fmt;
  return TRUE;
}

gboolean
xrt_session_set_dump_values (XrtSession *s, const gint64 *v_ids, guint n_v_ids, GError **error)
{
  CHECK_ARG (s != NULL, "session", FALSE);
  CHECK_ARG (v_ids != NULL || n_v_ids == 0, "v_ids", FALSE);
  g_clear_pointer (&s->dump_only, g_hash_table_unref);
  if (n_v_ids == 0)
    return TRUE;
  s->dump_only = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n_v_ids; i++)
    g_hash_table_add (s->dump_only, g_memdup2 (&v_ids[i], sizeof (gint64)));
  return TRUE;
}
