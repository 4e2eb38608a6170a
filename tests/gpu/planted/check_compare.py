#!/usr/bin/env python3
"""Judges the two tuning runs of custom_compare.sh.

usage: check_compare.py <folder of specs> <results folder>

The results folder holds partial_sums/ and partial_sums_elementwise/, each with `exit_status`
(of `optiml tune`), `tune.log` and `cache/`. With the comparison function every configuration of
the spec must be evaluated and accepted, and the entry must record the function; without it the
original must be accepted and every other configuration rejected as a mismatch (so the winner is
the original). Prints one line per run and "N passed, M failed"; exits 1 if any run failed.
"""
import glob
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from judge_runs import report  # noqa: E402  (tests/gpu/judge_runs.py)


def all_configurations(spec):
    names = [p["name"] for p in spec["parameters"]]
    return [dict(zip(names, values)) for values in itertools.product(*(p["values"] for p in spec["parameters"]))]


def load_run(spec_dir, result_dir, kernel):
    """(spec, manifest or None, problems so far)."""
    with open(os.path.join(spec_dir, f"{kernel}.optiml.json")) as f:
        spec = json.load(f)
    problems = []
    try:
        with open(os.path.join(result_dir, kernel, "exit_status")) as f:
            status = int(f.read().strip())
    except (OSError, ValueError):
        status = None
    if status != 0:
        problems.append(f"optiml tune exited {status}")
    manifests = glob.glob(os.path.join(result_dir, kernel, "cache", "entries", "*", "*", "manifest.json"))
    if len(manifests) != 1:
        problems.append(f"{len(manifests)} cache entries, expected 1")
        return spec, None, problems
    with open(manifests[0]) as f:
        return spec, json.load(f), problems


def summary(row):
    message = " ".join(row.get("message", "").split())[:120]
    return f"{row['parameters']}: {row['status']}" + (f" ({message})" if message else "")


def judge_with_compare(spec_dir, result_dir):
    spec, manifest, problems = load_run(spec_dir, result_dir, "partial_sums")
    if manifest is None:
        return problems
    trace = manifest.get("trace", [])
    evaluated = [row["parameters"] for row in trace]
    missing = [c for c in all_configurations(spec) if c not in evaluated]
    if missing:
        problems.append(f"not evaluated: {missing}")
    problems += [f"rejected with the comparison function: {summary(r)}" for r in trace if r["status"] != "ok"]
    if manifest.get("verification", {}).get("compare") != spec["check"]["compare"]:
        problems.append(f"the entry does not record the comparison function: {manifest.get('verification')}")
    if manifest.get("verification", {}).get("extra_sizes") != spec["check"]["extra_sizes"]:
        problems.append(f"the entry does not record the extra size: {manifest.get('verification')}")
    return problems


def judge_element_wise(spec_dir, result_dir):
    spec, manifest, problems = load_run(spec_dir, result_dir, "partial_sums_elementwise")
    if manifest is None:
        return problems
    defaults = {p["name"]: p["default"] for p in spec["parameters"]}
    trace = manifest.get("trace", [])
    if len(trace) != len(all_configurations(spec)):
        problems.append(f"{len(trace)} configurations evaluated, expected {len(all_configurations(spec))}")
    for row in trace:
        if row["parameters"] == defaults and row["status"] != "ok":
            problems.append(f"the original was rejected: {summary(row)}")
        if row["parameters"] != defaults and row["status"] != "mismatch":
            problems.append(f"expected a mismatch: {summary(row)}")
    if manifest.get("parameters") != defaults:
        problems.append(f"the winner is {manifest.get('parameters')}, expected the original {defaults}")
    return problems


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__)
    spec_dir, result_dir = argv[1:]
    return report([(f"partial_sums {name}", judge(spec_dir, result_dir))
                   for name, judge in (("with check.compare", judge_with_compare),
                                       ("element-wise", judge_element_wise))])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
