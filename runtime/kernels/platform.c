/* platform.c: ISA detection and the dispatch table (README.md, "platform.c").
 *
 * One table per ISA level, filled once on first use from what the CPU has; every kernel
 * reads the current level's table (kernel_platform()), never the CPU itself.  The tests
 * and benchmarks cap the level (zg330_kernel_set_generic_only(),
 * zg330_kernel_set_plain_only()) to run the plain, AVX2 and VNNI paths on one machine.
 */
#include "kernels/kernels-private.h"

static gint isa_cap;             /* 0: the best there is; 1: no VNNI; 2: plain C only */

#if ZG330_HAVE_X86
static gboolean
cpu_has_vnni (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
         && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("avx512vl")
         && __builtin_cpu_supports ("avx512vnni");
}

static gboolean
cpu_has_vbmi (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512vbmi");
}
#endif

static KernelPlatform platforms[3];   /* by KernelIsaLevel */
static gboolean have_vnni, have_avx2;

static gpointer
platforms_fill (gpointer data)
{
  KernelPlatform *plain = &platforms[KERNEL_ISA_PLAIN];
  gboolean portable_avx2 = FALSE;

  (void) data;
#if ZG330_HAVE_X86
  __builtin_cpu_init ();
  have_vnni = cpu_has_vnni ();
  have_avx2 = __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
  /* the portable loops' AVX2 build needs AVX2 alone, and serves every level */
  portable_avx2 = __builtin_cpu_supports ("avx2");
#endif
  plain->name = "generic";
  plain->level = KERNEL_ISA_PLAIN;
  plain->conv_pack_row = conv_pack_row_plain;
  plain->conv_dw_row = conv_dw_row_plain;
  plain->tile = tile_generic_plain;
  plain->pool_row_blocks = pool_row_blocks_plain;
#if ZG330_HAVE_X86
  if (portable_avx2)
    {
      plain->conv_pack_row = conv_pack_row_avx2;
      plain->conv_dw_row = conv_dw_row_avx2;
      plain->tile = tile_generic_avx2;
      plain->pool_row_blocks = pool_row_blocks_avx2;
    }
  if (have_avx2)
    {
      KernelPlatform *avx2 = &platforms[KERNEL_ISA_AVX2];

      *avx2 = *plain;
      avx2->name = "avx2";
      avx2->level = KERNEL_ISA_AVX2;
      avx2->tile = tile_avx2;
      avx2->tile_packed = tile_avx2_packed;
      avx2->conv_dw_pairs = conv_dw_pairs;
      avx2->add_part = add_part_avx2;
    }
  if (have_vnni)
    {
      KernelPlatform *vnni = &platforms[KERNEL_ISA_VNNI];

      *vnni = *plain;
      vnni->name = "avx512-vnni";
      vnni->level = KERNEL_ISA_VNNI;
      vnni->tile = tile_vnni;
      vnni->tile_packed = tile_vnni_packed;
      vnni->conv_expand_groups = conv_expand_groups;
      vnni->conv_dw_row_vnni = conv_dw_row_vnni;
      if (cpu_has_vbmi ())
        {
          vnni->conv_dw_rows_3x3 = conv_dw_rows_3x3;
          vnni->conv_dw_cols_3x3_s2 = conv_dw_cols_3x3_s2;
        }
      vnni->add_part = add_part_vnni;
    }
#endif
  return NULL;
}

const KernelPlatform *
kernel_platform (void)
{
  static GOnce once = G_ONCE_INIT;
  gint cap;

  g_once (&once, platforms_fill, NULL);
  cap = g_atomic_int_get (&isa_cap);
  return &platforms[have_vnni && cap == 0 ? KERNEL_ISA_VNNI : have_avx2 && cap < 2 ? KERNEL_ISA_AVX2 : KERNEL_ISA_PLAIN];
}

const char *
zg330_kernel_get_isa (void)
{
  return kernel_platform ()->name;
}

void
zg330_kernel_set_generic_only (gboolean generic)
{
  g_atomic_int_set (&isa_cap, generic ? 1 : 0);
}

void
zg330_kernel_set_plain_only (gboolean plain)
{
  g_atomic_int_set (&isa_cap, plain ? 2 : 0);
}
