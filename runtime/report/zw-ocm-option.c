/* zw-ocm-option.c — the table of OCM options (see the header). */
#include "report/zw-ocm-option.h"

#include <errno.h>
#include <glib/gi18n-lib.h>

typedef struct {
  ZwOcmOpt    opt;
  const char *name;         /* the vendor's, never translated */
  const char *nick;
  const char *label;        /* N_(): translated where it is shown */
  const char *method;       /* N_(), NULL for an option that is no method of its own */
  const char *description;  /* N_() */
} OcmOption;

/* In the order every list shows them.  The planners' algorithms are described beside
 * them (backends/zg330/zg330-ocm-planners.c). */
static const OcmOption options[] = {
  { ZW_OCM_NONE, "NONE", "none", N_("None"), NULL,
    N_("Keeps every feature map in ETM.") },
  { ZW_OCM_OPTION1, "OPTION1", "option1", N_("Option 1"), N_("global score"),
    N_("Scores every chunk by the cycles it saves per byte of OCM and op of lifetime, adds the best one "
       "that fits and scores again, until nothing that fits saves anything.") },
  { ZW_OCM_OPTION2, "OPTION2", "option2", N_("Option 2"), N_("dynamic programming"),
    N_("A dynamic programme along the ops whose states are the chunks live in OCM: exact while the states "
       "are few, else it keeps the most promising ones (locally optimal).") },
  { ZW_OCM_OPTION3, "OPTION3", "option3", N_("Option 3"), N_("evict by score"),
    N_("Walks the ops in order, puts every new chunk that saves cycles in OCM and, where OCM overflows, "
       "evicts the live chunk with the lowest score.") },
  { ZW_OCM_BEST_SCORE, "BEST_SCORE", "best", N_("Best score"), NULL,
    N_("Runs every option and keeps the cheapest placement (ties: the lower option number).") },
};

static const OcmOption *
lookup (ZwOcmOpt opt)
{
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (options[i].opt == opt)
      return &options[i];
  return NULL;
}

guint
zw_ocm_opt_get_count (void)
{
  return G_N_ELEMENTS (options);
}

ZwOcmOpt
zw_ocm_opt_get_nth (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (options), ZW_OCM_NONE);
  return options[index].opt;
}

gint
zw_ocm_opt_get_index (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL ? (gint) (o - options) : -1;
}

const char *
zw_ocm_opt_to_string (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL ? o->name : "?";
}

const char *
zw_ocm_opt_get_nick (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL ? o->nick : "?";
}

gboolean
zw_ocm_opt_from_string (const char *text, ZwOcmOpt *out)
{
  char *end = NULL;
  gint64 n;

  g_return_val_if_fail (out != NULL, FALSE);
  if (text == NULL || *text == '\0')
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (g_ascii_strcasecmp (text, options[i].name) == 0 || g_ascii_strcasecmp (text, options[i].nick) == 0)
      {
        *out = options[i].opt;
        return TRUE;
      }
  /* the vendor's TOML writes the number (ocmopt = 0) */
  errno = 0;
  n = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || *end != '\0' || n < G_MININT || n > G_MAXINT || lookup ((ZwOcmOpt) n) == NULL)
    return FALSE;
  *out = (ZwOcmOpt) n;
  return TRUE;
}

const char *
zw_ocm_opt_get_label (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL ? _(o->label) : "?";
}

const char *
zw_ocm_opt_get_method (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL && o->method != NULL ? _(o->method) : "";
}

const char *
zw_ocm_opt_get_description (ZwOcmOpt opt)
{
  const OcmOption *o = lookup (opt);
  return o != NULL ? _(o->description) : "";
}

char *
zw_ocm_opt_dup_long_label (ZwOcmOpt opt)
{
  const char *method = zw_ocm_opt_get_method (opt);

  if (*method == '\0')
    return g_strdup (zw_ocm_opt_get_label (opt));
  /* TRANSLATORS: an OCM option and what it does: "Option 1 — global score" */
  return g_strdup_printf (_("%s — %s"), zw_ocm_opt_get_label (opt), method);
}

char *
zw_ocm_opt_dup_short_list (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (options[i].opt > ZW_OCM_NONE)
        g_string_append_printf (s, "%d", (int) options[i].opt);
      else
        g_string_append (s, options[i].nick);
    }
  return g_string_free (s, FALSE);
}
