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
    }
  return cmp;
}

char *
zw_pipeline_apart_headline_text (const ZwPipelineApartHeadline *h)
{
  g_autofree char *board = NULL;
  g_autofree char *apart = NULL;
  g_autofree char *diff = NULL;
  gboolean saved = h->apart_bytes >= h->board_bytes;

  g_return_val_if_fail (h != NULL, NULL);
  board = g_format_size_full (h->board_bytes, G_FORMAT_SIZE_IEC_UNITS);
  apart = g_format_size_full (h->apart_bytes, G_FORMAT_SIZE_IEC_UNITS);
  diff = g_format_size_full (saved ? h->apart_bytes - h->board_bytes : h->board_bytes - h->apart_bytes,
                             G_FORMAT_SIZE_IEC_UNITS);
  if (saved)
    /* TRANSLATORS: a pipeline's pass against its networks run apart: times (ms), their
     * difference, then the ETM on one board against the networks' ETM apart and what the
     * pipeline saves */
    return g_strdup_printf (_("Pipeline pass %.3f ms, networks apart %.3f ms (%+.3f ms) · ETM %s on one board, %s "
                              "apart (saves %s)"),
                            h->pass_ms, h->apart_ms, h->pass_ms - h->apart_ms, board, apart, diff);
  /* TRANSLATORS: as above, the pipeline taking more ETM than its networks apart */
  return g_strdup_printf (_("Pipeline pass %.3f ms, networks apart %.3f ms (%+.3f ms) · ETM %s on one board, %s "
                            "apart (costs %s more)"),
                          h->pass_ms, h->apart_ms, h->pass_ms - h->apart_ms, board, apart, diff);
}
