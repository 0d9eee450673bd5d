#!/bin/sh
# fuzz-run.sh NAME EXE RUNS SEEDS CORPUS — one bounded libFuzzer run of a harness, from the
# seeds and the regression corpus; prints "NAME: N executions, F findings". A finding is
# saved under the build folder as findings/NAME/crash-* and fails the run: add it to
# tests/fuzz/corpus/NAME/ once fixed.
name=$1 exe=$2 runs=$3 seeds=$4 corpus=$5
work=$(dirname "$exe")/fuzz-work/$name
found=$(dirname "$exe")/findings/$name
# a harness the seed generator has no seeds for starts from the regression corpus alone
mkdir -p "$work" "$found" "$seeds"
# the log beside the corpus folder, not in it (libFuzzer reads every file there as an input)
log=$(dirname "$exe")/fuzz-work/$name.log
dict=$(dirname "$0")/dict/$name.dict
set -- -runs="$runs" -seed=1 -max_len=262144 -rss_limit_mb=4096 -timeout=25 -print_final_stats=1 \
  -artifact_prefix="$found/"
[ -f "$dict" ] && set -- "$@" -dict="$dict"
[ -d "$corpus" ] || corpus=
"$exe" "$@" "$work" "$seeds" $corpus >"$log" 2>&1
rc=$?
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
findings=$(ls "$found" 2>/dev/null | wc -l)
echo "$name: ${execs:-0} executions, $findings findings (libFuzzer exit $rc)"
if [ $rc -ne 0 ]; then
  grep -E 'ERROR|SUMMARY|zw-fuzz:|runtime error' "$log" | head -20
  exit 1
fi
