#!/bin/sh
# check-desktop.sh BUILD_DATADIR — the desktop file, the AppStream metainfo and the settings
# schema are valid (and the translations were merged into them). TAP.
d=${1:?build data dir}
echo "1..4"
out=$(desktop-file-validate "$d/org.zhuge.Workbench.desktop" 2>&1)
[ -z "$out" ] && echo "ok 1 /desktop/desktop-file-validate" || { echo "not ok 1 /desktop/desktop-file-validate"; echo "$out" | sed 's/^/# /'; }
out=$(appstreamcli validate --no-net --pedantic "$d/org.zhuge.Workbench.metainfo.xml" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "ok 2 /desktop/appstreamcli-validate" || { echo "not ok 2 /desktop/appstreamcli-validate"; echo "$out" | sed 's/^/# /'; }
[ -f "$d/gschemas.compiled" ] && echo "ok 3 /desktop/schema-compiled" || echo "not ok 3 /desktop/schema-compiled"
grep -q '^Name\[zh_CN\]=' "$d/org.zhuge.Workbench.desktop" && grep -q 'xml:lang="zh-CN"\|xml:lang="zh_CN"' "$d/org.zhuge.Workbench.metainfo.xml" \
  && echo "ok 4 /desktop/translations-merged" || echo "not ok 4 /desktop/translations-merged"
