/* zg330-timing.c — device profile (load, validate, set, save) and the timing model. */
#include "devices/zg330-timing.h"
#include "base/zw-file.h"
#include "base/zw-file-read.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

#define PROFILE_VERSION 1
#define TWO_POW_32 4294967296.0

typedef enum {
  FIELD_DOUBLE,
  FIELD_U64,
  FIELD_UINT,
  FIELD_HEX32,   /* a "0x…" string in the file */
} FieldType;

typedef struct {
  const char *name;
  FieldType   type;
  gsize       offset;
  double      min;
  double      max;
  const char *doc;
} Field;

#define F(name_, member_, type_, min_, max_, doc_) \
  { name_, type_, G_STRUCT_OFFSET (Zg330Profile, member_), min_, max_, doc_ }

/* One table drives loading, validation, the setters and saving, so they cannot drift. */
static const Field fields[] = {
  F ("icore_clock_hz", icore_clock_hz, FIELD_DOUBLE, 1e6, 1e10,
     "icore clock in Hz (1 GHz). Changing it keeps the MACs per cycle."),
  F ("ddr_clock_hz", ddr_clock_hz, FIELD_DOUBLE, 1e6, 1e10,
     "DDR I/O clock in Hz: DDR3-1600 runs at 800 MHz (1600 MT/s). Changing it rescales "
     "etm_bandwidth_bytes_per_s."),
  F ("int8_tops", int8_tops, FIELD_DOUBLE, 1e-3, 1e4,
     "int8 throughput in TOPS at icore_clock_hz, 1 MAC = 2 ops: 8 TOPS = 4 TMAC/s = 4000 "
     "MACs per cycle at 1 GHz."),
  F ("etm_bandwidth_bytes_per_s", etm_bandwidth, FIELD_DOUBLE, 1e6, 1e13,
     "ETM (PL DDR) bandwidth in bytes/s at ddr_clock_hz: 64-bit DDR3-1600 = 8 bytes x "
     "1600 MT/s = 12.8 GB/s."),
  F ("etm_base", etm_base, FIELD_U64, 0, TWO_POW_32 - 1,
     "first ETM address (the ETM region's base)."),
  F ("etm_bytes", etm_bytes, FIELD_U64, 65536, TWO_POW_32,
     "ETM size in bytes; etm_base + etm_bytes must fit in 32 bits (the run-base register "
     "is 32 bits wide)."),
  F ("ocm_bytes", ocm_bytes, FIELD_U64, 4096, 1073741824.0,
     "OCM (on-chip memory) size in bytes."),
  F ("ocm_bandwidth_bytes_per_s", ocm_bandwidth, FIELD_DOUBLE, 1e6, 1e14,
     "OCM bandwidth in bytes/s."),
  F ("mpe_rows", mpe_rows, FIELD_UINT, 1, 64, "rows of the MPE grid (getRowsCols)."),
  F ("mpe_cols", mpe_cols, FIELD_UINT, 1, 64,
     "columns of the MPE grid (getRowsCols); core ids (cid) run over the columns."),
  F ("hardop_fixed_cycles", hardop_fixed_cycles, FIELD_U64, 0, 1e9,
     "fixed icore cycles every hardop costs on top of max(compute, ETM, OCM)."),
  F ("launch_cycles", launch_cycles, FIELD_U64, 0, 1e9,
     "icore cycles each icoreCalc launch costs before its first hardop."),
  F ("host_sync_us", host_sync_us, FIELD_DOUBLE, 0, 1e6,
     "microseconds the host spends to sync with and restart the icore after each "
     "unmerged launch (not on the icore timer)."),
  F ("tile_bytes", tile_bytes, FIELD_U64, 1, 1073741824.0,
     "bytes per tile for the read/write tile counters when a hardop does not report its "
     "tiles."),
  F ("fpga_version", fpga_version, FIELD_HEX32, 0, TWO_POW_32 - 1,
     "value of the version register 0x1C, as a \"0x\" hex string."),
  /* The board's host CPU and the DetPostZG IP: the host-op cost model
   * (backends/host/host-cost.h).  Each doc says why the figure is what it is. */
  F ("host_cpu_cores", host_cpu_cores, FIELD_UINT, 1, 256,
     "cores of the board's host CPU (an ARM application processor). Why 4: the manuals name "
     "no host CPU; the vendor's Buyi board (socket URL \"ql100aiu\" in the icraft-run manual, "
     "an FMQL100TAI) has a quad Cortex-A7 and the ZG330 board is assumed alike. Cast and Resize "
     "spread their elements over the cores; copies are memory bound and use one."),
  F ("host_cpu_clock_hz", host_cpu_clock_hz, FIELD_DOUBLE, 1e6, 1e10,
     "clock of the host CPU in Hz. Why 1 GHz: the Cortex-A7 of the Buyi board's processor "
     "runs at up to 1 GHz (assumed for ZG330's host)."),
  F ("host_op_fixed_us", host_op_fixed_us, FIELD_DOUBLE, 0, 1e6,
     "microseconds every host op costs on top of its work. Why 20: dispatch through the "
     "runtime, a tensor allocation and cold caches on a 1 GHz in-order core are tens of "
     "microseconds (assumed order of magnitude)."),
  F ("host_copy_bytes_per_cycle", host_copy_bytes_per_cycle, FIELD_DOUBLE, 1e-3, 1e3,
     "memcpy bytes per host CPU cycle on one core (Input, Output, reading DetPostZG's boxes "
     "back). Why 2: a Cortex-A7 copies about 2 GB/s over its 32-bit DDR3 at 1 GHz (assumed)."),
  F ("host_cast_bytes_per_cycle", host_cast_bytes_per_cycle, FIELD_DOUBLE, 1e-3, 1e3,
     "Cast: input + output bytes per host CPU cycle on one core. Why 0.5: the scalar rescale "
     "loop (load, multiply in double, round, clamp, store) takes about 4 cycles per int8 "
     "element, 2 bytes in and out (assumed)."),
  F ("host_resize_nearest_cycles_per_element", host_resize_nearest_cycles_per_element,
     FIELD_DOUBLE, 0, 1e6,
     "Resize (nearest): host CPU cycles per output element on one core. Why 4: an index, a "
     "load and a store per element (assumed)."),
  F ("host_resize_bilinear_cycles_per_element", host_resize_bilinear_cycles_per_element,
     FIELD_DOUBLE, 0, 1e6,
     "Resize (bilinear): host CPU cycles per output element on one core. Why 16: four loads, "
     "three interpolations and a rounding per element (assumed)."),
  F ("detpost_clock_hz", detpost_clock_hz, FIELD_DOUBLE, 1e6, 1e10,
     "clock of the DetPostZG post-processing IP (programmable logic next to the NPU). Why "
     "250 MHz: a usual fabric clock for such an IP (assumed; not public)."),
  F ("detpost_fixed_cycles", detpost_fixed_cycles, FIELD_U64, 0, 1e9,
     "DetPostZG IP cycles per call before its first candidate. Why 2000: register "
     "programming read back and the start handshake (assumed order of magnitude)."),
  F ("detpost_cycles_per_anchor", detpost_cycles_per_anchor, FIELD_DOUBLE, 0, 1e6,
     "DetPostZG IP cycles per anchor candidate (cell x anchor) compared. Why 1: the IP "
     "streams the heads and compares one candidate per cycle (assumed pipelined)."),
  F ("detpost_cycles_per_box", detpost_cycles_per_box, FIELD_DOUBLE, 0, 1e6,
     "DetPostZG IP cycles per box record written. Why 12: a 96-byte record (the real "
     "yolov5s) over a 64-bit AXI bus is 12 beats (assumed)."),
};

#undef F

static const char *const builtin_assumptions[] = {
  "ZG330's OCM size is not public: 2 MiB is assumed, the OCM size of the Buyi architecture.",
  "ZG330's MPE grid is not public: 4x4 is assumed, as on Buyi.",
  "8 TOPS int8 at 1 GHz is taken literally: 4000 MACs per cycle (250 per MPE on the assumed "
  "4x4 grid); a 4096-MAC array would be 8.19 TOPS, which a datasheet would round to 8.",
  "OCM bandwidth is assumed to be 128 bytes per icore cycle (128 GB/s at 1 GHz).",
  "ETM bandwidth is the DDR3-1600 peak of a 64-bit bus (800 MHz x 2 x 8 bytes = 12.8 GB/s); "
  "DDR efficiency losses are not modelled.",
  "The vendor header's default ddr_clk_freq is 333 MHz, a controller clock; the profile "
  "models the DDR3-1600 I/O clock, 800 MHz.",
  "hardop_fixed_cycles, launch_cycles and host_sync_us are assumed orders of magnitude, "
  "not measurements.",
  "tile_bytes (4096) is assumed: the hardware's tile size is not public.",
  "The manuals name no host CPU: the board's host is assumed to be the Buyi board's, a quad "
  "Cortex-A7 at 1 GHz (FMQL100TAI); host-op costs are assumed per-element figures for such a "
  "core, not measurements.",
  "DetPostZG's IP clock (250 MHz) and cycle counts are assumed: the IP's timing is not public.",
};

static const char chip_doc[] =
  "the chip the simulated board carries: \"ZG330\" or \"Buyi\" (the device's name in its version and "
  "status). Optional; default \"ZG330\".";

static const char *const buyi_assumptions[] = {
  "Buyi's OCM is 2 MiB and its MPE grid 4x4 (rows 4, cols 4: also the tags of the vendor's Buyi compiles); "
  "these are the only Buyi figures the documentation states.",
  "icore clock 860 MHz: the icraft-run manual's Buyi example sets --frequency 860 (MHz); the board's nominal "
  "clock is not published.",
  "2048 int8 MACs per cycle (128 per MPE on the 4x4 grid) are assumed: 3.52 TOPS at 860 MHz. Order-of-magnitude "
  "check: the vendor's Buyi time profile of bytetrack (13.5 ms of icore time for a yolox-s-sized detector, "
  "about 11 GMAC) implies about 0.8 TMAC/s sustained, 45 % of this peak.",
  "ETM is the PL DDR of the vendor's Buyi board (FMQL100TAI): assumed 1 GiB of 64-bit DDR3-1600 (12.8 GB/s peak); "
  "DDR efficiency losses are not modelled.",
  "OCM bandwidth is assumed to be 128 bytes per icore cycle (110.08 GB/s at 860 MHz).",
  "hardop_fixed_cycles, launch_cycles and host_sync_us are assumed orders of magnitude (the ZG330 profile's), "
  "not measurements.",
  "tile_bytes (4096) is assumed: the hardware's tile size is not public.",
  "fpga_version 0x01000100 is a placeholder: the Buyi version register's value is not public.",
  "The host CPU is the Buyi board's processor, a quad Cortex-A7 at 1 GHz (FMQL100TAI, the \"ql100aiu\" of the "
  "icraft-run manual's Buyi URLs); host-op costs are assumed per-element figures for such a core, not "
  "measurements.",
  "The DetPost and ImageMake IPs are clocked at detpost_clock_hz (250 MHz, assumed) with the detpost_* cycle "
  "counts; ImageMake streams one pixel per IP cycle (assumed): neither IP's timing is public.",
};

static const char general_doc[] =
  "Device profile of the simulated ZG330 board (mock://zg330). Per hardop: cycles = "
  "max(ceil(MACs / MACs per cycle), ceil(ETM bytes x clock / ETM bandwidth), ceil(OCM "
  "bytes x clock / OCM bandwidth)) + hardop_fixed_cycles; per launch: launch_cycles, plus "
  "host_sync_us when the launch is not merged. Host ops (Input, Output, Cast, Resize) cost "
  "host_op_fixed_us plus their work on the host CPU (bytes / bytes per cycle, or elements x "
  "cycles per element, at host_cpu_clock_hz); DetPostZG costs its IP's cycles (fixed + per "
  "anchor candidate + per box, at detpost_clock_hz) plus the host's fixed cost and reading "
  "the boxes back. Load another profile with mock://zg330?profile=PATH.";

/* ---- profile lifetime ------------------------------------------------------------ */

static void
profile_update_derived (Zg330Profile *p)
{
  p->macs_per_cycle = p->int8_tops * 1e12 / 2.0 / p->icore_clock_hz;
}

Zg330Profile *
zg330_profile_new_builtin (void)
{
  Zg330Profile *p = g_new0 (Zg330Profile, 1);

  p->name = g_strdup ("zg330");
  p->source = g_strdup ("built-in");
  p->chip = g_strdup ("ZG330");
  p->icore_clock_hz = 1e9;
  p->ddr_clock_hz = 800e6;
  p->int8_tops = 8.0;
  p->etm_bandwidth = 12.8e9;
  p->etm_base = 0;
  p->etm_bytes = G_GUINT64_CONSTANT (4294967296);
  p->ocm_bytes = 2 * 1024 * 1024;
  p->ocm_bandwidth = 128e9;
  p->mpe_rows = 4;
  p->mpe_cols = 4;
  p->hardop_fixed_cycles = 500;
  p->launch_cycles = 2000;
  p->host_sync_us = 25.0;
  p->tile_bytes = 4096;
  p->fpga_version = 0x03300100;
  p->host_cpu_cores = 4;
  p->host_cpu_clock_hz = 1e9;
  p->host_op_fixed_us = 20.0;
  p->host_copy_bytes_per_cycle = 2.0;
  p->host_cast_bytes_per_cycle = 0.5;
  p->host_resize_nearest_cycles_per_element = 4.0;
  p->host_resize_bilinear_cycles_per_element = 16.0;
  p->detpost_clock_hz = 250e6;
  p->detpost_fixed_cycles = 2000;
  p->detpost_cycles_per_anchor = 1.0;
  p->detpost_cycles_per_box = 12.0;
  p->assumptions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (builtin_assumptions); i++)
    g_ptr_array_add (p->assumptions, g_strdup (builtin_assumptions[i]));
  profile_update_derived (p);
  return p;
}

/* The figures of data/devices/buyi.json (a test keeps them equal). */
Zg330Profile *
zg330_profile_new_builtin_buyi (void)
{
  Zg330Profile *p = zg330_profile_new_builtin ();

  g_free (p->name);
  g_free (p->chip);
  p->name = g_strdup ("buyi");
  p->chip = g_strdup ("Buyi");
  p->icore_clock_hz = 860e6;
  p->ddr_clock_hz = 800e6;
  p->int8_tops = 3.52256;
  p->etm_bandwidth = 12.8e9;
  p->etm_base = 0;
  p->etm_bytes = G_GUINT64_CONSTANT (1073741824);
  p->ocm_bytes = 2 * 1024 * 1024;
  p->ocm_bandwidth = 110.08e9;
  p->mpe_rows = 4;
  p->mpe_cols = 4;
  p->fpga_version = 0x01000100;
  g_ptr_array_set_size (p->assumptions, 0);
  for (guint i = 0; i < G_N_ELEMENTS (buyi_assumptions); i++)
    g_ptr_array_add (p->assumptions, g_strdup (buyi_assumptions[i]));
  profile_update_derived (p);
  return p;
}

Zg330Profile *
zg330_profile_copy (const Zg330Profile *profile)
{
  Zg330Profile *p;

  g_return_val_if_fail (profile != NULL, NULL);
  p = g_new (Zg330Profile, 1);
  *p = *profile;
  p->name = g_strdup (profile->name);
  p->source = g_strdup (profile->source);
  p->chip = g_strdup (profile->chip);
  p->assumptions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < profile->assumptions->len; i++)
    g_ptr_array_add (p->assumptions, g_strdup (profile->assumptions->pdata[i]));
  return p;
}

void
zg330_profile_free (Zg330Profile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->name);
  g_free (profile->source);
  g_free (profile->chip);
  g_ptr_array_unref (profile->assumptions);
  g_free (profile);
}

/* ---- fields ------------------------------------------------------------------------ */

static const Field *
field_find (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (strcmp (fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

static double
field_get (const Zg330Profile *p, const Field *f)
{
  const guint8 *base = (const guint8 *) p + f->offset;

  switch (f->type)
    {
    case FIELD_DOUBLE:
      return *(const double *) base;
    case FIELD_U64:
      return (double) *(const guint64 *) base;
    case FIELD_UINT:
      return (double) *(const guint *) base;
    case FIELD_HEX32:
    default:
      return (double) *(const guint32 *) base;
    }
}

/* Checks @value for @f; on success stores it.  @what is the source for messages. */
static gboolean
field_set_checked (Zg330Profile *p, const Field *f, double value, const char *what,
                   GError **error)
{
  guint8 *base = (guint8 *) p + f->offset;
  gboolean integral = f->type != FIELD_DOUBLE;

  if (!isfinite (value) || value < f->min || value > f->max
      || (integral && value != floor (value)))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: field '%s': %.17g is not %s in [%.17g, %.17g]",
                   what, f->name, value, integral ? "an integer" : "a number", f->min, f->max);
      return FALSE;
    }
  switch (f->type)
    {
    case FIELD_DOUBLE:
      *(double *) base = value;
      break;
    case FIELD_U64:
      *(guint64 *) base = (guint64) value;
      break;
    case FIELD_UINT:
      *(guint *) base = (guint) value;
      break;
    case FIELD_HEX32:
      *(guint32 *) base = (guint32) value;
      break;
    }
  return TRUE;
}

static gboolean
profile_check_cross (const Zg330Profile *p, const char *what, GError **error)
{
  if ((double) p->etm_base + (double) p->etm_bytes > TWO_POW_32)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: field 'etm_bytes': etm_base 0x%" G_GINT64_MODIFIER "x + etm_bytes %"
                   G_GUINT64_FORMAT " exceeds the 32-bit address space",
                   what, p->etm_base, p->etm_bytes);
      return FALSE;
    }
  return TRUE;
}

const char *const *
zg330_profile_list_fields (void)
{
  static const char *names[G_N_ELEMENTS (fields) + 1];
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        names[i] = fields[i].name;
      g_once_init_leave (&initialized, 1);
    }
  return names;
}

const char *
zg330_profile_get_field_doc (const char *field)
{
  const Field *f;

  g_return_val_if_fail (field != NULL, NULL);
  f = field_find (field);
  return f ? f->doc : NULL;
}

gboolean
zg330_profile_get_field (const Zg330Profile *profile, const char *field, double *value)
{
  const Field *f;

  g_return_val_if_fail (profile != NULL && field != NULL && value != NULL, FALSE);
  if (strcmp (field, "macs_per_cycle") == 0)
    {
      *value = profile->macs_per_cycle;
      return TRUE;
    }
  if ((f = field_find (field)) == NULL)
    return FALSE;
  *value = field_get (profile, f);
  return TRUE;
}

gboolean
zg330_profile_set_field (Zg330Profile *profile, const char *field, double value,
                         GError **error)
{
  const Field *f;
  Zg330Profile tmp;
  const char *what;

  g_return_val_if_fail (profile != NULL && field != NULL, FALSE);

  what = profile->source ? profile->source : "profile";
  if ((f = field_find (field)) == NULL)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: no field '%s'", what, field);
      return FALSE;
    }
  /* Work on a copy so a rejected value leaves the profile as it was. */
  tmp = *profile;
  if (!field_set_checked (&tmp, f, value, what, error))
    return FALSE;
  if (strcmp (field, "icore_clock_hz") == 0)
    {
      /* The MPE array's width is fixed; the clock scales the throughput. */
      double tops = profile->macs_per_cycle * 2.0 * value / 1e12;
      if (!field_set_checked (&tmp, field_find ("int8_tops"), tops, what, error))
        return FALSE;
    }
  else if (strcmp (field, "ddr_clock_hz") == 0)
    {
      double bw = profile->etm_bandwidth * value / profile->ddr_clock_hz;
      if (!field_set_checked (&tmp, field_find ("etm_bandwidth_bytes_per_s"), bw, what, error))
        return FALSE;
    }
  else if (strcmp (field, "int8_tops") == 0)
    profile_update_derived (&tmp);
  if (!profile_check_cross (&tmp, what, error))
    return FALSE;
  *profile = tmp;
  return TRUE;
}

gboolean
zg330_profile_set_ocm_bytes (Zg330Profile *profile, guint64 bytes, GError **error)
{
  return zg330_profile_set_field (profile, "ocm_bytes", (double) bytes, error);
}

gboolean
zg330_profile_set_icore_clock_hz (Zg330Profile *profile, double hz, GError **error)
{
  return zg330_profile_set_field (profile, "icore_clock_hz", hz, error);
}

gboolean
zg330_profile_set_ddr_clock_hz (Zg330Profile *profile, double hz, GError **error)
{
  return zg330_profile_set_field (profile, "ddr_clock_hz", hz, error);
}

gboolean
zg330_profile_set_etm_bandwidth (Zg330Profile *profile, double bytes_per_s, GError **error)
{
  return zg330_profile_set_field (profile, "etm_bandwidth_bytes_per_s", bytes_per_s, error);
}

gboolean
zg330_profile_set_ocm_bandwidth (Zg330Profile *profile, double bytes_per_s, GError **error)
{
  return zg330_profile_set_field (profile, "ocm_bandwidth_bytes_per_s", bytes_per_s, error);
}

/* ---- loading ------------------------------------------------------------------------- */

static gboolean
is_known_key (const char *key)
{
  return key[0] == '_' || strcmp (key, "name") == 0 || strcmp (key, "profile_version") == 0
         || strcmp (key, "chip") == 0
         || strcmp (key, "assumptions") == 0 || field_find (key) != NULL;
}

Zg330Profile *
zg330_profile_load_from_data (const char *data, gsize length, const char *source,
                              GError **error)
{
  g_autoptr (Zg330Profile) p = NULL;
  cJSON *root, *item;
  const char *what = source ? source : "profile";
  gboolean ok = FALSE;

  g_return_val_if_fail (data != NULL, NULL);

  root = cJSON_ParseWithLength (data, length);
  if (root == NULL)
    {
      const char *at = cJSON_GetErrorPtr ();
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: not valid JSON (near byte %" G_GSIZE_FORMAT ")", what,
                   at && at >= data && at <= data + length ? (gsize) (at - data) : (gsize) 0);
      return NULL;
    }
  if (!cJSON_IsObject (root))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: the top level is not an object",
                   what);
      goto out;
    }

  p = g_new0 (Zg330Profile, 1);
  p->source = g_strdup (what);
  p->assumptions = g_ptr_array_new_with_free_func (g_free);

  cJSON_ArrayForEach (item, root)
    if (item->string == NULL || !is_known_key (item->string))
      {
        g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: field '%s': unknown field",
                     what, item->string ? item->string : "");
        goto out;
      }

  item = cJSON_GetObjectItemCaseSensitive (root, "profile_version");
  if (!cJSON_IsNumber (item) || item->valuedouble != PROFILE_VERSION)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: field 'profile_version': %s (this build reads version %d)", what,
                   item ? "unsupported version" : "missing", PROFILE_VERSION);
      goto out;
    }
  item = cJSON_GetObjectItemCaseSensitive (root, "name");
  if (!cJSON_IsString (item) || item->valuestring[0] == '\0')
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: field 'name': %s", what, item ? "must be a non-empty string" : "missing");
      goto out;
    }
  p->name = g_strdup (item->valuestring);
  item = cJSON_GetObjectItemCaseSensitive (root, "chip");
  if (item != NULL && (!cJSON_IsString (item) || item->valuestring[0] == '\0'))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: field 'chip': must be a non-empty string", what);
      goto out;
    }
  p->chip = g_strdup (item ? item->valuestring : "ZG330");

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const Field *f = &fields[i];
      double value;

      item = cJSON_GetObjectItemCaseSensitive (root, f->name);
      if (item == NULL)
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: field '%s': missing",
                       what, f->name);
          goto out;
        }
      if (f->type == FIELD_HEX32)
        {
          const char *s = cJSON_IsString (item) ? item->valuestring : NULL;
          char *end = NULL;
          guint64 v = 0;
          if (s && g_str_has_prefix (s, "0x") && s[2] != '\0')
            v = g_ascii_strtoull (s + 2, &end, 16);
          if (s == NULL || end == NULL || *end != '\0' || v > G_MAXUINT32)
            {
              g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                           "%s: field '%s': must be a 32-bit \"0x\" hex string", what, f->name);
              goto out;
            }
          value = (double) v;
        }
      else if (!cJSON_IsNumber (item))
        {
          g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: field '%s': must be a number",
                       what, f->name);
          goto out;
        }
      else
        value = item->valuedouble;
      if (!field_set_checked (p, f, value, what, error))
        goto out;
    }
  if (!profile_check_cross (p, what, error))
    goto out;

  item = cJSON_GetObjectItemCaseSensitive (root, "assumptions");
  if (!cJSON_IsArray (item) || cJSON_GetArraySize (item) == 0)
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "%s: field 'assumptions': %s", what,
                   item ? "must be a non-empty list of strings" : "missing (say what is assumed)");
      goto out;
    }
  {
    cJSON *s;
    guint idx = 0;
    cJSON_ArrayForEach (s, item)
      {
        if (!cJSON_IsString (s))
          {
            g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                         "%s: field 'assumptions[%u]': must be a string", what, idx);
            goto out;
          }
        g_ptr_array_add (p->assumptions, g_strdup (s->valuestring));
        idx++;
      }
  }
  profile_update_derived (p);
  ok = TRUE;

out:
  cJSON_Delete (root);
  return ok ? g_steal_pointer (&p) : NULL;
}

Zg330Profile *
zg330_profile_load (const char *path, GError **error)
{
  g_autofree gchar *data = NULL;
  gsize length = 0;
  GError *local = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!zw_file_read_regular (path, ZW_INPUT_DEVICE_PROFILE, 0, &data, &length, &local))
    {
      g_set_error_literal (error, XRT_ERROR, XRT_ERROR_PROFILE, local->message);
      g_error_free (local);
      return NULL;
    }
  return zg330_profile_load_from_data (data, length, path, error);
}

static gboolean
profile_name_is_valid (const char *name)
{
  if (name == NULL || name[0] == '\0' || strlen (name) > 64)
    return FALSE;
  for (const char *c = name; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '_')
      return FALSE;
  return TRUE;
}

gchar *
zg330_profile_find_named_file (const char *name)
{
  g_autofree gchar *upper = NULL;
  g_autofree gchar *var = NULL;
  const char *env;

  g_return_val_if_fail (name != NULL, NULL);
  if (!profile_name_is_valid (name))
    return NULL;
  upper = g_ascii_strup (name, -1);
  for (char *c = upper; *c; c++)
    if (*c == '-')
      *c = '_';
  var = g_strdup_printf ("ZW_%s_PROFILE", upper);
  env = g_getenv (var);
  if (env && env[0] != '\0')
    return g_strdup (env);
#ifdef ZW_SOURCE_DATADIR
  {
    g_autofree gchar *file = g_strdup_printf ("%s.json", name);
    g_autofree gchar *path = g_build_filename (ZW_SOURCE_DATADIR, "devices", file, NULL);
    if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
      return g_steal_pointer (&path);
  }
#endif
  return NULL;
}

gchar *
zg330_profile_find_default_file (void)
{
  return zg330_profile_find_named_file ("zg330");
}

Zg330Profile *
zg330_profile_load_named (const char *name, GError **error)
{
  g_autofree gchar *path = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  if (!profile_name_is_valid (name))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
                   "device profile name '%s': use letters, digits, '-' and '_' only", name);
      return NULL;
    }
  path = zg330_profile_find_named_file (name);
  if (path != NULL)
    return zg330_profile_load (path, error);
  if (strcmp (name, "zg330") == 0)
    return zg330_profile_new_builtin ();
  if (strcmp (name, "buyi") == 0)
    return zg330_profile_new_builtin_buyi ();
  g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE,
               "device profile '%s': no file data/devices/%s.json, no $ZW_%s_PROFILE and no built-in figures "
               "(built in: zg330, buyi)", name, name, name);
  return NULL;
}

Zg330Profile *
zg330_profile_load_default (GError **error)
{
  g_autofree gchar *path = zg330_profile_find_default_file ();

  if (path == NULL)
    return zg330_profile_new_builtin ();
  return zg330_profile_load (path, error);
}

/* ---- saving -------------------------------------------------------------------------- */

gchar *
zg330_profile_to_json (const Zg330Profile *profile)
{
  cJSON *root, *doc, *list;
  char *text;
  gchar *out;

  g_return_val_if_fail (profile != NULL, NULL);

  root = cJSON_CreateObject ();
  doc = cJSON_AddObjectToObject (root, "_doc");
  cJSON_AddStringToObject (doc, "_", general_doc);
  cJSON_AddStringToObject (doc, "name", "profile name.");
  cJSON_AddStringToObject (doc, "chip", chip_doc);
  cJSON_AddStringToObject (doc, "profile_version", "format version of this file (1).");
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    cJSON_AddStringToObject (doc, fields[i].name, fields[i].doc);
  cJSON_AddStringToObject (doc, "assumptions", "which figures are assumed, and why.");

  cJSON_AddStringToObject (root, "name", profile->name);
  cJSON_AddStringToObject (root, "chip", profile->chip ? profile->chip : "ZG330");
  cJSON_AddNumberToObject (root, "profile_version", PROFILE_VERSION);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      if (fields[i].type == FIELD_HEX32)
        {
          g_autofree gchar *hex = g_strdup_printf ("0x%08x", profile->fpga_version);
          cJSON_AddStringToObject (root, fields[i].name, hex);
        }
      else
        cJSON_AddNumberToObject (root, fields[i].name, field_get (profile, &fields[i]));
    }
  list = cJSON_AddArrayToObject (root, "assumptions");
  for (guint i = 0; i < profile->assumptions->len; i++)
    cJSON_AddItemToArray (list, cJSON_CreateString (profile->assumptions->pdata[i]));

  text = cJSON_Print (root);
  out = g_strconcat (text, "\n", NULL);
  cJSON_free (text);
  cJSON_Delete (root);
  return out;
}

gboolean
zg330_profile_save (const Zg330Profile *profile, const char *path, GError **error)
{
  g_autofree gchar *text = NULL;
  GError *local = NULL;

  g_return_val_if_fail (profile != NULL && path != NULL, FALSE);
  text = zg330_profile_to_json (profile);
  if (!zw_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, XRT_ERROR, XRT_ERROR_PROFILE, "%s: cannot write the device profile: %s",
                   path, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* ---- timing model ----------------------------------------------------------------------- */

/* ceil() that forgives the last bits of floating-point noise, so a figure that is exact
 * on paper (12800 bytes at 12.8 GB/s and 1 GHz = 1000 cycles) comes out exact. */
static guint64
ceil_cycles (double v)
{
  if (v <= 0.0)
    return 0;
  return (guint64) ceil (v - 1e-9 * MAX (1.0, v));
}

void
zg330_timing_op_breakdown (const Zg330Profile *profile, const Zg330OpWork *work,
                           Zg330OpCycles *out)
{
  double clk;
  guint64 etm_bytes, ocm_bytes, peak;

  g_return_if_fail (profile != NULL && work != NULL && out != NULL);

  clk = profile->icore_clock_hz;
  etm_bytes = work->etm_read_bytes + work->etm_write_bytes;
  ocm_bytes = work->ocm_read_bytes + work->ocm_write_bytes;
  out->compute_cycles = ceil_cycles ((double) work->macs / profile->macs_per_cycle);
  out->etm_cycles = ceil_cycles ((double) etm_bytes * clk / profile->etm_bandwidth);
  out->ocm_cycles = ceil_cycles ((double) ocm_bytes * clk / profile->ocm_bandwidth);
  out->fixed_cycles = profile->hardop_fixed_cycles;
  peak = out->compute_cycles;
  out->bound = ZG330_BOUND_COMPUTE;
  if (out->etm_cycles > peak)
    {
      peak = out->etm_cycles;
      out->bound = ZG330_BOUND_ETM;
    }
  if (out->ocm_cycles > peak)
    {
      peak = out->ocm_cycles;
      out->bound = ZG330_BOUND_OCM;
    }
  out->total_cycles = peak + out->fixed_cycles;
}

guint64
zg330_timing_op_cycles (const Zg330Profile *profile, const Zg330OpWork *work)
{
  Zg330OpCycles c;

  g_return_val_if_fail (profile != NULL && work != NULL, 0);
  zg330_timing_op_breakdown (profile, work, &c);
  return c.total_cycles;
}

guint64
zg330_timing_host_sync_cycles (const Zg330Profile *profile)
{
  g_return_val_if_fail (profile != NULL, 0);
  return (guint64) llround (profile->host_sync_us * 1e-6 * profile->icore_clock_hz);
}

guint64
zg330_timing_launch_overhead (const Zg330Profile *profile, gboolean merged)
{
  g_return_val_if_fail (profile != NULL, 0);
  return profile->launch_cycles + (merged ? 0 : zg330_timing_host_sync_cycles (profile));
}

guint64
zg330_timing_etm_copy_cycles (const Zg330Profile *profile, guint64 bytes)
{
  Zg330OpWork work = { 0 };
  Zg330OpCycles c;

  g_return_val_if_fail (profile != NULL, 0);
  work.etm_read_bytes = bytes;
  work.etm_write_bytes = bytes;
  zg330_timing_op_breakdown (profile, &work, &c);
  return c.etm_cycles;
}

double
zg330_timing_cycles_to_ms (const Zg330Profile *profile, guint64 cycles)
{
  g_return_val_if_fail (profile != NULL, 0.0);
  return (double) cycles * 1e3 / profile->icore_clock_hz;
}

void
zg330_timing_op_tiles (const Zg330Profile *profile, const Zg330OpWork *work,
                       guint64 *read_tiles, guint64 *write_tiles)
{
  g_return_if_fail (profile != NULL && work != NULL);

  if (work->read_tiles != 0 || work->write_tiles != 0)
    {
      *read_tiles = work->read_tiles;
      *write_tiles = work->write_tiles;
      return;
    }
  *read_tiles = (work->etm_read_bytes + work->ocm_read_bytes + profile->tile_bytes - 1)
                / profile->tile_bytes;
  *write_tiles = (work->etm_write_bytes + work->ocm_write_bytes + profile->tile_bytes - 1)
                 / profile->tile_bytes;
}
