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
# The skip is atomic (a lookahead, then a backreference to what it matched: Python 3.10 has no
# possessive `*+`): the skipped text is never given back, or a run of n blanks before a bad
# character would be tried as each of its 2^n splits into `[ ...]+` repetitions.
_TOKEN = re.compile(
    r"(?=(?P<skip>"
    + _SKIP
    + r"""*))(?P=skip)
    (?:
    (?P<float>0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16}
        |[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)
  | (?P<int>0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|[0-9]+U?)
  | (?P<name>[%.]?[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>[,;:{}\[\]()<>+\-!@=|*])
  | \Z)
    """,
    re.VERBOSE,
)
_KINDS = {"float": Kind.FLOAT, "int": Kind.INT, "name": Kind.NAME, "string": Kind.STRING, "punct": Kind.PUNCT}
# By group number: a match's lastindex is its token's group (no group nests in another but `skip`,
# which closes first), and reading a match by number is cheaper than by name.
_SKIP_GROUP = _TOKEN.groupindex["skip"]
_KIND_OF_GROUP = [_KINDS.get(name) for name, _ in sorted(_TOKEN.groupindex.items(), key=lambda g: g[1])]
_KIND_OF_GROUP.insert(0, None)  # group 0 is the whole match


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
    tokens: list[Token] = []
    append = tokens.append
    new = tuple.__new__  # (Token's own __new__ is a Python-level call: one per token)
    kinds, skip = _KIND_OF_GROUP, _SKIP_GROUP
    pos = 0
    # A scanner matches at the end of the previous match only (finditer would search on past a
    # character no token matches, in time quadratic in a run of blanks after it), until one fails.
    for m in iter(_TOKEN.scanner(text).match, None):
        group = m.lastindex
        if group == skip:  # \Z: only whitespace and comments were left
            append(Token(Kind.EOF, "", len(text)))
            return tokens
        append(new(Token, (kinds[group], m.group(group), m.start(group))))
        pos = m.end()
    pos = _SKIPPED.match(text, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
    if text.startswith("/*", pos):
        raise DiagnosticError([source.error(pos, "unterminated /* comment")])
    if text[pos] == '"':
        raise DiagnosticError([source.error(pos, "unterminated string literal")])
    raise DiagnosticError([source.error(pos, f"unexpected character {text[pos]!r}")])
