/* zw-locale.h — where the translations are: installed, or the build tree's for a program run
 * from it (so `LANGUAGE=zh_CN build/app/zhuge-workbench` speaks Chinese as the README says). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* $ZW_LOCALEDIR when set; else the build tree's po/ when the running program is one of the
 * build tree's (and it holds catalogues); else @installed (the configured localedir). */
const char *zw_locale_dir (const char *installed);

G_END_DECLS
