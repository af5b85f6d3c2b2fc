"""The fuzz harness: mutants of the examples and lit inputs through every tool stage, judged by the oracles.

Each case is one mutant (see fuzz_mutate) run in-process, in a worker process with a time bound,
through: parse and print, the generic print, a print/parse round trip, tmem-verify,
tmem-pipeline, convert-tcgen05-to-nvvm (iree-opt must accept what we print), `-t ptx` (ptxas must
assemble what we emit) and tmem-run. A problem is an internal error, a hang (the time bound), a
wrong exit code, an oracle rejecting output of input we accepted, a round trip that changes the
text, or a diagnostic without a location.

    python -m tmem_dialect.tools.fuzz --cases 10000 --seed 1 --save fuzz-findings/
"""

from __future__ import annotations

import argparse
import hashlib
import io
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

from tmem_dialect.tools.fuzz_mutate import load_corpus, mutate

# What a problem is; the counts of a campaign are per kind.
INTERNAL = "internal-error"
HANG = "hang"
EXIT_CODE = "exit-code"
PTXAS = "ptxas-rejects"
IREE = "iree-opt-rejects"
ROUND_TRIP = "round-trip"
UNLOCATED = "unlocated-diagnostic"
KINDS = (INTERNAL, HANG, EXIT_CODE, PTXAS, IREE, ROUND_TRIP, UNLOCATED)

MAX_OPS = 20000  # interpreter warp operations per run: enough for every corpus kernel
ORACLE_TIMEOUT = 600
IREE_BATCH = 40  # NVVM modules per iree-opt run


@dataclass(frozen=True)
class Problem:
    kind: str
    stage: str
    detail: str

    @property
    def signature(self) -> str:
        """The problem without its numbers, names and paths: one per distinct cause, roughly."""
        text = re.sub(r"/\S+|<[^>\s]*>|'[^']*'|\"[^\"]*\"|%\w+|@\w+|0x[0-9a-fA-F]+|\d+", "_", self.detail.splitlines()[0] if self.detail else "")
        return f"{self.kind} [{self.stage}] {text[:160]}"


@dataclass
class StageResult:
    code: int
    stdout: str
    stderr: str


def run_tool_in_process(tool: str, args: list[str]) -> StageResult:
    """Run tmem-opt or tmem-run as `main` would, capturing its output and exit code."""
    from tmem_dialect.tools import opt, run

    out, err = io.StringIO(), io.StringIO()
    make = (lambda a: opt.TmemOptMain(args=a)) if tool == "tmem-opt" else (lambda a: run.TmemRun(a))
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = opt.run_tool(make, tool, args)
        except SystemExit as e:  # argparse
            code = e.code if isinstance(e.code, int) else 1
    return StageResult(code, out.getvalue(), err.getvalue())


_LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning|note|remark): ")
_DIAGNOSTIC = re.compile(r"^(?:(tmem-opt|tmem-run): )?(error|warning|note|remark): ")


def judge_output(stage: str, result: StageResult) -> list[Problem]:
    """Problems visible in one tool run: internal errors, exit codes, unlocated diagnostics."""
    problems: list[Problem] = []
    err = result.stderr
    if result.code == 2 or "internal error" in err or "Traceback" in err:
        line = next((ln for ln in err.splitlines() if "internal error" in ln or "Error" in ln), err[:200])
        problems.append(Problem(INTERNAL, stage, line))
    elif result.code not in (0, 1):
        problems.append(Problem(EXIT_CODE, stage, f"exit {result.code}: {err[:200]}"))
    elif result.code == 1 and not re.search(r"\berror\b", err):
        problems.append(Problem(EXIT_CODE, stage, f"exit 1 without an error message: {err[:200]}"))
    elif result.code == 0 and re.search(r"^\S*:?\d*:?\d*:? ?error: ", err, re.M):
        problems.append(Problem(EXIT_CODE, stage, f"exit 0 after an error: {err[:200]}"))
    for line in err.splitlines():
        m = _DIAGNOSTIC.match(line)
        names_option = line[m.end():].startswith("-") if m else False
        if m and not _LOCATED.match(line) and m.group(2) != "note" and not names_option:
            problems.append(Problem(UNLOCATED, stage, line))
    return problems


def _kernel_name(text: str) -> str | None:
    m = re.search(r"(?:func\.func|llvm\.func)\s+@([\w.$-]+)\([^\n]*?(?:tcgen05\.kernel|nvvm\.kernel)", text)
    return m.group(1) if m else None


def iree_opt() -> str | None:
    return shutil.which("iree-opt")


def oracle_iree(text: str) -> str | None:
    """iree-opt's complaint about NVVM text we printed, or None when it accepts it."""
    return oracle_iree_batch([text])[0]


def oracle_iree_batch(texts: list[str]) -> list[str | None]:
    """iree-opt's complaint about each NVVM text (None: accepted), from one iree-opt run.

    The texts go to `iree-opt --split-input-file` as one input; each error is mapped back to the
    text whose lines it names. Starting iree-opt costs more than checking a small module.
    """
    from bisect import bisect_right

    exe = iree_opt()
    if exe is None or not texts:
        return [None] * len(texts)
    starts, lines, pieces = [], 1, []
    for text in texts:
        starts.append(lines)
        piece = text if text.endswith("\n") else text + "\n"
        pieces.append(piece)
        lines += piece.count("\n") + 1
    proc = subprocess.run([exe, "--split-input-file", "-", "-o", os.devnull], input="// -----\n".join(pieces),
                          capture_output=True, text=True, errors="replace", timeout=ORACLE_TIMEOUT)
    verdicts: list[str | None] = [None] * len(texts)
    if proc.returncode == 0:
        return verdicts
    mapped = False
    for line in proc.stderr.splitlines():
        m = re.match(r"^<stdin>:(\d+):\d+: error: (.*)", line)
        if m:
            i = bisect_right(starts, int(m.group(1))) - 1
            if verdicts[i] is None:
                verdicts[i] = m.group(2)
            mapped = True
    if not mapped:
        detail = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr[:300]) or "rejected"
        verdicts = [detail] * len(texts)
    return verdicts


def oracle_ptxas(ptx: str) -> str | None:
    """ptxas's complaint about PTX we emitted, or None when it assembles (or is absent)."""
    from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

    if find_ptxas() is None:
        return None
    result = run_ptxas(ptx, "sm_100a")
    if result.ok:
        return None
    return next((ln for ln in result.output.splitlines() if "error" in ln.lower()), result.output[:300])


def check_case(text: str, oracles: bool = True) -> list[Problem]:
    """Run one input through every stage; the problems found (empty when the tools behaved)."""
    problems, nvvm = run_stages(text, oracles)
    if oracles:
        for (stage, _), complaint in zip(nvvm, oracle_iree_batch([t for _, t in nvvm])):
            if complaint:
                problems.append(Problem(IREE, stage, complaint))
    return problems


def run_stages(text: str, oracles: bool = True) -> tuple[list[Problem], list[tuple[str, str]]]:
    """Every stage of one input: (the problems, the NVVM texts iree-opt still has to check)."""
    problems: list[Problem] = []
    nvvm: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="tmem-fuzz-") as tmp:
        path = Path(tmp) / "case.mlir"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        f = str(path)

        def stage(name: str, tool: str, *args: str) -> StageResult:
            result = run_tool_in_process(tool, list(args))
            problems.extend(judge_output(name, result))
            return result

        printed = stage("parse", "tmem-opt", f)
        if printed.code != 0:
            return problems, nvvm  # every later stage parses the same text first
        again = Path(tmp) / "printed.mlir"
        again.write_text(printed.stdout, encoding="utf-8")
        reprinted = stage("round-trip", "tmem-opt", str(again))
        if reprinted.code != 0:
            problems.append(Problem(ROUND_TRIP, "round-trip", f"the printed IR does not parse: {reprinted.stderr[:300]}"))
        elif reprinted.stdout != printed.stdout:
            problems.append(Problem(ROUND_TRIP, "round-trip", "printing the parsed print changes it"))
        generic = stage("generic", "tmem-opt", f, "--print-op-generic")
        if generic.code == 0:
            (Path(tmp) / "generic.mlir").write_text(generic.stdout, encoding="utf-8")
            back = stage("generic-round-trip", "tmem-opt", str(Path(tmp) / "generic.mlir"))
            if back.code != 0:
                problems.append(Problem(ROUND_TRIP, "generic", f"the generic print does not parse: {back.stderr[:300]}"))
            elif back.stdout != printed.stdout:
                problems.append(Problem(ROUND_TRIP, "generic", "the generic print parses to different IR"))
        stage("tmem-verify", "tmem-opt", f, "-p", "tmem-verify")
        stage("tmem-pipeline", "tmem-opt", f, "-p", "tmem-pipeline")
        for name, spec in (("nvvm", "convert-tcgen05-to-nvvm"), ("pipeline-nvvm", "tmem-pipeline,convert-tcgen05-to-nvvm")):
            lowered = stage(name, "tmem-opt", f, "-p", spec)
            if oracles and lowered.code == 0 and lowered.stdout not in (t for _, t in nvvm):
                nvvm.append((name, lowered.stdout))
        for name, extra in (("ptx", []), ("pipeline-ptx", ["-p", "tmem-pipeline"])):
            ptx = stage(name, "tmem-opt", f, *extra, "-t", "ptx")
            if oracles and ptx.code == 0 and ptx.stdout.strip() and (complaint := oracle_ptxas(ptx.stdout)):
                problems.append(Problem(PTXAS, name, complaint))
        kernel = _kernel_name(text)
        run_args = [f, "--max-ops", str(MAX_OPS)] + (["--kernel", kernel] if kernel else [])
        stage("tmem-run", "tmem-run", *run_args)
    return problems, nvvm


# ---- campaigns -------------------------------------------------------------------------------


def _limit_memory() -> None:
    """A worker may use 6 GiB: a huge allocation is a MemoryError, not the machine's OOM killer."""
    try:
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    except (ValueError, OSError):
        pass


def _worker(conn, oracles: bool) -> None:
    _limit_memory()
    os.environ.pop("TMEM_TRACEBACK", None)
    while True:
        job = conn.recv()
        if job is None:
            return
        try:
            problems, nvvm = run_stages(job, oracles)
            conn.send(([(p.kind, p.stage, p.detail) for p in problems], nvvm))
        except BaseException as e:  # noqa: BLE001 -- a harness-level crash is itself a finding
            conn.send(([(INTERNAL, "harness", f"{type(e).__name__}: {e}")], []))


class Worker:
    """One worker process that runs cases; replaced when a case overruns its time bound."""

    def __init__(self, oracles: bool):
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, oracles), daemon=True)
        self.proc.start()
        self.oracles = oracles
        self._cpu_at_start: float | None = None
        self._wall_at_start = time.monotonic()

    def start(self, text: str) -> None:
        self.conn.send(text)
        self._cpu_at_start = self._cpu_seconds()
        self._wall_at_start = time.monotonic()

    def _cpu_seconds(self) -> float | None:
        """CPU time the worker (all its threads) has used: Linux /proc, else None."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def seconds_on_case(self) -> float:
        """CPU seconds spent on the current case, or a twentieth of its wall time if more.

        CPU time, because on a loaded machine a case can wait minutes for a core without
        hanging; the wall-clock part still catches a case blocked without using the CPU.
        """
        wall = (time.monotonic() - self._wall_at_start) / 20
        now = self._cpu_seconds()
        if now is None or self._cpu_at_start is None:
            return wall
        return max(now - self._cpu_at_start, wall)

    def receive(self) -> tuple[list[Problem], list[tuple[str, str]]]:
        try:
            problems, nvvm = self.conn.recv()
            return [Problem(*p) for p in problems], nvvm
        except EOFError:
            return [Problem(INTERNAL, "worker", f"the worker process died (exit {self.proc.exitcode})")], []

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()


@dataclass
class Campaign:
    cases: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    signatures: dict[str, tuple[Problem, str]] = field(default_factory=dict)

    def record(self, problems: list[Problem], text: str) -> list[Problem]:
        """Count the problems; return those with a signature not seen before."""
        new = []
        for p in problems:
            self.problems[p.kind] += 1
            if p.signature not in self.signatures:
                self.signatures[p.signature] = (p, text)
                new.append(p)
        return new


def cases(seed: int, count: int, corpus: list[str]) -> Iterator[tuple[int, str, list[str]]]:
    """The campaign's mutants, reproducible from the seed: (index, text, mutations)."""
    rng = random.Random(seed)
    for i in range(count):
        base = rng.choice(corpus)
        text, names = mutate(rng, base, corpus)
        yield i, text, names


def run_campaign(count: int, seed: int, timeout: float = 60.0, oracles: bool = True,
                 save: Path | None = None, progress: bool = False, root: Path | None = None,
                 jobs: int = 1) -> Campaign:
    root = root or Path(__file__).resolve().parents[2]
    corpus = load_corpus(root)
    campaign = Campaign()
    worker = Worker(oracles)
    started = time.monotonic()
    pending: list[tuple[int, str, list[str], str, str]] = []  # NVVM awaiting one iree-opt run

    def report(i: int, text: str, names: list[str], found: list[Problem]) -> None:
        for p in campaign.record(found, text):
            if save is not None:
                save.mkdir(parents=True, exist_ok=True)
                digest = hashlib.sha1(p.signature.encode()).hexdigest()[:10]
                (save / f"{p.kind}-{digest}.mlir").write_bytes(text.encode("utf-8", "surrogateescape"))
                (save / f"{p.kind}-{digest}.txt").write_text(f"{p.signature}\n{p.detail}\ncase {i} seed {seed} {names}\n")
            if progress:
                print(f"\rcase {i}: new {p.kind} in {p.stage}: {p.detail[:150]}", file=sys.stderr)

    def flush() -> None:
        verdicts = oracle_iree_batch([t for *_, t in pending])
        for (i, text, names, stage, _), complaint in zip(pending, verdicts):
            if complaint:
                report(i, text, names, [Problem(IREE, stage, complaint)])
        pending.clear()

    from multiprocessing.connection import wait

    workers = [worker] + [Worker(oracles) for _ in range(jobs - 1)]
    busy: dict[Worker, tuple[int, str, list[str], float]] = {}
    todo = cases(seed, count, corpus)

    def finish(w: Worker, outcome) -> None:
        i, text, names, _ = busy.pop(w)
        found, nvvm = outcome
        campaign.cases += 1
        report(i, text, names, found)
        pending.extend((i, text, names, stage, t) for stage, t in nvvm)
        if len(pending) >= IREE_BATCH:
            flush()
        if progress and sys.stderr.isatty():
            rate = campaign.cases / max(time.monotonic() - started, 1e-9)
            print(f"\r{campaign.cases}/{count} cases, {sum(campaign.problems.values())} problems, "
                  f"{rate:.1f} cases/s", end="", file=sys.stderr, flush=True)
        elif progress and campaign.cases % 500 == 0:  # piped (a long campaign's log): a line now and then
            counts = ", ".join(f"{k} {campaign.problems[k]}" for k in KINDS)
            print(f"{campaign.cases}/{count} cases: {counts}", file=sys.stderr, flush=True)

    try:
        exhausted = False
        while True:
            for w in workers:
                if w not in busy and not exhausted:
                    job = next(todo, None)
                    if job is None:
                        exhausted = True
                        break
                    w.start(job[1])
                    busy[w] = (*job, time.monotonic())
            if not busy:
                break
            ready = wait([w.conn for w in busy], timeout=1.0)
            for w in list(busy):
                if w.conn in ready:
                    finish(w, w.receive())
            for w in list(busy):
                if (spent := w.seconds_on_case()) > timeout:
                    w.kill()
                    workers[workers.index(w)] = fresh = Worker(oracles)
                    busy[fresh] = busy.pop(w)
                    finish(fresh, ([Problem(HANG, "case", f"did not finish within {timeout:g} s "
                                                          f"({spent:.1f} s of CPU time)")], []))
        flush()
    finally:
        for w in workers:
            w.kill()
    if progress and sys.stderr.isatty():
        print(file=sys.stderr)
    return campaign


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tmem_dialect.tools.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000, help="how many mutants to run (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (a campaign is reproducible from it)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="CPU seconds per case before it counts as a hang (default 60)")
    parser.add_argument("--no-oracles", action="store_true", help="do not run ptxas and iree-opt")
    parser.add_argument("--save", type=Path, help="directory for one input per distinct problem")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    campaign = run_campaign(args.cases, args.seed, args.timeout, not args.no_oracles, args.save,
                            progress=True, jobs=max(1, args.jobs))
    print(f"{campaign.cases} cases, seed {args.seed}")
    for kind in KINDS:
        print(f"  {kind}: {campaign.problems[kind]}")
    print(f"{len(campaign.signatures)} distinct problems:")
    for signature in sorted(campaign.signatures):
        print(f"  {signature}")
    return 1 if campaign.problems else 0


if __name__ == "__main__":
    sys.exit(main())
