"""The learner workspace targets, run for real against a temporary folder."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_FILES = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


def make(*args, stdin=""):
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
    )


def test_workspace_copies_the_notebooks_and_keeps_edits(tmp_path):
    ws = tmp_path / "ws"
    out = make("workspace", f"WORKSPACE={ws}")
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in ws.glob("*.ipynb")) == NOTEBOOK_FILES
    assert (ws / "data" / "simulated_A.trec_eval.txt").exists()
    edited = ws / NOTEBOOK_FILES[0]
    edited.write_text("my edits")
    again = make("workspace", f"WORKSPACE={ws}")
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
    assert edited.read_bytes() == (ROOT / "notebooks" / NOTEBOOK_FILES[0]).read_bytes()


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
        ("check", "check"),
        ("test", "test --workers 3"),
        ("test-browser", "test-browser --workers 3"),
        ("lint", "lint"),
        ("test-versions", "test-versions --workers 3"),
    ],
)
def test_the_learner_targets_are_run_py_so_the_two_cannot_drift(target, args):
    dry = make("-n", target, "PORT=8890", "WORKSPACE=ws", "TEST_WORKERS=3").stdout
    assert dry.strip().splitlines() == [f"python3 run.py {args}"]
    offline = make("-n", target, "WHEELS=/media/usb/wheelhouse").stdout
    assert offline.startswith('python3 run.py --wheels "/media/usb/wheelhouse" ' + target)


def test_the_other_targets_build_the_environment_through_run_py():
    # html, docs, execute... depend on the stamp, whose recipe is run.py env (make -B: as if stale)
    dry = make("-n", "-B", "html").stdout.splitlines()
    assert dry[0] == "python3 run.py env" and "notebook_tools.py --html" in dry[1]


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
