"""The run document is read through its types: no reader outside contract/fields.py walks it by
a path it computes, or holds it as an untyped mapping.

mypy --strict checks every subscript of a TypedDict against the schema's keys (a non-literal
key is an error), so the ways left to read a document unchecked are to annotate it as
`Mapping[str, Any]` / `dict[str, Any]` / `Any`, to cast it to one, or to walk it with keys
taken from a string (`for key in path.split(".")`, `*path` varargs). This test reads the
source with `ast` and names each such place; contract/fields.py is the one module allowed to
walk a path (its paths are Literal types checked against the schema by its own tests).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

# Where run documents are read: the site's generator, the CLI, and reproduce (which rebuilds a
# campaign from a run page's JSON).
READERS = ("generator", "cli", "harness/reproduce")
ACCESSOR = REPO / "contract" / "fields.py"
# Names the code gives a run document, a step or a list of them.
DOCUMENT_NAMES = {"run", "runs", "step", "steps", "document", "documents", "first", "base_step"}
UNTYPED = ("Mapping[str, Any]", "dict[str, Any]", "Mapping[str, object]", "dict[str, object]")


def _untyped(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    text = ast.unparse(annotation).strip("'\"")
    return text == "Any" or text == "dict" or any(kind in text for kind in UNTYPED)


def _walks_a_path(loop: ast.For) -> bool:
    """`for key in <something>.split(".")` whose body descends with .get() or a subscript."""
    source = loop.iter
    split_on_dot = (
        isinstance(source, ast.Call)
        and isinstance(source.func, ast.Attribute)
        and source.func.attr == "split"
        and any(isinstance(arg, ast.Constant) and arg.value == "." for arg in source.args)
    )
    if not split_on_dot:
        return False
    return any(
        isinstance(node, ast.Subscript) or (isinstance(node, ast.Attribute) and node.attr == "get")
        for statement in loop.body
        for node in ast.walk(statement)
    )


def untyped_reads(source: str, where: str) -> list[str]:
    """Each place in `source` that reads a run document past its types, as 'file:line: why'."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            for argument in arguments:
                if argument.arg in DOCUMENT_NAMES and _untyped(argument.annotation):
                    found.append(f"{where}:{node.lineno}: {argument.arg} is untyped")
            varargs = node.args.vararg
            if varargs is not None and varargs.arg in {"path", "keys"}:
                found.append(f"{where}:{node.lineno}: walks a path given as *{varargs.arg}")
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id in DOCUMENT_NAMES and _untyped(node.annotation):
                found.append(f"{where}:{node.lineno}: {node.target.id} is untyped")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in {"cast", "typing.cast"}:
            target, value = node.args[0], node.args[1] if len(node.args) > 1 else None
            names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} if value else set()
            if names & DOCUMENT_NAMES and _untyped(target):
                found.append(f"{where}:{node.lineno}: casts a document to an untyped mapping")
        elif isinstance(node, ast.For) and _walks_a_path(node):
            found.append(f"{where}:{node.lineno}: walks a dotted path")
    return found


def _reader_files() -> list[Path]:
    return [
        path
        for folder in READERS
        for path in sorted((REPO / folder).rglob("*.py"))
        if path != ACCESSOR
    ]


def test_no_reader_reads_a_run_document_past_its_types() -> None:
    found = [
        problem
        for path in _reader_files()
        for problem in untyped_reads(path.read_text(), str(path.relative_to(REPO)))
    ]
    assert not found, "read these through contract/fields.py or the contract types:\n" + "\n".join(
        found
    )


@pytest.mark.parametrize(
    "source",
    [
        "def f(step: Mapping[str, Any]) -> None: ...",
        "def f(runs: list[dict[str, Any]]) -> None: ...",
        "steps: list[dict[str, Any]] = []",
        "x = cast('dict[str, Any]', step)",
        "def f(step, *path): ...",
        "for part in path.split('.'):\n    value = value.get(part)",
    ],
)
def test_each_way_past_the_types_is_caught(source: str) -> None:
    assert untyped_reads(source, "canary.py")


def test_typed_reads_pass() -> None:
    source = (
        "def f(run: RunDocument, step: Step) -> float | None:\n"
        "    return step_figure(step, 'latency_ms.p95') or run['steps'][0]['tps']\n"
        "names = 'a.b'.split('.')\n"
    )
    assert untyped_reads(source, "typed.py") == []
