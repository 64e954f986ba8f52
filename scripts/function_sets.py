#!/usr/bin/env python3
"""Writes function-level candidate patches for one method of a Java project, shaped as a
function-level repairer's outputs become diffs (the model returns the whole method, the harness
writes it into the file and takes `git diff`): the method's body rewritten by one to three edits
(locals renamed, a comparison or a constant changed, a condition negated, a guard added, the
lines re-indented), some with the javadoc edited too, some with a private helper added and
called, some with a second method of the file changed as well. Seeded, so that a seed gives the
same patches; each patch a `git diff` in OUT/NAME.diff.

Usage: scripts/function_sets.py PROJECT FILE METHOD OUT [--count N] [--seed S] [--other METHOD]
  FILE: the source file below PROJECT; METHOD: the method's name (its first declaration), or
  `name(type` for the first whose first parameter is of that type;
  --other: a second method of the file for the two-method patches (default: the next method).
"""
import argparse, os, random, re, shutil, subprocess, tempfile

TYPES = r"(?:int|long|double|float|short|byte|char|boolean|String|[A-Z]\w*(?:<[^;=()]*>)?(?:\[\])*)"


def method_span(text, name, start=0):
    """(javadoc-or-declaration start, declaration start, body start, end) of the first method
    `name` at or after `start` (braces matched outside strings, characters and comments)."""
    name, _, first = name.partition("(")
    params = r"\(\s*(?:final\s+)?" + re.escape(first) + r"\b[^;{]*\)" if first else r"\([^;{]*\)"
    m = re.compile(r"\n([ \t]*)((?:public|protected|private|static|final|synchronized|\s)*"
                   r"[\w<>\[\],.? ]+\s+" + re.escape(name) + r"\s*" + params + r"\s*(?:throws[^{;]*)?)\{"
                   ).search(text, start)
    if not m:
        raise SystemExit(f"no method {name}")
    decl = m.start(1)
    body = m.end() - 1
    end = match_brace(text, body)
    before = text[:decl].rstrip()
    doc = decl
    if before.endswith("*/"):
        doc = text.rfind("/**", 0, len(before))
        doc = text.rfind("\n", 0, doc) + 1
    return doc, decl, body, end


def match_brace(text, i):
    depth, k = 0, i
    while k < len(text):
        c = text[k]
        if text.startswith("//", k):
            k = text.index("\n", k)
            continue
        if text.startswith("/*", k):
            k = text.index("*/", k) + 2
            continue
        if c in "\"'":
            k += 1
            while text[k] != c:
                k += 2 if text[k] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    raise SystemExit("unbalanced braces")


def code_positions(body, pattern):
    """Matches of `pattern` in `body` outside strings and comments."""
    blank = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//[^\n]*|/\*.*?\*/',
                   lambda m: " " * len(m.group(0)), body, flags=re.S)
    return [m for m in re.finditer(pattern, blank)]


def rename_local(body, rng):
    decls = code_positions(body, r"\b" + TYPES + r"\s+([a-z]\w*)\s*[=;:]")
    if not decls:
        return None
    old = rng.choice(decls).group(1)
    new = rng.choice(["value", "result", "tmp", "acc", "cur", "n1"]) + ("" if rng.random() < .5 else "2")
    if re.search(r"\b" + new + r"\b", body):
        return None
    return re.sub(r"(?<![.\w])" + re.escape(old) + r"\b", new, body)


def flip_comparison(body, rng):
    ops = code_positions(body, r"(?<![<>=!])(<=|>=|<|>)(?![<>=])")
    ops = [m for m in ops if not re.match(r"\s*[A-Z?]", body[m.end():m.end() + 3])]
    if not ops:
        return None
    m = rng.choice(ops)
    new = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[m.group(1)]
    return body[:m.start()] + new + body[m.end():]


def change_constant(body, rng):
    lits = code_positions(body, r"(?<![\w.])(\d+)(?![\w.])")
    if not lits:
        return None
    m = rng.choice(lits)
    v = int(m.group(1)) + rng.choice([-1, 1])
    if v < 0:
        return None
    return body[:m.start()] + str(v) + body[m.end():]


def negate_condition(body, rng):
    ifs = code_positions(body, r"\bif\s*\(")
    if not ifs:
        return None
    m = rng.choice(ifs)
    close = match_paren(body, m.end() - 1)
    return body[:m.end()] + "!(" + body[m.end():close] + "))" + body[close + 1:]


def match_paren(text, i):
    depth = 0
    for k in range(i, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    raise SystemExit("unbalanced parentheses")


def add_guard(body, rng, params):
    objs = [p for t, p in params if not re.fullmatch(r"int|long|double|float|short|byte|char|boolean", t)]
    nums = [p for t, p in params if re.fullmatch(r"int|long", t)]
    indent = re.match(r"\{\s*\n([ \t]*)", body)
    indent = indent.group(1) if indent else "        "
    if objs and rng.random() < .5:
        g = f"if ({rng.choice(objs)} == null) {{\n{indent}    throw new IllegalArgumentException(\"null\");\n{indent}}}"
    elif nums:
        g = f"if ({rng.choice(nums)} < 0) {{\n{indent}    throw new IllegalArgumentException(\"negative\");\n{indent}}}"
    else:
        return None
    return "{\n" + indent + g + body[1:].lstrip(" \t") if body.startswith("{\n") else None


def reindent(body, rng):
    return "\n".join(("  " + l if l.strip() and i > 0 else l) for i, l in enumerate(body.split("\n")))


EDITS = [rename_local, flip_comparison, change_constant, negate_condition, add_guard, reindent]


def params_of(header):
    inner = header[header.index("(") + 1:header.rindex(")")]
    out = []
    for p in filter(None, (x.strip() for x in re.split(r",(?![^<]*>)", inner))):
        words = p.replace("final ", "").split()
        if len(words) >= 2:
            out.append((words[-2], words[-1]))
    return out


def variant(body, header, rng):
    for _ in range(20):
        b = body
        for edit in rng.sample(EDITS, rng.choice([1, 1, 2, 3])):
            r = edit(b, rng, params_of(header)) if edit is add_guard else edit(b, rng)
            if r is not None:
                b = r
        if b != body:
            return b
    return None


def helper(body, header, rng, k):
    """The body with one `return EXPR;` computed by a private static helper of the same
    result type (added after the method), or None."""
    m = re.match(r"\s*(?:(?:public|protected|private|static|final|synchronized)\s+)*([\w<>\[\]]+)\s+\w+\s*\(", header)
    if not m or m.group(1) == "void":
        return None
    rtype = m.group(1)
    params = params_of(header)
    rets = code_positions(body, r"\breturn\s+([^;]+);")
    rets = [r for r in rets if all(re.search(r"\b" + p + r"\b", r.group(1)) or True for _, p in params)]
    if not rets:
        return None
    r = rng.choice(rets)
    used = [(t, p) for t, p in params if re.search(r"\b" + re.escape(p) + r"\b", r.group(1))]
    # Only expressions over parameters and constants move into the helper.
    names = set(re.findall(r"(?<![.\w])([a-z]\w*)\b(?!\s*\()", r.group(1)))
    if names - {p for _, p in used} - {"true", "false", "null"}:
        return None
    name = f"computed{k}"
    call = f"{name}({', '.join(p for _, p in used)})"
    new_body = body[:r.start(1)] + call + body[r.end(1):]
    sig = ", ".join(f"{t} {p}" for t, p in used)
    helper_text = (f"\n\n    private static {rtype} {name}({sig}) {{\n"
                   f"        return {r.group(1).strip()};\n    }}")
    return new_body, helper_text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("project")
    ap.add_argument("file")
    ap.add_argument("method")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--other")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    path = os.path.join(a.project, a.file)
    text = open(path, encoding="utf-8").read()
    doc, decl, bstart, bend = method_span(text, a.method)
    header, body = text[decl:bstart], text[bstart:bend]
    if a.other:
        odoc, odecl, obstart, obend = method_span(text, a.other)
    else:
        nxt = re.compile(r"\n[ \t]*(?:public|protected|private|static)[^;{=]*\(").search(text, bend)
        name = re.search(r"(\w+)\s*\($", nxt.group(0)).group(1) if nxt else None
        if not name:
            raise SystemExit("no second method")
        odoc, odecl, obstart, obend = method_span(text, name, bend)
    oheader, obody = text[odecl:obstart], text[obstart:obend]
    if odecl < bend and obend > decl:
        raise SystemExit("the second method overlaps the first")
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    seen, shapes = set(), {}
    with tempfile.TemporaryDirectory() as tmp:
        rel = a.file
        os.makedirs(os.path.join(tmp, "a", os.path.dirname(rel)))
        os.makedirs(os.path.join(tmp, "b", os.path.dirname(rel)))
        open(os.path.join(tmp, "a", rel), "w", encoding="utf-8").write(text)
        k = 0
        tries = 0
        while k < a.count and tries < 50 * a.count:
            tries += 1
            shape = rng.choices(["body", "javadoc", "helper", "two"], [5, 1, 2, 2])[0]
            b = variant(body, header, rng)
            if b is None:
                continue
            edits = [(bstart, bend, b)]
            if shape == "javadoc":
                if doc == decl:
                    continue
                jd = text[doc:decl]
                edits.append((doc, decl, jd.replace("*/", "* (checked)\n     */", 1)))
            elif shape == "helper":
                h = helper(b, header, rng, k)
                if h is None:
                    continue
                edits = [(bstart, bend, h[0] + h[1])]
            elif shape == "two":
                ob = variant(obody, oheader, rng)
                if ob is None:
                    continue
                edits.append((obstart, obend, ob))
            new = text
            for s, e, t in sorted(edits, reverse=True):
                new = new[:s] + t + new[e:]
            if new in seen:
                continue
            seen.add(new)
            open(os.path.join(tmp, "b", rel), "w", encoding="utf-8").write(new)
            diff = subprocess.run(["diff", "-u", os.path.join("a", rel), os.path.join("b", rel)],
                                  cwd=tmp, capture_output=True, text=True).stdout
            name = f"{a.method.partition('(')[0]}-{k:03d}-{shape}"
            open(os.path.join(a.out, name + ".diff"), "w", encoding="utf-8").write(diff)
            shapes[shape] = shapes.get(shape, 0) + 1
            k += 1
    print(f"{a.out}: {k} patches of {a.method} ({', '.join(f'{v} {s}' for s, v in sorted(shapes.items()))})")


main()
