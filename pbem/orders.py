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

Premium games (5 to 8 players, RULES 10) add: guesses that are numbers (a
card name names its rank), a second player for the Cardinal and the Baroness
and the Cardinal's "look at" player, and the standing order "if Bishop,
discard" (or "keep"), which is no play: :attr:`WrittenOrder.standing`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, cast

from .cards import CLASSIC_CARDS, CLASSIC_NAMES, NAMES, RANK, Card, card_named, card_of_rank
from .engine import (
    CARD_RULES,
    HANDS_PER_GAME,
    PAIRED,
    PREMIUM_PLAYERS,
    TARGETED,
    Game,
    Hand,
    Order,
    choose_pair,
    forced_card,
    may_target_self,
    redirect,
)
from .grammar import HAND_REF, HAND_WORD, HANDS_WORD, NUMBER_SIGN, SPELLED_HAND, hand_number
from .lazyre import LazyPattern
from .tuples import NamedTuple

ACCEPTED, COMPLETED, REJECTED = "accepted", "completed", "rejected"

#: Words of other languages that mean "myself" in an order (all compared without accents).
_SELF_ABROAD = {
    "de": "mich mir selbst",
    "fr": "moi moi-meme",
    "es": "yo mismo misma",  # and "mí" with its accent (_MI): "mi" is "my"
    "it": "io",
    "nl": "mij mezelf mijzelf",
    "pt": "mim",
}

#: Words that refer to the player writing the order.
SELF_WORDS = frozenset(
    {"me", "myself", "self"} | {w for words in _SELF_ABROAD.values() for w in words.split()}
)

#: The common order words of other languages (play, on, guess, the, my, please...),
#: compared without accents: data beside the English ones below. A word missing here
#: does no harm unless it is the start of a player's name (it could then pass for them).
WORDS_ABROAD = {
    "de": """der die das den dem des ein eine einen ich spiele spiel spielen lege ausspielen
             auf an gegen mit und oder tippe tipp tippen rate raten errate vermute meine mein
             karte bitte danke""",
    "fr": """le la les un une je ne joue jouer sur contre avec et ou devine deviner devinette
             parie dis nomme ma mon carte cartes svp merci""",
    "es": """el la los las un una juego jugar juega sobre contra con y o adivino adivina
             adivinar digo carta por favor gracias""",
    "it": """il lo la gli le un una gioco giocare gioca su sul sulla contro con e o indovino
             indovina indovinare dico mia mio carta grazie""",
    "nl": """de het een ik speel spelen op tegen met en of raad raden gok gokken zeg mijn
             kaart alsjeblieft bedankt""",
    "pt": """o a os as um uma jogo jogar joga em no na contra com e ou adivinho adivinha
             palpite chuto digo minha meu carta obrigado obrigada""",
}

#: Words that carry no meaning for an order (dropped before names are matched,
#: so that "he" or "the" never pass for a prefix of Helen or Theo).
FILLER = frozenset(
    """
    a an the and or on at to of for with against vs versus into onto upon
    play plays playing played use using discard discarding lay
    target targets targeting targetting aim aimed aiming
    guess guesses guessing guessed name names naming named say saying call calling
    that which who he she they it him her them his hers their its i i'm im you
    has have having hold holds holding holds is are was be being maybe probably
    card cards my your please thanks thank
    i'll i’ll i'd i’d i’m we we'll let's lets ok okay go going gonna want wanna like
""".split()
) | frozenset(w for words in WORDS_ABROAD.values() for w in words.split())

_WORD = LazyPattern(r"[^\W_](?:[\w'\u2019.-]*[^\W_])?")

#: Words that keep the next card (or player) named out of the order: "keep the Princess,
#: play the Guard", "not the Princess!", "Guard (not Princess) on Bruno". A card the player
#: keeps must never be the one played: the Princess played is a player out. Compared
#: without accents; "hold" counts only before the card played ("hold the Countess and
#: play the King"), as "Bruno holds the Prince" is a guess.
NOT_PLAYED = frozenset(
    """
    not don't dont isn't isnt doesn't doesnt won't wont never keep keeps keeping kept save
    saving except instead
    nicht behalte behalten statt anstatt pas sauf niet houd hou bewaar behoud non nao
    conserve conservo mantengo mantenho quedo fico
""".split()
)
_HOLD = frozenset({"hold", "holding"})
#: The words of NOT_PLAYED that say "keep": after or before a "not" word ("don't keep the
#: Countess", "behalte nicht die Gräfin") they say the card is *not* kept, a double negative.
_KEEPING = frozenset(
    """
    keep keeps keeping kept save saving behalte behalten houd hou bewaar behoud
    conserve conservo mantengo mantenho quedo fico
""".split()
)
#: French "ne garde pas" (do not keep): "garde" is also the Guard's name, so it is read as
#: "pas keep" before the words are read.
_NE_GARDE = LazyPattern(r"\bne gard(?:e|es|ez|ons|er)? pas\b")
#: French "je garde la Comtesse", "je vais garder ..." (I keep): "keep", for the same reason.
_JE_GARDE = LazyPattern(r"\b(?:je|vais|veux|voudrais|prefere) garde(?:r|rai)?\b")
#: Spanish "no me quedo con la Condesa" (I do not keep): Spanish "no" is no NOT_PLAYED word
#: (an English one corrects: "guess Baron, no, Priest").
_NO_ME_QUEDO = LazyPattern(r"\bno (?:me )?(quedo|conservo|mantengo)\b")
#: German and Dutch put "not" after the card not to keep: "behalte die Gräfin nicht", "houd de
#: Gravin niet" are read as "nicht behalte die Gräfin", the double negative, before the words are
#: read. A comma ends the card's words: "behalte die Gräfin, nicht den Prinzen" keeps the Countess.
_KEEP_THEN_NOT = LazyPattern(r"\b(behalte|houd|hou|bewaar|behoud)((?: [^\W\d_]+){1,3}?) (nicht|niet)\b")
#: After a card: it stays in the hand ("Princess stays, Guard on Bruno"; German puts its
#: "not" after the card: "Prinzessin nicht!").
_STAYS = frozenset({"stays", "stay", "remains", "bleibt", "nicht", "reste", "blijft", "resta", "fica"})

#: Words that correct what the order just named: the next player or card named takes the
#: place of the last one of its kind ("Guard on Hugo, or rather Ines", "guess Baron, no,
#: make that Priest", "auf Hugo, nein, lieber auf Ines"). Compared without accents; "ich
#: meine" (I mean) is read as "meinte". No player may be named one of these (config).
CORRECTION_WORDS = frozenset(
    """
    rather mean meant wait actually correction make scratch oops
    meinte nein lieber besser sondern korrektur
    plutot pardon mejor perdon correccion anzi cioe correzione
    liever bedoel nee correctie alias melhor correcao
""".split()
)
#: Words that make an order hang on a condition: "if Hugo is protected, Guard on Ines, else
#: on Hugo", "Wenn ..., sonst ...", "Si ..., sinon ...". The tool weighs no condition (a play
#: aimed at a protected player goes on round by the rules), so an order with one of these
#: that names a card or player it does not play is refused, not played on one branch.
#: Compared without accents ("senão" is "senao"; Spanish "sí", yes, is "si" too, harmless:
#: alone it refuses nothing).
CONDITION_WORDS = frozenset(
    """
    if unless otherwise else
    wenn falls sonst ansonsten
    si sinon
    se altrimenti
    als indien tenzij anders
    senao caso
""".split()
)
#: German "nicht" behind a card keeps the card ("Prinzessin nicht!"), but before one of these
#: the target that follows ("Wächterin nicht auf Hugo": the Guard is played, not on Hugo).
_NOT_ON = frozenset({"auf", "an", "gegen"})

#: Names of the Premium cards: cards only in Premium games (a classic order reads them as no card).
_PREMIUM_NAMES = frozenset(name for name, card in NAMES.items() if card not in CLASSIC_CARDS)
#: Words that say the next player named is the one the Cardinal looks at.
LOOK_WORDS = frozenset({"look", "looks", "looking", "see", "view", "peek", "check"})

#: Words that say a guess follows: a number's word after one is a guess ("guess nine").
GUESS_WORDS = frozenset(
    """
    guess guesses guessing guessed name names naming named say saying call calling
    tippe tipp tippen rate raten errate vermute devine deviner devinette parie dis nomme
    adivino adivina adivinar digo indovino indovina indovinare dico raad raden gok gokken zeg
    adivinho adivinha palpite chuto
""".split()
)

#: The guess words that say only "guess": a card after one is never the card played
#: ("Hand 3: guess Baron" names no card to play). "say", "name", "call" may open a play.
_SURE_GUESS = GUESS_WORDS - frozenset(
    "name names naming named say saying call calling dis nomme digo dico zeg".split()
)

#: A guess written as a word ("guess nine", "fünf"), compared without accents: English and the other
#: languages of WORDS_ABROAD. No word for one: it would only name the Guard, which no guess
#: may name, and "the one with the Prince" is no guess of it. (Articles such as "un" are
#: filler words, never numbers.)
NUMBER_WORDS = {
    word: number
    for number, words in enumerate(
        [
            "zero null cero nul",
            "",
            "two zwei deux dos due twee dois duas",
            "three drei trois tres tre drie",
            "four vier quatre cuatro quattro quatro",
            "five funf cinq cinco cinque vijf",
            "six sechs seis sei zes",
            "seven sieben sept siete sette zeven sete",
            "eight acht huit ocho otto oito",
            "nine neun neuf nueve nove negen",
        ]
    )
    for word in words.split()  # written without accents, as name_key leaves them
}
#: "if Bishop, discard" / "keep" (RULES 10.3): a standing order, not a play.
_STANDING = LazyPattern(
    r"^\W*(?:if|when)\W+(?:the\W+|a\W+|my\W+)?bishop\b[\W\w]*?\b(?P<what>discard|keep)\b", re.IGNORECASE
)
#: The same as a sentence, a few words between "if" and the Bishop but no comma, that says the
#: Bishop hits the writer ("If someone plays a Bishop on me, I discard", "when I am hit by a
#: Bishop, keep"): "if possible, Bishop on Charles, ..., keep the King" and "if Charles is open
#: play the Bishop on him and keep the Count" are plays.
_STANDING_SENTENCE = LazyPattern(
    r"^\W*(?:if|when)\W+(?:[^\W\d_][\w'\u2019]*[ \t]+){0,6}?bishop\b[\W\w]*?\b(?P<what>discard|keep)\b",
    re.IGNORECASE,
)
_HITS_ME = LazyPattern(r"\b(?:me|myself|hit|hits)\b", re.IGNORECASE)


def _standing(body: str) -> str | None:
    """The standing order "discard" or "keep" an order's words give (RULES 10.3), or None."""
    found = _STANDING.match(body)
    if found is None:
        found = _STANDING_SENTENCE.match(body)
        if found is None or not _HITS_ME.search(body[: found.start("what")]):
            return None
    return found.group("what").lower()


#: The numbers a Guard or a Bishop may name in a Premium game (RULES 10.2; 1 is completed).
NUMBERS = range(0, 10)


class WrittenOrder(NamedTuple):
    """An order as the player wrote it, names resolved, nothing checked yet.

    ``target`` is a player's canonical name, or None. When the player wrote a
    target that names nobody (or more than one player), ``target_text`` keeps
    it so that the acknowledgement can say so. ``guess`` is a card in classic
    games, a number in Premium ones. ``second`` and ``look``: the Cardinal's or
    the Baroness's second player, the player the Cardinal looks at.
    ``standing``: "discard" or "keep" for the order "if Bishop, ..." (no card).
    ``kept``: the card an order that names no card to play says the player keeps
    ("Hand 3: not the Princess"): :func:`check_order` plays the other one.
    ``unkept``: the card an order says not to keep ("don't keep the Countess", a double
    negative): :func:`check_order` refuses the order rather than read it one way.
    ``condition``: the word, as written, that makes the order hang on a condition
    ("if", "unless", "sonst") when the order also names a card or a player it does
    not play: :func:`check_order` refuses it rather than play one branch at a guess.
    ``corrects``: its line says it corrects ("P.S.", "Edit:", "actually", "should be"...):
    within one message it replaces an earlier order for its hand (:func:`one_order_per_hand`).
    """

    hand: int
    card: Card | None
    target: str | None = None
    guess: Card | int | None = None
    text: str = ""
    target_text: str | None = None
    guess_text: str | None = None
    second: str | None = None
    look: str | None = None
    standing: str | None = None
    kept: Card | None = None
    unkept: Card | None = None
    condition: str | None = None
    corrects: bool = False

    def canonical(self) -> str:
        """The canonical form echoed back: ``Hand 3: Guard on Charles, guess Prince``."""
        if self.standing:
            return f"Hand {self.hand}: if Bishop, {self.standing}"
        return canonical_text(self.hand, self.card, self.target, self.guess, self.second, self.look)

    def to_json(self) -> dict[str, Any]:
        """The order as JSON, its fields at their defaults left out and cards by their names
        (a guess that is a number stays one): what :meth:`from_json` reads back."""
        return {
            field: value.title if isinstance(value, Card) else value
            for field, value in self._asdict().items()
            if field not in self._field_defaults or value != self._field_defaults[field]
        }

    @classmethod
    def from_json(cls, data: object) -> WrittenOrder | None:
        """The order :meth:`to_json` wrote, or None when ``data`` is not what it writes (a
        file edited by hand, or by another version): the caller reads the order's text again."""
        if not isinstance(data, dict) or "hand" not in data or "card" not in data:
            return None
        if any(type(value) not in _JSON_TYPES.get(field, ()) for field, value in data.items()):
            return None
        cards = {field: card_named(data[field]) for field in _CARD_FIELDS if isinstance(data.get(field), str)}
        order = cls(**{**data, **cards})
        # Written back as it was read, or not one of to_json's: an unknown card's name, a name
        # in another case or language, a field at its default written out.
        return order if order.to_json() == data else None


def canonical_text(
    hand: int,
    card: Card | None,
    target: str | None,
    guess: Card | int | None,
    second: str | None = None,
    look: str | None = None,
) -> str:
    if card is None:
        return f"Hand {hand}: (no card)"
    out = f"Hand {hand}: {card.title}"
    if target:
        out += f" on {target}"
        if second:
            out += f" and {second}"
    if look:
        out += f", look at {look}"
    if guess is not None and CARD_RULES[card].guesses:
        out += f", guess {guess.title if isinstance(guess, Card) else guess}"
    return out


#: The types a field of :meth:`WrittenOrder.to_json` may have (exactly: no ``true`` for a hand).
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "hand": (int,),
    "text": (str,),
    "corrects": (bool,),
    "guess": (str, int, type(None)),  # a card's name, or a number in Premium games
    **{
        field: (str, type(None))
        for field in "card target target_text guess_text second look standing kept unkept condition".split()
    },
}
#: The fields whose strings are cards' names.
_CARD_FIELDS = ("card", "guess", "kept", "unkept")


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
    premium = len(players) in PREMIUM_PLAYERS
    for line in _answers_joined(text.splitlines(), premium):
        if not line.strip():
            continue
        found = blank_form = False
        for segment in _segments(line, premium):
            match = HAND_REF.match(segment)
            rest = match.group("rest").strip() if match else ""
            if match and not rest and match.group("h1"):
                blank_form = True
            if not match or not rest:
                continue
            hand = hand_number(match)
            order = _read_order(hand, rest, segment.strip(), players, me)
            if order.card is None and order.standing is None and not match.group("h1"):
                continue  # "2. I think...", "20:00", "Hand three is a mess": an order only with a card
            found = True
            orders.append(_marked_if_correcting(order, line))
        if not found and not blank_form:
            last = _hand_named_last(line, premium)
            if last is not None:
                orders.append(
                    _marked_if_correcting(_read_order(last[0], last[1], line.strip(), players, me), line)
                )
                continue
            ignored.append(line.strip())
    return ParsedText(orders, ignored)


#: The words of a line that says it corrects an order given above it in the same message:
#: "P.S. Hand 3: actually ...", "Edit: hand 3 should be ...", "Nachtrag: ..." (and every
#: correction word). A quoted or pasted original says none of them.
_CORRECTING = CORRECTION_WORDS | frozenset(
    "p.s ps pps edit edited update updated change changed instead should sorry nachtrag".split()
)


def _marked_if_correcting(order: WrittenOrder, line: str) -> WrittenOrder:
    """``order`` marked :attr:`WrittenOrder.corrects` when its line says it corrects."""
    if any(word in _CORRECTING for word in _WORD.findall(name_key(line))):
        return order._replace(corrects=True)
    return order


#: An order that names its hand after its card: "Sorry, make that Handmaid for hand 1", "Play
#: the Guard in hand 4 on Bruno, guess Priest". Only after a verb of play or change (and a few
#: small words before it), from the line's start (match()) to its end: "Thanks for the Guard in
#: hand 1", "I used to play ... in hand 1" and questions stay prose.
_HAND_NAMED_LAST = LazyPattern(
    r"\s*(?:(?:sorry|oops|ok|okay|actually|correction|please|so|and|then|instead)\W+){0,3}"
    r"(?:i'?ll\s+|i\s+will\s+|i'?d\s+like\s+to\s+|let'?s\s+)?"
    r"(?:make\s+(?:that|it)|change\s+(?:that\s+|it\s+)?to|switch\s+(?:that\s+|it\s+)?to|play|use)\s+"
    rf"(?P<order>[^?]+?),?\s+(?:for|in)\s+(?:the\s+)?{HAND_WORD}\s*{NUMBER_SIGN}\s*(?P<hand>\d{{1,2}})"
    r"(?:(?P<rest>(?:,\s*|\s+)[^?]*?))?\s*[.!]*\s*$",
    re.IGNORECASE,
)
#: Another hand named in the words after the hand: "Play the Guard in hand 4 on Bruno and the
#: Handmaid in hand 5" is two orders on one line, read as neither rather than as one.
_ANOTHER_HAND = LazyPattern(rf"\b{HAND_WORD}\s*{NUMBER_SIGN}\s*\d", re.IGNORECASE)
#: The words that may follow the hand in such an order: its target's or its guess's ("in hand
#: 4 on Bruno", "in hand 4, guess Priest", "with Bruno"); "in hand 4 next turn, unless
#: Bruno..." stays prose.
_AFTER_NAMED_HAND = frozenset({"with", "targeting", "target"})


def _hand_named_last(line: str, premium: bool) -> tuple[int, str] | None:
    """The hand and the order's words of an order that names its hand after its card (at the
    end, or before its target and guess), when its words open with a card's name (filler
    words aside) and name no other hand; None for any other line."""
    found = _HAND_NAMED_LAST.match(line)
    if found is None:
        return None
    rest = found.group("rest") or ""
    if rest:
        first = _WORD.search(name_key(rest))
        if first is None or _ANOTHER_HAND.search(rest):
            return None
        if not (first[0] in _AIMING or first[0] in GUESS_WORDS or first[0] in _AFTER_NAMED_HAND):
            return None
    hand, words = int(found.group("hand")), found.group("order") + rest
    return (hand, words) if _opens_with_card(f"Hand {hand}: {words}", premium) else None


#: What a subject carries before its own words: "Re:", "Fwd:", "AW:", "SV:", Italian "R:" and
#: "I:", Spanish "RV:", Dutch "Doorst:"..., the campaign's tag and turn ("[words] Turn 3:").
_SUBJECT_LEAD = LazyPattern(
    r"^(?:\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|tr|rif|res|enc|r|i|rv|doorst)(?:\[\d+\])?\s*:|\[[^\]]*\]|turn\s+\d+\s*:))*\s*",
    re.IGNORECASE,
)


def orders_with_subject(subject: str, text: str, players: list[str], me: str) -> str:
    """The text a message's orders are read from: its own words, with its subject's order
    on the first line when only the subject names a play (a fresh mail from a phone:
    "Subject: H3 Baron on Bruno", a body of "Sent from my iPhone"). A subject that names
    no card ("Hand 3 question") adds nothing, and the body's orders stand over it."""
    words = _SUBJECT_LEAD.sub("", subject)
    if not HAND_REF.search(words) or _names_a_play(text, players, me):
        return text
    return f"{words}\n{text}" if _names_a_play(words, players, me) else text


def _names_a_play(text: str, players: list[str], me: str) -> bool:
    """Whether ``text`` holds an order that names a card, a card kept or a standing order."""
    return any(
        w.card is not None or w.kept is not None or w.standing for w in parse_orders(text, players, me).orders
    )


def _answers_joined(lines: list[str], premium: bool) -> list[str]:
    """The lines of a message, each in its compatibility form (an input method left in full
    width types "Ｈａｎｄ ３：" for "Hand 3:"), and an answer typed on the line under a bare
    "Hand 3:" (a blank line between at most) joined to it: "Hand 3:" then "Baron on Bruno"
    is "Hand 3: Baron on Bruno", as a phone or Gmail's one line per block writes it. Only an
    answer that opens with a card's name: "I am not sure yet" under "Hand 3:" stays apart."""
    lines = [_unquoted(line if line.isascii() else unicodedata.normalize("NFKC", line)) for line in lines]
    out: list[str] = []
    bare: int | None = None  # the index in out of a bare "Hand N" waiting for its answer
    wrapped = False  # the line before is an order that ends on a word wanting more ("on")
    for line in lines:
        found = HAND_REF.match(line)
        if wrapped and line.strip() and found is None:
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"  # "Hand 3: Baron on" / "Bruno"
            wrapped = False
            continue
        wrapped = found is not None and _wants_more(found.group("rest"))
        if bare is not None and line.strip() and found is None:
            joined = f"{out[bare].rstrip()} {line.strip()}"
            if _opens_with_card(joined, premium):
                out[bare:] = [joined]
                bare = None
                continue
        if found is not None and found.group("h1") and not found.group("rest").strip():
            bare = len(out)
        elif line.strip() or (bare is not None and len(out) - bare > 1):
            bare = None  # a line of other words, or a second blank line: no answer below
        out.append(line)
    return out


#: A line in quotation marks: the turn mail's example of a play, pasted with its marks
#: ('"Hand 7: Handmaid"').
_IN_QUOTATION_MARKS = LazyPattern(
    r"""\s*["\u201c\u201e\u00ab'\u2018]\s*(.+?)\s*["\u201d\u201c\u00bb'\u2019]\s*[.,;!]?\s*"""
)


def _unquoted(line: str) -> str:
    """``line`` without the quotation marks around it when what they hold is an order
    ('"Hand 7: Handmaid"', pasted from the turn mail's plays); else ``line`` as it is."""
    inside = _IN_QUOTATION_MARKS.fullmatch(line)
    if inside is not None and HAND_REF.match(inside.group(1)):
        return inside.group(1)
    return line


#: The words an order cannot end on: it was wrapped ("Hand 3: Baron on" / "Bruno").
_WANTS_MORE = GUESS_WORDS | frozenset(
    """
    on against vs versus at and with onto upon
    auf gegen mit und sur contre avec et sobre contra con su contro op tegen met em na com
""".split()
)


def _wants_more(rest: str) -> bool:
    """Whether an order's words end on one that wants more (a hard-wrapped line)."""
    words = rest.split()
    return bool(words) and name_key(words[-1]) in _WANTS_MORE


def _segments(line: str, premium: bool) -> list[str]:
    """Split a line on ``;``; a piece that is no hand reference belongs to the
    piece before it ("Hand 3: Guard on Bruno; guess Prince"). Each piece is split
    again where an order starts after other words (:func:`_after_sentences`), and
    an order for a list of hands is one order for each (:func:`_for_each_hand`)."""
    pieces: list[str] = []
    for piece in line.split(";"):
        if pieces and not HAND_REF.match(piece):
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return [
        order
        for piece in pieces
        for part in _after_sentences(piece, premium)
        for order in _for_each_hand(part, premium)
    ]


_AND = r"(?:,|&|\+|/|and|und|et|y|e|en)"
#: "Hand 3 & 7: Handmaid", "Hands 3 and 7:", "H3/H7:", "Hand 3, 7:": one order, several hands.
_HAND_LIST = LazyPattern(
    rf"""^[\s*\u2022·-]*{HANDS_WORD}\s*{NUMBER_SIGN}\s*(?P<first>\d{{1,3}})
        (?P<more>(?:\s*{_AND}\s*(?:{HAND_WORD}\s*{NUMBER_SIGN}\s*)?\d{{1,3}}(?!\d))+)
        (?P<sep>\s*[:.)\]\-\u2013\u2014=]+|\s+)(?P<rest>.+)$""",
    re.IGNORECASE | re.VERBOSE,
)
_LISTED = LazyPattern(r"\d{1,3}")


#: "Hands 2-5: Handmaid", "Hand 2 to 5:", "H2-H5:": one order for each hand of the range, before
#: a ":" (or the like) or a card's name: "Hand 2-5: Handmaid" played the Prince (rank 5) in hand
#: 2; "Hand 2 - 5 on Bruno" is still the Prince (rank 5) on Bruno.
_HAND_RANGE = LazyPattern(
    rf"""^[\s*\u2022·-]*{HANDS_WORD}\s*{NUMBER_SIGN}\s*(?P<first>\d{{1,2}})
        \s*(?:-|\u2013|\u2014|to|through|thru|bis|a|à|tot|al|até)\s*
        (?:{HAND_WORD}\s*{NUMBER_SIGN}\s*)?(?P<last>\d{{1,2}})(?!\d)
        (?P<sep>\s*[:.)\]=]+|\s+)(?P<rest>.+)$""",
    re.IGNORECASE | re.VERBOSE,
)


def _opens_with_card_not_of_rank(words: str, rank: int, premium: bool) -> bool:
    """Whether ``words`` open with a card's name (filler words aside) whose rank is not
    ``rank``: after "Hand 3 - 5", "Spy on Bruno" makes 5 a hand, "Prince on Bruno" the
    Prince's rank written before its name."""
    if not _opens_with_card(f"Hand 1: {words}", premium):
        return False
    card = next(c for w in _WORD.findall(name_key(words)) if (c := _card_word(w, premium)) is not None)
    return card.rank != rank


def _for_each_hand(piece: str, premium: bool) -> list[str]:
    """``piece`` as one order per hand when it opens with a list of hands ("Hand 3 & 7:
    Handmaid" is "Hand 3: Handmaid" and "Hand 7: Handmaid"; its 7 is no Countess) or a
    range of them ("Hands 2-5: Handmaid")."""
    ranged = _HAND_RANGE.match(piece)
    if ranged is not None:
        first, last = sorted((int(ranged.group("first")), int(ranged.group("last"))))  # "5-3" too
        rest = ranged.group("rest")
        if last <= HANDS_PER_GAME and (
            ranged.group("sep").strip()
            or _opens_with_card_not_of_rank(rest, int(ranged.group("last")), premium)
        ):
            return [f"Hand {hand}: {rest}" for hand in range(first, last + 1)]
    found = _HAND_LIST.match(piece)
    if found is None:
        return [piece]
    hands = [found.group("first"), *_LISTED.findall(found.group("more"))]
    rest = found.group("rest")
    return [f"Hand {hand}: {rest}" for hand in dict.fromkeys(int(h) for h in hands)]


#: Where an order may start inside a line, at "Hand N" or "HN": after the end of a
#: sentence or a comma (". ! ? : ) ," and a space: "Oops typo. H4 Prince on Hugo"),
#: after "and", "&", "/" or "|", or after a space before "Hand N" spelled out ("Hand 3
#: Handmaid Hand 7 Prince Hugo"); markdown's "*" may open the hand ("*Hand 7*:"), and the
#: hand may be spelled ("Hand seven"). :func:`_after_sentences` cuts there only before a
#: card's name.
_MID_LINE_HAND = LazyPattern(
    rf"(?:(?<=[.!?:)…,])\s+|\s+(?:and|und|et|&|\+|/|\|)\s+|\s+(?=hand\s*{NUMBER_SIGN}\s*\d|{SPELLED_HAND}))"
    rf"(?=[*_]*(?:{HAND_WORD}\s*{NUMBER_SIGN}\s*\d{{1,3}}(?![^\W_])|{SPELLED_HAND}))",
    re.IGNORECASE,
)


#: The tags templates/ack.txt.j2 puts before each order it echoes ("(read) Hand 3: ...").
_ECHO_TAG = LazyPattern(r"\((?:read|on file)\)\s*$", re.IGNORECASE)


def _after_sentences(piece: str, premium: bool) -> list[str]:
    """``piece`` cut where an order starts after other words: a sentence end, then a
    hand reference ("Hand 4", "H4", not a bare number) whose first word that is not a
    filler word is a card's name (not a rank). Prose that mentions a hand ("Thanks.
    Hand 4 looks bad") names no card there, so it stays prose."""
    if not _MID_LINE_HAND.search(piece):
        return [piece]
    parts = [piece]
    for match in reversed(list(_MID_LINE_HAND.finditer(piece))):
        head, tail = parts[0][: match.start()], parts[0][match.end() :]
        bare = HAND_REF.match(head)
        if _ECHO_TAG.search(head):
            continue  # the acknowledgement's echo of an order: the tool's words, not the player's
        if _opens_with_card(tail, premium) and not (bare and not bare.group("rest").strip()):
            parts[0:1] = [head, tail]  # not after a bare "Hand 3": "Hand 3 + Hand 7: Handmaid"
    return [p for p in parts if p.strip()]


_OPENING = 120
#: Words that may stand between a hand and the card of a correction inside a line: "Sorry,
#: hand 7 should be the Guard", "Oops, hand 7 was meant to be Handmaid", "For hand 7, make it
#: the Guard", "In hand 7 I'd rather play the Handmaid".
_BEFORE_A_NEW_PLAY = CORRECTION_WORDS | {"should", "meant", "now"}


def _opens_with_card(text: str, premium: bool) -> bool:
    """Whether ``text`` is "Hand N" or "HN" followed (filler words aside) by a card's name,
    not after a word that only says "guess" (the card guessed is no play: "hand 4 guessing
    Priest"). Its first words only: asked at every cut point of a line, it reads no more
    than these."""
    match = HAND_REF.match(text[:_OPENING])
    if match is None or not (match.group("h1") or match.group("h3")):
        return False
    for word in _WORD.findall(name_key(match.group("rest"))):
        if word in FILLER or word in _BEFORE_A_NEW_PLAY:
            if word in _SURE_GUESS:
                return False
            continue
        return not word.isdigit() and _card_word(word, premium) is not None
    return False


def name_key(text: str) -> str:
    """How player names (and the words of an order) are compared: case-blind and
    accent-blind, so "Chloe", "CHLOÉ" and a decomposed "Chloe\u0301" all name
    Chloé: compatibility decomposition (NFKD), combining marks dropped,
    casefold. Two players whose names have the same key cannot both be
    seated (:func:`pbem.config.check_names_apart`)."""
    if text.isascii():
        return text.casefold()  # the common case, without the decomposition
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@functools.lru_cache(maxsize=64)  # a batch reads the orders of the same few tables
def _folded_names(players: tuple[str, ...]) -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """Each player's name as compared (name_key) with the name; and the names of several
    words ("Anne Marie"), longest first."""
    folded = {name_key(p): p for p in players}
    long = tuple(sorted(((k, n) for k, n in folded.items() if " " in k), key=lambda kv: -len(kv[0])))
    return folded, long


def _slot_long_names(body: str, long: tuple[tuple[str, str], ...]) -> tuple[str, dict[str, str]]:
    """``body`` with each name of several words ("Anne Marie": ``long``, from
    `_folded_names`) put in as one token, longest first, so that its words are not read
    apart; and the tokens' names."""
    slots: dict[str, str] = {}
    for key, name in long:
        if key in body:
            token = f"player{len(slots)}x"
            slots[token] = name
            body = body.replace(key, f" {token} ")
    return body, slots


#: Spanish "mí" (me) with its accent: without it, "mi" is "my" ("mi Guardia").
_MI = LazyPattern(r"(?<!\w)mí(?!\w)", re.IGNORECASE)


def _read_order(hand: int, rest: str, text: str, players: list[str], me: str) -> WrittenOrder:
    premium = len(players) in PREMIUM_PLAYERS
    if rest[:1] == "[":
        rest = _without_outlook_mark(rest, premium)
    body = name_key(_MI.sub("myself", rest) if "í" in rest or "Í" in rest else rest)
    standing = _standing(body)
    if standing:  # read in any game, so that a classic game can say it has no Bishop
        return WrittenOrder(hand, None, text=text, standing=standing)
    folded, long = _folded_names(tuple(players))
    return _fit_to_card(_read_play(hand, body, text, folded, me, premium, long), premium)


class _Play:
    """What an order's words have named so far (:func:`_read_play`), and which slot of each
    kind was filled last: a correction ("or rather Ines") fills that slot again."""

    __slots__ = (
        "card", "target", "guess", "target_text", "guess_text", "second", "look",
        "kept_card", "kept_two", "player_slot", "card_slot", "look_next", "guess_said", "pair_before",
        "early", "unkept", "said", "condition", "branching",
    )  # fmt: skip

    def __init__(self) -> None:
        self.card: Card | None = None
        self.target: str | None = None
        self.guess: Card | int | None = None
        self.target_text: str | None = None
        self.guess_text: str | None = None
        self.second: str | None = None
        self.look: str | None = None
        self.kept_card: Card | None = None  # the first card named to be kept, before any played
        self.kept_two = False  # a second, different card kept: none is left to play
        self.player_slot = ""  # "target", "second" or "look": the player named last
        self.card_slot = ""  # "card" or "guess": the card (or number) named last
        self.look_next = False  # the Cardinal's look word was the last word
        self.guess_said = False  # the guess was named after a guess word
        self.pair_before: str | None = None  # a pair's first player before a correction named it anew
        self.early = False  # the target was named before the card (it gives way to one aimed at)
        self.unkept: Card | None = None  # a card named after "don't keep" (a double negative)
        self.said: list[Card | int | str] = []  # every card, number and player named, in order
        self.condition: str | None = None  # the first word that makes the order hang on a condition
        self.branching = False  # a condition word came after the card played ("..., otherwise")

    def corrected(self, as_player: str | None, as_card: Card | None, number: int | None, guess: bool) -> bool:
        """Whether the name after a correction word took the place of the last name of its
        kind: a player's of the last player named, a card's (a guess after a guess word) of
        the last card named. False when there is none yet: the name is read as usual. A name
        replaced is no longer among those :attr:`said` (it names no other play)."""
        before = (self.card, self.target, self.guess, self.second, self.look)
        if not self._correct(as_player, as_card, number, guess):
            return False
        replaced = set(before) - {self.card, self.target, self.guess, self.second, self.look}
        self.said = [name for name in self.said if name not in replaced]
        return True

    def conditioned(self, word: str) -> None:
        """A condition word read: the first is the order's :attr:`condition`; one after the
        card played opens another branch, whose card is no guess ("Guard on Hugo, otherwise
        Prince"), except after a guess word."""
        if self.condition is None:
            self.condition = word
        if self.card is not None:
            self.branching = True

    def heard(self, as_card: Card | None, number: int | None, as_player: str | None) -> bool:
        """Whether the word read as a card, a number or a player named one; if so, it is
        among those :attr:`said`."""
        name = as_card if as_card is not None else number if number is not None else as_player
        if name is not None:
            self.said.append(name)
        return name is not None

    def _correct(self, as_player: str | None, as_card: Card | None, number: int | None, guess: bool) -> bool:
        if _named(as_player) and self.player_slot == "second":
            # A pair named again ("Hugo and Ines, no wait, Hugo and Bruno") is read anew;
            # one player alone ("..., no wait, Bruno") takes the second's place (written()).
            self.pair_before, self.target, self.second, self.player_slot = (
                self.target,
                as_player,
                None,
                "target",
            )
            return True
        if _named(as_player) and self.player_slot:
            setattr(self, self.player_slot, as_player)
            return True
        slot = "guess" if guess else self.card_slot
        if slot == "guess" and (as_card is not None or number is not None):
            self.guess = number if number is not None else as_card
            self.card_slot = slot
            return True
        if slot == "card" and as_card is not None:
            self.card = as_card
            return True
        return False

    def fill(
        self,
        word: str,
        as_card: Card | None,
        number: int | None,
        as_player: str | None,
        after_guess: bool,
        sure: bool,
        aimed: bool,
    ) -> bool:
        """Fill the slot ``word`` names (read as a card, a number, a player), in the order
        written; whether it named the card played. ``aimed``: the word comes after "on",
        "against" or the like."""
        if self.card is None:
            if as_card is not None and sure:
                self.guess, self.card_slot = as_card, "guess"  # "guess Baron": a guess, not a play
            elif as_card is not None:
                self.card, self.card_slot = as_card, "card"
                return True
            elif as_player is not None and self.target is None and not as_player.startswith("?"):
                self.target, self.player_slot = as_player, "target"  # "Hand 3: Charles, Guard"
                self.early = True
            return False
        if self.look_next and _named(as_player):
            self.look, self.player_slot, self.look_next = as_player, "look", False
            return False
        if self.early and aimed and _named(as_player):
            # A player named before the card gives way to one the card is aimed at: "I will
            # play the Guard on Rose" (with a player called Will) is aimed at Rose.
            self.target, self.early = as_player, False
            return False
        if (
            self.target is None
            and as_player is not None
            and (self.target_text is None or as_player[0] != "?")
        ):
            # A player named after an unknown word ("Guard auf Hugo") is the target: a name
            # the text holds is never left to chance.
            if as_player.startswith("?"):
                self.target_text = as_player[1:]
            else:
                self.target, self.target_text, self.player_slot = as_player, None, "target"
            return False
        if self.card in PAIRED and self.target is not None and self.second is None and _named(as_player):
            self.second, self.player_slot = as_player, "second"
            return False
        if ((self.guess is None and not self.branching) or (after_guess and not self.guess_said)) and (
            as_card is not None or number is not None
        ):
            # A card after "guess" is the guess, over one the text named before it ("Guard on
            # Hugo due to his Spy, guess Prince"); on another branch, only after "guess": "Guard
            # on Hugo, otherwise Prince" names another play, left out (_names_another_play).
            self.guess, self.guess_said = (number if number is not None else as_card), after_guess
            self.card_slot = "guess"
            return False
        if self.target is None and self.target_text is None and as_card is None:
            self.target_text = word  # an unknown word where a target should be
        elif self.guess is None and self.guess_text is None and as_card is None and as_player is None:
            self.guess_text = word
        return False

    def keep(self, as_card: Card | None, unkept: bool) -> None:
        """A card (or nobody: a player) named to be kept out of the order; ``unkept``:
        named after "not" and "keep" together, to be *not* kept."""
        if unkept:
            if self.unkept is None:
                self.unkept = as_card
            return
        if self.card is not None or as_card is None:
            return
        if self.kept_card is None:
            self.kept_card = as_card
        elif as_card != self.kept_card:
            self.kept_two = True  # "not the Baron, not the Prince": both kept, none played

    def written(self, hand: int, text: str) -> WrittenOrder:
        # Positional, as every WrittenOrder built here: pbem.tuples' quick road (keywords cost 3 us).
        kept = None if self.kept_two else self.kept_card
        target, second = self.target, self.second
        if self.pair_before is not None and second is None:
            target, second = self.pair_before, target  # one player named again: the second's place
        return WrittenOrder(
            hand, self.card, target, self.guess, text, self.target_text, self.guess_text,
            second, self.look, None, kept, self.unkept,
        )  # fmt: skip


#: An order's words and its sentences' ends (a lone ".", "!" or "?": "..." is a pause).
_TOKEN = LazyPattern(_WORD.pattern + r"|(?<!\.)[.!?](?![.\w])")
_SENTENCE_ENDS = frozenset(".!?")
#: The words that aim a card at the player named next ("on Rose", "auf Hugo", "contre Ines").
_AIMING = frozenset(
    "on against vs versus at onto upon auf gegen sur contre sobre contra su op tegen em".split()
)
#: The verbs after which "me" is the writer talking, never a target: "let me know", "tell me".
_TELL = frozenset({"let", "tell", "ask", "write", "email", "mail", "remind", "inform", "warn", "show"})
#: The small words after a correction word that keep a number the correction ("make that 3").
_THAT = frozenset({"that", "it", "the", "a", "to"})
#: The writer's own card or hand, one of the two a Cardinal may choose ("swap my card with").
_MY_CARD = LazyPattern(r"\bmy (?:own )?(?:card|hand)\b")
#: "ich meine" is "I mean"; "meine" alone is "my".
_ICH_MEINE = LazyPattern(r"\bich meine\b")


def _read_play(
    hand: int,
    body: str,
    text: str,
    folded: dict[str, str],
    me: str,
    premium: bool,
    long: tuple[tuple[str, str], ...] = (),
) -> WrittenOrder:
    """The play an order's words name (``body``: the words after its hand, as name_key
    folds them): its card, target, second player, look and guess, in the order written.
    A correction word lets the next name replace the last one of its kind. ``long``: the
    players' names of several words (`_folded_names`)."""
    body, slots = _prepared(body, long)
    play = _Play()
    kept = False  # the next card or player named is one the order keeps out (NOT_PLAYED)
    kept_by = ""  # the NOT_PLAYED word that set ``kept``
    unkept = False  # ... or one it says not to keep: "not" and "keep" together
    card_was_last = False  # the word before this one named the card played
    guessing = aiming = False  # the word before this one was "guess" (or the like); "on" (_AIMING)
    surely = False  # ... and that word was one that only says "guess" (not "say" or "name")
    correcting = 0  # 2: the word before this one corrects what was named (CORRECTION_WORDS); 1: one before
    words = _TOKEN.findall(body)
    for at, word in enumerate(words):
        if word in CONDITION_WORDS:
            play.conditioned(word)
        if word in _SENTENCE_ENDS:
            play.player_slot = play.card_slot = ""  # a correction corrects its own sentence only
            continue
        if card_was_last and word in _STAYS:
            card_was_last = False
            if word == "nicht" and at + 1 < len(words) and words[at + 1] in _NOT_ON:
                kept = True  # "Wächterin nicht auf Hugo": Hugo is kept out, the Guard played
            else:
                play.card = None  # "Princess stays": kept, not played
            continue
        if _keeps_out(words, at, play.card is not None):
            if kept and (word in _KEEPING) != (kept_by in _KEEPING):
                unkept = True  # "don't keep", "behalte nicht": a double negative
            kept, kept_by, card_was_last = True, word, False
            continue
        if word in CORRECTION_WORDS:
            correcting, card_was_last = 2, False
            continue
        if word in FILLER or (word in SELF_WORDS and at and words[at - 1] in _TELL):
            aiming = word in _AIMING
            guessing = guessing or word in GUESS_WORDS
            surely = surely or word in _SURE_GUESS
            correcting = 1 if correcting and word not in _THAT else correcting  # "I have 2" ages it
            continue
        card_was_last = False
        if play.card == Card.CARDINAL and word in LOOK_WORDS:  # the Cardinal's look; else a filler word
            play.look_next = True
            continue
        after_guess, sure, guessing, surely = guessing, surely, False, False
        spelled = after_guess and word not in folded  # "guess nine", not "guess Otto"
        number = _number_word(word, spelled) if premium else None
        as_card = None if number is not None else _card_word(word, premium, spelled)
        as_player = slots.get(word) or _player_word(word, folded, me, premium)
        if word == "mine" and play.card in PAIRED:
            as_player = me  # "Cardinal: swap my card with Bruno's": the writer is one of the two
        named = play.heard(as_card, number, as_player)
        if kept:  # "not the Princess", "not Ines": named to be left out; "not sure": no word of the order
            kept = False
            if named:
                play.keep(as_card, unkept)
            unkept = False
            continue
        if correcting and named and (correcting == 2 or after_guess or not word.isdigit()):
            correcting = 0  # a correction lasts to the next name ("no wait, that's wrong, Ines")
            if play.corrected(as_player, as_card, number, after_guess):
                continue
        correcting = 1 if correcting else 0  # a digit only right after it: "I mean 3", not "I have 2"
        card_was_last = play.fill(word, as_card, number, as_player, after_guess, sure, aiming)
        aiming = False
    written = play.written(hand, text)
    if play.condition is not None and _names_another_play(written, play.said, premium, me):
        return written._replace(condition=as_written(play.condition, text))
    return written


def _keeps_out(words: list[str], at: int, card_named: bool) -> bool:
    """Whether ``words[at]`` keeps the next card or player named out of the order
    (NOT_PLAYED): "hold" only before the card played ("hold the Countess and play the
    King"), "instead" only as "instead of" ("Hand 7 instead: Guard on Hugo" keeps nothing)."""
    word = words[at]
    if word == "instead":
        return words[at + 1 : at + 2] == ["of"]
    return word in NOT_PLAYED or (not card_named and word in _HOLD)


def _prepared(body: str, long: tuple[tuple[str, str], ...]) -> tuple[str, dict[str, str]]:
    """An order's words made ready for :func:`_read_play`: "my card" as "mine", "ich meine"
    (I mean) as a correction word, French "ne garde pas" (do not keep: "garde" is also the
    Guard) as "pas keep" and "je garde" as "keep", Spanish "no me quedo con" as "non quedo
    con", "behalte die Gräfin nicht" as "nicht behalte die Gräfin", and each player's name of
    several words as one slot word."""
    if "ich meine" in body or "my " in body:
        body = _MY_CARD.sub("mine", _ICH_MEINE.sub("meinte", body))
    if "gard" in body:
        body = _JE_GARDE.sub("keep", _NE_GARDE.sub("pas keep", body))
    if "no " in body:
        body = _NO_ME_QUEDO.sub(r"non \1", body)
    if "behalte" in body or "hou" in body or "bewaar" in body or "behoud" in body:
        body = _KEEP_THEN_NOT.sub(r"\3 \1\2", body)
    return _slot_long_names(body, long)


def _names_another_play(written: WrittenOrder, said: list[Card | int | str], premium: bool, me: str) -> bool:
    """Whether an order names a card, number or player that its play does not take (as
    :func:`_fit_to_card` will leave it): "if Hugo is protected, Guard on Ines, else on
    Hugo" plays the Guard on one of them only. The writer (``me``) is no other target of a
    card that cannot be played on its own player: "Guard on Hugo. If that's not allowed,
    let me know!" is the writer talking."""
    fitted = _fit_to_card(written, premium)
    placed = {fitted.card, fitted.kept, fitted.target, fitted.second, fitted.look, fitted.guess}
    if fitted.guess is not None:
        placed.add(written.guess)  # a Premium guess named by a card is played as its rank
    if fitted.card is not None and not may_target_self(fitted.card):
        placed.add(me)
    return any(name not in placed for name in said if not (isinstance(name, str) and name.startswith("?")))


def _named(player: str | None) -> bool:
    """A player's name read for sure: not None, not an ambiguous "?prefix"."""
    return player is not None and not player.startswith("?")


def _fit_to_card(order: WrittenOrder, premium: bool) -> WrittenOrder:
    """``order`` without what its card does not take (a target, a second player, a
    guess), and a Premium guess named by a card as that card's rank (RULES 10.2)."""
    card, target, target_text, guess, guess_text = (
        order.card, order.target, order.target_text, order.guess, order.guess_text
    )  # fmt: skip
    second, look = order.second, order.look
    if card is not None and card not in TARGETED:
        target, target_text = None, None
    if card not in PAIRED:
        second = look = None
    if card is None or not CARD_RULES[card].guesses:
        guess, guess_text = None, None
    elif premium and isinstance(guess, Card):
        guess = RANK[guess]
    kept = order.kept if card is None else None  # a card kept means something only alone
    return WrittenOrder(
        order.hand,
        card,
        target,
        guess,
        order.text,
        target_text,
        guess_text,
        second,
        look,
        order.standing,
        kept,
        order.unkept,
        order.condition,
    )


def _number_word(word: str, spelled: bool) -> int | None:
    """The number a word of a Premium order names: digits ("9"), or, when ``spelled``,
    a number's word ("nine"); None for any other word."""
    if word.isdigit():
        return int(word) if word.isascii() else None  # "²" is a digit to Unicode, not one typed
    return NUMBER_WORDS.get(word) if spelled else None


def _card_word(word: str, premium: bool = False, rank_words: bool = False) -> Card | None:
    """The card a word names: a name, an alias, a plural ("guards") or a rank,
    in digits or, with ``rank_words``, a number's word ("five"). Number words are
    read right after "guess" only (:data:`GUESS_WORDS`): "two Guards are gone" names no
    Spy. The Premium cards' names are cards only in Premium games; a rank names a
    card only in classic games (in Premium ones two cards share some ranks)."""
    rank = NUMBER_WORDS.get(word) if rank_words else None
    if word.isdigit() or rank is not None:
        if premium or not word.isascii():
            return None  # "²" or "３" is a digit to Unicode, not a rank a player typed
        return card_of_rank(rank if rank is not None else int(word))
    card = NAMES.get(word)
    if card is None and word.endswith("s") and len(word) > 3:
        word = word[:-1]
        card = NAMES.get(word)
    if card is not None and not premium and word in _PREMIUM_NAMES:
        return None
    return card


_POSSESSIVE = ("'s", "\u2019s")


def _player_word(word: str, folded: dict[str, str], me: str, premium: bool) -> str | None:
    """A player's canonical name for ``word``: the writer for "myself", an exact
    name, or a prefix that names one player only. An ambiguous prefix gives
    ``"?word"`` so the caller can report it."""
    if word in SELF_WORDS:
        return me
    if word in folded:
        return folded[word]
    if word.endswith(_POSSESSIVE) and word[:-2] in folded:
        return folded[word[:-2]]  # "Baron on Hugo's hand"
    if word in (NAMES if premium else CLASSIC_NAMES) or word.isdigit():
        return None
    hits = [name for key, name in folded.items() if key.startswith(word)]
    if len(hits) == 1:
        return hits[0]
    return "?" + word if hits else None


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
    if game.finished:
        return CheckedOrder(written, REJECTED, "the game is over")
    if not 1 <= h <= len(game.hands):
        reason = f"there is no hand {h}: hands are numbered 1 to {len(game.hands)}"
        return CheckedOrder(written, REJECTED, reason)
    hand = game.hand(h)
    if hand.ended:
        return CheckedOrder(written, REJECTED, f"hand {h} is over")
    if not hand.alive[seat]:
        return CheckedOrder(written, REJECTED, f"you are out of hand {h}")
    if written.standing:  # any player in the hand, at any time (RULES 10.3)
        return _standing_order(written, hand, seat)
    if written.condition and hand.active == seat:
        reason = (
            f'this order hangs on a condition ("{written.condition}") and names more than its play: '
            f"the tool weighs no condition and plays each order as written. Write the one play you "
            f"want for hand {h} (a play aimed at a protected player goes on to the next player round)"
        )
        return CheckedOrder(written, REJECTED, reason)
    written, kept_note = _play_the_other(written, hand, seat)
    refusal = _play_refusal(written, hand, seat, players)
    if refusal:
        return CheckedOrder(written, REJECTED, refusal)
    card = written.card
    assert card is not None, "_play_refusal refuses an order that names no card"
    if CARD_RULES[card].nmr_avoid and not _named_alone(written, card, len(players) in PREMIUM_PLAYERS):
        reason = (
            f"the {card.title} would put you out of hand {h}, so she is played only on an order "
            f'that names her alone: "Hand {h}: {card.title}"'
        )
        return CheckedOrder(written, REJECTED, reason)
    completions: list[str] = []
    notes: list[str] = [kept_note] if kept_note else []
    target_seat, second_seat, look_seat, target_replaced = _check_target(
        written, hand, seat, card, players, completions, notes
    )
    guess = _check_guess(written, hand, card, completions)
    order = Order(card, target_seat, guess, second_seat, look_seat)
    status = COMPLETED if completions else ACCEPTED
    return CheckedOrder(written, status, "; ".join(completions), "; ".join(notes), order, target_replaced)


#: The words an order may hold beside a card played that puts its player out (the Princess):
#: articles, "I", "my", "play"/"discard", "please", "thanks", in the languages of WORDS_ABROAD.
#: Any other word ("Hand 4 has the Princess, sadly") makes the line talk about her, not play her.
_BESIDE_A_PLAY = frozenset(
    """
    the a an my i i'll i’ll play plays playing discard discarding lay please thanks card now ok okay
    die der das ich meine mein spiele spiel spielen lege ausspielen werfe ab abwerfen bitte danke
    la le les ma mon je joue jouer defausse defausser carte svp merci
    el yo mi juego jugar descarto descartar carta por favor gracias
    il io mia gioco giocare scarto scartare carta per favore grazie
    de het ik mijn speel spelen leg af kaart graag alsjeblieft bedankt
    o eu minha jogo jogar descarto carta obrigado obrigada
""".split()
)


#: Outlook's mark before a comment typed into the original: "[Chloé Martin] Princess".
#: Asked with match(): at the start of the order's words.
_OUTLOOK_MARK = LazyPattern(r"\s*\[[^\]]{1,80}\]")


def _without_outlook_mark(rest: str, premium: bool) -> str:
    """An order's words without Outlook's mark of who typed them ("[Chloé Martin] Guard,
    guess Baron": the writer's name is no target). A card in brackets is the order's own
    word ("[Guard] on Ines", "[Prince on Ines]"), unless the words after the brackets open
    with a card of their own: the brackets then hold a name ("[Greta Prince] Guard")."""
    mark = _OUTLOOK_MARK.match(rest)
    if mark is None:
        return rest
    after = rest[mark.end() :]
    if any(_card_word(word, premium) for word in _WORD.findall(name_key(mark.group(0)))):
        return after if _opens_with_card(f"Hand 1: {after}", premium) else rest
    return after


def _named_alone(written: WrittenOrder, card: Card, premium: bool) -> bool:
    """Whether ``written`` plays ``card`` on its own words: the card named, and beside it only
    the words of :data:`_BESIDE_A_PLAY` (no question, no card kept: "Hand 4: not the Baron"
    plays the Princess only by inference)."""
    found = HAND_REF.match(written.text)
    rest = _without_outlook_mark(found.group("rest") if found is not None else written.text, premium)
    if "?" in rest:
        return False
    words = [word for word in _WORD.findall(name_key(rest)) if word not in _BESIDE_A_PLAY]
    return len(words) == 1 and _card_word(words[0], premium) is card


def _play_the_other(written: WrittenOrder, hand: Hand, seat: int) -> tuple[WrittenOrder, str]:
    """An order that names only the card the player keeps ("Hand 3: not the Princess")
    as the play of their other card, and the note that says so; any other order as it
    is, with no note. Two cards alike, or a card kept that is not held, name no play.
    (An order with a card to play has no ``kept``: :func:`_fit_to_card` drops it. A player
    whose turn it is not holds one card: there is no other.)"""
    kept = written.kept
    held = hand.cards[seat]
    others = [card for card in held if card != kept]
    if kept is None or kept not in held or not others:
        return written, ""
    return written._replace(card=others[0]), f"you keep the {kept.title}: the {others[0].title} is played"


def _standing_order(written: WrittenOrder, hand: Hand, seat: int) -> CheckedOrder:
    """The "if Bishop, discard/keep" order of the player at ``seat`` (RULES 10.3):
    rejected outside a Premium hand, else accepted with a note of what it will do
    (and whether it was already the player's standing order)."""
    h = hand.number
    if not hand.premium:
        reason = '"if Bishop" orders are for games with the Premium deck (5 to 8 players)'
        return CheckedOrder(written, REJECTED, reason)
    now = hand.bishop_discard[seat]
    said = "discard your card" if written.standing == "discard" else "keep your card"
    note = (
        f"if a Bishop hits you in hand {h}, you will {said} (from the next resolution on, "
        f"until you change it)"
    )
    if (written.standing == "discard") == now:
        note += "; this was already your standing order"
    return CheckedOrder(written, ACCEPTED, "", note)


def _play_refusal(written: WrittenOrder, hand: Hand, seat: int, players: list[str]) -> str:
    """Why the play ``written`` by ``seat`` (alive in ``hand``, which is in play) is
    rejected, or "" when it may stand: not this player's turn, no card named, a card
    not held, or the card that must be played (the Countess's rule) not chosen."""
    h = hand.number
    active = hand.active
    assert active is not None, "a hand in play has an active player"
    if active != seat:
        return f"it is not your turn in hand {h}: {players[active]} plays there this turn"
    held = hand.cards[seat]
    holding = " and ".join(c.title for c in held)
    card = written.card
    unkept = written.unkept
    if unkept is not None:
        if card is None or card == unkept:
            instead = unkept if unkept in held else held[0]
            return (
                f"your order says not to keep the {unkept.title}: write only the card you play, "
                f'e.g. "Hand {h}: {instead.title}"'
            )
        return (
            f"your order plays the {card.title} and says not to keep the {unkept.title}: only one card "
            f'is played; write only the card you play, e.g. "Hand {h}: {card.title}"'
        )
    if card is None:
        hint = _did_you_mean_card(written, held)
        example = f'"Hand {h}: {held[0].title}"'
        return f"no card named for hand {h} (you hold {holding}){hint}; write e.g. {example}"
    if card not in held:
        return (
            f"you do not hold the {card.title} in hand {h} (you hold {holding})"
            f"{_did_you_mean_card(written, held)}"
        )
    forced = forced_card(held)
    if forced is not None and card != forced:
        other = next(c for c in held if c != forced)
        return (
            f"you hold the {forced.title} with the {other.title} in hand {h}: "
            f"the {forced.title} must be played"
        )
    return ""


def _check_target(
    written: WrittenOrder,
    hand: Hand,
    seat: int,
    card: Card,
    players: list[str],
    completions: list[str],
    notes: list[str],
) -> tuple[int | None, int | None, int | None, bool]:
    """The players of ``card``, played by ``seat``: the target, the second player and
    the player looked at (the Cardinal's), and whether the target will be replaced at
    random.  What will be completed is appended to ``completions``, what the player
    should know (the Sycophant's mark, the Handmaid, an ignored target) to ``notes``."""
    h = hand.number
    target_seat: int | None = None
    second_seat = look_seat = None
    target_replaced = False
    marked = hand.marked
    if card in PAIRED:
        target_seat, second_seat, look_seat = _check_pair(
            written, hand, seat, card, players, completions, notes
        )
    elif card in TARGETED and marked is not None:  # the Sycophant's mark (RULES 10.3)
        if written.target is not None:
            target_seat = players.index(written.target)
        if marked == seat and not may_target_self(card):
            notes.append(
                f"the Sycophant marked you in hand {h}: the {card.title} cannot choose you, "
                f"so it will have no effect"
            )
        elif target_seat != marked:
            completions.append(
                f"the Sycophant marked {_you(marked, seat, players)}: the {card.title} "
                f"must choose {'you' if marked == seat else players[marked]}"
            )
    elif card in TARGETED:
        target_seat, problem = _target_problem(written, hand, seat, card, players)
        if problem:
            target_replaced = True
            completions.append(f"{problem}: a random player will be chosen")
        elif target_seat is not None and hand.protected[target_seat] and target_seat != seat:
            to = redirect(hand, seat, card, target_seat)
            if to is None:
                notes.append(
                    f"{players[target_seat]} is protected by the Handmaid and nobody else "
                    f"can take it: the {card.title} will have no effect"
                )
            else:
                notes.append(
                    f"{players[target_seat]} is protected by the Handmaid: the {card.title} "
                    f"will go to {'you' if to == seat else players[to]}"
                )
    elif written.target or written.target_text:
        notes.append(f"the {card.title} takes no target; the target is ignored")
    return target_seat, second_seat, look_seat, target_replaced


def _check_guess(written: WrittenOrder, hand: Hand, card: Card, completions: list[str]) -> Card | int | None:
    """The guess ``card`` will name: None for a card that names none, or when the
    guess will be named at random (and then why is appended to ``completions``).
    A Premium guess is a number 0 to 9 but 1; a classic one a card but the Guard."""
    guess = written.guess
    if not CARD_RULES[card].guesses:
        guess = None
    elif hand.premium:
        if guess is None:
            what = f'"{written.guess_text}" is not a number' if written.guess_text else "no number named"
            completions.append(f"{what}: a random number will be named")
        elif guess == 1:
            completions.append(f"a {card.title} may not name 1 (the Guard): a random number will be named")
            guess = None
        elif guess not in NUMBERS:
            completions.append(f"{guess} is not a number from 0 to 9: a random number will be named")
            guess = None
    elif guess is None:
        what = (
            f'"{as_written(written.guess_text, written.text)}" is not a card'
            f"{did_you_mean(written.guess_text, CARD_TITLES)}"
            if written.guess_text
            else "no guess"
        )
        completions.append(f"{what}: a random card other than the Guard will be named")
    elif guess == Card.GUARD:
        completions.append("a Guard may not name a Guard: a random card other than the Guard will be named")
        guess = None
    return guess


def one_order_per_hand(checked: list[CheckedOrder]) -> list[CheckedOrder]:
    """Within one message, the first order for a hand stands (RULES.md 3).

    A later line that repeats it word for word is dropped; a later, different order for the
    same hand is a conflict, not a replacement: it is rejected with a reason that says so, so
    that the acknowledgement warns the player.  (A reply's new text comes first, so the first
    order is the newest thought; a line further down is as likely a quoted original.)

    A later line that says it corrects ("P.S. Hand 3: actually ...", :attr:`WrittenOrder.corrects`)
    is a change of mind, not a quoted original: its order replaces the first one.

    Only an order that can stand takes the hand: a rejected line never blocks a valid one, and
    a line that names the hand but no card ("Hand 4 still random?? I meant") is dropped when
    the message gives that hand an order with a card. A play and an "if Bishop" standing
    order are different slots: one of each for a hand is no conflict.
    """

    def slot(order: CheckedOrder) -> tuple[int, bool]:
        return order.hand, order.written.standing is not None

    def cardless(order: CheckedOrder) -> bool:
        return order.written.card is None and order.written.standing is None

    named = {order.hand for order in checked if not cardless(order)}
    first: dict[tuple[int, bool], CheckedOrder] = {}
    refused: set[tuple[str, str]] = set()
    out: list[CheckedOrder] = []
    for order in checked:
        if cardless(order) and order.hand in named:
            continue  # prose about the hand, or a blank: the order with a card says it
        earlier = first.get(slot(order))
        if order.status == REJECTED:
            said = (order.written.canonical(), order.reason)
            if said not in refused and (earlier is None or said[0] != earlier.written.canonical()):
                refused.add(said)
                out.append(order)  # told why, and blocks nothing
        elif earlier is None:
            first[slot(order)] = order
            out.append(order)
        elif order.written.corrects and order.written.canonical() != earlier.written.canonical():
            out[out.index(earlier)] = first[slot(order)] = order  # "P.S. Hand 3: actually ..."
        elif order.written.canonical() != earlier.written.canonical():
            out.append(
                CheckedOrder(
                    order.written,
                    REJECTED,
                    f"this message already gives hand {order.hand} another order "
                    f'("{earlier.written.canonical()}"), and that first one stands; '
                    f"to change it, send a new message with the order you want",
                )
            )
    return out


CARD_TITLES = [card.title for card in CLASSIC_CARDS]  # what a classic Guard may name


def as_written(word: str, text: str) -> str:
    """``word`` (read case-folded) as the player typed it in ``text``."""
    found = re.search(re.escape(word), text, re.IGNORECASE)
    return found.group(0) if found else word


def did_you_mean(word: str, options: list[str]) -> str:
    """ " (did you mean Arthur?)" for a word close to one or two of ``options``
    (difflib's ratio, the way a spelling checker guesses), else ""."""
    import difflib  # only on this path: a misspelt word is rare

    by_fold = {name_key(o): o for o in options}
    close = difflib.get_close_matches(name_key(word), list(by_fold), n=2, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {' or '.join(by_fold[c] for c in close)}?)"


def _did_you_mean_player(word: str, players: list[str]) -> str:
    """A prefix that fits several players names them all; else the closest names."""
    several = [p for p in players if name_key(p).startswith(name_key(word))]
    if len(several) > 1:
        return f" (it fits {' and '.join(several)}: write more of the name)"
    return did_you_mean(word, players)


def _did_you_mean_card(written: WrittenOrder, held: list[Card]) -> str:
    """The held card a misspelt word of the order stands for, if one is close:
    among the words before the first card named (a card named later is a guess)."""
    body = HAND_REF.match(written.text)
    words = _WORD.findall(name_key(body.group("rest") if body else written.text))
    titles = [c.title for c in held]
    for word in words:
        if _card_word(word) is not None:
            return ""
        if word in FILLER:
            continue
        hint = did_you_mean(word, titles)
        if hint:
            return hint
    return ""


def _you(seat: int, me: int, players: list[str]) -> str:
    return "you" if seat == me else players[seat]


def _check_pair(
    written: WrittenOrder,
    hand: Hand,
    seat: int,
    card: Card,
    players: list[str],
    completions: list[str],
    notes: list[str],
) -> tuple[int | None, int | None, int | None]:
    """The Cardinal's and the Baroness's players (RULES 10.3): what will be
    completed, and (when nothing is) who will trade and whom the player looks at."""
    cardinal = card == Card.CARDINAL
    h = hand.number
    named = [written.target, written.second]
    seats = [None if n is None else players.index(n) for n in named]
    first, second = seats
    look = None if written.look is None else players.index(written.look)
    marked = hand.marked
    if marked is not None:
        if not cardinal and marked == seat:
            notes.append(
                f"the Sycophant marked you in hand {h}: the Baroness cannot look at your own "
                f"card, so it will have no effect"
            )
            return first, second, look
        if marked not in seats:
            instead = f" in place of {named[0]}" if named[0] else ""
            completions.append(
                f"the Sycophant marked {_you(marked, seat, players)}: the {card.title} must "
                f"choose {'you' if marked == seat else players[marked]}{instead}"
            )
            seats[0] = marked
    for slot, (name, s) in enumerate(zip(named, seats, strict=True)):
        if s is not None and marked is not None and s == marked:
            continue
        what = "player" if slot == 0 else "second player"
        if s is None:
            if slot == 0 and written.target_text:
                completions.append(
                    f'"{written.target_text}" names no player (or more than one): '
                    f"a random player will be chosen"
                )
            elif slot == 0 or cardinal:
                completions.append(f"no {what} named: a random {what} will be chosen")
        elif not hand.alive[s]:
            completions.append(f"{name} is out of hand {h}: a random {what} will be chosen")
        elif s == seat and not cardinal:
            completions.append(
                f"the Baroness looks at other players' cards, not yours: a random {what} will be chosen"
            )
        elif slot == 1 and s == seats[0]:
            completions.append(f"{name} is named twice: a random second player will be chosen")
    if look is not None and look not in seats and look not in (first, second):  # the look follows its slot
        notes.append(f"{written.look} is not one of the two players: the look goes by the default")
    if completions:
        return first, second, look
    chosen = choose_pair(hand, seat, card, first, second, look)  # the engine applies the mark itself
    if chosen is None:
        notes.append(f"nobody else can be chosen: the {card.title} will have no effect")
    elif cardinal:
        a, b, slot = cast("tuple[int, int, int]", chosen)  # two players, then the looked-at slot
        looked = (a, b)[slot]
        who = f"{_you(a, seat, players)} and {_you(b, seat, players)}"
        notes.append(
            f"{who[0].upper() + who[1:]} will trade hands; you will look at "
            f"{'your own' if looked == seat else players[looked] + chr(39) + 's'} new card"
        )
    else:
        seen = cast("tuple[int, ...]", chosen[:-1])  # the players, before the slot's None
        notes.append(
            f"you will look at the card{'s' if len(seen) > 1 else ''} of "
            + " and ".join(players[p] for p in seen)
        )
    return first, second, look


def _target_problem(
    written: WrittenOrder, hand: Hand, seat: int, card: Card, players: list[str]
) -> tuple[int | None, str]:
    """The target seat, or why the target cannot be used as written."""
    if written.target is None:
        if written.target_text:
            choosable = [p for i, p in enumerate(players) if i != seat or card == Card.PRINCE]
            hint = _did_you_mean_player(written.target_text, choosable)
            return None, f'"{as_written(written.target_text, written.text)}" names no player{hint}'
        return None, "no target named"
    target = players.index(written.target)
    # The seat goes to the engine all the same: it replaces an unusable target by
    # the same rule, and its report can then say whom the player had named.
    if target == seat and not may_target_self(card):
        return target, f"you cannot play the {card.title} on yourself"
    if not hand.alive[target]:
        return target, f"{written.target} is out of hand {hand.number}"
    return target, ""
