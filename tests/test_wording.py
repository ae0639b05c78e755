"""How every event reads, one sentence per case, as a person would say it.

The wording of each kind of event (pbem/events.py) lives in
templates/_events.txt.j2. ``WORDING`` below holds at least one rendered case
per kind: a kind added to the engine without a wording (and a test here)
fails ``test_every_event_kind_has_a_wording_test``.
"""

from __future__ import annotations

import pytest

from pbem import events as ev
from pbem.cards import CLASSIC_CARDS, Card
from pbem.reports import Renderer, Table, event_view

G, S, B, H, P, K, C, X = CLASSIC_CARDS
TABLE = Table("t", "Test", ["Arthur", "Bruno", "Charles"])
RENDER = Renderer()


def played(
    seat=0,
    card=G,
    target=1,
    recipient=1,
    guess=None,
    nmr=False,
    random_target=False,
    random_guess=False,
    redirected=False,
):
    return ev.Played(1, seat, card, target, recipient, guess, nmr, random_target, random_guess, redirected)


def say(event, **extra) -> str:
    """The sentence for ``event``, as the reports render it."""
    view = {**event_view(TABLE, event), **extra}
    macro = "public_line" if event.audience is None else "private_line"
    template = RENDER.env.from_string('{% import "_events.txt.j2" as say %}{{ say.' + macro + "(e) }}")
    return template.render(e=view)


# kind -> [(event, extra view fields, the sentence)]
WORDING = {
    "played": [
        (played(card=G, guess=P), {}, "Arthur played the Guard on Bruno, guessing Prince."),
        (played(card=H, target=None, recipient=None), {}, "Arthur played the Handmaid."),
        (played(card=P, target=0, recipient=0), {}, "Arthur played the Prince on themselves."),
        # the others are out: not "protected"
        (
            played(card=G, target=None, recipient=None),
            {"nobody_because": "out"},
            "Arthur played the Guard, but nobody could be chosen (everyone else is out of the hand): "
            "no effect.",
        ),
        (
            played(card=K, target=1, recipient=None, redirected=True),
            {"nobody_because": "protected"},
            "Arthur played the King on Bruno, but nobody could be chosen (everyone else still in is "
            "protected by the Handmaid): no effect.",
        ),
        (
            played(card=S, target=1, recipient=2, redirected=True),
            {},
            "Arthur played the Spy on Bruno, who is protected by the Handmaid: it goes to the next player "
            "around the table who is not: Charles.",
        ),
        # not "redirected to themselves"
        (
            played(card=P, target=1, recipient=0, redirected=True),
            {},
            "Arthur played the Prince on Bruno, who is protected by the Handmaid: nobody else could take it, "
            "so it falls on Arthur's own card.",
        ),
        # a misspelt name is said to be one, not "none given"
        (
            played(card=G, target=None, recipient=2, guess=K, random_target=True),
            {"target_text": "Brunno"},
            "Arthur played the Guard on Charles (a random player, because the name written is not a "
            "player's), guessing King.",  # never the player's words: the report goes to everyone
        ),
        (
            played(card=G, target=None, recipient=2, guess=K, random_target=True),
            {},
            "Arthur played the Guard on Charles (a random player, because no player was named), "
            "guessing King.",
        ),
        (
            played(card=B, target=0, recipient=2, random_target=True),
            {},
            "Arthur played the Baron on Charles (a random player, because the Baron cannot be played on "
            "oneself).",
        ),
        (
            played(card=S, target=1, recipient=2, random_target=True),
            {},
            "Arthur played the Spy on Charles (a random player, because Bruno is out of the hand).",
        ),
        (
            played(card=G, guess=K, random_guess=True),
            {},
            "Arthur played the Guard on Bruno, guessing King (a random card: no usable guess was given).",
        ),
        # Premium games guess numbers (RULES 10.2)
        (
            played(card=G, guess=4, random_guess=True),
            {},
            "Arthur played the Guard on Bruno, guessing 4 (a random number: no usable guess was given).",
        ),
        (played(card=Card.BISHOP, guess=0), {}, "Arthur played the Bishop on Bruno, guessing 0."),
        (played(card=Card.JESTER), {}, "Arthur played the Jester on Bruno."),
        (
            played(card=Card.CARDINAL, target=1, recipient=None),
            {},
            "Arthur played the Cardinal: nobody could be chosen, no effect.",
        ),
        # a default: "no valid order" (orders may have come and been rejected)
        (
            played(card=G, target=None, recipient=1, guess=S, nmr=True),
            {},
            "Arthur played the Guard on Bruno, guessing Spy. [no valid order: played for Arthur by the "
            "default rules]",
        ),
    ],
    "guard": [
        (ev.GuardResult(1, 0, 1, P, True), {}, "Hit! Bruno held the Prince."),
        (ev.GuardResult(1, 0, 1, P, False), {}, "Miss: Bruno does not hold the Prince."),
        (ev.GuardResult(1, 0, 1, 4, True), {}, "Hit! Bruno held a card of rank 4."),  # Premium: numbers
        (ev.GuardResult(1, 0, 1, 0, False), {}, "Miss: Bruno does not hold a card of rank 0."),
    ],
    "baron": [
        (ev.BaronResult(1, 0, 1, 1), {}, "In the Baron's comparison, Bruno has the lower card."),
        (
            ev.BaronResult(1, 0, 1, None),
            {},
            "The Baron's comparison is a tie: nobody is out, nothing is revealed.",
        ),
    ],
    "prince": [
        (ev.PrinceDiscard(1, 1, G, False), {}, "Bruno discards the Guard and draws a new card."),
        (
            ev.PrinceDiscard(1, 1, G, True),
            {},
            "Bruno discards the Guard and draws the set-aside card (the draw pile is empty).",
        ),
        (ev.PrinceDiscard(1, 1, X, False), {}, "Bruno discards the Princess."),
    ],
    "king": [(ev.KingTrade(1, 0, 2), {}, "Arthur and Charles trade hands.")],
    "protected": [
        (ev.Protected(1, 2), {}, "Charles is protected by the Handmaid until their next turn in this hand.")
    ],
    "eliminated": [
        (ev.Eliminated(1, 1, K), {}, "Bruno is out of the hand, revealing the King."),
        (ev.Eliminated(1, 1, None), {}, "Bruno is out of the hand (a discarded Princess)."),
    ],
    "ended": [
        # the last one in: no "Cards revealed: Bruno Countess"
        (
            ev.HandEnded(1, (1,), ((1, C),), ()),
            {},
            "Bruno is the last player in the hand and wins it (showing the Countess).",
        ),
        # ended by the empty pile: it says so
        (
            ev.HandEnded(1, (2,), ((0, G), (2, K)), ()),
            {},
            "The draw pile is empty, so the hand ends and the highest card wins. Still in: Arthur with the "
            "Guard, Charles with the King. Winner: Charles.",
        ),
        (
            ev.HandEnded(1, (0, 2), ((0, G), (2, G)), ((0, 4), (2, 4))),
            {},
            "The draw pile is empty, so the hand ends and the highest card wins. Still in: Arthur with the "
            "Guard, Charles with the Guard. Tied on the highest card, so the higher total of discards wins: "
            "Arthur 4, Charles 4. Winners: Arthur and Charles.",
        ),
    ],
    "tokens": [
        (
            ev.TokensWon(((1, 3), (1, 7), (2, 9))),
            {},
            "Tokens of affection won this turn: Bruno (hand 3), Bruno (hand 7), Charles (hand 9).",
        )
    ],
    # the deal of a two-player hand (RULES 9): the three cards in deck order
    "face_up": [
        (
            ev.FaceUp(1, (X, G, G)),
            {},
            "Three cards are laid face up, out of the hand for good: Princess, Guard, Guard.",
        )
    ],
    "game_over": [
        (ev.GameOver((1,)), {}, "The game is over: Bruno wins."),
        (ev.GameOver((0, 1)), {}, "The game is over: Arthur and Bruno share the win."),
    ],
    "spy_saw": [(ev.SpySaw(1, 0, 1, X), {}, "your Spy saw that Bruno holds the Princess.")],
    "baron_saw": [(ev.BaronSaw(1, 0, 1, H), {}, "in the Baron's comparison, Bruno showed you the Handmaid.")],
    "king_received": [
        (ev.KingReceived(1, 0, 2, B), {}, "you traded hands with Charles and received the Baron.")
    ],
    "prince_drew": [(ev.PrinceDrew(1, 1, C), {}, "after the Prince, you drew the Countess.")],
    # -- the Premium deck (RULES 10.3) -------------------------------------------------------
    "marked": [
        (
            ev.Marked(1, 0, 2),
            {},
            "Arthur's Sycophant marks Charles: the next card played in this hand must choose them.",
        ),
        (
            ev.Marked(1, 0, 0),
            {},
            "Arthur's Sycophant marks themselves: the next card played in this hand must choose them.",
        ),
    ],
    "mark_followed": [
        (
            ev.MarkFollowed(1, 1, 2, (0, None), True),
            {},
            "The Sycophant's mark: the card goes to Charles instead of Arthur.",
        ),
        (
            ev.MarkFollowed(1, 1, 2, (2, None), True),
            {},
            "Charles is chosen, as the Sycophant's mark requires.",
        ),
        (
            ev.MarkFollowed(1, 2, 2, (1, None), False),
            {},
            "The Sycophant's mark is on Charles, whom this card cannot choose: no effect.",
        ),
    ],
    "chose": [
        (ev.Chose(1, 0, Card.CARDINAL, (1, 2), (1, 2)), {}, "Bruno and Charles trade hands."),
        (
            ev.Chose(1, 0, Card.CARDINAL, (None, None), (1, 2)),
            {},
            "Bruno and Charles trade hands (chosen at random).",
        ),
        (ev.Chose(1, 0, Card.BARONESS, (1, None), (1,)), {}, "Arthur looks at the card of Bruno."),
        (
            ev.Chose(1, 0, Card.BARONESS, (1, 2), (1, 2)),
            {},
            "Arthur looks at the cards of Bruno and Charles.",
        ),
    ],
    "assassin": [
        (
            ev.AssassinStruck(1, 0, 1, 4),
            {},
            "Bruno holds the Assassin: Arthur is out instead, and Bruno discards the Assassin and "
            "draws a new card.",
        )
    ],
    "queen": [
        (ev.QueenResult(1, 0, 1, 1), {}, "In the Dowager Queen's comparison, Bruno has the higher card."),
        (
            ev.QueenResult(1, 0, 1, None),
            {},
            "The Dowager Queen's comparison is a tie: nobody is out, nothing is revealed.",
        ),
    ],
    "bishop": [
        (
            ev.BishopResult(1, 0, 1, 7, True, True, C),
            {},
            "Hit! Bruno holds a card of rank 7: Arthur gains a token of affection. Bruno discards the "
            "Countess and draws a new card.",
        ),
        (
            ev.BishopResult(1, 0, 1, 7, True, False, None),
            {},
            "Hit! Bruno holds a card of rank 7: Arthur gains a token of affection. Bruno keeps their card.",
        ),
        (
            ev.BishopResult(1, 0, 1, 8, True, True, X),
            {},
            "Hit! Bruno holds a card of rank 8: Arthur gains a token of affection. "
            "Bruno discards the Princess.",
        ),
        (ev.BishopResult(1, 0, 1, 3, False, False, None), {}, "Miss: Bruno does not hold a card of rank 3."),
    ],
    "values": [
        (
            ev.HandValues(1, ((0, 9.5), (1, 10))),
            {},
            "Values at the end (rank, +1 per Count discarded; the Princess is 9.5 while a Bishop is in): "
            "Arthur 9.5, Bruno 10.",
        )
    ],
    "card_tokens": [
        (
            ev.CardTokens(((1, 3, Card.JESTER), (2, 5, Card.BISHOP))),
            {},
            "Tokens of affection earned by cards this turn: Bruno (Jester, hand 3), "
            "Charles (Bishop, hand 5).",
        )
    ],
    "card_drew": [(ev.CardDrew(1, 1, G, "Assassin"), {}, "after the Assassin, you drew the Guard.")],
    "queen_saw": [
        (ev.QueenSaw(1, 0, 1, K), {}, "in the Dowager Queen's comparison, Bruno showed you the King.")
    ],
    "cardinal_received": [
        (
            ev.CardinalReceived(1, 1, 2, K),
            {},
            "a Cardinal made you trade hands with Charles: you received the King.",
        )
    ],
    "cardinal_saw": [
        (ev.CardinalSaw(1, 0, 2, K), {}, "your Cardinal showed you Charles's new card: the King.")
    ],
    "baroness_saw": [
        (ev.BaronessSaw(1, 0, 1, Card.COUNT), {}, "your Baroness saw that Bruno holds the Count.")
    ],
}


def test_every_event_kind_has_a_wording_test():
    assert set(WORDING) == set(ev.EVENT_TYPES), "a kind of event without a wording test"
    for kind, cases in WORDING.items():
        assert all(event.kind == kind for event, _, _ in cases)


@pytest.mark.parametrize(
    "event, extra, sentence",
    [case for cases in WORDING.values() for case in cases],
    ids=[f"{kind}-{i}" for kind, cases in WORDING.items() for i in range(len(cases))],
)
def test_wording(event, extra, sentence):
    assert say(event, **extra) == sentence


def test_an_unknown_kind_is_not_worded_silently():
    """The fallback shows the kind in brackets: a test above would catch it."""
    assert say(ev.Protected(1, 0), kind="new_kind") == "(new_kind)"
