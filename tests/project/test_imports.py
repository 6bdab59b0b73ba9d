"""Every module of the project's packages imports on its own, none imports itself back, each
package imports only the layers below it (LAYERS), and no package of the harness imports
itself back through another.

Each module is imported in a process of its own that holds no project module, forked from one
that has imported the outside modules the project names (tests/helpers/import_alone.py), so
that numpy, scipy and plotly are imported once rather than once per module.

A module that only imports when another one was imported first, or two modules that import
each other, work until someone changes the order of imports somewhere else. The cycle check
reads the source with `ast` rather than importing it, so that it sees every import: at the top
level, inside functions, and under `if TYPE_CHECKING:` alike.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

from tests.helpers.paths import REPO

PACKAGES = ("cli", "harness", "generator", "contract")
IMPORT_TIMEOUT_S = 600  # every module, two at a time on a 2-vCPU machine


def module_files() -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the project's packages."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `module` imports anywhere in its source, relative imports resolved."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                if not is_package:
                    package = package[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            # `from pkg import name` imports the module pkg.name when there is one.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            # `import a.b.c` of a name below a module (a.b.c is an attribute) counts as a.b.
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported_names(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [cycle_within(graph, group) for group in groups]


def cycle_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(graph[node] & group):
                if successor == start:
                    return [*paths[node], start]
                if successor not in paths:
                    paths[successor] = [*paths[node], successor]
                    following.append(successor)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not strongly connected")


def outside_names(path: Path) -> set[str]:
    """The modules from outside the project that a source file imports, absolute imports only:
    `from a.b import c` names a.b, and a.b.c in case c is a module."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.split(".")[0] not in PACKAGES}


def imports_alone(
    modules: list[str], outside: set[str], env: dict[str, str] | None = None
) -> dict[str, str | None]:
    """{module: None when it imports with no other project module imported before it, else
    what its import raised}."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.helpers.import_alone", ",".join(sorted(outside)),
         *modules],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=IMPORT_TIMEOUT_S,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_module_imports_on_its_own() -> None:
    files = module_files()
    outside = set().union(*(outside_names(path) for path in files.values()))
    errors = imports_alone(sorted(files), outside)

    failing = {module: error for module, error in errors.items() if error}
    assert not failing, "modules that do not import on their own:\n" + "\n".join(
        f"  {module}: {error}" for module, error in failing.items()
    )


def test_a_module_that_needs_another_imported_first_is_named(tmp_path: Path) -> None:
    # Canary: b uses a name that only exists once a was imported, so it fails on its own.
    package = tmp_path / "orderpkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("import orderpkg\norderpkg.shared = 1\n", encoding="utf-8")
    (package / "b.py").write_text("import orderpkg\nvalue = orderpkg.shared\n", encoding="utf-8")
    env = {"PYTHONPATH": f"{tmp_path}:{REPO}", "PATH": ""}
    assert imports_alone(["orderpkg.a", "orderpkg.b"], {"json"}, env) == {
        "orderpkg.a": None,
        "orderpkg.b": "AttributeError: module 'orderpkg' has no attribute 'shared'",
    }


def test_no_import_cycle() -> None:
    found = cycles(import_graph())

    assert not found, "import cycles:\n" + "\n".join("  " + " -> ".join(cycle) for cycle in found)


# Which packages each may import: the contract is the base both halves stand on, the harness
# measures and the generator publishes without knowing of each other, and only the command
# line joins them.
LAYERS = {
    "contract": set(),
    "harness": {"contract"},
    "generator": {"contract"},
    "cli": {"contract", "harness", "generator"},
}


def test_packages_import_only_the_layers_below_them() -> None:
    crossings = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in targets
        if (top := target.split(".")[0]) != (own := module.split(".")[0])
        and top not in LAYERS[own]
    )
    assert crossings == []


def package_imports(
    graph: dict[str, set[str]], packages: set[str]
) -> dict[str, dict[str, set[str]]]:
    """{package: {package it imports: the module imports that make it}} between the given
    packages, for the modules inside them (a module outside every package is left out)."""

    def package_of(module: str) -> str | None:
        return next((p for p in packages if module == p or module.startswith(p + ".")), None)

    found: dict[str, dict[str, set[str]]] = {package: {} for package in packages}
    for module, targets in graph.items():
        if (own := package_of(module)) is None:
            continue
        for target in targets:
            if (other := package_of(target)) not in (None, own):
                found[own].setdefault(other, set()).add(f"{module} imports {target}")
    return found


def package_cycles(graph: dict[str, set[str]], packages: set[str]) -> list[str]:
    """Each cycle between packages, followed by the module imports along it."""
    edges = package_imports(graph, packages)
    return [
        " -> ".join(cycle)
        + "".join(
            f"\n    {line}"
            for here, there in pairwise(cycle)
            for line in sorted(edges[here][there])
        )
        for cycle in cycles({package: set(imported) for package, imported in edges.items()})
    ]


def test_no_import_cycle_between_harness_packages() -> None:
    # A package imported by one it imports cannot be read, tested or typed on its own: the
    # campaign model lives in harness/model/ so that the servers, workloads and runs that carry a
    # campaign out import it without the loader, which imports them.
    packages = {
        module
        for module, path in module_files().items()
        if module.count(".") == 1 and module.startswith("harness.") and path.name == "__init__.py"
    }
    found = package_cycles(import_graph(), packages)

    assert not found, "import cycles between harness packages:\n" + "\n".join(
        "  " + cycle for cycle in found
    )


def test_package_cycle_names_the_modules_that_close_it() -> None:
    # Canary on a made-up graph: a and b import each other through different modules; c only
    # imports a, and a module outside both packages is ignored.
    graph = {
        "pkg.a.x": {"pkg.b.y"},
        "pkg.b.y": set(),
        "pkg.b.z": {"pkg.a.x", "pkg.tool"},
        "pkg.c.w": {"pkg.a.x"},
        "pkg.tool": {"pkg.c.w"},
    }

    assert package_cycles(graph, {"pkg.a", "pkg.b", "pkg.c"}) == [
        "pkg.a -> pkg.b -> pkg.a\n    pkg.a.x imports pkg.b.y\n    pkg.b.z imports pkg.a.x"
    ]


def test_cycle_check_sees_every_kind_of_import(tmp_path: Path) -> None:
    # Canary on a made-up package: a cycle closed by a relative import inside a function and
    # one closed under TYPE_CHECKING must both be found.
    package = tmp_path / "pkg"
    package.mkdir()
    sources = {
        "__init__.py": "",
        "a.py": "def f():\n    from . import b\n",
        "b.py": "from pkg.c import thing\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n",
        "d.py": "import pkg.e\n",
        "e.py": "from pkg import d\n",
    }
    modules = {}
    for name, text in sources.items():
        (package / name).write_text(text, encoding="utf-8")
        module = "pkg" if name == "__init__.py" else f"pkg.{name[:-3]}"
        modules[module] = package / name
    graph = {name: imported_names(name, path, modules) for name, path in modules.items()}

    assert sorted(cycles(graph)) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
        ["pkg.d", "pkg.e", "pkg.d"],
    ]
