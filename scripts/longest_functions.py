#!/usr/bin/env python3
"""The longest function definitions of the product (driver/, cache/, runtime/), by lines from the
signature to the closing brace: `python3 scripts/longest_functions.py [count]` (default 10).
A reading of the text, not a parser: definitions start at column 0 (the house style does not
indent namespaces) and end at the brace that closes them."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
START = re.compile(r"^(?!namespace|struct|class|enum|union|using|typedef|template|if|for|while|"
                   r"switch|return|static_assert|#|//|\}|extern)[A-Za-z_].*\(")


def definitions(path):
    lines = path.read_text(errors="replace").split("\n")
    i = 0
    while i < len(lines):
        if not START.match(lines[i]) or lines[i].rstrip().endswith(";"):
            i += 1
            continue
        # The signature runs until a '{' (a definition) or a ';' (a declaration).
        j = i
        while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or "{" not in lines[j]:
            i = j + 1
            continue
        depth = 0
        k = j
        while k < len(lines):
            code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|//.*', "", lines[k])
            depth += code.count("{") - code.count("}")
            if depth <= 0 and "}" in code:
                break
            k += 1
        name = re.findall(r"([\w:~]+)\s*\(", lines[i])
        yield (k - i + 1, f"{path.relative_to(ROOT)}:{i + 1}", name[0] if name else "?")
        i = k + 1


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    found = []
    for folder in ("driver", "cache", "runtime"):
        for path in sorted((ROOT / folder).rglob("*.cpp")):
            found.extend(definitions(path))
    for length, where, name in sorted(found, reverse=True)[:count]:
        print(f"{length:4}  {name:40}  {where}")


if __name__ == "__main__":
    main()
