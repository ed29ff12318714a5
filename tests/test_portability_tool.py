"""The portability check's own logic: which SIMD levels it runs and what it disables for each."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location(
    "test_portability_tool_module", ROOT / "tools" / "test_portability.py"
)
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_each_level_disables_exactly_the_targets_above_it():
    dispatch = ["X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR"]
    avx2_only = {"X86_V3": True, "X86_V4": False, "AVX512_ICL": False, "AVX512_SPR": False}
    levels = tool.simd_levels(avx2_only, ["X86_V2"], dispatch)
    assert [(name, has) for name, has, _ in levels] == [
        ("baseline (X86_V2)", True),
        ("X86_V3", True),
        ("X86_V4", False),
        ("AVX512_ICL", False),
        ("AVX512_SPR", False),
    ]
    assert levels[0][2] == dispatch and levels[1][2] == ["X86_V4", "AVX512_ICL", "AVX512_SPR"]
    avx512 = dict.fromkeys(dispatch, True)
    assert [has for _, has, _ in tool.simd_levels(avx512, ["X86_V2"], dispatch)] == [True] * 5
    assert tool.simd_levels(avx512, ["X86_V2"], dispatch)[-1][2] == []


def test_the_disabled_levels_really_are_off_in_numpy():
    """What the sweep sets is what numpy obeys: the level above the baseline reads as off."""
    import numpy  # noqa: F401  (the probe below runs in a fresh process)
    from numpy._core._multiarray_umath import __cpu_dispatch__

    if not __cpu_dispatch__:
        return
    env = tool.clean_env(NPY_DISABLE_CPU_FEATURES=" ".join(__cpu_dispatch__))
    out = subprocess.run(
        [sys.executable, "-c", tool.FEATURES_PROBE],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    features = json.loads(out.stdout)["features"]
    assert not any(features.get(t) for t in __cpu_dispatch__)


def test_the_environment_key_follows_the_lock_and_pyproject():
    key = tool.lock_key()
    assert len(key) == 16 and key == tool.lock_key()
