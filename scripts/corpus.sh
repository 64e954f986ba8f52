#!/usr/bin/env bash
# Prepares the real-project corpus (corpus/README.md): downloads Debian *source* packages of real
# Java projects into a cache outside the repository, unpacks them, installs the Debian binary
# packages their tests need, copies corpus/<name>.toml in as patchval.toml, applies the recorded
# environment edits and the seeded bug (exact text replacements that must match exactly once), and
# writes each project's patch set (ExpressAPR manifest v3) from corpus/<name>.json.
# It builds nothing: `patchval init` compiles and runs everything (tests/corpus.rs).
#
#   scripts/corpus.sh [--all] [--no-install|--install-only] [NAME...]   NAME: corpus/NAME.json
#   PATCHVAL_CORPUS=/path/to/cache scripts/corpus.sh
#
# Without NAMEs: the default tier, every corpus/NAME.json without a top-level "tier": "all" (the
# projects CI runs); with --all, every project. NAMEs given are prepared whatever their tier.
# --install-only: only the steps needing root (the deb-src entry, apt-get install of the projects'
# test dependencies); scripts/setup.sh runs it. --no-install: only download, unpack and seed (no
# root needed once the deb-src entry exists); scripts/test.sh runs it.
#
# Layout of the cache ($PATCHVAL_CORPUS, default ~/.cache/patchval-corpus):
#   dl/                    the downloaded .dsc/.orig.tar.*/.debian.tar.* files
#   src/NAME/              the unpacked project with patchval.toml, edits and the seeded bug
#   patches/NAME.json      its patch set; patches/NAME.expected its expected verdicts
#   patches/NAME.stamp     a hash of what plain's verdicts depend on (version, toml, edits, bug,
#                          patches); patches/NAME.plain the stamp and verdicts plain last gave
#                          (corpus/NAME.json's "plain_checked", written by scripts/corpus-plain.sh)
#   READY                  the names prepared (tests/corpus.rs runs the ones listed)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}
install=1
prepare=1
all=0
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0; shift ;;
    --install-only) prepare=0; shift ;;
    --all) all=1; shift ;;
    *) break ;;
  esac
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
command -v python3 >/dev/null || { echo "corpus.sh: python3 is needed" >&2; exit 1; }

field() { # field FILE KEY  -> a top-level string field, or the list joined by spaces
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2], ""); print(" ".join(v) if isinstance(v, list) else v)' "$1" "$2"
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  # The default tier leaves out the projects marked "tier": "all" (too slow for CI's time budget).
  for f in "$repo"/corpus/*.json; do
    [ $all -eq 1 ] || [ "$(field "$f" tier)" != "all" ] || continue
    names+=("$(basename "$f" .json)")
  done
fi

# 1. A deb-src entry mirroring the system's deb entries, then the package lists.
srclist=/etc/apt/sources.list.d/patchval-deb-src.sources
if ! apt-get source --print-uris commons-math >/dev/null 2>&1; then
  if [ $install -eq 0 ]; then
    echo "corpus.sh: apt has no deb-src entry; run scripts/setup.sh (or scripts/corpus.sh --install-only) as root first" >&2
    exit 1
  fi
  echo "== adding $srclist (deb-src copy of the system's Debian sources)" >&2
  tmp=$(mktemp)
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    # deb822: copy every stanza whose Types has deb, as Types: deb-src.
    cat /etc/apt/sources.list.d/*.sources | sed -E 's/^Types:.*\bdeb\b.*/Types: deb-src/' >"$tmp"
  elif [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed -E 's/^deb /deb-src /' >"$tmp"
    srclist=/etc/apt/sources.list.d/patchval-deb-src.list
  else
    echo "corpus.sh: no Debian source list found in /etc/apt" >&2; exit 1
  fi
  $sudo install -m 644 "$tmp" "$srclist"
  rm -f "$tmp"
  $sudo apt-get update -qq
fi

# 2. The Debian binary packages the projects' tests need (and JUnit 4 for patchval itself).
if [ $install -eq 1 ]; then
  deps=(dpkg-dev junit4 libhamcrest-java)
  for n in "${names[@]}"; do read -r -a d <<<"$(field "$repo/corpus/$n.json" deps)"; deps+=("${d[@]}"); done
  read -r -a deps <<<"$(printf '%s\n' "${deps[@]}" | sort -u | tr '\n' ' ')"
  missing=()
  for d in "${deps[@]}"; do
    dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" || missing+=("$d")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== apt-get install ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
  fi
fi
[ $prepare -eq 1 ] || exit 0
command -v dpkg-source >/dev/null || { echo "corpus.sh: dpkg-source is needed (apt-get install dpkg-dev)" >&2; exit 1; }

mkdir -p "$cache/dl" "$cache/src" "$cache/patches"
ready=()
for n in "${names[@]}"; do
  spec="$repo/corpus/$n.json"
  [ -f "$spec" ] || { echo "corpus.sh: no $spec" >&2; exit 2; }
  pkg=$(field "$spec" source_package)
  version=$(field "$spec" version)
  echo "== $n: Debian source package $pkg $version" >&2
  # 3. Download (once) and unpack afresh, so edits always apply to pristine text.
  dsc="$cache/dl/${pkg}_${version#*:}.dsc"
  if [ ! -f "$dsc" ]; then
    (cd "$cache/dl" && apt-get source --download-only "$pkg=$version" >&2) || true
  fi
  [ -f "$dsc" ] || { echo "corpus.sh: could not download $pkg $version" >&2; exit 1; }
  dest="$cache/src/$n"
  rm -rf "$dest"
  # dpkg-source needs every file the .dsc lists; some mirrors lack a package's .debian.tar.* (a 404
  # on apt-get source), and then the upstream tarball is unpacked alone: Debian's patches touch
  # only the build (pom.xml, debian/) for these projects.
  debian_part=$(ls "$cache/dl/${pkg}_${version#*:}".debian.tar.* 2>/dev/null | head -1 || true)
  if [ -z "$debian_part" ] || ! (cd "$cache/dl" && dpkg-source --no-check -x "$(basename "$dsc")" "$dest" >&2); then
    orig=$(ls "$cache/dl/${pkg}_${version%-*}".orig.tar.* 2>/dev/null | head -1)
    [ -n "$orig" ] || { echo "corpus.sh: neither dpkg-source -x nor an orig tarball for $pkg" >&2; exit 1; }
    echo "corpus.sh: WARNING: $pkg: Debian part missing, unpacking $(basename "$orig") without Debian patches" >&2
    rm -rf "$dest" "$dest.tmp"; mkdir -p "$dest.tmp"
    tar -xf "$orig" -C "$dest.tmp"
    top=("$dest.tmp"/*)
    [ ${#top[@]} -eq 1 ] && [ -d "${top[0]}" ] || { echo "corpus.sh: $orig has no single top directory" >&2; exit 1; }
    mv "${top[0]}" "$dest"; rmdir "$dest.tmp"
  fi
  # dpkg-source's links beside $dest, and the temporary directories of an extract interrupted
  # earlier (named after the tarball), which would fail a plain `rm -f`.
  rm -rf "$cache/src"/*.orig.tar.* "$cache/src"/*.debian.tar.*
  if [ "$(field "$spec" ready)" = "False" ]; then
    echo "== $n: unpacked in $dest; not ready for patchval: $(field "$spec" blocked)" >&2
    continue
  fi
  cp "$repo/corpus/$n.toml" "$dest/patchval.toml"
  # 4. Environment edits, the seeded bug, and the patch set (context from the buggy file).
  python3 - "$spec" "$dest" "$cache/patches" "$n" <<'PY'
import hashlib, json, sys, os
spec_path, root, out_dir, name = sys.argv[1:]
spec = json.load(open(spec_path))

def replace_once(edit, what):
    # "count": N in an edit replaces every one of exactly N occurrences (a name renamed throughout
    # a file); without it the text must occur exactly once.
    path = os.path.join(root, edit["file"])
    text = open(path, encoding="utf-8").read()
    count = text.count(edit["find"])
    expected = edit.get("count", 1)
    if count != expected:
        sys.exit(f"corpus.sh: {name}: {what}: the text to replace occurs {count} times (not {expected}) in {edit['file']}:\n{edit['find']}")
    # ${PROJECT} in a replacement: the unpacked project's absolute path (for tests that read files
    # relative to the working directory, which under patchval is not the project root).
    replacement = edit["replace"].replace("${PROJECT}", os.path.abspath(root))
    open(path, "w", encoding="utf-8").write(text.replace(edit["find"], replacement))
    print(f"   {what}: {edit['file']}: {edit.get('why', '')}", file=sys.stderr)

for e in spec.get("edits", []):
    replace_once(e, "environment edit")
bug = spec["bug"]
replace_once(bug, "seeded bug")
ps = spec["patch_set"]
buggy = open(os.path.join(root, bug["file"]), encoding="utf-8").read()
unpatched = ps["unpatched"]
count = buggy.count(unpatched)
if count != 1:
    sys.exit(f"corpus.sh: {name}: the unpatched text occurs {count} times in the buggy {bug['file']}: {unpatched!r}")
at = buggy.index(unpatched)
if len(ps["patches"]) != len(ps["expected"]):
    sys.exit(f"corpus.sh: {name}: {len(ps['patches'])} patches but {len(ps['expected'])} expected verdicts")
manifest = {
    "manifest_version": 3,
    "interface": "local",
    "bug": f"{name}-seeded",
    "filename": bug["file"],
    "context_above": buggy[:at],
    "unpatched": unpatched,
    "context_below": buggy[at + len(unpatched):],
    "patches": ps["patches"],
}
with open(os.path.join(out_dir, name + ".json"), "w", encoding="utf-8") as f:
    json.dump(manifest, f, indent=1)
with open(os.path.join(out_dir, name + ".expected"), "w") as f:
    f.write(ps["expected"] + "\n")
# What plain's verdicts depend on, hashed: the package and version, patchval.toml, the edits, the
# seeded bug and the patches. scripts/corpus-plain.sh records it with plain's verdicts as
# "plain_checked"; tests/corpus.rs compares the two (NAME.stamp against NAME.plain).
with open(os.path.join(os.path.dirname(spec_path), name + ".toml"), encoding="utf-8") as f:
    toml = f.read()
basis = {k: spec.get(k) for k in ("source_package", "version", "edits", "bug")}
basis.update(unpatched=unpatched, patches=ps["patches"], toml=toml)
stamp = hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()[:16]
with open(os.path.join(out_dir, name + ".stamp"), "w") as f:
    f.write(stamp + "\n")
checked = spec.get("plain_checked") or {}
with open(os.path.join(out_dir, name + ".plain"), "w") as f:
    f.write(f"{checked.get('stamp', '')} {checked.get('verdicts', '')}\n")
print(f"   patch set: {len(ps['patches'])} patches, expected {ps['expected']}; stamp {stamp}, "
      f"plain checked {checked.get('stamp', 'never')}", file=sys.stderr)
PY
  ready+=("$n")
done
# READY lists every prepared project (merged with earlier runs of a subset).
touch "$cache/READY"
printf '%s\n' "${ready[@]}" | cat - "$cache/READY" | sort -u | grep -v '^$' >"$cache/READY.tmp" || true
mv "$cache/READY.tmp" "$cache/READY"
echo "== corpus ready in $cache: $(tr '\n' ' ' <"$cache/READY")" >&2
echo "   run it: PATCHVAL_CORPUS=$cache cargo nextest run --test corpus --no-capture" >&2
