/* zw-fuzz.h — the fuzz harnesses of every loader (tests/fuzz/README.md).
 *
 * Each harness is one function that takes arbitrary bytes, hands them to a loader as a file
 * would, and — when the loader accepts them — goes on through what a user does next (plan,
 * check, export, statistics). It returns 0. Besides the sanitizers, a harness asserts the
 * error contract: a refused input gives a GError whose message names the file.
 * The same functions run under libFuzzer (-Dfuzzing=true, clang) and in the ordinary
 * regression test that replays tests/fuzz/corpus/<harness>/ in every CI pass.
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#define ZW_FUZZ_HARNESSES(X) \
  X (network)                \
  X (raw)                    \
  X (deploy_report)          \
  X (profile)                \
  X (dump)                   \
  X (device_profile)         \
  X (buffers_csv)            \
  X (file_kind)              \
  X (snapshot)               \
  X (run_config)             \
  X (board_protocol)         \
  X (client_protocol)        \
  X (sweep)                  \
  X (pipeline)               \
  X (pipeline_report)

#define ZW_FUZZ_DECLARE(name) int zw_fuzz_##name (const uint8_t *data, size_t size);
ZW_FUZZ_HARNESSES (ZW_FUZZ_DECLARE)

/* Writes @data to a file named @name in this process's scratch folder; returns its path
 * (owned by the helper, valid until the next call with the same name). */
const char *zw_fuzz_write_file (const char *name, const uint8_t *data, size_t size);
/* The scratch folder itself (created once, removed at exit). */
const char *zw_fuzz_scratch_dir (void);
/* A fresh empty sub-folder of the scratch folder (previous contents removed). */
const char *zw_fuzz_fresh_dir (const char *name);
/* The error contract: @error is set and its message mentions @needle (a file name). */
void zw_fuzz_check_error (const GError *error, const char *needle, const char *what);
/* The small network the harnesses that need one use (our generator's tiny demo). */
const char *zw_fuzz_tiny_network_path (void);
