"""The learner's lab copy (make workspace, reset-workspace), run for real in a temporary
folder, and the targets that are run.py's."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_FILES = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


def make(*args, stdin="", cwd=ROOT):
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
    )


def outputs(notebook: Path) -> list:
    """The outputs and execution counts a notebook stores."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [x for c in cells for x in c.get("outputs", []) + [c.get("execution_count")] if x]


def test_workspace_makes_the_lab_copy_in_a_fresh_clone_and_keeps_edits(tmp_path):
    """make workspace in a fresh clone (its Makefile, run.py and book; no workspace/ yet):
    every chapter, no output, so no answer shows; a second run keeps the learner's edits."""
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("Makefile", "run.py"):
        shutil.copy(ROOT / name, clone)
    shutil.copytree(ROOT / "notebooks", clone / "notebooks")
    out = make("workspace", cwd=clone)
    assert out.returncode == 0, out.stderr
    ws = clone / "workspace"
    assert sorted(p.name for p in ws.glob("*.ipynb")) == NOTEBOOK_FILES
    assert (ws / "data" / "simulated_A.trec_eval.txt").exists()
    for name in NOTEBOOK_FILES:
        assert outputs(ROOT / "notebooks" / name), f"the book's {name} stores its outputs"
        assert outputs(ws / name) == [], f"the lab copy of {name} shows outputs"
        cells = json.loads((ws / name).read_text(encoding="utf-8"))["cells"]
        text = json.dumps([c.get("outputs") for c in cells], ensure_ascii=False)
        for answer in ("[-0.133, -0.008]", "96.1%", "[-0.035, +0.080]", "(10 of 16)"):
            assert answer not in text, f"{name} shows {answer}"
    edited = ws / NOTEBOOK_FILES[0]
    edited.write_text("my edits")
    again = make("workspace", cwd=clone)
    assert again.returncode == 0 and "already exists" in again.stdout
    assert edited.read_text() == "my edits"


def test_reset_workspace_asks_first(tmp_path):
    ws = tmp_path / "ws"
    make("workspace", f"WORKSPACE={ws}")
    edited = ws / NOTEBOOK_FILES[0]
    edited.write_text("my edits")
    declined = make("reset-workspace", f"WORKSPACE={ws}", stdin="no\n")
    assert declined.returncode == 0 and "Nothing changed" in declined.stdout
    assert edited.read_text() == "my edits"
    confirmed = make("reset-workspace", f"WORKSPACE={ws}", stdin="yes\n")
    assert confirmed.returncode == 0, confirmed.stderr
    assert outputs(edited) == [] and "my edits" not in edited.read_text()


def test_reset_workspace_with_force_does_not_ask(tmp_path):
    ws = tmp_path / "ws"
    make("workspace", f"WORKSPACE={ws}")
    (ws / "scratch.ipynb").write_text("{}")
    forced = make("reset-workspace", f"WORKSPACE={ws}", "FORCE=1")
    assert forced.returncode == 0 and "Type yes" not in forced.stdout
    assert not (ws / "scratch.ipynb").exists()


@pytest.mark.parametrize(
    "target, args",
    [
        ("env", "env"),
        ("lab", 'lab --port 8890 --workspace "ws"'),
        ("workspace", 'workspace --workspace "ws"'),
        ("reset-workspace", 'reset-workspace --workspace "ws"'),
        ("check", "check"),
        ("test", "test --workers 3"),
        ("test-browser", "test-browser --workers 3"),
        ("lint", "lint"),
        ("test-versions", "test-versions --workers 3"),
        ("html", 'html --site "site"'),
    ],
)
def test_the_learner_targets_are_run_py_so_the_two_cannot_drift(target, args):
    dry = make("-n", target, "PORT=8890", "WORKSPACE=ws", "TEST_WORKERS=3").stdout
    assert dry.strip().splitlines() == [f"python3 run.py {args}"]
    offline = make("-n", target, "WHEELS=/media/usb/wheelhouse").stdout
    assert offline.startswith('python3 run.py --wheels "/media/usb/wheelhouse" ' + target)


def test_make_lab_opens_the_lab_copy_and_book_1_the_book():
    assert (
        make("-n", "lab").stdout.strip() == 'python3 run.py lab --port 8888 --workspace "workspace"'
    )
    book = make("-n", "lab", "BOOK=1").stdout.strip()
    assert book == 'python3 run.py lab --port 8888 --workspace "workspace" --book'
    forced = make("-n", "reset-workspace", "FORCE=1").stdout.strip()
    assert forced == 'python3 run.py reset-workspace --workspace "workspace" --force'


def test_the_other_targets_build_the_environment_through_run_py():
    # docs, execute, answers... depend on the stamp, whose recipe is run.py env (make -B: stale)
    dry = make("-n", "-B", "answers").stdout.splitlines()
    assert dry[0] == "python3 run.py env" and "notebook_tools.py --answers" in dry[1]


def test_ci_runs_the_full_browser_sweep_after_make_test_with_the_browser_required():
    """make test has one browser pass; the full sweep is make test-browser's, and CI runs it."""
    steps = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert steps.index("make test") + 1 == steps.index("make test-browser")
    assert steps.index("export REQUIRE_BROWSER=1") < steps.index("make test")
    help_text = make("help").stdout
    assert "test-browser" in help_text and "every chapter worked through twice" in help_text
