#!/usr/bin/env python3
"""A minimal client of `patchval serve`, the shape a repair loop would copy: start the server
once, then ask for one patch's verdict at a time and read the answer as it streams in. Only
Python's standard library.

    examples/serve_client.py WORK_DIR FILE LINE 'patched line' ['another patched line' ...]

prints, per patch, its verdict, the failing test if any, and how long the answer took.
"""
import itertools
import json
import subprocess
import sys
import time


class Patchval:
    """One `patchval serve` process over a work dir made by `patchval init`."""

    def __init__(self, work_dir, jobs=1, exe="patchval"):
        self.proc = subprocess.Popen(
            [exe, "serve", "--work-dir", work_dir, "-j", str(jobs)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ids = itertools.count(1)

    def request(self, **fields):
        """Sends one request; yields its response lines until the one that closes it."""
        rid = next(self.ids)
        self.proc.stdin.write(json.dumps({"id": rid, **fields}) + "\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            msg = json.loads(line)
            if msg.get("id") != rid:
                continue
            yield msg
            if msg["event"] in ("done", "error", "status", "shutdown", "cancelled"):
                return

    def patch(self, file, patched, line=None, unpatched=None):
        """The verdict of one patch: (verdict letter, the patch's line)."""
        req = {"op": "patch", "file": file, "patched": patched}
        if line is not None:
            req["line"] = line
        if unpatched is not None:
            req["unpatched"] = unpatched
        answer = None
        for msg in self.request(**req):
            if msg["event"] == "patch":
                answer = msg
            elif msg["event"] == "error":
                raise RuntimeError(msg["error"])
        return answer["verdict"], answer

    def close(self):
        list(self.request(op="shutdown"))
        self.proc.stdin.close()
        self.proc.wait()


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    work, file, line, patches = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    pv = Patchval(work)
    try:
        for p in patches:
            t = time.monotonic()
            verdict, msg = pv.patch(file, p, line=line)
            took = time.monotonic() - t
            print(f"{verdict}  {took:6.2f}s  {p.strip()}  {msg.get('test') or ''}")
    finally:
        pv.close()


if __name__ == "__main__":
    main()
