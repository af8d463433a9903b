"""Shared test plumbing: what a test does when a tool it needs is missing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

MissingTool = Callable[[str, str], NoReturn]


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal delivers it, whatever started the suite: a suite run in the
    background of a script inherits SIGINT ignored, and its children (the arena runs the
    Ctrl-C tests start) would inherit that too and never see the signal they are sent.
    The tests that mean a background job (tests/test_signals.py) make it so themselves."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


JS_DIR = Path(__file__).resolve().parents[1] / "bots" / "js"
NPM_TIMEOUT = 300.0


def _missing_tool(what: str, install: str) -> NoReturn:
    """Skip, or in CI (``CI`` set to a non-empty value, as ``.ci/run`` does) fail: there the
    install step is part of the build, so a missing tool is a broken build, not a skip."""
    message = f"{what}; to install: {install}"
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def missing_tool() -> MissingTool:
    """``missing_tool(what, install)``: call it where a needed tool is absent."""
    return _missing_tool


@pytest.fixture(scope="session")
def js_node_modules(missing_tool: MissingTool) -> Path:
    """``bots/js/node_modules``, installed from the committed package-lock.json (``npm ci``)
    when missing. Every test that runs the JavaScript bot asks for it, so none runs or
    skips depending on which tests ran before it; without node or npm each skips (and
    fails under CI, as ``missing_tool`` does)."""
    install = (
        "Node.js >= 20 with npm (e.g. apt-get install nodejs npm), then npm ci --prefix bots/js"
    )
    if shutil.which("node") is None:
        missing_tool("node is not on PATH: the JavaScript bot needs Node.js >= 20", install)
    modules = JS_DIR / "node_modules"
    if (
        not (modules / "@grpc" / "grpc-js").is_dir()
        or not (modules / "@grpc" / "proto-loader").is_dir()
    ):
        npm = shutil.which("npm")
        if npm is None:
            missing_tool(
                "node is on PATH but npm is not: cannot install bots/js/node_modules", install
            )
        done = subprocess.run(
            [npm, "ci", "--prefix", str(JS_DIR)], capture_output=True, text=True,
            timeout=NPM_TIMEOUT, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"npm ci --prefix bots/js failed:\n{done.stdout}{done.stderr}"
    return modules


@pytest.fixture
def host() -> Iterator[Callable[..., Any]]:
    """Makes real referees on loopback (tests/test_grpc.py's ``Hosted``, its keywords the
    referee's options), each closed after the test."""
    from test_grpc import Hosted

    made: list[Hosted] = []

    def make(**options: Any) -> Hosted:
        made.append(Hosted(**options))
        return made[-1]

    yield make
    for h in made:
        h.close()
