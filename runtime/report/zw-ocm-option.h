/* zw-ocm-option.h — the OCM options (the vendor's OcmOpt): one enum and one table.
 *
 * Every reader of an OCM option — the planner (backends/zg330/zg330-ocm-planners.c, its
 * table of planner functions indexed by this enum), the deploy report and its JSON, the
 * CLI's --ocm, the options panel, the OCM and sweep views, the sweep, and Python (through
 * the Zw GIR) — takes the option's names, label, method and description from the table in
 * zw-ocm-option.c.  A new option is a member here, a row there and its planner function.
 *
 * The numbers are the vendor's: NONE (0) places nothing in OCM; OPTION1, OPTION2, … (1, 2,
 * …) are the planners, each a placement method of its own; BEST_SCORE (-1) runs every
 * planner and keeps the cheapest placement (ties: the lower number).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * ZwOcmOpt:
 * @ZW_OCM_BEST_SCORE: run every planner, keep the cheapest placement (the default)
 * @ZW_OCM_NONE: every feature map in ETM
 * @ZW_OCM_OPTION1: global scoring
 * @ZW_OCM_OPTION2: locally optimal dynamic programming
 * @ZW_OCM_OPTION3: sequential evict-by-score
 *
 * OcmOpt as in the vendor's zg330backend.h (ZG330Backend manual §2.3.5).
 */
typedef enum {
  ZW_OCM_BEST_SCORE = -1,
  ZW_OCM_NONE = 0,
  ZW_OCM_OPTION1 = 1,
  ZW_OCM_OPTION2 = 2,
  ZW_OCM_OPTION3 = 3,
#ifndef __GI_SCANNER__
  /* one past the last planner: arrays indexed by option number (0 = NONE) have this
   * length.  Not an option: hidden from the bindings and the GType. */
  ZW_OCM_N_SLOTS /*< skip >*/
#endif
} ZwOcmOpt;

/**
 * zw_ocm_opt_get_count:
 *
 * The rows of the table, in the order every list shows them: NONE, the planners,
 * BEST_SCORE.
 *
 * Returns: how many OCM options there are
 */
guint zw_ocm_opt_get_count (void);

/**
 * zw_ocm_opt_get_nth:
 * @index: a row, 0 .. zw_ocm_opt_get_count () - 1
 *
 * The OCM option in row @index of the one table of options (the order every reader lists
 * them in).
 *
 * Returns: the option of row @index
 */
ZwOcmOpt zw_ocm_opt_get_nth (guint index);

/**
 * zw_ocm_opt_get_index:
 * @opt: an option
 *
 * Where @opt is in the table of OCM options.
 *
 * Returns: @opt's row in the table, or -1 when @opt is no option
 */
gint zw_ocm_opt_get_index (ZwOcmOpt opt);

/**
 * zw_ocm_opt_to_string:
 * @opt: an option
 *
 * The vendor's name, as the deploy report's JSON and the CLI's tables print it.
 *
 * Returns: "NONE", "OPTION1", …, "BEST_SCORE" (static), or "?" for a value that is no
 *   option
 */
const char *zw_ocm_opt_to_string (ZwOcmOpt opt);

/**
 * zw_ocm_opt_get_nick:
 * @opt: an option
 *
 * The short spelling: the workbench's "ocm-option" property and action target.
 *
 * Returns: "none", "option1", …, "best" (static), or "?" for a value that is no option
 */
const char *zw_ocm_opt_get_nick (ZwOcmOpt opt);

/**
 * zw_ocm_opt_from_string:
 * @text: (nullable): an option as a user writes it
 * @out: (out): the option
 *
 * Reads an option from its vendor name or short spelling in any case ("OPTION1",
 * "option1", "None", "best", "BEST_SCORE") or its number ("1", "-1"): every spelling
 * the CLI's --ocm, the vendor's TOML (ocmopt = 0) and the deploy report use.
 *
 * Returns: %FALSE (and @out untouched) for any other text
 */
gboolean zw_ocm_opt_from_string (const char *text, ZwOcmOpt *out);

/**
 * zw_ocm_opt_get_label:
 * @opt: an option
 *
 * The option's one name in every UI (sidebar, charts, history, compare), translated.
 *
 * Returns: "None", "Option 1", …, "Best score", or "?" for a value that is no option
 */
const char *zw_ocm_opt_get_label (ZwOcmOpt opt);

/**
 * zw_ocm_opt_get_method:
 * @opt: an option
 *
 * What a planner does in two or three words, shown beside its label where there is
 * room, translated.
 *
 * Returns: "global score", …; "" for NONE, BEST_SCORE (no method of their own) and a
 *   value that is no option
 */
const char *zw_ocm_opt_get_method (ZwOcmOpt opt);

/**
 * zw_ocm_opt_get_description:
 * @opt: an option
 *
 * One sentence on what the option does (tooltips, the CLI's help), translated.
 *
 * Returns: the sentence, or "" for a value that is no option
 */
const char *zw_ocm_opt_get_description (ZwOcmOpt opt);

/**
 * zw_ocm_opt_dup_long_label:
 * @opt: an option
 *
 * The label and the method: "Option 1 — global score", or the label alone for an
 * option without a method.
 *
 * Returns: (transfer full): a new string
 */
char *zw_ocm_opt_dup_long_label (ZwOcmOpt opt);

/**
 * zw_ocm_opt_dup_short_list:
 *
 * What the CLI's help and errors list, in table order: the planners by number, the
 * others by their short spelling.
 *
 * Returns: (transfer full): "none, 1, 2, 3, best"
 */
char *zw_ocm_opt_dup_short_list (void);

G_END_DECLS
