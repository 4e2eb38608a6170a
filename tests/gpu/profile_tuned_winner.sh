#!/usr/bin/env bash
# `optiml profile --variant tuned` times the candidate the cache entry ships (issue 25, item 6):
# a winner with a derived source and a compile option (as Kernel Tuner's matmul winner has
# launch_bounds + --maxrregcount=32) is compiled from its own text with its own options, and
# `--json` with `--run-only` writes the timing and that candidate.
set -euo pipefail
optiml=$1 source_dir=$2

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OPTIML_CACHE_DIR=$work/cache

spec=$source_dir/examples/saxpy/kernels/saxpy.optiml.json
key=$("$optiml" cache key --spec "$spec" --arch "$arch" | grep -Eo '[0-9a-f]{64}' | head -n1)
[ -n "$key" ] || fail "optiml cache key printed no key"
# The entry tuning would write for that winner: its text (the original behind a comment line, a
# source of its own), its transformation and option, its parameters.
python3 - "$OPTIML_CACHE_DIR" "$key" "$source_dir/examples/saxpy/kernels/saxpy.cu" <<'PY'
import hashlib, json, os, sys
root, key, original = sys.argv[1:]
text = "// derived: the winner's own text\n" + open(original).read()
sha = lambda b: hashlib.sha256(b).hexdigest()
folder = os.path.join(root, "entries", key[:2], key)
os.makedirs(folder)
open(os.path.join(folder, "kernel.cu"), "w").write(text)
manifest = {"key": key, "schema": 1, "name": "saxpy", "kernel": "saxpy",
            "parameters": {"block_size_x": 128, "items_per_thread": 2, "vector_size": 1},
            "source_id": sha(text.encode()), "transformations": ["test: a comment line"],
            "options": ["--maxrregcount=32"], "files": {"source": "kernel.cu"},
            "sha256": {"kernel.cu": sha(text.encode())}}
json.dump(manifest, open(os.path.join(folder, "manifest.json"), "w"))
open(os.path.join(root, "expected_sha"), "w").write(sha(text.encode()))
PY

"$optiml" profile --spec "$spec" --variant tuned --run-only --json "$work/run.json" \
  2>&1 | tee "$work/log" || fail "profile --variant tuned --run-only"
grep -q -- "--maxrregcount=32" "$work/log" || fail "the log does not name the winner's option"
python3 - "$work/run.json" "$(cat "$OPTIML_CACHE_DIR/expected_sha")" <<'PY' || fail "run-only JSON"
import json, sys
report = json.load(open(sys.argv[1]))
candidate = report["candidate"]
assert candidate["kind"] == "tuned", candidate
assert candidate["source_sha256"] == sys.argv[2], candidate
assert candidate["options"] == ["--maxrregcount=32"], candidate
assert "--maxrregcount=32" in candidate["compile_options"], candidate
assert candidate["parameters"] == {"block_size_x": 128, "items_per_thread": 2, "vector_size": 1}
assert report["timing"]["median_ms"] > 0 and report["timing"]["runs"] > 0, report["timing"]
print(f"tuned: {report['variant']}: {report['timing']['median_ms']:.4f} ms, source "
      f"{candidate['source_sha256'][:12]}")
PY
echo "PASSED: profile --variant tuned times the shipped candidate"
