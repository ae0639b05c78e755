"""Issue 21, item 1: each card's rule is reachable from its one entry in
engine.CARD_RULES. With one card's entry made neutral (a card played for
nothing: no target, no guess, no hook), the rule tests of that card fail, and
no other card's: a rule lived outside its entry when its card's tests kept
passing (the Assassin in the Guard's effect, the Count in the end of the hand).

The rule tests are test_engine_rules and test_premium_rules (the classic and
the Premium rules, the latter card by card), called directly
(rulekit.rule_cases); a test is about the cards its name names and those it
marks @uses (rulekit.cards_of).
"""

from __future__ import annotations

import pytest
import test_engine_rules
import test_premium_rules
from rulekit import cards_named, rule_cases

from pbem import engine
from pbem.cards import Card

CASES = list(rule_cases(test_engine_rules, test_premium_rules))


def failing_with_neutral(card: Card) -> list:
    """The rule cases that fail with ``card``'s entry replaced by a neutral one."""
    saved = engine.CARD_RULES[card]
    engine.CARD_RULES[card] = engine.CardRule(engine._no_effect)
    engine._derive_tables()
    try:
        return [case for case in CASES if case.fails()]
    finally:
        engine.CARD_RULES[card] = saved
        engine._derive_tables()


def test_the_rule_tests_pass_with_every_entry_in_place():
    assert len(CASES) > 250
    assert [case.id for case in CASES if case.fails()] == []


@pytest.mark.parametrize("card", list(Card), ids=lambda card: card.name.lower())
def test_a_cards_rule_tests_and_only_they_fail_without_its_entry(card):
    failing = failing_with_neutral(card)
    own = [case.id for case in failing if card in cards_named(case.test.__name__)]
    others = [case.id for case in failing if card not in case.cards]
    assert own, f"no test named for the {card.title} fails without its entry: its rule lives elsewhere"
    assert others == [], f"these tests are not the {card.title}'s, yet fail without its entry"


def test_the_tables_are_derived_again_after_a_neutral_entry():
    before = engine._PLAY, engine._ON_GUESSED, engine._END_VALUES, engine.TARGETED
    failing_with_neutral(Card.ASSASSIN)
    assert (engine._PLAY, engine._ON_GUESSED, engine._END_VALUES, engine.TARGETED) == before
