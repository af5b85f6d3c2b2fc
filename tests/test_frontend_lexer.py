"""The PTX lexer: token kinds, texts and offsets, the errors at bad characters, and a scan linear in the text."""

from __future__ import annotations

import pytest

from tmem_dialect.diagnostics import DiagnosticError
from tmem_dialect.frontend.lexer import Kind, Source, tokenize


def _tokens(text: str) -> list[tuple[str, str, int]]:
    return [(kind.name, text, start) for kind, text, start in zip(*tokenize(Source(text, "k.ptx")))]


def _error(text: str) -> tuple[str, int, int]:
    with pytest.raises(DiagnosticError) as info:
        tokenize(Source(text, "k.ptx"))
    (d,) = info.value.diagnostics
    return d.message, d.location.line, d.location.column


def test_every_kind_with_its_offset() -> None:
    text = 'mov.u32 %r1, 0f3F800000; // c\n/* d */ @!%p bra $L__BB0_1::x; 0x1FU 0b10 017 1.5e3 2e-1 "s\\"t" [a+4]'
    assert _tokens(text) == [
        ("NAME", "mov.u32", 0), ("NAME", "%r1", 8), ("PUNCT", ",", 11), ("FLOAT", "0f3F800000", 13),
        ("PUNCT", ";", 23), ("PUNCT", "@", 38), ("PUNCT", "!", 39), ("NAME", "%p", 40), ("NAME", "bra", 43),
        ("NAME", "$L__BB0_1::x", 47), ("PUNCT", ";", 59), ("INT", "0x1FU", 61), ("INT", "0b10", 67),
        ("INT", "017", 72), ("FLOAT", "1.5e3", 76), ("FLOAT", "2e-1", 82), ("STRING", '"s\\"t"', 87),
        ("PUNCT", "[", 94), ("NAME", "a", 95), ("PUNCT", "+", 96), ("INT", "4", 97), ("PUNCT", "]", 98),
        ("EOF", "", 99),
    ]


@pytest.mark.parametrize("text", ["", "   \n", "// only a comment", "/* only */", "x", "x  \n\t// end"])
def test_one_eof_token_at_the_end(text: str) -> None:
    kinds, texts, starts = tokenize(Source(text, "k.ptx"))
    assert len(kinds) == len(texts) == len(starts)
    assert kinds.count(Kind.EOF) == 1
    assert kinds[-1] is Kind.EOF and texts[-1] == "" and starts[-1] == len(text)


@pytest.mark.parametrize(("text", "error"), [
    ("mov #", ("unexpected character '#'", 1, 5)),
    ("a // c\n  /* d */  `", ("unexpected character '`'", 2, 12)),
    ("a\n /* open", ("unterminated /* comment", 2, 2)),
    ('a "open\n"', ("unterminated string literal", 1, 3)),
    ("#", ("unexpected character '#'", 1, 1)),
])
def test_errors_are_at_the_bad_character(text: str, error: tuple[str, int, int]) -> None:
    assert _error(text) == error


@pytest.mark.parametrize("filler", [" ", " \t\n", "// c\n", "/* c */ ", "a "])
def test_a_bad_character_after_a_long_run_is_found(filler: str) -> None:
    # 100k repetitions: a scan that backtracked over the run's splits (exponential) or searched
    # on from every position (quadratic) would not finish; nothing here is timed.
    n = 100_000
    text = filler * n + "#"
    message, line, column = _error(text)
    assert message == "unexpected character '#'"
    assert (line, column) == (filler.count("\n") * n + 1, len(text) - 1 - text.rfind("\n"))
