/* zw-test-board.h — what the board tests (test-board*.c) share: the simulated board opened,
 * a region's allocator figures, and board profile files written. */
#pragma once

#include <glib.h>

#include "xrt/xrt-mem.h"
#include "xrt/xrt-device.h"
#include "devices/zg330-sim.h"
#include "devices/zg330-timing.h"

/* mock://zg330, opened or the test fails. */
XrtDevice *open_board (void);
/* The figures of @region's allocator. */
void region_info (XrtMemRegion *region, XrtMemRegionInfo *info);
/* @text written to @dir/@name; the path. */
gchar *write_temp (const char *dir, const char *name, const char *text);
/* The built-in profile's JSON with one field's value replaced (NULL value: removed). */
gchar *profile_text_with (const char *field, const char *value);

/* The areas, each in test-board-AREA.c, registered in this order by test-board.c. */
void test_board_add_alloc (void);
void test_board_add_memory (void);
void test_board_add_device (void);
void test_board_add_icore (void);
void test_board_add_timing (void);
void test_board_add_profile (void);
void test_board_add_threads (void);
