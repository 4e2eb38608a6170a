#!/usr/bin/env python3
"""Program transformations against the best pure-parameter configuration, side by side.

  bench/transformations/transformations.py <optiml> <out> [--kernels a,b,...]
      [--exhaustive-limit N] [--spaces DIR] [--budget-seconds S]
  bench/transformations/transformations.py --tables <out>/transformations.json [more.json ...]
      [--md FILE]

Run on the GPU machine from the repository root with a built `build/`. For each kernel (the two
examples and eight kernels of tests/data/kernels, see KERNELS) it runs, one after the other:

1. `optiml tune --spec <spec> --strategy exhaustive` with a budget larger than the space (the
   best pure-parameter configuration; profiling off, it comes after the search and does not
   change the winner). A space of more than --exhaustive-limit valid configurations (default
   400) is not measured again: the optimum recorded on the H200 in
   tests/data/h200/spaces/<name>.manifest.json stands in, and the table says "recorded".
2. `optiml tune --spec <spec>`: the default strategy and the spec's budget (as a user's build
   tunes it).
3. For the kernels of EXPERTS: their expert version, exhaustively as in 1 (`--kernels
   structural` runs issue 27's eight).

Each run has its own fresh --cache-dir under <out>/<name>/; the result is read from the entry's
manifest.json. Two Markdown tables are printed and written to <out>/transformations.md: one row
a kernel (parameter optimum, default winner, their ratio, the winning path from the manifest's
`search.tree`, tuning wall time) and one row a transformation (proposed, accepted, kept on a
winning path, predicted direction held). <out>/transformations.json keeps what the tables are
made from (and each manifest's `search.tree`); `--tables` rebuilds the tables from one or more
such files (e.g. from several device calls, a few kernels each). A tuning that fails prints its
log's tail, its row says "failed", and the other kernels still run. Standard library only.
"""
import argparse
import datetime
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

# (name, spec): the kernel's name is the spec's file name without .optiml.json
KERNELS = [
    ("saxpy", "examples/saxpy/kernels/saxpy.optiml.json"),
    ("matmul", "examples/matmul/kernels/matmul.optiml.json"),
    ("convolution", "tests/data/kernels/convolution/convolution.optiml.json"),
    ("reduction", "tests/data/kernels/reduction/reduction.optiml.json"),
    ("transpose", "tests/data/kernels/transpose/transpose.optiml.json"),
    ("naive_transpose", "tests/data/kernels/naive_transpose/naive_transpose.optiml.json"),
    ("nbody", "tests/data/kernels/nbody/nbody.optiml.json"),
    ("rbf_kernel_matrix", "tests/data/kernels/rbf_kernel_matrix/rbf_kernel_matrix.optiml.json"),
    ("mvt", "tests/data/kernels/mvt/mvt.optiml.json"),
    ("gemm", "tests/data/kernels/gemm/gemm.optiml.json"),
    ("histogram", "bench/transformations/kernels/histogram.optiml.json"),
    ("row_norm", "tests/data/kernels/row_norm/row_norm.optiml.json"),
    ("gather_rows", "bench/transformations/kernels/gather_rows.optiml.json"),
    ("stencil2d", "bench/transformations/kernels/stencil2d.optiml.json"),
    ("spmv_csr", "tests/data/kernels/spmv_csr/spmv_csr.optiml.json"),
]
# The expert's version of a kernel, written by hand for the same problem (or an existing expert
# kernel at its size), tuned over its own parameters: what each result is a fraction of.
EXPERTS = {
    "histogram": "bench/transformations/experts/histogram_expert.optiml.json",
    "row_norm": "bench/transformations/experts/row_norm_expert.optiml.json",
    "mvt": "bench/transformations/experts/mvt_expert.optiml.json",
    "naive_transpose": "tests/data/kernels/transpose/transpose.optiml.json",
    "gemm": "bench/transformations/experts/gemm_expert.optiml.json",
    "stencil2d": "bench/transformations/experts/stencil2d_expert.optiml.json",
    "gather_rows": "bench/transformations/experts/gather_rows_expert.optiml.json",
    "spmv_csr": "bench/transformations/experts/spmv_csr_expert.optiml.json",
}
# Named sets for --kernels: issue 27's eight kernels of different characters, each written the way
# its kind is usually written, each with an expert version.
SETS = {"structural": ",".join(EXPERTS)}
CHARACTER = {
    "saxpy": "streaming, memory-bound",
    "matmul": "compute-bound",
    "convolution": "stencil / convolution",
    "reduction": "reduction",
    "transpose": "shared-memory tiled, memory-bound",
    "naive_transpose": "memory-bound, poor coalescing",
    "nbody": "compute, occupancy-limited",
    "rbf_kernel_matrix": "load-bound (strided point reads), transcendental math",
    "mvt": "latency-bound matrix-vector, accumulates in global memory",
    "gemm": "naive matrix product, accumulates in global memory",
    "histogram": "global atomics into 256 bins, one thread a byte",
    "row_norm": "normalization, one thread a row",
    "gather_rows": "embedding gather, one thread a row",
    "stencil2d": "5-point 2-D stencil, no shared memory",
    "spmv_csr": "CSR sparse matrix-vector, one thread a row",
}
# The rule rewrites (driver/propose/rewrite_moves.cpp), listed in the per-transformation table
# even where no tree proposed them, so that a rewrite never offered shows as such.
REWRITES = ["restrict_pointers", "load_through_ldg", "unroll", "launch_bounds",
            "vectorize_loads", "hoist_invariant_loads", "accumulate_in_register",
            "privatize_atomics", "warp_per_row", "coarsen_items", "transpose_through_shared",
            "vectorize_narrow_loads", "register_block"]
LOG_TAIL_LINES = 25


# ---------------------------------------------------------------- spec and its space

def strip_comments(text):
    """JSON with // and /* */ comments (as specs allow) -> plain JSON; strings are kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def load_spec(path):
    return json.loads(strip_comments(pathlib.Path(path).read_text()))


def load_spec_for(path, folder):
    """The spec at `path`, its source and include folders named relative to `folder`, where a
    copy of it is to be written (specs name them relative to themselves)."""
    spec = load_spec(path)
    here, there = pathlib.Path(path).resolve().parent, pathlib.Path(folder).resolve()
    moved = lambda name: os.path.relpath((here / name).resolve(), there)  # noqa: E731
    spec["source"] = moved(spec["source"])
    if "include_dirs" in spec:
        spec["include_dirs"] = [moved(d) for d in spec["include_dirs"]]
    return spec


def _ceil_div(a, b):
    return -(-a // b)


def _c_div(a, b):  # C's truncating division
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _c_mod(a, b):
    return a - _c_div(a, b) * b


class _Int:
    """An integer whose / and % truncate as in C (the spec's expressions)."""
    def __init__(self, v):
        self.v = int(v)

    def _o(self, x):
        return x.v if isinstance(x, _Int) else int(x)

    def __add__(self, x): return _Int(self.v + self._o(x))
    __radd__ = __add__
    def __sub__(self, x): return _Int(self.v - self._o(x))
    def __rsub__(self, x): return _Int(self._o(x) - self.v)
    def __mul__(self, x): return _Int(self.v * self._o(x))
    __rmul__ = __mul__
    def __truediv__(self, x): return _Int(_c_div(self.v, self._o(x)))
    def __rtruediv__(self, x): return _Int(_c_div(self._o(x), self.v))
    def __mod__(self, x): return _Int(_c_mod(self.v, self._o(x)))
    def __rmod__(self, x): return _Int(_c_mod(self._o(x), self.v))
    def __neg__(self): return _Int(-self.v)
    def __lt__(self, x): return self.v < self._o(x)
    def __le__(self, x): return self.v <= self._o(x)
    def __gt__(self, x): return self.v > self._o(x)
    def __ge__(self, x): return self.v >= self._o(x)
    def __eq__(self, x): return self.v == self._o(x)
    def __ne__(self, x): return self.v != self._o(x)
    def __bool__(self): return self.v != 0
    __hash__ = None


def _to_python(expression):
    e = expression.replace("&&", " and ").replace("||", " or ")
    return re.sub(r"!(?!=)", " not ", e)


def valid_configs(spec):
    """Each valid configuration of the spec's space (constraints at its own and every extra
    size), in the order of its parameters' values; raises where a constraint cannot be evaluated
    by this little evaluator."""
    scalars = {a["name"]: a["value"] for a in spec["arguments"]
               if not a.get("pointer") and isinstance(a.get("value"), int)}
    sizes = [scalars] + [dict(scalars, **extra)
                         for extra in spec.get("check", {}).get("extra_sizes", [])]
    params = spec.get("parameters", [])
    constraints = [compile(_to_python(str(c)), "<constraint>", "eval")
                   for c in spec.get("constraints", [])]
    functions = {"ceil_div": lambda a, b: _Int(_ceil_div(_Int(a).v, _Int(b).v)),
                 "min": lambda a, b: _Int(min(_Int(a).v, _Int(b).v)),
                 "max": lambda a, b: _Int(max(_Int(a).v, _Int(b).v))}

    def configs(i, current):
        if i == len(params):
            yield dict(current)
            return
        for v in params[i]["values"]:
            current[params[i]["name"]] = v
            yield from configs(i + 1, current)

    for config in configs(0, {}):
        ok = True
        for size in sizes:
            env = {k: _Int(v) for k, v in dict(size, **config).items()}
            env.update(functions)
            if not all(bool(eval(c, {"__builtins__": {}}, env)) for c in constraints):
                ok = False
                break
        if ok:
            yield config


def count_valid(spec):
    """Valid configurations of the spec's space (constraints at its own and every extra size),
    or None when a constraint cannot be evaluated here (the space is then measured)."""
    try:
        return sum(1 for _ in valid_configs(spec))
    except Exception:  # an expression this little evaluator does not know: measure it
        return None


# ---------------------------------------------------------------- running optiml

def tail(path, lines=LOG_TAIL_LINES):
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError as error:
        return f"(no log: {error})"


def find_manifest(cache):
    manifests = list(pathlib.Path(cache).glob("entries/*/*/manifest.json"))
    if not manifests:
        return None
    return max(manifests, key=lambda p: p.stat().st_mtime)


def tune(optiml, spec, folder, extra, env_extra):
    """Runs one `optiml tune` into a fresh cache under folder; returns (manifest, wall, error)."""
    folder = pathlib.Path(folder)
    cache = folder / "cache"
    if cache.exists():
        shutil.rmtree(cache)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "log.txt"
    command = [optiml, "tune", "--spec", spec, "--cache-dir", str(cache)] + extra
    env = dict(os.environ, **env_extra)
    start = time.monotonic()
    print(f"transformations: {' '.join(command)}", flush=True)
    try:
        with open(log, "w") as out:
            out.write(" ".join(command) + "\n")
            out.flush()
            rc = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
    except OSError as error:
        return None, time.monotonic() - start, f"could not run {optiml}: {error}"
    wall = time.monotonic() - start
    manifest_path = find_manifest(cache)
    error = None
    if rc != 0:
        error = f"exit status {rc}"
    elif manifest_path is None:
        error = "no cache entry written"
    if error:
        print(f"transformations: {pathlib.Path(spec).name}: tuning failed ({error}); "
              f"the end of {log}:\n{tail(log)}", file=sys.stderr, flush=True)
        return None, wall, error
    try:
        manifest = json.loads(manifest_path.read_text())
        shutil.copy(manifest_path, folder / "manifest.json")
    except (OSError, ValueError) as error:
        return None, wall, f"unreadable manifest {manifest_path}: {error}"
    return manifest, wall, None


# ---------------------------------------------------------------- what a row keeps

def config_text(parameters):
    return " ".join(f"{k}={v}" for k, v in sorted((parameters or {}).items()))


def summarize(manifest, wall, error, source):
    """The fields the tables use, from one manifest (or the error)."""
    if manifest is None:
        return {"failed": True, "error": error, "command_s": wall, "source": source}
    search = manifest.get("search", {})
    return {
        "failed": False,
        "source": source,
        "time_ms": manifest.get("time_ms", {}).get("median"),
        "original_ms": manifest.get("original_time_ms", {}).get("median"),
        "parameters": manifest.get("parameters", {}),
        "options": manifest.get("options", []),
        "transformations": manifest.get("transformations", []),
        "strategy": search.get("strategy"),
        "evaluations": search.get("evaluations"),
        "space_size": search.get("space_size"),
        "wall_s": search.get("wall_s"),
        "command_s": wall,
        "device": manifest.get("device", {}).get("name"),
        "tree": search.get("tree"),
    }


def recorded_optimum(spaces, name):
    path = pathlib.Path(spaces) / f"{name}.manifest.json"
    if not path.exists():
        return None
    manifest = json.loads(path.read_text())
    row = summarize(manifest, None, None, f"recorded ({path})")
    # the fastest correct row of the recorded trace (the manifest's winner is that one)
    best = None
    for item in manifest.get("trace", []):
        if item.get("status") == "ok" and "time_ms" in item:
            if best is None or item["time_ms"]["median"] < best["time_ms"]["median"]:
                best = item
    if best is not None:
        row["time_ms"] = best["time_ms"]["median"]
        row["parameters"] = best["parameters"]
    row["recorded"] = True
    row["tree"] = None
    return row


# ---------------------------------------------------------------- tables

def fmt_ms(ms):
    if ms is None:
        return "?"
    return f"{ms:.4g}"


def node_label(node):
    text = node.get("transformation") or ""
    return text if text else (node.get("kind") or "?")


def transformation_name(node):
    text = (node.get("transformation") or "").strip()
    if not text:
        return node.get("kind") or "?"
    return re.split(r"[ (]", text, maxsplit=1)[0] or text


def winning_path(tree):
    if not isinstance(tree, dict) or not tree.get("nodes"):
        return "—"
    nodes = {n.get("id"): n for n in tree["nodes"]}
    path = tree.get("winning_path") or []
    steps = [node_label(nodes[i]) for i in path
             if i in nodes and nodes[i].get("parent") is not None]
    if not path:
        return "—"
    return " → ".join(steps) if steps else "(original)"


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def winner_text(row):
    parts = [config_text(row.get("parameters"))]
    if row.get("options"):
        parts.append(" ".join(row["options"]))
    if row.get("transformations"):
        parts.append(", ".join(row["transformations"]))
    return "; ".join(p for p in parts if p)


def kernel_table(records):
    lines = [
        "| kernel | character | original (ms) | parameter optimum (ms) | its configuration | "
        "default winner (ms) | winner | param optimum / winner | expert (ms) | "
        "winner's speed / expert's | winning path | strategy | "
        "evaluations | tuning wall (s) | exhaustive wall (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        p, d = r.get("param", {}), r.get("default", {})
        if p.get("failed"):
            p_ms, p_cfg = "failed", cell(p.get("error", ""))
        else:
            p_ms = fmt_ms(p.get("time_ms")) + (" (recorded)" if p.get("recorded") else "")
            p_cfg = cell(config_text(p.get("parameters")))
        e = r.get("expert")
        e_ms = "—" if not e else "failed" if e.get("failed") else fmt_ms(e.get("time_ms"))
        if d.get("failed"):
            row = [r["name"], CHARACTER.get(r["name"], ""), "?", p_ms, p_cfg, "failed",
                   cell(d.get("error", "")), "—", e_ms, "—", "—", "—", "—",
                   f"{d.get('command_s', 0):.0f}"]
        else:
            ratio = "—"
            if not p.get("failed") and p.get("time_ms") and d.get("time_ms"):
                ratio = f"{p['time_ms'] / d['time_ms']:.3f}"
            original = d.get("original_ms")
            wall = d.get("wall_s")
            of_expert = "—"
            if e and not e.get("failed") and e.get("time_ms") and d.get("time_ms"):
                of_expert = f"{e['time_ms'] / d['time_ms']:.3f}"
            row = [r["name"], CHARACTER.get(r["name"], ""), fmt_ms(original), p_ms, p_cfg,
                   fmt_ms(d.get("time_ms")), cell(winner_text(d)), ratio, e_ms, of_expert,
                   cell(winning_path(d.get("tree"))), cell(d.get("strategy") or "?"),
                   str(d.get("evaluations", "?")),
                   f"{wall:.0f}" if isinstance(wall, (int, float)) else "?"]
        pw = p.get("wall_s")
        row.append("recorded" if p.get("recorded") else
                   f"{pw:.0f}" if isinstance(pw, (int, float)) else "—")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def transformation_table(records):
    stats = {}
    for r in records:
        d = r.get("default", {})
        tree = d.get("tree") if not d.get("failed") else None
        if not isinstance(tree, dict):
            continue
        on_path = set(tree.get("winning_path") or [])
        for node in tree.get("nodes") or []:
            if node.get("parent") is None:
                continue  # the root is the original kernel, not a proposal
            key = (transformation_name(node), node.get("kind") or "?")
            s = stats.setdefault(key, {"proposed": 0, "accepted": 0, "winning": 0,
                                       "held": 0, "measured": 0, "kernels": set()})
            s["proposed"] += 1
            s["kernels"].add(r["name"])
            if node.get("status") == "ok":
                s["accepted"] += 1
            if node.get("on_winning_path") or node.get("id") in on_path:
                s["winning"] += 1
            c = node.get("consistency") or {}
            held, contradicted = c.get("held") or 0, c.get("contradicted") or 0
            if held + contradicted > 0:
                s["measured"] += 1
                if held > 0 and contradicted == 0:
                    s["held"] += 1
    if not stats:
        return "No manifest has a `search.tree`: no per-transformation statistics."
    for name in REWRITES:
        stats.setdefault((name, "rewrite"), {"proposed": 0, "accepted": 0, "winning": 0,
                                             "held": 0, "measured": 0, "kernels": set()})
    lines = ["| transformation | kind | proposed | accepted (verified ok) | on a winning path | "
             "direction held / measured | kernels |",
             "|---|---|---|---|---|---|---|"]
    for (name, kind), s in sorted(stats.items(), key=lambda kv: (-kv[1]["proposed"], kv[0])):
        held = f"{s['held']}/{s['measured']}" if s["measured"] else "—"
        lines.append(f"| {cell(name)} | {cell(kind)} | {s['proposed']} | {s['accepted']} | "
                     f"{s['winning']} | {held} | {len(s['kernels'])} |")
    return "\n".join(lines)


def summary_lines(records):
    """The issue's targets: the geometric mean of param optimum / winner, and on how many kernels
    the winner reaches half the expert's speed."""
    ratios, halves, experts = [], 0, 0
    for r in records:
        p, d, e = r.get("param", {}), r.get("default", {}), r.get("expert")
        if p.get("failed") or d.get("failed") or not p.get("time_ms") or not d.get("time_ms"):
            continue
        ratios.append(p["time_ms"] / d["time_ms"])
        if e and not e.get("failed") and e.get("time_ms"):
            experts += 1
            halves += e["time_ms"] / d["time_ms"] >= 0.5
    if not ratios:
        return []
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    lines = [f"Geometric mean of param optimum / winner over {len(ratios)} kernels: {geomean:.2f}."]
    if experts:
        lines.append(f"The winner reaches at least half the expert's speed on {halves} of "
                     f"{experts} kernels with an expert version.")
    return lines


def report(records, header):
    devices = sorted({r[k].get("device") for r in records for k in ("param", "default")
                      if r.get(k) and r[k].get("device") and not r[k].get("recorded")})
    text = [header, ""]
    if devices:
        text += [f"Device: {', '.join(devices)}.", ""]
    text += [kernel_table(records), ""] + summary_lines(records) + ["",
             "param optimum / winner: above 1, the default search (transformations included) "
             "beat the best pure-parameter configuration. \"recorded\": the space is larger "
             "than the exhaustive limit, so its optimum is the one recorded on the H200 in "
             "tests/data/h200/spaces/. Winning path: the non-root nodes of `search.tree`'s "
             "`winning_path` (— without a tree). Tuning wall: the default run's `search.wall_s`; exhaustive wall: the parameter run's. "
             "Expert: the best time of the kernel's expert version (EXPERTS, tuned exhaustively "
             "over its own parameters); winner's speed / expert's: 1 is the expert's speed.",
             "", transformation_table(records), ""]
    return "\n".join(text)


# ---------------------------------------------------------------- main

def tune_exhaustively(optiml, spec, folder, args, size=None):
    """Every valid configuration of the spec, profiling off: its best pure-parameter time."""
    if size is None:
        try:
            size = count_valid(load_spec(spec))
        except (OSError, ValueError) as error:
            print(f"transformations: {spec}: {error}", file=sys.stderr)
    evaluations = max(size or 0, 1) * 2 + 10 if size is not None else 100000
    manifest, wall, error = tune(
        optiml, spec, folder,
        ["--strategy", "exhaustive", "--budget-evaluations", str(evaluations),
         "--budget-seconds", str(args.exhaustive_seconds)],
        {"OPTIML_PROFILE": "0"})
    result = summarize(manifest, wall, error, "exhaustive")
    if result.get("failed"):
        result["log_tail"] = tail(pathlib.Path(folder) / "log.txt")
    return result


def run(args):
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    optiml = str(pathlib.Path(args.optiml).resolve()) if os.sep in args.optiml else args.optiml
    names = SETS.get(args.kernels, args.kernels) if args.kernels else None
    wanted = set(names.split(",")) if names else None
    kernels = [(n, s) for n, s in KERNELS if wanted is None or n in wanted]
    if wanted and len(kernels) != len(wanted):
        known = ", ".join(n for n, _ in KERNELS)
        sys.exit(f"transformations: unknown kernel in --kernels {args.kernels}; known: {known}")
    budget = ["--budget-seconds", str(args.budget_seconds)] if args.budget_seconds else []
    records = []
    for name, spec in kernels:
        record = {"name": name, "spec": spec}
        folder = out / name
        try:
            size = count_valid(load_spec(spec))
        except (OSError, ValueError) as error:
            size = None
            print(f"transformations: {spec}: {error}", file=sys.stderr)
        record["valid_configurations"] = size
        recorded = None
        if size is not None and size > args.exhaustive_limit:
            recorded = recorded_optimum(args.spaces, name)
            if recorded is None:
                print(f"transformations: {name}: {size} configurations and no recording in "
                      f"{args.spaces}: measuring them all", file=sys.stderr)
        if recorded is not None:
            record["param"] = recorded
        else:
            record["param"] = tune_exhaustively(optiml, spec, folder / "param", args, size)
        manifest, wall, error = tune(optiml, spec, folder / "default", budget, {})
        record["default"] = summarize(manifest, wall, error, "default")
        if name in EXPERTS:
            record["expert"] = tune_exhaustively(optiml, EXPERTS[name], folder / "expert", args)
        if record["default"].get("failed"):
            record["default"]["log_tail"] = tail(folder / "default" / "log.txt")
        if record["param"].get("failed"):
            record["param"]["log_tail"] = tail(folder / "param" / "log.txt")
        records.append(record)
        # after every kernel, so that what ran survives a run cut short
        (out / "transformations.json").write_text(json.dumps(
            {"created": datetime.datetime.now(datetime.timezone.utc).isoformat(),
             "budget_seconds": args.budget_seconds, "records": records}, indent=1) + "\n")
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("optiml", nargs="?", help="the optiml binary (e.g. build/bin/optiml)")
    parser.add_argument("out", nargs="?", help="output folder")
    parser.add_argument("--kernels", help="comma-separated subset of: " +
                        ", ".join(n for n, _ in KERNELS) + "; or a set: " + ", ".join(SETS))
    parser.add_argument("--exhaustive-limit", type=int, default=400,
                        help="larger spaces use the recorded optimum (default 400)")
    parser.add_argument("--exhaustive-seconds", type=float, default=3600,
                        help="time budget of an exhaustive run (default 3600)")
    parser.add_argument("--spaces", default="tests/data/h200/spaces",
                        help="recorded spaces (default tests/data/h200/spaces)")
    parser.add_argument("--budget-seconds", type=float,
                        help="override the default run's time budget (default: the spec's)")
    parser.add_argument("--tables", nargs="+", metavar="JSON",
                        help="only rebuild the tables from transformations.json files")
    parser.add_argument("--md", help="with --tables: also write the tables to this file")
    args = parser.parse_args()

    if args.tables:
        records = []
        for path in args.tables:
            records += json.loads(pathlib.Path(path).read_text())["records"]
        order = {n: i for i, (n, _) in enumerate(KERNELS)}
        records.sort(key=lambda r: order.get(r["name"], len(order)))
        text = report(records, "# Transformations against the best parameters")
        print(text)
        if args.md:
            pathlib.Path(args.md).write_text(text)
        return 0
    if not args.optiml or not args.out:
        parser.error("give the optiml binary and an output folder (or --tables)")
    records = run(args)
    note = f", default runs' time budget {args.budget_seconds:g} s" if args.budget_seconds else ""
    text = report(records, f"# Transformations against the best parameters ({len(records)} "
                           f"kernels{note})")
    print(text)
    (pathlib.Path(args.out) / "transformations.md").write_text(text)
    return 1 if any(r[k].get("failed") for r in records for k in ("param", "default", "expert")
                    if k in r) else 0


if __name__ == "__main__":
    sys.exit(main())
