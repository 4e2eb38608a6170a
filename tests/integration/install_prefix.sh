#!/usr/bin/env bash
# find_package(OptiML) from an install prefix: `cmake --install` OptiML's build tree into a fresh
# prefix, then build the saxpy example against that prefix only (CMAKE_PREFIX_PATH).
source "$(dirname "$0")/lib.sh"
prefix=$work/prefix

"$cmake_command" --install "$optiml_build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "cmake --install failed"; }
for program in optiml optiml-worker; do
    [[ -x $prefix/bin/$program ]] || fail "the install has no bin/$program"
done
# `optiml profile -- ./app` injects this library; optiml finds it in the lib folder beside bin.
activity=$(find "$prefix" -name liboptiml-activity.so -print -quit)
[[ -n $activity ]] || fail "the install has no liboptiml-activity.so"
[[ $(dirname "$(dirname "$activity")") == "$prefix" ]] ||
    fail "liboptiml-activity.so is installed at $activity, not in a lib folder beside bin/"
if ldd "$activity" | grep -q "not found"; then
    fail "the installed liboptiml-activity.so cannot load: $(ldd "$activity" | grep "not found")"
fi
[[ -f $prefix/include/optiml/runtime.h ]] || fail "the install has no include/optiml/runtime.h"
config=$(find "$prefix" -name OptiMLConfig.cmake -print -quit)
[[ -n $config ]] || fail "the install has no OptiMLConfig.cmake"
for file in OptiMLConfigVersion.cmake OptiMLTargets.cmake OptiMLFunctions.cmake; do
    [[ -f $(dirname "$config")/$file ]] || fail "the install has no $file beside OptiMLConfig.cmake"
done
"$prefix/bin/optiml" --version >/dev/null || fail "the installed optiml does not run"

copy_example saxpy "$work/src"
configure "$work/src" "$work/build" -DCMAKE_PREFIX_PATH="$prefix"
assert_matches "$work/build/CMakeCache.txt" "^OptiML_DIR:PATH=$prefix/" \
    "find_package(OptiML) did not use the install prefix"
assert_matches "$work/build/build.ninja" "$prefix/bin/optiml build --spec" \
    "the build does not run the installed optiml"
build "$work/build" "$work/build.log"
[[ -x $work/build/saxpy ]] || fail "the example program was not linked"
echo "PASSED: the installed package builds the saxpy example"
