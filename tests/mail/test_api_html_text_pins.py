"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/api.py, htmltext.py and text.py (the survivors left open by the
third run: docs/mutation/api-htmltext-text.md).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations
