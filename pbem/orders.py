"""Orders: from a player's text to orders the engine can carry out.

Two steps, both pure:

1. :func:`parse_orders` reads text (INTERFACE.md, "Order lines") into
   :class:`WrittenOrder` -- what the player wrote, with names resolved against
   the roster but nothing checked against the game.
2. :func:`check_order` classifies a written order against the position
   (RULES.md section 3): *accepted*, *completed* (it will be filled in at
   random unless amended) or *rejected*, with a reason a player understands.

The grammar is forgiving by design: after the hand reference, a line is a bag
of words in which filler words are dropped and the rest are recognised as a
card (name, alias or rank), a player (name or unique prefix) or "myself". The
first card is the card played, the first player its target, and a card after
that the Guard's guess.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .cards import NAMES, TARGETED, Card, card_of_rank
from .engine import Game, Order, countess_forced, redirect
from .grammar import HAND_REF

ACCEPTED, COMPLETED, REJECTED = "accepted", "completed", "rejected"

#: Words that refer to the player writing the order.
SELF_WORDS = frozenset({"me", "myself", "self", "moi", "mich", "mir", "yo"})

#: Words that carry no meaning for an order (dropped before names are matched,
#: so that "he" or "the" never pass for a prefix of Helen or Theo).
FILLER = frozenset("""
    a an the and or on at to of for with against vs versus into onto upon
    play plays playing played use using discard discarding lay
    target targets targeting targetting aim aimed aiming
    guess guesses guessing guessed name names naming named say saying call calling
    that which who he she they it him her them his hers their its i i'm im you
    has have having hold holds holding holds is are was be being maybe probably
    card cards my your please thanks thank
""".split())

_WORD = re.compile(r"[^\W_](?:[\w'\u2019.-]*[^\W_])?")


class WrittenOrder(NamedTuple):
    """An order as the player wrote it, names resolved, nothing checked yet.

    ``target`` is a player's canonical name, or None. When the player wrote a
    target that names nobody (or more than one player), ``target_text`` keeps
    it so that the acknowledgement can say so.
    """

    hand: int
    card: Card | None
    target: str | None = None
    guess: Card | None = None
    text: str = ""
    target_text: str | None = None
    guess_text: str | None = None

    def canonical(self) -> str:
        """The canonical form echoed back: ``Hand 3: Guard on Charles, guess Prince``."""
        return canonical_text(self.hand, self.card, self.target, self.guess)


def canonical_text(hand: int, card: Card | None, target: str | None, guess: Card | None) -> str:
    if card is None:
        return f"Hand {hand}: (no card)"
    out = f"Hand {hand}: {card.title}"
    if target:
        out += f" on {target}"
    if guess is not None and card == Card.GUARD:
        out += f", guess {guess.title}"
    return out


class ParsedText(NamedTuple):
    orders: list[WrittenOrder]
    ignored: list[str]  # non-blank lines that held no order


def parse_orders(text: str, players: list[str], me: str) -> ParsedText:
    """Read every order in ``text`` written by player ``me``.

    One order per line; several on one line when separated by ``;``. A line
    that does not start with a hand reference is not an order (it is returned
    in ``ignored``), and a bare ``Hand 3:`` with nothing after it (an order form
    left blank) is skipped silently.
    """
    orders: list[WrittenOrder] = []
    ignored: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        found = blank_form = False
        for segment in _segments(line):
            match = HAND_REF.match(segment)
            rest = match.group("rest").strip() if match else ""
            if match and not rest and match.group("h1"):
                blank_form = True
            if not match or not rest:
                continue
            hand = int(match.group("h1") or match.group("h2"))
            order = _read_order(hand, rest, segment.strip(), players, me)
            if order.card is None and match.group("h2"):
                continue  # "2. I think..." or "20:00": a bare number is an order only with a card
            found = True
            orders.append(order)
        if not found and not blank_form:
            ignored.append(line.strip())
    return ParsedText(orders, ignored)


def _segments(line: str) -> list[str]:
    """Split a line on ``;``; a piece that is no hand reference belongs to the
    piece before it ("Hand 3: Guard on Bruno; guess Prince")."""
    pieces: list[str] = []
    for piece in line.split(";"):
        if pieces and not HAND_REF.match(piece):
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return pieces


def _fold(text: str) -> str:
    """Case-insensitive comparison key that keeps accents (Chloé is not Chloe)."""
    return unicodedata.normalize("NFC", text).casefold()


def _read_order(hand: int, rest: str, text: str, players: list[str], me: str) -> WrittenOrder:
    folded = {_fold(p): p for p in players}
    body = _fold(rest)
    # Multi-word names first, as phrases, so that their words are not read apart.
    slots: dict[str, str] = {}
    for key, name in sorted(folded.items(), key=lambda kv: -len(kv[0])):
        if " " in key and key in body:
            token = f"player{len(slots)}x"
            slots[token] = name
            body = body.replace(key, f" {token} ")
    card: Card | None = None
    target: str | None = None
    guess: Card | None = None
    target_text: str | None = None
    guess_text: str | None = None
    for word in _WORD.findall(body):
        word = word.strip(".'\u2019-")
        if not word or word in FILLER:
            continue
        as_card = _card_word(word)
        as_player = slots.get(word) or _player_word(word, folded, me)
        if card is None:
            if as_card is not None:
                card = as_card
            elif as_player is not None and target is None and not as_player.startswith("?"):
                target = as_player  # "Hand 3: Charles, Guard, Prince": target first
            continue
        if target is None and target_text is None and as_player is not None:
            if as_player.startswith("?"):
                target_text = as_player[1:]
            else:
                target = as_player
            continue
        if guess is None and as_card is not None:
            guess = as_card
            continue
        if target is None and target_text is None and as_card is None:
            target_text = word  # an unknown word where a target should be
        elif guess is None and guess_text is None and as_card is None and as_player is None:
            guess_text = word
    if card is not None and card not in TARGETED:
        target, target_text = None, None
    if card != Card.GUARD:
        guess, guess_text = None, None
    return WrittenOrder(hand, card, target, guess, text, target_text, guess_text)


def _card_word(word: str) -> Card | None:
    """The card a word names: a name, an alias, a plural ("guards") or a rank."""
    if word.isdigit():
        if not word.isascii():
            return None  # "²" or "３" is a digit to Unicode, not a rank a player typed
        return card_of_rank(int(word))
    card = NAMES.get(word)
    if card is None and word.endswith("s") and len(word) > 3:
        card = NAMES.get(word[:-1])
    return card


def _player_word(word: str, folded: dict[str, str], me: str) -> str | None:
    """A player's canonical name for ``word``: the writer for "myself", an exact
    name, or a prefix that names one player only. An ambiguous prefix gives
    ``"?word"`` so the caller can report it."""
    if word in SELF_WORDS:
        return me
    if word in folded:
        return folded[word]
    if word in NAMES or word.isdigit():
        return None
    hits = [name for key, name in folded.items() if key.startswith(word)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        return "?" + word
    return None


# -- checking against the position ------------------------------------------


class CheckedOrder(NamedTuple):
    """A written order classified against the game (RULES 3).

    ``reason`` says why it was rejected or what will be filled in; ``note``
    says anything else worth telling (a protected target, a target ignored).
    ``order`` is what the engine will be given (None when rejected);
    ``random_target``: its target (if any) will be replaced by a random one.
    """

    written: WrittenOrder
    status: str
    reason: str = ""
    note: str = ""
    order: Order | None = None
    random_target: bool = False

    @property
    def hand(self) -> int:
        return self.written.hand


def check_order(written: WrittenOrder, game: Game, players: list[str], me: str) -> CheckedOrder:
    """Classify ``written`` (an order by ``me``) against the awaited turn."""
    seat = players.index(me)
    h = written.hand

    def rejected(reason: str) -> CheckedOrder:
        return CheckedOrder(written, REJECTED, reason)

    if game.finished:
        return rejected("the game is over")
    if not 1 <= h <= len(game.hands):
        return rejected(f"there is no hand {h}: hands are numbered 1 to {len(game.hands)}")
    hand = game.hand(h)
    if hand.ended:
        return rejected(f"hand {h} is over")
    if not hand.alive[seat]:
        return rejected(f"you are out of hand {h}")
    if hand.active != seat:
        return rejected(f"it is not your turn in hand {h}: {players[hand.active]} plays there this turn")
    held = hand.cards[seat]
    holding = " and ".join(c.title for c in held)
    card = written.card
    if card is None:
        return rejected(f"no card named for hand {h} (you hold {holding}); "
                        f"write e.g. \"Hand {h}: {held[0].title}\"")
    if card not in held:
        return rejected(f"you do not hold the {card.title} in hand {h} (you hold {holding})")
    if card != Card.COUNTESS and countess_forced(held):
        other = next(c for c in held if c != Card.COUNTESS)
        return rejected(f"you hold the Countess with the {other.title} in hand {h}: "
                        f"the Countess must be played")

    completions: list[str] = []
    notes: list[str] = []
    target_seat: int | None = None
    target_replaced = False
    if card in TARGETED:
        target_seat, problem = _target_problem(written, hand, seat, card, players)
        if problem:
            target_replaced = True
            completions.append(f"{problem}: a random player will be chosen")
        elif hand.protected[target_seat] and target_seat != seat:
            to = redirect(hand, seat, card, target_seat)
            if to is None:
                notes.append(f"{players[target_seat]} is protected by the Handmaid and nobody else "
                             f"can take it: the {card.title} will have no effect")
            else:
                notes.append(f"{players[target_seat]} is protected by the Handmaid: the {card.title} "
                             f"will go to {'you' if to == seat else players[to]}")
    elif written.target or written.target_text:
        notes.append(f"the {card.title} takes no target; the target is ignored")
    guess = written.guess
    if card == Card.GUARD:
        if guess is None:
            what = f"\"{written.guess_text}\" is not a card" if written.guess_text else "no guess"
            completions.append(f"{what}: a random card other than the Guard will be named")
        elif guess == Card.GUARD:
            completions.append("a Guard may not name a Guard: a random card other than the Guard will be named")
            guess = None
    order = Order(card, target_seat, guess if card == Card.GUARD else None)
    status = COMPLETED if completions else ACCEPTED
    return CheckedOrder(written, status, "; ".join(completions), "; ".join(notes), order, target_replaced)


def one_order_per_hand(checked: list[CheckedOrder]) -> list[CheckedOrder]:
    """Within one message, the first order for a hand stands (RULES.md 3).

    A later line that repeats it word for word is dropped; a later, different order for the
    same hand is a conflict, not a replacement: it is rejected with a reason that says so, so
    that the acknowledgement warns the player.  (A reply's new text comes first, so the first
    order is the newest thought; a line further down is as likely a quoted original.)
    """
    first: dict[int, CheckedOrder] = {}
    out: list[CheckedOrder] = []
    for order in checked:
        earlier = first.get(order.hand)
        if earlier is None:
            first[order.hand] = order
            out.append(order)
        elif order.written.canonical() != earlier.written.canonical():
            out.append(CheckedOrder(order.written, REJECTED,
                                    f"this message already gives hand {order.hand} another order "
                                    f"(\"{earlier.written.canonical()}\"), and that first one stands; "
                                    f"to change it, send a new message with the order you want"))
    return out


def _target_problem(written: WrittenOrder, hand, seat: int, card: Card,
                    players: list[str]) -> tuple[int | None, str]:
    """The target seat, or why the target cannot be used as written."""
    if written.target is None:
        if written.target_text:
            return None, f"\"{written.target_text}\" names no player (or more than one)"
        return None, "no target named"
    target = players.index(written.target)
    # The seat goes to the engine all the same: it replaces an unusable target by
    # the same rule, and its report can then say whom the player had named.
    if target == seat and card != Card.PRINCE:
        return target, f"you cannot play the {card.title} on yourself"
    if not hand.alive[target]:
        return target, f"{written.target} is out of hand {hand.number}"
    return target, ""


