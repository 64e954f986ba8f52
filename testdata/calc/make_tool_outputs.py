#!/usr/bin/env python3
"""Writes calc's patches as repair tools publish them, for `patchval run` to read as they are:

- tools/tbar/FixedBugs/calc_1/Patch_N.txt: TBar's shape. Most are `git diff` output with TBar's
  tab-indented patch code and no final newline; Patch_N_1.txt files are TBar's other form, the
  `===Buggy Code===` / `===Patch Code===` block naming the file below its source directory.
- tools/recoder/calc-1.json: Recoder's candidate records (`patchmu/<bug>.json`): `filename`
  inside Recoder's checkout (`buggy/...`), `line`, `precode`/`oldcode`/`aftercode` cut at whole
  lines, `mode` (0 replaces, 1 inserts before), and `code` as Recoder prints it: the statement's
  javalang AST in Recoder's token form (`root ReturnStatement expression ... ^ ^`). The trees
  are made with the `javalang` package (pip install javalang), the parser Recoder uses, and
  Recoder's token scheme (node type, each non-empty attribute with its value, `^` closing;
  leaves marked `_ter`), so they carry what Recoder's trees carry (javalang drops the `-` of
  `-(lo + 1)`, so that patch reads `return (lo + 1);`, as Recoder would validate it).
- tools/wholeline/binsearch_return_lines.json: an ExpressAPR manifest without `interface`
  whose `unpatched` region is the whole line (indentation and line end), as a converter that
  works line by line writes it.

Expected verdicts (expected.json beside each) were checked with `patchval run --technique
plain`, which compiles each patch with javac and runs the tests, and by reading each patch."""
import json, os, shutil, subprocess, tempfile

import javalang

HERE = os.path.dirname(os.path.abspath(__file__))
M = "src/main/java/org/example/calc/MathUtil.java"
BUG = "        return -lo;\n"

# TBar: name -> (new text of the bug's line, or a (file, line, buggy, patch) block), verdict.
TBAR = {
    "Patch_1.txt": ("\t\treturn -(lo + 1);\n", "s"),
    "Patch_2.txt": ("\t\treturn lo;\n", "F"),
    "Patch_3.txt": ("\t\tif (lo > hi) {\n\treturn -(lo + 1);\n\t}\n" + BUG, "s"),
    "Patch_4.txt": ("\t\treturn -lo\n", "C"),
    "Patch_5_1.txt": (("org/example/calc/MathUtil.java", 36, "return -lo;", "return -lo - 1;"), "s"),
    "Patch_6_1.txt": (("org/example/calc/MathUtil.java", 13, "sum += i;", "sum += i + 1;"), "F"),
    "Patch_7_1.txt": (("org/example/calc/MathUtil.java", 36, "return -lo;", "return -lo -;"), "C"),
}

# Recoder: (mode, Java statement whose javalang tree is the record's code, verdict). An
# `if (...) {` alone (mode 1) is an IfStatement without a then statement: Recoder inserts its
# head and closes it before the end of the enclosing block.
RECODER = [
    (0, "return -lo - 1;", "s"),
    (0, "return ~lo;", "s"),
    (0, "return lo;", "F"),
    (0, "return -1;", "F"),
    (0, "return -(lo + 1);", "F"),
    (0, "return -lo - x;", "C"),
    (0, "return (lo == 0) ? -1 : -lo - 1;", "s"),
    (0, "return Math.negateExact(lo) - 1;", "s"),
    (1, "lo = lo + 1;", "s"),
    (1, "lo++;", "s"),
    (1, "hi = -1;", "F"),
    (1, "if (lo >= 0) {", "C"),
]


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def tbar(out):
    expected = {}
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(HERE, "src"), os.path.join(tmp, "src"))
        git(tmp, "init", "-q")
        git(tmp, "add", "-A")
        git(tmp, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "base")
        path = os.path.join(tmp, M)
        original = open(path).read()
        for name, (what, verdict) in TBAR.items():
            if isinstance(what, tuple):
                f, line, buggy, patch = what
                text = ("//**********************************************************\n"
                        f"//{f} ------ {line}\n"
                        "//**********************************************************\n"
                        f"===Buggy Code===\n{buggy}\n\n===Patch Code===\n{patch}")
            else:
                open(path, "w").write(original.replace(BUG, what, 1))
                # TBar writes the diff without its final newline.
                text = git(tmp, "diff").rstrip("\n")
                open(path, "w").write(original)
            open(os.path.join(out, name), "w").write(text)
            expected[f"FixedBugs/calc_1/{name}"] = verdict
    return expected


def tokens(node):
    """Recoder's tokens of a javalang node (its testDefect4j.generateAST scheme)."""
    if node is None:
        return ["None", "^"]
    if isinstance(node, str):
        s = node.replace(" ", "").replace(":", "")
        if "\t" in s or "'" in s or '"' in s:
            s = "<string>"
        return [s or "<empty>", "^"]
    if isinstance(node, list):
        return ["empty", "^"] if not node else [t for ch in node for t in tokens(ch)]
    out = [type(node).__name__]
    for attr in node.attrs:
        value = getattr(node, attr)
        if attr == "documentation" or not value:
            continue
        out.append(attr)
        if isinstance(value, (list, javalang.ast.Node)):
            out += tokens(value)
        elif isinstance(value, set):
            for v in sorted(value):
                out += tokens(v)
        elif isinstance(value, bool):
            out += [str(value), "^"]
        else:
            out += tokens(str(value))
        out.append("^")
    out.append("^")
    return out


def printed(toks):
    """The tokens as Recoder prints a tree: leaves get `_ter`."""
    out = []
    for i, t in enumerate(toks):
        leaf = t != "^" and i + 1 < len(toks) and toks[i + 1] == "^"
        out.append(t + "_ter" if leaf else t)
    return "root " + " ".join(out) + " "


def statement(java):
    head_only = java.rstrip().endswith("{")
    body = java + ("}" if head_only else "")
    unit = javalang.parse.parse(f"class X {{ int f() {{ {body} }} }}")
    stmt = unit.types[0].methods[0].body[0]
    if head_only:
        stmt.then_statement = None
    return stmt


def recoder(out):
    text = open(os.path.join(HERE, M)).read().strip()
    lines = text.splitlines()
    k = lines.index(BUG.rstrip("\n"))
    records, expected = [], {}
    for i, (mode, java, verdict) in enumerate(RECODER):
        records.append({
            "id": i, "idss": "calc-1",
            "precode": "\n".join(lines[:k]), "aftercode": "\n".join(lines[k + 1:]),
            "oldcode": lines[k], "filename": "buggy/" + M, "mode": mode,
            "code": printed(tokens(statement(java))), "line": k + 1, "isa": False,
        })
        expected[f"calc-1.json[{i}] (id {i})"] = verdict
    json.dump(records, open(os.path.join(out, "calc-1.json"), "w"), indent=4)
    return expected


def wholeline(out):
    src = json.load(open(os.path.join(HERE, "patches", "binsearch_return.json")))
    verdicts = json.load(open(os.path.join(HERE, "patches", "expected.json")))["binsearch_return.json"]
    keep = [(p, v) for p, v in zip(src["patches"], verdicts)
            if p and not p.endswith("}") or p.startswith("if")]
    indent = "        "
    manifest = {
        "manifest_version": 3, "bug": "calc-binsearch",
        "filename": src["filename"],
        "context_above": src["context_above"][:-len(indent)],
        "unpatched": indent + src["unpatched"] + "\n",
        "context_below": src["context_below"][1:],
        "patches": [indent + p + "\n" for p, _ in keep],
    }
    assert src["context_above"].endswith(indent) and src["context_below"].startswith("\n")
    json.dump(manifest, open(os.path.join(out, "binsearch_return_lines.json"), "w"), indent=1)
    return {"binsearch_return_lines.json": "".join(v for _, v in keep)}


def main():
    for sub, make in [("tbar/FixedBugs/calc_1", tbar), ("recoder", recoder), ("wholeline", wholeline)]:
        d = os.path.join(HERE, "tools", sub)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        expected = make(d)
        top = os.path.join(HERE, "tools", sub.split("/")[0])
        json.dump(expected, open(os.path.join(top, "expected.json"), "w"), indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
