#!/usr/bin/env bash
# Inputs with structure through the real `optiml` binary, no GPU needed: `optiml cache key` of
# tests/data/kernels/spmv_csr (a "generator" fill) and of a "file" fill. The key changes when the
# generator's source, a header it includes, or the data file's bytes change, and comes back when
# they are restored; a spec whose generator or data file is wrong is rejected naming the spec
# file, the field and the fix.
source "$(dirname "$0")/lib.sh"
optiml=$1

cp -r "$source_dir/tests/data/kernels/spmv_csr" "$work/spmv"
spec=$work/spmv/spmv_csr.optiml.json
key() { "$optiml" cache key --spec "$1" --arch 90; }
# rejected SPEC LOG WHAT PATTERN MESSAGE: `optiml cache key` of SPEC fails with a line matching
# PATTERN in its output (kept in LOG).
rejected() {
    local status=0
    key "$1" >"$2" 2>&1 || status=$?
    cat "$2"
    [[ $status -ne 0 ]] || fail "$3 was accepted"
    assert_matches "$2" "$4" "$5"
}

key1=$(key "$spec") || fail "optiml cache key failed on $spec"
[[ $key1 =~ ^[0-9a-f]{64}$ ]] || fail "not a key: $key1"
[[ $(key "$spec") == "$key1" ]] || fail "the key is not stable"

cp "$work/spmv/make_csr.cpp" "$work/make_csr.cpp.orig"
echo "// a comment is an edit" >>"$work/spmv/make_csr.cpp"
key2=$(key "$spec")
[[ $key2 != "$key1" ]] || fail "the key did not change with the generator's source"
cp "$work/make_csr.cpp.orig" "$work/spmv/make_csr.cpp"
[[ $(key "$spec") == "$key1" ]] || fail "the key did not come back with the generator's source"

echo "// edited" >>"$work/spmv/csr_builder.h"
key3=$(key "$spec")
[[ $key3 != "$key1" && $key3 != "$key2" ]] || fail "the key did not change with the generator's header"

# A generator that does not exist: rejected at load, naming the spec, the field and the fix.
sed 's|"source": "make_csr.cpp"|"source": "gen/missing.cpp"|' "$spec" >"$work/spmv/missing.optiml.json"
rejected "$work/spmv/missing.optiml.json" "$work/missing.log" "a missing generator source" \
    "missing.optiml.json: arguments\\[2\\]\\.fill\\.source: \"gen/missing.cpp\" not found" \
    "the error does not name the spec file and the field"

# A "file" fill: the data's bytes are in the key; a count that does not match is named.
mkdir -p "$work/scale/data"
cp "$source_dir/tests/unit/tune/data/scale.cu" "$work/scale/"
cat >"$work/scale/scale.optiml.json" <<'JSON'
{
  "name": "scale",
  "source": "scale.cu",
  "arguments": [
    {"name": "n", "type": "int32", "value": 1024},
    {"name": "x", "type": "float32", "pointer": true, "count": "n",
     "fill": {"kind": "file", "path": "data/x.bin"}},
    {"name": "y", "type": "float32", "pointer": true, "count": "n", "role": "output"}
  ],
  "launch": {"block": ["block_size_x"], "grid": ["ceil_div(n, block_size_x)"]},
  "parameters": [{"name": "block_size_x", "values": [128, 256], "default": 256}]
}
JSON
head -c 4096 /dev/zero >"$work/scale/data/x.bin"
file_key1=$(key "$work/scale/scale.optiml.json") || fail "optiml cache key failed on a file fill"
printf '\001' | dd of="$work/scale/data/x.bin" bs=1 seek=100 conv=notrunc status=none
file_key2=$(key "$work/scale/scale.optiml.json")
[[ $file_key2 != "$file_key1" ]] || fail "the key did not change with the data file's bytes"
head -c 4000 /dev/zero >"$work/scale/data/x.bin"
rejected "$work/scale/scale.optiml.json" "$work/count.log" "a data file of the wrong size" \
    "scale.optiml.json: arguments\\[1\\]\\.count: 'n' is 1024 .* but data/x.bin holds 1000 elements" \
    "the error does not name the argument, its count and the file's"
echo "PASSED: generator and data-file fills key and validate through optiml"
