# Shared by the integration tests (sourced): each test configures and builds CMake projects that
# use OptiML as a user would, in its own work folder, and asserts on what the build printed and
# generated. The repository is never modified: tests that edit files edit copies.
#
# Environment (set by CMakeLists.txt): OPTIML_TEST_SOURCE_DIR, OPTIML_TEST_BUILD_DIR (OptiML's
# build tree, a valid OptiML_DIR), OPTIML_TEST_WORK, OPTIML_TEST_CMAKE, OPTIML_TEST_NINJA,
# OPTIML_TEST_NVCC.
set -euo pipefail

source_dir=${OPTIML_TEST_SOURCE_DIR:?}
optiml_build_dir=${OPTIML_TEST_BUILD_DIR:?}
work=${OPTIML_TEST_WORK:?}
cmake_command=${OPTIML_TEST_CMAKE:?}
ninja_command=${OPTIML_TEST_NINJA:?}
nvcc_command=${OPTIML_TEST_NVCC:?}

rm -rf "$work"
mkdir -p "$work"
# An empty local cache of the test's own; nothing from the developer's environment leaks in.
export OPTIML_CACHE_DIR=$work/cache
mkdir -p "$OPTIML_CACHE_DIR"
unset OPTIML_MODE OPTIML_FORCE_ORIGINAL XDG_CACHE_HOME OptiML_DIR
# These tests are about builds on machines without a GPU, on any machine: a scripted worker that
# lists no GPU stands in for the real one (tests/gpu/ covers builds that tune).
export OPTIML_WORKER=$source_dir/tests/unit/measure/fake_worker.sh FAKE_DEVICES=0

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

# copy_example NAME DEST: a copy of examples/NAME whose seed cache is empty (README.md only).
copy_example() {
    cp -r "$source_dir/examples/$1" "$2"
    rm -rf "$2/optiml-seed/entries"
}

# configure SOURCE BUILD [cmake arguments...]: must succeed; the output goes to BUILD.configure.log.
configure() {
    local src=$1 build=$2
    shift 2
    if ! "$cmake_command" -S "$src" -B "$build" -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja_command" \
        -DCMAKE_CUDA_COMPILER="$nvcc_command" "$@" >"$build.configure.log" 2>&1; then
        cat "$build.configure.log"
        fail "configuring $src failed"
    fi
}

# build BUILD LOG: must succeed; the output goes to LOG and is shown.
build() {
    local status=0
    "$cmake_command" --build "$1" -j 2 >"$2" 2>&1 || status=$?
    cat "$2"
    [[ $status -eq 0 ]] || fail "building $1 failed (exit $status)"
}

# count_matches PATTERN FILE: lines matching the extended regex (0 when none).
count_matches() {
    grep -Ec -- "$1" "$2" || true
}

assert_matches() {  # FILE PATTERN MESSAGE
    grep -Eq -- "$2" "$1" || fail "$3 (no line of $1 matches '$2')"
}

assert_no_match() {  # FILE PATTERN MESSAGE
    if grep -Eq -- "$2" "$1"; then
        fail "$3 ($1: $(grep -Em1 -- "$2" "$1"))"
    fi
}

# The cache key the generated launcher reports for an architecture left on the original kernel.
fallback_key() {  # GENERATED_CU ARCH
    sed -n "s|^// sm_$2: .*(key \\([0-9a-f]*\\)).*original kernel.*|\\1|p" "$1"
}

# Modification time with nanoseconds: an unchanged file keeps it exactly.
mtime() {
    stat -c %y "$1"
}
