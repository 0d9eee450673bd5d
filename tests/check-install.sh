#!/bin/sh
# check-install.sh BUILDDIR SRCDIR [PYTHON] — `meson install` into a DESTDIR, check the tree, then
# build the README's C example against the installed pkg-config file and run a forward with it;
# with PYTHON (one with PyGObject), import the installed typelibs and Python package from the
# DESTDIR tree and run a forward through them. TAP.
build=${1:?build dir}; src=${2:?source dir}; py=${3:-}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
echo "1..4"
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

# 4: the introspection data and the vendor-named Python package, imported from the tree
if [ -z "$py" ]; then
  echo "ok 4 /install/python-package # SKIP no Python with PyGObject (python3-gi), or introspection disabled"
  exit 0
fi
typelib=$(find "$root" -name 'Xrt-1.0.typelib' | head -1)
gir=$(find "$root" -name 'Xrt-1.0.gir' | head -1)
pkg=$(find "$root" -name 'zg330backend.py' | head -1)
if [ -z "$typelib" ] || [ -z "$gir" ] || [ -z "$pkg" ]; then
  echo "not ok 4 /install/python-package # typelib: ${typelib:-missing}, gir: ${gir:-missing}, package: ${pkg:-missing}"
  exit 0
fi
preload=""
if [ "$san" != "none" ]; then
  preload="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
fi
if env -u PYTHONPATH GI_TYPELIB_PATH="$(dirname "$typelib")" LD_LIBRARY_PATH="$libdir" PYTHONPATH="$(dirname "$pkg")" \
     LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 "$py" - "$root/share/zhuge-workbench/networks" >"$dest/py.log" 2>&1 <<'PY'
import sys, os
import xir
from xrt import *
from zg330backend import *
from host_backend import *
import xrt
assert os.path.dirname(xrt.__file__) == os.environ["PYTHONPATH"], xrt.__file__
d = sys.argv[1]
net = xir.Network.CreateFromJsonFile(os.path.join(d, "tiny_ZG.json")).loadParamsFromFile(os.path.join(d, "tiny_ZG.raw"))
sess = Session.Create([ZG330Backend, HostBackend], net.view(0), [Device.Open("mock://zg330"), HostDevice.Default()])
sess.apply()
v = net.inputs()[0]
outs = sess.forward([Tensor.fromBytes(bytes(v.storageBytes()), v)])
print(f"python forward: {len(outs)} output(s), {outs[0].size()} bytes")
PY
then
  echo "ok 4 /install/python-package # $(tail -1 "$dest/py.log")"
else
  echo "not ok 4 /install/python-package"; sed 's/^/# /' "$dest/py.log" | tail -20
fi
