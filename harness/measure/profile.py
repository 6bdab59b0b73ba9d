"""The server's CPU profile during each measured step: perf samples the server process while the
load runs, and its samples are folded into call stacks (contract/_profiles.py stores them).

    profiles = RunProfiles.for_run(enabled, frequency_hz, workdir, note)
    recording = profiles.start(pid)        # perf record, attached before the load
    ...                                    # the load runs
    recording.stop()                       # SIGINT; perf writes its file and exits
    profiles.keep(key, recording)          # folded, kept; the step's summary
    profiles.for_run_document(run_id, steps)  # the profile file and the run's `profile`

perf samples the software clock (cpu-clock: a VM often has no hardware counters) at 99 Hz with
frame-pointer call graphs, the cheapest kind: a build without frame pointers gives shallow
stacks, which `median_depth` shows. Where the kernel allows it (root, or
kernel.perf_event_paranoid at most 0) perf samples every CPU and keeps the server's samples
(`cpu-wide`): attached to the server's process instead (`process`), perf follows each of its
threads through every context switch, which cost a point-select step on two vCPUs 11 to 26 %
of its throughput (bench/profiling_overhead.py), where sampling the CPUs costs no more than the
noise between steps. Profiling never fails a run: when it is impossible (no
perf, no local process, a kernel that forbids it) the run records why and is measured
unprofiled, and a step whose perf failed has no profile while the others keep theirs.
"""

from __future__ import annotations

import mmap
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

import contract
from contract import Stack

EVENT = "cpu-clock"
CALL_GRAPH: Final = "fp"
TURNED_OFF = "profiling turned off by the campaign's [profile] enabled = false"
PERF_DATA = "perf.data"  # in the server's work directory, removed once folded
READY_TIMEOUT_S = 30.0  # perf attaches to every thread of the server before it answers
STOP_TIMEOUT_S = 120.0  # perf writes out its buffers after SIGINT
# perf record re-raises the SIGINT it ended on, once its file is written
ENDED = (0, -signal.SIGINT)
MAX_FRAME_CHARS = 4096  # the profile schema's limit on a frame name
# A frame perf could not name: [unknown] becomes the module's name, [mariadbd], in the fold.
UNRESOLVED = re.compile(r"^\[.*\]$")
# `perf report --stats`: the samples the kernel dropped, in the event's own section.
LOST_SAMPLES = re.compile(r"^\s*LOST_SAMPLES events:\s*(\d+)", re.MULTILINE)


class ProfilingUnavailable(Exception):
    """Why no step of a run can be profiled, in one line."""


class PerfFailed(Exception):
    """Why one step has no profile, in one line."""


@dataclass
class Folded:
    """One step's samples: every stack perf recorded, with its samples, and the samples perf
    reported lost."""

    stacks: dict[Stack, int]
    lost: int = 0

    @property
    def samples(self) -> int:
        return sum(self.stacks.values())


def hottest(stacks: Mapping[Stack, int], limit: int) -> dict[Stack, int]:
    """The limit stacks with the most samples (ties in stack order, as the file stores them)."""
    ranked = sorted(stacks.items(), key=lambda item: (-item[1], item[0]))
    return dict(ranked[:limit])


def step_summary(folded: Folded, kept: Mapping[Stack, int]) -> contract.StepProfile:
    """The run document's steps[].profile: samples taken, samples kept, perf's lost samples,
    and what the kept samples' stacks say about the symbols (unnamed frames, depth)."""
    frames = sum(len(stack) * samples for stack, samples in kept.items())
    unresolved = sum(
        sum(1 for frame in stack if UNRESOLVED.match(frame)) * samples
        for stack, samples in kept.items()
    )
    depths = [len(stack) for stack, samples in kept.items() for _ in range(samples)]
    summary: contract.StepProfile = {
        "samples": folded.samples,
        "kept_samples": sum(kept.values()),
        "unresolved_frames_pct": round(100 * unresolved / frames, 2) if frames else 0.0,
        "median_depth": float(statistics.median(depths)) if depths else 0.0,
    }
    if folded.lost:
        summary["lost"] = folded.lost
    return summary


def parse_folded(text: str) -> dict[Stack, int]:
    """inferno-collapse-perf's lines, `root;...;leaf samples`, as {stack: samples}."""
    stacks: dict[Stack, int] = {}
    for line in text.splitlines():
        path, _, count = line.rpartition(" ")
        frames = tuple(frame[:MAX_FRAME_CHARS] for frame in path.split(";") if frame)
        if frames and count.isdigit():
            stacks[frames] = stacks.get(frames, 0) + int(count)
    return stacks


def cpu_wide_allowed() -> bool:
    """Whether perf may sample every CPU: root, or a kernel.perf_event_paranoid of 0 or less."""
    paranoid = Path("/proc/sys/kernel/perf_event_paranoid")
    return os.geteuid() == 0 or (paranoid.exists() and int(paranoid.read_text()) <= 0)


def profiler_facts(frequency_hz: int) -> contract.Profiler:
    """The run document's profile.profiler; ProfilingUnavailable when perf cannot run here."""
    perf = shutil.which("perf")
    if perf is None:
        raise ProfilingUnavailable("perf not found on PATH (Debian: apt-get install linux-perf)")
    try:
        contract.inferno("inferno-collapse-perf")
    except contract.InfernoMissing as exc:
        raise ProfilingUnavailable(str(exc)) from None
    paranoid = Path("/proc/sys/kernel/perf_event_paranoid")
    if os.geteuid() != 0 and paranoid.exists() and int(paranoid.read_text()) > 2:
        raise ProfilingUnavailable(
            f"{paranoid} is {paranoid.read_text().strip()}: only root may profile the server"
            " (sysctl kernel.perf_event_paranoid=1 lets a user profile its own processes)"
        )
    result = subprocess.run([perf, "--version"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ProfilingUnavailable(f"{perf} --version failed: {result.stderr.strip()}")
    return {
        "tool": "perf",
        "version": result.stdout.strip().removeprefix("perf version "),
        "event": EVENT,
        "frequency_hz": frequency_hz,
        "call_graph": CALL_GRAPH,
        "scope": "cpu-wide" if cpu_wide_allowed() else "process",
    }


def symbol_facts(pid: int) -> contract.ProfileSymbols:
    """The run document's profile.symbols: the server binary's name and whether it lets perf
    name internal functions (a .symtab) or only the exported ones (.dynsym)."""
    exe = Path(f"/proc/{pid}/exe")
    try:
        binary = exe.resolve(strict=True)
        with (
            binary.open("rb") as elf,
            mmap.mmap(elf.fileno(), 0, access=mmap.ACCESS_READ) as image,
        ):
            tables = symbol_tables(image)
    except (OSError, ValueError, struct.error) as exc:  # ValueError: an empty file
        why = getattr(exc, "strerror", None) or exc
        raise ProfilingUnavailable(f"cannot read {exe} ({why})") from None
    table: Literal["full", "dynamic", "none"]
    if "symtab" in tables:
        table = "full"
    elif "dynsym" in tables:
        table = "dynamic"
    else:
        table = "none"
    facts: contract.ProfileSymbols = {"binary": binary.name, "symbol_table": table}
    if "dynsym" in tables:
        facts["dynamic_symbols"] = tables["dynsym"]
    return facts


# ELF section types, and the layouts this reads: (header: e_shoff, e_shentsize, e_shnum),
# (section header: sh_type, sh_offset, sh_size, sh_entsize), symbol entry's st_shndx offset.
SHT_SYMTAB, SHT_DYNSYM = 2, 11
ELF_LAYOUTS = {
    1: ("8xI10xHH", "4xI8xII4x4x4xI", 14),  # 32-bit
    2: ("16xQ10xHH", "4xI16xQQ4x4x8xQ", 6),  # 64-bit
}


def symbol_tables(image: bytes | mmap.mmap) -> dict[str, int]:
    """{"symtab": symbols, "dynsym": defined symbols} for the tables an ELF image has (what
    `nm --defined-only` and `nm -D --defined-only` count); {} for what is not ELF."""
    if image[:4] != b"\x7fELF" or image[4] not in ELF_LAYOUTS or image[5] not in (1, 2):
        return {}
    order = "<" if image[5] == 1 else ">"
    header, section, shndx_at = ELF_LAYOUTS[image[4]]
    shoff, shentsize, shnum = struct.unpack_from(order + header, image, 0x18)
    tables = {}
    for index in range(shnum):
        kind, offset, size, entsize = struct.unpack_from(
            order + section, image, shoff + index * shentsize
        )
        name = {SHT_SYMTAB: "symtab", SHT_DYNSYM: "dynsym"}.get(kind)
        if name is None or not entsize:
            continue
        tables[name] = sum(
            1
            for at in range(offset, offset + size, entsize)
            if struct.unpack_from(order + "H", image, at + shndx_at)[0] != 0  # SHN_UNDEF
        )
    return tables


@dataclass
class Recording:
    """perf record attached to the server for one step; stop() ends it, fold() reads it."""

    pid: int
    frequency_hz: int
    output: Path
    cpu_wide: bool  # sample every CPU and keep the server's samples, else follow its threads
    process: subprocess.Popen[str] | None = None
    stopped: bool = False
    stderr: str = ""
    pipes: tuple[int, ...] = ()  # perf's control pipe and its acknowledgements

    def start(self) -> None:
        """Attach perf with its events disabled, then enable them through its control pipe and
        wait for its acknowledgement: the step's load starts with the samples already taken
        (perf creates its file long before it has attached to every thread of the server)."""
        self.output.unlink(missing_ok=True)
        control_read, control = os.pipe()
        acks, ack_write = os.pipe()
        scope = ["-a"] if self.cpu_wide else ["-p", str(self.pid)]
        # --no-bpf-event: perf would otherwise read every loaded BPF program, which tripled
        # the time perf record takes to start and stop on a Debian 12 VM (1.2 s against 0.4 s);
        # a sample that lands in a BPF program (a socket filter, say) stays unnamed
        argv = ["perf", "record", "-F", str(self.frequency_hz), "-e", EVENT, "-g", *scope,
                "-o", str(self.output), "--no-bpf-event", "--delay", "-1",
                "--control", f"fd:{control_read},{ack_write}"]  # fmt: skip
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                pass_fds=(control_read, ack_write),
                start_new_session=True,  # Ctrl-C reaches the harness, which stops perf itself
            )
        except OSError as exc:
            os.close(control)
            os.close(acks)
            raise PerfFailed(f"perf record could not start: {exc}") from None
        finally:
            os.close(control_read)
            os.close(ack_write)
        # open until perf has exited: perf takes a closed control pipe for an error
        self.pipes = (control, acks)
        try:
            os.write(control, b"enable\n")
            ready, _, _ = select.select([acks], [], [], READY_TIMEOUT_S)
            answer = os.read(acks, 64) if ready else b""
        except OSError:  # perf exited before reading its control pipe
            answer = b""
        except BaseException:  # Ctrl-C while perf attaches: leave no perf behind
            self.discard()
            raise
        if not answer.startswith(b"ack"):
            self.stop()
            raise PerfFailed(self.failure())

    def stop(self) -> None:
        """SIGINT, then wait for perf to write its file and exit (SIGKILL if it hangs)."""
        process = self.process
        if process is None or self.stopped:
            return
        self.stopped = True
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            _, self.stderr = process.communicate(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            _, self.stderr = process.communicate()
        finally:
            for pipe in self.pipes:
                os.close(pipe)

    def failure(self) -> str:
        """perf's own words for why it stopped, in one line."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        said = [line for line in lines if not line.startswith(("Error:", "["))] or lines
        code = self.process.returncode if self.process is not None else None
        return f"perf record exited with status {code}" + (f": {said[0]}" if said else "")

    def fold(self) -> Folded:
        """perf script's samples (no period field, so each sample counts one) folded by
        inferno-collapse-perf, and the samples perf reported lost; PerfFailed when perf
        failed. The perf file is removed either way."""
        try:
            if self.process is None or self.process.returncode not in ENDED:
                raise PerfFailed(self.failure())
            stacks = self._folded()
            return Folded(stacks, self._lost())
        finally:
            self.discard()

    def discard(self) -> None:
        self.stop()
        self.output.unlink(missing_ok=True)
        self.output.with_name(self.output.name + ".old").unlink(missing_ok=True)

    def _folded(self) -> dict[Stack, int]:
        script = ["perf", "script", "-F", "comm,tid,time,ip,sym,dso", "--pid", str(self.pid),
                  "-i", str(self.output)]  # fmt: skip
        with tempfile.TemporaryFile() as errors:
            perf = subprocess.Popen(
                script, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors
            )
            collapse = subprocess.run(
                [contract.inferno("inferno-collapse-perf")],
                stdin=perf.stdout,
                capture_output=True,
                text=True,
                check=False,
            )
            assert perf.stdout is not None
            perf.stdout.close()
            perf.wait()
            errors.seek(0)
            said = errors.read().decode(errors="replace").strip()
        if perf.returncode != 0:
            raise PerfFailed(f"perf script exited with status {perf.returncode}: {said[:300]}")
        if collapse.returncode != 0:
            raise PerfFailed(f"inferno-collapse-perf failed: {collapse.stderr.strip()[:300]}")
        return parse_folded(collapse.stdout)

    def _lost(self) -> int:
        stats = subprocess.run(
            ["perf", "report", "--stats", "-i", str(self.output)],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        # the aggregated section counts LOST_SAMPLES records; the event's own counts samples
        event_section = stats.rpartition(" stats:")[2]
        found = LOST_SAMPLES.search(event_section)
        return int(found.group(1)) if found else 0


@dataclass
class RunProfiles:
    """The profiles of one run's steps, and what its run document records about them."""

    frequency_hz: int
    workdir: Path  # the server's work directory: perf writes there
    note: Callable[[str], None]  # a step that lost its profile, said as it happens
    skipped: str | None = None  # why the run has no profile
    profiler: contract.Profiler | None = None  # taken at the first step
    symbols: contract.ProfileSymbols | None = None
    folded: dict[str, Folded] = field(default_factory=dict)  # by contract.step_key
    failures: list[str] = field(default_factory=list)

    @classmethod
    def for_run(
        cls, enabled: bool, frequency_hz: int, workdir: Path, note: Callable[[str], None]
    ) -> RunProfiles:
        return cls(frequency_hz, workdir, note, skipped=None if enabled else TURNED_OFF)

    def start(self, pid: int | None) -> Recording | None:
        """perf attached to the server (pid: None when it is not on this machine), or None
        when this step is not profiled. The facts are taken at the first step."""
        if self.skipped is None and pid is None:
            self.skipped = "the server's process is not on this machine: perf needs its pid"
        if self.skipped is not None:
            return None
        assert pid is not None
        try:
            if self.profiler is None:
                self.profiler = profiler_facts(self.frequency_hz)
                self.symbols = symbol_facts(pid)
        except ProfilingUnavailable as exc:
            self.skipped = str(exc)
            return None
        cpu_wide = self.profiler["scope"] == "cpu-wide"
        recording = Recording(pid, self.frequency_hz, self.workdir / PERF_DATA, cpu_wide)
        try:
            recording.start()
        except PerfFailed as exc:
            self.failures.append(str(exc))
            return None
        return recording

    def keep(self, key: str, recording: Recording) -> contract.StepProfile | None:
        """Fold a completed step's samples and keep them under its key; its steps[].profile,
        or None (said) when perf failed."""
        try:
            folded = recording.fold()
        except (PerfFailed, OSError) as exc:
            self.failures.append(str(exc))
            self.note(f"step {key} has no profile: {exc}")
            return None
        self.folded[key] = folded
        return step_summary(folded, hottest(folded.stacks, contract.MAX_STACKS_PER_STEP))

    def for_run_document(
        self, run_id: str, steps: list[contract.Step] | list[contract.IbenchStep]
    ) -> tuple[contract.ProfileFile | None, contract.Profile | None]:
        """(the profile file, the run's `profile` less file and sha256) for the steps the run
        document holds, each step's summary rewritten to what the file keeps; (None,
        {"skipped": why}) for a run with no profile; (None, None) when no step was measured.
        The hottest stacks of every step are kept, fewer while the file is over its limit."""
        if self.skipped is not None:
            return None, {"skipped": self.skipped}
        profiled = [step for step in steps if "profile" in step]
        if not profiled:
            if self.failures:
                return None, {"skipped": f"perf failed at every step: {self.failures[0]}"}
            return None, None
        assert self.profiler is not None and self.symbols is not None  # perf started
        keys = [contract.step_key(step) for step in profiled]
        limit = contract.MAX_STACKS_PER_STEP
        while True:
            kept = {key: hottest(self.folded[key].stacks, limit) for key in keys}
            document = contract.interned(run_id, self.profiler, kept)
            if contract.profile_fits(document) or limit == 1:
                break
            limit //= 2
        for step, key in zip(profiled, keys, strict=True):
            step["profile"] = step_summary(self.folded[key], kept[key])
        return document, {"profiler": self.profiler, "symbols": self.symbols}
