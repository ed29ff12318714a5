"""make test-versions' own logic: the requirements of its two environments, from pyproject.toml.

The environments themselves are built and run by make test-versions (in .ci/run); these tests
check what it would install, so that a dependency without a lower bound, or a lower bound that
the lower environment does not actually install, fails here first."""

import importlib.util
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location(
    "test_versions_tool_module", ROOT / "tools" / "test_versions.py"
)
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)

PYPROJECT = (ROOT / "pyproject.toml").read_text()
LOCK = (ROOT / "requirements.lock").read_text().splitlines()
WANTED = tool.requirement_names((ROOT / "requirements.in").read_text().splitlines())


def test_every_run_time_import_of_helpers_is_declared_with_a_lower_bound():
    deps = dict(tool.declared(PYPROJECT))
    assert set(deps) == {"numpy", "scipy", "matplotlib", "ipywidgets", "cycler"}
    # scipy.stats.bootstrap and permutation_test take rng= from 1.15.0 (requirements.in says so)
    assert tuple(map(int, deps["scipy"].split("."))) >= (1, 15)


@pytest.mark.parametrize("bad", ["numpy", "numpy>1.2", "numpy<3", "numpy>=1.2,<3", "numpy==1.2"])
def test_a_dependency_without_a_plain_lower_bound_is_refused_naming_it(bad):
    with pytest.raises(ValueError, match=f"dependency '{bad}' is not of the form name>=version"):
        tool.declared(f'[project]\ndependencies = ["scipy>=1.15.0", "{bad}"]')


def test_the_lower_environment_pins_each_bound_and_takes_the_rest_from_the_lock():
    deps = tool.declared(PYPROJECT)
    lower = tool.lower_requirements(deps, LOCK)
    pins = dict(line.split("==") for line in lower)
    assert len(pins) == len(lower)  # one pin per package: the lock's own pin was replaced
    for name, bound in deps:
        assert pins[name] == bound
    lock = {tool.canonical(k): v for k, v in (ln.split("==") for ln in LOCK if "==" in ln)}
    rest = {tool.canonical(k): v for k, v in pins.items() if k not in dict(deps)}
    assert rest == {k: v for k, v in lock.items() if k not in dict(deps) | {"playwright": 0}}


def test_the_newest_environment_names_everything_without_a_version():
    deps = tool.declared(PYPROJECT)
    newest = tool.newest_requirements(deps, WANTED)
    assert set(newest) == ({n for n, _ in deps} | set(WANTED)) - {"playwright"}
    assert all(tool.canonical(n) == n for n in newest)  # names only: pip takes the newest


def test_requirements_in_names_are_read_without_bounds_or_comments():
    lines = ["# a comment", "soupsieve<3", "pytest-xdist  # why", "setuptools>=70", "", "Jinja2"]
    assert tool.requirement_names(lines) == ["soupsieve", "pytest-xdist", "setuptools", "jinja2"]


def test_the_cache_key_follows_the_requirements_and_the_interpreter(tmp_path):
    a = tool.key(["numpy==1.26.4"], "/usr/bin/python3")
    assert a == tool.key(["numpy==1.26.4"], "/usr/bin/python3") and len(a) == 12
    assert a != tool.key(["numpy==1.26.5"], "/usr/bin/python3")
    assert a != tool.key(["numpy==1.26.4"], "/opt/python3.11/bin/python3")


def test_the_oldest_promised_python_is_the_readme_s_and_the_tests_left_out_say_why():
    promised = tomllib.loads(PYPROJECT)["project"]["requires-python"]
    assert promised == f">={tool.OLDEST[0]}.{tool.OLDEST[1]}"
    assert "Python 3.11 or newer" in (ROOT / "README.md").read_text()
    for path, why in tool.DESELECTED:
        assert (ROOT / path).exists() and len(why.split()) >= 5


def test_an_interpreter_can_be_named(monkeypatch):
    import sys

    monkeypatch.setenv("VERSIONS_NEWEST_PYTHON", sys.executable)
    path, version = tool.find_python("newest")
    assert path == sys.executable and version == ".".join(map(str, sys.version_info[:3]))


def test_the_environments_do_not_require_the_lock_s_test_only_oracle(monkeypatch):
    # .ci/run exports REQUIRE_ORACLE=1 for make test; these environments do not hold the oracle
    monkeypatch.setenv("REQUIRE_ORACLE", "1")
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "AVX2")
    env = tool.versions_env()
    assert "REQUIRE_ORACLE" not in env and "NPY_DISABLE_CPU_FEATURES" not in env
    assert env["PYTHONPATH"] == str(ROOT)


def test_doctests():
    import doctest

    assert doctest.testmod(tool).failed == 0
