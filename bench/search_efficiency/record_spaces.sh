#!/usr/bin/env bash
# Records complete tuning spaces on this machine's GPU: an exhaustive `optiml tune` of each spec
# (timings only, no profiler evidence), whose cache entry's manifest.json holds every valid
# configuration's outcome in its trace. Each goes to <out>/<name>.manifest.json.gz (gzip -9;
# replay and the benchmark read it as it is).
#   bench/search_efficiency/record_spaces.sh <optiml> <out dir> <seconds per spec> <spec>...
set -euo pipefail
optiml=$1 out=$2 seconds=$3
shift 3
mkdir -p "$out"
for spec in "$@"; do
  name=$(basename "$spec" .optiml.json)
  cache=$(mktemp -d)
  OPTIML_PROFILE=0 "$optiml" tune --spec "$spec" --cache-dir "$cache" --strategy exhaustive \
      --budget-evaluations 100000 --budget-seconds "$seconds" 2>&1 | tail -n 2
  gzip -9 -c "$(find "$cache/entries" -name manifest.json)" > "$out/$name.manifest.json.gz"
  rm -rf "$cache"
done
