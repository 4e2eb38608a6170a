#!/usr/bin/env python3
"""Joins recordings of disjoint slices of one tuning space into one recording.

A space too large to record within one device call is recorded in slices (the same spec with one
parameter's values split between copies of it); each slice is an exhaustive `optiml tune`. The
first recording gives the manifest; every later one adds its trace. The result says in
search.recorded_slices how many recordings it joins. Reads and writes .json or .json.gz.
    merge_recordings.py <out> <first> <next>...
"""
import gzip
import json
import sys


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as file:
        return json.load(file)


def key(entry):
    return json.dumps(entry["parameters"], sort_keys=True)


def main(out, first, *rest):
    merged = read(first)
    trace = merged["trace"]
    for path in rest:
        slice_trace = read(path)["trace"]
        # A slice recorded again replaces what an earlier, interrupted recording measured of it.
        replaced = {key(entry) for entry in slice_trace}
        trace[:] = [entry for entry in trace if key(entry) not in replaced] + slice_trace
    search = merged["search"]
    search["evaluations"] = len(trace)
    search["space_size"] = len(trace)
    search["correct"] = sum(1 for entry in trace if entry["status"] == "ok")
    search["stop_reason"] = "every configuration was measured"
    search["stopped_by_time"] = False
    search["recorded_slices"] = 1 + len(rest)
    opener = gzip.open if out.endswith(".gz") else open
    with opener(out, "wt") as file:
        json.dump(merged, file, separators=(",", ":"))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
