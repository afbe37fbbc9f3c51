"""A throw-away JupyterLab server and Debian's Chromium, shared by the browser tests
and bench/click_latency.py. No network beyond 127.0.0.1; never a downloaded browser."""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "build" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--mute-audio",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """`jupyter lab` (or, with ``app="notebook"``, Jupyter Notebook 7) on
    127.0.0.1:<random port> with a token and isolated settings."""

    def __init__(self, tmp: Path, app: str = "lab"):
        if app not in ("lab", "notebook"):
            raise ValueError(f"app is 'lab' or 'notebook', got {app!r}")
        self.app = app
        self.tmp = Path(tmp)
        self.root = self.tmp / "root"
        self.root.mkdir(parents=True, exist_ok=True)
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.log = None

    def start(self, timeout: float = 90) -> "Lab":
        tmp = self.tmp
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"),
                   JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_PLATFORM_DIRS="1",
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        settings = tmp / "settings"
        notif = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        notif.parent.mkdir(parents=True, exist_ok=True)
        notif.write_text('{"fetchNews": "false", "checkForUpdates": false}')
        cmd = [sys.executable, "-m", "jupyter", self.app, "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
               "--allow-root"]
        if self.app == "lab":
            cmd += ["--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
                    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                    "--LabApp.extension_manager=readonly",
                    f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
                    f"--LabApp.user_settings_dir={settings}"]
        else:
            cmd += ["--JupyterNotebookApp.expose_app_in_browser=True",
                    f"--JupyterNotebookApp.workspaces_dir={tmp / 'workspaces'}",
                    ]
        self.log = open(tmp / "jupyter.log", "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.root)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited: {(tmp / 'jupyter.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"jupyter lab did not come up in {timeout} s")
            time.sleep(0.2)

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()            # the server shuts its kernels down itself
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        if self.log is not None:
            self.log.close()
            self.log = None
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(self.tmp / "jupyter.log", ARTIFACTS / f"jupyter-{self.app}.log")

    def add_notebook(self, source: Path, name: str) -> str:
        """A fresh copy per test: JupyterLab autosaves over the file it opened."""
        shutil.copy(source, self.root / name)
        return name


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


# ----------------------------------------------------------------------------- page helpers
def open_notebook(page, lab: Lab, name: str, timeout_ms: int = 60_000):
    """Open `name`, wait for the kernel, run all cells, wait for the table."""
    if lab.app == "lab":
        page.goto(f"{lab.base}/lab/tree/{name}?token={lab.token}&reset")
    else:
        page.goto(f"{lab.base}/notebooks/{name}?token={lab.token}")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=timeout_ms)
    page.evaluate("""async () => {
        const nb = window.jupyterapp.shell.currentWidget;
        await nb.context.ready; await nb.sessionContext.ready;
        const k = nb.sessionContext.session.kernel;
        while (k.status !== 'idle') await new Promise(r => setTimeout(r, 50));
    }""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".cl-table[data-rev]:not([data-rev='-1'])", timeout=timeout_ms)


KERNEL_EXEC_JS = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  let out = "";
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === "stream") out += msg.content.text;
    else if (t === "execute_result") out += msg.content.data["text/plain"] + "\\n";
    else if (t === "error") out += `ERROR ${msg.content.ename}: ${msg.content.evalue}\\n`;
  };
  await future.done;
  return out;
}
"""


def kernel(page, code: str) -> str:
    """Run `code` in the notebook's kernel (not in a cell); return what it printed."""
    out = page.evaluate(KERNEL_EXEC_JS, code)
    if "ERROR " in out:
        raise AssertionError(f"kernel error running {code!r}: {out}")
    return out
