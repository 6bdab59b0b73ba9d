"""A small command line around run_steps, for a manual run and for the Ctrl-C test:

    python -m harness.workloads.ibench --socket /tmp/x/mysqld.sock --clients 2 --rows-l0 2000 \
        --steps l.i0,l.x --out steps.json

Each completed step is printed as one line; --out receives the completed steps as JSON, on
Ctrl-C too (then the exit code is 130).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import contract
from harness.model.ibench_params import DEFAULT_STEPS, IbenchParams
from harness.workloads.ibench.steps import IbenchInterrupted, run_steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.workloads.ibench")
    parser.add_argument("--socket", help="server socket (else --host/--port)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3306)
    parser.add_argument("--user", default="root")
    parser.add_argument("--steps", default=",".join(DEFAULT_STEPS))
    parser.add_argument("--out", type=Path, help="write the completed steps here as JSON")
    for field in dataclasses.fields(IbenchParams):
        kind = {"int": int, "float": float, "bool": None}.get(str(field.type).split(" ")[0])
        flag = "--" + field.name.replace("_", "-")
        if kind is None and field.type == "bool":
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None)
        elif kind is not None:
            parser.add_argument(flag, type=kind, default=None)
        else:
            parser.add_argument(flag, default=None)
    args = parser.parse_args(argv)
    chosen = {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(IbenchParams)
        if getattr(args, f.name) is not None
    }
    params = IbenchParams(**chosen)
    connect = {"unix_socket": args.socket} if args.socket else {"host": args.host}
    if not args.socket:
        connect["port"] = args.port
    connect["user"] = args.user
    done: list[contract.IbenchStep] = []

    def on_step(step: contract.IbenchStep) -> None:
        done.append(step)
        rates = (f"{step.get(k, 0):.0f} {k.split('_')[0]}" for k in
                 ("inserts_per_s", "deletes_per_s", "queries_per_s"))  # fmt: skip
        print(f"{step['step']}: {step['duration_s']:.1f} s, {', '.join(rates)}", flush=True)

    code = 0
    try:
        run_steps(connect, params, args.steps.split(","), on_step=on_step)
    except IbenchInterrupted as exc:
        print(f"interrupted: {len(exc.steps)} steps complete", file=sys.stderr, flush=True)
        code = 130
    if args.out:
        args.out.write_text(json.dumps(done, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
