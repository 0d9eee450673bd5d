/* zw-log-view.c — text logs with search. */
#include "zw-log-view.h"
#include "zw-view-private.h"

#include "base/zw-file-read.h"

#include <glib/gi18n.h>
#include <string.h>

#define MAX_TAGGED 5000   /* highlight this many matches at most: tagging is per match */

typedef struct {
  gsize byte;      /* offset in the text */
  gint line;       /* 0-based */
  gint offset;     /* in characters */
} Match;

/* Case-insensitive for ASCII letters (log keywords, ids); other characters compare as is. */
static void
find_matches (const char *text, const char *needle, GArray *out)
{
  gsize n = strlen (needle);
  gint line = 0, chars = 0;
  const char *p = text;

  if (n == 0)
    return;
  while (*p != '\0')
    {
      if (g_ascii_strncasecmp (p, needle, n) == 0)
        {
          Match m = { (gsize) (p - text), line, chars };
          g_array_append_val (out, m);
          /* skip over the match, counting what it spans */
          for (const char *end = p + n; p < end;)
            {
              if (*p == '\n')
                line++;
              p = g_utf8_next_char (p);
              chars++;
            }
          continue;
        }
      if (*p == '\n')
        line++;
      p = g_utf8_next_char (p);
      chars++;
    }
}

void
zw_log_view_draw (cairo_t *cr, int width, int height, const char *text, const char *origin, const char *needle,
                  gint current_line, const ZwViewStyle *colors)
{
  const double margin = 8;
  PangoFontDescription *font;
  PangoLayout *layout;
  double line_h, y;
  gint first, n_visible, line = 0;
  const char *p;
  gsize nlen = needle != NULL ? strlen (needle) : 0;
  ZwPainter painter;
  int lw, lh;

  g_return_if_fail (cr != NULL && colors != NULL);
  cairo_save (cr);
  zw_cairo_set_color (cr, &colors->background);
  cairo_paint (cr);
  zw_painter_init (&painter, cr, colors);
  if (text == NULL)
    {
      zw_draw_empty (&painter, width, height, _("No log"));
      zw_painter_clear (&painter);
      cairo_restore (cr);
      return;
    }
  zw_painter_set_bold (&painter, TRUE);
  zw_painter_text (&painter, margin, margin, 0, 0, width - 2 * margin, NULL, origin != NULL ? origin : _("log"));
  zw_painter_clear (&painter);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Monospace");
  pango_font_description_set_absolute_size (font, colors->font_size * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, "M", -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  line_h = lh + 2;
  y = margin + line_h + 6;
  n_visible = (gint) ((height - y - margin) / line_h);
  first = current_line >= 0 ? MAX (0, current_line - n_visible / 3) : 0;

  for (p = text; *p != '\0' && line < first; p++)
    if (*p == '\n')
      line++;
  for (; *p != '\0' && y + line_h <= height - margin + line_h; line++, y += line_h)
    {
      const char *end = strchr (p, '\n');
      gsize len = end != NULL ? (gsize) (end - p) : strlen (p);
      g_autofree char *number = g_strdup_printf ("%6d ", line + 1);
      double x0 = margin;

      pango_layout_set_text (layout, number, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      zw_cairo_set_color_alpha (cr, &colors->foreground, 0.45);
      cairo_move_to (cr, x0, y);
      pango_cairo_show_layout (cr, layout);
      x0 += lw;
      pango_layout_set_text (layout, p, (int) len);
      /* highlight the matches on this line: their pixel ranges from Pango */
      for (gsize i = 0; nlen > 0 && i + nlen <= len; i++)
        if (g_ascii_strncasecmp (p + i, needle, nlen) == 0)
          {
            PangoRectangle a, b;
            pango_layout_index_to_pos (layout, (int) i, &a);
            pango_layout_index_to_pos (layout, (int) (i + nlen - 1), &b);
            zw_cairo_set_color_alpha (cr, line == current_line ? &colors->accent : &colors->warning,
                                      line == current_line ? 0.55 : 0.30);
            cairo_rectangle (cr, x0 + a.x / (double) PANGO_SCALE, y,
                             (b.x + b.width - a.x) / (double) PANGO_SCALE, line_h - 1);
            cairo_fill (cr);
            i += nlen - 1;
          }
      zw_cairo_set_color (cr, &colors->foreground);
      cairo_move_to (cr, x0, y);
      pango_cairo_show_layout (cr, layout);
      if (end == NULL)
        break;
      p = end + 1;
    }
  g_object_unref (layout);
  cairo_restore (cr);
}

/* ---- widget ---- */

struct _ZwLogView
{
  ZwView parent_instance;
  char *text;
  char *origin;
  char *needle;
  GArray *matches;     /* Match */
  gint current;
  GtkWidget *box;
  GtkWidget *header;   /* what the log is, in the user's language (its lines are the runtime's) */
  GtkWidget *entry;
  GtkWidget *count_label;
  GtkWidget *text_view;
  GtkTextBuffer *buffer;
  GtkTextTag *match_tag;
  GtkTextTag *current_tag;
};

G_DEFINE_FINAL_TYPE (ZwLogView, zw_log_view, ZW_TYPE_VIEW)

static void
update_label (ZwLogView *self)
{
  g_autofree char *text = NULL;

  if (self->needle == NULL || *self->needle == '\0')
    text = g_strdup ("");
  else if (self->matches->len == 0)
    text = g_strdup (_("no match"));
  else
    text = g_strdup_printf (_("%d of %u"), self->current + 1, self->matches->len);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
}

static void
show_current (ZwLogView *self)
{
  GtkTextIter start, end;
  glong nchars = self->needle != NULL ? g_utf8_strlen (self->needle, -1) : 0;

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);
  gtk_text_buffer_remove_tag (self->buffer, self->current_tag, &start, &end);
  if (self->current >= 0)
    {
      const Match *m = &g_array_index (self->matches, Match, self->current);
      gtk_text_buffer_get_iter_at_offset (self->buffer, &start, m->offset);
      gtk_text_buffer_get_iter_at_offset (self->buffer, &end, m->offset + (gint) nchars);
      gtk_text_buffer_apply_tag (self->buffer, self->current_tag, &start, &end);
      gtk_text_buffer_select_range (self->buffer, &start, &end);
      gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->text_view), &start, 0.1, TRUE, 0, 0.3);
    }
  update_label (self);
}

guint
zw_log_view_search (ZwLogView *self, const char *needle)
{
  GtkTextIter start, end, cursor;
  glong nchars;
  gint cursor_offset;

  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), 0);
  g_free (self->needle);
  self->needle = needle != NULL && *needle != '\0' ? g_strdup (needle) : NULL;
  g_array_set_size (self->matches, 0);
  self->current = -1;
  gtk_text_buffer_get_bounds (self->buffer, &start, &end);
  gtk_text_buffer_remove_tag (self->buffer, self->match_tag, &start, &end);
  if (self->needle != NULL && self->text != NULL)
    find_matches (self->text, self->needle, self->matches);
  nchars = self->needle != NULL ? g_utf8_strlen (self->needle, -1) : 0;
  for (guint i = 0; i < MIN (self->matches->len, (guint) MAX_TAGGED); i++)
    {
      const Match *m = &g_array_index (self->matches, Match, i);
      gtk_text_buffer_get_iter_at_offset (self->buffer, &start, m->offset);
      gtk_text_buffer_get_iter_at_offset (self->buffer, &end, m->offset + (gint) nchars);
      gtk_text_buffer_apply_tag (self->buffer, self->match_tag, &start, &end);
    }
  /* the first match at or after the cursor, as in a text editor */
  gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor, gtk_text_buffer_get_insert (self->buffer));
  gtk_text_buffer_get_selection_bounds (self->buffer, &cursor, NULL);
  cursor_offset = gtk_text_iter_get_offset (&cursor);
  for (guint i = 0; i < self->matches->len && self->current < 0; i++)
    if (g_array_index (self->matches, Match, i).offset >= cursor_offset)
      self->current = (gint) i;
  if (self->current < 0 && self->matches->len > 0)
    self->current = 0;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->needle != NULL ? self->needle : "") != 0)
    {
      g_signal_handlers_block_matched (self->entry, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
      gtk_editable_set_text (GTK_EDITABLE (self->entry), self->needle != NULL ? self->needle : "");
      g_signal_handlers_unblock_matched (self->entry, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
    }
  show_current (self);
  return self->matches->len;
}

gint
zw_log_view_next_match (ZwLogView *self)
{
  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), -1);
  if (self->matches->len == 0)
    return -1;
  self->current = (self->current + 1) % (gint) self->matches->len;
  show_current (self);
  return self->current;
}

gint
zw_log_view_previous_match (ZwLogView *self)
{
  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), -1);
  if (self->matches->len == 0)
    return -1;
  self->current = (self->current - 1 + (gint) self->matches->len) % (gint) self->matches->len;
  show_current (self);
  return self->current;
}

gint
zw_log_view_get_current_line (ZwLogView *self)
{
  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), -1);
  return self->current >= 0 ? g_array_index (self->matches, Match, self->current).line : -1;
}

static void
update_header (ZwLogView *self)
{
  g_autofree char *text = NULL;

  if (self->text == NULL)
    text = g_strdup (_("No log"));
  else
    /* TRANSLATORS: above the log: its origin (a run's title or a file), then why its lines
     * stay as written (the deploy log is a file format the vendor's tools read) */
    text = g_strdup_printf (_("%s — its lines as the runtime writes them (the vendor's log format, in English)"),
                            self->origin != NULL ? self->origin : _("log"));
  gtk_label_set_text (GTK_LABEL (self->header), text);
}

const char *
zw_log_view_get_header (ZwLogView *self)
{
  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->header));
}

char *
zw_log_view_dup_placeholder (ZwLogView *self)
{
  char *text = NULL;

  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), NULL);
  g_object_get (self->entry, "placeholder-text", &text, NULL);
  return text;
}

void
zw_log_view_set_text (ZwLogView *self, const char *text, const char *origin)
{
  GtkTextIter start;

  g_return_if_fail (ZW_IS_LOG_VIEW (self));
  g_free (self->text);
  g_free (self->origin);
  self->text = text != NULL ? g_utf8_make_valid (text, -1) : NULL;
  self->origin = g_strdup (origin);
  update_header (self);
  gtk_text_buffer_set_text (self->buffer, self->text != NULL ? self->text : "", -1);
  gtk_text_buffer_get_start_iter (self->buffer, &start);
  gtk_text_buffer_place_cursor (self->buffer, &start);
  {
    g_autofree char *needle = g_strdup (self->needle);
    zw_log_view_search (self, needle);
  }
}

gboolean
zw_log_view_load_file (ZwLogView *self, const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  GError *local = NULL;

  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (!zw_file_read_regular (path, ZW_INPUT_LOG, 0, &contents, NULL, &local))
    {
      /* the message names the file already */
      g_propagate_error (error, local);
      return FALSE;
    }
  zw_log_view_set_text (self, contents, path);
  return TRUE;
}

const char *
zw_log_view_get_text (ZwLogView *self)
{
  g_return_val_if_fail (ZW_IS_LOG_VIEW (self), NULL);
  return self->text;
}

static void
on_search_changed (GtkSearchEntry *entry, ZwLogView *self)
{
  zw_log_view_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_activate (GtkSearchEntry *entry, ZwLogView *self)
{
  (void) entry;
  zw_log_view_next_match (self);
}

/* Shift+Enter in the entry goes back (Enter alone is "activate") */
static gboolean
on_entry_key (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state, ZwLogView *self)
{
  (void) controller;
  (void) keycode;
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK) != 0)
    {
      zw_log_view_previous_match (self);
      return TRUE;
    }
  return FALSE;
}

static void
on_next (ZwLogView *self)
{
  zw_log_view_next_match (self);
}

static void
on_previous (ZwLogView *self)
{
  zw_log_view_previous_match (self);
}

static void
action_search (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ZwLogView *self = ZW_LOG_VIEW (widget);

  (void) parameter;
  if (g_str_equal (action_name, "log.next-match"))
    zw_log_view_next_match (self);
  else if (g_str_equal (action_name, "log.previous-match"))
    zw_log_view_previous_match (self);
  else
    gtk_widget_grab_focus (self->entry);
}

static void
zw_log_view_dispose (GObject *object)
{
  ZwLogView *self = ZW_LOG_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->origin, g_free);
  g_clear_pointer (&self->needle, g_free);
  G_OBJECT_CLASS (zw_log_view_parent_class)->dispose (object);
}

static void
zw_log_view_finalize (GObject *object)
{
  g_array_unref (ZW_LOG_VIEW (object)->matches);
  G_OBJECT_CLASS (zw_log_view_parent_class)->finalize (object);
}

/* the view's content for exports (zw_view_render) */
static void
view_render (ZwView *view, cairo_t *cr, int width, int height, const ZwViewStyle *colors)
{
  ZwLogView *self = ZW_LOG_VIEW (view);

  zw_log_view_draw (cr, width, height, self->text, self->origin, self->needle, zw_log_view_get_current_line (self),
                    colors);
}

static void
zw_log_view_class_init (ZwLogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = zw_log_view_dispose;
  object_class->finalize = zw_log_view_finalize;
  gtk_widget_class_install_action (widget_class, "log.find", NULL, action_search);
  gtk_widget_class_install_action (widget_class, "log.next-match", NULL, action_search);
  gtk_widget_class_install_action (widget_class, "log.previous-match", NULL, action_search);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "log.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "log.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "log.previous-match", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "zwlogview");
  zw_view_class_set_info (ZW_VIEW_CLASS (klass), "logs", N_("Logs"), N_("Logs view"), ZW_VIEW_DATA_LOG);
  ZW_VIEW_CLASS (klass)->render = view_render;
}

static void
zw_log_view_init (ZwLogView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *prev = gtk_button_new_from_icon_name ("go-up-symbolic");
  GtkWidget *next = gtk_button_new_from_icon_name ("go-down-symbolic");
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->matches = g_array_new (FALSE, FALSE, sizeof (Match));
  self->current = -1;
  self->entry = gtk_search_entry_new ();
  /* GTK 4.8: the property (its setter came in 4.10) */
  g_object_set (self->entry, "placeholder-text", _("Search the log (Ctrl+F)"), NULL);
  gtk_widget_set_hexpand (self->entry, TRUE);
  g_signal_connect (self->entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->entry, "activate", G_CALLBACK (on_activate), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();
    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (on_entry_key), self);
    gtk_widget_add_controller (self->entry, keys);
  }
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (on_next), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (on_previous), self);
  gtk_widget_set_tooltip_text (prev, _("Previous match (Shift+Enter)"));
  gtk_widget_set_tooltip_text (next, _("Next match (Enter)"));
  g_signal_connect_swapped (prev, "clicked", G_CALLBACK (on_previous), self);
  g_signal_connect_swapped (next, "clicked", G_CALLBACK (on_next), self);
  self->count_label = gtk_label_new (NULL);
  gtk_label_set_width_chars (GTK_LABEL (self->count_label), 12);
  gtk_box_append (GTK_BOX (bar), self->entry);
  gtk_box_append (GTK_BOX (bar), prev);
  gtk_box_append (GTK_BOX (bar), next);
  gtk_box_append (GTK_BOX (bar), self->count_label);

  self->buffer = gtk_text_buffer_new (NULL);
  self->match_tag = gtk_text_buffer_create_tag (self->buffer, "match", "background", "rgba(246,211,45,0.45)", NULL);
  self->current_tag = gtk_text_buffer_create_tag (self->buffer, "current", "background", "rgba(53,132,228,0.55)",
                                                  NULL);
  self->text_view = gtk_text_view_new_with_buffer (self->buffer);
  g_object_unref (self->buffer);   /* the text view holds it */
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->text_view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->text_view), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->text_view);
  gtk_widget_set_vexpand (scrolled, TRUE);

  self->header = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->header), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->header), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_single_line_mode (GTK_LABEL (self->header), TRUE);
  gtk_widget_add_css_class (self->header, "dim-label");
  gtk_widget_set_margin_start (self->header, 4);
  update_header (self);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (self->box), self->header);
  gtk_box_append (GTK_BOX (self->box), bar);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

GtkWidget *
zw_log_view_new (void)
{
  return g_object_new (ZW_TYPE_LOG_VIEW, NULL);
}
