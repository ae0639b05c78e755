"""What the public report says (RULES.md section 8), with exact decks."""

from __future__ import annotations

from builders import B, G, H, K, P, S, X, deck

from pbem.engine import Game, Order, resolve_turn, shuffled_deck
from pbem.reports import Renderer, Table, private_context, public_context

NAMES = ["Arthur", "Bruno", "Charles"]
RENDER = Renderer()


def game_with(number: int, held, draw, **kw) -> Game:
    decks = {n: shuffled_deck("reports", n) for n in range(1, 14)}
    decks[number] = deck(3, number, held, draw, **kw)
    return Game.new(3, decks)


def public(game: Game, orders: dict, turn: int = 1) -> tuple[str, Game, list]:
    new, events = resolve_turn(game, orders, "seed")
    text = RENDER.public(public_context(Table("t", "Test", NAMES), turn, new, events))
    return text, new, events


def hand_block(text: str, number: int) -> str:
    start = text.index(f"\nHand {number}")
    end = text.find("\nHand ", start + 1)
    return text[start : end if end > 0 else None]


def test_named_target_out_of_the_hand_is_named_in_the_report():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    h = game.hand(1)
    h.alive[1] = False
    h.discards[1], h.cards[1] = h.cards[1], []
    text, _, _ = public(game, {1: Order(G, 1, P)})
    assert "(a random player, because Bruno is out of the hand)" in hand_block(text, 1)


def test_redirection_names_target_and_recipient():
    game = game_with(1, {0: G, 1: H, 2: K}, draw=S)
    game.hand(1).protected[1] = True
    text, _, _ = public(game, {1: Order(G, 1, K)})
    block = hand_block(text, 1)
    assert (
        "Arthur played the Guard on Bruno, who is protected by the Handmaid: it goes to the next player "
        "around the table who is not: Charles"
    ) in block
    assert (
        "Hit! Charles held the King." in block and "Charles is out of the hand, revealing the King." in block
    )


def test_nmr_default_is_marked():
    game = game_with(1, {0: H, 1: B, 2: P}, draw=H)
    text, _, _ = public(game, {})
    assert "[no valid order: played for Arthur by the default rules]" in hand_block(text, 1)


def test_showdown_shows_reveals_totals_and_winners_and_tokens():
    game = game_with(1, {0: H, 1: G, 2: G}, draw=G)
    h = game.hand(1)
    h.pile.clear()
    h.discards[1] = [P]
    h.discards[2] = [S, S]
    text, new, _ = public(game, {1: Order(H)})
    block = hand_block(text, 1)
    assert "-- ended this turn" in block
    assert (
        "The draw pile is empty, so the hand ends and the highest card wins. Still in: Arthur with "
        "the Guard, Bruno with the Guard, Charles with the Guard. Tied on the highest card, so the higher "
        "total of discards wins: Arthur 4, Bruno 5, Charles 4. Winner: Bruno."
    ) in block
    assert "Bruno        1   +1 (hand 1)" in text


def test_baron_loser_card_public_winner_card_not():
    game = game_with(1, {0: B, 1: G, 2: P}, draw=K)
    text, _, _ = public(game, {1: Order(B, 1)})
    block = hand_block(text, 1)
    assert "In the Baron's comparison, Bruno has the lower card." in block and "revealing the Guard" in block
    assert "King" not in block


def test_private_report_tells_the_spy_result_only_to_its_player():
    game = game_with(1, {0: S, 1: X, 2: P}, draw=G)
    new, events = resolve_turn(game, {1: Order(S, 1)}, "seed")
    table = Table("t", "Test", NAMES)
    mine = RENDER.private(private_context(table, 1, new, events, 0))
    theirs = RENDER.private(private_context(table, 1, new, events, 2))
    assert "Hand 1: your Spy saw that Bruno holds the Princess." in mine
    assert "Hand 1: your Spy" not in theirs and "Bruno holds the Princess" not in theirs
    assert "Princess" not in hand_block(RENDER.public(public_context(table, 1, new, events)), 1)
