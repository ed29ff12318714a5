"""Fixtures for the browser tests: a real JupyterLab server and headless Chromium.

The server runs on 127.0.0.1 on a free port with a random token, serves a
temporary copy of notebooks/, the book with its stored outputs, as ``make lab
BOOK=1`` does (so running cells never touches the committed files), and is
stopped when the tests end. A learner's ``make lab`` opens the lab copy instead,
the same notebooks with no output: tests/test_run.py checks that copy. Chromium
is the system's (Debian package ``chromium``), driven by Playwright for Python;
Playwright never downloads a browser. Without a Chromium the tests are skipped,
unless ``--browser-required`` is given or ``REQUIRE_BROWSER=1`` is set (as CI
does), which turns a missing browser into a failure.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("run_script", ROOT / "run.py")
run_py = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_py)
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDGET_CALLS = {"quiz": r"helpers\.quiz\(", "resample-explorer": r"helpers\.resample_explorer\("}
WIDGET_CELL = re.compile("|".join(WIDGET_CALLS.values()))


def free_names(source: str) -> set[str]:
    """Names a cell reads without defining them (builtins and helpers aside)."""
    tree = ast.parse(source)
    loaded, stored = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
    return loaded - stored - set(dir(builtins)) - {"helpers"}


def cells_to_run(nb) -> list[int]:
    """The cell importing helpers, every widget cell, and the cells before one that needs them."""
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    imports = next(i for i in code if re.search(r"^import helpers\b", nb.cells[i].source, re.M))
    widgets = [i for i in code if WIDGET_CELL.search(nb.cells[i].source)]
    needy = [i for i in widgets if free_names(nb.cells[i].source)]
    prefix = {i for i in code if needy and i <= max(needy)}
    return sorted({imports, *widgets, *prefix})


INSTALL_HINT = (
    "no Chromium found: install Debian's package (sudo apt-get install -y chromium) "
    "or set CHROMIUM_PATH"
)


def find_chromium() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit:
        return explicit if Path(explicit).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def pytest_collection_modifyitems(config, items):
    required = config.getoption("--browser-required") or os.environ.get("REQUIRE_BROWSER") == "1"
    for item in items:
        if "browser" in item.keywords and find_chromium() is None and not required:
            item.add_marker(pytest.mark.skip(reason=INSTALL_HINT))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """Start JupyterLab on a copy of the notebooks; yield (base_url, token)."""
    work = tmp_path_factory.mktemp("lab")
    root = work / "notebooks"
    shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    # make lab's defaults (run.py): no "Would you like to get notified about official Jupyter
    # news?" pop-up over the page
    run_py.write_lab_overrides(work / "app-settings")
    # render every cell, not only those in view, so that the whole notebook can be checked
    tracker = work / "settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    port, token = _free_port(), secrets.token_hex(24)
    env = {
        **os.environ,
        "JUPYTER_PREFER_ENV_PATH": "1",
        "JUPYTER_CONFIG_DIR": str(work / "config"),
        "JUPYTER_RUNTIME_DIR": str(work / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(work / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(work / "workspaces"),
    }
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.app_settings_dir={work / 'app-settings'}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(work / "server.log", "w")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except OSError as err:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"JupyterLab did not start:\n{(work / 'server.log').read_text()[-3000:]}"
                    ) from err
                time.sleep(0.3)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def browser():
    path = find_chromium()
    if path is None:
        pytest.fail(INSTALL_HINT + " (required here: --browser-required or REQUIRE_BROWSER=1)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def lab_page(browser, lab_server):
    """One JupyterLab page for every browser test: the app starts once, notebooks open in it."""
    base, token = lab_server
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{base}/lab?reset&token={token}")  # reset: no tabs restored from an earlier run
    pg.wait_for_function("() => !!window.jupyterapp")
    pg.evaluate("async () => { await window.jupyterapp.restored; }")
    # JupyterLab asks about its news only while fetchNews is "none": make lab's default says no
    news = pg.evaluate(
        """async () => (await window.jupyterapp.serviceManager.settings.fetch(
            '@jupyterlab/apputils-extension:notification')).schema.properties.fetchNews.default"""
    )
    assert news == "false", f"JupyterLab would ask about its news (fetchNews {news!r})"
    yield pg
    context.close()


@pytest.fixture
def page(lab_page, request):
    """The JupyterLab page; a screenshot goes to test-artifacts/ when the test fails."""
    yield lab_page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        lab_page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    close_everything(lab_page)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def open_notebook(page, notebook: str, *, fresh_kernel: bool = False) -> None:
    """Open a notebook, with its stored outputs, as the only tab; wait for its kernel.

    With ``fresh_kernel`` it starts a kernel of its own (shut it down with
    :func:`shut_down_kernel`). Otherwise the first notebook opened starts a kernel, as opening
    one in JupyterLab does, and every later one is opened on that same running kernel
    (JupyterLab's "use the kernel from another session").
    """
    close_everything(page)
    page.evaluate(
        """async ([name, fresh]) => {
            const app = window.jupyterapp;
            const running = Array.from(app.serviceManager.kernels.running());
            const kernel = fresh ? {name: 'python3'}
                : running.length ? {id: running[0].id, name: running[0].name} : undefined;
            const w = await app.commands.execute('docmanager:open', {path: name, kernel});
            app.shell.activateById(w.id);
            await w.context.ready;
            await w.sessionContext.ready;
        }""",
        [notebook, fresh_kernel],
    )
    page.wait_for_function(
        """(name) => {
            const w = window.jupyterapp.shell.currentWidget;
            return !!(w && w.context && w.context.path.endsWith(name)
                      && w.sessionContext.session && w.sessionContext.session.kernel);
        }""",
        arg=notebook,
    )
    # the list of running kernels as the server has it now (the page's copy is refreshed by a
    # poll, which lags a kernel just started or shut down on a busy machine)
    kernels = page.evaluate(
        """async () => {
            const kernels = window.jupyterapp.serviceManager.kernels;
            await kernels.refreshRunning();
            return Array.from(kernels.running()).length;
        }"""
    )
    assert kernels == 1, f"{notebook}: {kernels} kernels running, expected one"


def shut_down_kernel(page) -> None:
    """Shut down the kernel of the notebook on show (one started with fresh_kernel=True)."""
    page.evaluate(
        """async () => {
            const w = window.jupyterapp.shell.currentWidget;
            if (w && w.sessionContext && w.sessionContext.session) {
                await w.sessionContext.session.shutdown();
            }
        }"""
    )


def run_cells(page, notebook: str, indices: list[int]) -> None:
    """Run the cells at these indices, in order, in the open notebook ("Run Selected Cell")."""
    failed = page.evaluate(
        """async (indices) => {
            const app = window.jupyterapp;
            const w = app.shell.currentWidget;
            for (const i of indices) {
                w.content.activeCellIndex = i;
                w.content.deselectAll();
                if ((await app.commands.execute('notebook:run-cell')) === false) return i;
            }
            return -1;
        }""",
        indices,
    )
    assert failed == -1, f"running cell {failed} of {notebook} reported a failure"
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            return w.sessionContext.session.kernel.status === 'idle';
        }"""
    )


def current_notebook(page):
    """The notebook panel on show (other tabs' outputs are not part of the check)."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def close_everything(page) -> None:
    """Close every tab, unsaved (the copy is scratch); the shared kernel keeps running."""
    page.evaluate(
        """async () => {
            const app = window.jupyterapp;
            for (const w of Array.from(app.shell.widgets('main'))) w.dispose();
        }"""
    )
