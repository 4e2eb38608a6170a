#!/usr/bin/env python3
"""Judges the four tuning runs of structured_inputs.sh.

usage: check_structured_inputs.py <tests/data/kernels> <results folder>

The results folder holds one folder per spec (spmv_csr, spmv_csr_out_of_range, point_in_polygon,
point_in_polygon_random_slopes), each with `exit_status` (of `optiml tune`), `tune.log` and
`cache/`. Prints one line per run and "N passed, M failed"; exits 1 if any run failed.
"""
import glob
import itertools
import json
import os
import re
import sys

from judge_runs import report  # tests/gpu/judge_runs.py, beside this script


def load_spec(path):
    """The spec's JSON, with its // comments removed (OptiML accepts them; json does not)."""
    with open(path) as f:
        text = "\n".join(re.sub(r"^\s*//.*$", "", line) for line in f)
    return json.loads(text)


def all_configurations(spec):
    names = [p["name"] for p in spec["parameters"]]
    return [dict(zip(names, values)) for values in itertools.product(*(p["values"] for p in spec["parameters"]))]


def run(result_dir, name):
    """(exit status or None, log text, manifest or None)."""
    folder = os.path.join(result_dir, name)
    try:
        with open(os.path.join(folder, "exit_status")) as f:
            status = int(f.read().strip())
    except (OSError, ValueError):
        status = None
    try:
        with open(os.path.join(folder, "tune.log"), errors="replace") as f:
            log = f.read()
    except OSError:
        log = ""
    manifests = glob.glob(os.path.join(folder, "cache", "entries", "*", "*", "manifest.json"))
    manifest = None
    if len(manifests) == 1:
        with open(manifests[0]) as f:
            manifest = json.load(f)
    return status, log, manifest


def summary(row):
    message = " ".join(row.get("message", "").split())[:120]
    return f"{row['parameters']}: {row['status']}" + (f" ({message})" if message else "")


def parameter_rows(manifest):
    """The trace's rows of the original source and options: the parameter search."""
    return [r for r in manifest.get("trace", []) if not r.get("transformations") and not r.get("options")]


def judge_generated(kernels, result_dir, folder, name, generator, fills):
    """Tuned, every configuration evaluated and accepted, the generator recorded and keyed."""
    spec = load_spec(os.path.join(kernels, folder, f"{name}.optiml.json"))
    status, log, manifest = run(result_dir, name)
    if status != 0 or manifest is None:
        return [f"optiml tune exited {status} with {'an' if manifest else 'no'} entry"]
    problems = []
    rows = parameter_rows(manifest)
    evaluated = [row["parameters"] for row in rows]
    missing = [c for c in all_configurations(spec) if c not in evaluated]
    if missing:
        problems.append(f"not evaluated: {missing}")
    problems += [f"rejected on generated inputs: {summary(r)}" for r in rows if r["status"] != "ok"]
    generators = manifest.get("verification", {}).get("generators")
    if generators != [{"source": generator, "fills": fills}]:
        problems.append(f"the entry records the generators {generators}")
    keyed = [s["path"] for s in manifest.get("key_inputs", {}).get("generator_sources", [])]
    if generator not in keyed:
        problems.append(f"the key's generator sources are {keyed}, expected {generator} among them")
    return problems


def judge_broken(result_dir):
    status, log, manifest = run(result_dir, "spmv_csr_out_of_range")
    problems = []
    if status in (0, None):
        problems.append(f"optiml tune exited {status}, expected a failure")
    if manifest is not None:
        problems.append("an entry was stored for inputs that break the original kernel")
    expected = ("the inputs the spec's generator made break the original kernel "
                "(make_csr_out_of_range.cpp (fills row_ptr, col_idx, values)")
    if expected not in log:
        problems.append(f"the log does not say: {expected}")
    for wrong in ("Segmentation fault", "core dumped", "worker setup failed"):
        if wrong in log:
            problems.append(f"the log says {wrong!r}")
    return problems


def judge_random_slopes(kernels, result_dir):
    """Without a generator the slopes belong to no polygon: every use_slope_table 1 mismatches."""
    name = "point_in_polygon_random_slopes"
    spec = load_spec(os.path.join(kernels, "point_in_polygon", f"{name}.optiml.json"))
    status, log, manifest = run(result_dir, name)
    if status != 0 or manifest is None:
        return [f"optiml tune exited {status} with {'an' if manifest else 'no'} entry"]
    problems = []
    rows = parameter_rows(manifest)
    if len(rows) != len(all_configurations(spec)):
        problems.append(f"{len(rows)} configurations evaluated, expected {len(all_configurations(spec))}")
    for row in rows:
        expected = "mismatch" if row["parameters"]["use_slope_table"] == 1 else "ok"
        if row["status"] != expected:
            problems.append(f"expected {expected}: {summary(row)}")
    if manifest.get("parameters", {}).get("use_slope_table") != 0:
        problems.append(f"the winner reads the random slopes: {manifest.get('parameters')}")
    return problems


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__)
    kernels, result_dir = argv[1:]
    return report([
        ("spmv_csr with make_csr.cpp", judge_generated(
            kernels, result_dir, "spmv_csr", "spmv_csr", "make_csr.cpp", ["row_ptr", "col_idx", "values"])),
        ("spmv_csr_out_of_range rejected", judge_broken(result_dir)),
        ("point_in_polygon with make_polygon.cpp", judge_generated(
            kernels, result_dir, "point_in_polygon", "point_in_polygon", "make_polygon.cpp",
            ["vertex_x", "vertex_y", "slopes"])),
        ("point_in_polygon_random_slopes", judge_random_slopes(kernels, result_dir)),
    ])

if __name__ == "__main__":
    sys.exit(main(sys.argv))
