"""Regular expressions compiled when first used, not when their module is imported.

The order reader's patterns (:mod:`pbem.grammar`, :mod:`pbem.orders`) take about 15 ms
to compile: the hand words of five languages, the numbers spelled out in seven. Every
command that imports the order module paid that at start-up, though most of them never
read an order's words (``pbem resolve`` plays the orders as they were read when they came
in; ``pbem status`` and ``pbem send`` read none).

A :class:`LazyPattern` has the methods of :class:`re.Pattern` that the reader uses. The
first call compiles the pattern and puts the compiled pattern's own methods on the
instance, so that every later call goes straight to them (an instance attribute hides
the class's method of the same name): after the first use, a lazy pattern costs what
a compiled one does.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

#: The methods the first call replaces with the compiled pattern's own.
_METHODS = ("match", "fullmatch", "search", "findall", "finditer", "sub", "subn", "split")


class LazyPattern:
    """``re.compile(pattern, flags)``, done at the first call of one of its methods.

    ``pattern`` and ``flags`` are readable without compiling, to build another pattern
    from this one (``re.compile(A.pattern + "...", A.flags)``)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now, the first time)."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
            for name in _METHODS:
                setattr(self, name, getattr(self._compiled, name))
        return self._compiled

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.flags!r})"

    # What follows runs only for the first call: compiled() hides these methods.
    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)
