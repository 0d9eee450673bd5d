/* zw-dump-private.h — shared by zw-dump.c, zw-dump-manifest.c and zw-dump-folder.c; not installed. */
#pragma once

#include "report/zw-dump.h"

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_FORMAT "zhuge-dump-manifest"
#define MANIFEST_VERSION 1
