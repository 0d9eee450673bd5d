/* zw-window-private.h — what the parts of the window share (zw-window.c: the object, its
 * template and view wiring; zw-window-actions.c; zw-window-open.c: opening files, recent
 * files, choosers, export; zw-window-run.c: runs and the history; zw-window-options.c: the
 * options panel and the settings; zw-window-sweep.c). Not installed, not for the views.
 */
#pragma once

#include "zw-window.h"
#include "zw-views.h"

G_BEGIN_DECLS

/* What the second file chooser is for (one is open at a time). */
typedef enum {
  CHOOSE_EXPORT,
  CHOOSE_DUMP,
  CHOOSE_COMPARE_FILES,
  CHOOSE_DIFF_FOLDERS,
  CHOOSE_COMPILE,
  CHOOSE_SAVE_DUMP,
  CHOOSE_OPEN_AS_PIPELINE,
  CHOOSE_SAVE_PIPELINE,
} ChooserPurpose;

enum {
  PROP_0,
  PROP_MERGE_HARDOP,
  PROP_ETM_OPTIMIZE,
  PROP_OCM_OPTION,
  PROP_VIEW,
  PROP_SIDEBAR_VISIBLE,
  PROP_BUSY,
  PROP_BANNER_MESSAGE,
  PROP_OFFLINE,
  PROP_ITERATIONS,
  PROP_SHOWN_FILE,
  N_PROPS
};

struct _ZwWindow
{
  GtkApplicationWindow parent_instance;

  ZwRunController *controller;
  ZwSelection *selection;
  GListStore *runs;
  guint n_runs_made;             /* runs handed to the history (an apply that replaced one counts) */

  /* from the template (zw-window.ui) */
  GtkWidget *stack;
  GtkWidget *switcher;
  GtkWidget *sidebar;
  GtkWidget *options_scroller;
  GtkWidget *history_box;
  GtkWidget *banner;
  GtkWidget *banner_label;
  GtkWidget *synthetic_button;
  GtkWidget *pipeline_button;    /* the banner's "Open as a Pipeline" (zw_window_offer_pipeline) */
  GtkWidget *progress_revealer;
  GtkWidget *progress_bar;
  GtkWidget *progress_label;
  guint progress_delay_source;   /* a run shows its progress only once it lasts (item 8) */
  char *compiles_path;           /* compile B of the Compiles view, and the options A had */
  char *compiles_options;
  GMenu *recent_menu;

  GtkWidget *options;
  GtkWidget *history;
  guint n_views;                 /* the table of views (zw-views.h), in its order: */
  const ZwViewKind *kinds;
  GtkWidget **views;
  GtkWidget **empty_states;      /* what to do when a view has nothing (Tensors, Timing, Sweep) */
  GtkNativeDialog *chooser;
  GtkNativeDialog *aux_chooser;
  ChooserPurpose aux_purpose;
  GtkWidget *sweep_dialog;       /* "Sweep Options…" while it is open */
  char *sweep_what_if;           /* what its entry held the last time */
  char *pipeline_path;           /* the pipeline file or report the controller opens or opened */
  GPtrArray *pipeline_runs;      /* ZwRun per network of the Board view's pipeline (NULL until shown) */
  gboolean showing_pass;         /* zw_window_show_pass is selecting the history's run */
  gboolean pipeline_is_report;   /* pipeline_path is a pipeline report (no Forward of its own) */
  ZwRun *apart_run;              /* the pipeline row whose networks run apart (until they finish) */
  char *pipeline_reshow;         /* the network whose options the panel changed: shown again after its pass */
  ZwPipelineApartHeadline apart_headline;   /* the last pass compared with its networks apart */
  gboolean has_apart_headline;

  char *run_banner;              /* said again when the run asked for finishes (a what-if applied) */

  char *shown_file;              /* the last file shown offline in timing/compare/tensors/diff/logs */
  char *tensors_dir;             /* the dump folder the Tensors view shows */
  GPtrArray *temp_dumps;         /* folders of "Dump tensors" runs, removed with the window */
  guint compare_source;
  gboolean compare_from_runs;    /* the Compare view shows two marked runs (not two files) */
  ZwProfile *unmapped_a, *unmapped_b;   /* two time files Compare shows unmapped (no network was
                                         * open): mapped when a run of theirs finishes */
  char *unmapped_label_a, *unmapped_label_b;
  guint compare_serial;          /* counts what Compare was given: a merge-on plan made for
                                  * older files is dropped */
  GCancellable *merge_on_cancel; /* the merge-on plan being made (zw-window-compare-plan.c) */
  ZwDeployReport *merge_on_of, *merge_on_plan;  /* the last merge-on plan and the run (merge
                                                 * off) it was made for */
  GSettings *settings;           /* the application's (NULL without schema) */
  gboolean state_saved;
  GtkStringList *recent;         /* the application's recent files (zw_window_attach) */

  gboolean merge_hardop;
  gboolean etm_optimize;
  char *ocm_option;
  char *view;
  gboolean sidebar_visible;
  char *banner_message;
  char *banner_path;      /* the file a "use synthetic params" reopens */
  GStrv banner_networks;  /* networks opened together the banner offers to open as a pipeline */
  gboolean offline;
  guint iterations;

  /* the user's backend options while a compiler-placed network shows its own (restored
   * when another network opens) */
  gboolean user_options_saved;
  gboolean user_merge_hardop;
  gboolean user_etm_optimize;
  char *user_ocm_option;

  guint reapply_source;
  gboolean syncing;       /* the window itself sets the options: no re-apply */
  gboolean selecting_new; /* a run just finished is being selected */
};

/* zw-window.c */
GParamSpec *zw_window_pspec (guint prop);
void zw_window_show_banner (ZwWindow *self, const char *message, const char *synthetic_path);
void zw_window_banner_for_error (ZwWindow *self, const char *path, const GError *error);
void zw_window_banner_for_warnings (ZwWindow *self, const char *path, GPtrArray *warnings);
void zw_window_set_view (ZwWindow *self, const char *view);
GtkWidget *zw_window_current_view (ZwWindow *self);
void zw_window_update_empty_states (ZwWindow *self);

/* zw-window-actions.c */
void zw_window_class_install_actions (GtkWidgetClass *widget_class);
/* The views' keys, window-wide: they act on the view shown wherever the focus is
 * (zw-window-keys.c). */
void zw_window_add_view_keys (ZwWindow *self);
void zw_window_update_actions (ZwWindow *self);

/* zw-window-options.c */
void zw_window_options_init (ZwWindow *self);
void zw_window_settings_init (ZwWindow *self);
void zw_window_read_options (ZwWindow *self, ZwRunOptions *options);
guint zw_window_read_iterations (ZwWindow *self);
void zw_window_request (ZwWindow *self, ZwRunMode mode);
void zw_window_sync_options_from_run (ZwWindow *self, ZwRun *run);
void zw_window_show_options_in_panel (ZwWindow *self, const ZwRunOptions *o);
void zw_window_options_for_run (ZwWindow *self, ZwRun *run);
void zw_window_restore_user_options (ZwWindow *self);
void zw_window_save_state (ZwWindow *self);

/* zw-window-run.c */
void zw_window_run_init (ZwWindow *self);
void zw_window_on_run_finished (ZwRunController *controller, ZwRun *run, ZwWindow *self);
void zw_window_remove_dump_dir (const char *dir);
/* Gives the memory of tensors no longer shown back to the system (after a dump or a diff). */
void zw_window_release_memory (void);

/* zw-window-open.c */
void zw_window_open_init (ZwWindow *self);
void zw_window_set_shown_file (ZwWindow *self, const char *path);
void zw_window_choose_file (ZwWindow *self);
/* The open dialog's filter: every kind of file the window opens (*_time.txt included). */
GtkFileFilter *zw_window_new_open_filter (void);
void zw_window_run_aux_chooser (ZwWindow *self, ChooserPurpose purpose, const char *title, GtkFileChooserAction mode,
                                gboolean multiple, const char *accept);
void zw_window_export_to (ZwWindow *self, const char *path);
void zw_window_on_recent_changed (GListModel *recent, guint position, guint removed, guint added, ZwWindow *self);

/* zw-window-sweep.c */
void zw_window_sweep_init (ZwWindow *self);
void zw_window_open_sweep (ZwWindow *self, const char *path);
void zw_window_action_sweep (GtkWidget *widget, const char *name, GVariant *param);
void zw_window_action_sweep_what_if (GtkWidget *widget, const char *name, GVariant *param);

/* zw-window-pipeline.c */
void zw_window_pipeline_init (ZwWindow *self);
void zw_window_open_pipeline (ZwWindow *self, const char *path);
void zw_window_show_pass (ZwWindow *self);
void zw_window_action_open_demo_pipeline (GtkWidget *widget, const char *name, GVariant *param);
void zw_window_show_pass_views (ZwWindow *self);
/* zw-window-pipeline-options.c: the options panel on a network of a pipeline */
gint zw_window_pipeline_network_of_run (ZwWindow *self, ZwRun *run);
gboolean zw_window_pipeline_network_selected (ZwWindow *self);
gboolean zw_window_pipeline_options_for_run (ZwWindow *self, ZwRun *run);
gboolean zw_window_pipeline_options_changed (ZwWindow *self);
void zw_window_pipeline_options_forget (ZwWindow *self, const char *path);
gint zw_window_pipeline_options_take_reshow (ZwWindow *self, ZwPipelineReport *pipeline);

/* zw-window-pipeline-history.c: a pipeline's passes as rows of the history (issue 38) */
ZwRun *zw_window_find_pipeline_run (ZwWindow *self, ZwPipelineReport *pipeline);
void zw_window_show_pipeline_run (ZwWindow *self, ZwRun *run);
gboolean zw_window_pipeline_can_forward (ZwWindow *self);
gboolean zw_window_pipeline_forward (ZwWindow *self);
gboolean zw_window_compare_pipeline_runs (ZwWindow *self, ZwRun *a, ZwRun *b);
gboolean zw_window_pipeline_apart_finished (ZwWindow *self, ZwPipelineReport *again, ZwPipelineReport *apart);
void zw_window_show_apart_run (ZwWindow *self, ZwRun *row);
void zw_window_pipeline_history_install_actions (GtkWidgetClass *widget_class);
void zw_window_pipeline_history_update_actions (ZwWindow *self);
/* zw-window-open.c: two time profiles in Compare; when both belong to the open network
 * (zw_profile_map_to_plan) its merge plan maps their launches to ops and names the classes,
 * else the banner says which does not belong and they are compared as they are */
void zw_window_compare_profiles (ZwWindow *self, const ZwProfile *a, const ZwProfile *b, const char *label_a,
                                 const char *label_b);
/* A run of @report's network finished: two time files Compare shows unmapped because no
 * network was open are mapped through it when they belong (nothing said when not). */
void zw_window_compare_map_later (ZwWindow *self, ZwDeployReport *report);
/* Compare shows something else now: no time files wait for a network. */
void zw_window_compare_forget_unmapped (ZwWindow *self);
/* zw-window-compare-plan.c: @a and @b compared through the network of @network (a run with
 * merge off) planned again with merge on in a worker: TRUE when mapped (the plan kept from
 * before) or being mapped (shown as they are until then); FALSE when they do not belong to
 * it (shown as they are, the banner saying why when @say). */
gboolean zw_window_compare_through_merge_on (ZwWindow *self, const ZwProfile *a, const ZwProfile *b,
                                             const char *label_a, const char *label_b, ZwDeployReport *network,
                                             gboolean say);
/* Compare was given something else: a merge-on plan being made is dropped. */
void zw_window_compare_plan_cancel (ZwWindow *self);
/* Drops the merge-on plan kept. */
void zw_window_compare_plan_clear (ZwWindow *self);

/* zw-window-pipeline-make.c: a pipeline from networks opened together */
void zw_window_offer_pipeline (ZwWindow *self, const char *const *paths);
gboolean zw_window_paths_are_networks (const char *const *paths);
gboolean zw_window_is_pipeline_report (const char *path);
void zw_window_pipeline_make_install_actions (GtkWidgetClass *widget_class);
void zw_window_pipeline_make_update_actions (ZwWindow *self);

G_END_DECLS
