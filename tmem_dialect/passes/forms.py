"""Symbolic kernel integers: `Form` = per-thread constant + integer combination of opaque `Sym`s with ranges."""

from __future__ import annotations

from itertools import count

import numpy as np
from xdsl.ir import SSAValue

from tmem_dialect.passes.cfg import Loop
from tmem_dialect.passes.threads import ThreadSpace, Uniformity

_ids = count()


class Sym:
    """A value we cannot compute, with what we know about it."""

    __slots__ = ("id", "value", "lo", "hi", "uniformity", "loop", "step", "induction_of", "allocation")

    def __init__(
        self,
        value: SSAValue | None,
        uniformity: Uniformity,
        lo: int | None = None,
        hi: int | None = None,
        loop: Loop | None = None,
        *,
        step: int | None = None,
        induction_of: Loop | None = None,
        allocation: object | None = None,
    ):
        self.id = next(_ids)
        self.value = value
        self.uniformity = uniformity
        self.lo = lo
        self.hi = hi
        self.loop = loop
        self.step = step
        self.induction_of = induction_of
        self.allocation = allocation

    @property
    def bounded(self) -> bool:
        return self.lo is not None and self.hi is not None

    def __repr__(self) -> str:
        name = self.value.name_hint if self.value is not None else None
        return f"Sym({name or self.id})"


Const = int | np.ndarray


_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1


class Form:
    """`const + sum(coeff * sym)`; `const` is an int or a per-thread int64 vector."""

    __slots__ = ("const", "terms", "_uniformity")

    def __init__(self, const: Const, terms: tuple[tuple[Sym, int], ...] = ()):
        if isinstance(const, np.ndarray) and const.ndim == 0:  # np.where on scalars
            const = int(const)
        elif isinstance(const, np.ndarray) and const.size and (const == const[0]).all():
            const = int(const[0])
        self.const = const
        self.terms = terms
        self._uniformity: Uniformity | None = None

    @property
    def is_concrete(self) -> bool:
        return not self.terms

    @property
    def constant(self) -> int | None:
        return self.const if not self.terms and isinstance(self.const, int) else None

    def coeff(self, sym: Sym) -> int:
        for s, c in self.terms:
            if s is sym:
                return c
        return 0

    def __add__(self, other: Form) -> Form:
        return Form(self.const + other.const, _merge(self.terms, other.terms, 1))

    def __sub__(self, other: Form) -> Form:
        return Form(self.const - other.const, _merge(self.terms, other.terms, -1))

    def scale(self, k: int) -> Form:
        if k == 0:
            return Form(0)
        return Form(self.const * k, tuple((s, c * k) for s, c in self.terms))

    def same_as(self, other: Form) -> bool:
        if self.terms != other.terms:
            return False
        a, b = self.const, other.const
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return bool(np.array_equal(np.broadcast_to(a, np.shape(b) or np.shape(a)), b))

    def uniformity(self, space: ThreadSpace) -> Uniformity:
        if self._uniformity is None:
            u = Uniformity.CTA
            if isinstance(self.const, np.ndarray):
                lo, hi = space.warp_min_max(self.const)
                u = Uniformity.THREAD if (lo != hi).any() else Uniformity.WARP
            for s, _ in self.terms:
                u = max(u, s.uniformity)
            self._uniformity = u
        return self._uniformity

    def bounds(self) -> tuple[int, int] | None:
        """Range over every thread and every value of the symbols, None when unbounded."""
        if isinstance(self.const, np.ndarray):
            lo, hi = int(self.const.min()), int(self.const.max())
        else:
            lo = hi = self.const
        for s, c in self.terms:
            if not s.bounded:
                return None
            a, b = c * s.lo, c * s.hi  # type: ignore[operator]
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi

    def warp_bounds(self, space: ThreadSpace) -> tuple[np.ndarray, np.ndarray] | None:
        """Per-warp (min, max) arrays over the warp's threads and the symbols' ranges."""
        if isinstance(self.const, np.ndarray):
            lo, hi = space.warp_min_max(self.const)
        else:
            lo = np.full(space.nwarps, self.const, dtype=np.int64)
            hi = lo.copy()
        extra_lo = extra_hi = 0
        for s, c in self.terms:
            if not s.bounded:
                return None
            a, b = c * s.lo, c * s.hi  # type: ignore[operator]
            extra_lo += min(a, b)
            extra_hi += max(a, b)
        if int(lo.min()) + extra_lo < _I64_MIN or int(hi.max()) + extra_hi > _I64_MAX:
            return None  # beyond any address (a shift by a run-time amount): unbounded
        return lo + extra_lo, hi + extra_hi

    def __repr__(self) -> str:
        const = self.const if isinstance(self.const, int) else "<per-thread>"
        terms = " + ".join(f"{c}*{s}" for s, c in self.terms)
        return f"Form({const}{' + ' + terms if terms else ''})"


def _merge(
    a: tuple[tuple[Sym, int], ...], b: tuple[tuple[Sym, int], ...], sign: int
) -> tuple[tuple[Sym, int], ...]:
    if not b:
        return a
    coeffs: dict[Sym, int] = dict(a)
    for s, c in b:
        coeffs[s] = coeffs.get(s, 0) + sign * c
    return tuple(sorted(((s, c) for s, c in coeffs.items() if c), key=lambda t: t[0].id))
