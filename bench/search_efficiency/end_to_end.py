#!/usr/bin/env python3
"""End to end on this machine's GPU: tune each large recorded space's kernel with `optiml tune
--spec` and nothing else (the default budget, fitted to the space), and set the tuned time beside
the optimum of the recording made on the same kind of GPU (issue 28: within 2%).

    python3 bench/search_efficiency/end_to_end.py --optiml build/bin/optiml [--out DIR]
        [--spaces nbody_space,convolution_space,matmul_space]

The recording is chosen by the GPU's name (tests/data/h200/spaces for an H200, h100 for an H100);
a space without a recording for this GPU is tuned and shown without a ratio. Each tuning gets its
own empty cache folder under --out (default: a temporary folder), where its log and entry stay.
Prints one Markdown table: the tuned time (the whole tuning, transformation tree included), the
parameter search's own best, the recorded optimum, their ratios, evaluations (the tree's among
them, and how many of those took an earlier identical image's measurement: `same_image_as`,
docs/transformations.md), wall time, evaluations a minute, the share of the tuning the GPU waited
for compiles, and why the search stopped.
"""
import argparse
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
SPECS = {
    "nbody_space": "tests/data/kernels/nbody_space/nbody_space.optiml.json",
    "convolution_space": "tests/data/kernels/convolution/convolution_space.optiml.json",
    "matmul_space": "tests/data/kernels/matmul_space/matmul_space.optiml.json",
}
RECORDINGS = {"H200": "tests/data/h200/spaces", "H100": "tests/data/h100/spaces"}


def gpu_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", "0"],
                             capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"end_to_end: no GPU here to tune on (nvidia-smi: {e}); run it on a GPU machine")
    return out.stdout.strip()


def load_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def recorded_optimum(space, gpu):
    for card, folder in RECORDINGS.items():
        if card in gpu:
            path = os.path.join(ROOT, folder, space + ".manifest.json.gz")
            if not os.path.exists(path):
                return None
            times = [row["time_ms"]["median"] for row in load_json(path)["trace"]
                     if row.get("status") == "ok"]
            return min(times)
    return None


def parameter_search_best(trace):
    """The best of the evaluations that changed parameters only (no source, no options)."""
    times = [row["time_ms"]["median"] for row in trace
             if row.get("status") == "ok" and "source_id" not in row and "options" not in row]
    return min(times) if times else None


def tune(optiml, space, folder):
    cache = os.path.join(folder, space)
    os.makedirs(cache, exist_ok=True)
    log_path = os.path.join(folder, space + ".log")
    with open(log_path, "w") as log:
        rc = subprocess.run([optiml, "tune", "--spec", os.path.join(ROOT, SPECS[space]),
                             "--cache-dir", cache], stdout=log, stderr=subprocess.STDOUT).returncode
    manifests = glob.glob(os.path.join(cache, "entries", "*", "*", "manifest.json"))
    if rc != 0 or len(manifests) != 1:
        sys.exit(f"end_to_end: tuning {space} failed (exit {rc}, {len(manifests)} entries): "
                 f"see {log_path}")
    with open(manifests[0]) as f:
        return json.load(f)


def tree_counts(m):
    """The tree's evaluations (the trace's last, one per node but the root) and how many of them
    repeated an image measured before."""
    nodes = m["search"].get("tree", {}).get("nodes", [])
    tree = m["trace"][len(m["trace"]) - len(nodes) + 1:] if nodes else []
    return len(tree), sum("same_image_as" in row.get("details", {}) for row in tree)


def ratio(a, b):
    return f"{a / b:.3f}" if a and b else "n/a"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optiml", required=True, help="the optiml binary")
    parser.add_argument("--out", help="folder for each tuning's cache and log")
    parser.add_argument("--spaces", default=",".join(SPECS), help="comma-separated, of " +
                        ", ".join(SPECS))
    args = parser.parse_args()
    spaces = args.spaces.split(",")
    for space in spaces:
        if space not in SPECS:
            sys.exit(f"end_to_end: --spaces: unknown space '{space}' (known: {', '.join(SPECS)})")
    folder = args.out or tempfile.mkdtemp(prefix="optiml-e2e-")
    gpu = gpu_name()
    print(f"End to end on {gpu}, default budget; caches and logs in {folder}\n")
    print("| space | tuned ms | parameter search best ms | recorded optimum ms | tuned / optimum "
          "| parameter search / optimum | evaluations | tree evaluations | tree repeats | wall s "
          "| evaluations/min | GPU waiting for compiles | why the search stopped |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for space in spaces:
        m = tune(args.optiml, space, folder)
        tree_evaluations, repeats = tree_counts(m)
        optimum = recorded_optimum(space, gpu)
        tuned = m["time_ms"]["median"]
        searched = parameter_search_best(m["trace"])
        s = m["search"]
        shown_optimum = f"{optimum:.4f}" if optimum else "n/a"
        throughput = s.get("throughput", {})
        print(f"| {space} | {tuned:.4f} | {searched:.4f} | {shown_optimum} | "
              f"{ratio(tuned, optimum)} | {ratio(searched, optimum)} | {s['evaluations']} | "
              f"{tree_evaluations} | {repeats} | {s['wall_s']:.0f} | "
              f"{throughput.get('evaluations_per_minute', 0):.0f} | "
              f"{100 * throughput.get('compile_fraction', 0):.0f}% | {s.get('stop_reason', '')} |",
              flush=True)


if __name__ == "__main__":
    main()
