/* zw-view-style.c — theme colours of the deploy views. */
#include "zw-view-style.h"

#include <math.h>

static void
rgba (GdkRGBA *c, const char *spec)
{
  gboolean ok = gdk_rgba_parse (c, spec);
  g_assert (ok);
}

void
zw_view_style_init_default (ZwViewStyle *style)
{
  g_return_if_fail (style != NULL);

  memset (style, 0, sizeof *style);
  rgba (&style->background, "#ffffff");
  rgba (&style->foreground, "#241f31");
  rgba (&style->grid, "rgba(36,31,49,0.18)");
  rgba (&style->accent, "#1c71d8");
  rgba (&style->hover, "rgba(28,113,216,0.30)");
  rgba (&style->warning, "#e01b24");
  rgba (&style->lower_bound, "#26a269");
  /* Hues far apart so each SegmentType reads at a glance, light enough for dark text. */
  rgba (&style->segment[ZW_SEGMENT_WEIGHT], "#99c1f1");
  rgba (&style->segment[ZW_SEGMENT_INSTR], "#dc8add");
  rgba (&style->segment[ZW_SEGMENT_FTMP], "#ffbe6f");
  rgba (&style->segment[ZW_SEGMENT_INPUT], "#8ff0a4");
  rgba (&style->segment[ZW_SEGMENT_OUTPUT], "#f99b8f");
  rgba (&style->ocm, "#5bc8e0");
  style->font_size = 11;
}

void
zw_view_style_init_dark (ZwViewStyle *style)
{
  g_return_if_fail (style != NULL);

  zw_view_style_init_default (style);
  rgba (&style->background, "#242424");
  rgba (&style->foreground, "#ffffff");
  rgba (&style->grid, "rgba(255,255,255,0.20)");
  rgba (&style->accent, "#78aeed");
  rgba (&style->hover, "rgba(120,174,237,0.35)");
  rgba (&style->warning, "#ff7b63");
  rgba (&style->lower_bound, "#8ff0a4");
  rgba (&style->segment[ZW_SEGMENT_WEIGHT], "#1a5fb4");
  rgba (&style->segment[ZW_SEGMENT_INSTR], "#813d9c");
  rgba (&style->segment[ZW_SEGMENT_FTMP], "#c64600");
  rgba (&style->segment[ZW_SEGMENT_INPUT], "#26a269");
  rgba (&style->segment[ZW_SEGMENT_OUTPUT], "#a51d2d");
  rgba (&style->ocm, "#0e7a91");
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

/* WCAG's contrast ratio of two colours (1 to 21), from their relative luminance. */
static double
linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

double
zw_view_style_contrast (const GdkRGBA *a, const GdkRGBA *b)
{
  double la = 0.2126 * linear (a->red) + 0.7152 * linear (a->green) + 0.0722 * linear (a->blue);
  double lb = 0.2126 * linear (b->red) + 0.7152 * linear (b->green) + 0.0722 * linear (b->blue);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static gboolean
lookup_first (GtkStyleContext *context, const char * const *names, GdkRGBA *out)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (gtk_style_context_lookup_color (context, names[i], out))
      return TRUE;
  return FALSE;
}

void
zw_view_style_from_widget (ZwViewStyle *style, GtkWidget *widget)
{
  static const char * const bg_names[] = { "view_bg_color", "theme_base_color", NULL };
  static const char * const accent_names[] = { "accent_color", "accent_bg_color", "theme_selected_bg_color", NULL };
  GtkStyleContext *context;
  GdkRGBA fg, bg, accent;
  gboolean dark;

  g_return_if_fail (style != NULL);
  g_return_if_fail (GTK_IS_WIDGET (widget));

  /* GTK 4.8 has no gtk_widget_get_color (4.10): the style context is the way. */
  context = gtk_widget_get_style_context (widget);
  gtk_style_context_get_color (context, &fg);
  if (!lookup_first (context, bg_names, &bg))
    rgba (&bg, luminance (&fg) > 0.5 ? "#242424" : "#ffffff");
  dark = luminance (&bg) < 0.5;
  if (dark)
    zw_view_style_init_dark (style);
  else
    zw_view_style_init_default (style);

  style->background = bg;
  style->foreground = fg;
  style->grid = fg;
  style->grid.alpha = 0.18f;
  if (lookup_first (context, accent_names, &accent))
    {
      style->hover = accent;
      style->hover.alpha = 0.30f;
      /* the accent colours text (the chosen option, a launch's label): a theme's selection
       * background (Adwaita dark's #15539e on #242424 is 2.3:1) keeps our own readable one */
      if (zw_view_style_contrast (&accent, &bg) >= 4.5)
        style->accent = accent;
    }
}
