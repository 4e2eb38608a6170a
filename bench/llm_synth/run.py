#!/usr/bin/env python3
"""pass@1 and pass@k of `optiml synth` over a small task set (tasks.json).

Runs `optiml synth` n times per task against the endpoint the environment configures
(OPTIML_LLM_BASE_URL, OPTIML_LLM_MODEL, OPTIML_LLM_API_KEY, OPTIML_LLM_EXPERTS; docs/llm.md), each
sample with a cache of its own so that every sample asks the model anew. A sample passes when synth
exits 0: its kernel was verified against the task's reference on a GPU (and tuned). Exit 3 (written
and compiled, not verified: no GPU) counts as compiled only. pass@k is the unbiased estimator
1 - C(n - c, k) / C(n, k) (Chen et al., 2021) over the n samples, c of them passing.

  bench/llm_synth/run.py --optiml build/bin/optiml [--n 10] [--k 5] [--tasks tasks.json]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

VERIFIED, UNVERIFIED = 0, 3  # optiml synth's exit statuses (docs/cli.md)


def pass_at_k(n, c, k):
    """The unbiased estimator of pass@k from n samples of which c pass."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def run_sample(optiml, task, folder, work):
    out = os.path.join(work, "out")
    result = subprocess.run(
        [optiml, "synth", task["request"], "--reference", os.path.join(folder, task["reference"]),
         "--name", task["kernel"], "--out", out, "--cache-dir", os.path.join(work, "cache")],
        capture_output=True, text=True)
    with open(os.path.join(work, "synth.log"), "w", encoding="utf-8") as log:
        log.write(result.stdout + result.stderr)
    return result.returncode


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optiml", required=True, help="the optiml executable")
    parser.add_argument("--tasks", default=os.path.join(here, "tasks.json"))
    parser.add_argument("--n", type=int, default=10, help="samples per task")
    parser.add_argument("--k", type=int, default=5, help="k of pass@k (at most n)")
    parser.add_argument("--keep", help="keep every sample's output and log in this folder")
    args = parser.parse_args()
    if not os.environ.get("OPTIML_LLM_BASE_URL"):
        print("llm_synth: no LLM endpoint configured (set OPTIML_LLM_BASE_URL and OPTIML_LLM_MODEL, "
              "docs/llm.md): nothing measured")
        return 0
    if not 1 <= args.k <= args.n:
        parser.error("--k must be between 1 and --n")
    with open(args.tasks, encoding="utf-8") as stream:
        tasks = json.load(stream)["tasks"]
    folder = os.path.dirname(os.path.abspath(args.tasks))
    root = args.keep or tempfile.mkdtemp(prefix="optiml-llm-synth-")

    print(f"llm_synth: model {os.environ.get('OPTIML_LLM_MODEL', '?')} at "
          f"{os.environ['OPTIML_LLM_BASE_URL']}, {args.n} samples per task, k = {args.k}")
    print(f"{'task':<12} {'samples':>7} {'compiled':>8} {'verified':>8} {'pass@1':>7} "
          f"{'pass@' + str(args.k):>7}")
    totals = {"n": 0, "compiled": 0, "verified": 0, "p1": 0.0, "pk": 0.0, "unverified": 0}
    for task in tasks:
        compiled = verified = unverified = 0
        for sample in range(args.n):
            work = os.path.join(root, task["name"], str(sample))
            os.makedirs(work, exist_ok=True)
            status = run_sample(args.optiml, task, folder, work)
            compiled += status in (VERIFIED, UNVERIFIED)
            verified += status == VERIFIED
            unverified += status == UNVERIFIED
        p1, pk = pass_at_k(args.n, verified, 1), pass_at_k(args.n, verified, args.k)
        print(f"{task['name']:<12} {args.n:>7} {compiled:>8} {verified:>8} {p1:>7.3f} {pk:>7.3f}")
        totals["n"] += args.n
        totals["compiled"] += compiled
        totals["verified"] += verified
        totals["unverified"] += unverified
        totals["p1"] += p1 / len(tasks)
        totals["pk"] += pk / len(tasks)
    print(f"{'overall':<12} {totals['n']:>7} {totals['compiled']:>8} {totals['verified']:>8} "
          f"{totals['p1']:>7.3f} {totals['pk']:>7.3f}")
    if totals["unverified"]:
        print(f"llm_synth: {totals['unverified']} samples compiled but were NOT verified (no GPU "
              "here): they count as failures; run on a machine with a GPU to measure pass@k")
    print(f"llm_synth: samples in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
