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

# Logging calls whose events Log4j locates by their caller's frame: under plain validation
# `total`, in a woven patch its isolation unit.
TOTAL_FEE = [
    ("fee = amount / 10;", "s"),
    ("LOG.info(\"fee for {}\", amount);\n        fee = amount / 10;", "s"),
    ("fee = amount / 10;\n        LOG.debug(\"fee {}\", fee);", "s"),
    ("if (amount > 0) {\n            LOG.warn(\"charging\");\n        }\n        fee = amount / 10;", "s"),
    ("fee = (amount + 0) / 10;", "s"),
    ("LOG.info(\"fee\");\n        fee = amount / 9;", "F"),
    # Logged from a lambda: Log4j names `lambda$total$0`, and the test sees it.
    ("((Runnable) () -> LOG.info(\"in a lambda\")).run();\n        fee = amount / 10;", "F"),
    ("fee = amount / 10 + 1;", "F"),
    ("LOG.inform(\"fee\");\n        fee = amount / 10;", "C"),
]

SETS = [
    ("total_fee", PKG + "Shop.java", "public static int total(", "fee = amount / 10;", 0, TOTAL_FEE),
]


def main():
    return sound.main_for(__doc__, "log4j", HERE, SETS, libs=LIBS)


if __name__ == "__main__":
    sys.exit(main())
