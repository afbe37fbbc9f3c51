# courtlearn: the two commands a newcomer needs are `make lab` and `make test`.
# Everything is set up from nothing but Python: a .venv, the package, Chromium.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
AXE    := build/axe/node_modules/axe-core/axe.min.js

.PHONY: lab test test-engine test-notebooks test-browser test-js notebooks chromium npm nginx student lite bench fuzz clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.lab: pyproject.toml | $(VENV)/bin/python
	$(PIP) install --quiet -e '.[lab]'
	touch $@

$(VENV)/.test: pyproject.toml | $(VENV)/bin/python
	$(PIP) install --quiet -e '.[test]'
	@# the JupyterLite site is built in build/lite-env: its extensions must not load in this lab
	$(PIP) uninstall --quiet -y jupyterlite-pyodide-kernel jupyterlite-core 2>/dev/null || true
	touch $@ $(VENV)/.lab

## make lab: install with [lab] and open JupyterLab at the first lesson
# (as root, e.g. in a container, Jupyter needs --allow-root to start at all)
# JupyterLab keeps the widgets of a run in the saved notebook (saveState), so a lesson reopened
# with a new kernel shows its tables instead of "widget model not found"
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/courtlearn.json
$(LAB_OVERRIDES): scripts/jupyterlab_overrides.json | $(VENV)/bin/python
	mkdir -p $(dir $@) && cp $< $@

lab: $(VENV)/.lab $(LAB_OVERRIDES)
	$(VENV)/bin/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) notebooks/00_start_here.ipynb

## Chromium for the browser tests (Debian package; never a downloaded browser)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## nginx for the https tests of the class server (tests/test_classroom_proxy.py and
## tests/browser/test_class_https.py; Debian's)
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  echo "installing Debian's nginx for the class server's https test"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null 2>&1 || \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }

## npm, for the JupyterLite site build (Pyodide comes from the npm registry)
npm:
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian's npm for the JupyterLite build"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }

## make test: the whole suite (engine, widgets, notebooks, browser, binder, wheel, JupyterLite)
# (the browser and JupyterLite tests each drive their own Playwright: separate runs)
test: $(VENV)/.test chromium npm nginx build/hub/node_modules/.bin/configurable-http-proxy $(AXE)
	$(PY) -m pytest tests -p no:cacheprovider --ignore=tests/browser --ignore=tests/test_lite.py
	$(MAKE) --no-print-directory test-js
	$(PY) -m pytest tests/browser -p no:cacheprovider
	$(PY) -m pytest tests/test_lite.py -p no:cacheprovider
	$(MAKE) --no-print-directory student
	$(PY) -m pytest -p no:cacheprovider --nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg notebooks exercises
	$(PY) -m pytest -p no:cacheprovider --nbval-lax --nbval-current-env build/student

## quicker loops while developing
test-engine: $(VENV)/.test
	$(PY) -m pytest tests -m "not browser and not slow" -p no:cacheprovider \
	  --ignore=tests/browser --ignore=tests/test_lite.py

test-notebooks: $(VENV)/.test
	$(PY) -m pytest -p no:cacheprovider --nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg notebooks exercises

test-browser: $(VENV)/.test chromium nginx build/hub/node_modules/.bin/configurable-http-proxy $(AXE)
	$(PY) -m pytest tests/browser -p no:cacheprovider

## configurable-http-proxy (npm): the JupyterHub that tests/browser/test_hub.py runs the
## class server under needs its proxy (installed in build/hub, never globally)
## axe-core (npm, a pinned version): the accessibility checks the browser tests run on every
## page (tests/browser/test_axe.py); installed in build/axe, never globally
$(AXE): | npm
	mkdir -p build/axe && echo '{"private": true}' > build/axe/package.json
	cd build/axe && npm install --no-audit --no-fund --loglevel=error axe-core@4.14.1
	touch $@

build/hub/node_modules/.bin/configurable-http-proxy: | npm
	mkdir -p build/hub && echo '{"private": true}' > build/hub/package.json
	cd build/hub && npm install --no-audit --no-fund --loglevel=error configurable-http-proxy@5
	touch $@

## fast tests of the table's page (table.js) with Node's test runner, jsdom and a fake model
build/js/node_modules/jsdom: tests/js/package.json | npm
	mkdir -p build/js && cp tests/js/package.json build/js/package.json
	cd build/js && npm install --no-audit --no-fund --loglevel=error
	touch $@

test-js: $(VENV)/.test build/js/node_modules/jsdom
	$(PY) tests/js/make_fixtures.py build/js/fixtures.json
	node --test tests/js/

## rebuild every lesson and exercise from its text source (notebooks/.text, exercises/.text)
notebooks: $(VENV)/.test
	$(PY) scripts/build_notebooks.py

## student copies of the exercises (solutions removed) in build/student/
student: $(VENV)/.test
	$(PY) scripts/make_student.py exercises build/student

## a static JupyterLite site of the lessons in build/lite/
lite: npm
	bash scripts/build_lite.sh build/lite

## make fuzz: the fuzz and no-leak harness (tests/test_fuzz.py, tests/test_noleak.py) in its
## long "soak" profile (random, not derandomized), round after round until FUZZ_MINUTES are up
## (default 60; a round takes about a quarter of an hour and the last one finishes). Each
## round's log is build/fuzz/round-N.log; the step counts are summed at the end.
FUZZ_MINUTES ?= 60
fuzz: $(VENV)/.test
	@mkdir -p build/fuzz && rm -f build/fuzz/steps.jsonl build/fuzz/round-*.log
	@end=$$(( $$(date +%s) + $(FUZZ_MINUTES) * 60 )); round=0; status=0; \
	while [ $$(date +%s) -lt $$end ]; do \
	  round=$$((round + 1)); log=build/fuzz/round-$$round.log; \
	  echo "fuzz round $$round: $$log"; \
	  COURTLEARN_HYPOTHESIS_PROFILE=soak COURTLEARN_FUZZ_STATS=build/fuzz/steps.jsonl \
	    timeout 7200 $(PY) -m pytest tests/test_fuzz.py tests/test_noleak.py -p no:cacheprovider \
	    -q -rfE > $$log 2>&1 || status=1; \
	  grep -E "^(FAILED|ERROR) |[0-9]+ (passed|failed)" $$log | cut -c1-200; \
	done; \
	echo "fuzz: $$round rounds in $(FUZZ_MINUTES)+ minutes"; \
	$(PY) tests/fuzz_support.py steps build/fuzz/steps.jsonl; exit $$status

## benchmarks (not tests); figures go into the issue notes
bench: $(VENV)/.test
	$(PY) bench/engine_speed.py

clean:
	rm -rf build dist .pytest_cache
