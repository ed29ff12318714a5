"""make test-portability: re-execute every chapter under strict nbval on more than one setup.

Two sweeps, each running ``pytest notebooks helpers`` (every stored output, figures byte
for byte, and the doctests) in a fresh process:

1. SIMD levels. numpy picks, at import, the fastest code its CPU supports for each routine
   (``np.exp``, ``np.log``, sums...), and the last bits of a result may differ between those
   versions. ``NPY_DISABLE_CPU_FEATURES`` tells numpy to skip levels. The sweep runs once per
   level this CPU has, from numpy's baseline up to the highest one, disabling every level
   above it, and names the levels it could not test because the CPU lacks them
   (e.g. X86_V4, AVX-512, on an AVX2 machine). It uses the Python running this script
   (``make test-portability`` runs it with the project's .venv).

2. Python versions. Once per Python the README promises: the oldest supported (Debian 12's
   /usr/bin/python3, 3.11.2, when present), then 3.12 and 3.13. Each gets its own
   environment built from the same requirements.lock, kept outside the clone in
   ``$DSI_CACHE/py/`` (default ~/.cache/did-search-improve/py/) and reused while
   requirements.lock and pyproject.toml are unchanged (the folder name carries a hash of
   both). The helpers are imported from this clone (PYTHONPATH), never installed there.

A missing interpreter fails the run with what to install, unless PORTABILITY_ALLOW_MISSING=1.
PORTABILITY_PYTHONS="/usr/bin/python3 /path/to/python3.12 ..." replaces the search.

Usage: python tools/test_portability.py [--simd-only | --pythons-only]
Exit status: 0 every run passed, 1 a run failed or a required interpreter is missing.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(
    os.environ.get("DSI_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "did-search-improve"
)
PYTEST_ARGS = ["-m", "pytest", "notebooks", "helpers", "-q", "-p", "no:cacheprovider"]
# (minor version, why it is in the sweep). The first is the oldest the README promises.
PROMISED = [((3, 11), "oldest supported"), ((3, 12), "promised"), ((3, 13), "promised")]

FEATURES_PROBE = (
    "import json, sys; from numpy._core._multiarray_umath import "
    "__cpu_features__ as f, __cpu_baseline__ as b, __cpu_dispatch__ as d; "
    "print(json.dumps({'features': f, 'baseline': b, 'dispatch': d, "
    "'python': sys.version.split()[0]}))"
)


def lock_key() -> str:
    h = hashlib.sha256()
    for name in ("requirements.lock", "pyproject.toml"):
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()[:16]


def clean_env(**extra) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES", "VIRTUAL_ENV", "PYTHONHOME")
    }
    env["PYTHONPATH"] = str(ROOT)
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    env.update(extra)
    return env


def run_tests(python: str, label: str, env: dict) -> tuple[bool, float, str]:
    """Run strict nbval and the doctests with *python*; print one line, or the failures."""
    start = time.monotonic()
    out = subprocess.run([python, *PYTEST_ARGS], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    lines = (out.stdout + out.stderr).strip().splitlines()
    summary = lines[-1] if lines else "(no output)"
    ok = out.returncode == 0
    print(f"  {label}: {'passed' if ok else 'FAILED'} in {seconds:.0f} s -- {summary}", flush=True)
    if not ok:
        shown = [ln for ln in lines if ln.startswith(("FAILED", "ERROR"))] or lines[-40:]
        for line in lines[-80:] if len(shown) < 3 else shown:
            print("    | " + line)
    return ok, seconds, summary


# ---------------------------------------------------------------- SIMD levels


def simd_levels(
    features: dict, baseline: list, dispatch: list
) -> list[tuple[str, bool, list[str]]]:
    """[(level, this CPU has it, the dispatch targets to disable to run at it)], lowest first.

    >>> simd_levels({"X86_V3": True, "X86_V4": False}, ["X86_V2"], ["X86_V3", "X86_V4"])
    [('baseline (X86_V2)', True, ['X86_V3', 'X86_V4']), ('X86_V3', True, ['X86_V4']),
     ('X86_V4', False, [])]
    """
    base_name = "baseline (" + "+".join(baseline) + ")" if baseline else "baseline"
    levels = [(base_name, True, list(dispatch))]
    for i, target in enumerate(dispatch):
        levels.append((target, bool(features.get(target)), list(dispatch[i + 1 :])))
    return levels


def simd_sweep(results: list) -> bool:
    python = sys.executable
    probe = json.loads(
        subprocess.run(
            [python, "-c", FEATURES_PROBE],
            env=clean_env(),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    dispatch = probe["dispatch"]
    levels = simd_levels(probe["features"], probe["baseline"], dispatch)
    testable = [level for level in levels if level[1]]
    untestable = [name for name, has, _ in levels if not has]
    print(
        f"SIMD levels with {python} (Python {probe['python']}), "
        f"numpy dispatch targets: {' '.join(dispatch) or 'none'}"
    )
    print(f"  this CPU can test: {', '.join(n for n, _, _ in testable)}")
    print(f"  this CPU cannot test (it lacks them): {', '.join(untestable) or 'none'}")
    all_ok = True
    for name, _, above in testable:
        env = clean_env()
        if above:
            env["NPY_DISABLE_CPU_FEATURES"] = " ".join(above)
        label = f"SIMD {name}" + (
            f" [NPY_DISABLE_CPU_FEATURES={' '.join(above)}]" if above else " [nothing disabled]"
        )
        ok, seconds, summary = run_tests(python, label, env)
        results.append(("SIMD " + name, ok, seconds, summary))
        all_ok &= ok
    results.append(("SIMD not testable here: " + (", ".join(untestable) or "none"), True, 0.0, ""))
    return all_ok


# ------------------------------------------------------------ Python versions


def version_of(python: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return tuple(int(x) for x in out.stdout.split()) if out.returncode == 0 else None


def candidates(minor: tuple[int, int]) -> list[str]:
    """Real interpreters (not pyenv shims) for one minor version, on PATH, in /usr/bin and pyenv."""
    name = f"python{minor[0]}.{minor[1]}"
    found = [f"/usr/bin/{name}", f"/usr/local/bin/{name}"]
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    found += sorted(glob.glob(str(pyenv / "versions" / f"{minor[0]}.{minor[1]}.*" / "bin" / name)))
    on_path = shutil.which(name)
    if on_path:
        found.append(on_path)
    return [
        p
        for p in dict.fromkeys(found)
        if os.path.isfile(p) and os.access(p, os.X_OK) and "/shims/" not in p
    ]


def interpreters(minor: tuple[int, int]) -> list[tuple[tuple[int, ...], str]]:
    """[(version, path)] of the candidates for one minor version that run and are that version."""
    return [(v, p) for p in candidates(minor) if (v := version_of(p)) and v[:2] == minor]


def choose_interpreters() -> list[tuple[str, str | None, str]]:
    """[(label, path or None, why)]: for each promised minor version, the oldest patch found."""
    explicit = os.environ.get("PORTABILITY_PYTHONS", "").split()
    if explicit:
        return [
            (f"Python {'.'.join(map(str, version_of(p) or ('?',)))}", p, "PORTABILITY_PYTHONS")
            for p in explicit
        ]
    chosen = []
    for minor, why in PROMISED:
        versions = interpreters(minor)
        if versions:
            v, p = min(versions)
            chosen.append((f"Python {'.'.join(map(str, v))}", p, why))
        else:
            chosen.append((f"Python {minor[0]}.{minor[1]}", None, why))
    return chosen


def build_env(python: str, version: str, key: str) -> Path:
    """The environment for one interpreter, reused while the lock is unchanged."""
    tag = hashlib.sha256(os.path.realpath(python).encode()).hexdigest()[:8]
    base = CACHE / "py"
    target = base / f"{version}-{tag}-{key}"
    if (target / ".installed").exists():
        print(f"  reusing {target}", flush=True)
        return target
    for stale in base.glob(f"{version}-{tag}-*"):  # an environment of an older lock
        shutil.rmtree(stale, ignore_errors=True)
    print(f"  building {target} from requirements.lock", flush=True)
    start = time.monotonic()
    base.mkdir(parents=True, exist_ok=True)
    for cmd in (
        [python, "-m", "venv", "--clear", str(target)],
        [
            str(target / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(ROOT / "requirements.lock"),
        ],
    ):
        out = subprocess.run(cmd, env=clean_env(), capture_output=True, text=True)
        if out.returncode != 0:  # show pip's own reason, e.g. a pin that needs a newer Python
            errors = [
                ln
                for ln in (out.stdout + out.stderr).splitlines()
                if not ln.startswith("WARNING: Location")
            ]
            print("\n".join("    | " + ln for ln in errors[-25:]))
            raise subprocess.CalledProcessError(out.returncode, cmd[:4])
    (target / ".installed").write_text(f"{python}\n")
    print(f"  built in {time.monotonic() - start:.0f} s", flush=True)
    return target


def python_sweep(results: list) -> bool:
    key = lock_key()
    allow_missing = os.environ.get("PORTABILITY_ALLOW_MISSING") == "1"
    all_ok = True
    print(f"Python versions (environments in {CACHE / 'py'}, lock key {key})")
    for label, python, why in choose_interpreters():
        if python is None:
            hint = (
                "Debian 12's python3 (apt-get install python3 python3-venv)"
                if why == "oldest supported"
                else f"one with pyenv (pyenv install {label.split()[1]}) or your system's packages"
            )
            print(
                f"  {label} ({why}): NO INTERPRETER on this machine; install {hint}, "
                "or set PORTABILITY_PYTHONS" + ("" if allow_missing else " -- counted as a failure")
            )
            results.append((f"{label}: no interpreter", allow_missing, 0.0, "not tested"))
            all_ok &= allow_missing
            continue
        print(f"  {label} ({why}): {python}", flush=True)
        probe = subprocess.run([python, "-c", "import ensurepip, venv"], capture_output=True)
        if probe.returncode != 0:
            print(
                f"  {label}: {python} cannot make environments (no ensurepip/venv); "
                "on Debian: apt-get install python3-venv"
                + ("" if allow_missing else " -- counted as a failure")
            )
            results.append((f"{label}: no venv module", allow_missing, 0.0, "not tested"))
            all_ok &= allow_missing
            continue
        try:
            env_dir = build_env(python, label.split()[1], key)
        except subprocess.CalledProcessError as err:
            print(f"  {label}: building the environment from the lock FAILED ({err})")
            results.append((f"{label}: lock does not install", False, 0.0, str(err)))
            all_ok = False
            continue
        ok, seconds, summary = run_tests(
            str(env_dir / "bin" / "python"), f"{label} ({python})", clean_env()
        )
        results.append((f"{label} ({python})", ok, seconds, summary))
        all_ok &= ok
    return all_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--simd-only", action="store_true", help="only the SIMD levels")
    which.add_argument("--pythons-only", action="store_true", help="only the Python versions")
    args = parser.parse_args()
    start = time.monotonic()
    results: list = []
    ok = True
    if not args.pythons_only:
        ok &= simd_sweep(results)
    if not args.simd_only:
        ok &= python_sweep(results)
    print(f"\ntest-portability summary ({time.monotonic() - start:.0f} s in all):")
    for name, passed, seconds, summary in results:
        mark = "ok  " if passed else "FAIL"
        print(f"  {mark} {name}" + (f"  ({seconds:.0f} s; {summary})" if summary else ""))
    print("test-portability: " + ("every run passed" if ok else "FAILED (see above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
