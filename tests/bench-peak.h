/* bench-peak.h — this machine's int8 multiply-accumulate peak, the yardstick the kernel and
 * simulator benchmarks divide by (in the same run): 16 independent vpdpbusd chains on
 * registers, the tightest loop the conv's instruction can run (64 MACs per instruction);
 * without AVX-512 VNNI, 12 chains of vpmaddwd + vpaddd, what the AVX2 tile runs.
 * Written in asm because compilers shuffle an array of accumulators between registers. */
#pragma once

#include <glib.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ZW_BENCH_HAVE_X86 1
#define ZW_BENCH_PEAK_MACS_PER_ITER (16 * 64)

#define ZW_BENCH_DP(n) "vpdpbusd %%zmm17, %%zmm16, %%zmm" #n "\n\t"
/* Runs @iters iterations (ZW_BENCH_PEAK_MACS_PER_ITER MACs each); returns 0. */
__attribute__ ((target ("avx512f,avx512bw,avx512vnni"), unused)) static guint64
zw_bench_peak_vnni (guint64 iters)
{
  guint64 n = iters;

  __asm__ volatile ("vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
                    "vpternlogd $0xff, %%zmm17, %%zmm17, %%zmm17\n\t"
                    "1:\n\t"
                    ZW_BENCH_DP (0) ZW_BENCH_DP (1) ZW_BENCH_DP (2) ZW_BENCH_DP (3)
                    ZW_BENCH_DP (4) ZW_BENCH_DP (5) ZW_BENCH_DP (6) ZW_BENCH_DP (7)
                    ZW_BENCH_DP (8) ZW_BENCH_DP (9) ZW_BENCH_DP (10) ZW_BENCH_DP (11)
                    ZW_BENCH_DP (12) ZW_BENCH_DP (13) ZW_BENCH_DP (14) ZW_BENCH_DP (15)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r" (n)
                    :
                    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
                      "xmm16", "xmm17", "cc");
  return n;
}
#undef ZW_BENCH_DP

/* Without VNNI an exact int8 kernel widens to int16 and uses vpmaddwd (16 MACs) plus an
 * add: 12 chains of the pair. */
#define ZW_BENCH_PEAK_AVX2_MACS_PER_ITER (12 * 16)
#define ZW_BENCH_MW(n) "vpmaddwd %%ymm14, %%ymm15, %%ymm12\n\t" \
                       "vpaddd %%ymm12, %%ymm" #n ", %%ymm" #n "\n\t"
/* Runs @iters iterations (ZW_BENCH_PEAK_AVX2_MACS_PER_ITER MACs each); returns 0. */
__attribute__ ((target ("avx2"), unused)) static guint64
zw_bench_peak_avx2 (guint64 iters)
{
  guint64 n = iters;

  __asm__ volatile ("vpxor %%ymm14, %%ymm14, %%ymm14\n\t"
                    "vpcmpeqd %%ymm15, %%ymm15, %%ymm15\n\t"
                    "1:\n\t"
                    ZW_BENCH_MW (0) ZW_BENCH_MW (1) ZW_BENCH_MW (2) ZW_BENCH_MW (3)
                    ZW_BENCH_MW (4) ZW_BENCH_MW (5) ZW_BENCH_MW (6) ZW_BENCH_MW (7)
                    ZW_BENCH_MW (8) ZW_BENCH_MW (9) ZW_BENCH_MW (10) ZW_BENCH_MW (11)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r" (n)
                    :
                    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm14", "xmm15", "cc");
  return n;
}
#undef ZW_BENCH_MW
#else
#define ZW_BENCH_HAVE_X86 0
#endif
