"""Prints the OptiML-vs-ncu table from the files ncu_compare.sh wrote, over every counter OptiML
collected (its proxy metrics, named as the Range Profiler and ncu both name them). With
--metrics <variant>.optiml.json: the comma-separated metric list to pass to ncu for that variant."""
import csv
import io
import json
import sys
from pathlib import Path


def optiml_counters(path):
    return json.loads(Path(path).read_text())["profiling"]["raw_counters"]


def read_ncu(path):
    lines = [line for line in path.read_text().splitlines() if line.startswith('"')]
    values = {}
    for row in csv.reader(io.StringIO("\n".join(lines))):
        if row[0] == "ID":
            continue
        values[row[12]] = float(row[14].replace(",", ""))
    return values


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--metrics":
        print(",".join(sorted(optiml_counters(sys.argv[2]))))
        return
    out = Path(sys.argv[1])
    worst = 0.0
    print("| variant | metric | OptiML | ncu | difference |")
    print("|---|---|---|---|---|")
    for ours_path in sorted(out.glob("*.optiml.json")):
        name = ours_path.name[: -len(".optiml.json")]
        ours = optiml_counters(ours_path)
        theirs = read_ncu(out / f"{name}.ncu.csv")
        for metric in sorted(ours):
            a, b = ours.get(metric), theirs.get(metric)
            if a is None or b is None:
                diff = "missing"
            elif a == b == 0:
                diff = "0.00%"
            else:
                rel = (a - b) / b if b else float("inf")
                worst = max(worst, abs(rel))
                diff = f"{100 * rel:+.2f}%"
            print(f"| {name} | `{metric}` | {a:,.6g} | {b:,.6g} | {diff} |" if a is not None and b is not None
                  else f"| {name} | `{metric}` | {a} | {b} | {diff} |")
    print(f"\nLargest difference: {100 * worst:.2f}%")


main()
