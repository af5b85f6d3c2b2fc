"""PTX tokens: one regular-expression scan over the text (linear in its size), with positions for diagnostics."""

from __future__ import annotations

import re
from bisect import bisect_right
from enum import Enum
from itertools import accumulate
from operator import attrgetter
from typing import NamedTuple

from tmem_dialect.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLocation


class Kind(Enum):
    NAME = "name"  # identifiers, opcodes with modifiers (mov.u32, wait::ld), %registers, .directives
    INT = "integer"
    FLOAT = "float"
    STRING = "string"
    PUNCT = "punctuation"
    EOF = "end of file"


class Tokens(NamedTuple):
    """A file's tokens as three parallel lists (the i-th token is kinds[i], texts[i], starts[i]).

    Lists, not a tuple per token: a file has a token per few bytes, and a NamedTuple per token
    costs a Python-level constructor and a garbage-collected instance each, which was the
    largest part of the lexer's time. The lists are filled by C-level maps over the matches."""

    kinds: list[Kind]
    texts: list[str]  # (only the end's text is empty)
    starts: list[int]  # offsets in the text


# Each alternative consumes at least one character and none can backtrack over more than its
# own token, so the scan is linear. Whitespace and comments are skipped by the match of the token
# that follows them (one match per token); `\Z` matches what is left at the end of the text.
_BLANKS = r"[ \t\r\n\f\v]*"
_SKIPPED = re.compile(_BLANKS + r"(?:(?://[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)" + _BLANKS + ")*")
# In the token pattern a run of blanks is one greedy repetition of a character class (the
# engine's cheapest loop: most tokens follow blanks and no comment), and each comment is maximal
# (a line comment ends at the line's end, a block comment at its first `*/`): when a match fails,
# each blank and comment is given back once, not in each of its 2^n splits into items. A token's
# first character decides its alternative (a float before an int: both start with a digit), so
# they are tried most frequent first.
_TOKEN = re.compile(
    _BLANKS + r"""(?:(?://[^\n]*(?![^\n])|/\*(?:[^*]|\*(?!/))*\*/)""" + _BLANKS + r""")*
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
_GROUP = attrgetter("lastindex")


class Source:
    """A PTX file's text and name; turns offsets into line:column locations."""

    def __init__(self, text: str, name: str, line_offset: int = 0):
        self.text = text
        self.name = name
        self.line_offset = line_offset  # lines before this text in its file (--split-input-file)
        # (each line's length plus its newline, summed: C-level loops, no Python code per line)
        self._line_starts = [0, *accumulate(map((1).__add__, map(len, text.split("\n"))))]
        self._line_starts.pop()  # (the end of the last line, which has no newline)

    def location(self, offset: int) -> SourceLocation:
        return SourceLocation(self.name, *self.line_column(offset))

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line (in the whole file) and column of `offset`."""
        line = bisect_right(self._line_starts, offset)
        return line + self.line_offset, offset - self._line_starts[line - 1] + 1

    def error(self, offset: int, message: str) -> Diagnostic:
        return Diagnostic(Severity.ERROR, message, self.location(offset))


def tokenize(source: Source) -> Tokens:
    """All tokens of the source, ending with an EOF token; DiagnosticError at the first bad character."""
    text = source.text
    # A scanner matches at the end of the previous match only (finditer would search on past a
    # character no token matches, in time quadratic in a run of blanks after it), until one fails.
    matches = list(iter(_TOKEN.scanner(text).match, None))
    groups = list(map(_GROUP, matches))
    kinds = list(map(_KIND_OF_GROUP.__getitem__, groups))
    texts = list(map(re.Match.group, matches, groups))
    starts = list(map(re.Match.start, matches, groups))
    if kinds and kinds[-1] is Kind.EOF:
        if len(kinds) > 1 and kinds[-2] is Kind.EOF:
            # (after a match that skipped to the end, the end matches once more, empty)
            kinds.pop(), texts.pop(), starts.pop()
        return Tokens(kinds, texts, starts)
    pos = starts[-1] + len(texts[-1]) if kinds else 0  # where the failed match began
    pos = _SKIPPED.match(text, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
    if text.startswith("/*", pos):
        raise DiagnosticError([source.error(pos, "unterminated /* comment")])
    if text[pos] == '"':
        raise DiagnosticError([source.error(pos, "unterminated string literal")])
    raise DiagnosticError([source.error(pos, f"unexpected character {text[pos]!r}")])
