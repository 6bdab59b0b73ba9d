"""The TPC-C-like workload's options as a campaign gives them, and what they say about the data.

The project's Lua (harness/workloads/tpcc/lua/, run by the system sysbench 1.0.20) implements
it: `--tpcc_mode=compat` reproduces sysbench-tpcc (mix, access pattern, quirks) so results
compare with published sysbench-tpcc numbers; `spec` fixes its deviations. Nothing here is a
TPC-C result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

TEST_NAME = "tpcc"  # a campaign's `test = "tpcc"`
TABLES = ("item", "warehouse", "district", "customer", "history", "orders", "new_orders",
          "stock", "order_line")  # fmt: skip

MODES = ("compat", "spec")
TRX_LEVELS = ("RR", "RC", "SER", "RU")
ITEMS_RULE = 100_000  # rows per item table and stock rows per warehouse (population rule)
TYPES = ("new_order", "payment", "order_status", "delivery", "stock_level", "purge")
# Draw weights: uniform(1, 23) (24 with purge): 10 New-Order, 10 Payment, 1 of each other type.
WEIGHTS = {"new_order": 10, "payment": 10, "order_status": 1, "delivery": 1, "stock_level": 1}


@dataclass(frozen=True)
class TpccOptions:
    """The workload's options; sysbench_options() is what goes on the command line."""

    scale: int = 1  # warehouses per table set
    tables: int = 1  # independent table sets
    mode: str = "compat"
    use_fk: bool = True
    force_pk: bool = False
    trx_level: str = "RR"
    enable_purge: bool = False
    storage_engine: str = "innodb"
    table_options: str = ""
    items: int = ITEMS_RULE  # smaller only for tests; recorded
    nurand_c: str = ""  # spec mode: "last,id,item"; empty = the Lua's fixed constants

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"tpcc mode must be one of {MODES}, not {self.mode!r}")
        if self.trx_level not in TRX_LEVELS:
            raise ValueError(f"trx_level must be one of {TRX_LEVELS}, not {self.trx_level!r}")
        if self.scale < 1 or self.tables < 1 or self.items < 100:
            raise ValueError("scale and tables must be >= 1, items >= 100")

    @classmethod
    def from_options(cls, options: Mapping[str, str | int]) -> TpccOptions:
        """From sysbench-style option names (dashes or underscores), as a campaign writes them:
        {"tables": 10, "scale": 100, "tpcc_mode": "spec", "use_fk": 0, "enable_purge": "yes"}."""
        given = {name.replace("-", "_"): value for name, value in options.items()}
        known = {"scale", "tables", "tpcc_mode", "use_fk", "force_pk", "trx_level",
                 "enable_purge", "mysql_storage_engine", "mysql_table_options", "items",
                 "nurand_c"}  # fmt: skip
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"unknown tpcc option(s): {', '.join(unknown)}")

        def flag(value: object) -> bool:
            return str(value).lower() in ("1", "yes", "on", "true")

        fields: dict[str, Any] = {}
        for name, field_name, convert in (
            ("scale", "scale", int),
            ("tables", "tables", int),
            ("tpcc_mode", "mode", str),
            ("use_fk", "use_fk", flag),
            ("force_pk", "force_pk", flag),
            ("trx_level", "trx_level", str),
            ("enable_purge", "enable_purge", flag),
            ("mysql_storage_engine", "storage_engine", str),
            ("mysql_table_options", "table_options", str),
            ("items", "items", int),
            ("nurand_c", "nurand_c", str),
        ):
            if name in given:
                fields[field_name] = convert(given[name])
        return cls(**fields)

    def sysbench_options(self) -> dict[str, str]:
        options = {
            "scale": str(self.scale),
            "tables": str(self.tables),
            "tpcc_mode": self.mode,
            "use_fk": "1" if self.use_fk else "0",
            "force_pk": "1" if self.force_pk else "0",
            "trx_level": self.trx_level,
            "enable_purge": "yes" if self.enable_purge else "no",
            "mysql_storage_engine": self.storage_engine,
        }
        if self.table_options:
            options["mysql_table_options"] = self.table_options
        if self.items != ITEMS_RULE:
            options["items"] = str(self.items)
        if self.nurand_c:
            options["nurand_c"] = self.nurand_c
        return options

    def describe(self) -> dict[str, Any]:
        """The run document's workload.tpcc."""
        return {
            "mode": self.mode,
            "scale": self.scale,
            "table_sets": self.tables,
            "warehouses": self.scale * self.tables,
            "items": self.items,
            "items_rule": self.items == ITEMS_RULE,
            "use_fk": self.use_fk,
            "force_pk": self.force_pk,
            "trx_level": self.trx_level,
            "enable_purge": self.enable_purge,
            "storage_engine": self.storage_engine,
            "table_options": self.table_options,
            "expected_mix_pct": expected_mix(self.enable_purge),
        }


def dataset_label(options: TpccOptions) -> str:
    """What the loaded data depends on, readably: workloads with the same label share a load.
    The mode is part of it (compat draws last names with sysbench-tpcc's per-call NURand
    constant, spec with a fixed load constant)."""
    parts = [
        f"sysbench tpcc {options.tables} set(s) x {options.scale} warehouse(s)",
        f"mode={options.mode}",
        f"use_fk={int(options.use_fk)}",
        f"force_pk={int(options.force_pk)}",
        f"engine={options.storage_engine}",
    ]
    if options.table_options:
        parts.append(f"table_options={options.table_options!r}")
    if options.items != ITEMS_RULE:
        parts.append(f"items={options.items}")
    return " ".join(parts)


def is_tpcc(test: str) -> bool:
    return test == TEST_NAME


def table_names(options: TpccOptions) -> list[str]:
    """Every table prepare creates (item1, warehouse1, ..., order_line<tables>)."""
    return [f"{name}{n}" for n in range(1, options.tables + 1) for name in TABLES]


# --- command lines ------------------------------------------------------------------------------


def expected_mix(purge: bool) -> dict[str, float]:
    """Target share of each type in percent (43.48/43.48/4.35/4.35/4.35; 41.67/.../4.17 with purge)."""
    weights = {**WEIGHTS, "purge": 1} if purge else dict(WEIGHTS)
    total = sum(weights.values())
    return {name: round(100.0 * weight / total, 2) for name, weight in weights.items()}
