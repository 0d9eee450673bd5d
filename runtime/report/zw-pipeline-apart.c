/* zw-pipeline-apart.c — a pipeline's pass against its networks run apart (see the header). */
#include "report/zw-pipeline-apart.h"

#include <glib/gi18n.h>

ZwProfileCompare *
zw_pipeline_compare_apart (const ZwPipelineReport *pass, const ZwPipelineReport *apart,
                           const ZwCompareOptions *options, ZwPipelineApartHeadline *headline, GError **error)
{
  ZwProfileCompare *cmp;

  g_return_val_if_fail (pass != NULL && apart != NULL, NULL);
  for (guint i = 0; i < pass->networks->len; i++)
    {
      const char *name = g_array_index (pass->networks, ZwPipelineNetwork, i).name;
      if (zw_pipeline_report_find_network (apart, name) < 0)
        {
          /* TRANSLATORS: %s the pipeline's file or name, then a network's name */
          g_set_error (error, ZW_REPORT_ERROR, ZW_REPORT_ERROR_FORMAT,
                       _("%s: network “%s” of the pass was not run apart"), pass->file != NULL ? pass->file : pass->name,
                       name);
          return NULL;
        }
    }
  if ((cmp = zw_pipeline_compare (pass, apart, options, error)) == NULL)
    return NULL;
  if (headline != NULL)
    {
      headline->pass_ms = pass->pass_ms;
      headline->apart_ms = apart->pass_ms;
      headline->board_bytes = pass->board_bytes;
      headline->apart_bytes = apart->apart_bytes;
      headline->connected = 0;
      headline->connected_bytes = 0;
      headline->staged = 0;
      for (guint k = 0; k < pass->connections->len; k++)
        {
          const ZwPipelineConnection *c = &g_array_index (pass->connections, ZwPipelineConnection, k);
          if (g_strcmp0 (c->from_mode, "host") == 0 || g_strcmp0 (c->to_mode, "host") == 0)
            continue;
          headline->connected++;
          headline->connected_bytes += c->bytes;
          if (g_strcmp0 (c->from_mode, "staged") == 0 || g_strcmp0 (c->to_mode, "staged") == 0)
            headline->staged++;
        }
    }
  return cmp;
}

char *
zw_pipeline_apart_headline_text (const ZwPipelineApartHeadline *h)
{
  g_autofree char *board = NULL;
  g_autofree char *apart = NULL;
  g_autofree char *diff = NULL;
  g_autofree char *line = NULL;
  g_autofree char *carried = NULL;
  gboolean saved;

  g_return_val_if_fail (h != NULL, NULL);
  saved = h->apart_bytes >= h->board_bytes;
  board = g_format_size_full (h->board_bytes, G_FORMAT_SIZE_IEC_UNITS);
  apart = g_format_size_full (h->apart_bytes, G_FORMAT_SIZE_IEC_UNITS);
  diff = g_format_size_full (saved ? h->apart_bytes - h->board_bytes : h->board_bytes - h->apart_bytes,
                             G_FORMAT_SIZE_IEC_UNITS);
  if (saved)
    /* TRANSLATORS: a pipeline's pass against its networks run apart: times (ms), their
     * difference, then the ETM on one board against the networks' ETM apart and what the
     * pipeline saves */
    line = g_strdup_printf (_("Pipeline pass %.3f ms, networks apart %.3f ms (%+.3f ms) · ETM %s on one board, %s "
                              "apart (saves %s)"),
                            h->pass_ms, h->apart_ms, h->pass_ms - h->apart_ms, board, apart, diff);
  else
    /* TRANSLATORS: as above, the pipeline taking more ETM than its networks apart */
    line = g_strdup_printf (_("Pipeline pass %.3f ms, networks apart %.3f ms (%+.3f ms) · ETM %s on one board, %s "
                              "apart (costs %s more)"),
                            h->pass_ms, h->apart_ms, h->pass_ms - h->apart_ms, board, apart, diff);
  if (h->connected == 0)
    return g_steal_pointer (&line);
  carried = g_format_size_full (h->connected_bytes, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: after the headline, why the times differ: %1$u connections on the board
   * carry %2$s (bytes) with no host transfer, which the networks apart pay; %3$u of them
   * are staged and copy their values ETM to ETM at each staged end instead */
  return g_strdup_printf (_("%s · %u connection(s) on the board carry %s with no host transfer, %u staged (copied ETM "
                            "to ETM)"),
                          line, h->connected, carried, h->staged);
}
