"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""
