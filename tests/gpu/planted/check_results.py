#!/usr/bin/env python3
"""Judges the planted-fault runs that planted_faults.sh left in a results folder.

usage: check_results.py <expected.txt> <folder of specs> <results folder>

The results folder holds one folder per kernel with `exit_status` (of `optiml tune`),
`tune.log`, and `cache/` (the --cache-dir it used). For each kernel of expected.txt it checks
that the driver survived and stored one entry whose winner has fault=0, that every
configuration of the spec was evaluated, that every fault=1 trace row failed with the expected
status and a message, that no fault=0 row failed, and (for specs with "cold_cache": "rotate")
that every timed row rotated its inputs. Prints a Markdown table, a FAILED line
per problem found, and "N passed, M failed"; exits 1 if any kernel failed.
"""
import glob
import itertools
import json
import os
import sys

# Rows completing within this many seconds of each other came back in one batch: the trace
# cannot say how the batch's time splits between them.
SAME_BATCH_S = 0.005


def read_expected(path):
    expected = []
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 2:
                raise SystemExit(f"{path}: expected '<kernel> <status>' per line, got: {line.strip()}")
            expected.append((words[0], words[1]))
    return expected


def read_lines(path):
    try:
        with open(path) as f:
            return [line for line in f.read().splitlines() if line.strip()]
    except OSError:
        return []


def all_configurations(spec):
    names = [p["name"] for p in spec["parameters"]]
    return [dict(zip(names, values)) for values in itertools.product(*(p["values"] for p in spec["parameters"]))]


def cell(text):
    """Text fit for one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def reason(fault_rows):
    """'status: first 80 characters of the message' of each distinct status among the rows."""
    seen, parts = set(), []
    for row in fault_rows:
        if row["status"] in seen:
            continue
        seen.add(row["status"])
        if row["status"] == "ok":
            parts.append("ok (the cheat was accepted)")
            continue
        message = " ".join(row.get("message", "").split())
        parts.append(f"{row['status']}: {message[:80]}")
    return " / ".join(parts)


def own_seconds(row):
    """A row's own compile + verify + timing time from its details, or None if not recorded."""
    details = row.get("details", {})
    if row["status"] == "ok" and not {"verify_ms", "timing_ms"} <= details.keys():
        return None
    return sum(details.get(k, 0.0) for k in ("compile_ms", "verify_ms", "timing_ms")) / 1000.0


def time_lost(trace):
    """Seconds the fault=1 rows cost, from the trace's completion times.

    Each row's elapsed_s is when its result arrived, and rows of one batch arrive together. For a
    batch that also holds fault=0 rows, their own recorded compile/verify/timing seconds are
    subtracted ("~": an estimate, since restarts and transfers are charged to the faulty rows);
    where they are not recorded, the whole batch's time is given as an upper bound ("<=").
    """
    batches = []  # [elapsed_s when the batch ended, its rows]
    for row in trace:
        if batches and row["elapsed_s"] - batches[-1][1][-1]["elapsed_s"] < SAME_BATCH_S:
            batches[-1][1].append(row)
        else:
            batches.append([row["elapsed_s"], [row]])
    batch_total, others_total, exact, bounded, previous = 0.0, 0.0, True, False, 0.0
    for end, rows in batches:
        others = [r for r in rows if r["parameters"].get("fault") != 1]
        if len(others) < len(rows):
            own = [own_seconds(r) for r in others]
            batch_total += end - previous
            if None in own:
                bounded = True
            else:
                others_total += sum(own)
            exact = exact and not others
        previous = end
    lost = batch_total - others_total
    if bounded:
        return f"<= {batch_total:.2f} (batches shared with fault=0 rows)"
    if not exact:
        return f"~{lost:.2f} (batches {batch_total:.2f} minus {others_total:.2f} of fault=0 rows)"
    return f"{lost:.2f}"


def judge(kernel, expected_status, spec_dir, result_dir):
    """Returns (table row, list of problems)."""
    problems = []
    with open(os.path.join(spec_dir, f"{kernel}.optiml.json")) as f:
        spec = json.load(f)
    try:
        with open(os.path.join(result_dir, "exit_status")) as f:
            exit_status = int(f.read().strip())
    except (OSError, ValueError):
        exit_status = None
    manifests = sorted(glob.glob(os.path.join(result_dir, "cache", "entries", "*", "*", "manifest.json")))

    listed = read_lines(os.path.join(result_dir, "cache_ls.txt"))  # `optiml cache ls`
    if exit_status is None:
        why_not = "no exit status recorded"
    elif exit_status in (124, 137):
        why_not = "optiml tune timed out"
    elif exit_status != 0:
        why_not = f"optiml tune exited {exit_status}"
    elif len(manifests) != 1 or len(listed) != 1:
        why_not = f"{len(manifests)} manifests, {len(listed)} entries listed; expected 1"
    else:
        why_not = None
    survived = f"no ({why_not})" if why_not else "yes"
    if why_not:
        problems.append(f"driver did not survive: {why_not}")
    if not manifests:
        return [kernel, "no result", "", survived, ""], problems

    with open(manifests[0]) as f:
        manifest = json.load(f)
    trace = manifest.get("trace", [])
    fault_rows = [r for r in trace if r["parameters"].get("fault") == 1]
    clean_rows = [r for r in trace if r["parameters"].get("fault") == 0]

    winner = manifest.get("parameters", {})
    if winner.get("fault") != 0:
        problems.append(f"the cache holds a fault={winner.get('fault')} winner: {winner}")
    if not any(r["status"] == "ok" and r["parameters"] == winner for r in trace):
        problems.append(f"the winner {winner} is not an ok row of the trace")

    evaluated = [r["parameters"] for r in trace]
    missing = [c for c in all_configurations(spec) if c not in evaluated]
    if missing:
        problems.append(f"the search did not evaluate {missing}")

    if not fault_rows:
        problems.append("no fault=1 row in the trace")
    for row in fault_rows:
        if row["status"] != expected_status:
            problems.append(f"{row['parameters']}: status {row['status']}, expected {expected_status}")
        if row["status"] != "ok" and not row.get("message", "").strip():
            problems.append(f"{row['parameters']}: failed with an empty message")
    for row in clean_rows:
        if row["status"] != "ok":
            problems.append(f"{row['parameters']} (no fault) failed: {row['status']}: "
                            f"{' '.join(row.get('message', '').split())[:200]}")

    # A spec that times with input rotation: every timed row must say it rotated.
    if spec.get("timing", {}).get("cold_cache") == "rotate":
        for row in trace:
            if row["status"] == "ok" and row.get("details", {}).get("input_copies", 0) < 2:
                problems.append(f"{row['parameters']}: timed without input rotation: {row.get('details')}")

    accepted = any(r["status"] == "ok" for r in fault_rows)
    verdict = "ACCEPTED" if accepted else "rejected"
    return [kernel, verdict, reason(fault_rows), survived, time_lost(trace) if fault_rows else ""], problems


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    expected_path, spec_dir, results = argv[1:]
    lines = ["| kernel | verdict | reason (status: message) | driver survived | time lost (s) |",
             "|---|---|---|---|---|"]
    failures, failed = [], 0
    expected = read_expected(expected_path)
    for kernel, status in expected:
        row, problems = judge(kernel, status, spec_dir, os.path.join(results, kernel))
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
        failures += [f"FAILED {kernel} (expected {status}): {p}" for p in problems]
        failed += 1 if problems else 0
    lines += [""] + failures + [f"{len(expected) - failed} passed, {failed} failed"]
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
