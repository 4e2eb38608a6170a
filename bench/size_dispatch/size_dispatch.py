#!/usr/bin/env python3
"""Dispatch by problem size (issue 29): one kernel tuned at several sizes, side by side.

  bench/size_dispatch/size_dispatch.py <optiml> <out> [--kernels matmul,reduction]
      [--budget-seconds S] [--independent]

Run on the GPU machine from the repository root with a built `build/`. For each kernel it writes
a copy of its spec with seven problems spanning at least two orders of magnitude (PROBLEMS; the
copy names the original's source relative to itself) and runs `optiml tune` on it into a fresh
cache under <out>/<kernel>/. The tuning (driver/tune/size_tuning.h) tunes the arguments' own
values, then each problem from the winners so far, then times every winner at every problem in
one session a problem; the entry's manifest keeps that as "sizes". Per problem the table gives,
from that one run's matrix: (a) the one variant OptiML ships today (the winner at the arguments'
own values), (b) the per-size dispatch chosen from the matrix, (c) that size's own optimum among
the winners (its own search's best), (d) the vendor library at that size (cuBLAS SGEMM, CUB's
device-wide sum: vendor_times.cu), and their ratios. With --independent it also tunes each
problem alone (a spec at that problem, no problems of its own, the same budget) and compares
evaluations: the tuning cost of n sizes against n independent tunings; and each size's dispatch
against its independent tuning's winner, a second search for that size's optimum. Before those it
builds the launcher from the entry (`optiml build`, cache only) and times it at every problem
against the original's <<<>>> launch, kernel and host enqueue (launch_times.cu). Standard library
only; the spec loading and tuning helpers are bench/transformations' own.
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "transformations"))
import transformations as bench  # noqa: E402  (find_manifest, tune, load_spec_for)

# (name, spec, problems): seven sizes each.
PROBLEMS = {
    "matmul": ("examples/matmul/kernels/matmul.optiml.json",
               [{"M": s, "N": s, "K": s} for s in (128, 256, 512, 1024, 2048, 4096, 8192)]),
    "reduction": ("tests/data/kernels/reduction/reduction.optiml.json",
                  [{"n": 1 << e} for e in (14, 16, 18, 20, 22, 24, 26)]),
}


def spec_copy(name, folder, problems=None, values=None):
    """The kernel's spec with `problems`, or at one problem's `values` (an independent tuning)."""
    path, all_problems = PROBLEMS[name]
    folder.mkdir(parents=True, exist_ok=True)
    spec = bench.load_spec_for(path, folder)
    spec.pop("budget", None)
    if problems is not None:
        spec["problems"] = problems
    for argument in spec["arguments"]:
        if values and argument["name"] in values:
            argument["value"] = values[argument["name"]]
    out = folder / f"{name}.optiml.json"
    out.write_text(json.dumps(spec, indent=2) + "\n")
    return str(out)


HERE = pathlib.Path(__file__).resolve().parent


def launcher_times(optiml, name, spec, folder, problems):
    """The kernel's launcher built from the entry (`optiml build`, cache only), compiled with
    launch_times.cu and run at every problem: its table, or why there is none."""
    root = HERE.parent.parent
    runtime = pathlib.Path(optiml).resolve().parent.parent / "runtime" / "liboptiml_runtime.a"
    out = folder / "launcher"
    size_of = VENDOR[name][1]
    steps = [
        [optiml, "build", "--spec", spec, "--archs", "90", "--mode", "cache-only",
         "--cache-dir", str(folder / "cache"), "--out", str(out)],
        ["nvcc", "-std=c++17", "-O2", "-arch=sm_90", f"-I{root / 'runtime' / 'include'}",
         f"-I{out / 'include'}", f"-I{out}", f'-DGENERATED="optiml_{name}.cu"']
        + (["-DLAUNCH_TIMES_MATMUL"] if name == "matmul" else [])
        + [str(HERE / "launch_times.cu"), str(runtime), "-lcuda", "-o",
           str(folder / "launch_times")],
        [str(folder / "launch_times")] + [str(p[size_of]) for p in problems],
    ]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True)
        if run.returncode != 0:
            return f"launcher timing failed: {' '.join(step)}:\n{run.stdout}{run.stderr}"
    generated = (out / f"optiml_{name}.cu").read_text()
    picks = "dispatches by size" if "table_for_size" in generated else "the winner at every size"
    return (f"Through the generated launcher ({picks}), one program, medians of 51 launches "
            f"(kernel) and of up to 1001 batches of 128 (host enqueue, each batch held behind a "
            f"spinning kernel so that nothing runs meanwhile; not measured, '-', where a kernel "
            f"takes over 1 ms). 'original by cudaKernel_t' launches the original through "
            f"cudaLaunchKernel and its kernel handle; 'launcher's kernel direct' launches what "
            f"the launcher launched (captured once in a graph: its kernel, geometry and "
            f"arguments) with cudaLaunchKernel, so that 'launcher's own path' is the launcher's "
            f"own logic; 'by CUfunction' launches that kernel through cuLaunchKernel and its "
            f"CUfunction in the current context, looked up once; 'direct after cudaGetDevice' "
            f"asks for the current device before that direct launch, as launchers did before "
            f"they skipped the call where the process sees one device:\n\n{run.stdout}")


VENDOR = {"matmul": ("cuBLAS SGEMM", "M"), "reduction": ("CUB DeviceReduce::Sum", "n")}


def vendor_times(name, folder, problems):
    """(d): the vendor library at every problem (vendor_times.cu, one program): a list of ms in
    the problems' order, and a line saying what ran or why nothing did."""
    library, size_of = VENDOR[name]
    binary = folder / "vendor_times"
    steps = [["nvcc", "-std=c++17", "-O2", "-arch=sm_90", str(HERE / "vendor_times.cu"),
              "-lcublas", "-o", str(binary)],
             [str(binary), name] + [str(p[size_of]) for p in problems]]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True)
        if run.returncode != 0:
            return None, f"(d) not measured: {' '.join(step)}:\n{run.stdout}{run.stderr}"
    times = [float(line.split()[1]) for line in run.stdout.splitlines() if line.strip()]
    return times, f"(d): {library}, medians of 51 runs, in its own program after the tuning."


def dispatched(sizes, p):
    """The variant the dispatch runs at problem `p` and its time there from the matrix (nan where
    none serves it or it failed there)."""
    times = sizes["times_ms"]
    ranges = sizes.get("dispatch", {}).get("ranges", [])
    served = next((r["variant"] for r in ranges if r["first_problem"] <= p <= r["last_problem"]),
                  None)
    return served, times[served][p] if served is not None and times[served][p] > 0 else math.nan


def label_of(problem):
    return ", ".join(f"{k}={v}" for k, v in problem.items())


def table(name, sizes, vendor=None):
    times = sizes["times_ms"]
    lines = [f"### {name}", "",
             "| problem | (a) shipped today (ms) | (b) dispatch (ms) | (c) own optimum (ms) | "
             "(d) vendor (ms) | a / c | b / c | b / d | dispatched variant |",
             "|---|---|---|---|---|---|---|---|---|"]
    for p, problem in enumerate(sizes["problems"]):
        column = [row[p] for row in times if row[p] > 0]
        best = min(column) if column else math.nan
        served, at = dispatched(sizes, p)
        shipped = times[0][p] if times[0][p] > 0 else math.nan
        library = vendor[p] if vendor else math.nan
        lines.append(f"| {label_of(problem)} | {shipped:.4g} | {at:.4g} | {best:.4g} | "
                     f"{library:.4g} | {shipped / best:.3f} | {at / best:.3f} | "
                     f"{at / library:.3f} | {served} |")
    lines.append("")
    lines.append("Variants: " + "; ".join(
        f"{v}: " + " ".join(f"{k}={x}" for k, x in variant["parameters"].items())
        + (f" [{', '.join(variant['transformations'])}]" if variant.get("transformations") else "")
        for v, variant in enumerate(sizes["variants"])))
    return "\n".join(lines)


def independent_check(sizes, bests):
    """(b) against each problem's independent tuning's winner: a second search of that size with
    its own budget, timed in its own session (so a few percent either way is the sessions')."""
    lines = ["| problem | (b) dispatch (ms) | independent tuning's winner (ms) | b / independent |",
             "|---|---|---|---|"]
    for p, problem in enumerate(sizes["problems"]):
        _, at = dispatched(sizes, p)
        lines.append(f"| {label_of(problem)} | {at:.4g} | {bests[p]:.4g} | {at / bests[p]:.3f} |")
    return ("Each size's own optimum checked by a second search: the dispatch's time (from the "
            "matrix) against the winner of that size's independent tuning (its entry's median, "
            "its own session).\n\n" + "\n".join(lines))


def wall_line(manifest, wall):
    """Where the tuning across sizes spent its wall time (the manifest's seconds)."""
    sizes = manifest["sizes"]
    own = manifest["search"].get("wall_s", 0.0)
    problems = [round(s.get("problem_wall_s", s.get("wall_s", 0.0)), 1) for s in sizes["searches"]]
    matrix = sizes.get("matrix_wall_s", 0.0)
    rest = wall - own - sum(problems) - matrix
    return (f"Wall: {own:.1f} s searching at the arguments' own values, {problems} s at the "
            f"problems (each with its session's start), {matrix:.1f} s timing the matrix, "
            f"{rest:.1f} s the rest (the process, its first session, the size variants' images, "
            f"the entry).")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("optiml")
    parser.add_argument("out")
    parser.add_argument("--kernels", default=",".join(PROBLEMS))
    parser.add_argument("--budget-seconds", type=float)
    parser.add_argument("--independent", action="store_true",
                        help="also tune each problem alone and compare evaluations")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    extra = ["--budget-seconds", str(args.budget_seconds)] if args.budget_seconds else []
    env = {"OPTIML_PROFILE": "0"}
    report, record = [], {}
    for name in args.kernels.split(","):
        spec = spec_copy(name, out / name, PROBLEMS[name][1])
        manifest, wall, error = bench.tune(args.optiml, spec, out / name, extra, env)
        if error or "sizes" not in manifest:
            report.append(f"### {name}\n\nfailed: {error or 'the manifest has no sizes'}\n")
            continue
        sizes = manifest["sizes"]
        cost = manifest["search"]["evaluations"] + sum(s["evaluations"] for s in sizes["searches"])
        vendor, vendor_line = vendor_times(name, out / name, PROBLEMS[name][1])
        text = table(name, sizes, vendor) + "\n\n" + vendor_line
        text += (f"\n\nTuning: {manifest['search']['evaluations']} evaluations at the arguments' "
                 f"own values, then {[s['evaluations'] for s in sizes['searches']]} at the "
                 f"problems: {cost} in all, {wall:.0f} s wall (the matrix's timings included).")
        text += "\n" + wall_line(manifest, wall)
        record[name] = {"manifest_sizes": sizes, "evaluations": cost, "wall_s": wall}
        # The launcher first, and what is known so far: the independent tunings may run out of time.
        launches = launcher_times(args.optiml, name, spec, out / name, PROBLEMS[name][1])
        (out / "size_dispatch.md").write_text("# Dispatch by problem size\n\n" + "\n".join(
            report + [text + "\n\n" + launches]))
        if args.independent:
            alone, alone_wall, each, walls, bests = 0, 0.0, [], [], []
            for i, problem in enumerate(PROBLEMS[name][1]):
                single = spec_copy(name, out / name / f"alone_{i}", values=problem)
                m, w, failed = bench.tune(args.optiml, single, out / name / f"alone_{i}", extra, env)
                each.append(0 if failed else m["search"]["evaluations"])
                bests.append(math.nan if failed else m["time_ms"]["median"])
                alone += each[-1]
                alone_wall += w
                walls.append(round(w, 1))
            text += (f"\nIndependent tunings of the {len(PROBLEMS[name][1])} problems: {each}, "
                     f"{alone} evaluations, {alone_wall:.0f} s wall; tuning across sizes spent "
                     f"{cost / alone:.2f} of their evaluations and {wall / alone_wall:.2f} of "
                     f"their wall time. Their walls: {walls} s.")
            text += "\n\n" + independent_check(sizes, bests)
            record[name]["independent_best_ms"] = bests
            record[name]["independent_evaluations"] = alone
            record[name]["independent_wall_s"] = alone_wall
        report.append(text + "\n\n" + launches + "\n")
    text = "# Dispatch by problem size\n\n" + "\n".join(report)
    print(text)
    (out / "size_dispatch.md").write_text(text)
    (out / "size_dispatch.json").write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
