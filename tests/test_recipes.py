"""The stub recipes of docs/protocol.md, run as a bot author runs them.

The commands, and the C++ bot, are read from the guide itself (the blocks after its
``<!-- recipe: LANGUAGE PART -->`` markers), so the guide cannot drift from what works.
Each recipe needs its toolchain: Debian packages, which .ci/run installs. Without them
a test is skipped with the reason, except under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from conftest import MissingTool

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "protocol.md"
DEFAULT_ADDRESS = "127.0.0.1:50051"  # in the guide's code, the referee's address
RECIPE = re.compile(r"<!-- recipe: (\w+) (\w+) -->\n+```\w*\n(.*?)```", re.DOTALL)


def recipe(language: str, part: str) -> str:
    """The code block of the guide marked ``<!-- recipe: language part -->``."""
    found = {(m[1], m[2]): m[3] for m in RECIPE.finditer(GUIDE.read_text(encoding="utf-8"))}
    assert (language, part) in found, f"docs/protocol.md has no '{language} {part}' recipe"
    return found[language, part]


def cpp_packages() -> list[str]:
    """The Debian packages the guide's C++ recipe installs."""
    words = recipe("cpp", "install").split()
    return words[words.index("install") + 1 :]


def need(
    missing_tool: MissingTool,
    tools: Sequence[str],
    *,
    pkg_config: Sequence[str] = (),
    install: Sequence[str],
) -> None:
    """Skip (fail under CI) unless every tool is on PATH and every pkg-config module is
    known."""
    missing = [t for t in tools if shutil.which(t) is None]
    if shutil.which("pkg-config"):
        missing += [
            f"pkg-config module {m}"
            for m in pkg_config
            if subprocess.run(["pkg-config", "--exists", m], check=False).returncode != 0
        ]
    if missing:
        missing_tool(f"needs {', '.join(missing)}", f"apt-get install {' '.join(install)}")


def run(script: str, cwd: Path, timeout: float) -> None:
    """Run the guide's commands as a bash script, with this Python as ``python``."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{script}\n{done.stdout}{done.stderr}"


@pytest.fixture
def author_dir(tmp_path: Path) -> Path:
    """A bot author's folder: a copy of proto/ and nothing else."""
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    return tmp_path


def test_a_missing_toolchain_skips_with_its_packages_but_fails_under_ci(
    monkeypatch: pytest.MonkeyPatch, missing_tool: MissingTool
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(
        pytest.skip.Exception, match="no-such-tool; to install: apt-get install a b"
    ):
        need(missing_tool, ["no-such-tool"], install=["a", "b"])
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set and needs no-such-tool"):
        need(missing_tool, ["no-such-tool"], install=["a", "b"])


def test_the_guide_names_the_packages_ci_installs_for_the_cpp_recipe() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = set(re.findall(r"^\s*CPP_PACKAGES=\"([^\"]+)\"", ci, re.MULTILINE)[0].split())
    assert set(cpp_packages()) <= installed, (cpp_packages(), installed)


def passes_arena_check(bot: Callable[[str], list[str]], cwd: Path) -> str:
    """Start ``arena check``, run ``bot(address)`` in ``cwd``, and check that the bot
    passed every check and left when told; returns what the bot printed."""
    checker = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "check", "--listen", "127.0.0.1:0", "--wait", "60"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert checker.stdout is not None
        first = checker.stdout.readline()
        address = re.search(r"listening on (\S+):", first)
        assert address, first
        done = subprocess.run(
            bot(address[1]), cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        out = first + checker.communicate(timeout=60)[0]
    finally:
        checker.kill()
    assert done.returncode == 0, done.stdout + done.stderr
    assert checker.returncode == 0, out
    assert "all 9 checks passed" in out, out
    return done.stdout


def test_the_cpp_recipe_builds_a_bot_that_passes_arena_check(
    author_dir: Path, missing_tool: MissingTool
) -> None:
    tools = ["g++", "pkg-config", "protoc", "grpc_cpp_plugin"]
    need(missing_tool, tools, pkg_config=["grpc++", "protobuf"], install=cpp_packages())
    (author_dir / "mybot.cc").write_text(recipe("cpp", "source"), encoding="utf-8")
    run(recipe("cpp", "build"), author_dir, timeout=600)
    said = passes_arena_check(lambda address: [str(author_dir / "mybot"), address], author_dir)
    assert "playing as mybot" in said and "tournament over" in said


def test_the_js_loop_passes_arena_check(author_dir: Path, js_node_modules: Path) -> None:
    modules = js_node_modules  # installed if missing (conftest), whatever ran before
    source = recipe("js", "source")
    assert DEFAULT_ADDRESS in source

    def bot(address: str) -> list[str]:
        (author_dir / "mybot.js").write_text(source.replace(DEFAULT_ADDRESS, address))
        return ["env", f"NODE_PATH={modules}", "node", "mybot.js"]

    passes_arena_check(bot, author_dir)


def test_the_python_recipe_makes_stubs_that_import(
    author_dir: Path, missing_tool: MissingTool
) -> None:
    if importlib.util.find_spec("grpc_tools") is None:
        missing_tool("needs grpcio-tools", "pip install -e '.[test]' (the README's test command)")
    run(recipe("python", "build"), author_dir, timeout=120)
    probe = (
        "import sys; sys.path.insert(0, 'out')\n"
        "from truf.arena.v1 import arena_pb2, arena_pb2_grpc\n"
        "msg = arena_pb2.PlayRequest(); msg.hello.bot_name = 'mybot'\n"
        "assert arena_pb2_grpc.ArenaServiceStub and msg.WhichOneof('message') == 'hello'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=author_dir, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_go_recipe_makes_the_stubs(author_dir: Path, missing_tool: MissingTool) -> None:
    need(missing_tool, ["protoc", "protoc-gen-go", "protoc-gen-go-grpc"],
         install=["protobuf-compiler", "protoc-gen-go", "protoc-gen-go-grpc"])  # fmt: skip
    run(recipe("go", "build"), author_dir, timeout=120)
    stubs = author_dir / "arenapb"
    assert sorted(p.name for p in stubs.iterdir()) == [
        "arena.pb.go", "arena_grpc.pb.go", "ruff.pb.go", "truco.pb.go", "truf.pb.go"
    ]  # fmt: skip
    assert "func NewArenaServiceClient" in (stubs / "arena_grpc.pb.go").read_text()
    assert "package arenapb" in (stubs / "truf.pb.go").read_text()


def test_the_java_recipe_makes_the_stubs(author_dir: Path, missing_tool: MissingTool) -> None:
    need(missing_tool, ["protoc", "grpc_java_plugin"],
         install=["protobuf-compiler", "protobuf-compiler-grpc-java-plugin"])  # fmt: skip
    run(recipe("java", "build"), author_dir, timeout=120)
    stubs = author_dir / "src" / "main" / "java" / "truf" / "arena" / "v1"
    assert sorted(p.name for p in stubs.iterdir()) == [
        "Arena.java", "ArenaServiceGrpc.java", "Ruff.java", "Truco.java", "Truf.java"
    ]  # fmt: skip
    assert "newStub(" in (stubs / "ArenaServiceGrpc.java").read_text()
