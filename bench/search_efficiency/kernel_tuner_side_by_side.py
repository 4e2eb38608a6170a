#!/usr/bin/env python3
"""Kernel Tuner's search strategies on OptiML's recorded spaces, with OptiML's metric.

    kernel_tuner_side_by_side.py <recording>... [--seeds N] [--first-seed S] [--budget N]
        [--strategies S,...] [--jobs N] [--optiml-bench PATH] [--export-dir DIR] [--stall N]
        [--run-timeout S] [--shuffle-lhs]

Each recording (an OptiML recording, a cache entry manifest or a Kernel Tuner cache file, plain or
gzipped) is exported to Kernel Tuner's cache format, and every Kernel Tuner strategy runs on it in
simulation mode (tune_kernel(..., cache=..., simulation_mode=True)) with seeds S..S+N-1 (S = 1
unless told) and an evaluation budget.
The space Kernel Tuner searches is the recording's, as in OptiML's replay: the recorded
configurations are its only valid ones (a restriction), failed ones included, which fail again.
An evaluation is what Kernel Tuner's simulation runner counts as one: the first request of a
configuration (failed or not); repeated requests of a measured one are free, as in OptiML.

Per space it prints OptiML's table (bench/search_efficiency/README.md): per strategy the median
over seeds of the evaluations until the best found is within 2% of the optimum, the fraction of
seeds that got there within the budget, and the median best-found/optimum after 50, 100 and 200
evaluations. With --optiml-bench (the optiml-bench-search-efficiency binary) OptiML's strategies
run on the same recordings and both tools' rows go in one table per space.

Without Kernel Tuner it says so and exits with --missing-exit (default 0). It exits 1 when a
recording cannot be read, or when a strategy named in --strategies failed on every seed.
"""

import argparse
import contextlib
import gzip
import io
import json
import math
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zlib

# One BLAS thread a process: runs go in parallel processes, and a multi-threaded reduction can
# round differently from run to run, which makes bayes_opt's choices differ between seeds' reruns.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

WITHIN = 1.02
CHECKPOINTS = (50, 100, 200)

# Strategies left out unless named (or --strategies all), and why.
OPT_IN = {
    "skopt": "slow: a minute or more a run on these spaces, so that --run-timeout cuts it "
    "(needs scikit-optimize)",
    "pyatf_strategies": "fails with pyatf 0.0.13 (TP() signature), and pyATF cannot take the "
    "space's membership restriction (it splits restrictions per parameter)",
}
# Kernel Tuner errors a recorded failure becomes (OptiML's status kept beside it).
KT_ERRORS = ("InvalidConfig", "CompilationFailedConfig", "RuntimeFailedConfig")


class RecordingError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Recordings, read as OptiML reads them (docs/replay.md)


class Recording:
    """names, values (per name, OptiML's order), records: {config tuple: (status, ms or None,
    extra timings)} in recorded order."""

    def __init__(self, file, fmt, kernel, device, names, values, records, kt_values=None):
        self.file, self.format, self.kernel, self.device = file, fmt, kernel, device
        self.names, self.values, self.records = names, values, records
        # The values Kernel Tuner sees (the recording's own values where they are not integers).
        self.kt_values = kt_values or values

    def optimum(self):
        times = [ms for status, ms, _ in self.records.values() if status == "ok"]
        return min(times) if times else None

    def successes(self):
        return sum(status == "ok" for status, _, _ in self.records.values())

    def within(self, factor):
        best = self.optimum()
        return sum(status == "ok" and ms <= best * factor for status, ms, _ in self.records.values())


def _median_time(row, where):
    time_ms = row.get("time_ms")
    if not isinstance(time_ms, dict) or not isinstance(time_ms.get("median"), (int, float)):
        raise RecordingError(f"{where}.time_ms.median: missing; expected the median time in ms")
    return float(time_ms["median"])


def _trace_records(rows, names, file, field):
    records = {}
    for i, row in enumerate(rows):
        where = f"{file}: {field}[{i}]"
        params = row.get("parameters")
        if not isinstance(params, dict) or any(n not in params for n in names):
            raise RecordingError(f"{where}.parameters: expected a value for each of {names}")
        key = tuple(int(params[n]) for n in names)
        if key in records:
            continue  # a configuration recorded twice keeps its first record
        status = row.get("status", "")
        ms = _median_time(row, where) if status == "ok" else None
        details = row.get("details") or {}
        extra = {
            kt: float(details[ours])
            for kt, ours in (("compile_time", "compile_ms"), ("verification_time", "verify_ms"),
                             ("benchmark_time", "timing_ms"))
            if isinstance(details.get(ours), (int, float))
        }
        records[key] = (status, ms, extra)
    return records


def _text(value):
    if isinstance(value, dict):
        return str(value.get("name", ""))
    return "" if value is None else str(value)


def read_recording(file):
    try:
        with open(file, "rb") as f:
            raw = f.read()
        if raw[:2] == b"\x1f\x8b":  # gzipped, whatever the name (as optiml reads it)
            raw = gzip.decompress(raw)
        data = json.loads(raw)
    except (OSError, ValueError, EOFError, zlib.error) as e:
        raise RecordingError(f"{file}: cannot be read as JSON ({e})")
    if not isinstance(data, dict):
        raise RecordingError(f"{file}: expected a JSON object")
    if "format" in data:  # OptiML recording
        space = data.get("space") or {}
        names = list(space.get("names") or [])
        values = [list(v) for v in space.get("values") or []]
        if not names or len(values) != len(names):
            raise RecordingError(f"{file}: space: expected names and values per name")
        records = _trace_records(data.get("records") or [], names, file, "records")
        return Recording(file, "optiml-recording", _text(data.get("kernel")),
                         _text(data.get("device")), names, values, records)
    if "trace" in data:  # cache entry manifest
        names = list((data.get("default_parameters") or {}).keys())
        if not names:
            raise RecordingError(f"{file}: default_parameters: expected the default configuration")
        records = _trace_records(data.get("trace") or [], names, file, "trace")
        values = [sorted({key[i] for key in records}) for i in range(len(names))]
        return Recording(file, "optiml-manifest", _text(data.get("kernel")),
                         _text(data.get("device")), names, values, records)
    if "tune_params_keys" in data and "cache" in data:  # Kernel Tuner cache file
        return _read_kernel_tuner_cache(file, data)
    raise RecordingError(f"{file}: expected an OptiML recording, a cache entry manifest or a "
                         "Kernel Tuner cache file (T4 results are not read here)")


def _read_kernel_tuner_cache(file, data):
    names = list(data["tune_params_keys"])
    declared = data.get("tune_params") or {}

    def as_int(name, value):  # OptiML's mapping: integers, booleans 0/1, else the index
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if value in declared.get(name, []):
            return declared[name].index(value)
        raise RecordingError(f"{file}: cache: a value {value!r} of {name} not in tune_params")

    records, originals = {}, {}
    for key_text, entry in data["cache"].items():
        key = tuple(as_int(n, entry[n]) for n in names)
        for n in names:
            originals.setdefault(n, {})[as_int(n, entry[n])] = entry[n]
        t = entry.get("time")
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            records.setdefault(key, ("ok", float(t), {}))
        elif t in KT_ERRORS:
            records.setdefault(key, (t, None, {}))
        else:
            raise RecordingError(f'{file}: cache["{key_text}"].time: got {t!r}; expected a number '
                                 "or a Kernel Tuner error string")
    values = [sorted(originals[n]) for n in names]
    kt_values = [[originals[n][v] for v in vals] for n, vals in zip(names, values)]
    return Recording(file, "kernel-tuner-cache", _text(data.get("kernel_name")),
                     _text(data.get("device_name")), names, values, records, kt_values)


# ---------------------------------------------------------------------------------------------
# Export to Kernel Tuner's cache format


def kt_config(recording, key):
    """The Kernel Tuner values of a configuration given by OptiML's integers."""
    return tuple(kv[vals.index(v)] for v, vals, kv in zip(key, recording.values, recording.kt_values))


def kt_error(status):
    if status in KT_ERRORS:
        return status
    return "CompilationFailedConfig" if "compile" in status else "RuntimeFailedConfig"


def export(recording, path):
    """Writes the recording as a Kernel Tuner cache file: every recorded configuration, a failed
    one with Kernel Tuner's error string as its time (its OptiML status in optiml_status)."""
    cache = {}
    for key, (status, ms, extra) in recording.records.items():
        config = kt_config(recording, key)
        entry = dict(zip(recording.names, config))
        if status == "ok":
            entry["time"] = ms
        else:
            entry["time"] = kt_error(status)
            entry["optiml_status"] = status
        entry.update(extra)
        cache[",".join(str(v) for v in config)] = entry
    doc = {
        "device_name": recording.device or "unknown",
        "kernel_name": recording.kernel or "kernel",
        "tune_params_keys": recording.names,
        "tune_params": dict(zip(recording.names, recording.kt_values)),
        "objective": "time",
        "cache": cache,
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    return doc


# ---------------------------------------------------------------------------------------------
# One Kernel Tuner run (in a worker process)

_trace = None  # the run's evaluations: time in ms, or None for a failed configuration


class _Stop(Exception):
    pass


def _install_hook():
    """Records each configuration the simulation runner measures for the first time, in order
    (what it counts against max_fevals), and stops a run that stalls or runs too long."""
    import kernel_tuner.runners.simulation as simulation
    from kernel_tuner import util

    if getattr(simulation.SimulationRunner, "_optiml_hooked", False):
        return
    original = simulation.SimulationRunner.run

    def run(self, parameter_space, tuning_options):
        state = _trace
        elements = list(parameter_space)
        results = original(self, elements, tuning_options)
        if state is None:
            return results
        fresh = False
        for element, result in zip(elements, results):
            key = ",".join(str(v) for v in element)
            if result is None or key in state["seen"] or key not in tuning_options.cache:
                continue
            state["seen"].add(key)
            t = result.get("time")
            ok = "__error__" not in result and isinstance(t, (int, float))
            state["evals"].append(float(t) if ok else None)
            if ok:
                state["best"] = min(state["best"], float(t))
            fresh = True
        state["idle"] = 0 if fresh else state["idle"] + 1
        # The metric cannot change any more: the optimum is found, or the 2% target is reached
        # and the last checkpoint passed. Stopping here saves the time of strategies that go on
        # asking for measured configurations.
        evals = len(state["evals"])
        if state["best"] <= state["optimum"] or evals >= state["budget"] or (
                state["best"] <= state["optimum"] * WITHIN and evals >= max(CHECKPOINTS)):
            state["determined"] = True
            raise util.StopCriterionReached("the metric is determined")
        if state["idle"] >= state["stall"]:
            state["stopped"] = "stall"
            raise util.StopCriterionReached("no new configuration requested")
        if time.monotonic() > state["deadline"]:
            state["stopped"] = "timeout"
            raise util.StopCriterionReached("run timeout")
        return results

    simulation.SimulationRunner.run = run
    simulation.SimulationRunner._optiml_hooked = True

    # Latin hypercube samples (diff_evo's and bayes_opt's first population) come from SciPy's
    # LatinHypercube, which draws fresh entropy unless given a generator: give it one drawn
    # from NumPy's global generator, which each run seeds.
    import numpy
    from scipy.stats import qmc

    unseeded = qmc.LatinHypercube

    def seeded(*args, **kwargs):
        if kwargs.get("rng") is None and kwargs.get("seed") is None:
            kwargs.pop("seed", None)
            kwargs["rng"] = numpy.random.default_rng(numpy.random.randint(2**31))
        return unseeded(*args, **kwargs)

    qmc.LatinHypercube = seeded
    try:
        import kernel_tuner.strategies.bayes_opt as bayes_opt
        bayes_opt.LatinHypercube = seeded
    except ImportError:
        pass


def _shuffle_lhs_samples():
    """Latin hypercube samples in the order of Python's random generator, which each run seeds.
    Kernel Tuner 1.5.0 returns them from a set() of space indices: ascending, so a population is
    measured from the first configurations its constraint solver enumerates (the largest values
    of the last parameters first), whatever the sample drawn."""
    from kernel_tuner.searchspace import Searchspace

    ordered = Searchspace.get_LHS_sample_indices

    def shuffled(self, num_samples):
        indices = list(ordered(self, num_samples))
        random.shuffle(indices)
        return indices

    Searchspace.get_LHS_sample_indices = shuffled


def _alarm(signum, frame):
    raise _Stop()


def run_one(task):
    """task: (space index, cache path, kernel, names, values, valid configs, optimum, strategy,
    seed, budget, stall, timeout) -> (space index, strategy, seed, evaluations, stopped, error,
    seconds)."""
    global _trace
    (index, path, kernel, names, kt_values, valid, optimum, strategy, seed, budget, stall,
     timeout) = task
    import numpy
    import kernel_tuner
    from constraint import FunctionConstraint

    _install_hook()
    valid = set(valid)
    started = time.monotonic()
    _trace = {"seen": set(), "evals": [], "idle": 0, "stall": stall, "stopped": None,
              "deadline": started + timeout, "best": math.inf, "optimum": optimum,
              "budget": budget}
    random.seed(seed)
    numpy.random.seed(seed)
    options = {} if strategy == "brute_force" else {"max_fevals": budget}
    error = None
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(math.ceil(2 * timeout)) + 5)  # a run that never asks the runner again
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            kernel_tuner.tune_kernel(
                kernel, "", (1,), [], dict(zip(names, kt_values)), cache=path,
                simulation_mode=True, strategy=strategy, strategy_options=options,
                restrictions=[FunctionConstraint(lambda *config: config in valid)],
                quiet=True, seed=seed)
    except _Stop:
        _trace["stopped"] = "timeout"
    except Exception as e:  # noqa: BLE001 - a strategy that fails is reported, not fatal
        # A stop of the hook's that the strategy does not catch (brute_force) is no failure.
        if not (_trace.get("determined") or _trace["stopped"]):
            error = f"{type(e).__name__}: {e}".splitlines()[0][:160]
    finally:
        signal.alarm(0)
    evals = _trace["evals"][:budget]  # brute_force takes no max_fevals
    stopped = _trace["stopped"]
    _trace = None
    return index, strategy, seed, evals, stopped, error, time.monotonic() - started


# ---------------------------------------------------------------------------------------------
# The metric (search_efficiency_main.cpp)


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def evaluations_until(evals, target):
    for i, t in enumerate(evals):
        if t is not None and t <= target:
            return i + 1
    return math.inf


def best_after(evals, n):
    times = [t for t in evals[:n] if t is not None]
    return min(times) if times else math.inf


def row_of(runs, optimum, budget):
    """runs: the evaluations of each seed -> (evals to 2% text, reached %, ratios, median)."""
    reached = [evaluations_until(e, optimum * WITHIN) for e in runs]
    evals = median(reached)
    text = f"{evals:.1f}" if math.isfinite(evals) else f"> {budget}"
    fraction = 100.0 * sum(math.isfinite(r) for r in reached) / len(runs)
    ratios = [median([best_after(e, c) / optimum for e in runs]) for c in CHECKPOINTS]
    return text, fraction, ratios, evals


def format_row(tool, strategy, texts, fraction, ratios, width):
    """texts: evals to 2% counted with the baseline, and the strategy's own."""
    tool_cell = f"{tool:<13}" if tool else ""
    cells = " ".join(f"{r:10.4f}" for r in ratios)
    return f"  {tool_cell}{strategy:<{width}} {texts[0]:>14} {texts[1]:>14} {fraction:7.0f}% {cells}"


def header(tool, width):
    tool_cell = f"{'tool':<13}" if tool else ""
    return (f"  {tool_cell}{'strategy':<{width}} {'with baseline':>14} {'strategy only':>14} "
            f"{'reached':>8} {'ratio@50':>10} {'ratio@100':>10} {'ratio@200':>10}")


def ratio_text(a, b):
    return f"{a / b:.2f}x" if math.isfinite(a) and math.isfinite(b) and b > 0 else "-"


# ---------------------------------------------------------------------------------------------
# OptiML's rows, from optiml-bench-search-efficiency's output


def optiml_rows(binary, files, seeds, first_seed, budget):
    """{file: [(strategy, (with baseline, strategy only) texts, reached %, ratios)]}."""
    out = subprocess.run([binary, *files, "--seeds", str(seeds), "--first-seed", str(first_seed),
                          "--budget", str(budget)],
                         check=True, capture_output=True, text=True).stdout
    rows, current = {}, None
    count = r"(> \d+|[\d.]+)"
    row = re.compile(rf"^  (\S+)\s+{count}\s+{count}\s+(\d+)%\s+([\d.]+|inf)\s+([\d.]+|inf)\s+"
                     r"([\d.]+|inf)$")
    for line in out.splitlines():
        m = re.match(r"^\S.*\): (.+)$", line)
        if m and m.group(1) in files:
            current = rows.setdefault(m.group(1), [])
            continue
        m = row.match(line)
        if m and current is not None and m.group(1) != "strategy":
            current.append((m.group(1), (m.group(2), m.group(3)), float(m.group(4)),
                            [float(m.group(i)) for i in (5, 6, 7)]))
    return rows, out.splitlines()[0] if out else ""


def count_of(text):
    return math.inf if text.startswith(">") else float(text)


# ---------------------------------------------------------------------------------------------


def available_strategies():
    from kernel_tuner.interface import strategy_map
    return list(strategy_map)


def main():
    parser = argparse.ArgumentParser(
        description="Kernel Tuner's strategies on recorded spaces, with OptiML's metric "
        "(bench/search_efficiency/README.md).")
    parser.add_argument("recordings", nargs="+")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1,
                        help="seeds S..S+N-1, for another block of the same size (default 1)")
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--strategies", default="",
                        help="comma-separated Kernel Tuner strategies, or 'all' (default: all "
                        f"but {', '.join(OPT_IN)})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--optiml-bench", metavar="PATH",
                        help="optiml-bench-search-efficiency: put OptiML's rows in the tables")
    parser.add_argument("--export-dir", metavar="DIR",
                        help="keep the exported Kernel Tuner cache files here")
    parser.add_argument("--stall", type=int, default=2000,
                        help="stop a run after this many runner calls without a new "
                        "configuration (default 2000)")
    parser.add_argument("--run-timeout", type=float, default=120.0,
                        help="stop a run after this many seconds (default 120)")
    parser.add_argument("--shuffle-lhs", action="store_true",
                        help="a control: evaluate Kernel Tuner's Latin hypercube samples (diff_evo's "
                        "first population) in a random order, not in ascending index of its search "
                        "space, the order its set() of indices gives them")
    parser.add_argument("--progress", action="store_true",
                        help="report the runs done on stderr")
    parser.add_argument("--missing-exit", type=int, default=0,
                        help="exit status when kernel_tuner is not installed (CTest: 77)")
    args = parser.parse_args()
    if min(args.seeds, args.first_seed, args.budget, args.jobs) < 1:
        parser.error("--seeds, --first-seed, --budget and --jobs must be at least 1")

    try:
        import kernel_tuner  # noqa: F401
        from importlib.metadata import version
        kt_version = version("kernel_tuner")
    except ImportError:
        print("kernel_tuner not installed: pip install kernel_tuner")
        return args.missing_exit

    if args.shuffle_lhs:
        _shuffle_lhs_samples()
    known = available_strategies()
    if args.strategies in ("", "all"):
        strategies = [s for s in known if args.strategies == "all" or s not in OPT_IN]
    else:
        strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
        unknown = [s for s in strategies if s not in known]
        if unknown:
            parser.error(f"unknown Kernel Tuner strategies {unknown}; known: {', '.join(known)}")

    try:
        recordings = [read_recording(f) for f in args.recordings]
    except RecordingError as e:
        print(f"kernel_tuner_side_by_side: error: {e}", file=sys.stderr)
        return 1
    for r in recordings:
        if r.optimum() is None:
            print(f"kernel_tuner_side_by_side: error: {r.file}: no configuration succeeded",
                  file=sys.stderr)
            return 1

    optiml, optiml_title = {}, ""
    if args.optiml_bench:
        optiml, optiml_title = optiml_rows(args.optiml_bench, args.recordings, args.seeds,
                                           args.first_seed, args.budget)

    with contextlib.ExitStack() as stack:
        folder = args.export_dir or stack.enter_context(tempfile.TemporaryDirectory())
        os.makedirs(folder, exist_ok=True)
        tasks = []
        for i, r in enumerate(recordings):
            stem = os.path.basename(r.file).split(".")[0] or f"space{i}"
            path = os.path.abspath(os.path.join(folder, f"{i}-{stem}.kt-cache.json"))
            export(r, path)
            valid = [kt_config(r, key) for key in r.records]
            for strategy in strategies:
                for seed in range(args.first_seed, args.first_seed + args.seeds):
                    tasks.append((i, path, r.kernel or "kernel", r.names, r.kt_values, valid,
                                  r.optimum(), strategy, seed, args.budget, args.stall,
                                  args.run_timeout))
        started = time.monotonic()
        results, spent = {}, {}
        context = multiprocessing.get_context("fork")
        with context.Pool(args.jobs, maxtasksperchild=50) as pool:
            for done, (index, strategy, seed, evals, stopped, error, seconds) in enumerate(
                    pool.imap_unordered(run_one, tasks), 1):
                results.setdefault((index, strategy), []).append((seed, evals, stopped, error))
                spent[strategy] = spent.get(strategy, 0.0) + seconds
                if args.progress and (done % 50 == 0 or done == len(tasks)):
                    print(f"  {done}/{len(tasks)} runs, {time.monotonic() - started:.0f} s",
                          file=sys.stderr, flush=True)
        elapsed = time.monotonic() - started

    print(f"search efficiency: Kernel Tuner {kt_version} strategies in simulation mode"
          f"{' (Latin hypercube samples shuffled: --shuffle-lhs)' if args.shuffle_lhs else ''}, "
          f"{args.seeds} seeds ({args.first_seed}..{args.first_seed + args.seeds - 1}), budget "
          f"{args.budget} evaluations; evals to 2% is the median over "
          "seeds (a seed that never got there counts as more than the budget). 'with baseline' "
          "counts every evaluation, 'strategy only' those the strategy chose: OptiML measures "
          "the default configuration first whatever the strategy (the baseline, its verification "
          "reference), Kernel Tuner measures no baseline, so its two counts are the same")
    if optiml_title:
        print(f"OptiML: {optiml_title}")
    summary = []
    width = max([11] + [len(s) for s in strategies])
    named = args.strategies not in ("", "all")
    status = 0
    tool = bool(args.optiml_bench)
    for i, r in enumerate(recordings):
        optimum = r.optimum()
        device = f", {r.device}" if r.device else ""
        print(f"\n{r.kernel or 'space'} ({r.format}{device}): {r.file}")
        print(f"  {len(r.records)} valid configurations ({r.successes()} succeeded), "
              f"{r.within(WITHIN)} within 2% of the optimum {optimum:.4g} ms; budget "
              f"{args.budget} evaluations, {args.seeds} seeds")
        print(header(tool, width))
        auto = None
        for strategy, texts, fraction, ratios in optiml.get(r.file, []):
            print(format_row("optiml", strategy, texts, fraction, ratios, width))
            if strategy == "auto":
                auto = (texts, fraction)
        kt_best = None
        notes = []
        for strategy in strategies:
            runs = sorted(results.get((i, strategy), []))
            failed = [(seed, error) for seed, _, _, error in runs if error]
            good = [evals for _, evals, _, error in runs if not error]
            stopped = {}
            for _, _, why, error in runs:
                if why and not error:
                    stopped[why] = stopped.get(why, 0) + 1
            if failed:
                notes.append(f"{strategy}: {len(failed)} of {len(runs)} seeds failed "
                             f"({failed[0][1]})")
            for why, count in sorted(stopped.items()):
                reason = (f"no new configuration in {args.stall} requests" if why == "stall"
                          else f"ran past {args.run_timeout:g} s")
                notes.append(f"{strategy}: {count} of {len(runs)} seeds stopped ({reason})")
            if not good:
                print(f"  {'kernel_tuner ' if tool else ''}{strategy:<{width}} {'failed':>14}")
                if named:
                    status = 1
                continue
            # A failed seed counts as one that never got there.
            text, fraction, ratios, evals = row_of(good + [[] for _ in failed], optimum,
                                                   args.budget)
            print(format_row("kernel_tuner" if tool else "", strategy, (text, text), fraction,
                             ratios, width))
            # The best: the lowest median, ties to the larger fraction of seeds that got there.
            if kt_best is None or (evals, -fraction) < (kt_best[0], -kt_best[2]):
                kt_best = (evals, strategy, fraction)
        for note in notes:
            print(f"  note: {note}")
        if auto and kt_best:
            summary.append((r.kernel or os.path.basename(r.file), len(r.records),
                            r.within(WITHIN), auto, kt_best))
    if summary:
        print("\nsummary: OptiML auto against Kernel Tuner's best strategy per space (lowest "
              "median), evals to 2%; auto / KT best below 1.5x on every space and at most 1x on "
              "four is the target of issue 10")
        print("| space | valid | within 2% | auto, with baseline (reached) | auto, strategy only "
              "| KT best (strategy) | ratio, with baseline | ratio, strategy only |")
        print("|---|---|---|---|---|---|---|---|")
        for name, valid, within, (texts, fraction), (evals, strategy, kt_fraction) in summary:
            kt_text = f"{evals:.1f}" if math.isfinite(evals) else f"> {args.budget}"
            print(f"| {name} | {valid} | {within} | {texts[0]} ({fraction:.0f}%) | {texts[1]} | "
                  f"{kt_text} ({strategy}, {kt_fraction:.0f}%) | "
                  f"{ratio_text(count_of(texts[0]), evals)} | "
                  f"{ratio_text(count_of(texts[1]), evals)} |")
    left_out = [s for s in OPT_IN if s in known and s not in strategies]
    if left_out:
        print("\nnot run (name them with --strategies): "
              + "; ".join(f"{s}: {OPT_IN[s]}" for s in left_out))
    slowest = sorted(spent.items(), key=lambda item: -item[1])[:5]
    print(f"({len(tasks)} Kernel Tuner runs in {elapsed:.0f} s on {args.jobs} processes; "
          "most time: " + ", ".join(f"{s} {t:.0f} s" for s, t in slowest) + ")")
    return status


if __name__ == "__main__":
    sys.exit(main())
