"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py (the functions other than own_words_read, and the quoted form's).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations
