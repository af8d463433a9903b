"""The layout's rules (issue 28; docs/adding-a-game.md), checked on the sources' imports.

The import graph of ``arena/`` and ``bots/`` is read with ``ast`` (every import, those
inside functions too; not those under ``if TYPE_CHECKING:``, which never run). It has no
circles; each module imports only its own layer and those below; no module outside a
game's folders (``arena/games/<game>/`` and ``bots/<game>/``) imports the game's modules,
except the registry; and a game's rules import nothing but ``arena.core``, ``arena.wire``
and their own folder (so neither grpc nor rich).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games.registry import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
GAMES = tuple(REGISTRY)

# The layers, bottom first: a module may import its own layer and those below it. The
# longest matching prefix of a module's name gives its layer.
LAYERS = {
    "arena": 0,  # the package itself: __version__
    "arena.core": 0,
    "arena._proto": 0,
    "arena.bot": 0,  # the bot interface, for the arena and the bots alike
    "arena.wire": 1,
    "bots": 1,  # the catalogue of bundled bots (bots/__init__.py and each bots/<game>/)
    "arena.games": 2,
    "arena.standings": 3,
    "arena.play": 4,
    "arena.report": 5,
    "arena.referee": 6,
    "arena.ladder": 6,  # the ladder: a referee that never ends, with its store and page
    "arena.sdk": 6,
    "arena.cli": 7,
    "arena.cli_games": 7,
}
BOT_LAYER = 8  # a bundled bot's own module: it plays through the SDK
LAYER_NAMES = {
    0: "core",
    1: "wire / bots catalogue",
    2: "games",
    3: "standings",
    4: "play",
    5: "report",
    6: "referee and SDK",
    7: "CLI",
    8: "bots",
}


@functools.cache
def module_files() -> dict[str, Path]:
    """Every module of arena/ and bots/ (the generated protobuf code aside), by name."""
    out = {}
    for top in ("arena", "bots"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "_proto" in rel.parts or "node_modules" in rel.parts:
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


def imported(name: str, path: Path) -> set[str]:
    """The modules ``name`` (at ``path``) imports, as written (absolute)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of arena/ and bots/ it imports."""
    files = module_files()
    return {
        name: {m for m in imported(name, path) if m in files and m != name}
        for name, path in files.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def game_of(module: str) -> str | None:
    """The game whose folder holds ``module``, or None."""
    for game in GAMES:
        for folder in (f"arena.games.{game}", f"bots.{game}"):
            if module == folder or module.startswith(folder + "."):
                return game
    return None


def layer(module: str) -> int:
    game = game_of(module)
    if module.startswith("bots.") and module not in {f"bots.{g}" for g in GAMES}:
        return BOT_LAYER  # a bot's module (bots.random, bots.truf.greedy, ...)
    if game is not None and module == f"arena.games.{game}.check":
        return LAYERS["arena.referee"]  # a game's `arena check` cases plug into the checker
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in LAYERS:
            return LAYERS[prefix]
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_the_cycle_finder_finds_a_circle_and_only_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_imports_but_not_type_checking_ones() -> None:
    graph = import_graph()
    # arena.games.truf.replay imports its state inside functions; its record only for types.
    assert "arena.games.truf.state" in graph["arena.games.truf.replay"]
    assert "arena.games.truco.state" not in graph["arena.games.truco.record"]


def test_arena_and_bots_have_no_import_circles() -> None:
    assert cycles(import_graph()) == []


def test_every_layer_imports_only_downward() -> None:
    wrong = [
        f"{m} ({LAYER_NAMES[layer(m)]}) imports {d} ({LAYER_NAMES[layer(d)]})"
        for m, deps in sorted(import_graph().items())
        for d in sorted(deps)
        if layer(d) > layer(m)
    ]
    assert wrong == []


def test_only_the_registry_imports_a_game_from_outside_its_folders() -> None:
    """The rule of docs/adding-a-game.md: tests aside, a game is known through its
    registry entry only."""
    wrong = [
        f"{m} imports {d}"
        for m, deps in sorted(import_graph().items())
        for d in sorted(deps)
        if game_of(d) is not None and game_of(m) != game_of(d) and m != "arena.games.registry"
    ]
    assert wrong == []


@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_import_only_core_wire_and_their_own_folder(game: str) -> None:
    """Everything a game's rules reach, transitively, is ``arena.core``, ``arena.wire``
    (its codec) or its own folder: no grpc, no rich, nothing of the arena above. Its
    ``check.py`` alone is a plug-in of the referee's checker."""
    graph = import_graph()
    files = module_files()
    allowed = ("arena.core", "arena.wire", f"arena.games.{game}")
    for name, path in files.items():
        if not name.startswith(f"arena.games.{game}") or name.endswith(".check"):
            continue
        outside = imported(name, path) - set(files)
        assert not {m.split(".")[0] for m in outside} & {"grpc", "rich", "typer"}, name
        seen, todo = set(), [name]
        while todo:
            for dep in graph[todo.pop()] - seen:
                seen.add(dep)
                todo.append(dep)
        stray = sorted(d for d in seen if d != "arena" and not d.startswith(allowed))
        assert stray == [], f"{name} reaches {stray}"


def test_each_game_folder_has_what_adding_a_game_lists() -> None:
    """docs/adding-a-game.md: the files of a game's folder, and its registry line."""
    doc = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    for part in ("entry.py", "wire.py", "check.py", "viewer.js", "replay.py", "record.py"):
        assert f"`{part}`" in doc, part
        for game in GAMES:
            assert (ROOT / "arena" / "games" / game / part).exists(), (game, part)
    for game in GAMES:
        entry = REGISTRY[game]
        assert entry.codec == f"arena.games.{game}.wire"
        assert entry.check == f"arena.games.{game}.check"
        assert entry.viewer == f"arena.games.{game}"
        assert (ROOT / "bots" / game / "__init__.py").exists(), game


def test_no_script_folder_shadows_a_module() -> None:
    """``python bench/x.py`` (or scripts/, or a test that imports a bench) puts that folder
    first on the import path, so a file there named like a module shadows it for the
    whole process: bench/grpc.py did, and ``import grpc`` then found the bench (the
    README bot tests failed after tests/test_bench_truco_paired.py, in that order only).
    No file there may share its name with the standard library or an installed package."""
    taken = set(sys.stdlib_module_names) | set(importlib.metadata.packages_distributions())
    for folder in ("bench", "scripts"):
        names = {path.stem for path in (ROOT / folder).glob("*.py")}
        assert not names & taken, f"{folder}/ shadows {sorted(names & taken)}"
