#!/bin/sh
# check-install.sh BUILDDIR SRCDIR — `meson install` into a DESTDIR, check the tree, then build
# the README's C example against the installed pkg-config file and run a forward with it. TAP.
build=${1:?build dir}; src=${2:?source dir}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
echo "1..3"
if meson install -C "$build" --destdir "$dest" --no-rebuild >"$dest/install.log" 2>&1; then
  echo "ok 1 /install/meson-install-destdir"
else
  echo "not ok 1 /install/meson-install-destdir"; sed 's/^/# /' "$dest/install.log" | tail -20; exit 0
fi
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root="$dest$prefix"
missing=""
for f in bin/xrt-run bin/zw-netgen include/zhuge-runtime/xir/xir-network.h include/zhuge-runtime/xrt/xrt-session.h \
         share/zhuge-workbench/networks/yolov5s_ZG.json share/zhuge-workbench/networks/yolov5s_ZG.raw \
         share/locale/zh_CN/LC_MESSAGES/zhuge-workbench.mo; do
  [ -e "$root/$f" ] || missing="$missing $f"
done
pc=$(find "$root" -name zhuge-runtime.pc | head -1)
[ -n "$pc" ] || missing="$missing zhuge-runtime.pc"
lib=$(find "$root" -name 'libzhuge-runtime.so' | head -1)
[ -n "$lib" ] || missing="$missing libzhuge-runtime.so"
if [ -x "$build/app/zhuge-workbench" ]; then
  for f in bin/zhuge-workbench share/applications/org.zhuge.Workbench.desktop \
           share/metainfo/org.zhuge.Workbench.metainfo.xml \
           share/icons/hicolor/scalable/apps/org.zhuge.Workbench.svg \
           share/icons/hicolor/symbolic/apps/org.zhuge.Workbench-symbolic.svg \
           share/glib-2.0/schemas/org.zhuge.Workbench.gschema.xml share/zhuge-workbench/devices/zg330.json; do
    [ -e "$root/$f" ] || missing="$missing $f"
  done
fi
if [ -z "$missing" ]; then echo "ok 2 /install/tree-complete"; else echo "not ok 2 /install/tree-complete"; echo "# missing:$missing"; fi
[ -n "$pc" ] || { echo "not ok 3 /install/pkg-config-example-runs # no .pc"; exit 0; }
# the .pc as installed, moved under the DESTDIR (its other Requires stay the system's)
mkdir -p "$dest/pc"
sed "s|^prefix=.*|prefix=$root|" "$pc" > "$dest/pc/zhuge-runtime.pc"
export PKG_CONFIG_PATH="$dest/pc"
libdir=$(dirname "$lib")
# a sanitized build installs a sanitized library: build the example the same way
san=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"][0])')
sanflags=""
[ "$san" = "none" ] || sanflags="-fsanitize=$san"
if cc -std=c11 $sanflags -o "$dest/example" "$src/tests/example-forward.c" $(pkg-config --cflags --libs zhuge-runtime) 2>"$dest/cc.log" \
   && LD_LIBRARY_PATH="$libdir" "$dest/example" "$root/share/zhuge-workbench/networks/tiny_ZG.json" \
        "$root/share/zhuge-workbench/networks/tiny_ZG.raw" >"$dest/run.log" 2>&1; then
  echo "ok 3 /install/pkg-config-example-runs # $(cat "$dest/run.log")"
else
  echo "not ok 3 /install/pkg-config-example-runs"; sed 's/^/# /' "$dest/cc.log" "$dest/run.log" 2>/dev/null | tail -20
fi
