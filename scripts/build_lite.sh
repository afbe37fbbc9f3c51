#!/bin/bash
# Build courtlearn's JupyterLite site: every lesson and exercise running in the
# learner's browser (Python in WebAssembly), servable from any static host.
#
# usage: bash scripts/build_lite.sh [OUT]        (default build/lite; `make lite`)
#
# Needs: python3, npm, and PyPI + the npm registry at build time. The build runs in
# its own environment, build/lite-env (made here from scripts/lite/requirements.txt
# on first use), never in the .venv that `make lab` opens: JupyterLite's extensions
# installed there would break that JupyterLab ("Shared module @jupyterlite/services
# doesn't exist in shared scope default" on every page).  Nothing at run time:
# the site holds the Pyodide core (npm `pyodide`), the wheels the kernel loads at
# start, courtlearn's wheel and its widget stack.  Only compiled extras a lesson
# may ask for (pandas, matplotlib) come from the Pyodide CDN, when reachable.
# Downloads are cached in build/lite-cache/; OUT.work/ is the staging folder.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-build/lite}
case "$OUT" in /*) ;; *) OUT="$ROOT/$OUT" ;; esac
ENV=$ROOT/build/lite-env                 # the build's own Python environment
PY=${PYTHON:-$ENV/bin/python}
CACHE=$ROOT/build/lite-cache            # downloads, shared by every build
WORK="${OUT%/}.work"                     # this build's staging: src/, dist/, student/, logs
SRC=$WORK/src

say() { printf '[build_lite] %s\n' "$*"; }
REQS=$ROOT/scripts/lite/requirements.txt
if [ -z "${PYTHON:-}" ] && ! cmp -s "$REQS" "$ENV/requirements.txt"; then
  say "making the build environment $ENV"
  rm -rf "$ENV"
  "${BASE_PYTHON:-python3}" -m venv "$ENV"
  mkdir -p "$ROOT/build"
  "$ENV/bin/python" -m pip install --quiet -r "$REQS" >"$ROOT/build/lite-env.log" 2>&1 || {
    grep -v -i ignored "$ROOT/build/lite-env.log" >&2; exit 1; }
  cp "$REQS" "$ENV/requirements.txt"
fi
"$PY" -c "import jupyterlite_core, jupyterlite_pyodide_kernel, build, anywidget" 2>/dev/null || {
  echo "build_lite: $PY lacks the packages of $REQS" >&2; exit 1; }
# the widget stack for the browser's Python: the very versions whose JupyterLab
# extensions (anywidget, @jupyter-widgets) the site is built with, from $PY's env
WIDGET_STACK=$("$PY" -c "import importlib.metadata as m; print(' '.join(f'{n}=={m.version(n)}' for n in
  ['anywidget', 'ipywidgets', 'jupyterlab_widgets', 'psygnal', 'comm']))") || {
  echo "build_lite: $PY lacks the widget stack; run: make .venv/.test" >&2; exit 1; }
command -v npm >/dev/null || { echo "build_lite: npm is needed to fetch the Pyodide core" >&2; exit 1; }

rm -rf "$WORK" && mkdir -p "$SRC"/{static/pyodide,pypi,files} "$CACHE"/wheels

# 1. courtlearn's own wheel, built from this checkout
say "building the courtlearn wheel"
"$PY" -m build --wheel --outdir "$WORK/dist" "$ROOT" >"$WORK/build-wheel.log" 2>&1 || {
  cat "$WORK/build-wheel.log" >&2; exit 1; }
cp "$WORK"/dist/courtlearn-*-py3-none-any.whl "$SRC/pypi/"

# 2. the Pyodide core from npm, the version the kernel was built for
PYODIDE_VERSION=$("$PY" -c "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)")
TGZ="$CACHE/pyodide-$PYODIDE_VERSION.tgz"
if [ ! -s "$TGZ" ]; then
  say "fetching pyodide@$PYODIDE_VERSION from npm"
  (cd "$WORK" && npm pack --silent "pyodide@$PYODIDE_VERSION" >/dev/null)
  mv "$WORK/pyodide-$PYODIDE_VERSION.tgz" "$TGZ"
fi
tar xzf "$TGZ" -C "$SRC" package/{pyodide.mjs,pyodide.asm.mjs,pyodide.asm.wasm,python_stdlib.zip,pyodide-lock.json,package.json}
mv "$SRC"/package/* "$SRC/static/pyodide/" && rmdir "$SRC/package"

# 3. piplite wheels: the widget stack (pure Python, for the browser's Python)
say "fetching the widget stack: $WIDGET_STACK"
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.14 --platform any \
  --implementation py --abi none -d "$CACHE/wheels" $WIDGET_STACK 2>&1 | grep -v -i ignored || true
for spec in $WIDGET_STACK; do
  name=${spec%%==*}; version=${spec##*==}
  cp "$CACHE"/wheels/"${name}"-"${version}"-*.whl "$SRC/pypi/" 2>/dev/null \
    || cp "$CACHE"/wheels/"${name//-/_}"-"${version}"-*.whl "$SRC/pypi/"
done

# 4. the lock: start-up wheels local, courtlearn + widgets listed, the rest on the CDN
say "rewriting pyodide-lock.json"
"$PY" "$ROOT/scripts/localize_lock.py" "$SRC/static/pyodide" --version "$PYODIDE_VERSION" \
  --wheel-cache "$CACHE/wheels" \
  --local micropip ipython jedi typing-extensions \
  --add "$SRC"/pypi/{courtlearn,anywidget,ipywidgets,jupyterlab_widgets,psygnal}-*.whl \
  --add-prefix ../../pypi/ \
  --depends courtlearn=anywidget,ipywidgets

# 5. the lessons and exercises (student copies when the script to make them exists)
say "copying lessons and exercises"
copy_notebooks() {  # SRC_DIR DEST_DIR: notebooks and their assets; no checkpoints, no text sources
  [ -d "$1" ] || return 0
  mkdir -p "$2"
  (cd "$1" && find . \( -path '*/.ipynb_checkpoints' -o -path './.text' \) -prune -o -type f -print0 \
     | xargs -0 -r cp --parents -t "$2")
}
copy_notebooks "$ROOT/notebooks" "$SRC/files/notebooks"
if [ -f "$ROOT/scripts/make_student.py" ] && compgen -G "$ROOT/exercises/*.ipynb" >/dev/null; then
  "$PY" "$ROOT/scripts/make_student.py" "$ROOT/exercises" "$WORK/student" >"$WORK/student.log"
  copy_notebooks "$WORK/student" "$SRC/files/exercises"
else
  copy_notebooks "$ROOT/exercises" "$SRC/files/exercises"
fi
for extra in ${LITE_EXTRA_FILES:-}; do cp "$extra" "$SRC/files/"; done   # tests add a notebook here
"$PY" "$ROOT/scripts/lite/prepare_notebooks.py" "$SRC/files"
cp "$ROOT"/scripts/lite/jupyter-lite.json "$ROOT"/scripts/lite/jupyter_lite_config.json "$SRC/"

# 6. build
say "jupyter lite build -> $OUT"
rm -rf "$OUT"
(cd "$SRC" && "$PY" -m jupyterlite_core build --output-dir "$OUT" >"$WORK/lite-build.log" 2>&1) || {
  tail -40 "$WORK/lite-build.log" >&2; exit 1; }

# 7. the site's address opens lesson 00. Only the root page's own script changes:
# the pages below still read its jupyter-config-data, which stays as it was.
START=notebooks/00_start_here.ipynb
if [ -f "$SRC/files/$START" ]; then
  "$PY" - "$OUT/index.html" "lab/index.html?path=$START" <<'PYEOF'
import sys, pathlib
page, target = pathlib.Path(sys.argv[1]), sys.argv[2]
old = "await import('./config-utils.js');"
text = page.read_text()
assert text.count(old) == 1, "JupyterLite's root index.html changed: update build_lite.sh step 7"
page.write_text(text.replace(old, f"window.location.replace({target!r});"))
PYEOF
fi

# the browser asks every page's folder for favicon.ico; JupyterLite ships it in only
# some of them, and a 404 is a console error on the learner's page
for dir in "$OUT" "$OUT"/*/; do
  [ -f "$dir/index.html" ] && [ ! -f "$dir/favicon.ico" ] && cp "$OUT/static/favicons/favicon.ico" "$dir/"
done

touch "$OUT/.nojekyll"     # GitHub Pages: publish every file as it is

say "done: $(du -sh "$OUT" | cut -f1) in $OUT"
say "try it: python -m http.server -b 127.0.0.1 -d $OUT 8000, then open http://127.0.0.1:8000/"
