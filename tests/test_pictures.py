"""Pictures: the TMEM map's data against the interpreter, and what each drawing contains (its SVG text)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tmem_dialect import isa
from tmem_dialect.interpreter import run_kernel
from tmem_dialect.tools.pictures import INSTALL_HINT, PicturesUnavailable, canvas, require_matplotlib
from tmem_dialect.tools.pictures.fragment_map import FragmentCells, parse_form
from tmem_dialect.tools.pictures.tmem_state import NOBODY, MapError, MapRecorder, OpSelector

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LEAK_AND_QUARTER = ROOT / "tests/filecheck/interpreter/verify_leak_and_quarter.mlir"

try:
    import matplotlib  # noqa: F401

    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False
needs_matplotlib = pytest.mark.skipif(
    not HAVE_MATPLOTLIB, reason=f"matplotlib is not installed (the pictures extra: {INSTALL_HINT})"
)


def record(path: Path, at: str | None = None, **kwargs) -> tuple[MapRecorder, object]:
    recorder = MapRecorder(OpSelector.parse(at) if at else None)
    text = path.read_text()
    result = run_kernel(text, filename=str(path), on_machine=recorder.attach, **kwargs)
    return recorder, result


def chunked():
    return record(EXAMPLES / "racy" / "chunked_epilogue.mlir", args=[np.zeros(4096, np.int32)])


# ---- the data model, against the interpreter --------------------------------------------------


def test_each_warp_wrote_its_lane_quarter_after_the_run() -> None:
    """chunked_epilogue: warp w stores 32x32b.x32 to lanes 32w.. +31, columns 0..255 (8 chunks)."""
    recorder, _ = chunked()
    tmem = recorder.result()
    assert tmem.moment == "after the run"
    (cta,) = tmem.ctas
    expected = np.full((128, 512), NOBODY)
    for w in range(4):
        expected[32 * w : 32 * w + 32, :256] = w
    assert (cta.writer == expected).all()
    (a,) = cta.allocations
    assert (a.base, a.ncols, a.warp, a.live) == (0, 256, 0, False)
    assert "tcgen05.alloc 256 cols @0" in a.label and "freed" in a.label
    assert [cta.quarter_warps(q) for q in range(4)] == [[0], [1], [2], [3]]


def test_snapshot_writer_matches_the_interpreters_own_writer_array() -> None:
    """At --map-at the st (line 38), the replayed writer of each cell is the warp of the record the
    interpreter's TMEM model (TensorMemory.writer) holds for it at that moment."""
    recorder = MapRecorder(OpSelector.parse("chunked_epilogue.mlir:38"))
    seen: list[np.ndarray] = []

    def attach(machine) -> None:
        recorder.attach(machine)
        ours = machine.observer

        def observe(w, op) -> None:
            ours(w, op)
            loc = op.location
            if getattr(getattr(loc, "line", None), "data", None) == 38:
                ids = machine.ctas[0].tmem.writer
                warps = np.array([r.warp for r in machine.history.records] + [NOBODY])
                seen.append(warps[np.where(ids >= 0, ids, -1)].reshape(128, 512))

        machine.observer = observe

    path = EXAMPLES / "racy" / "chunked_epilogue.mlir"
    run_kernel(path.read_text(), filename=str(path), args=[np.zeros(4096, np.int32)], on_machine=attach)
    tmem = recorder.result()
    assert len(seen) == 32  # 8 iterations x 4 warps
    assert (tmem.ctas[0].writer == seen[-1]).all()
    assert "after tcgen05.st at" in tmem.moment and "chunked_epilogue.mlir:38" in tmem.moment
    assert tmem.ctas[0].allocations[0].live  # the dealloc has not run yet


def test_map_at_counts_ops_with_a_tmem_effect() -> None:
    """#N: #1 alloc, #2 relinquish, #3 the barrier, #4 the st. The snapshot is after the op's last
    execution: after the barrier nothing is written yet; after the st (the last iteration of the
    last warp to run it) every warp has stored all 8 chunks."""
    tmem = chunked_at("#3@1")  # the first warp through the barrier: nobody has stored yet
    assert "after nvvm.barrier" in tmem.moment and "execution 1, by warp" in tmem.moment
    assert (tmem.ctas[0].writer == NOBODY).all() and tmem.ctas[0].allocations[0].live
    tmem = chunked_at("#4")
    assert "after tcgen05.st" in tmem.moment and "its last execution" in tmem.moment
    assert all(tmem.ctas[0].cells_written_by(w) == 32 * 256 for w in range(4))
    tmem = chunked_at("38@1")  # the st's first execution: one warp's first chunk only
    w = int(tmem.moment.rsplit("by warp ", 1)[1].rstrip(")"))
    expected = np.full((128, 512), NOBODY)
    expected[32 * w : 32 * w + 32, :32] = w
    assert (tmem.ctas[0].writer == expected).all()
    tmem = chunked_at("38@9")  # a warp runs until it blocks: all 8 chunks of one, 1 of the next
    assert sorted(tmem.ctas[0].cells_written_by(w) for w in range(4)) == [0, 0, 32 * 32, 32 * 256]


def test_findings_are_tied_to_their_cells() -> None:
    recorder, result = record(LEAK_AND_QUARTER, args=[np.zeros(128, np.int32)])
    assert {"leak", "lane-quarter"} <= {getattr(k, "value", k) for k in result.kinds()}
    cta = recorder.result().ctas[0]
    leak = np.zeros((128, 512), bool)
    leak[:, :32] = True
    assert (cta.findings["leak"] == leak).all()  # the whole leaked allocation
    quarter = np.zeros((128, 512), bool)
    quarter[:32, 0] = True  # every warp stores lanes 0..31 of column 0
    assert (cta.findings["lane-quarter"] == quarter).all()
    assert cta.allocations[0].live  # leaked: still live after the run
    # Every warp wrote lanes 0..31, column 0; the last writer is one of them, nothing else is written.
    assert set(np.unique(cta.writer[:32, 0])) <= {0, 1, 2, 3}
    assert (cta.writer[32:, :] == NOBODY).all() and (cta.writer[:, 1:] == NOBODY).all()


CTA_PAIR = """
llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
func.func @k() attributes {tcgen05.kernel, tcgen05.reqntid = array<i32: 128, 1, 1>} {
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c21_i32 = arith.constant 21 : i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %warp = arith.shrui %tid, %c5_i32 : i32
  %is_warp0 = arith.cmpi eq, %warp, %c0_i32 : i32
  %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
  %quarter = arith.andi %warp, %c3_i32 : i32
  %lane_base = arith.shli %quarter, %c21_i32 : i32
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.alloc %slot, 64 cta_group(2) : !llvm.ptr<3>
    tcgen05.relinquish_alloc_permit cta_group(2)
  }
  nvvm.barrier
  %base = llvm.load %slot : !llvm.ptr<3> -> i32
  %taddr = arith.addi %base, %lane_base : i32
  %v = vector.broadcast %tid : i32 to vector<4xi32>
  tcgen05.st %v, %taddr shape_32x32b x4 : vector<4xi32>
  tcgen05.wait store
  tcgen05.fence before_thread_sync
  nvvm.barrier
  tcgen05.fence after_thread_sync
  nvvm.cluster.arrive aligned
  nvvm.cluster.wait aligned
  scf.if %is_warp0 {
    tcgen05.dealloc %base, 64 cta_group(2)
  }
  func.return
}
"""


def test_cta_pair_has_one_map_per_cta() -> None:
    recorder = MapRecorder()
    result = run_kernel(CTA_PAIR, cta_pair=True, on_machine=recorder.attach)
    assert result.diagnostics == [], result.render()
    tmem = recorder.result()
    assert [c.cta for c in tmem.ctas] == [0, 1]
    for cta in tmem.ctas:
        assert cta.warps == [4 * cta.cta + i for i in range(4)]
        for q, w in enumerate(cta.warps):
            assert cta.quarter_warps(q) == [w]
            assert (cta.writer[32 * q : 32 * q + 32, :4] == w).all()
        assert cta.cells_written_by(cta.warps[0]) == 32 * 4
        assert [(a.base, a.ncols) for a in cta.allocations] == [(0, 64)]


def test_map_at_errors() -> None:
    with pytest.raises(MapError, match="FILE:LINE or LINE"):
        OpSelector.parse("somewhere")
    with pytest.raises(MapError, match=r"no op at line 3 \(ops with a TMEM effect are at lines 23, 24"):
        chunked_at("3")
    with pytest.raises(MapError, match="the op ran only 32 times"):
        chunked_at("38@33")
    with pytest.raises(MapError, match="@K for its K-th execution"):
        OpSelector.parse("38@0")
    with pytest.raises(MapError, match="has 7 ops with a TMEM effect"):
        chunked_at("#99")
    recorder = MapRecorder()
    with pytest.raises(MapError, match="the kernel did not start"):
        recorder.result()


def chunked_at(at: str):
    recorder, _ = record(EXAMPLES / "racy" / "chunked_epilogue.mlir", at=at, args=[np.zeros(4096, np.int32)])
    return recorder.result()


def test_missing_matplotlib_is_a_one_line_error_naming_the_extra(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PicturesUnavailable, match=r"tmem-dialect\[pictures\]"):
        require_matplotlib()
    out = tmp_path / "x.svg"
    for ran in (tool("tmem_dialect.tools.draw", "fragment", "32x32b.x1", "-o", str(out)),
                tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--map", str(out))):
        assert ran.returncode == 1 and ran.stdout == ""
        assert ran.stderr.count("\n") == 1 and "pictures need matplotlib" in ran.stderr
        assert INSTALL_HINT in ran.stderr
    assert not out.exists()


# ---- fragment forms -------------------------------------------------------------------------


def test_form_parsing() -> None:
    f = parse_form("16x128b.x4")
    assert (f.shape, f.num, f.packed, f.op, f.offset) == (isa.Shape.S16x128b, 4, False, None, None)
    f = parse_form("tcgen05.ld.sync.aligned.32x32b.x2.pack::16b.b32")
    assert (f.shape, f.num, f.packed, f.op) == (isa.Shape.S32x32b, 2, True, "ld")
    assert parse_form("st.16x64b.x1.unpack").packed
    assert parse_form("16x32bx2.x2").offset == 2  # halves side by side by default
    assert parse_form("16x32bx2.x2", 1 << 20).offset == 1 << 20
    for bad, why in (("16x128b.x3", "num must be one of"), ("16x256b.x64", "more than the limit"),
                     ("ld.32x32b.x1.unpack", "not valid on tcgen05.ld"), ("32x32b", "needs a shape and a num"),
                     ("8x8b.x1", "unexpected '8x8b'")):
        with pytest.raises(ValueError, match=why):
            parse_form(bad)
    with pytest.raises(ValueError, match="only allowed with shape 16x32bx2"):
        parse_form("32x32b.x1", 16)


def test_fragment_cells_are_isas() -> None:
    for text in ("16x64b.x2", "16x128b.x4", "16x256b.x1.pack", "32x32b.x8", "16x32bx2.x4"):
        f = parse_form(text)
        cells = FragmentCells.of(f)
        lanes, columns = isa.access_cells(0, f.shape, f.num, f.packed, f.offset)
        assert (cells.lane == lanes).all() and (cells.column == columns).all()


# ---- drawings -------------------------------------------------------------------------------

GROUP = re.compile(r'<g id="([^"]+)">\s*<path [^>]*style="fill: (#[0-9a-f]{6})')


def patches(svg: str, prefix: str) -> list[tuple[dict[str, str], str]]:
    """(fields of the id, fill colour) of each patch whose SVG id starts with `prefix`."""
    out = []
    for gid, fill in GROUP.findall(svg):
        if gid.startswith(prefix + ":"):
            fields = dict(part.split("=", 1) for part in gid.split(":")[1:] if "=" in part)
            out.append((fields, fill))
    return out


def span(text: str) -> range:
    lo, hi = (int(x) for x in text.split("-"))
    return range(lo, hi + 1)


def texts(svg: str) -> list[str]:
    return [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


@needs_matplotlib
def test_map_svg_shows_allocations_quarters_writers_and_findings(tmp_path) -> None:
    from tmem_dialect.tools.pictures.tmem_map import draw_map

    recorder, _ = record(LEAK_AND_QUARTER, args=[np.zeros(128, np.int32)])
    tmem = recorder.result()
    out = tmp_path / "map.svg"
    canvas.save(draw_map(tmem, "k"), str(out))
    svg = out.read_text()
    words = texts(svg)
    assert any(t.startswith("tcgen05.alloc 32 cols @0 (warp 0, line 16") for t in words), words
    for q in range(4):
        assert f"lanes {32 * q}-{32 * q + 31}" in words and f"(warp % 4 = {q})" in words
    assert "finding: leak (4096 cells)" in words and "finding: lane-quarter (32 cells)" in words
    assert any(re.fullmatch(r"warp \d wrote 32 cells", t) for t in words)
    assert [str(c) for c in range(0, 513, 32)] == [t for t in words if t.isdigit() and int(t) % 32 == 0][:17]
    cells = patches(svg, "cells")
    assert len(cells) == 1  # lanes 0..31 of column 0, by the warp that stored last
    fields, fill = cells[0]
    assert fill == canvas.color(int(fields["warp"])) and span(fields["lanes"]) == range(32)
    assert re.search(r'<g id="finding:leak:lanes=0-127:cols=0-31">', svg)
    assert re.search(r'<g id="finding:lane-quarter:lanes=0-31:cols=0-0">', svg)
    assert re.search(r'<g id="alloc:cols=0-31:ncols=32:live=1">', svg)


@needs_matplotlib
def test_map_of_the_used_columns(tmp_path) -> None:
    from tmem_dialect.tools.pictures.tmem_map import draw_map, used_columns

    recorder, _ = record(LEAK_AND_QUARTER, args=[np.zeros(128, np.int32)])
    tmem = recorder.result()
    assert used_columns(tmem) == (0, 32)
    out = tmp_path / "used.svg"
    canvas.save(draw_map(tmem, "k", used_columns(tmem)), str(out))
    words = texts(out.read_text())
    assert "TMEM column (columns 0-31 of 0-511)" in words
    assert [str(c) for c in range(0, 33, 4)] == [t for t in words if t.isdigit() and int(t) <= 32][:9]
    from tmem_dialect.tools.pictures.run_map import column_range

    assert column_range("64:128") == (64, 128) and column_range(None) == (0, 512) and column_range("used") == "used"
    for bad in ("128:64", "0:513", "x"):
        with pytest.raises(ValueError, match="--map-columns"):
            column_range(bad)


@needs_matplotlib
def test_map_svg_counts_cells_per_warp_colour(tmp_path) -> None:
    from tmem_dialect.tools.pictures.tmem_map import draw_map

    recorder, _ = chunked()
    out = tmp_path / "map.svg"
    canvas.save(draw_map(recorder.result(), "chunked"), str(out))
    svg = out.read_text()
    per_colour: Counter[str] = Counter()
    for fields, fill in patches(svg, "cells"):
        assert fill == canvas.color(int(fields["warp"]))
        per_colour[fill] += len(span(fields["lanes"])) * len(span(fields["cols"]))
    assert per_colour == {canvas.color(w): 32 * 256 for w in range(4)}
    words = texts(svg)
    for w in range(4):
        assert f"warp {w} wrote 8192 cells" in words
    assert "finding: store-completion (1024 cells)" in words  # no waits: ld of warp 3 after its st
    assert any("freed" in t for t in words)


@needs_matplotlib
def test_cta_pair_map_has_a_panel_per_cta(tmp_path) -> None:
    from tmem_dialect.tools.pictures.tmem_map import draw_map

    recorder = MapRecorder()
    run_kernel(CTA_PAIR, cta_pair=True, on_machine=recorder.attach)
    out = tmp_path / "pair.svg"
    canvas.save(draw_map(recorder.result(), "pair"), str(out))
    svg = out.read_text()
    words = texts(svg)
    assert "CTA 0 (warps 0-3)" in words and "CTA 1 (warps 4-7)" in words
    warps = sorted(int(f["warp"]) for f, _ in patches(svg, "cells"))
    assert warps == list(range(8))
    assert len(re.findall(r'<g id="alloc:cols=0-63:ncols=64:live=0">', svg)) == 2


@needs_matplotlib
@pytest.mark.parametrize("text", ["16x128b.x4", "32x32b.x2.pack", "16x64b.x1", "16x32bx2.x2"])
def test_fragment_svg_labels_every_thread_register_and_cell(tmp_path, text) -> None:
    from tmem_dialect.tools.pictures.fragment_map import draw_fragment

    form = parse_form(text)
    out = tmp_path / "frag.svg"
    canvas.save(draw_fragment(form), str(out))
    svg = out.read_text()
    frag = isa.fragment(form.shape, form.num, form.packed)
    lanes, columns = isa.access_cells(0, form.shape, form.num, form.packed, form.offset)
    tmem = patches(svg, "tmem")
    regs = patches(svg, "reg")
    assert len(tmem) == len(regs) == lanes.size
    for fields, fill in tmem:
        t, r, h = int(fields["t"]), int(fields["r"]), int(fields["h"])
        assert (int(fields["lane"]), int(fields["col"])) == (lanes[t, r, h], columns[t, r, h])
        assert fill == canvas.color(r)
    assert Counter(fill for _, fill in regs) == {canvas.color(r): 32 * lanes.shape[2] for r in range(frag.regs)}
    words = Counter(texts(svg))
    halves = lanes.shape[2]
    for t in range(32):  # a TMEM cell label per (register, half), and the thread axis
        assert words[f"T{t}"] == frag.regs * halves + 1
    for r in range(frag.regs):  # the register axis, and a TMEM cell label per thread
        if form.packed:
            assert words[f"r{r}"] == 1 and words[f"r{r}.lo"] == words[f"r{r}.hi"] == 32
        else:
            assert words[f"r{r}"] == 32 + 1
    for t, r, h in np.ndindex(lanes.shape):  # each register cell names the TMEM cell it holds
        assert words[f"{lanes[t, r, h]},{columns[t, r, h]}"] == 1


@needs_matplotlib
def test_wide_fragment_is_drawn_without_labels(tmp_path) -> None:
    from tmem_dialect.tools.pictures.fragment_map import draw_fragment

    out = tmp_path / "wide.svg"
    canvas.save(draw_fragment(parse_form("32x32b.x128")), str(out))
    svg = out.read_text()
    regions = patches(svg, "tmem")
    assert len(regions) == 128 and all(span(f["lanes"]) == range(32) for f, _ in regions)
    assert "colour = register (r0 .. r127)" in texts(svg)


@needs_matplotlib
def test_plan_svg_shows_each_warps_messages(tmp_path) -> None:
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module
    from tmem_dialect.tools.pictures.plan_map import draw_plan, tile_pictures

    path = EXAMPLES / "accumulator_readout.mlir"
    module = parse_module(make_context(), path.read_text(), str(path))
    tiles, problems = tile_pictures(module, 128)
    assert problems == [] and len(tiles) == 2
    out = tmp_path / "plan.svg"
    canvas.save(draw_plan(tiles, "acc", 128), str(out))
    svg = out.read_text()
    messages = patches(svg, "msg")
    assert len(messages) == 16  # 2 tiles x 4 warps x 2 messages
    for fields, fill in messages:
        q, k = int(fields["warp"]), int(fields["index"])
        assert fields["form"] == "32x32b.x128"
        assert span(fields["lanes"]) == range(32 * q, 32 * q + 32)
        assert span(fields["cols"]) == range(128 * k, 128 * k + 128)
        assert (fill == canvas.color(q)) == (k % 2 == 0)  # odd messages of a warp are a lighter shade
    words = Counter(texts(svg))
    assert words["warp 0 (w % 4 = 0): 2 x 32x32b.x128"] == 2  # the legend of each tile
    assert words["st 32x32b.x128"] == words["ld 32x32b.x128"] == 8  # a label per message
    assert all(words[f"warp {q} #{k}"] == 2 for q in range(4) for k in range(2))


@needs_matplotlib
def test_plan_of_the_m64_f16_tile_uses_packed_16x256b() -> None:
    from tmem_dialect.dialects import make_context
    from tmem_dialect.ir import parse_module
    from tmem_dialect.tools.pictures.plan_map import tile_pictures

    path = EXAMPLES / "m64_f16.mlir"
    tiles, _ = tile_pictures(parse_module(make_context(), path.read_text(), str(path)), 128)
    store, load = tiles
    assert [m.form for m in store.messages] == ["16x256b.x4.unpack::16b"] * 4
    assert [m.form for m in load.messages] == ["16x256b.x4.pack::16b"] * 4
    grid = store.grid()
    for q in range(4):  # rows 16w..16w+15 live in lanes 0-15 of quarter w
        assert (grid[32 * q : 32 * q + 16, :64] == q).all() and (grid[32 * q + 16 : 32 * q + 32] == -1).all()


# ---- the commands ---------------------------------------------------------------------------


class Ran:
    def __init__(self, returncode: int, stdout: str, stderr: str):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def tool(module: str, *args: str) -> Ran:
    """Run tmem-run / tmem-draw in this process (their main(), as the console scripts do)."""
    import contextlib
    import io
    import os

    from tmem_dialect.tools import draw, run

    main = {"tmem_dialect.tools.run": run.main, "tmem_dialect.tools.draw": draw.main}[module]
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(args))
                code = 0
            except SystemExit as e:
                code = int(e.code or 0)
    finally:
        os.chdir(cwd)
    return Ran(code, out.getvalue(), err.getvalue())


@needs_matplotlib
def test_tmem_run_map_writes_svg_and_png(tmp_path) -> None:
    for name in ("map.svg", "map.png"):
        out = tmp_path / name
        p = tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--arg", "i32:4096", "--map", str(out),
                 "--map-at", "examples/racy/chunked_epilogue.mlir:45")
        assert p.returncode == 1, p.stderr  # the kernel has findings (no waits); the map is still drawn
        assert out.exists() and out.stat().st_size > 1000
    svg = (tmp_path / "map.svg").read_text()
    assert "after tcgen05.ld at examples/racy/chunked_epilogue.mlir:45:5 (its last execution" in svg
    assert (tmp_path / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_matplotlib
def test_tmem_run_map_errors_are_one_line(tmp_path) -> None:
    out = tmp_path / "map.pdf"
    p = tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--arg", "i32:4096", "--map", str(out))
    assert p.returncode == 1 and "name it .svg or .png" in p.stderr and p.stdout == "" and not out.exists()
    out = tmp_path / "map.svg"
    p = tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--arg", "i32:4096", "--map", str(out),
             "--map-at", "7")
    assert p.returncode == 1 and not out.exists()
    assert "tmem-run: error: cannot write the TMEM map" in p.stderr and "no op at line 7" in p.stderr
    p = tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--arg", "i32:4096", "--map",
             str(tmp_path / "missing" / "map.svg"))
    assert p.returncode == 1
    assert p.stderr.endswith("map.svg': No such file or directory\n") and ".tmem-picture" not in p.stderr
    p = tool("tmem_dialect.tools.run", "examples/racy/chunked_epilogue.mlir", "--map-at", "45")
    assert p.returncode == 1 and "--map-at and --map-columns need --map" in p.stderr
    assert list(tmp_path.iterdir()) == []  # never a partial file


@needs_matplotlib
def test_tmem_draw_commands(tmp_path) -> None:
    out = tmp_path / "frag.svg"
    p = tool("tmem_dialect.tools.draw", "fragment", "16x128b.x4", "-o", str(out))
    assert p.returncode == 0 and p.stderr == "" and "T31" in out.read_text()
    p = tool("tmem_dialect.tools.draw", "fragment", "16x128b.x5", "-o", str(out))
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "tmem-draw: error: form '16x128b.x5'" in p.stderr
    plan = tmp_path / "plan.png"
    p = tool("tmem_dialect.tools.draw", "plan", "examples/accumulator_readout.mlir", "-o", str(plan),
             "--regs-per-message", "32")
    assert p.returncode == 0 and plan.read_bytes()[:4] == b"\x89PNG"
    svg = tmp_path / "plan.svg"
    p = tool("tmem_dialect.tools.draw", "plan", "examples/accumulator_readout.mlir", "-o", str(svg),
             "--regs-per-message", "32")
    assert sum(1 for f, _ in patches(svg.read_text(), "msg") if f["form"] == "32x32b.x32") == 2 * 4 * 8
    p = tool("tmem_dialect.tools.draw", "plan", "examples/racy/chunked_epilogue.mlir", "-o", str(tmp_path / "none.svg"))
    assert p.returncode == 1 and "no tcgen05.tile_load or tcgen05.tile_store" in p.stderr
    assert not (tmp_path / "none.svg").exists()


# ---- the cell rectangles every picture is drawn with -------------------------------------------


@settings(max_examples=200, deadline=None)
@given(arrays(np.int64, st.tuples(st.integers(1, 12), st.integers(1, 12)), elements=st.integers(-1, 3)))
def test_rectangles_cover_each_drawn_cell_once_with_its_value(grid: np.ndarray) -> None:
    painted = np.full(grid.shape, -1)
    covered = np.zeros(grid.shape, dtype=int)
    for r in canvas.rectangles(grid, -1):
        assert r.lane0 < r.lane1 and r.col0 < r.col1 and r.value != -1
        painted[r.lane0 : r.lane1, r.col0 : r.col1] = r.value
        covered[r.lane0 : r.lane1, r.col0 : r.col1] += 1
    assert (painted == grid).all()
    assert (covered == (grid != -1)).all()  # no overlaps, nothing outside the drawn cells


def test_rectangles_merge_equal_runs_downwards() -> None:
    grid = np.full((128, 512), -1)
    for w in range(4):
        grid[32 * w : 32 * w + 32, :256] = w
    rects = canvas.rectangles(grid, -1)
    assert [(r.value, r.lane0, r.lane1, r.col0, r.col1) for r in rects] == [
        (w, 32 * w, 32 * w + 32, 0, 256) for w in range(4)
    ]
