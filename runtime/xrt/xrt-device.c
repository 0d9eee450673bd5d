/* xrt-device.c — XrtDevice: URL dispatch, regions, registers, status. */
#include "xrt/xrt-device.h"

#include <string.h>

#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

#define DEFAULT_WAIT_TIME_MS 10000

struct _XrtDevice {
  gint                  ref_count;
  const XrtDeviceClass *klass;
  gpointer              impl;
  gchar                *url;
  gchar                *scheme;
  gchar                *name;
  GPtrArray            *regions;       /* XrtMemRegion, declaration order */
  GPtrArray            *region_names;  /* borrowed names, NULL-terminated */
  GMutex                lock;          /* default_region */
  XrtMemRegion         *default_region;
  gint                  closed;        /* atomic */
  guint64               wait_time_ms;
};

static const char supported_schemes[] =
  "mock://zg330[?profile=PATH]; socket:// and axi:// are recognised but not available "
  "in this build";

/* ---- opening -------------------------------------------------------------- */

static XrtDevice *
open_mock (const char *url, const char *rest, GError **error)
{
  g_autofree gchar *name = NULL;
  g_autoptr (GHashTable) params = NULL;
  g_autoptr (Zg330Profile) profile = NULL;
  const char *query = strchr (rest, '?');
  const char *profile_path = NULL;
  GHashTableIter iter;
  gpointer key, value;

  name = query ? g_strndup (rest, query - rest) : g_strdup (rest);
  if (name[0] != '\0' && name[strlen (name) - 1] == '/')
    name[strlen (name) - 1] = '\0';
  if (g_ascii_strcasecmp (name, "zg330") != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                   "device URL '%s': mock device '%s' is unknown (mock://zg330 is the only "
                   "simulated board)", url, name);
      return NULL;
    }
  if (query && query[1] != '\0')
    {
      GError *local = NULL;
      params = g_uri_parse_params (query + 1, -1, "&", G_URI_PARAMS_NONE, &local);
      if (params == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': bad query: %s",
                       url, local->message);
          g_error_free (local);
          return NULL;
        }
      g_hash_table_iter_init (&iter, params);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          if (strcmp (key, "profile") != 0)
            {
              g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                           "device URL '%s': unknown parameter '%s' (mock://zg330 takes "
                           "only profile=PATH)", url, (const char *) key);
              return NULL;
            }
          profile_path = value;
        }
    }

  if (profile_path && profile_path[0] != '\0')
    profile = zg330_profile_load (profile_path, error);
  else
    profile = zg330_profile_load_default (error);
  if (profile == NULL)
    return NULL;
  return zg330_sim_open (profile, url, error);
}

XrtDevice *
xrt_device_open (const char *url, GError **error)
{
  g_autofree gchar *scheme = NULL;
  const char *rest;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The vendor's samples open the AXI board with an empty URL. */
  if (url[0] == '\0')
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
                   "device URL '' (the AXI board): axi:// is not available in this build; "
                   "use mock://zg330");
      return NULL;
    }
  scheme = g_uri_parse_scheme (url);
  rest = strstr (url, "://");
  if (scheme == NULL || rest == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                   "device URL '%s' is not scheme://device (supported: %s)",
                   url, supported_schemes);
      return NULL;
    }
  rest += 3;
  if (g_ascii_strcasecmp (scheme, "mock") == 0)
    return open_mock (url, rest, error);
  if (g_ascii_strcasecmp (scheme, "socket") == 0 || g_ascii_strcasecmp (scheme, "axi") == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
                   "device URL '%s': the %s:// transport is not available in this build "
                   "(use mock://zg330)", url, scheme);
      return NULL;
    }
  g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
               "device URL '%s': unsupported scheme '%s' (supported: %s)",
               url, scheme, supported_schemes);
  return NULL;
}

/* ---- implementation side -------------------------------------------------- */

XrtDevice *
xrt_device_new (const XrtDeviceClass *klass, const char *url, gpointer impl)
{
  XrtDevice *device;
  const char *sep;

  g_return_val_if_fail (klass != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  device = g_new0 (XrtDevice, 1);
  device->ref_count = 1;
  device->klass = klass;
  device->impl = impl;
  device->url = g_strdup (url);
  sep = strstr (url, "://");
  if (sep)
    {
      const char *end = sep + 3 + strcspn (sep + 3, "/?");
      device->scheme = g_ascii_strdown (url, sep - url);
      device->name = g_ascii_strdown (sep + 3, end - (sep + 3));
    }
  else
    {
      device->scheme = g_strdup ("");
      device->name = g_strdup (url);
    }
  device->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) xrt_mem_region_unref);
  device->region_names = g_ptr_array_new ();
  g_ptr_array_add (device->region_names, NULL);
  g_mutex_init (&device->lock);
  device->wait_time_ms = DEFAULT_WAIT_TIME_MS;
  return device;
}

gpointer
xrt_device_get_impl (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return device->impl;
}

const XrtDeviceClass *
xrt_device_get_class (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return device->klass;
}

void
xrt_device_add_mem_region (XrtDevice *device, XrtMemRegion *region, gboolean is_default)
{
  g_return_if_fail (device != NULL && region != NULL);

  g_ptr_array_add (device->regions, xrt_mem_region_ref (region));
  /* Keep the name list NULL-terminated for xrt_device_list_mem_regions(). */
  g_ptr_array_index (device->region_names, device->region_names->len - 1) =
    (gpointer) xrt_mem_region_get_name (region);
  g_ptr_array_add (device->region_names, NULL);
  xrt_mem_region_set_device (region, device);
  if (is_default || device->default_region == NULL)
    device->default_region = region;
}

/* ---- lifetime --------------------------------------------------------------- */

XrtDevice *
xrt_device_ref (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  g_atomic_int_inc (&device->ref_count);
  return device;
}

void
xrt_device_unref (XrtDevice *device)
{
  g_return_if_fail (device != NULL);

  if (!g_atomic_int_dec_and_test (&device->ref_count))
    return;
  if (device->klass->finalize)
    device->klass->finalize (device);
  for (guint i = 0; i < device->regions->len; i++)
    xrt_mem_region_set_device (device->regions->pdata[i], NULL);
  g_ptr_array_unref (device->regions);
  g_ptr_array_unref (device->region_names);
  g_mutex_clear (&device->lock);
  g_free (device->url);
  g_free (device->scheme);
  g_free (device->name);
  g_free (device);
}

void
xrt_device_close (XrtDevice *device)
{
  g_return_if_fail (device != NULL);

  if (!g_atomic_int_compare_and_exchange (&device->closed, 0, 1))
    return;
  if (device->klass->close)
    device->klass->close (device);
  for (guint i = 0; i < device->regions->len; i++)
    xrt_mem_region_free_all (device->regions->pdata[i]);
}

gboolean
xrt_device_is_closed (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, TRUE);
  return g_atomic_int_get (&device->closed) != 0;
}

static gboolean
check_open (XrtDevice *device, GError **error)
{
  if (g_atomic_int_get (&device->closed))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_CLOSED, "device %s was closed", device->url);
      return FALSE;
    }
  return TRUE;
}

const char *
xrt_device_get_url (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return device->url;
}

const char *
xrt_device_get_scheme (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return device->scheme;
}

const char *
xrt_device_get_name (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return device->name;
}

/* ---- Device operations -------------------------------------------------------- */

GHashTable *
xrt_device_get_version (XrtDevice *device)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_return_val_if_fail (device != NULL, out);
  g_hash_table_insert (out, g_strdup ("url"), g_strdup (device->url));
  if (device->klass->version)
    device->klass->version (device, out);
  return out;
}

gboolean
xrt_device_reset (XrtDevice *device, int level, GError **error)
{
  g_return_val_if_fail (device != NULL, FALSE);

  if (!check_open (device, error))
    return FALSE;
  return device->klass->reset ? device->klass->reset (device, level, error) : TRUE;
}

gboolean
xrt_device_check (XrtDevice *device, int level, GError **error)
{
  g_return_val_if_fail (device != NULL, FALSE);

  if (!check_open (device, error))
    return FALSE;
  if (level >= 1)
    for (guint i = 0; i < device->regions->len; i++)
      if (!xrt_mem_manager_check (xrt_mem_region_get_manager (device->regions->pdata[i]),
                                  error))
        return FALSE;
  return device->klass->check ? device->klass->check (device, level, error) : TRUE;
}

void
xrt_device_show_status (XrtDevice *device, int level, GString *out)
{
  g_return_if_fail (device != NULL && out != NULL);

  g_string_append_printf (out, "device %s (%s)%s\n", device->url, device->klass->type_name,
                          xrt_device_is_closed (device) ? " [closed]" : "");
  for (guint i = 0; i < device->regions->len; i++)
    {
      XrtMemRegion *region = device->regions->pdata[i];
      XrtMemRegionInfo info;

      xrt_mem_manager_get_info (xrt_mem_region_get_manager (region), &info);
      g_string_append_printf (out, "  region %-4s%s base 0x%09" G_GINT64_MODIFIER "x size %"
                              G_GUINT64_FORMAT "  used %" G_GUINT64_FORMAT " in %u chunks, "
                              "free %" G_GUINT64_FORMAT " (largest block %" G_GUINT64_FORMAT
                              ", %u blocks)\n",
                              xrt_mem_region_get_name (region),
                              region == xrt_device_get_default_mem_region (device) ? "*" : " ",
                              info.base, info.size, info.used, info.n_chunks, info.free,
                              info.largest_free, info.n_free_blocks);
      if (level >= 1)
        {
          g_autoptr (GPtrArray) chunks =
            xrt_mem_manager_list_chunks (xrt_mem_region_get_manager (region));
          for (guint j = 0; j < chunks->len; j++)
            {
              XrtMemChunk *chunk = chunks->pdata[j];
              g_string_append_printf (out, "    chunk 0x%09" G_GINT64_MODIFIER "x %12"
                                      G_GUINT64_FORMAT " bytes%s\n",
                                      xrt_mem_chunk_get_addr (chunk),
                                      xrt_mem_chunk_get_size (chunk),
                                      xrt_mem_chunk_get_auto_free (chunk) ? "" : " (no auto free)");
            }
        }
    }
  if (device->klass->show_status)
    device->klass->show_status (device, level, out);
}

void
xrt_device_print_status (XrtDevice *device, int level, FILE *stream)
{
  g_autoptr (GString) out = g_string_new (NULL);

  g_return_if_fail (device != NULL && stream != NULL);
  xrt_device_show_status (device, level, out);
  fputs (out->str, stream);
  fflush (stream);
}

void
xrt_device_set_wait_time (XrtDevice *device, guint64 wait_time_ms)
{
  g_return_if_fail (device != NULL);
  g_mutex_lock (&device->lock);
  device->wait_time_ms = wait_time_ms;
  g_mutex_unlock (&device->lock);
}

guint64
xrt_device_get_wait_time (XrtDevice *device)
{
  guint64 ms;

  g_return_val_if_fail (device != NULL, 0);
  g_mutex_lock (&device->lock);
  ms = device->wait_time_ms;
  g_mutex_unlock (&device->lock);
  return ms;
}

/* ---- regions -------------------------------------------------------------------- */

XrtMemRegion *
xrt_device_get_mem_region (XrtDevice *device, const char *name, GError **error)
{
  g_autofree gchar *names = NULL;

  g_return_val_if_fail (device != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < device->regions->len; i++)
    if (g_ascii_strcasecmp (xrt_mem_region_get_name (device->regions->pdata[i]), name) == 0)
      return device->regions->pdata[i];
  names = g_strjoinv (", ", (gchar **) device->region_names->pdata);
  g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
               "device %s has no memory region '%s' (it has: %s)", device->url, name, names);
  return NULL;
}

XrtMemRegion *
xrt_device_get_default_mem_region (XrtDevice *device)
{
  XrtMemRegion *region;

  g_return_val_if_fail (device != NULL, NULL);
  g_mutex_lock (&device->lock);
  region = device->default_region;
  g_mutex_unlock (&device->lock);
  return region;
}

gboolean
xrt_device_set_default_mem_region (XrtDevice *device, const char *name, GError **error)
{
  XrtMemRegion *region;

  g_return_val_if_fail (device != NULL, FALSE);
  if ((region = xrt_device_get_mem_region (device, name, error)) == NULL)
    return FALSE;
  g_mutex_lock (&device->lock);
  device->default_region = region;
  g_mutex_unlock (&device->lock);
  return TRUE;
}

const char *const *
xrt_device_list_mem_regions (XrtDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);
  return (const char *const *) device->region_names->pdata;
}

XrtMemChunk *
xrt_device_malloc (XrtDevice *device, const char *region_name, guint64 bytes, GError **error)
{
  XrtMemRegion *region;

  g_return_val_if_fail (device != NULL, NULL);

  if (!check_open (device, error))
    return NULL;
  region = region_name ? xrt_device_get_mem_region (device, region_name, error)
                       : xrt_device_get_default_mem_region (device);
  if (region == NULL)
    return NULL;
  return xrt_mem_region_malloc (region, bytes, TRUE, XRT_MEM_DEFAULT_ALIGNMENT, error);
}

/* ---- registers ------------------------------------------------------------------ */

static gboolean
check_reg_addr (XrtDevice *device, guint64 addr, GError **error)
{
  if (!check_open (device, error))
    return FALSE;
  if (addr % 4 != 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT,
                   "device %s: register address 0x%" G_GINT64_MODIFIER "x is not 4-byte "
                   "aligned", device->url, addr);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrt_device_read_reg (XrtDevice *device, guint64 addr, guint32 *value, GError **error)
{
  g_return_val_if_fail (device != NULL && value != NULL, FALSE);

  if (!check_reg_addr (device, addr, error))
    return FALSE;
  if (device->klass->read_reg == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s has no registers",
                   device->url);
      return FALSE;
    }
  return device->klass->read_reg (device, addr, value, error);
}

gboolean
xrt_device_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  g_return_val_if_fail (device != NULL, FALSE);

  if (!check_reg_addr (device, addr, error))
    return FALSE;
  if (device->klass->write_reg == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s has no registers",
                   device->url);
      return FALSE;
    }
  return device->klass->write_reg (device, addr, value, error);
}
