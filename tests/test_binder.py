"""The Binder set-up (binder/), checked here without Docker.

1. repo2docker's dry run (`--no-build`) accepts the configuration: Python 3.12,
   and a Dockerfile that installs binder/requirements.txt from the repository
   root after the whole repository is copied (`.` in it is this package).
2. A fresh Python 3.12 virtual environment made from binder/requirements.txt
   (plus pytest and nbval, nothing else) installs cleanly (`pip check`) and
   runs every lesson notebook with nbval (lax: the main suite compares outputs
   exactly; this checks that Binder's environment runs them).

The environment lives in build/binder-env (rebuilt when the requirements
change); pip's cache in build/pip-cache. Nothing is cached outside build/.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
REQS = BINDER / "requirements.txt"
ENV = ROOT / "build" / "binder-env"
PY312 = [os.environ.get("COURTLEARN_PY312", ""), shutil.which("python3.12") or "",
         *sorted(str(p) for p in Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
                 .glob("versions/3.12*/bin/python"))]

pytestmark = pytest.mark.slow


def requirement_lines() -> list[str]:
    lines = [line.split("#")[0].strip() for line in REQS.read_text().splitlines()]
    return [line for line in lines if line]


# ---------------------------------------------------------------- the files
def test_runtime_is_python_312():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"


def test_requirements_pinned_exactly_and_package_last():
    reqs = requirement_lines()
    assert reqs[-1] == ".", "the package itself (`.`) must come last"
    pinned = {}
    for r in reqs[:-1]:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\d[\w.]*)", r)
        assert m, f"not pinned exactly: {r!r}"
        pinned[re.sub(r"[-_.]+", "-", m.group(1)).lower()] = m.group(2)
    # what the lessons use, with notebook pinned beside jupyterlab
    for name in ["jupyterlab", "notebook", "ipywidgets", "anywidget", "pandas", "matplotlib", "tqdm"]:
        assert name in pinned, f"{name} is not pinned"
    assert pinned["jupyterlab"].split(".")[:2] == ["4", pinned["notebook"].split(".")[1]], \
        "notebook 7.N goes with jupyterlab 4.N"


# ---------------------------------------------------------------- repo2docker
@pytest.fixture(scope="module")
def dry_run():
    pytest.importorskip("repo2docker")
    proc = subprocess.run([sys.executable, "-m", "repo2docker", "--no-build", "--debug", str(ROOT)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines(), proc.stderr        # the Dockerfile, the log


def test_repo2docker_picks_python_312(dry_run):
    dockerfile, log = dry_run
    assert "Building conda environment for python=3.12" in log
    assert any("environment-2epy-2d3-2e12-2dlinux-2d64-2elock" in line for line in dockerfile)


def test_repo2docker_installs_requirements_from_repo_root_after_full_copy(dry_run):
    dockerfile, _ = dry_run
    install = 'RUN ${KERNEL_PYTHON_PREFIX}/bin/pip install --no-cache-dir -r "binder/requirements.txt"'
    assert install in dockerfile
    full_copy = dockerfile.index("COPY --chown=0:0 src/ ${REPO_DIR}/")
    assert dockerfile.index(install) > full_copy          # `.` needs the whole repository
    workdirs = [i for i, line in enumerate(dockerfile) if line.startswith("WORKDIR ")]
    last_workdir = max(i for i in workdirs if i < dockerfile.index(install))
    assert dockerfile[last_workdir] == "WORKDIR ${REPO_DIR}"
    # the server and the kernel share one environment: anywidget's labextension is found
    assert "ENV KERNEL_PYTHON_PREFIX=${NB_PYTHON_PREFIX}" in dockerfile
    # binder/ wins over the root pyproject: nothing else installs the package
    assert not any("pip install" in line and "pyproject" in line for line in dockerfile)


# ---------------------------------------------------------------- a Binder-like venv
def python312() -> str:
    for candidate in PY312:
        if candidate and Path(candidate).exists():
            out = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True)
            if out.stdout.strip() == "(3, 12)":
                return candidate
    pytest.fail("no Python 3.12 found (pyenv install 3.12, or set COURTLEARN_PY312)")


@pytest.fixture(scope="module")
def binder_env():
    """build/binder-env: Python 3.12 + binder/requirements.txt + pytest + nbval."""
    stamp_text = hashlib.sha256(REQS.read_bytes()).hexdigest()
    stamp = ENV / ".requirements-sha256"
    python = ENV / "bin" / "python"
    env = dict(os.environ, PIP_CACHE_DIR=str(ROOT / "build" / "pip-cache"),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    if not (stamp.exists() and stamp.read_text() == stamp_text and python.exists()):
        shutil.rmtree(ENV, ignore_errors=True)
        subprocess.run([python312(), "-m", "venv", str(ENV)], check=True, timeout=120)
        proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(REQS),
                               "pytest", "nbval"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=480)
        assert proc.returncode == 0, proc.stderr[-3000:]
        stamp.write_text(stamp_text)
    else:
        # the package may have changed since: reinstall `.` only (as Binder would, from scratch)
        proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps",
                               "--force-reinstall", "."],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr[-3000:]
    return python


def test_binder_env_is_consistent(binder_env):
    proc = subprocess.run([str(binder_env), "-m", "pip", "check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    freeze = subprocess.run([str(binder_env), "-m", "pip", "freeze"], capture_output=True,
                            text=True).stdout.lower().replace("_", "-")
    for r in requirement_lines()[:-1]:
        assert r.lower().replace("_", "-") in freeze, f"{r} not installed as pinned"
    # the package is installed from the repository, not found via the working directory
    out = subprocess.run([str(binder_env), "-c",
                          "import sys, courtlearn; print(sys.version_info[:2], courtlearn.__file__)"],
                         capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    assert "(3, 12)" in out.stdout and "site-packages" in out.stdout


def test_every_lesson_runs_in_the_binder_env(binder_env, tmp_path):
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not lessons:
        pytest.skip("no lesson notebooks yet")
    # run copies from a tmp dir: the repository's notebooks stay untouched
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    proc = subprocess.run(
        [str(binder_env), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
         "--nbval-current-env", "--nbval-cell-timeout=120", *[p.name for p in lessons]],
        cwd=work, capture_output=True, text=True, timeout=480,
        env=dict(os.environ, PYTHONPATH="", MPLBACKEND="Agg"))
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    ran = re.search(r"(\d+) passed", proc.stdout)
    assert ran and int(ran.group(1)) >= 2 * len(lessons), proc.stdout[-2000:]   # cells, not files


# ---------------------------------------------------------------- JupyterLab's widget setting
OVERRIDES = ROOT / "scripts" / "jupyterlab_overrides.json"


def test_binder_post_build_turns_on_saving_widget_state(tmp_path):
    """A lesson run on Binder, saved and reopened shows its tables: postBuild installs the
    project's JupyterLab override (saveState) where JupyterLab reads it."""
    env = dict(os.environ, NB_PYTHON_PREFIX=str(tmp_path))
    subprocess.run(["bash", str(ROOT / "binder" / "postBuild")], cwd=ROOT, env=env, check=True,
                   timeout=60)
    installed = tmp_path / "share/jupyter/lab/settings/overrides.d/courtlearn.json"
    settings = json.loads(installed.read_text())
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    assert settings == json.loads(OVERRIDES.read_text())


def test_make_lab_and_the_lite_site_install_the_same_setting():
    makefile = (ROOT / "Makefile").read_text()
    assert "overrides.d/courtlearn.json" in makefile and "scripts/jupyterlab_overrides.json" in makefile
    lite = json.loads((ROOT / "scripts" / "lite" / "jupyter-lite.json").read_text())
    assert lite["jupyter-config-data"]["settingsOverrides"] == json.loads(OVERRIDES.read_text())
