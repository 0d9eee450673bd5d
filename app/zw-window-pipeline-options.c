/* zw-window-pipeline-options.c — the options panel on a network of a pipeline: a network
 * clicked in Board is a run of the history; while it is selected, the panel shows that
 * network's options and a change runs a new pass of the pipeline file with them for that
 * network (zw_run_controller_set_pipeline_network_options: the other networks keep the
 * file's). The options stay for every pass after, until another pipeline opens; the new
 * pass is a row of the history, and the network is shown again from it. */
#include "zw-window-private.h"

#include <glib/gi18n.h>

#include "zw-board-view.h"

static ZwPipelineReport *
board_pipeline (ZwWindow *self)
{
  return zw_board_view_get_pipeline (ZW_BOARD_VIEW (zw_window_get_view (self, "board")));
}

gint
zw_window_pipeline_network_of_run (ZwWindow *self, ZwRun *run)
{
  for (guint i = 0; run != NULL && self->pipeline_runs != NULL && i < self->pipeline_runs->len; i++)
    if (g_ptr_array_index (self->pipeline_runs, i) == run)
      return (gint) i;
  return -1;
}

static const char *
network_name (ZwWindow *self, gint index)
{
  ZwPipelineReport *p = board_pipeline (self);

  return p != NULL && index >= 0 && (guint) index < p->networks->len
             ? g_array_index (p->networks, ZwPipelineNetwork, index).name
             : NULL;
}

gboolean
zw_window_pipeline_options_for_run (ZwWindow *self, ZwRun *run)
{
  const char *name = network_name (self, zw_window_pipeline_network_of_run (self, run));
  g_autofree char *reason = NULL;
  gboolean editable;

  if (run != NULL && zw_run_get_kind (run) == ZW_RUN_PIPELINE)
    {
      /* a pass (or its networks apart): no one network's options to show */
      g_object_set (self->options, "fixed", FALSE, "reason",
                    _("A pipeline pass: each network has options of its own (the row lists them). Click a network "
                      "in Board to show and change its options."),
                    "editable", FALSE, NULL);
      return TRUE;
    }
  if (name == NULL)
    return FALSE;
  editable = zw_window_pipeline_can_forward (self);
  if (editable)
    /* TRANSLATORS: the options panel on network %s of pipeline file %s */
    reason = g_strdup_printf (_("Network “%s” of the pipeline %s: a change runs a new pass with these options for "
                                "it; the other networks keep their own. The device what-ifs are the board's."),
                              name, self->pipeline_path);
  else
    /* TRANSLATORS: the options panel on network %s of a pipeline report read from disk */
    reason = g_strdup_printf (_("Network “%s” of a pipeline report read from a file: its options are shown as it "
                                "ran."),
                              name);
  g_object_set (self->options, "fixed", FALSE, "reason", reason, "editable", editable, NULL);
  return TRUE;
}

gboolean
zw_window_pipeline_network_selected (ZwWindow *self)
{
  return network_name (self, zw_window_pipeline_network_of_run (self, zw_window_get_selected_run (self))) != NULL;
}

gboolean
zw_window_pipeline_options_changed (ZwWindow *self)
{
  const char *name = network_name (self, zw_window_pipeline_network_of_run (self, zw_window_get_selected_run (self)));
  ZwRunOptions options;

  if (name == NULL)
    return FALSE;
  if (!zw_window_pipeline_can_forward (self))
    return TRUE;
  zw_window_read_options (self, &options);
  zw_run_controller_set_pipeline_network_options (self->controller, name, &options);
  g_free (self->pipeline_reshow);
  self->pipeline_reshow = g_strdup (name);
  zw_window_pipeline_forward (self);
  return TRUE;
}

void
zw_window_pipeline_options_forget (ZwWindow *self, const char *path)
{
  if (g_strcmp0 (self->pipeline_path, path) == 0)
    return;
  zw_run_controller_clear_pipeline_options (self->controller);
  g_clear_pointer (&self->pipeline_reshow, g_free);
}

gint
zw_window_pipeline_options_take_reshow (ZwWindow *self, ZwPipelineReport *pipeline)
{
  g_autofree char *name = g_steal_pointer (&self->pipeline_reshow);

  return name != NULL ? zw_pipeline_report_find_network (pipeline, name) : -1;
}
