#!/usr/bin/env python3
"""Regenerate the log4j fixture's patch set and patches/expected.json, and verify every
expected verdict by plain validation.

Usage:  python3 testdata/log4j/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format, the manifest writer and the verifier are those of
testdata/soundness/make_patchsets.py (imported), with Log4j 2 from Debian on the
class path.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

_spec = importlib.util.spec_from_file_location(
    "soundness_make_patchsets", os.path.join(TESTDATA, "soundness", "make_patchsets.py"))
sound = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sound)

PKG = "src/main/java/org/example/log4j/"
LIBS = ["/usr/share/java/log4j-api.jar", "/usr/share/java/log4j-core.jar"]

# Logback's set (testdata/logback/make_patchsets.py), the same calls through Log4j's API, but
# for the patch that must not compile: Log4j has `info(Object)`, so `LOG.info(amount)` would.
_lb_spec = importlib.util.spec_from_file_location(
    "logback_make_patchsets", os.path.join(TESTDATA, "logback", "make_patchsets.py"))
logback = importlib.util.module_from_spec(_lb_spec)
_lb_spec.loader.exec_module(logback)

TOTAL_FEE = [p for p in logback.TOTAL_FEE if p[1] != "C"] + [
    ("LOG.inform(\"fee\");\n        fee = amount / 10;", "C"),
]

SETS = [
    ("total_fee", PKG + "Shop.java", "public static int total(", "fee = amount / 10;", 0, TOTAL_FEE),
]


def main():
    return sound.main_for(__doc__, "log4j", HERE, SETS, libs=LIBS)


if __name__ == "__main__":
    sys.exit(main())
