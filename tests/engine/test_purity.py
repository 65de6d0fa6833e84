"""The engine is a pure library: standard library only, no I/O, no clock, no randomness of its own.

Every ``.py`` file under ``games/engine`` is parsed (not imported) and its imports are checked,
including imports inside functions. All randomness comes in through the seed, in each game's
``setup.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
SETUPS = (ENGINE / "splendor" / "setup.py", ENGINE / "duel" / "setup.py")
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))

FRAMEWORKS = (
    "django",
    "rest_framework",
    "celery",
    "redis",
    "requests",
    "psycopg",
    "drf_spectacular",
)
NOWHERE = ("time", "datetime", "os", "socket", "secrets", "uuid", "subprocess", "threading")
ONLY_IN_SETUP = ("random",)


def imported_modules(source: str, package: str = "games.engine") -> list[str]:
    """The absolute name of every module an ``import`` or ``from … import`` names in ``source``.

    Relative imports resolve against ``package``; ``from x import y`` also yields ``x.y`` (``y``
    may be a submodule).
    """
    modules: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            modules.append(module)
            modules += [f"{module}.{alias.name}" for alias in node.names if alias.name != "*"]
    return modules


def top_level(module: str) -> str:
    return module.split(".")[0]


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])


def imports_of(path: Path) -> list[str]:
    return imported_modules(path.read_text(encoding="utf-8"), package_of(path))


def is_allowed(module: str) -> bool:
    return (
        top_level(module) in sys.stdlib_module_names
        or module == "games.engine"
        or module.startswith("games.engine.")
    )


def ids(paths: list[Path]) -> list[str]:
    return [str(path.relative_to(ENGINE)) for path in paths]


def test_the_engine_files_are_found() -> None:
    names = {path.name for path in ENGINE_FILES}
    assert {"__init__.py", "facade.py", "setup.py", "transitions.py"} <= names
    assert set(SETUPS) <= set(ENGINE_FILES)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=ids(ENGINE_FILES))
def test_the_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    outside = [module for module in imports_of(path) if not is_allowed(module)]
    assert outside == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=ids(ENGINE_FILES))
def test_the_engine_never_imports_a_web_framework_queue_or_network_client(path: Path) -> None:
    found = [module for module in imports_of(path) if top_level(module) in FRAMEWORKS]
    assert found == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=ids(ENGINE_FILES))
def test_the_engine_never_reads_the_clock_the_system_or_the_network(path: Path) -> None:
    found = [module for module in imports_of(path) if top_level(module) in NOWHERE]
    assert found == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=ids(ENGINE_FILES))
def test_random_is_imported_only_by_setup(path: Path) -> None:
    found = [module for module in imports_of(path) if top_level(module) in ONLY_IN_SETUP]
    if path in SETUPS:
        assert found, "setup.py draws the game's randomness from the seed with random.Random"
    else:
        assert found == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=ids(ENGINE_FILES))
def test_the_engine_never_imports_by_name_at_run_time(path: Path) -> None:
    # __import__ or importlib would get past the checks above.
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert "__import__" not in names
    assert "importlib" not in imports_of(path)


def test_importing_the_engine_loads_no_framework() -> None:
    probe = (
        "import sys\n"
        "import games.engine\n"
        f"banned = {FRAMEWORKS!r}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in banned)\n"
        "print(loaded)\n"
        "raise SystemExit(1 if loaded else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n{probe}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# The checks can fail --------------------------------------------------------------------------


def test_the_import_reader_sees_every_form_of_import() -> None:
    source = (
        "import os.path\n"
        "import django\n"
        "from rest_framework import serializers\n"
        "from . import codec\n"
        "from ..errors import IllegalAction\n"
        "def later():\n"
        "    import time\n"
        "    from random import Random\n"
    )
    modules = imported_modules(source, "games.engine.splendor")
    assert {top_level(module) for module in modules} == {
        "os",
        "django",
        "rest_framework",
        "games",
        "time",
        "random",
    }
    assert "games.engine.splendor.codec" in modules
    assert "games.engine.errors" in modules
    assert [module for module in modules if not is_allowed(module)] == [
        "django",
        "rest_framework",
        "rest_framework.serializers",
    ]


def test_the_standard_library_list_knows_the_frameworks_are_not_in_it() -> None:
    assert "random" in sys.stdlib_module_names
    assert "__future__" in sys.stdlib_module_names
    assert not any(name in sys.stdlib_module_names for name in FRAMEWORKS)
