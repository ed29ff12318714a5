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


def environment_yml_pins():
    """{name: version} of the conda dependencies (``- name=version``), python and pip aside."""
    lines = (ROOT / "environment.yml").read_text().splitlines()
    deps, inside = [], False
    for line in lines:
        if line.startswith("dependencies:"):
            inside = True
            continue
        if inside and re.match(r"^\S", line):
            inside = False
        item = line.strip()
        if inside and line.startswith("  - ") and not item.endswith(":"):
            name, _, version = item[2:].partition("=")
            deps.append((name.lower(), version))
    return {n: v for n, v in deps if n not in ("python", "pip")}


def lock_pins():
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    return dict(line.split(";")[0].strip().lower().split("==") for line in lines if "==" in line)


def test_environment_yml_and_requirements_name_the_same_packages():
    assert set(environment_yml_pins()) == requirements_in()


def test_environment_yml_pins_the_lock_versions():
    lock = lock_pins()
    differ = {n: (v, lock.get(n)) for n, v in environment_yml_pins().items() if v != lock.get(n)}
    assert not differ, f"environment.yml vs requirements.lock versions differ: {differ}"


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
        "test-arm64",
        "execute",
        "lock",
        "html",
        "answers",
        "docs",
    ):
        assert re.search(rf"^\s+{target}\s+\S", out, re.M), f"`make` help does not list {target}"
