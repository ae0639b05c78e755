"""Defect notes: what was odd about a message, in words the GM reads."""

from __future__ import annotations

#: How the notes of a message begin when its HTML hid text from the reader (`htmltext`).
HIDDEN_TEXT_NOTE = "the HTML hides text from the reader"


class _Notes:
    """Defect notes in the order found, each once: the GM reads them, repeats are noise."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, note: str) -> None:
        """Keep a note unless it is already there."""
        if note not in self.items:
            self.items.append(note)

    def add_at(self, position: int, note: str) -> None:
        """Add a note late, where `add` would have put it when there were `position` notes.

        Notes only ever grow, so those from `position` on came later: if one of them is this
        note, the `add` then would have found it already there and added nothing.
        """
        if note in self.items[:position]:
            return
        if note in self.items:
            self.items.remove(note)
        self.items.insert(position, note)
