"""The house drawn from the imports: the figures issue 23 asks for, before and after.

Reads the import graph of the project's apps with grimp (the library import-linter builds on;
imports placed inside functions count, as a circle hidden that way is still a circle) and the
source with ``ast``, and prints

* the modules of ``games/`` that sit outside any package (aim: none but the Django fixtures
  ``apps``, ``models``, ``admin``, ``urls``);
* the imports running up, from a module of a lower layer to one of a higher layer, in the
  order :data:`LAYERS` defines below (lowest first);
* the import cycles: the strongly connected components of the module graph, and of the graph
  of rooms (each package of ``games/`` and each other app squashed into one node);
* the functions over 50 lines outside the engine, and the files over 400 lines.

    .venv/bin/python benchmarks/house.py [--list]

``--list`` names every offender; without it only the counts and the cycles are printed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
APPS = ("games", "accounts", "analytics", "analysis", "notifications", "training", "splendor_site")
FIXTURES = {"__init__", "apps", "models", "admin", "urls"}
"""Modules a Django app keeps at its top by convention."""
LONG_FUNCTION = 50
LONG_FILE = 400

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("games.engine",)),
    # The site's own services that import nothing of the project: outage answers, database
    # roles, the periodic jobs' scheduler. Every floor may use them.
    (
        "site services",
        (
            "splendor_site.outages",
            "splendor_site.database_roles",
            "splendor_site.periodic_jobs",
            "splendor_site.request_limits",
            "splendor_site.redis_clients",
        ),
    ),
    ("bots", ("games.bots",)),
    ("vocabulary", ("games.vocabulary", "games.errors", "games.records", "games.notation")),
    ("store", ("games.models", "games.migrations", "games.store")),
    ("accounts", ("accounts",)),
    ("game packages", ("games.variants",)),
    ("reads", ("games.reads",)),
    ("commands", ("games.commands",)),
    # accounts' API endpoints are that app's web side, on the API's base classes.
    (
        "web and API",
        (
            "games.web",
            "games.templatetags",
            "games.api",
            "accounts.api_views",
            "accounts.api_serializers",
            "accounts.api_urls",
            "accounts.views",
            "accounts.urls",
        ),
    ),
    ("doors", ("games.tasks", "games.management", "games.apps", "games.admin", "games")),
    ("apps reading games", ("analytics", "analysis", "notifications", "training")),
    ("site", ("splendor_site",)),
)
"""The floors, lowest first: a module may import its own floor and the ones below (issue 23's
shape: each floor is a package of ``games/``); an import from a lower floor to a higher one runs
up."""


def floor_of(module: str) -> int:
    """The floor of ``module``: the longest prefix in :data:`LAYERS` decides."""
    best, floor = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, floor = len(prefix), index
    if floor < 0:
        raise SystemExit(f"house.py: {module} has no floor in LAYERS; place it")
    return floor


def room_of(module: str) -> str:
    """A package of ``games/`` or a top module of it; another app as a whole, but a room lies
    on one floor: an app's modules that :data:`LAYERS` places on another floor than the app
    (accounts' web side, the site's services) form a room of their own there."""
    parts = module.split(".")
    if parts[0] == "games":
        return ".".join(parts[:2])
    floor = floor_of(module)
    if floor == floor_of(parts[0]):
        return parts[0]
    return f"{parts[0]} ({LAYERS[floor][0]})"


def edges(graph: grimp.ImportGraph) -> Iterator[tuple[str, str]]:
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported.split(".")[0] in APPS:
                yield importer, imported


def cycles(nodes: Iterable[str], links: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
    following: dict[str, list[str]] = {node: [] for node in nodes}
    for source, target in links:
        if source != target:
            following.setdefault(source, []).append(target)
            following.setdefault(target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(following):
        if start in index:
            continue
        work = [(start, iter(sorted(following[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(following[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found, key=lambda component: (-len(component), component))


def sources() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def long_functions(path: Path) -> Iterator[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > LONG_FUNCTION:
                yield f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", length


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="name every offender")
    show = parser.parse_args(argv).list
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*APPS)
    links = set(edges(graph))

    loose = sorted(path.stem for path in (ROOT / "games").glob("*.py"))
    beyond_fixtures = [name for name in loose if name not in FIXTURES]
    print(
        f"modules in games/ outside packages: {len(loose) - 1} (besides __init__), "
        f"{len(beyond_fixtures)} beyond apps/models/admin/urls"
    )
    if show:
        print("   ", " ".join(beyond_fixtures))

    rooms = {room_of(module) for module in graph.modules}
    room_links = {(room_of(a), room_of(b)) for a, b in links if room_of(a) != room_of(b)}
    floors = {floor_of(module) for module in graph.modules}
    print(
        f"rooms: {len(rooms)} on {len(floors)} floors "
        f"({len(graph.modules)} modules, {len(links)} imports between them)"
    )

    up = sorted((a, b) for a, b in links if floor_of(b) > floor_of(a))
    up_rooms = sorted(
        {(room_of(a), LAYERS[floor_of(a)][0], room_of(b), LAYERS[floor_of(b)][0]) for a, b in up}
    )
    print(f"imports running up: {len(up)} between modules, {len(up_rooms)} between rooms")
    if show:
        for room, floor, higher_room, higher_floor in up_rooms:
            print(f"    {room} ({floor}) -> {higher_room} ({higher_floor})")

    module_cycles = cycles(graph.modules, links)
    room_cycles = cycles(rooms, room_links)
    sizes = [len(cycle) for cycle in module_cycles]
    print(
        f"import cycles: {len(module_cycles)} between modules (sizes {sizes}), "
        f"{len(room_cycles)} between rooms"
    )
    for cycle in room_cycles:
        print("    rooms:", " ".join(cycle))
    if show:
        for cycle in module_cycles:
            print("    modules:", " ".join(cycle))

    functions = [
        found
        for path in sources()
        if not path.is_relative_to(ROOT / "games" / "engine")
        for found in long_functions(path)
    ]
    print(f"functions over {LONG_FUNCTION} lines outside the engine: {len(functions)}")
    if show:
        for name, length in sorted(functions, key=lambda item: -item[1]):
            print(f"    {length:4d}  {name}")

    files = sorted(
        ((len(path.read_text().splitlines()), path.relative_to(ROOT)) for path in sources()),
        reverse=True,
    )
    big = [(lines, path) for lines, path in files if lines > LONG_FILE]
    print(f"files over {LONG_FILE} lines: {len(big)}")
    if show:
        for lines, path in big:
            print(f"    {lines:4d}  {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
