#!/usr/bin/env python3
"""Regenerate the selection fixture's patch sets and patches/expected.json, and verify every
expected verdict against each test run in a JVM of its own.

Usage:  python3 testdata/selection/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format, the manifest writer and the verifier are those of
testdata/soundness/make_patchsets.py (imported), with every test in a fresh JVM
(FORK_PER_TEST), as testdata/statics does: the reference for a selection of tests by
coverage is every test run from a fresh start, whatever ran before it.
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

PKG = "src/main/java/org/example/selection/"

# 1. A static method the enum's constructor calls while Tier is initialised. AccountTest, the
# first class to touch Tier, uses BRONZE (rank 1) only, where every patch gives 100; PlanTest
# and TierTest read the SILVER and GOLD limits that initialisation computed.
TIER_LIMIT = [
    ("return base * rank * rank;", "s"),
    ("return rank * rank * base;", "s"),
    ("return base * (rank * rank);", "s"),
    ("return (int) Math.pow(rank, 2) * base;", "s"),
    ("return base * rank * rank + (rank == 3 ? 1 : 0);", "F"),  # GOLD only
    ("return base * rank;", "F"),
    ("return base * rank * rank * rank;", "F"),
    ("return base * rank * ranks;", "C"),
]

# 2. Inside a lambda that byLength() creates; the static field BY_LENGTH holds one made by the
# static initialiser, which sorted() and shortest() run without calling byLength().
SORTING_LAMBDA = [
    ("return d != 0 ? d : a.compareTo(b);", "s"),
    ("return d == 0 ? a.compareTo(b) : d;", "s"),
    ("return d != 0 ? Integer.signum(d) : a.compareTo(b);", "s"),
    ("if (d != 0) {\n                return d;\n            }\n            return a.compareTo(b);", "s"),
    ("return d != 0 ? d : b.compareTo(a);", "F"),
    ("return d;", "F"),                            # ties keep their input order
    ("return d != 0 ? -d : a.compareTo(b);", "F"),
    ("return d != 0 ? d : a.compareTo(c);", "C"),
]

# 3a. In next() of an anonymous Iterator that stepping() returns and its callers run.
RANGES_NEXT = [
    ("cur += step;", "s"),
    ("cur = cur + step;", "s"),
    ("cur = v + step;", "s"),
    ("this.cur += step;", "s"),
    ("cur++;", "F"),                               # right for step 1 only
    ("cur += step + 1;", "F"),
    ("cur += step * step;", "F"),
    ("cur += stp;", "C"),
]

# 3b. In a method of a static nested class.
DURATION_TEXT = [
    ("return m + \":\" + (s < 10 ? \"0\" : \"\") + s;", "s"),
    ("return m + (s < 10 ? \":0\" : \":\") + s;", "s"),
    ("return String.format(\"%d:%02d\", m, s);", "s"),
    ("return m + \":\" + (s <= 9 ? \"0\" : \"\") + s;", "s"),
    ("return m + \":\" + s;", "F"),
    ("return m + \":\" + (s < 9 ? \"0\" : \"\") + s;", "F"),  # wrong for 9 seconds only
    ("return seconds + \":\" + (s < 10 ? \"0\" : \"\") + s;", "F"),
    ("return m + \":\" + (s < 10 ? \"0\" : \"\") + sec;", "C"),
]

# 3c. In a method of an inner (non-static) class that writes the outer instance's field.
CURSOR_NEXT = [
    ("pos = (pos + 1) % titles.size();", "s"),
    ("pos = pos + 1 == titles.size() ? 0 : pos + 1;", "s"),
    ("pos = (pos + 1) % Playlist.this.titles.size();", "s"),
    ("if (++pos == titles.size()) {\n                pos = 0;\n            }", "s"),
    ("pos = pos + 1;", "F"),                       # past the end when it wraps
    ("pos = (pos + 2) % titles.size();", "F"),
    ("pos = (pos + 1) % titles.size();\n            plays++;", "F"),  # only playsCounted sees it
    ("pos = (pos + 1) % titles.length;", "C"),
]

# 4. In format(int): MoneyTest calls format(int) with amounts no wrong patch changes, and the
# long overload, which does not delegate; MoneyTextTest reaches format(int) only through
# format(String), with the amounts that tell the wrong patches apart.
MONEY_FORMAT = [
    ("return sign + abs / 100 + \".\" + pad(abs % 100);", "s"),
    ("return sign + (abs / 100) + \".\" + pad(abs % 100);", "s"),
    ("return sign + abs / 100 + '.' + pad(abs % 100);", "s"),
    ("return sign + abs / 100 + \".\" + pad(abs - abs / 100 * 100);", "s"),
    ("return sign + abs / 100 + \".\" + abs % 100;", "F"),      # "12.5" for 1205
    ("return sign + cents / 100 + \".\" + pad(abs % 100);", "F"),  # "--2.50"
    ("return abs / 100 + \".\" + pad(abs % 100);", "F"),
    ("return sign + abs / 100 + \".\" + pad(abs % 100L);", "C"),   # no pad(long)
]

# 5. A private static method of Vault that only the static nested Builder calls (through a
# synthetic accessor, access$000, in release 8 class files).
VAULT_DIGEST = [
    ("h = h * 31 + e.length();", "s"),
    ("h = 31 * h + e.length();", "s"),
    ("h = (h << 5) - h + e.length();", "s"),
    ("h = h * 31 + e.toCharArray().length;", "s"),
    ("h = h * 31 + e.hashCode();", "F"),
    ("h = h + e.length();", "F"),                  # order-insensitive: ArchiveTest
    ("h = h * 37 + e.length();", "F"),
    ("h = h * 31 + e.size();", "C"),
]

# 6. A private method that only HooksTest calls, through getDeclaredMethod(..).invoke(..).
HOOKS_EVENT = [
    ("return name + \": \" + count + \" event\" + (count == 1 ? \"\" : \"s\");", "s"),
    ("return name + \": \" + count + (count == 1 ? \" event\" : \" events\");", "s"),
    ("return name + \": \" + count + \" event\" + (count != 1 ? \"s\" : \"\");", "s"),
    ("return String.format(\"%s: %d event%s\", name, count, count == 1 ? \"\" : \"s\");", "s"),
    ("return name + \": \" + count + \" events\";", "F"),
    ("return name + \": \" + count + \" event\" + (count > 1 ? \"s\" : \"\");", "F"),  # 0 events
    ("return name + \":\" + count + \" event\" + (count == 1 ? \"\" : \"s\");", "F"),
    ("return name + \": \" + cnt + \" event\" + (count == 1 ? \"\" : \"s\");", "C"),
]

# 7a. In a static initializer block. RatesTest, the first to initialise Rates, reads the low
# brackets; TaxTest and TopRateTest read what the block computed for the others.
RATES_STATIC_INIT = [
    ("PERCENT[i] = 10 + 5 * i;", "s"),
    ("PERCENT[i] = 5 * (i + 2);", "s"),
    ("PERCENT[i] = i * 5 + 10;", "s"),
    ("Rates.PERCENT[i] = 10 + 5 * i;", "s"),
    ("PERCENT[i] = 10 + 5 * i + (i == 4 ? 1 : 0);", "F"),  # the top bracket only
    ("PERCENT[i] = 10 * (i + 1);", "F"),
    ("PERCENT[i] = 10 + 5 * i++;", "F"),           # every second bracket stays 0
    ("PERCENT[i] = 10 + 5 * j;", "C"),
]

# 7b. An interface default method: Book inherits it, Gift overrides it (GiftTest never runs it),
# and only CartTest's 12 x 333 tells rounding before and after the discount apart.
PRICED_DEFAULT = [
    ("return quantity >= 10 ? unitCents() * quantity * 9 / 10 : unitCents() * quantity;", "s"),
    ("return unitCents() * quantity * (quantity >= 10 ? 9 : 10) / 10;", "s"),
    ("return quantity < 10 ? unitCents() * quantity : unitCents() * quantity * 9 / 10;", "s"),
    ("return quantity > 9 ? unitCents() * quantity * 9 / 10 : unitCents() * quantity;", "s"),
    ("return quantity > 10 ? unitCents() * quantity * 9 / 10 : unitCents() * quantity;", "F"),
    ("return quantity >= 10 ? unitCents() * quantity / 10 * 9 : unitCents() * quantity;", "F"),
    ("return unitCents() * quantity;", "F"),
    ("return quantity >= 10 ? unitCents() * quantity * 0.9 : unitCents() * quantity;", "C"),
]

# 11. The initialiser of an instance field (Cart.items), woven with the initialiser moved into
# a method of its own; `quantities` is declared after `items`, an illegal forward reference in
# an initialiser that a method would accept, so that patch is validated alone.
CART_ITEMS_INIT = [
    ("new ArrayList<>()", "s"),
    ("new ArrayList<Priced>()", "s"),
    ("new ArrayList<>(4)", "s"),
    ("new java.util.LinkedList<>()", "s"),
    ("new ArrayList<>(quantities)", "C"),          # illegal forward reference
    ("java.util.Collections.emptyList()", "F"),    # add() is unsupported
    ("null", "F"),
    ("new ArrayList<>(-1)", "F"),
    ("new java.util.HashSet<>()", "C"),
]

# 12. A statement of an instance initialiser block (Ledger), woven with the block's statement
# moved into an instance method of its own; `limit` is a blank final assigned by a constructor
# (read before its assignment in an initialiser, which javac refuses), and an initialiser may
# not `return`, where a method may.
LEDGER_BLOCK = [
    ('lines.add("open " + i);', "s"),
    ('lines.add("open ".concat(String.valueOf(i)));', "s"),
    ('this.lines.add("open " + i);', "s"),
    ('lines.add(i, "open " + i);', "s"),
    ('{ lines.add("open " + i); opening = -1; }', "s"),  # overwritten after the loop
    ('lines.add("open " + (i + 1));', "F"),
    ('lines.add("open" + i);', "F"),
    ('lines.add(0, "open " + i);', "F"),
    ('{ lines.add("open " + i); lines.add("x"); }', "F"),
    ('lines.add("open " + i + limit);', "C"),           # blank final read before assignment
    ('{ if (i > 5) return; lines.add("open " + i); }', "C"),  # return in an initialiser
    ('lines.add("open " + j);', "C"),
]

SETS = [
    ("tier_limit", PKG + "Tier.java", "static int limitFor(", "return base * rank * rank;", 0, TIER_LIMIT),
    ("sorting_lambda", PKG + "Sorting.java", "public static Comparator<String> byLength(",
     "return d != 0 ? d : a.compareTo(b);", 0, SORTING_LAMBDA),
    ("ranges_next", PKG + "Ranges.java", "public Integer next(", "cur += step;", 0, RANGES_NEXT),
    ("duration_text", PKG + "Playlist.java", "public String text(",
     "return m + \":\" + (s < 10 ? \"0\" : \"\") + s;", 0, DURATION_TEXT),
    ("cursor_next", PKG + "Playlist.java", "public String next(", "pos = (pos + 1) % titles.size();", 0,
     CURSOR_NEXT),
    ("money_format", PKG + "Money.java", "public static String format(int cents)",
     "return sign + abs / 100 + \".\" + pad(abs % 100);", 0, MONEY_FORMAT),
    ("vault_digest", PKG + "Vault.java", "static int digest(", "h = h * 31 + e.length();", 0, VAULT_DIGEST),
    ("hooks_event", PKG + "Hooks.java", "static String onEvent(",
     "return name + \": \" + count + \" event\" + (count == 1 ? \"\" : \"s\");", 0, HOOKS_EVENT),
    ("rates_static_init", PKG + "Rates.java", "static {", "PERCENT[i] = 10 + 5 * i;", 0, RATES_STATIC_INIT),
    ("priced_default", PKG + "Priced.java", "default int priceFor(",
     "return quantity >= 10 ? unitCents() * quantity * 9 / 10 : unitCents() * quantity;", 0,
     PRICED_DEFAULT),
    ("cart_items_init", PKG + "Cart.java", "List<Priced> items =", "new ArrayList<>()", 0,
     CART_ITEMS_INIT),
    ("ledger_block", PKG + "Ledger.java", "private int opening;", 'lines.add("open " + i);', 0,
     LEDGER_BLOCK),
]


def main():
    return sound.main_for(__doc__, "selection", HERE, SETS, fork_per_test=True)


if __name__ == "__main__":
    sys.exit(main())
