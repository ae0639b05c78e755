"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/htmltext.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations
