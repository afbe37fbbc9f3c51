"""Rewrite a Pyodide distribution's pyodide-lock.json for a self-contained JupyterLite site.

usage:
  python scripts/localize_lock.py DIST --version 314.0.6 \
      --local micropip ipython jedi typing-extensions \
      --wheel-cache build/lite-cache/wheels \
      --add SITE/pypi/courtlearn-0.1.0-py3-none-any.whl ... --add-prefix ../../pypi/ \
      --depends courtlearn=anywidget,ipywidgets

DIST is the folder holding pyodide-lock.json (the npm `pyodide` core, which has
the interpreter but none of the package wheels).  Three rewrites:

1. --local NAMES: for these packages and everything they depend on in the lock,
   fetch the *same version* pure-Python wheel from PyPI, put it in DIST and
   point the lock entry at it (file_name + sha256).  These are what the kernel
   loads at start, so the site starts with no network at all.
2. --add WHEELS: give these wheels (already in the site, e.g. in pypi/) their
   own lock entries, with file_name relative to DIST (--add-prefix) and their
   dependencies taken from the wheel metadata (plus --depends NAME=DEP,DEP).
   micropip installs a package listed in the lock from the lock, dependencies
   included, so `piplite.install("courtlearn")` brings the widget stack along.
   Pure-Python dependencies found in the lock are made local as in 1; compiled
   ones (numpy, ...) are left out of `depends`, since fetching them offline
   would fail the whole install.
3. Every other entry (pandas, numpy, matplotlib, ...) gets an absolute URL on
   the Pyodide CDN: a lesson that needs pandas works wherever the browser can
   reach the CDN, and nothing else is ever fetched from outside the site.
"""
from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"
# installed by the kernel itself at start (from piplite), never through the lock
KERNEL_OWNED = {"comm", "ipykernel", "pyodide-kernel", "piplite", "widgetsnbextension"}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(packages: dict, roots: list[str]) -> list[str]:
    byname = {norm(k): k for k in packages}
    missing = [r for r in roots if norm(r) not in byname]
    if missing:
        sys.exit(f"not in the lock: {missing}")
    seen: list[str] = []
    todo = [byname[norm(r)] for r in roots]
    while todo:
        key = todo.pop()
        if key not in seen:
            seen.append(key)
            todo += [byname[norm(d)] for d in packages[key]["depends"]]
    return sorted(seen)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def localize(dist: Path, packages: dict, roots: list[str], cache: Path) -> None:
    names = closure(packages, roots)
    specs = [f"{packages[n]['name']}=={packages[n]['version']}" for n in names]
    cache.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
         "--python-version", "3.14", "--platform", "any", "--implementation", "py",
         "--abi", "none", "-d", str(cache), *specs], capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"pip download failed:\n{proc.stderr[-3000:]}")
    for n in names:
        entry = packages[n]
        want = f"{norm(entry['name'])}-{entry['version']}"
        found = [w for w in cache.glob("*.whl")
                 if norm(w.name.split("-")[0]) + "-" + w.name.split("-")[1] == want]
        if not found:
            sys.exit(f"no pure-Python wheel for {entry['name']}=={entry['version']} in {cache}")
        whl = found[0]
        shutil.copy2(whl, dist / whl.name)
        entry["file_name"] = whl.name
        entry["sha256"] = sha256(whl)
        print(f"  local  {entry['name']:22} {whl.name}")


def wheel_metadata(whl: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, required names (no extras), top-level import names)"""
    with zipfile.ZipFile(whl) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode())
        tops = set()
        for n in z.namelist():
            first = n.split("/")[0]
            if first.endswith((".dist-info", ".data")):
                continue
            if "/" in n:
                tops.add(first)
            elif n.endswith(".py"):
                tops.add(n[:-3])
    requires = []
    for req in meta.get_all("Requires-Dist") or []:
        if "extra ==" in req or "extra==" in req:
            continue
        requires.append(norm(re.match(r"[A-Za-z0-9_.\-]+", req.strip()).group(0)))
    return meta["Name"], meta["Version"], requires, sorted(tops)


def read_wheels(wheels: list[Path], extra: dict[str, list[str]]) -> dict:
    infos = {}
    for whl in wheels:
        name, version, requires, imports = wheel_metadata(whl)
        infos[norm(name)] = (whl, name, version, requires + extra.get(norm(name), []), imports)
    return infos


def pure_requirements(packages: dict, infos: dict) -> list[str]:
    """Lock packages the added wheels need that are pure Python: made local too."""
    byname = {norm(k): k for k in packages}
    return sorted({byname[d] for (_, _, _, requires, _) in infos.values() for d in requires
                   if d in byname and d not in infos and d not in KERNEL_OWNED
                   and packages[byname[d]]["file_name"].endswith("-none-any.whl")})


def add_wheels(dist: Path, packages: dict, infos: dict, prefix: str) -> None:
    byname = {norm(k): k for k in packages}
    for key, (whl, name, version, requires, imports) in infos.items():
        local, skipped = [], []
        for d in sorted(set(requires)):
            if d in infos or (d in byname and (dist / packages[byname[d]]["file_name"]).is_file()
                              and d not in KERNEL_OWNED):
                local.append(byname.get(d, d))
            else:
                skipped.append(d)
        packages.pop(byname.get(key, key), None)
        packages[key] = {
            "name": name, "version": version, "file_name": prefix + whl.name,
            "install_dir": "site", "sha256": sha256(whl), "package_type": "package",
            "imports": imports, "depends": local,
            "unvendored_tests": False, "shared_library": False,
        }
        # a dependency only the CDN has would make the install fail offline: the
        # kernel, piplite or the learner's own import (online) provide those
        print(f"  added  {name:22} depends {local}" + (f" (not via the lock: {skipped})" if skipped else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dist", type=Path)
    ap.add_argument("--version", required=True, help="Pyodide version, for the CDN URLs")
    ap.add_argument("--local", nargs="*", default=[])
    ap.add_argument("--wheel-cache", type=Path, required=True)
    ap.add_argument("--add", nargs="*", type=Path, default=[])
    ap.add_argument("--add-prefix", default="")
    ap.add_argument("--depends", nargs="*", default=[], metavar="NAME=DEP,DEP")
    args = ap.parse_args()

    lock_path = args.dist / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    packages = lock["packages"]
    extra = {}
    for item in args.depends:
        name, _, deps = item.partition("=")
        extra[norm(name)] = [norm(d) for d in deps.split(",") if d]
    infos = read_wheels(args.add, extra)
    localize(args.dist, packages, args.local + pure_requirements(packages, infos), args.wheel_cache)
    add_wheels(args.dist, packages, infos, args.add_prefix)
    cdn = CDN.format(version=args.version)
    remote = 0
    for entry in packages.values():
        fn = entry["file_name"]
        is_local = (args.dist / fn).is_file()
        if not is_local and not re.match(r"https?://", fn):
            entry["file_name"] = cdn + fn
            remote += 1
    print(f"  {remote} other packages point at {cdn}")
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
