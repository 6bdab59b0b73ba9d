"""Figures in imported files are ASCII decimal numbers: `mybench import table` and `mybench
import sysbench` refuse any other cell or log figure with one line naming the file, the line and
the column (nothing written), and a per-second log line that holds no figure is left out of the
series and reported, file, line and second."""

from __future__ import annotations

import json
import os
import reprlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.harness.importing.test_sysbench_logs import FACTS, LOGS, tree
from tests.helpers.hostile_numbers import ARABIC_FIVE, ARABIC_THREE_POINT_FIVE, FULL_WIDTH_TWELVE

HEADER = "campaign,variant,workload,threads,tps,p95_ms,server_version\n"
GOOD_ROW = "c,v,w,1,312.5,3.1,10.4.12\n"
# Each a figure Python reads (or reads as another number) but a table must not hold, and a
# variation of it.
BAD_FIGURES = [
    ARABIC_FIVE, ARABIC_THREE_POINT_FIVE,  # float() reads 5.0 and 3.5
    FULL_WIDTH_TWELVE, "1" + FULL_WIDTH_TWELVE[1],  # 12.0 and 12.0
    "1_000", "2_5.5",  # 1000.0 and 25.5
    "1e-400", "0.1E-399",  # underflow to 0.0
    "5e-324", "4.9e-324",  # the smallest subnormal, which broke the site's charts
    "NaN", "-nan",
    "inf", "Infinity",
    "5²", "²",  # isdigit() says yes, float() refuses
    "0.0000001", "0." + "0" * 20 + "1",  # decimal, but nearer to 0 than a figure may be
    "9" * 5000, "1" + "0" * 40,  # int() refuses over 4,300 digits; over the largest figure
]  # fmt: skip


def run(data: Path, *args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["import", *map(str, args), "--data", str(data)], catch_exceptions=False
    )
    return result.exit_code, result.output


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A results directory holding one imported run, to show a refused import adds nothing."""
    data = tmp_path / "data"
    good = tmp_path / "good.csv"
    good.write_text(HEADER + GOOD_ROW)
    assert run(data, "table", good, "--product", "mariadb", "--host", "h")[0] == 0
    return data


@pytest.mark.parametrize(
    ("figure", "column"), [(f, ("tps", "p95_ms")[i % 2]) for i, f in enumerate(BAD_FIGURES)]
)
def test_a_table_cell_that_is_not_an_ascii_decimal_figure_is_refused_naming_it(
    tmp_path, data, figure, column
):
    before = tree(data)
    cells = {"tps": "100", "p95_ms": "2.5", column: figure}
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{HEADER}{GOOD_ROW}c,v,w,2,{cells['tps']},{cells['p95_ms']},10.4.12\n")
    code, output = run(data, "table", bad, "--product", "mariadb", "--host", "h")
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line.startswith(f"error: {bad}:3: {column} {reprlib.repr(figure)}: "), line
    assert len(line) < 200  # a 5,000-digit cell is quoted shortened
    assert tree(data) == before


@pytest.mark.parametrize("threads", [ARABIC_FIVE, FULL_WIDTH_TWELVE, "1_0", "2²", "9" * 5000])
def test_a_thread_count_that_is_not_ascii_digits_is_refused(tmp_path, data, threads):
    before = tree(data)
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{HEADER}c,v,w,{threads},100,2.5,10.4.12\n")
    code, output = run(data, "table", bad, "--product", "mariadb", "--host", "h")
    assert code == 2
    assert output.startswith(f"error: {bad}:2: threads {reprlib.repr(threads)} is not a whole")
    assert tree(data) == before


def _log(tmp_path: Path, name: str, edit) -> Path:
    """A copy of the recorded 1-thread log, edited, with its modification time."""
    log = tmp_path / name
    log.write_text(edit((LOGS / "oltp_read_only_1thr.txt").read_text()))
    os.utime(log, (1_600_000_000, 1_600_000_000))
    return log


# (a summary line of the recorded log, its figure there, the field the refusal names)
SUMMARY = [
    ("        read:                            11368", "11368", "read"),
    ("    transactions:                        812    (405.33 per sec.)", "405.33",
     "transactions rate"),
    ("    total time:                          2.0028s", "2.0028", "total time"),
    ("         avg:                                    2.46", "2.46", "avg"),
    ("       4.487 |*                                        1", "4.487", "histogram value"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("figure", "where", "number", "field"),
    [(f, *SUMMARY[i % len(SUMMARY)]) for i, f in enumerate(BAD_FIGURES)],  # each field 4 times
)
def test_a_log_summary_figure_that_is_not_one_is_refused_naming_its_line(
    tmp_path, data, figure, where, number, field
):
    log = _log(
        tmp_path, "bad.log", lambda text: text.replace(where, where.replace(number, figure))
    )
    line = 1 + (LOGS / "oltp_read_only_1thr.txt").read_text().splitlines().index(where)
    before = tree(data)
    code, output = run(data, "sysbench", log, *FACTS, "--workload", "ro")
    assert code == 2
    (message,) = output.strip().splitlines()
    assert message.startswith(f"error: {log}:{line}: {field} {reprlib.repr(figure)}: "), message
    assert tree(data) == before


def _seconds(text: str, edits: dict[int, tuple[str, str]], last: int) -> str:
    """text whose per-second lines are seconds 1 to last, each a copy of the first with the
    edit given for its second (old, new)."""
    lines = [line for line in text.splitlines(keepends=True) if line.startswith("[ ")]
    seconds = [
        lines[0].replace("[ 1s ]", f"[ {second}s ]").replace(*edits.get(second, ("", "")))
        for second in range(1, last + 1)
    ]
    return text.replace("".join(lines), "".join(seconds))


NOT_DECIMAL = "not a decimal number in ASCII digits (such as 12 or 0.5)"
FW = FULL_WIDTH_TWELVE


@pytest.mark.parametrize(
    ("edits", "kept"),
    [
        (  # (second, text there, its replacement, the second as printed, the figure refused)
            [(2, "tps: 407.68", "tps: nan", "2", "tps 'nan'"),
             (3, "(ms,95%): 3.07", "(ms,95%): -nan", "3", "lat '-nan'"),
             (4, "qps: 6535.85", f"qps: {ARABIC_FIVE}", "4", f"qps {ARABIC_FIVE!r}")],
            [1.0, 5.0],
        ),
        (
            [(1, "err/s: 0.00", "err/s: inf", "1", "err 'inf'"),
             (5, "[ 5s ]", f"[ {FW}s ]", FW, f"t {FW!r}")],
            [2.0, 3.0, 4.0],
        ),
    ],
)  # fmt: skip
def test_a_second_without_figures_is_left_out_of_the_series_and_reported(tmp_path, edits, kept):
    data = tmp_path / "data"
    log = _log(
        tmp_path, "seconds.log", lambda text: _seconds(text, {e[0]: e[1:3] for e in edits}, 5)
    )
    first = 1 + next(i for i, x in enumerate(log.read_text().splitlines()) if x.startswith("[ "))
    code, output = run(data, "sysbench", log, *FACTS, "--workload", "ro")
    assert code == 0, output
    assert [line for line in output.splitlines() if "left out" in line] == [
        f"{log}:{first + second - 1}: second {shown}s left out of the series of the 1-thread "
        f"step ({figure}: {NOT_DECIMAL})"
        for second, _, _, shown, figure in edits
    ]
    (run_file,) = (data / "runs").glob("*.json")
    series = json.loads(run_file.read_text())["steps"][0]["series"]
    assert series["t"] == kept  # the document's seconds skip those left out
    assert {len(values) for values in series.values()} == {len(kept)}


@pytest.mark.parametrize("given", [ARABIC_FIVE, FULL_WIDTH_TWELVE, "1_0", "²"])
def test_threads_given_on_the_command_line_are_ascii_digits(tmp_path, given):
    log = _log(tmp_path, "no-threads.log", lambda t: t.replace("Number of threads: 1\n", ""))
    code, output = run(tmp_path / "data", "sysbench", log, *FACTS, "--workload", "ro",
                       "--threads", given)  # fmt: skip
    assert code == 2
    assert f"Invalid value for '--threads': {given!r} is not a whole number in ASCII digits" in (
        output
    )
    assert not (tmp_path / "data").exists()
