"""The page files and the templates that read them agree on generator/pages/page_files.py.

Templates: every field chain read through a variable bound to a page file is declared there.
A variable is typed when a template binds it to a page file (`$data := partial
"helpers/run.html" ...`, `$campaign := partial "helpers/campaign.html" ...`, a cell's texts from
`partial "helpers/cell-texts.html"`), to a typed variable's field (`$run := $data.run`), or
ranges over one (`range $workload := $campaign.workloads`); each `$var.a.b` after that is walked
down the types, TypedDicts of the contract included (`$run.workload.tool`). A part typed
`dict[str, Any]` ends the walk: what the partials it is handed to read of it is not checked.

Page files: every run and campaign page file the generator writes for the fixture runs holds
only declared fields, and each field the page-file types require.
"""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.load import load_runs
from generator.pages import page_files
from generator.pages.page_files import CELL_TEXTS, CampaignPageFile, CellTexts, RunPageFile
from tests.helpers.paths import FIXTURE_RUNS, REPO

ROOTS: dict[str, Any] = {
    "helpers/run.html": RunPageFile,
    "helpers/campaign.html": CampaignPageFile,
    "helpers/cell-texts.html": CellTexts,
}
ACTION = re.compile(r"\{\{-?(.*?)-?\}\}", re.DOTALL)
BIND = re.compile(r"^\s*\$(\w+)\s*:?=\s*(.+?)\s*$", re.DOTALL)
RANGE = re.compile(r"^\s*range\s+(?:\$\w+\s*,\s*)?\$(\w+)\s*:=\s*(\$\w+(?:\.\w+)*)\s*$")
PARTIAL = re.compile(r'^\(?\s*partial\s+"([^"]+)"[^()]*(?:\([^()]*\)[^()]*)*\)?((?:\.\w+)*)$')
CHAIN = re.compile(r"^\$(\w+)((?:\.\w+)*)$")
READ = re.compile(r"\$(\w+)((?:\.\w+)+)")


def _members(hint: Any) -> list[Any]:
    """The types a hint may be, None left out (a template guards it with `with`)."""
    if get_origin(hint) in (Union, types.UnionType):
        return [member for arg in get_args(hint) for member in _members(arg)]
    return [] if hint is type(None) else [hint]


def field_type(hint: Any, name: str) -> tuple[Any, str | None]:
    """The type of field `name` of a value of type `hint`: (type, None), or (None, why not)."""
    found, why = [], None
    for member in _members(hint):
        if member is Any:
            return Any, None
        if is_typeddict(member):
            hints = get_type_hints(member)
            if name in hints:
                found.append(hints[name])
            else:
                why = f"{member.__name__} has no field {name!r}"
        elif get_origin(member) is dict:
            found.append(get_args(member)[1])
        else:
            why = f"{name!r} is read from a {getattr(member, '__name__', member)}"
    if found:
        return (found[0] if len(found) == 1 else Union[tuple(found)]), None  # noqa: UP007
    return None, why


def element_type(hint: Any) -> Any:
    """What `range` gives of a list or a map of this type; Any when it cannot say."""
    for member in _members(hint):
        if get_origin(member) in (list, dict):
            return get_args(member)[-1]
    return Any


def _walk(hint: Any, fields: list[str]) -> tuple[Any, str | None]:
    for name in fields:
        hint, why = field_type(hint, name)
        if why:
            return None, why
        if hint is Any:
            return Any, None
    return hint, None


def _bound_type(expression: str, typed: dict[str, Any]) -> Any:
    """The type of a binding's right-hand side; None when it is not a page file's part."""
    if found := PARTIAL.match(expression.strip()):
        root = ROOTS.get(found[1])
        fields = [field for field in found[2].split(".") if field]
        return None if root is None else _walk(root, fields)[0]
    if (found := CHAIN.match(expression.strip())) and found[1] in typed:
        return _walk(typed[found[1]], [field for field in found[2].split(".") if field])[0]
    return None


def template_reads(text: str, where: str) -> list[str]:
    """Each read in a template of a field its page-file type lacks, as 'file: $var.a.b: why'."""
    typed: dict[str, Any] = {}
    problems = []
    for action in ACTION.findall(text):
        if action.lstrip().startswith("/*"):
            continue
        ranging = RANGE.match(action)
        binding = None if ranging else BIND.match(action)
        target, expression = (ranging[1], ranging[2]) if ranging else (None, None)
        if binding:
            target, expression = binding[1], binding[2]
        reads = expression if binding and expression else action
        for variable, chain in READ.findall(reads):
            if variable in typed and typed[variable] is not Any:
                _, why = _walk(typed[variable], chain.lstrip(".").split("."))
                if why:
                    problems.append(f"{where}: ${variable}{chain}: {why}")
        if target is not None and expression is not None:
            bound = _bound_type(expression, typed)
            if ranging and bound is not None:
                bound = element_type(bound)
            if bound is None:
                typed.pop(target, None)
            else:
                typed[target] = bound
    return problems


def _templates() -> list[Path]:
    return sorted(
        [*(REPO / "layouts").rglob("*.html"), *(REPO / "content").rglob("_content.gotmpl")]
    )


def test_every_field_a_template_reads_of_a_page_file_is_declared() -> None:
    problems = [
        problem
        for path in _templates()
        for problem in template_reads(path.read_text(), str(path.relative_to(REPO)))
    ]
    assert not problems, "\n".join(problems)


def test_the_check_sees_the_page_files_where_templates_read_them() -> None:
    """Not vacuous: the run and campaign pages and the cell partials bind their page files."""
    reads = {"runs/page.html": "$data.facts", "campaigns/page.html": "$campaign.workloads"}
    for template, read in reads.items():
        text = (REPO / "layouts" / template).read_text()
        assert read in text
        assert template_reads(text.replace(read, read + "_nope"), template)


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ('{{ $d := partial "helpers/run.html" . }}{{ $d.facts.memroy }}', "no field 'memroy'"),
        ('{{ $d := partial "helpers/run.html" . }}{{ $r := $d.run }}{{ $r.workload.tol }}', "tol"),
        (('{{ $c := partial "helpers/campaign.html" . }}{{ range $w := $c.workloads }}{{ $w.nam }}'
         "{{ end }}"), "nam"),
        ('{{ $t := partial "helpers/cell-texts.html" .shown }}{{ $t.interval_low }}', "interval_low"),
        ('{{ $r := (partial "helpers/run.html" (dict "id" .)).run }}{{ $r.stepz }}', "stepz"),
    ],
)  # fmt: skip
def test_a_misread_field_is_named(template: str, problem: str) -> None:
    found = template_reads(template, "canary.html")
    assert found and problem in found[0], found


def test_a_rebound_variable_is_no_longer_checked() -> None:
    template = (
        '{{ $d := partial "helpers/run.html" . }}{{ $d = dict "x" 1 }}{{ $d.x }}'
        '{{ $e := partial "helpers/run.html" . }}{{ $e.facts.disclosure.anything }}'
    )
    assert template_reads(template, "rebound.html") == []


def test_cell_texts_partial_names_the_texts_in_packing_order() -> None:
    text = (REPO / "layouts" / "_partials" / "helpers" / "cell-texts.html").read_text()
    pairs = re.findall(r'"(\w+)" \(index \$texts (\d+)\)', text)
    assert [name for name, _ in pairs] == list(CELL_TEXTS)
    assert [int(position) for _, position in pairs] == list(range(len(CELL_TEXTS)))


def _problems(value: Any, hint: Any, path: str) -> list[str]:
    """Where a page file's value departs from its type: an undeclared field anywhere, a field
    that a page-file type (not a contract type, which the page may trim) requires missing."""
    if hint is Any or get_origin(hint) is Literal:
        return []
    members = _members(hint)
    if value is None:
        return (
            [] if len(members) < len(get_args(hint)) or hint is type(None) else [f"{path}: null"]
        )
    if len(members) > 1:
        tried = [_problems(value, member, path) for member in members]
        return [] if any(not found for found in tried) else min(tried, key=len)
    kind = members[0]
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{path}: not a map"]
        hints = get_type_hints(kind)
        found = [f"{path}.{name}: not in {kind.__name__}" for name in value if name not in hints]
        if kind.__module__ == page_files.__name__:
            required = getattr(kind, "__required_keys__", set())
            found += [f"{path}.{name}: missing" for name in sorted(required - value.keys())]
        for name, item in value.items():
            if name in hints:
                found += _problems(item, hints[name], f"{path}.{name}")
        return found
    if get_origin(kind) is list:
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        return [
            problem
            for index, item in enumerate(value)
            for problem in _problems(item, get_args(kind)[0], f"{path}[{index}]")
        ]
    if get_origin(kind) is dict:
        if not isinstance(value, dict):
            return [f"{path}: not a map"]
        return [
            problem
            for key, item in value.items()
            for problem in _problems(item, get_args(kind)[1], f"{path}.{key}")
        ]
    return []


@pytest.fixture(scope="module")
def generated() -> dict[str, bytes]:
    return hugo_inputs(load_runs([FIXTURE_RUNS]))


def test_every_page_file_holds_its_declared_fields(generated: dict[str, bytes]) -> None:
    checked = {RunPageFile: 0, CampaignPageFile: 0}
    problems = []
    for path, content in generated.items():
        for folder, kind in (
            (site.RUN_PAGES, RunPageFile),
            (site.CAMPAIGN_PAGES, CampaignPageFile),
        ):
            if path.startswith(folder + "/"):
                checked[kind] += 1
                problems += _problems(json.loads(content), kind, path)
    assert all(checked.values()), checked
    assert not problems, "\n".join(problems[:40])


def test_an_undeclared_or_missing_field_is_found() -> None:
    assert _problems({"name": "x"}, page_files.CampaignWorkload, "w") == [
        "w.across_hosts: missing",
        "w.cells: missing",
        "w.metrics: missing",
        "w.variants: missing",
        "w.write_debt: missing",
    ]
    assert _problems({"bogus": 1}, CellTexts, "t")[0] == "t.bogus: not in CellTexts"
