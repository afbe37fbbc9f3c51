"""`pip install courtlearn` from a built wheel: the wheel carries the widget's
JavaScript and CSS, installs into a fresh virtual environment (anywidget and
ipywidgets from PyPI) and a table there produces its state, far from this
checkout (so nothing is imported from the repository by accident).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (whl,) = out.glob("courtlearn-*-py3-none-any.whl")
    return whl


def test_wheel_holds_the_package_and_widget_assets(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ["courtlearn/__init__.py", "courtlearn/widgets/__init__.py",
                     "courtlearn/widgets/static/table.js", "courtlearn/widgets/static/table.css",
                     "courtlearn/puzzles/ladder.txt", "courtlearn/pureplay.py",
                     # the catalogs compiled (scripts/hatch_build.py) and the fonts they need
                     "courtlearn/locale/ur/LC_MESSAGES/courtlearn.mo",
                     "courtlearn/locale/hi/LC_MESSAGES/courtlearn.mo",
                     "courtlearn/widgets/static/fonts/NotoNastaliqUrdu-arabic-400.woff2",
                     "courtlearn/widgets/static/fonts/NotoSansDevanagari-devanagari-400.woff2"]:
        assert required in names, required
    # the assets are the repository's, byte for byte
    with zipfile.ZipFile(wheel) as z:
        for asset in ["table.js", "table.css"]:
            assert z.read(f"courtlearn/widgets/static/{asset}") == \
                (ROOT / "courtlearn/widgets/static" / asset).read_bytes()
    # nothing from outside the package: tests, notebooks, build output
    assert all(n.startswith(("courtlearn/", "courtlearn-")) for n in names), sorted(names)[:20]


# runs inside the fresh venv, from a directory outside the repository
PROBE = r"""
import json, sys, pathlib
import courtlearn as cl
assert "site-packages" in cl.__file__, cl.__file__
deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
table = cl.widgets.CardTable(deal, seat=0)
state = table.state
frame = state["frames"][-1]
static = pathlib.Path(cl.widgets.__file__).parent / "static"
# Urdu and Hindi from the compiled catalogs alone: Babel is not installed here
try:
    import babel
    has_babel = True
except ImportError:
    has_babel = False
cl.set_language("ur")
urdu = deal.events[0].text
hindi = cl.widgets.CardTable(deal, seat=0, language="hi").state["frames"][-1]["names"]["seats"]
cl.set_language("en")
print(json.dumps({
    "has_babel": has_babel, "urdu": urdu, "hindi": hindi,
    "hand": [c.code for c in deal.hand(0)],
    "frame": frame,
    "esm_chars": len(static.joinpath("table.js").read_text()),
    "css_chars": len(static.joinpath("table.css").read_text()),
}))
"""


def test_wheel_installs_in_a_fresh_venv_and_draws_a_table(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    env = dict(os.environ, PIP_CACHE_DIR=str(ROOT / "build" / "pip-cache"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONPATH="")
    proc = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel), "anywidget", "ipywidgets"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    proc = subprocess.run([str(py), "-c", PROBE], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    frame = got["frame"]
    assert got["esm_chars"] > 1000 and got["css_chars"] > 100
    # the viewer sees their own hand, as the engine holds it; the others stay hidden
    south = frame["seats"][0]
    assert south["name"] == "South" and south["hand"] == got["hand"] and len(got["hand"]) == 5
    for other in frame["seats"][1:]:
        assert other["hand"] is None and other["count"] == 5
    assert frame["phase"] == "trump" and frame["trump_caller"] == 0
    assert not got["has_babel"]
    assert got["urdu"].startswith("مغرب") and "West" not in got["urdu"], got["urdu"]
    assert got["hindi"] == ["दक्षिण", "पूर्व", "उत्तर", "पश्चिम"], got["hindi"]
