"""The Insert Benchmark's parameters and its steps, as plans the orchestrator runs.

Defaults are the reference's documented example (20 clients and tables, 10M
rows per table in l.i0, 16M + 4M in l.i1/l.i2, 1800 s query steps, background rates 100, 500 and
1000 inserts/s per client); a small machine overrides clients, rows and query_seconds.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

LOAD, INDEX, WRITE, FLUSH, QUERY = "load", "index", "write", "flush", "query"
FLUSH_STEP = "flush"
DEFAULT_STEPS = (
    "l.i0", "l.x", "l.i1", "l.i2", FLUSH_STEP,
    "qr100", "qp100", "qr500", "qp500", "qr1000", "qp1000",
)  # fmt: skip
_QUERY_STEP = re.compile(r"^q([rp])([0-9]{1,9})$")  # ASCII digits; a rate int() can read
L_X_EXTRA_ROWS = 100  # l.x inserts one batch of 100 rows per client before the indexes


@dataclass(frozen=True)
class IbenchParams:
    """Everything that shapes a run; recorded as the workload's options (to_json)."""

    clients: int = 20  # dop: one inserter (and deleter, querier) process per client
    rows_l0: int = 10_000_000  # rows each client inserts in l.i0 (mr1)
    rows_l12: int = 20_000_000  # rows each client inserts over l.i1 (4/5) and l.i2 (1/5) (mr2)
    query_seconds: float = 1800  # querysecs: length of each q step
    only1t: bool = False  # all clients on table pi1 instead of one table each
    delete_per_insert: bool = True  # deletes of the oldest rows at the insert rate
    engine: str = "InnoDB"
    database: str = "ib"
    batch_l0: int = 100  # rows per commit (one multi-row INSERT) in l.i0 and l.x
    batch_l1: int = 50
    batch_l2: int = 5
    batch_q: int = 50  # background inserts in the q steps
    rows_per_query: int = 10
    data_length_min: int = 10
    data_length_max: int = 20
    data_random_pct: int = 50
    queue_depth: int = 8  # delete requests the deleter may lag behind the inserter
    resync_get_min: int = 1000  # rounds between re-reads of min(transactionid)
    force_index: bool = True  # FORCE INDEX in range queries (the reference: on MySQL)
    flush_max_seconds: float | None = None  # None: 60 s + 1 s per million rows, <= 1200 s
    count_rows: bool = True  # COUNT(*) every table after each step (rows_after)
    seed: int | None = None  # base of the per-client seeds; None: the epoch at the start

    def __post_init__(self) -> None:
        problems = []
        for name in ("clients", "batch_l0", "batch_l1", "batch_l2", "batch_q",
                     "rows_per_query", "queue_depth", "resync_get_min"):  # fmt: skip
            if getattr(self, name) < 1:
                problems.append(f"{name} must be >= 1")
        if self.rows_l0 < 0 or self.rows_l12 < 0 or self.query_seconds <= 0:
            problems.append("rows_l0, rows_l12 must be >= 0 and query_seconds > 0")
        if not 1 <= self.data_length_min <= self.data_length_max <= 4000:
            problems.append("need 1 <= data_length_min <= data_length_max <= 4000")
        if not 0 <= self.data_random_pct <= 100:
            problems.append("data_random_pct must be within 0..100")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.database + self.engine):
            problems.append("database and engine must be plain identifiers")
        if problems:
            raise ValueError("IbenchParams: " + "; ".join(problems))

    @property
    def tables(self) -> int:
        return 1 if self.only1t else self.clients

    def table_of(self, client: int) -> str:
        """Client numbers start at 1; tables are pi1..piN."""
        return "pi1" if self.only1t else f"pi{client}"

    def table_names(self) -> list[str]:
        return [f"pi{number}" for number in range(1, self.tables + 1)]

    def to_json(self) -> dict[str, object]:
        return dataclasses.asdict(self)

    @classmethod
    def from_options(cls, options: dict[str, object]) -> IbenchParams:
        """From a campaign's options table (TOML values); ValueError names the bad key."""
        fields = {field.name: str(field.type) for field in dataclasses.fields(cls)}
        for name, value in options.items():
            if name not in fields:
                raise ValueError(f"{name} is not an ibench option ({', '.join(fields)})")
            wanted = _OPTION_TYPES[fields[name]]
            if isinstance(value, bool) != (bool in wanted) or not isinstance(value, wanted):
                kinds = " or ".join(kind.__name__ for kind in wanted)
                raise ValueError(f"{name} = {value!r}: expected {kinds}")
        return cls(**options)  # type: ignore[arg-type]


# Field annotation (a string: postponed annotations) -> the TOML value types it accepts.
_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (int, float),
    "float | None": (int, float),
    "bool": (bool,),
    "str": (str,),
    "int | None": (int,),
}


@dataclass(frozen=True)
class IbenchSpec:
    """An ibench workload of a campaign: its parameters and the steps it runs, in order."""

    params: IbenchParams
    steps: tuple[str, ...] = DEFAULT_STEPS

    def __post_init__(self) -> None:
        for name in self.steps:
            plan(name, self.params)  # unknown names fail at load time, not mid-run
        repeated = sorted({name for name in self.steps if self.steps.count(name) > 1})
        if repeated:
            raise ValueError(f"step {repeated[0]} appears twice (steps are keyed by name)")
        if self.steps and self.steps[0] != "l.i0":
            raise ValueError("the first step must be l.i0: it creates the tables")


@dataclass(frozen=True)
class StepPlan:
    """One step: what each client does in it."""

    name: str
    kind: str
    rows_per_client: int = 0  # rows each inserter inserts (0: none)
    rows_per_commit: int = 0
    rate_per_client: int | None = None  # inserts/s per client; None: as fast as possible
    deletes: bool = False
    query_mode: str | None = None  # "range" or "point" in q steps
    seconds: float | None = None  # q steps end after this long


def plan(name: str, params: IbenchParams) -> StepPlan:
    """The plan of a step by its reference name: l.i0, l.x, l.i1, l.i2, flush, qr<N>, qp<N>."""
    if name == "l.i0":
        return StepPlan(name, LOAD, params.rows_l0, params.batch_l0)
    if name == "l.x":
        return StepPlan(name, INDEX, L_X_EXTRA_ROWS, min(params.batch_l0, L_X_EXTRA_ROWS))
    deletes = params.delete_per_insert
    if name == "l.i1":
        return StepPlan(name, WRITE, params.rows_l12 * 4 // 5, params.batch_l1, deletes=deletes)
    if name == "l.i2":
        rows = params.rows_l12 - params.rows_l12 * 4 // 5
        return StepPlan(name, WRITE, rows, params.batch_l2, deletes=deletes)
    if name == FLUSH_STEP:
        return StepPlan(name, FLUSH)
    match = _QUERY_STEP.match(name)
    if match and int(match[2]) > 0:
        rate = int(match[2])
        rows = int(params.query_seconds * rate)
        return StepPlan(
            name, QUERY, rows, min(params.batch_q, rate), rate, deletes,
            "range" if match[1] == "r" else "point", params.query_seconds,
        )  # fmt: skip
    raise ValueError(
        f"unknown ibench step {name!r}: l.i0, l.x, l.i1, l.i2, flush, qr<N> or qp<N> (N > 0)"
    )
