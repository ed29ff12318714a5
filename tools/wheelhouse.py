"""make wheelhouse: every locked wheel, for every platform the README promises, in one folder.

For a room without network: copy the folder to a USB stick, and each learner builds the
environment from it with no network (``python3 run.py check --wheels FOLDER``, or
``make check WHEELS=FOLDER``; run.py installs with ``pip --no-index --find-links FOLDER``).

For each platform and Python (3.11 to 3.13) it runs ``pip download --only-binary=:all:``
with that platform's tags. pip judges environment markers by the machine it runs on, not by
``--platform`` (pypa/pip#11664), so a Windows-only dependency such as pywinpty (terminado's, on
Windows) would be left out: after each download the folder is walked as pip would install from
it on the target (each wheel's Requires-Dist, markers judged for the target) and whatever is
missing is downloaded too. A locked package that publishes only a source archive is built into
a wheel here once, when it is pure Python (one wheel fits every platform). A platform that
still lacks a wheel is reported INCOMPLETE (in the output and README.txt, exit status 1),
naming the package; the other platforms are completed all the same. The folder also gets
README.txt (sizes and how to use it) and a zip of the repository at HEAD, so that a learner
without a clone can start from the stick.

Usage: python tools/wheelhouse.py [--dest wheelhouse] [--platform NAME ...] [--python 3.11 ...]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PYTHONS = ("3.11", "3.12", "3.13")
# Linux wheels up to glibc 2.28: Debian 10, Ubuntu 18.10, RHEL 8 and newer. pip does not
# widen a manylinux_2_X --platform to older glibc levels itself, so every level is named, with
# the legacy names (manylinux2014 = 2_17, manylinux2010 = 2_12, manylinux1 = 2_5).
MANYLINUX = tuple(f"manylinux_2_{minor}" for minor in range(28, 4, -1)) + (
    "manylinux2014",
    "manylinux2010",
    "manylinux1",
)


@dataclass(frozen=True)
class Platform:
    name: str
    pip_platforms: tuple  # what pip download gets as --platform
    tag_platforms: tuple  # every platform tag an installer there accepts, best first
    markers: dict  # the environment markers there (PEP 508), Python aside
    promise: str  # what the README promises, in words


def _linux(arch: str) -> Platform:
    tags = tuple(f"{m}_{arch}" for m in MANYLINUX)
    machine = {"x86_64": "x86_64", "aarch64": "aarch64"}[arch]
    markers = dict(sys_platform="linux", platform_system="Linux", os_name="posix")
    return Platform(
        f"linux-{arch}", tags, tags, markers | {"platform_machine": machine}, "glibc 2.28+"
    )


def _macos(arch: str, version: tuple) -> Platform:
    first = f"macosx_{version[0]}_{version[1]}_{arch}"  # pip widens it to older versions itself
    markers = dict(sys_platform="darwin", platform_system="Darwin", os_name="posix")
    return Platform(
        f"macos-{arch}",
        (first,),
        tuple(mac_platforms(version, arch)),
        markers | {"platform_machine": arch},
        f"macOS {version[0]}+",
    )


PLATFORMS = {
    p.name: p
    for p in (
        _linux("x86_64"),
        _linux("aarch64"),
        _macos("arm64", (12, 0)),  # scipy's oldest arm64 wheels are for macOS 12
        _macos("x86_64", (12, 0)),
        Platform(
            "windows-x86_64",
            ("win_amd64",),
            ("win_amd64",),
            dict(sys_platform="win32", platform_system="Windows", os_name="nt")
            | {"platform_machine": "AMD64"},
            "Windows 10+",
        ),
    )
}


@dataclass(frozen=True)
class Target:
    platform: Platform
    python: str  # "3.11"

    @property
    def label(self) -> str:
        return f"{self.platform.name} / Python {self.python}"

    @property
    def abi(self) -> str:
        return "cp" + self.python.replace(".", "")

    def marker_env(self, extra: str = "") -> dict:
        env = dict(self.platform.markers)
        env |= dict(
            python_version=self.python,
            python_full_version=self.python + ".0",
            implementation_name="cpython",
            platform_python_implementation="CPython",
            implementation_version=self.python + ".0",
            platform_release="",
            platform_version="",
            extra=extra,
        )
        return env

    def tags(self) -> list[Tag]:
        """The wheel tags pip accepts on the target, best first."""
        version = tuple(int(n) for n in self.python.split("."))
        platforms = list(self.platform.tag_platforms)
        return [
            *cpython_tags(version, abis=[self.abi], platforms=platforms),
            *compatible_tags(version, interpreter=self.abi, platforms=platforms),
        ]

    def pip_download(self) -> list[str]:
        cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check"]
        cmd += ["--progress-bar", "off", "--only-binary=:all:"]
        for p in self.platform.pip_platforms:
            cmd += ["--platform", p]
        cmd += ["--python-version", self.python, "--implementation", "cp"]
        return cmd + ["--abi", self.abi, "--abi", "abi3", "--abi", "none"]


def lock_requirements(target: Target, lock: Path = LOCK) -> list[Requirement]:
    """The lock's pins that apply on *target* (their markers judged there), markers dropped."""
    out = []
    for line in lock.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(target.marker_env()):
            req.marker = None
            out.append(req)
    return out


def choose_wheels(folder: Path, target: Target, pins: dict) -> dict:
    """{name: wheel path} as pip would choose from *folder* on *target*: the pinned version
    (else the newest), and of its wheels the one with the best tag."""
    rank = {tag: i for i, tag in enumerate(target.tags())}
    best: dict = {}
    for path in folder.glob("*.whl"):
        name, version, _, tags = parse_wheel_filename(path.name)
        score = min((rank[t] for t in tags if t in rank), default=None)
        if score is None or (name in pins and version not in pins[name]):
            continue
        key = (version, -score)
        if name not in best or key > best[name][0]:
            best[name] = (key, path)
    return {name: path for name, (_, path) in best.items()}


def requires(wheel: Path) -> list[Requirement]:
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        message = Parser().parsestr(zf.read(meta).decode("utf-8"))
    return [Requirement(r) for r in message.get_all("Requires-Dist") or []]


def walk(folder: Path, target: Target, roots: list[Requirement]) -> tuple[dict, list[str]]:
    """Install *roots* on *target* from *folder* as pip would: ({name: wheel used}, [what is
    missing]). Each wheel's Requires-Dist is followed, markers judged for the target, extras too."""
    pins = {canonicalize_name(r.name): r.specifier for r in roots}
    chosen = choose_wheels(folder, target, pins)
    used, missing, seen = {}, set(), set()
    queue = [(canonicalize_name(r.name), frozenset(r.extras), r.specifier) for r in roots]
    while queue:
        name, extras, specifier = queue.pop()
        if (name, extras, specifier) in seen:
            continue
        seen.add((name, extras, specifier))
        wheel = chosen.get(name)
        if wheel is None or not specifier.contains(
            parse_wheel_filename(wheel.name)[1], prereleases=True
        ):
            missing.add(f"{name}{specifier}")
            continue
        used[name] = wheel
        for dep in requires(wheel):
            env = [target.marker_env(e) for e in ("", *extras)]
            if dep.marker is None or any(dep.marker.evaluate(e) for e in env):
                queue.append((canonicalize_name(dep.name), frozenset(dep.extras), dep.specifier))
    return used, sorted(missing)


def run_pip(cmd: list[str], quiet: bool = False) -> subprocess.CompletedProcess:
    """Run pip quietly; show its output (the local-mirror warnings aside) only when it fails."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 and not quiet:
        for line in (out.stdout + out.stderr).splitlines():
            if line.strip() and not line.startswith("WARNING: Location"):
                print("    | " + line, flush=True)
    return out


class NoWheel(Exception):
    """A locked package has no wheel for a target and cannot be built into one here."""


NO_WHEEL = re.compile(r"No matching distribution found for ([A-Za-z0-9._-]+)==([^\s;]+)")


def build_pure_wheel(name: str, version: str, dest: Path, target: Target) -> None:
    """*target* finds no wheel of name==version. If the package publishes none at all (only a
    source archive) and is pure Python, build its wheel here once: it fits every platform."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    with tempfile.TemporaryDirectory() as tmp:
        host = run_pip(
            [*pip, "download", "--no-deps", "--only-binary=:all:", "-d", tmp, f"{name}=={version}"],
            quiet=True,
        )
        if host.returncode == 0:
            raise NoWheel(
                f"{name}=={version} publishes no wheel for {target.label} (it does for "
                "this machine), so pip builds it from source there (a C compiler, and network); "
                "pin a version that has one in requirements.in, or raise the platform's oldest "
                "version in PLATFORMS if a newer one has it"
            )
        subprocess.run(
            [*pip, "wheel", "--no-deps", "--quiet", "-w", tmp, f"{name}=={version}"], check=True
        )
        (wheel,) = Path(tmp).glob("*.whl")
        if not all(
            t.platform == "any" and t.abi == "none" for t in parse_wheel_filename(wheel.name)[3]
        ):
            raise NoWheel(
                f"{name}=={version} publishes only a source archive and is not pure "
                f"Python ({wheel.name}): the wheelhouse cannot hold it for {target.label}."
            )
        print(f"  built {wheel.name} from its source archive (pure Python: fits every platform)")
        shutil.move(str(wheel), dest / wheel.name)


def download(target: Target, dest: Path) -> dict:
    """Fill *dest* for *target*; return {name: wheel} that target installs."""
    roots = lock_requirements(target)
    wanted = [str(r) for r in roots]
    for _ in range(10):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(wanted) + "\n")
        # --find-links: the wheels built here from source archives count as found
        out = run_pip(
            [*target.pip_download(), "--find-links", str(dest), "-r", f.name, "-d", str(dest)]
        )
        Path(f.name).unlink()
        if out.returncode != 0:
            found = NO_WHEEL.search(out.stdout + out.stderr)
            if not found:
                raise SystemExit(f"wheelhouse: pip download failed for {target.label}")
            build_pure_wheel(*found.groups(), dest, target)
            continue
        used, wanted = walk(dest, target, roots)
        if not wanted:
            return used
        print(f"  {target.label}: also needs {', '.join(wanted)} (markers judged for it)")
    raise SystemExit(f"wheelhouse: {target.label}: still missing {wanted}")


def mib(n: int) -> str:
    return f"{n / 2**20:,.0f} MiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", default="wheelhouse", type=Path)
    parser.add_argument("--platform", nargs="+", choices=list(PLATFORMS), default=list(PLATFORMS))
    parser.add_argument("--python", nargs="+", choices=PYTHONS, default=list(PYTHONS))
    args = parser.parse_args(argv)
    dest = args.dest if args.dest.is_absolute() else ROOT / args.dest
    dest.mkdir(parents=True, exist_ok=True)
    used: dict = {}  # platform name -> set of wheel paths
    incomplete: list[str] = []
    for name in args.platform:
        for python in args.python:
            target = Target(PLATFORMS[name], python)
            print(f"wheelhouse: {target.label}", flush=True)
            try:
                wheels = download(target, dest)
            except NoWheel as missing:  # the other platforms are still worth having
                print(f"  INCOMPLETE: {missing}", flush=True)
                incomplete.append(f"{target.label}: {missing}")
                wheels = walk(dest, target, lock_requirements(target))[0]
            used.setdefault(name, set()).update(wheels.values())
    lines = ["platform (wheels promised)         Pythons      wheels   size"]
    for name, wheels in used.items():
        size = sum(w.stat().st_size for w in wheels)
        pythons = f"{args.python[0]}-{args.python[-1]}"
        short = " INCOMPLETE" if any(i.startswith(name + " ") for i in incomplete) else ""
        lines.append(
            f"{name} ({PLATFORMS[name].promise})".ljust(35)
            + f"{pythons:<13}{len(wheels):>6}   {mib(size):>9}{short}"
        )
    total = sum(p.stat().st_size for p in dest.glob("*.whl"))
    count = len(list(dest.glob("*.whl")))
    lines.append(f"{'all (one folder; shared wheels once)':<48}{count:>6}   {mib(total):>9}")
    if incomplete:
        lines += ["", "INCOMPLETE (a learner there builds these from source, with network):"]
        lines += [f"  {line}" for line in incomplete]
    archive = dest / "did-search-improve.zip"
    try:  # the repository at HEAD, for a learner without a clone
        git = subprocess.run(
            ["git", "archive", "--format=zip", "-o", str(archive), "HEAD"], cwd=ROOT
        )
        zipped = git.returncode == 0
    except OSError:  # no git here
        zipped = False
    (dest / "README.txt").write_text(
        README.format(
            sizes="\n".join(lines),
            lock=LOCK.read_text().splitlines()[0],
            repo=archive.name
            if zipped
            else "(no zip of the repository: not a git clone, or no git)",
        )
    )
    print("\n".join(lines))
    print(f"wheelhouse: {dest} ({mib(total)} of wheels); README.txt says how to use it")
    return 1 if incomplete else 0


README = """\
Wheelhouse for "Did search improve?": every wheel the environment needs, for a room without
network. Built by make wheelhouse from requirements.lock ({lock}).

To build the environment from this folder with no network, in the repository folder
(or unzip {repo}, the repository, first):

    python3 run.py check --wheels /path/to/this/folder        macOS, Linux
    py run.py check --wheels E:\\path\\to\\this\\folder           Windows
    make check WHEELS=/path/to/this/folder                    with make

then `python3 run.py lab` (or `py run.py lab`, or `make lab`) opens the series. Python 3.11,
3.12 or 3.13 must be installed already.

{sizes}
"""


if __name__ == "__main__":
    sys.exit(main())
