#!/usr/bin/env python3
"""Writes one slice of a tuning space: a copy of a spec whose parameter keeps one value.

A space too large for one device call is recorded in slices (tests/data/h200/spaces/README.md):
each slice is recorded exhaustively on its own (record_spaces.sh), whenever a call has the
minutes, and merge_recordings.py joins them. The slice of a parameter's default value goes first:
the joined recording keeps its manifest, whose default configuration is then the spec's own.
    slice_spec.py <spec> <parameter> <value> <out folder>
The copy, <out folder>/<name>_<parameter>_<value>.optiml.json, keeps the spec's name and names
its source and include folders relative to where it is written. Where the spec's defaults break a
constraint at that value (block_size_y 16 with block_size_x 128 over 1024 threads), the slice's
default moves to the valid configuration that changes the fewest other defaults, nearest in
their value lists.
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "transformations"))
import transformations as bench  # noqa: E402  (load_spec_for, valid_configs)


def valid_default(spec):
    """The spec's defaults, or the valid configuration nearest them; None where none is valid."""
    parameters = spec["parameters"]
    defaults = [p["values"].index(p.get("default", p["values"][0])) for p in parameters]
    best = None
    for config in bench.valid_configs(spec):
        indices = [p["values"].index(config[p["name"]]) for p in parameters]
        changed = sum(i != d for i, d in zip(indices, defaults))
        distance = sum(abs(i - d) for i, d in zip(indices, defaults))
        if best is None or (changed, distance) < best[0]:
            best = ((changed, distance), dict(config))
    return None if best is None else best[1]


def main(spec_path, parameter, value, out_folder):
    out = pathlib.Path(out_folder)
    out.mkdir(parents=True, exist_ok=True)
    spec = bench.load_spec_for(spec_path, out)
    chosen = [p for p in spec["parameters"] if p["name"] == parameter]
    if not chosen or int(value) not in chosen[0]["values"]:
        sys.exit(f"{spec_path}: parameters: no '{parameter}' with the value {value}; "
                 f"name one of its parameters and one of that parameter's values")
    chosen[0]["values"], chosen[0]["default"] = [int(value)], int(value)
    default = valid_default(spec)
    if default is None:
        sys.exit(f"{spec_path}: no configuration with {parameter}={value} meets the constraints")
    for p in spec["parameters"]:
        p["default"] = default[p["name"]]
    path = out / f"{pathlib.Path(spec_path).name.split('.')[0]}_{parameter}_{value}.optiml.json"
    path.write_text(json.dumps(spec, indent=2) + "\n")
    print(path)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
