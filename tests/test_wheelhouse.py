"""tools/wheelhouse.py (make wheelhouse): the platform matrix, pip's command, and the walk that
adds what pip's host-judged markers leave out. No network: the walk runs on made-up wheels.
The real download of the Linux x86-64 part and an install from it with no network run in CI
(.ci/run)."""

import zipfile

import pytest
import wheelhouse as wh
from packaging.requirements import Requirement

PROMISED = {"linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows-x86_64"}


def target(platform="linux-x86_64", python="3.11"):
    return wh.Target(wh.PLATFORMS[platform], python)


def test_every_promised_platform_and_python_is_in_the_matrix():
    assert set(wh.PLATFORMS) == PROMISED
    assert wh.PYTHONS == ("3.11", "3.12", "3.13")


@pytest.mark.parametrize("name", sorted(PROMISED))
@pytest.mark.parametrize("python", wh.PYTHONS)
def test_pip_download_asks_for_wheels_of_that_platform_and_python_only(name, python):
    cmd = wh.Target(wh.PLATFORMS[name], python).pip_download()
    assert cmd[1:4] == ["-m", "pip", "download"] and "--only-binary=:all:" in cmd
    pairs = list(zip(cmd, cmd[1:], strict=False))
    assert ("--python-version", python) in pairs and ("--implementation", "cp") in pairs
    abi = "cp" + python.replace(".", "")
    assert {("--abi", abi), ("--abi", "abi3"), ("--abi", "none")} <= set(pairs)
    platforms = [b for a, b in pairs if a == "--platform"]
    arch = {"linux-x86_64": "x86_64", "linux-aarch64": "aarch64", "windows-x86_64": "win_amd64"}
    assert platforms and all(p.endswith(arch.get(name, name.split("-")[1])) for p in platforms)


def test_linux_takes_every_manylinux_level_up_to_glibc_2_28_with_the_legacy_names():
    tags = wh.PLATFORMS["linux-aarch64"].pip_platforms
    assert tags[0] == "manylinux_2_28_aarch64" and "manylinux_2_29_aarch64" not in tags
    assert {"manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux1_aarch64"} <= set(tags)


def test_macos_tags_reach_back_to_older_versions_and_universal2():
    tags = target("macos-arm64").tags()
    assert str(tags[0]) == "cp311-cp311-macosx_12_0_arm64"
    assert any(str(t) == "cp311-abi3-macosx_10_9_universal2" for t in tags)
    assert not any("macosx_13" in str(t) for t in tags)  # macOS 12 is the floor
    assert any(str(t) == "py3-none-any" for t in tags)


def make_wheel(folder, filename, requires=()):
    name, version = filename.split("-")[:2]
    with zipfile.ZipFile(folder / filename, "w") as zf:
        meta = [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}"]
        meta += [f"Requires-Dist: {r}" for r in requires]
        zf.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(meta) + "\n")


@pytest.fixture
def folder(tmp_path):
    make_wheel(
        tmp_path,
        "term-1.0-py3-none-any.whl",
        ["ptyproc>=0.5; os_name != 'nt'", "winpty>=1.1; os_name == 'nt'", "schema[fmt]>=4"],
    )
    make_wheel(tmp_path, "ptyproc-0.7-py3-none-any.whl")
    make_wheel(
        tmp_path, "schema-4.2-py3-none-any.whl", ["uri; extra == 'fmt'", "old; extra == 'x'"]
    )
    make_wheel(tmp_path, "uri-1.3-py3-none-any.whl")
    make_wheel(tmp_path, "fast-2.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl")
    make_wheel(tmp_path, "fast-2.0-cp311-cp311-win_amd64.whl")
    make_wheel(tmp_path, "fast-2.1-cp311-cp311-win_amd64.whl")  # not the pinned version
    return tmp_path


ROOTS = [Requirement("term==1.0"), Requirement("fast==2.0")]


def test_the_walk_judges_markers_for_the_target_and_follows_extras(folder):
    used, missing = wh.walk(folder, target("linux-x86_64"), ROOTS)
    assert missing == []
    assert sorted(used) == ["fast", "ptyproc", "schema", "term", "uri"]  # not old (extra x)
    assert used["fast"].name.endswith("manylinux2014_x86_64.whl")
    used, missing = wh.walk(folder, target("windows-x86_64"), ROOTS)
    assert missing == ["winpty>=1.1"]  # pip on this Linux machine would have skipped it
    assert used["fast"].name == "fast-2.0-cp311-cp311-win_amd64.whl"  # the pin, not 2.1
    used, missing = wh.walk(folder, target("macos-arm64"), ROOTS)
    assert missing == ["fast==2.0"]  # no macOS wheel of it in the folder


def test_a_lock_line_with_a_marker_counts_only_where_it_holds(tmp_path):
    lock = tmp_path / "requirements.lock"
    lock.write_text(
        "# Generated\nnumpy==2.4.6\n"
        'onlyx86==1.0 ; sys_platform != "linux" or platform_machine != "aarch64"\n'
    )
    names = {t: [r.name for r in wh.lock_requirements(target(t), lock)] for t in PROMISED}
    assert names["linux-aarch64"] == ["numpy"]
    assert all(n == ["numpy", "onlyx86"] for t, n in names.items() if t != "linux-aarch64")
    assert all(r.marker is None for r in wh.lock_requirements(target(), lock))


def test_pips_no_wheel_error_names_the_package_to_build_from_source():
    out = (
        "ERROR: Could not find a version that satisfies the requirement pandocfilters==1.5.1 "
        "(from versions: none)\nERROR: No matching distribution found for pandocfilters==1.5.1\n"
    )
    assert wh.NO_WHEEL.search(out).groups() == ("pandocfilters", "1.5.1")
    assert wh.NO_WHEEL.search("No matching distribution found for pywinpty>=1.1") is None


def test_a_platform_without_some_wheel_is_reported_incomplete_and_the_rest_is_kept(
    tmp_path, monkeypatch, capsys
):
    make_wheel(tmp_path, "ptyproc-0.7-py3-none-any.whl")

    def download(target, dest):
        if target.platform.name == "macos-x86_64":
            raise wh.NoWheel("bindings==26.2.0 publishes no wheel for macos-x86_64 / Python 3.11")
        return {"ptyproc": dest / "ptyproc-0.7-py3-none-any.whl"}

    monkeypatch.setattr(wh, "download", download)
    argv = ["--dest", str(tmp_path), "--platform", "linux-x86_64", "macos-x86_64"]
    assert wh.main([*argv, "--python", "3.11"]) == 1
    readme = (tmp_path / "README.txt").read_text()
    assert "INCOMPLETE" in readme and "bindings==26.2.0" in readme
    assert any(
        line.startswith("linux-x86_64") and "INCOMPLETE" not in line for line in readme.splitlines()
    )
    assert "--wheels" in readme and "INCOMPLETE: bindings" in capsys.readouterr().out
