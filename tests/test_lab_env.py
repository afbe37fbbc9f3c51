"""The environment `make lab` opens holds no JupyterLite extension.

JupyterLite is built in its own environment (build/lite-env, scripts/build_lite.sh):
its lab extensions, loaded by a server-backed JupyterLab, log "Shared module
@jupyterlite/services doesn't exist in shared scope default" on every page.
"""
import sys
from pathlib import Path


def test_no_jupyterlite_extension_in_the_lab_environment():
    found = []
    for base in {Path(sys.prefix), Path(sys.base_prefix)}:
        extensions = base / "share" / "jupyter" / "labextensions"
        found += [str(p) for p in extensions.glob("@jupyterlite/*")]
    assert found == [], f"remove these (pip uninstall jupyterlite-pyodide-kernel jupyterlite-core): {found}"

