#!/usr/bin/env python3
"""Tuning throughput on this machine's GPU, side by side in one run.

  bench/throughput/throughput.py --optiml <optiml> --spec <spec> [--old-optiml <optiml>]
                                 [--evaluations N] [--old-evaluations N] [--out DIR]

1. `optiml tune` of the spec from an empty cache (no compiled image to reuse), with the spec's
   strategy and `--evaluations` (default: the spec's budget): evaluations and NVRTC compiles a
   minute, the share of the wall time the GPU waited for compiles, the worker's busy share, and
   the winner.
2. The same with `--old-optiml` (another build, e.g. the last release), when given.
3. Compiles alone, over exactly the variants step 1 compiled: OptiML's NVRTC queue on every core
   (`--compile-bench`, optiml-bench-compile-throughput) and a plain parallel nvcc loop
   (`nvcc -cubin`, one job per core, `xargs -P`): what a hand-written tuning script compiles a
   minute on this host.
4. A retune with step 1's cache: every image comes from the cache.
Prints a Markdown table with the ratios; writes every manifest and the table under --out.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time


def tune(optiml, spec, cache, evaluations, log):
    command = [optiml, "tune", "--spec", str(spec), "--cache-dir", str(cache)]
    if evaluations:
        command += ["--budget-evaluations", str(evaluations)]
    env = dict(os.environ, OPTIML_PROFILE="0")  # timing only, as recordings are made
    start = time.monotonic()
    with open(log, "w") as out:
        subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env, check=True)
    wall = time.monotonic() - start
    manifests = sorted((cache / "entries").glob("*/*/manifest.json"))
    if not manifests:
        sys.exit(f"throughput: {optiml} wrote no cache entry; see {log}")
    return json.loads(manifests[0].read_text()), wall


def row(name, manifest, wall):
    search = manifest["search"]
    t = search.get("throughput", {})
    evals = search["evaluations"]
    return {
        "run": name,
        "evaluations": evals,
        "tuning_s": search["wall_s"],
        "command_s": wall,
        "evals_per_min": evals * 60.0 / search["wall_s"],
        "compiles_per_min": t.get("compiles_per_minute"),
        "image_hits": t.get("image_cache_hits"),
        "gpu_waits": t.get("compile_fraction"),
        "worker_busy": t.get("worker_busy_fraction"),
        "winner_ms": manifest["time_ms"]["median"],
        "winner": " ".join(f"{k}={v}" for k, v in sorted(manifest["parameters"].items())),
    }


def nvcc_loop(spec_path, manifest, work):
    spec_text = "\n".join(line for line in spec_path.read_text().splitlines()
                          if not line.lstrip().startswith("//"))
    spec = json.loads(spec_text)
    source = (spec_path.parent / spec["source"]).resolve()
    arch = manifest["arch"].replace("sm_", "")
    variants = [r["parameters"] for r in manifest["trace"]]
    jobs = work / "jobs.txt"
    with open(jobs, "w") as out:
        for i, params in enumerate(variants):
            defines = " ".join(f"-D{k}={v}" for k, v in sorted(params.items()))
            out.write(f"nvcc -cubin -arch=sm_{arch} -lineinfo {defines} "
                      f"-I{source.parent} -o {work}/v{i}.cubin {source}\n")
    cores = os.cpu_count() or 1
    start = time.monotonic()
    subprocess.run(f"xargs -P {cores} -I{{}} sh -c '{{}}' < {jobs}", shell=True, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    return {"variants": len(variants), "cores": cores, "wall_s": wall,
            "compiles_per_min": len(variants) * 60.0 / wall}


def fmt(value, digits=1):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optiml", required=True)
    parser.add_argument("--old-optiml")
    parser.add_argument("--compile-bench", help="optiml-bench-compile-throughput")
    parser.add_argument("--spec", required=True, type=pathlib.Path)
    parser.add_argument("--evaluations", type=int, default=0)
    parser.add_argument("--old-evaluations", type=int, default=0,
                        help="budget of the --old-optiml run (default: --evaluations)")
    parser.add_argument("--out", type=pathlib.Path)
    args = parser.parse_args()
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="optiml-throughput-"))
    out.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="optiml-throughput-work-"))
    name = args.spec.name.replace(".optiml.json", "")

    rows = []
    new, wall = tune(args.optiml, args.spec, work / "new", args.evaluations, out / "new.log")
    shutil.copy(next((work / "new" / "entries").glob("*/*/manifest.json")), out / "new.manifest.json")
    rows.append(row("OptiML (streaming)", new, wall))
    if args.old_optiml:
        old, wall = tune(args.old_optiml, args.spec, work / "old",
                         args.old_evaluations or args.evaluations, out / "old.log")
        (out / "old.manifest.json").write_text(json.dumps(old, indent=2))
        rows.append(row("OptiML before streaming", old, wall))
    # A retune of the same cache: the entry goes, the compiled images stay.
    shutil.rmtree(work / "new" / "entries")
    again, wall = tune(args.optiml, args.spec, work / "new", args.evaluations, out / "retune.log")
    rows.append(row("OptiML retune (images cached)", again, wall))
    loop = nvcc_loop(args.spec, new, work)
    queue = None
    if args.compile_bench:
        result = subprocess.run([args.compile_bench, str(args.spec), str(out / "new.manifest.json")],
                                capture_output=True, text=True, check=True)
        queue = json.loads(result.stdout)

    lines = [f"# Tuning throughput: {name} on {new['device']['name']}", "",
             "| run | evaluations | tuning s | evals/min | NVRTC compiles/min | images from cache "
             "| GPU waiting for compiles | worker busy | winner ms | winner |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['run']} | {r['evaluations']} | {fmt(r['tuning_s'])} | "
                     f"{fmt(r['evals_per_min'])} | {fmt(r['compiles_per_min'])} | "
                     f"{fmt(r['image_hits'])} | {fmt(r['gpu_waits'], 2)} | "
                     f"{fmt(r['worker_busy'], 2)} | {fmt(r['winner_ms'], 4)} | {r['winner']} |")
    lines += ["", f"Parallel nvcc loop over the same {loop['variants']} variants, {loop['cores']} "
              f"jobs at once: {fmt(loop['wall_s'])} s, {fmt(loop['compiles_per_min'])} "
              "compiles/min.", ""]
    if queue:
        lines += [f"OptiML's NVRTC queue, compiles alone over the same variants, {queue['threads']} "
                  f"threads: {fmt(queue['wall_s'])} s, {fmt(queue['compiles_per_minute'])} "
                  f"compiles/min ({queue['failed']} failed).", ""]
    first = rows[0]
    if queue:
        lines.append(f"- compiles/min, OptiML's NVRTC queue vs the nvcc loop: "
                     f"{queue['compiles_per_minute'] / loop['compiles_per_min']:.2f}x")
    if first["compiles_per_min"]:
        lines.append(f"- compiles/min during the tuning (bounded by the worker) vs the nvcc loop: "
                     f"{first['compiles_per_min'] / loop['compiles_per_min']:.2f}x")
    if args.old_optiml:
        lines.append(f"- evaluations/min, streaming vs before: "
                     f"{first['evals_per_min'] / rows[1]['evals_per_min']:.2f}x")
    lines.append(f"- evaluations/min, retune vs first tuning: "
                 f"{rows[-1]['evals_per_min'] / first['evals_per_min']:.2f}x")
    table = "\n".join(lines) + "\n"
    (out / "throughput.md").write_text(table)
    (out / "throughput.json").write_text(
        json.dumps({"runs": rows, "nvcc_loop": loop, "nvrtc_queue": queue}, indent=2))
    print(table)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
