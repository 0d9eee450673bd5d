#!/bin/sh
# check-po.sh SRCDIR — the translations are complete and valid, and po/POTFILES.in lists
# every source file with translatable strings. TAP output.
src=${1:?source dir}
echo "1..3"
stats=$(msgfmt --check --statistics -o /dev/null "$src/po/zh_CN.po" 2>&1)
if [ $? -eq 0 ]; then echo "ok 1 /po/zh_CN/msgfmt-check"; else echo "not ok 1 /po/zh_CN/msgfmt-check"; echo "# $stats"; fi
# every string of the sources (not only those already in the .po) is translated
tmp=$(mktemp -d)
(cd "$src" && xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
   -o "$tmp/all.pot" $(grep -v '^#' po/POTFILES.in) 2>/dev/null)
msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" "$src/po/zh_CN.po" "$tmp/all.pot" 2>/dev/null
merged=$(msgfmt --statistics -o /dev/null "$tmp/merged.po" 2>&1)
rm -rf "$tmp"
case "$merged" in
  *untranslated*|*fuzzy*) echo "not ok 2 /po/zh_CN/complete"; echo "# against the sources: $merged" ;;
  *) echo "ok 2 /po/zh_CN/complete # $merged" ;;
esac
missing=""
for f in $(cd "$src" && grep -rlE '(^|[^A-Za-z0-9_])N?_ ?\("' runtime app viewers --include='*.c' 2>/dev/null | sort); do
  grep -qx "$f" "$src/po/POTFILES.in" || missing="$missing $f"
done
# and every listed file still has strings to translate
for f in $(grep -v '^#' "$src/po/POTFILES.in"); do
  [ -f "$src/$f" ] || missing="$missing (listed but absent: $f)"
done
if [ -z "$missing" ]; then echo "ok 3 /po/potfiles/complete"; else echo "not ok 3 /po/potfiles/complete"; echo "# missing from po/POTFILES.in:$missing"; fi
