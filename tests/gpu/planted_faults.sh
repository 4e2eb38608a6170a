#!/usr/bin/env bash
# Planted-fault suite: tunes each kernel of planted/expected.txt, whose fault=1 variants cheat in
# one known way, and checks that every cheat is rejected with the expected reason while the
# driver survives and stores a correct (fault=0) winner. Prints a Markdown table (also written to
# $PLANTED_TABLE when set). Exit code 77 = no GPU here: CTest reports the test as skipped.
set -uo pipefail
optiml=${1:?usage: planted_faults.sh <optiml executable>}
planted=$(cd "$(dirname "$0")/planted" && pwd)

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r kernel _; do
  [[ -z $kernel || $kernel == \#* ]] && continue
  out=$work/$kernel
  mkdir -p "$out"
  echo "== $kernel: optiml tune"
  # A hang the driver fails to contain must not hang the suite: 300 s, then TERM, then KILL.
  timeout --kill-after=10 300 "$optiml" tune --spec "$planted/$kernel.optiml.json" \
    --cache-dir "$out/cache" >"$out/tune.log" 2>&1
  echo $? >"$out/exit_status"
  "$optiml" cache --cache-dir "$out/cache" ls >"$out/cache_ls.txt" 2>&1
  tail -n 3 "$out/tune.log"
done <"$planted/expected.txt"

echo
python3 "$planted/check_results.py" "$planted/expected.txt" "$planted" "$work" >"$work/table.md"
status=$?
cat "$work/table.md"
if [[ -n ${PLANTED_TABLE:-} ]]; then cp "$work/table.md" "$PLANTED_TABLE"; fi
if [[ $status -ne 0 ]]; then
  for kernel in $(sed -n 's/^FAILED \([a-z_]*\) .*/\1/p' "$work/table.md" | sort -u); do
    echo && echo "== $kernel: tune.log (last 40 lines)" && tail -n 40 "$work/$kernel/tune.log"
  done
fi
exit $status
