"""The layering of the package, checked on its import graph.

Every module under ``src/euchre`` is parsed with ``ast`` and every import of a
``euchre`` module is collected, wherever it is: at the top, inside a function
(a lazy import), under ``if TYPE_CHECKING:``, or as
``importlib.import_module("euchre....")`` with a literal name. The rule: a
module imports only modules of its own rank or earlier ones in ``LAYERS``.
Lazy and ``TYPE_CHECKING`` imports follow the same rule as the others: they
may defer an import (an optional extra, start-up time), never point upward.
Imports of other packages (``rich``, ``matplotlib``, ``ray``, ``fastapi``...)
are not part of the graph.

``LAYERS`` is the one place of the order; README.md's layer paragraph names
its layers in the same order (checked below).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "euchre"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (the layer as README.md names it, its modules from the bottom up).
    # Modules are named without the ``euchre.`` prefix; "" is the package
    # ``euchre`` itself (its ``__init__`` re-exports cards to match). Each
    # string is one rank: a module may import the modules of earlier ranks and
    # those sharing its string (space-separated), never a later one.
    ("cards", ("cards",)),
    ("rules", ("rules",)),
    ("actions", ("actions",)),
    # the compiled random playouts (a C extension; its stub _cplayout.pyi) under
    # their module
    ("hand", ("hand", "_cplayout", "playout")),
    # the compiled solver (a C extension; its stub _csolver.pyi) under the solver
    ("solver", ("_csolver", "solver")),
    ("view", ("view",)),
    ("match", ("match", "")),
    ("record", ("record",)),
    ("review", ("review",)),
    (
        "bots",
        (
            "bots.base",
            "bots.random_bot",
            "bots.rule",
            "bots.style",
            "bots.scoring",
            # the compiled search (a C extension; its stub _csearch.pyi) under
            # its bridge, under the search bot
            "_csearch",
            "bots.compiled",
            "bots.search",
            "bots.cheat",
            "bots.peek",
            "bots.registry",
            "bots",
        ),
    ),
    ("arena", ("arena.stats", "arena.tasks", "arena.report", "arena.schedulers", "arena")),
    ("tui", ("tui.words", "tui.drawing", "tui.narration", "tui.guide", "tui.game", "tui")),
    # The SQLite store opens the PostgreSQL one by URL (a lazy import), which
    # subclasses the store's base: one rank.
    # A live table and the server holding it refer to each other (the table's
    # server only as a type): one rank.
    (
        "web",
        (
            "web.limits",
            "web.store web.store_pg",
            "web.tables",
            "web.workers",
            "web.messages",
            "web.middleware",
            "web.live web.server",
            "web.app",
            "web.serve",
            "web",
        ),
    ),
    ("cli", ("cli", "__main__")),
)


def _full(name: str) -> str:
    return f"euchre.{name}" if name else "euchre"


def ranks() -> dict[str, int]:
    """Module name → its rank (0 at the bottom)."""
    out: dict[str, int] = {}
    rank = 0
    for _, steps in LAYERS:
        for step in steps:
            for name in step.split(" ") if step else [""]:
                assert _full(name) not in out, f"{_full(name)} is twice in LAYERS"
                out[_full(name)] = rank
            rank += 1
    return out


def module_name(path: Path) -> str:
    """``src/euchre/web/app.py`` → ``euchre.web.app``; a package's ``__init__`` → the package."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    """Every module of the package, by name: its Python files, and each
    compiled module by its typing stub (``.pyi`` with no ``.py`` beside it)."""
    found = {
        module_name(p): p for p in sorted(SRC.rglob("*.pyi")) if not p.with_suffix(".py").exists()
    }
    found.update((module_name(p), p) for p in sorted(SRC.rglob("*.py")))
    return found


def imports_of(
    module: str, source: str, known: set[str], is_package: bool = False
) -> set[tuple[str, int]]:
    """The ``euchre`` modules that ``source`` (the text of ``module``) imports,
    with the line of each import. ``from X import name`` counts as an import of
    ``X.name`` when that is a module in ``known``, else of ``X``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[tuple[str, int]] = set()

    def add(target: str, line: int) -> None:
        if target == "euchre" or target.startswith("euchre."):
            found.add((target, line))

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package[: len(package) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in known else base, node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            add(node.args[0].value, node.lineno)
    return found


def import_graph() -> dict[str, set[tuple[str, int]]]:
    """Every module → the ``euchre`` modules it imports (with their lines)."""
    modules = source_modules()
    known = set(modules)
    return {
        name: imports_of(name, path.read_text(), known, path.name == "__init__.py")
        for name, path in modules.items()
    }


def upward_imports() -> list[tuple[str, str, int]]:
    """``(module, imported, line)`` for each import of a later rank."""
    rank = ranks()
    return sorted(
        (src, dst, line)
        for src, targets in import_graph().items()
        for dst, line in targets
        if rank[dst] > rank[src]
    )


def test_every_module_has_a_layer() -> None:
    listed = set(ranks())
    present = set(source_modules())
    assert sorted(present - listed) == [], "modules in no layer: add them to LAYERS"
    assert sorted(listed - present) == [], "LAYERS names modules that do not exist"


def test_imports_point_downward() -> None:
    bad = [f"{src} imports {dst} (line {line})" for src, dst, line in upward_imports()]
    assert bad == []


@pytest.mark.parametrize(
    ("module", "source", "is_package", "want"),
    [
        # a lazy import and one under TYPE_CHECKING are both imports
        (
            "euchre.hand",
            "if TYPE_CHECKING:\n    from .view import View\ndef f():\n    from . import view\n",
            False,
            {("euchre.view", 2), ("euchre.view", 4)},
        ),
        # from the package root: an attribute is the package, a submodule itself
        (
            "euchre.cli",
            "from . import __version__, arena\n",
            False,
            {("euchre", 1), ("euchre.arena", 1)},
        ),
        # two levels up from a subpackage's module, and an absolute import
        (
            "euchre.arena.tasks",
            "from ..bots.base import act\nimport euchre.hand\nimport json\n",
            False,
            {("euchre.bots.base", 1), ("euchre.hand", 2)},
        ),
        # a package's __init__ resolves `.` to itself
        ("euchre.bots", "from .rule import RuleBot\n", True, {("euchre.bots.rule", 1)}),
        # importlib with a literal name
        (
            "euchre.web.store",
            "import importlib\nm = importlib.import_module('euchre.web.store_pg')\n",
            False,
            {("euchre.web.store_pg", 2)},
        ),
    ],
)
def test_imports_of_finds_every_kind(
    module: str, source: str, is_package: bool, want: set[tuple[str, int]]
) -> None:
    known = set(source_modules())
    assert imports_of(module, source, known, is_package) == want


def test_an_upward_import_is_caught() -> None:
    rank = ranks()
    found = imports_of("euchre.cards", "def f():\n    from .bots import RuleBot\n", set())
    assert [dst for dst, _ in found if rank[dst] > rank["euchre.cards"]] == ["euchre.bots"]


def test_readme_names_the_layers_in_order() -> None:
    text = (ROOT / "README.md").read_text()
    start = text.index("The layers, each importing only the ones before it:")
    paragraph = text[start : text.index("\n\n", start)]
    names = re.findall(r"`([a-z_]+)`", paragraph)
    layers = [name for name, _ in LAYERS]
    assert [n for n in names if n in layers] == layers
