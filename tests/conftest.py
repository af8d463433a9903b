"""Shared test plumbing: what a test does when a tool it needs is missing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import pytest

MissingTool = Callable[[str, str], NoReturn]


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
