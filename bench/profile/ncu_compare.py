"""Prints the OptiML-vs-ncu table from the files ncu_compare.sh wrote (or, with --metrics, the
comma-separated metric list to pass to ncu)."""
import csv
import io
import json
import sys
from pathlib import Path

# The proxy metrics, as the Range Profiler and ncu both name them.
METRICS = [
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "l1tex__t_sectors.sum",
    "lts__t_sectors.sum",
    "smsp__inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
]


def read_ncu(path):
    lines = [line for line in path.read_text().splitlines() if line.startswith('"')]
    values = {}
    for row in csv.reader(io.StringIO("\n".join(lines))):
        if row[0] == "ID":
            continue
        values[row[12]] = float(row[14].replace(",", ""))
    return values


def main():
    if sys.argv[1:] == ["--metrics"]:
        print(",".join(METRICS))
        return
    out = Path(sys.argv[1])
    worst = 0.0
    print("| variant | metric | OptiML | ncu | difference |")
    print("|---|---|---|---|---|")
    for ours_path in sorted(out.glob("*.optiml.json")):
        name = ours_path.name[: -len(".optiml.json")]
        ours = json.loads(ours_path.read_text())["profiling"]["raw_counters"]
        theirs = read_ncu(out / f"{name}.ncu.csv")
        for metric in METRICS:
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
