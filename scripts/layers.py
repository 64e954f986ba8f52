#!/usr/bin/env python3
"""Checks the layering DESIGN.md promises: every module of src/ is in the code map, and no module
imports one that comes after it in the map's data-flow order (a `crate::x` path naming a later
module). Unit-test files (`tests.rs`, `*_tests.rs`, `*_props.rs`) may use any module. Prints each violation with its file and line; exit 1 when there is one.

    scripts/layers.py            # from the repository root
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
design = (root / "DESIGN.md").read_text()

# The code map's rows, in order: | `src/x.rs` | ... or | `src/x/` | ...
order = []
for line in design.splitlines():
    m = re.match(r"\|\s*`src/([a-z_]+)(?:\.rs|/)`", line)
    if m and m.group(1) not in order:
        order.append(m.group(1))
rank = {m: i for i, m in enumerate(order)}

src = root / "src"
modules = {p.stem if p.is_file() else p.name
           for p in src.iterdir()
           if (p.is_file() and p.suffix == ".rs" and p.stem not in ("lib", "main")) or p.is_dir()}
problems = []
for m in sorted(modules - set(rank)):
    problems.append(f"src/{m}: not in DESIGN.md's code map")
for m in sorted(set(rank) - modules):
    problems.append(f"DESIGN.md's code map names src/{m}, which does not exist")

for path in sorted(src.rglob("*.rs")):
    rel = path.relative_to(src)
    if rel.name in ("lib.rs", "main.rs") and len(rel.parts) == 1:
        continue
    # Unit-test files check a module against the rest of the crate: they may use any module.
    if rel.stem == "tests" or rel.stem.endswith("_tests") or rel.stem.endswith("_props"):
        continue
    own = rel.parts[0].removesuffix(".rs")
    if own not in rank:
        continue
    for n, text in enumerate(path.read_text().splitlines(), 1):
        code = text.split("//", 1)[0]
        for target in re.findall(r"\bcrate::([a-z_]+)", code):
            if target in rank and rank[target] > rank[own]:
                problems.append(
                    f"src/{rel}:{n}: `{own}` uses `{target}`, which comes after it in the code map")

for p in problems:
    print(p)
print(f"layers: {len(order)} modules in order, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
