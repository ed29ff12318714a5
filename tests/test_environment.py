"""The environment files agree with each other and the Makefile keeps its promises."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _names(lines):
    out = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            out.add(re.split(r"[<>=!~ \[;]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return out


def requirements_in():
    return _names((ROOT / "requirements.in").read_text().splitlines())


def environment_yml():
    """(conda packages, pip lines) of environment.yml's dependencies."""
    conda, pip, where = [], [], None
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            where = conda
        elif re.match(r"^\S", line):
            where = None
        elif where is not None and line.strip() == "- pip:":
            where = pip
        elif where is not None and line.strip().startswith("- "):
            where.append(line.strip()[2:])
    return conda, pip


def lock_pins():
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    return dict(line.split(";")[0].strip().lower().split("==") for line in lines if "==" in line)


def test_environment_yml_takes_python_and_pip_from_conda_and_the_rest_from_the_lock():
    """conda, mamba and Binder install the tested lock through pip, not a second set of pins."""
    conda, pip = environment_yml()
    assert conda == ["python=3.11", "pip"]  # the oldest Python the README promises
    assert pip == ["-r requirements.lock", "-e ."]
    assert "conda-forge" in (ROOT / "environment.yml").read_text()


def test_lock_pins_every_requirement_exactly():
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    lock = [line for line in lines if line and not line.startswith("#")]
    pin = r"[A-Za-z0-9_.\-]+==[^=\s;]+"
    # name==version only: no environment markers, so every platform installs the same lock
    assert [line for line in lock if not re.fullmatch(pin, line)] == []
    assert requirements_in() <= _names(lock)


def test_the_test_only_oracle_is_pinned_outside_the_lock():
    lines = (ROOT / "requirements-oracle.txt").read_text().splitlines()
    pins = [line for line in lines if line and not line.startswith("#")]
    assert [p.split("==")[0] for p in pins] == ["pytrec-eval-terrier"]
    assert re.fullmatch(r"pytrec-eval-terrier==[0-9.]+", pins[0])
    assert "pytrec-eval-terrier" not in set(lock_pins()) | requirements_in()
    # make env is run.py env, which installs it (tests/test_run.py checks the command)
    setup = (ROOT / "run.py").read_text()
    assert '"--only-binary", ":all:", "--no-deps"' in setup and "requirements-oracle.txt" in setup


def test_make_without_a_target_prints_help():
    out = subprocess.run(
        ["make", "-s", "--no-print-directory"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    for target in (
        "lab",
        "check",
        "test",
        "lint",
        "wheelhouse",
        "test-portability",
        "test-versions",
        "test-arm64",
        "execute",
        "lock",
        "html",
        "answers",
        "docs",
    ):
        assert re.search(rf"^\s+{target}\s+\S", out, re.M), f"`make` help does not list {target}"
