"""PTX tokens: one regular-expression scan over the text (linear in its size), with positions for diagnostics."""

from __future__ import annotations

import re
from bisect import bisect_right
from enum import Enum
from typing import NamedTuple

from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLocation


class Kind(Enum):
    NAME = "name"  # identifiers, opcodes with modifiers (mov.u32, wait::ld), %registers, .directives
    INT = "integer"
    FLOAT = "float"
    STRING = "string"
    PUNCT = "punctuation"
    EOF = "end of file"


class Token(NamedTuple):  # (a tuple: a file has a token per few bytes, and tuples are cheap to make)
    kind: Kind
    text: str
    start: int


# Each alternative consumes at least one character and none can backtrack over more than its
# own token, so the scan is linear. Whitespace and comments are skipped by the match of the token
# that follows them (one match per token); `\Z` matches what is left at the end of the text.
_SKIP = r"(?:[ \t\r\n\f\v]+|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)"
_SKIPPED = re.compile(_SKIP + "*")
# In the token pattern each skipped item is maximal (a run of blanks ends before a non-blank, a
# line comment at the line's end, a block comment at its first `*/`): a run of skipped text has
# one split into items, so a failed match backtracks over it once, not over its 2^n splits (which
# `[ ...]+` repeated would try for n blanks before a bad character). A token's first character
# decides its alternative (a float before an int: both start with a digit), so they are tried
# most frequent first.
_TOKEN = re.compile(
    r"""(?:[ \t\r\n\f\v]+(?![ \t\r\n\f\v])|//[^\n]*(?![^\n])|/\*(?:[^*]|\*(?!/))*\*/)*
    (?:
    (?P<name>[%.]?[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*)
  | (?P<punct>[,;:{}\[\]()<>+\-!@=|*])
  | (?P<float>0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16}
        |[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)
  | (?P<int>0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|[0-9]+U?)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<end>\Z))
    """,
    re.VERBOSE,
)
_KINDS = {"float": Kind.FLOAT, "int": Kind.INT, "name": Kind.NAME, "string": Kind.STRING, "punct": Kind.PUNCT,
          "end": Kind.EOF}
# By group number: a match's lastindex is its token's group (the only group it matched), and
# reading a match by number is cheaper than by name.
_KIND_OF_GROUP = [None, *(_KINDS[name] for name, _ in sorted(_TOKEN.groupindex.items(), key=lambda g: g[1]))]


class Source:
    """A PTX file's text and name; turns offsets into line:column locations."""

    def __init__(self, text: str, name: str, line_offset: int = 0):
        self.text = text
        self.name = name
        self.line_offset = line_offset  # lines before this text in its file (--split-input-file)
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def location(self, offset: int) -> SourceLocation:
        return SourceLocation(self.name, *self.line_column(offset))

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line (in the whole file) and column of `offset`."""
        line = bisect_right(self._line_starts, offset)
        return line + self.line_offset, offset - self._line_starts[line - 1] + 1

    def error(self, offset: int, message: str) -> Diagnostic:
        return Diagnostic(Severity.ERROR, message, self.location(offset))


def tokenize(source: Source) -> list[Token]:
    """All tokens of the source, ending with an EOF token; DiagnosticError at the first bad character."""
    text = source.text
    new = tuple.__new__  # (Token's own __new__ is a Python-level call: one per token)
    kinds = _KIND_OF_GROUP
    # A scanner matches at the end of the previous match only (finditer would search on past a
    # character no token matches, in time quadratic in a run of blanks after it), until one fails.
    tokens = [new(Token, (kinds[g := m.lastindex], m.group(g), m.start(g)))  # type: ignore[index]
              for m in iter(_TOKEN.scanner(text).match, None)]
    if tokens and tokens[-1].kind is Kind.EOF:
        if len(tokens) > 1 and tokens[-2].kind is Kind.EOF:
            tokens.pop()  # (after a match that skipped to the end, the end matches once more, empty)
        return tokens
    pos = tokens[-1].start + len(tokens[-1].text) if tokens else 0  # where the failed match began
    pos = _SKIPPED.match(text, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
    if text.startswith("/*", pos):
        raise DiagnosticError([source.error(pos, "unterminated /* comment")])
    if text[pos] == '"':
        raise DiagnosticError([source.error(pos, "unterminated string literal")])
    raise DiagnosticError([source.error(pos, f"unexpected character {text[pos]!r}")])
