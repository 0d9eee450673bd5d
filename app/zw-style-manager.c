/* zw-style-manager.c — system / light / dark (see the header). */
#include "zw-style-manager.h"

#include <string.h>

struct _ZwStyleManager
{
  GObject parent_instance;

  char *scheme;
  gboolean system_dark;
  gboolean dark;
  GDBusProxy *portal;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (ZwStyleManager, zw_style_manager, G_TYPE_OBJECT)

enum { PROP_0, PROP_COLOR_SCHEME, PROP_DARK, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
apply (ZwStyleManager *self)
{
  gboolean dark = g_str_equal (self->scheme, "dark") || (g_str_equal (self->scheme, "system") && self->system_dark);
  GtkSettings *settings = gtk_settings_get_default ();

  if (settings != NULL)
    g_object_set (settings, "gtk-application-prefer-dark-theme", dark, NULL);
  if (dark != self->dark)
    {
      self->dark = dark;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
    }
}

/* The portal's color-scheme: 0 no preference, 1 prefer dark, 2 prefer light. Read wraps
 * the value in one or two variants depending on the portal's version. */
static void
set_from_portal_value (ZwStyleManager *self, GVariant *value)
{
  g_autoptr (GVariant) inner = g_variant_ref (value);

  while (inner != NULL && g_variant_is_of_type (inner, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (inner);
      g_variant_unref (inner);
      inner = next;
    }
  if (inner == NULL || !g_variant_is_of_type (inner, G_VARIANT_TYPE_UINT32))
    return;
  self->system_dark = g_variant_get_uint32 (inner) == 1;
  apply (self);
}

static void
on_portal_signal (GDBusProxy *proxy, const char *sender, const char *signal, GVariant *params, ZwStyleManager *self)
{
  const char *ns = NULL, *key = NULL;
  g_autoptr (GVariant) value = NULL;

  (void) proxy;
  (void) sender;
  if (g_strcmp0 (signal, "SettingChanged") != 0 || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(ssv)")))
    return;
  g_variant_get (params, "(&s&sv)", &ns, &key, &value);
  if (g_str_equal (ns, "org.freedesktop.appearance") && g_str_equal (key, "color-scheme"))
    set_from_portal_value (self, value);
}

static void
on_portal_read (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (source), result, &error);
  ZwStyleManager *self;
  g_autoptr (GVariant) value = NULL;

  /* no portal (a bare session, tests): the start-up theme stays the system's preference */
  if (reply == NULL)
    return;
  self = ZW_STYLE_MANAGER (data);
  g_variant_get (reply, "(v)", &value);
  set_from_portal_value (self, value);
}

static void
on_portal_proxy (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  GDBusProxy *proxy = g_dbus_proxy_new_for_bus_finish (result, &error);
  ZwStyleManager *self;

  (void) source;
  if (proxy == NULL)
    return;
  self = ZW_STYLE_MANAGER (data);
  self->portal = proxy;
  g_signal_connect_object (proxy, "g-signal", G_CALLBACK (on_portal_signal), self, 0);
  g_dbus_proxy_call (proxy, "Read", g_variant_new ("(ss)", "org.freedesktop.appearance", "color-scheme"),
                     G_DBUS_CALL_FLAGS_NONE, 2000, self->cancellable, on_portal_read, self);
}

static void
zw_style_manager_dispose (GObject *object)
{
  ZwStyleManager *self = ZW_STYLE_MANAGER (object);

  /* the async callbacks must not reach a freed manager */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->portal);
  G_OBJECT_CLASS (zw_style_manager_parent_class)->dispose (object);
}

static void
zw_style_manager_finalize (GObject *object)
{
  g_free (ZW_STYLE_MANAGER (object)->scheme);
  G_OBJECT_CLASS (zw_style_manager_parent_class)->finalize (object);
}

static void
zw_style_manager_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ZwStyleManager *self = ZW_STYLE_MANAGER (object);

  switch (prop_id)
    {
    case PROP_COLOR_SCHEME: g_value_set_string (value, self->scheme); break;
    case PROP_DARK: g_value_set_boolean (value, self->dark); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_style_manager_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_COLOR_SCHEME: zw_style_manager_set_color_scheme (ZW_STYLE_MANAGER (object), g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
zw_style_manager_class_init (ZwStyleManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = zw_style_manager_dispose;
  object_class->finalize = zw_style_manager_finalize;
  object_class->get_property = zw_style_manager_get_property;
  object_class->set_property = zw_style_manager_set_property;
  properties[PROP_COLOR_SCHEME] = g_param_spec_string ("color-scheme", NULL, NULL, "system",
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                           | G_PARAM_STATIC_STRINGS);
  properties[PROP_DARK] = g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
zw_style_manager_init (ZwStyleManager *self)
{
  GtkSettings *settings = gtk_settings_get_default ();

  self->scheme = g_strdup ("system");
  self->cancellable = g_cancellable_new ();
  if (settings != NULL)
    {
      g_autofree char *theme = NULL;
      g_autofree char *lower = NULL;
      gboolean prefer_dark = FALSE;
      g_object_get (settings, "gtk-theme-name", &theme, "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
      lower = theme != NULL ? g_ascii_strdown (theme, -1) : NULL;
      /* what the desktop asked for before we touch anything */
      self->system_dark = prefer_dark || (lower != NULL && g_str_has_suffix (lower, "-dark"));
    }
  self->dark = self->system_dark;
  g_dbus_proxy_new_for_bus (G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES, NULL,
                            "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                            "org.freedesktop.portal.Settings", self->cancellable, on_portal_proxy, self);
}

ZwStyleManager *
zw_style_manager_new (void)
{
  return g_object_new (ZW_TYPE_STYLE_MANAGER, NULL);
}

void
zw_style_manager_set_color_scheme (ZwStyleManager *self, const char *scheme)
{
  static const char *schemes[] = { "system", "light", "dark", NULL };

  g_return_if_fail (ZW_IS_STYLE_MANAGER (self));
  if (scheme == NULL || !g_strv_contains (schemes, scheme))
    {
      g_warning ("unknown colour scheme “%s” (system, light or dark)", scheme ? scheme : "(null)");
      return;
    }
  if (!g_str_equal (self->scheme, scheme))
    {
      g_free (self->scheme);
      self->scheme = g_strdup (scheme);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_SCHEME]);
    }
  apply (self);
}

const char *
zw_style_manager_get_color_scheme (ZwStyleManager *self)
{
  g_return_val_if_fail (ZW_IS_STYLE_MANAGER (self), NULL);
  return self->scheme;
}
