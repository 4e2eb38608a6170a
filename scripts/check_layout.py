#!/usr/bin/env python3
"""Checks the house against docs/layout.md's table: a room includes only the rooms its row's
"may use" names (each in a row above its own), and never another room's detail/ header.

  python3 scripts/check_layout.py            check; exit 1 listing every include that breaks it
  python3 scripts/check_layout.py --table    print the folder-to-folder include counts
  --root DIR                                 check another checkout (its docs/layout.md too)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "layout.md"
CODE_FOLDERS = ("driver", "cache", "runtime")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(path):
    """The room a repository path belongs to: driver/<room>/..., or a top-level folder."""
    parts = pathlib.PurePosixPath(path).parts
    if not parts or parts[0] not in CODE_FOLDERS:
        return None
    if parts[0] == "driver":
        return parts[1] if len(parts) > 2 else None
    return parts[0]


def read_table():
    """{room: allowed rooms} from the markdown table's rows that have a numeric floor."""
    rows = []
    for line in TABLE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].isdigit():
            rows.append((room_of(cells[1].strip("`").rstrip("/") + "/x"), cells[3]))
    rooms = {}
    for index, (room, may_use) in enumerate(rows):
        above = {r for r, _ in rows[:index]}
        if "all rooms above" in may_use or "everything" in may_use:
            rooms[room] = above
        else:
            rooms[room] = above & set(re.findall(r"[a-z]+", may_use))
    return rooms


def includes():
    """(file, room, included path, included room) for every quoted include of the product."""
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".h", ".cpp", ".in") or not path.is_file():
                continue
            relative = path.relative_to(ROOT).as_posix()
            for target in INCLUDE.findall(path.read_text(errors="replace")):
                target_room = room_of(target)
                if target_room is not None:
                    yield relative, room_of(relative), target, target_room


def print_table():
    counts = {}
    for _, room, _, target_room in includes():
        if room != target_room:
            counts[(room, target_room)] = counts.get((room, target_room), 0) + 1
    for (room, target_room), n in sorted(counts.items()):
        print(f"{room:10} -> {target_room:10} {n}")


def check():
    rooms = read_table()
    problems = []
    for file, room, target, target_room in includes():
        if room not in rooms:
            problems.append(f"{file}: its folder has no row in docs/layout.md")
            continue
        if room == target_room:
            continue
        if "/detail/" in target:
            problems.append(f"{file}: includes {target}, a header {target_room}/ keeps to itself")
        elif target_room not in rooms[room]:
            problems.append(f"{file}: includes {target}, but {room}/ may not use {target_room}/ "
                            "(docs/layout.md: move the code, or change the table with a reason)")
    for line in sorted(set(problems)):
        print(line)
    if problems:
        print(f"check_layout: {len(set(problems))} includes break docs/layout.md")
        return 1
    print(f"check_layout: every include of {', '.join(CODE_FOLDERS)} follows docs/layout.md")
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if "--root" in arguments:
        at = arguments.index("--root")
        ROOT = pathlib.Path(arguments[at + 1]).resolve()
        TABLE = ROOT / "docs" / "layout.md"
        del arguments[at:at + 2]
    if arguments == ["--table"]:
        print_table()
        sys.exit(0)
    sys.exit(check())
