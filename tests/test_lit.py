"""Runs the lit/FileCheck suite once and reports every lit test as its own pytest case."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

SUITE = Path(__file__).parent / "filecheck"
TESTS = sorted(
    p
    for p in SUITE.rglob("*")
    if p.suffix in (".mlir", ".ptx") and not {"inputs", "Output"} & set(p.parts)
)


@pytest.fixture(scope="session")
def lit_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """Run lit over the whole suite; map each test's relative path to (status, lit output)."""
    lit = shutil.which("lit") or str(Path(sys.executable).parent / "lit")
    xml = tmp_path_factory.mktemp("lit") / "results.xml"
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(
        [lit, "-v", "--xunit-xml-output", str(xml), str(SUITE)],
        capture_output=True,
        text=True,
        env=env,
    )
    if not xml.exists():
        pytest.fail(f"lit did not run:\n{proc.stdout}\n{proc.stderr}")
    results: dict[str, tuple[str, str]] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        # lit names a test by classname "<suite>.<dir>.<dir>" plus its file name.
        dirs = case.get("classname", "").split(".")[1:]
        name = "/".join([*dirs, case.get("name", "")])
        failure = case.find("failure")
        skipped = case.find("skipped")
        if failure is not None:
            results[name] = ("FAIL", failure.text or "")
        elif skipped is not None:
            results[name] = ("SKIP", skipped.get("message", ""))
        else:
            results[name] = ("PASS", "")
    return results


INSTALL_HINTS = {
    "iree-opt": "iree-opt is absent (pip install iree-base-compiler==3.13.0, or pip install -e '.[oracles]')",
    "ptxas": "ptxas is absent (set $PTXAS, put it on PATH, or pip install -e '.[oracles]' for the "
             "nvidia-cuda-nvcc 13.0 wheel)",
}


def missing_tools_hint(test: Path) -> str:
    """What the test's REQUIRES line needs, with how to install each tool that is absent."""
    needs = [
        feature.strip()
        for line in test.read_text(encoding="utf-8").splitlines()
        if "REQUIRES:" in line
        for feature in line.split("REQUIRES:", 1)[1].split(",")
    ]
    hints = [INSTALL_HINTS.get(n, f"'{n}' is absent") for n in needs]
    return "; ".join(hints) or "a required tool (REQUIRES line) is absent"


@pytest.mark.parametrize("test", TESTS, ids=[str(t.relative_to(SUITE)) for t in TESTS])
def test_lit(test: Path, lit_results: dict[str, tuple[str, str]]) -> None:
    rel = str(test.relative_to(SUITE))
    status, output = lit_results.get(rel, ("MISSING", "lit did not report this test"))
    if status == "SKIP":
        pytest.skip(f"lit: {output or 'unsupported'}: {missing_tools_hint(test)}")
    assert status == "PASS", f"lit {status} for {rel}:\n{output}"


def test_suite_size() -> None:
    """The foundation promises at least 60 lit tests."""
    assert len(TESTS) >= 60, f"only {len(TESTS)} lit tests"


def test_skip_reasons_say_how_to_install_the_tool(tmp_path: Path) -> None:
    test = tmp_path / "t.mlir"
    test.write_text("// REQUIRES: ptxas, iree-opt\n// RUN: true\n")
    hint = missing_tools_hint(test)
    assert "pip install iree-base-compiler==3.13.0" in hint and "$PTXAS" in hint
