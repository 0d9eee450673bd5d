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

#define ZW_BENCH_PEAK_AVX2_MACS_PER_ITER (12 * 16)

#define ZW_BENCH_X12(M) M (0) M (1) M (2) M (3) M (4) M (5) M (6) M (7) M (8) M (9) M (10) M (11)
#define ZW_BENCH_XMM0_12 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
                         "xmm9", "xmm10", "xmm11", "xmm12"
/* A peak loop @name for target @isa: @setup, then @iters times @body; returns 0 (the
 * clobbers after @body). */
#define ZW_BENCH_PEAK_LOOP(name, isa, setup, body, ...)                                     \
  __attribute__ ((target (isa), unused)) static guint64 name (guint64 iters)              \
  {                                                                                       \
    guint64 n = iters;                                                                    \
    __asm__ volatile (setup "1:\n\t" body "dec %0\n\t" "jnz 1b\n\t" : "+r" (n) : : __VA_ARGS__); \
    return n;                                                                             \
  }

/* zw_bench_peak_vnni: 16 vpdpbusd chains, ZW_BENCH_PEAK_MACS_PER_ITER MACs per iteration */
#define ZW_BENCH_DP(n) "vpdpbusd %%zmm17, %%zmm16, %%zmm" #n "\n\t"
ZW_BENCH_PEAK_LOOP (zw_bench_peak_vnni, "avx512f,avx512bw,avx512vnni",
                    "vpxord %%zmm16, %%zmm16, %%zmm16\n\t" "vpternlogd $0xff, %%zmm17, %%zmm17, %%zmm17\n\t",
                    ZW_BENCH_X12 (ZW_BENCH_DP) ZW_BENCH_DP (12) ZW_BENCH_DP (13) ZW_BENCH_DP (14) ZW_BENCH_DP (15),
                    ZW_BENCH_XMM0_12, "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc")
#undef ZW_BENCH_DP

/* zw_bench_peak_avx2: without VNNI an exact int8 kernel widens to int16 and uses vpmaddwd
 * (16 MACs) plus an add: 12 chains of the pair, ZW_BENCH_PEAK_AVX2_MACS_PER_ITER MACs per
 * iteration */
#define ZW_BENCH_MW(n) "vpmaddwd %%ymm14, %%ymm15, %%ymm12\n\t" "vpaddd %%ymm12, %%ymm" #n ", %%ymm" #n "\n\t"
ZW_BENCH_PEAK_LOOP (zw_bench_peak_avx2, "avx2",
                    "vpxor %%ymm14, %%ymm14, %%ymm14\n\t" "vpcmpeqd %%ymm15, %%ymm15, %%ymm15\n\t",
                    ZW_BENCH_X12 (ZW_BENCH_MW),
                    ZW_BENCH_XMM0_12, "xmm14", "xmm15", "cc")
#undef ZW_BENCH_MW
#else
#define ZW_BENCH_HAVE_X86 0
#endif
