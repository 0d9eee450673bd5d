#!/bin/sh
# make-seeds.sh OUT BUILD_DATA SHARED CORPUS — seed folders for the fuzz harnesses, from our
# generator's demo networks (and what running them writes) and, when present, the real
# vendor samples in ../shared/real (read in place, never copied into the source tree).
out=$1 data=$2 shared=$3
set -u
mkdir -p "$out"
# absolute: meson passes a path relative to the build folder, and some runs below cd elsewhere
out=$(cd "$out" && pwd)
for n in network raw deploy_report profile dump device_profile buffers_csv file_kind snapshot run_config sweep pipeline pipeline_report; do mkdir -p "$out/$n"; done
nets=$data/networks
for f in "$nets"/tiny_ZG.json "$nets"/resnet18_ZG.json; do [ -f "$f" ] && cp "$f" "$out/network/"; done
[ -f "$nets/tiny_ZG.raw" ] && cp "$nets/tiny_ZG.raw" "$out/raw/"
[ -f "$data/devices/zg330.json" ] && cp "$data/devices/zg330.json" "$out/device_profile/"
src_dev=$(dirname "$0")/../../data/devices/zg330.json
[ -f "$src_dev" ] && cp "$src_dev" "$out/device_profile/"
if [ -d "$shared/real" ]; then
  for f in "$shared"/real/*_time.txt; do [ -f "$f" ] && cp "$f" "$out/profile/" && cp "$f" "$out/file_kind/"; done
  for f in "$shared"/real/*.json; do [ -f "$f" ] && cp "$f" "$out/network/"; done
fi
if [ -d "$shared/planner-bench" ]; then
  ls "$shared"/planner-bench/*.csv 2>/dev/null | head -3 | while read -r f; do cp "$f" "$out/buffers_csv/"; done
fi
printf '[run]\njson = "%s/tiny_ZG.json"\nocmopt = 1\nmerge_hardop = false\nlog_time = true\nbackends = "ZG330,mock://zg330;Host"\ndump_format = "SFB"\n' "$nets" > "$out/run_config/tiny.toml"
# a run of the tiny network (meson builds xrt-run before this script runs) gives a deploy report, time profiles and a dump
xrt_run=$(dirname "$data")/runtime/tools/xrt-run
if [ -x "$xrt_run" ] && [ -f "$nets/tiny_ZG.json" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && "$xrt_run" run "$nets/tiny_ZG.json" --profile --log --dump dumps --dump-format SFB --save-snapshot s.snapshot >/dev/null 2>&1)
  find "$tmp" -name '*_zg330_*.json' -exec cp {} "$out/deploy_report/" \;
  # the body only: the harness adds the checksum line
  [ -f "$tmp/s.snapshot" ] && head -n 1 "$tmp/s.snapshot" | tr -d '\n' > "$out/snapshot/tiny.snapshot"
  find "$tmp" -name '*_time.*' -exec cp {} "$out/profile/" \;
  if [ -f "$tmp/dumps/manifest.json" ]; then
    seed=$out/dump/tiny-run
    { cat "$tmp/dumps/manifest.json"
      for f in "$tmp"/dumps/*.ftmp; do printf '\n@@ %s\n' "$(basename "$f")"; cat "$f"; done; } > "$seed"
  fi
  cp "$out"/profile/* "$out/file_kind/" 2>/dev/null
  # a sweep of the tiny network over a what-if grid (its rows, front and points)
  "$xrt_run" sweep "$nets/tiny_ZG.json" --what-if ocm=512K,1M --what-if icore=800M --json "$out/sweep/tiny-sweep.json" \
    >/dev/null 2>&1
  # a pipeline report: the tiny network split in two, sharing FTMP, one connection, profiled
  printf '[pipeline]\nname = "split"\n[network.head]\njson = "%s/tiny_ZG.json"\nops = [0, 2]\n[network.tail]\njson = "%s/tiny_ZG.json"\nops = [2]\n[share.f]\nnetworks = ["head", "tail"]\nsegments = ["FTMP"]\n[connect.x]\nfrom = "head"\noutput = 0\nto = "tail"\ninput = 0\nmode = "staged"\n' \
    "$nets" "$nets" > "$tmp/split.toml"
  (cd "$tmp" && "$xrt_run" run split.toml --profile --json "$out/pipeline_report/split.json" >/dev/null 2>&1)
  # the same file is the pipeline loader's seed (its networks by absolute path), with the demo
  # pipelines (their networks relative to their folder: the loader's errors for those)
  cp "$tmp/split.toml" "$out/pipeline/"
  for f in "$nets"/*_pipeline.toml; do [ -f "$f" ] && cp "$f" "$out/pipeline/"; done
  rm -rf "$tmp"
fi
exit 0
