"""make test-versions: the helpers outside the lock, at the declared lower bounds and at the newest.

The lock (make test) proves every output byte for byte in one environment. A hub, a learner's
Anaconda or a `pip install .` brings other versions, within the ranges of pyproject.toml's
[project] dependencies. This check builds two environments and, in each, runs the unit tests and
doctests and executes every chapter top to bottom in a fresh kernel, which must raise no error
and write nothing to stderr (outputs are not compared: a last digit may differ there):

- lower: the oldest Python the README promises (3.11, the oldest patch found: Debian 12's
  /usr/bin/python3, 3.11.2) with each [project] dependency at its lower bound (numpy>=1.26.4
  is installed as numpy==1.26.4) and everything else at the lock's versions;
- newest: the newest Python found (3.14, else 3.13, else 3.12) with the newest releases of the
  dependencies and of every package requirements.in names (playwright aside: the browser tests
  are not run here, they test JupyterLab's front end and run with the lock in make test).

In each it also asks pip whether `pip install .` would accept the installed versions (a
dry run, no index), and prints the versions tested.

The environments live in $DSI_CACHE/versions/ (default ~/.cache/did-search-improve/versions/).
The lower one is reused while its requirements are unchanged; the newest one is upgraded in
place on each run (pip install --upgrade: a no-op when nothing new is out) and built afresh
when its list of packages changes or it is older than NEWEST_MAX_DAYS days (7), so that the
dependencies of dependencies move on too. The helpers are imported from this clone
(PYTHONPATH), never installed there, so one cache serves every clone.

VERSIONS_LOWER_PYTHON / VERSIONS_NEWEST_PYTHON name interpreters yourself.
Usage: python tools/test_versions.py [--only lower|newest]
Exit status: 0 both passed, 1 a run failed or an interpreter is missing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_portability import CACHE, ROOT, clean_env, interpreters, version_of  # noqa: E402

OLDEST = (3, 11)  # the README: Python 3.11 or newer
NEWEST_CANDIDATES = ((3, 14), (3, 13), (3, 12))
NEWEST_MAX_DAYS = float(os.environ.get("NEWEST_MAX_DAYS") or 7)
NOT_INSTALLED = {"playwright"}  # only the browser tests use it, and they are not run here
# (test, why it is left out here): each holds only for the lock's versions or needs a browser
DESELECTED = (
    ("tests/browser", "JupyterLab's front end in Chromium: make test runs it, with the lock"),
)
PYTEST = ["-m", "pytest", "helpers", "tests", "-q", "-p", "no:cacheprovider"]
PIP = ["-m", "pip", "--disable-pip-version-check"]
# the versions printed for each environment: the declared dependencies, then these
ALSO_REPORTED = ("ipykernel", "jupyterlab")
VERSIONS_PROBE = (
    "import importlib.metadata as m, sys; print('Python ' + sys.version.split()[0], *("
    "f'{n} {m.version(n)}' for n in sys.argv[1:]), sep=' | ')"
)


# ---------------------------------------------------------------- the requirements


def canonical(name: str) -> str:
    """PEP 503's normal form of a distribution name.

    >>> canonical("Jupyter_Server.Mathjax")
    'jupyter-server-mathjax'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: str) -> list[tuple[str, str]]:
    """[(name, lower bound)] of [project] dependencies; each must be exactly "name>=version".

    >>> declared('[project]\\ndependencies = ["numpy>=1.26.4", "SciPy >= 1.15"]')
    [('numpy', '1.26.4'), ('scipy', '1.15')]
    """
    deps = tomllib.loads(pyproject)["project"].get("dependencies", [])
    out = []
    for dep in deps:
        match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*>=\s*([0-9][0-9a-z.]*)\s*", dep)
        if not match:
            raise ValueError(
                f"pyproject.toml: dependency {dep!r} is not of the form name>=version; "
                "every run-time dependency needs a lower bound that make test-versions proves"
            )
        out.append((canonical(match[1]), match[2]))
    return out


def requirement_names(lines: list[str]) -> list[str]:
    """The package names of requirements.in's lines (comments, bounds and markers dropped)."""
    names = []
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(canonical(re.split(r"[<>=!~ \[;]", line, maxsplit=1)[0]))
    return names


def lower_requirements(deps: list[tuple[str, str]], lock_lines: list[str]) -> list[str]:
    """The lock with each declared dependency pinned at its lower bound instead.

    >>> lower_requirements([("numpy", "1.26.4")], ["# made by make lock", "NumPy==2.4.6",
    ...                    "nbval==0.11.0", "playwright==1.65.2"])
    ['numpy==1.26.4', 'nbval==0.11.0']
    """
    ours = dict(deps)
    pins = [f"{name}=={lower}" for name, lower in deps]
    for line in lock_lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name = canonical(line.split("==")[0])
        if name not in ours and name not in NOT_INSTALLED:
            pins.append(line)
    return pins


def newest_requirements(deps: list[tuple[str, str]], wanted: list[str]) -> list[str]:
    """The declared dependencies and requirements.in's packages, by name only (the newest).

    >>> newest_requirements([("numpy", "1.26.4")], ["numpy", "pytest", "playwright", "soupsieve"])
    ['numpy', 'pytest', 'soupsieve']
    """
    names = [name for name, _ in deps] + wanted
    return [n for n in dict.fromkeys(names) if n not in NOT_INSTALLED]


def key(lines: list[str], python: str) -> str:
    """A hash of an environment's requirements and the interpreter that makes it."""
    digest = hashlib.sha256("\n".join([os.path.realpath(python), *lines]).encode())
    return digest.hexdigest()[:12]


def read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


# ---------------------------------------------------------------- interpreters


def find_python(which: str) -> tuple[str | None, str]:
    """(path, version) of the interpreter for *which* ("lower" or "newest"), or (None, wanted)."""
    explicit = os.environ.get(f"VERSIONS_{which.upper()}_PYTHON")
    if explicit:
        v = version_of(explicit)
        return explicit, ".".join(map(str, v)) if v else "?"
    minors = [OLDEST] if which == "lower" else list(NEWEST_CANDIDATES)
    for minor in minors:
        found = interpreters(minor)
        if found:
            v, p = min(found) if which == "lower" else max(found)
            return p, ".".join(map(str, v))
    return None, " or ".join(f"{a}.{b}" for a, b in minors)


# ---------------------------------------------------------------- the environments


def versions_env() -> dict:
    """The portability tool's clean environment, less REQUIRE_ORACLE: these environments hold
    only what the helpers and the tests need, not the lock's test-only oracle (pytrec-eval-terrier,
    which has no wheel for every Python), so its test skips here even where CI requires it."""
    env = clean_env()
    env.pop("REQUIRE_ORACLE", None)
    return env


def run_quiet(cmd: list, what: str) -> None:
    out = subprocess.run([str(c) for c in cmd], env=versions_env(), capture_output=True, text=True)
    if out.returncode != 0:  # pip's own reason, e.g. a version with no wheel for this Python
        lines = (out.stdout + out.stderr).strip().splitlines()
        print("\n".join("    | " + ln for ln in lines[-25:]))
        raise RuntimeError(f"{what} failed")


def build(which: str, python: str, lines: list[str]) -> Path:
    """The environment for *which*, built or reused (see the module's docstring)."""
    base = CACHE / "versions"
    target = base / f"{which}-{key(lines, python)}"
    stamp = target / ".installed"
    env_python = target / "bin" / "python"
    requirements = target / "requirements.txt"
    age_days = (time.time() - stamp.stat().st_mtime) / 86400 if stamp.exists() else None
    fresh = age_days is not None and (which == "lower" or age_days < NEWEST_MAX_DAYS)
    if fresh and which == "lower":
        print(f"  reusing {target}", flush=True)
        return target
    start = time.monotonic()
    if fresh:
        print(f"  upgrading {target} to the newest releases", flush=True)
        run_quiet([env_python, *PIP, "install", "--quiet", "--upgrade", "-r", requirements], "pip")
        print(f"  checked in {time.monotonic() - start:.0f} s", flush=True)
        return target
    for stale in base.glob(f"{which}-*"):  # older requirements, or a newest env too old
        shutil.rmtree(stale, ignore_errors=True)
    print(f"  building {target}", flush=True)
    base.mkdir(parents=True, exist_ok=True)
    run_quiet([python, "-m", "venv", "--clear", target], f"{python} -m venv")
    requirements.write_text("\n".join(lines) + "\n")
    run_quiet([env_python, *PIP, "install", "--quiet", "-r", requirements], "pip install")
    stamp.write_text(f"{python}\n")
    print(f"  built in {time.monotonic() - start:.0f} s", flush=True)
    return target


def step(label: str, cmd: list, log: Path) -> bool:
    """Run one check in the environment from the clone; print one line (the last of its
    standard output), or the failure's end. Its whole output goes to *log*."""
    start = time.monotonic()
    out = subprocess.run(
        [str(c) for c in cmd], cwd=ROOT, env=versions_env(), capture_output=True, text=True
    )
    log.write_text(f"$ {' '.join(map(str, cmd))}\n{out.stdout}\n{out.stderr}")
    lines = out.stdout.strip().splitlines() or out.stderr.strip().splitlines()
    summary = lines[-1] if lines else "(no output)"
    ok = out.returncode == 0
    seconds = time.monotonic() - start
    print(f"    {label}: {'ok' if ok else 'FAILED'} in {seconds:.0f} s -- {summary}", flush=True)
    if not ok:
        lines = (out.stdout + out.stderr).strip().splitlines()
        shown = [ln for ln in lines if ln.startswith(("FAILED", "ERROR"))] or lines[-60:]
        print("\n".join("      | " + ln for ln in shown[-60:]))
        print(f"      (the whole output: {log})")
    return ok


def check(env: Path, deps: list[tuple[str, str]], workers: str) -> bool:
    """pip's verdict on the versions, the unit tests and doctests, and every chapter."""
    python = env / "bin" / "python"
    names = list(dict.fromkeys([*(n for n, _ in deps), *ALSO_REPORTED]))
    versions = subprocess.run(
        [python, "-c", VERSIONS_PROBE, *names], env=versions_env(), capture_output=True, text=True
    )
    print("    " + (versions.stdout.strip() or versions.stderr.strip()), flush=True)
    ok = True
    for name, label, cmd in (
        (
            "pip",
            "pip install . accepts these versions",
            [python, *PIP, "install", "--dry-run", "--no-index", "--no-build-isolation", "."],
        ),
        (
            "tests",
            "unit tests and doctests",
            [
                python,
                *PYTEST,
                "-n",
                workers,
                "--dist",
                "loadfile",
                *(f"--ignore={path}" for path, _ in DESELECTED),
            ],
        ),
        (
            "chapters",
            "every chapter, with its solutions, in a fresh kernel",
            [
                python,
                "tools/notebook_tools.py",
                "--run",
                *sorted(ROOT.glob("notebooks/[0-9]*.ipynb")),
            ],
        ),
    ):
        ok &= step(label, cmd, env / f"last-{name}.log")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["lower", "newest"], help="one environment only")
    parser.add_argument(
        "--workers", default=os.environ.get("TEST_WORKERS") or "auto", help="pytest-xdist -n"
    )
    args = parser.parse_args()
    start = time.monotonic()
    deps = declared(read("pyproject.toml"))
    plans = {
        "lower": lower_requirements(deps, read("requirements.lock").splitlines()),
        "newest": newest_requirements(
            deps, requirement_names(read("requirements.in").splitlines())
        ),
    }
    print("Declared (pyproject.toml): " + ", ".join(f"{n}>={v}" for n, v in deps))
    results = []
    for which in [args.only] if args.only else ["lower", "newest"]:
        python, version = find_python(which)
        if python is None:
            print(
                f"{which}: NO PYTHON {version} found; install one, or set "
                f"VERSIONS_{which.upper()}_PYTHON -- counted as a failure"
            )
            results.append((which, False, "no interpreter"))
            continue
        print(f"{which}: Python {version} ({python})", flush=True)
        try:
            env = build(which, python, plans[which])
        except RuntimeError as err:
            print(f"  {which}: {err}")
            results.append((which, False, str(err)))
            continue
        ok = check(env, deps, args.workers)
        results.append((which, ok, f"Python {version}"))
    print(f"\ntest-versions summary ({time.monotonic() - start:.0f} s in all):")
    for which, ok, what in results:
        print(f"  {'ok  ' if ok else 'FAIL'} {which} ({what})")
    for path, why in DESELECTED:
        print(f"  not run here: {path} ({why})")
    passed = all(ok for _, ok, _ in results)
    print("test-versions: " + ("passed" if passed else "FAILED (see above)"))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
