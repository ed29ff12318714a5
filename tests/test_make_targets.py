"""The learner workspace targets, run for real against a temporary folder."""

import subprocess
from pathlib import Path

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


def test_lab_serves_the_workspace_once_it_exists(tmp_path):
    ws = tmp_path / "ws"
    dry = make("-n", "lab", f"WORKSPACE={ws}")
    assert "--ServerApp.root_dir=notebooks" in dry.stdout
    make("workspace", f"WORKSPACE={ws}")
    dry = make("-n", "lab", f"WORKSPACE={ws}")
    assert f"--ServerApp.root_dir={ws}" in dry.stdout


def test_make_test_lints_first_and_runs_the_files_in_parallel():
    dry = make("-n", "test").stdout.splitlines()
    ruff_check = next(i for i, line in enumerate(dry) if line.endswith("ruff check ."))
    ruff_format = next(i for i, line in enumerate(dry) if line.endswith("ruff format --check ."))
    pytest_run = next(i for i, line in enumerate(dry) if "-m pytest" in line)
    assert ruff_check < pytest_run and ruff_format < pytest_run
    assert "--dist loadfile" in dry[pytest_run]
