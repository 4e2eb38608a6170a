# Sourced by GPU test scripts that tune specs and judge the results afterwards:
# `tune_run OPTIML SPEC OUT COMPILER [TIMEOUT]` runs `optiml tune` of SPEC into OUT (its own
# cache OUT/cache, the log OUT/tune.log, the exit status OUT/exit_status) and prints the log's
# last lines.
tune_run() {
  local optiml=$1 spec=$2 out=$3 compiler=$4 limit=${5:-300}
  mkdir -p "$out"
  echo "== $(basename "$out"): optiml tune"
  timeout --kill-after=10 "$limit" "$optiml" tune --spec "$spec" --cache-dir "$out/cache" \
    --host-compiler "$compiler" >"$out/tune.log" 2>&1
  echo $? >"$out/exit_status"
  tail -n 3 "$out/tune.log"
}
