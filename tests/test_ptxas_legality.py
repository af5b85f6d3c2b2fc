"""Static legality agrees with ptxas: every tcgen05.ld/st form and alloc/dealloc nCols, asked of both.

Each form is asked of our verifiers (the tcgen05 op's, and the nvvm.tcgen05 op's where upstream can
express the form) and of ptxas -arch=sm_100a. Forms go to ptxas in batches (one PTX line each,
errors attributed by line); a batch whose errors cannot be attributed is bisected.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.test import TestOp as ValueSource
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.utils.exceptions import VerifyException

from tmem_dialect import isa
from tmem_dialect.dialects import llvm_ext, nvvm, nvvm_tmem, tcgen05
from tmem_dialect.lowering.ptx_emitter import emit_ptx
from tmem_dialect.lowering.ptxas import find_ptxas, run_ptxas

PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found ($PTXAS, PATH or nvidia-cuda-nvcc wheel)")

NCOLS = (16, 32, 48, 64, 96, 128, 256, 384, 512, 1024)
PACKINGS = (None, isa.PACK_16B, isa.UNPACK_16B)
HEADER = ".version 8.6\n.target sm_100a\n.address_size 64\n\n.shared .align 4 .b32 slot;\n\n"


@dataclass(frozen=True)
class LdStForm:
    op: str  # "ld" | "st"
    shape: isa.Shape
    num: int
    packing: str | None
    offset: bool

    def __str__(self) -> str:
        off = " +offset" if self.offset else ""
        return f"{isa.ldst_mnemonic(self.op, self.shape, self.num, self.packing)}{off}"


def ldst_forms() -> list[LdStForm]:
    return [
        LdStForm(op, shape, num, packing, offset)
        for op, shape, num, packing, offset in itertools.product(
            ("ld", "st"), isa.Shape, isa.NUMS, PACKINGS, (False, True)
        )
    ]


# ---- our verifiers ---------------------------------------------------------------------------


def _accepts(op) -> bool:
    try:
        op.verify()
    except VerifyException:
        return False
    return True


def tcgen05_verifier_accepts(form: LdStForm) -> bool:
    taddr = ValueSource(result_types=[i32]).res[0]
    offset = 2 if form.offset else None
    regs = VectorType(i32, [isa.regs_per_thread(form.shape, form.num)])
    props: dict[str, Attribute] = {
        "shape": tcgen05.ShapeAttr(tcgen05.ShapeKind.of(form.shape)),
        "num": tcgen05.NumAttr(tcgen05.NumKind.of(form.num)),
    }
    if offset is not None:
        props["offset"] = IntegerAttr(offset, i64)
    if form.packing is not None:
        props["pack" if form.packing == isa.PACK_16B else "unpack"] = UnitAttr()
    if form.op == "ld":
        op = tcgen05.LdOp.create(operands=[taddr], result_types=[regs], properties=props)
    else:
        value = ValueSource(result_types=[regs]).res[0]
        op = tcgen05.StOp.create(operands=[value, taddr], properties=props)
    return _accepts(op)


def nvvm_expressible(form: LdStForm) -> bool:
    """Upstream's ops spell only pack on ld and unpack on st."""
    return form.packing is None or form.packing == (isa.PACK_16B if form.op == "ld" else isa.UNPACK_16B)


# ---- ptxas ------------------------------------------------------------------------------------


def _nvvm_kernel(forms: Sequence[LdStForm]) -> tuple[ModuleOp, dict[object, LdStForm]]:
    """One kernel with an nvvm.tcgen05 op per form (unverified: illegal forms included)."""
    block = Block(arg_types=[i32, i32])
    taddr_int, value = block.args
    ptr = llvm.IntToPtrOp.create(operands=[taddr_int], result_types=[nvvm.TMEM_POINTER])
    c0 = llvm.ConstantOp(IntegerAttr(0, i32), i32)
    poison = llvm_ext.PoisonOp(VectorType(i32, [1]))
    one = llvm.InsertElementOp(poison.res, value, c0.result)
    off = llvm.ConstantOp(IntegerAttr(2, i64), i64)
    ops: list[Operation] = [ptr, c0, poison, one, off]
    owner: dict[object, LdStForm] = {}
    for form in forms:
        count = isa.regs_per_thread(form.shape, form.num)
        vec = VectorType(i32, [count])
        props: dict[str, Attribute] = {"shape": nvvm_tmem.LdStShapeAttr(nvvm_tmem.LdStShape.of(form.shape))}
        offset = [off.result] if form.offset else []
        if form.packing:
            props["pack" if form.op == "ld" else "unpack"] = UnitAttr()
        if form.op == "ld":
            op = nvvm_tmem.Tcgen05LdOp.create(operands=[ptr.results[0], *offset], result_types=[vec], properties=props)
        else:
            splat = llvm.ShuffleVectorOp(one.res, one.res, DenseArrayBase.from_list(i32, [0] * count), vec)
            ops.append(splat)
            op = nvvm_tmem.Tcgen05StOp.create(operands=[ptr.results[0], splat.res, *offset], properties=props)
        ops.append(op)
        owner[op] = form
    ops.append(llvm.ReturnOp())
    block.add_ops(ops)
    func = llvm.FuncOp(
        "forms", llvm.LLVMFunctionType([i32, i32]), linkage=llvm.LinkageAttr("external"), body=Region(block)
    )
    func.attributes["nvvm.kernel"] = UnitAttr()
    return ModuleOp([func]), owner


def ptxas_verdicts(forms: Sequence[object], build: Callable[[Sequence[object]], tuple[str, dict[int, object]]]) -> dict:
    """ptxas's accept/reject per form: batch, attribute errors by line, bisect the rest."""
    verdict: dict = {}
    pending = [list(forms)]
    while pending:
        batch = pending.pop()
        if not batch:
            continue
        text, form_at_line = build(batch)
        result = run_ptxas(text, "sm_100a", PTXAS)
        if result.ok:
            verdict.update({f: True for f in batch})
            continue
        rejected = {form_at_line[line] for line in result.error_lines if line in form_at_line}
        unattributed = [m for m in result.messages if m.line not in form_at_line and m.severity.value == "error"]
        if unattributed:
            if len(batch) == 1:
                verdict[batch[0]] = False
                continue
            half = len(batch) // 2
            pending += [batch[:half], batch[half:]]
            continue
        verdict.update({f: False for f in rejected})
        pending.append([f for f in batch if f not in rejected])  # confirm the rest alone
    return verdict


def build_emitted(forms: Sequence[object]) -> tuple[str, dict[int, object]]:
    module, owner = _nvvm_kernel(forms)  # type: ignore[arg-type]
    ptx = emit_ptx(module)
    return ptx.text, {i + 1: owner[op] for i, op in enumerate(ptx.line_ops) if op in owner}


def build_spelled(forms: Sequence[object]) -> tuple[str, dict[int, object]]:
    """PTX spelled from isa.py for forms upstream's ops cannot express (wrong-direction packing)."""
    lines = [HEADER, ".visible .entry forms(.param .b32 forms_param_0)\n{\n", "\t.reg .b32 %r<600>;\n",
             "\tld.param.b32 %r1, [forms_param_0];\n"]
    at: dict[int, object] = {}
    for form in forms:
        assert isinstance(form, LdStForm)
        regs = ", ".join(f"%r{2 + i}" for i in range(isa.regs_per_thread(form.shape, form.num)))
        off = ", 2" if form.offset else ""
        mnemonic = isa.ldst_mnemonic(form.op, form.shape, form.num, form.packing)
        text = f"\t{mnemonic} {{{regs}}}, [%r1]{off};\n" if form.op == "ld" else f"\t{mnemonic} [%r1]{off}, {{{regs}}};\n"
        lines.append(text)
        at["".join(lines).count("\n")] = form
    lines.append("\tret;\n}\n")
    return "".join(lines), at


# ---- the tests --------------------------------------------------------------------------------


def test_enumeration_covers_every_form() -> None:
    forms = ldst_forms()
    assert len(forms) == 2 * 5 * 8 * 3 * 2
    assert len({str(f) for f in forms}) == len(forms)


def test_nvvm_verifier_agrees_with_tcgen05_verifier() -> None:
    """Where upstream's ops can express a form, both of our verifiers give the same answer."""
    module, owner = _nvvm_kernel([f for f in ldst_forms() if nvvm_expressible(f)])
    for op, form in owner.items():
        assert _accepts(op) == tcgen05_verifier_accepts(form), str(form)


@needs_ptxas
def test_ldst_static_legality_matches_ptxas() -> None:
    forms = ldst_forms()
    expressible = [f for f in forms if nvvm_expressible(f)]
    spelled = [f for f in forms if not nvvm_expressible(f)]
    verdict = {**ptxas_verdicts(expressible, build_emitted), **ptxas_verdicts(spelled, build_spelled)}
    disagreements = [
        f"{form}: ours {'accepts' if ours else 'rejects'}, ptxas {'accepts' if verdict[form] else 'rejects'}"
        for form in forms
        if (ours := tcgen05_verifier_accepts(form)) != verdict[form]
    ]
    assert not disagreements, "\n".join(disagreements)
    accepted = sum(verdict.values())
    # 37 legal (shape, num) pairs x {ld, st} x {plain, the right packing}, offset only on 16x32bx2.
    assert accepted == 37 * 2 * 2


@dataclass(frozen=True)
class NColsForm:
    op: str  # "alloc" | "dealloc"
    ncols: int
    cta_group: int


def build_ncols(forms: Sequence[object]) -> tuple[str, dict[int, object]]:
    """One kernel per cta_group (ptxas rejects a function that mixes them), immediates nCols."""
    lines = [HEADER]
    at: dict[int, object] = {}
    for group in isa.CTA_GROUPS:
        mine = [f for f in forms if isinstance(f, NColsForm) and f.cta_group == group]
        if not mine:
            continue
        lines += [f".visible .entry forms{group}(.param .b32 forms{group}_param_0)\n{{\n",
                  "\t.reg .b32 %r<2>;\n", f"\tld.param.b32 %r1, [forms{group}_param_0];\n"]
        for form in mine:
            if form.op == "alloc":
                lines.append(f"\t{isa.alloc_mnemonic(group)} [slot], {form.ncols};\n")
            else:
                lines.append(f"\t{isa.dealloc_mnemonic(group)} %r1, {form.ncols};\n")
            at["".join(lines).count("\n")] = form
        lines.append("\tret;\n}\n\n")
    return "".join(lines), at


def verifier_accepts_ncols(form: NColsForm) -> bool:
    slot = ValueSource(result_types=[llvm.LLVMPointerType(IntAttr(3))]).res[0]
    taddr = ValueSource(result_types=[i32]).res[0]
    if form.op == "alloc":
        return _accepts(tcgen05.AllocOp(slot, form.ncols, form.cta_group))
    return _accepts(tcgen05.DeallocOp(taddr, form.ncols, form.cta_group))


@needs_ptxas
def test_alloc_ncols_matches_ptxas() -> None:
    forms = [NColsForm("alloc", n, g) for n in NCOLS for g in isa.CTA_GROUPS]
    verdict = ptxas_verdicts(forms, build_ncols)
    for form in forms:
        assert verifier_accepts_ncols(form) == verdict[form], form
    assert {f.ncols for f in forms if verdict[f]} == {32, 64, 128, 256, 512}


@needs_ptxas
def test_dealloc_ncols_ptxas_is_laxer_than_the_isa() -> None:
    """ptxas checks only that a dealloc immediate is a multiple of 32; the ISA's nCols rule
    (power of 2 in [32, 512], as for alloc) is ours to enforce: we reject everything ptxas
    rejects, and additionally exactly 96, 384 and 1024."""
    forms = [NColsForm("dealloc", n, g) for n in NCOLS for g in isa.CTA_GROUPS]
    verdict = ptxas_verdicts(forms, build_ncols)
    ours = {f: verifier_accepts_ncols(f) for f in forms}
    assert all(verdict[f] for f in forms if ours[f])
    assert {f.ncols for f in forms if verdict[f] and not ours[f]} == {96, 384, 1024}
