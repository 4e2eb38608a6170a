#!/usr/bin/env bash
# The matrix sample (tests/integration/projects/matrix_sample) tuned end to end on this GPU, as its
# user would build it: the target's -rdc=true and flags reach the driver, the baseline is the
# kernel compiled as the target compiles it, and the speedup OptiML reports (the entry's warm
# condition) is the one the program itself measures: its main() times 100 back-to-back launches
# through the drop-in call, once as built (the tuned variant) and once with
# OPTIML_FORCE_ORIGINAL=1 (the original kernel). The two ratios must agree within 3%, and both runs must compute C right.
# Usage: matrix_sample.sh OPTIML OPTIML_BUILD_DIR SOURCE_DIR
set -euo pipefail
optiml=$1 optiml_dir=$2 source_dir=$3
source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"
case " 75 86 90 120 " in *" $arch "*) ;; *)
    echo "this GPU (sm_$arch) is not among the sample's architectures (75 86 90 120): skipped"
    exit 77 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/tests/integration/projects/matrix_sample" "$work/src"
rm -rf "$work/src/optiml-seed/entries"  # tune from nothing
export OPTIML_CACHE_DIR=$work/cache OPTIML_MODE=auto
unset OPTIML_FORCE_ORIGINAL

cmake -S "$work/src" -B "$work/build" -G Ninja -DOptiML_DIR="$optiml_dir" -DCMAKE_BUILD_TYPE=Release \
    >"$work/configure.log"
cmake --build "$work/build" 2>&1 | tee "$work/build.log"
grep -q "the target's flags: .*-rdc=true" "$work/build.log" || fail "the driver did not see -rdc=true"
grep -q "sm_$arch: done:" "$work/build.log" || fail "the build did not tune sm_$arch"

manifest=$(find "$work/cache/entries" -name manifest.json | head -n1)
[ -n "$manifest" ] || fail "no cache entry was written"
# main() launches back to back, its data in L2: the entry's warm speedup is the one it sees.
reported=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["timing"]["warm"]["speedup"])' "$manifest")
grep -q '"-rdc=true"' "$manifest" || fail "the entry's key inputs do not name -rdc=true"

time_of() { sed -n 's/.*Time= *\([0-9.]*\) msec.*/\1/p' "$1"; }
"$work/build/matrixMul" | tee "$work/tuned.log"
OPTIML_FORCE_ORIGINAL=1 "$work/build/matrixMul" | tee "$work/original.log"
grep -q "Result = PASS" "$work/tuned.log" || fail "the tuned run computed a wrong C"
grep -q "Result = PASS" "$work/original.log" || fail "the original run computed a wrong C"
tuned_ms=$(time_of "$work/tuned.log") original_ms=$(time_of "$work/original.log")
[[ -n $tuned_ms && -n $original_ms ]] || fail "the program printed no times"
observed=$(python3 -c "print($original_ms / $tuned_ms)")
echo "speedup reported by OptiML: $reported; observed by the program: $observed" \
     "(original $original_ms ms, tuned $tuned_ms ms per launch)"
python3 -c "import sys; sys.exit(0 if abs($reported / $observed - 1) <= 0.03 else 1)" ||
    fail "the reported speedup $reported and the observed $observed differ by more than 3%"
echo "PASSED: the matrix sample tuned; reported $reported x, observed $observed x"
