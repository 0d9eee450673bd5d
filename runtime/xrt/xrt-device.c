/* xrt-device.c — XrtDevice: URL dispatch, regions, registers, status. */
#include "xrt/xrt-device.h"
#include "base/zw-checked.h"

#include <string.h>

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
  struct FaultPlanTag  *faults;        /* injected faults (URL parameter fault=…), or NULL */
};

/* ---- device kinds ------------------------------------------------------------- */

typedef struct {
  char *scheme, *name, *usage;
  XrtDeviceOpenFunc open;
} Kind;

static GMutex kinds_lock;
static GPtrArray *kinds;  /* Kind*, registration order */

static void
kind_free (gpointer p)
{
  Kind *k = p;
  g_free (k->scheme);
  g_free (k->name);
  g_free (k->usage);
  g_free (k);
}

static void
ensure_builtin_kinds (void)
{
  /* the transports to real boards: recognised so that their URLs get a clear answer (a
   * device kind that serves one replaces its entry: socket:// is devices/zg330-socket-board.c) */
  if (kinds == NULL)
    {
      kinds = g_ptr_array_new_with_free_func (kind_free);
      Kind *socket = g_new0 (Kind, 1), *axi = g_new0 (Kind, 1);
      socket->scheme = g_strdup ("socket");
      socket->usage = g_strdup ("socket://NAME@HOST:PORT (not available in this build)");
      axi->scheme = g_strdup ("axi");
      axi->usage = g_strdup ("axi://NAME (not available in this build)");
      g_ptr_array_add (kinds, socket);
      g_ptr_array_add (kinds, axi);
    }
}

void
xrt_device_register_kind (const char *scheme, const char *name, const char *usage, XrtDeviceOpenFunc open)
{
  Kind *k;

  g_return_if_fail (scheme != NULL && usage != NULL);
  g_mutex_lock (&kinds_lock);
  ensure_builtin_kinds ();
  for (guint i = 0; i < kinds->len; i++)
    {
      Kind *old = kinds->pdata[i];
      if (g_ascii_strcasecmp (old->scheme, scheme) == 0 && g_strcmp0 (old->name, name) == 0)
        {
          g_ptr_array_remove_index (kinds, i);
          break;
        }
    }
  k = g_new0 (Kind, 1);
  k->scheme = g_ascii_strdown (scheme, -1);
  k->name = name ? g_ascii_strdown (name, -1) : NULL;
  k->usage = g_strdup (usage);
  k->open = open;
  /* named kinds before the scheme-wide ones: mock://buyi is not "any mock://" */
  if (name != NULL)
    g_ptr_array_insert (kinds, 0, k);
  else
    g_ptr_array_add (kinds, k);
  g_mutex_unlock (&kinds_lock);
}

char *
xrt_device_list_kinds (void)
{
  GString *out = g_string_new (NULL);

  g_mutex_lock (&kinds_lock);
  ensure_builtin_kinds ();
  for (guint i = 0; i < kinds->len; i++)
    g_string_append_printf (out, "%s%s", out->len ? "; " : "", ((Kind *) kinds->pdata[i])->usage);
  g_mutex_unlock (&kinds_lock);
  return g_string_free (out, FALSE);
}

/* The kind serving @scheme://@name, or NULL; *scheme_known tells an unknown scheme from an
 * unknown device name. Copies what it returns (the list may change). */
static Kind *
find_kind (const char *scheme, const char *name, gboolean *scheme_known)
{
  Kind *found = NULL;

  *scheme_known = FALSE;
  g_mutex_lock (&kinds_lock);
  ensure_builtin_kinds ();
  for (guint i = 0; i < kinds->len && found == NULL; i++)
    {
      Kind *k = kinds->pdata[i];
      if (g_ascii_strcasecmp (k->scheme, scheme) != 0)
        continue;
      *scheme_known = TRUE;
      if (k->name == NULL || g_ascii_strcasecmp (k->name, name) == 0)
        {
          found = g_new0 (Kind, 1);
          found->scheme = g_strdup (k->scheme);
          found->name = g_strdup (k->name);
          found->usage = g_strdup (k->usage);
          found->open = k->open;
        }
    }
  g_mutex_unlock (&kinds_lock);
  return found;
}

/* ---- faults ------------------------------------------------------------------ */

static const char *const fault_names[XRT_N_FAULTS] = { "reg_read", "reg_write", "icore", "timeout", "corrupt_read" };

typedef struct FaultPlanTag {
  GArray *at[XRT_N_FAULTS];  /* guint: the operation numbers that fail */
  guint count[XRT_N_FAULTS];
} FaultPlan;

static void
fault_plan_free (FaultPlan *plan)
{
  if (plan == NULL)
    return;
  for (guint k = 0; k < XRT_N_FAULTS; k++)
    g_clear_pointer (&plan->at[k], g_array_unref);
  g_free (plan);
}

static FaultPlan *
fault_plan_parse (const char *url, const char *text, GError **error)
{
  FaultPlan *plan = g_new0 (FaultPlan, 1);
  g_auto (GStrv) items = g_strsplit (text, ",", -1);

  for (guint k = 0; k < XRT_N_FAULTS; k++)
    plan->at[k] = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; items[i]; i++)
    {
      char *at = strchr (items[i], '@');
      guint64 n = 0;
      guint kind = XRT_N_FAULTS;

      if (at != NULL)
        {
          *at = '\0';
          for (guint k = 0; k < XRT_N_FAULTS; k++)
            if (strcmp (items[i], fault_names[k]) == 0)
              kind = k;
        }
      if (at == NULL || kind == XRT_N_FAULTS || !g_ascii_string_to_unsigned (at + 1, 10, 1, G_MAXUINT, &n, NULL))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_URL,
                       "device URL '%s': fault=%s: expected KIND@N[,KIND@N…] with KIND reg_read, reg_write, "
                       "icore, timeout or corrupt_read and N >= 1", url, text);
          fault_plan_free (plan);
          return NULL;
        }
      guint nn = (guint) n;
      g_array_append_val (plan->at[kind], nn);
    }
  return plan;
}

gboolean
xrt_device_take_fault (XrtDevice *device, XrtFaultKind kind, const char *what, GError **error)
{
  gboolean hit = FALSE;
  guint n;

  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (kind < XRT_N_FAULTS, "kind", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  if (device->faults == NULL)
    return FALSE;
  g_mutex_lock (&device->lock);
  n = ++device->faults->count[kind];
  for (guint i = 0; i < device->faults->at[kind]->len; i++)
    hit = hit || g_array_index (device->faults->at[kind], guint, i) == n;
  g_mutex_unlock (&device->lock);
  if (!hit)
    return FALSE;
  switch (kind)
    {
    case XRT_FAULT_TIMEOUT:
      g_set_error (error, XRT_ERROR, XRT_ERROR_TIMEOUT, "device %s: %s did not finish within the wait time of %"
                   G_GUINT64_FORMAT " ms (injected fault timeout@%u)", device->url, what, device->wait_time_ms, n);
      break;
    case XRT_FAULT_CORRUPT_READ:
      break;
    default:
      g_set_error (error, XRT_ERROR, XRT_ERROR_DEVICE, "device %s: %s failed (injected fault %s@%u)", device->url,
                   what, fault_names[kind], n);
      break;
    }
  return TRUE;
}

gboolean
xrt_device_injects_fault (XrtDevice *device, XrtFaultKind kind)
{
  gboolean any;

  g_return_val_if_fail (device != NULL && kind < XRT_N_FAULTS, FALSE);
  if (device->faults == NULL)
    return FALSE;
  g_mutex_lock (&device->lock);
  any = device->faults->at[kind]->len > 0;
  g_mutex_unlock (&device->lock);
  return any;
}

/* ---- opening -------------------------------------------------------------- */

XrtDevice *
xrt_device_open (const char *url, GError **error)
{
  g_autofree gchar *scheme = NULL, *name = NULL, *supported = NULL, *fault_text = NULL;
  g_autoptr (GHashTable) params = NULL;
  const char *rest, *query;
  gboolean scheme_known = FALSE;
  Kind *kind;
  XrtDevice *device;
  FaultPlan *faults = NULL;

  if (url == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, "xrt_device_open: the device URL is NULL");
      return NULL;
    }
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  supported = xrt_device_list_kinds ();
  /* The vendor's samples open the AXI board with an empty URL. */
  if (url[0] == '\0')
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
                   "device URL '' (the AXI board): axi:// is not available in this build (supported: %s)",
                   supported);
      return NULL;
    }
  scheme = g_uri_parse_scheme (url);
  rest = strstr (url, "://");
  if (scheme == NULL || rest == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s' is not scheme://device (supported: %s)", url,
                   supported);
      return NULL;
    }
  rest += 3;
  query = strchr (rest, '?');
  name = query ? g_strndup (rest, (gsize) (query - rest)) : g_strdup (rest);
  if (name[0] != '\0' && name[strlen (name) - 1] == '/')
    name[strlen (name) - 1] = '\0';
  if (query && query[1] != '\0')
    {
      GError *local = NULL;
      params = g_uri_parse_params (query + 1, -1, "&", G_URI_PARAMS_NONE, &local);
      if (params == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': bad query: %s", url, local->message);
          g_error_free (local);
          return NULL;
        }
    }
  else
    params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (g_hash_table_lookup (params, "fault") != NULL)
    {
      fault_text = g_strdup (g_hash_table_lookup (params, "fault"));
      g_hash_table_remove (params, "fault");
      faults = fault_plan_parse (url, fault_text, error);
      if (faults == NULL)
        return NULL;
    }
  kind = find_kind (scheme, name, &scheme_known);
  if (kind == NULL)
    {
      if (scheme_known)
        g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': no %s device '%s' (supported: %s)", url,
                     scheme, name, supported);
      else
        g_set_error (error, XRT_ERROR, XRT_ERROR_URL, "device URL '%s': unsupported scheme '%s' (supported: %s)", url,
                     scheme, supported);
      fault_plan_free (faults);
      return NULL;
    }
  if (kind->open == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_NOT_AVAILABLE,
                   "device URL '%s': the %s:// transport is not available in this build (supported: %s)", url,
                   scheme, supported);
      kind_free (kind);
      fault_plan_free (faults);
      return NULL;
    }
  device = kind->open (url, name, params, error);
  kind_free (kind);
  if (device == NULL)
    {
      fault_plan_free (faults);
      return NULL;
    }
  device->faults = faults;
  return device;
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
      /* socket://NAME@HOST:PORT names the board NAME */
      const char *end = sep + 3 + strcspn (sep + 3, "/?@");
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
  fault_plan_free (device->faults);
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
  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!check_open (device, error))
    return FALSE;
  return device->klass->reset ? device->klass->reset (device, level, error) : TRUE;
}

gboolean
xrt_device_check (XrtDevice *device, int level, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!check_open (device, error))
    return FALSE;
  if (level >= 1)
    for (guint i = 0; i < device->regions->len; i++)
      if (!xrt_mem_manager_check (xrt_mem_region_get_manager (device->regions->pdata[i]),
                                  error))
        return FALSE;
  return device->klass->check ? device->klass->check (device, level, error) : TRUE;
}

char *
xrt_device_get_status_text (XrtDevice *device, int level)
{
  GString *out;

  g_return_val_if_fail (device != NULL, NULL);
  out = g_string_new (NULL);
  xrt_device_show_status (device, level, out);
  return g_string_free (out, FALSE);
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

  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);
  ZW_RETURN_VAL_IF_BAD_ARG (name != NULL, "name", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);

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

  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
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

  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, NULL);

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
  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);
  ZW_RETURN_VAL_IF_BAD_ARG (value != NULL, "value", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!check_reg_addr (device, addr, error))
    return FALSE;
  if (device->klass->read_reg == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s has no registers",
                   device->url);
      return FALSE;
    }
  if (device->faults != NULL)
    {
      char what[64];
      g_snprintf (what, sizeof what, "register read at 0x%" G_GINT64_MODIFIER "x", addr);
      if (xrt_device_take_fault (device, XRT_FAULT_REG_READ, what, error))
        return FALSE;
    }
  return device->klass->read_reg (device, addr, value, error);
}

gboolean
xrt_device_write_reg (XrtDevice *device, guint64 addr, guint32 value, GError **error)
{
  ZW_RETURN_VAL_IF_BAD_ARG (device != NULL, "device", error, XRT_ERROR, XRT_ERROR_INVALID_ARGUMENT, FALSE);

  if (!check_reg_addr (device, addr, error))
    return FALSE;
  if (device->klass->write_reg == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_REGISTER, "device %s has no registers",
                   device->url);
      return FALSE;
    }
  if (device->faults != NULL)
    {
      char what[64];
      g_snprintf (what, sizeof what, "register write at 0x%" G_GINT64_MODIFIER "x", addr);
      if (xrt_device_take_fault (device, XRT_FAULT_REG_WRITE, what, error))
        return FALSE;
    }
  return device->klass->write_reg (device, addr, value, error);
}

G_DEFINE_BOXED_TYPE (XrtDevice, xrt_device, (GBoxedCopyFunc) xrt_device_ref, (GBoxedFreeFunc) xrt_device_unref)
