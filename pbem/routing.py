"""Which game of a GM's folder a message is for: a pure decision from its headers.

One IMAP account may serve every game of a folder of campaigns
(:func:`pbem.gmfolder.fetch_folder`). Each new message is routed, in this order:

0. **The tool's own mail** (a review notice to the GM, a copy of a turn mail, a
   deadline notice, an acknowledgement): its Message-ID is one the tool made for
   a game (the game's index of sent Message-IDs) *and* it carries the
   ``Auto-Submitted`` header the tool sets on all its mail. It is left in the
   INBOX untouched, for the GM to read. A player's reply that quotes our mail
   has a Message-ID of its own, so it is never taken for ours.
1. **The tag** of its subject (``[game7] Turn 3``, or a bare ``[game7]`` naming
   a game of the folder): that game, when the sender plays in it or plays in no
   game of the folder (the game then keeps it and lists it as from an unknown
   sender). A tag naming a game the sender does not play in, while they play in
   others, is *not* followed: the sender is answered with their games
   (``wrong game``), so no order goes to a game by a slip of the keyboard.
2. **The thread**: the first of In-Reply-To, then References from the newest,
   that is a Message-ID the tool sent for a game, under the same condition on
   the sender as the tag (a forged In-Reply-To of another game's mail from a
   player of a third is passed over; from a stranger it leads to that game,
   which lists the stranger). At most :data:`MAX_IDS` ids are looked at.
3. **The sender**: the only game not over in which the From address plays (or,
   when all are over, the only game at all).
4. Otherwise: a player of several games gets a short answer naming their games
   (``ambiguous``); a stranger's message without a clue (``unknown``) is left
   in the INBOX and listed for the GM.

No file, no clock, no server here: the folder side builds a :class:`FolderIndex`
and acts on the :class:`Route`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.utils import getaddresses
from typing import Any, Protocol

from .grammar import SUBJECT_TAG

__all__ = [
    "AMBIGUOUS",
    "GAME",
    "OWN",
    "UNKNOWN",
    "WRONG_GAME",
    "FolderIndex",
    "GameIndex",
    "Route",
    "route",
]

#: What became of a message (the words of the folder's list of unroutable mail).
GAME = "game"  # for one game: delivered there
OWN = "own"  # the tool's own mail: left in the INBOX untouched
AMBIGUOUS = "ambiguous"  # a player of several games, no clue: answered, listed
WRONG_GAME = "wrong game"  # the tag names a game the sender does not play in: answered, listed
UNKNOWN = "unknown"  # a stranger, no clue: left in the INBOX, listed

#: The most Message-IDs of In-Reply-To and References looked at (a forger's huge
#: References header costs no more than this).
MAX_IDS = 50
#: The most of a header's text read for ids (the newest ids are at the end of References).
MAX_HEADER = 32 * 1024

_ID = re.compile(r"<[^<>\s]{1,500}>")
_BRACKETED = re.compile(r"\[([A-Za-z0-9_.-]{1,40})\]")


class Headers(Protocol):
    """What a parsed header block offers (``email.message.Message``)."""

    def get(self, name: str, failobj: Any = None) -> Any: ...

    def get_all(self, name: str, failobj: Any = None) -> Any: ...


@dataclass(frozen=True)
class GameIndex:
    """What routing knows of one game."""

    name: str
    players: frozenset[str]  # registered addresses, lower case
    active: bool = True  # the game is not over
    sent_ids: frozenset[str] = frozenset()  # Message-IDs the tool made for the game: thread clues
    answer_ids: frozenset[str] = frozenset()  # its answers to unroutable mail: its own, but no clue


@dataclass
class FolderIndex:
    """Every game of the folder, looked up by tag, by Message-ID and by address."""

    games: dict[str, GameIndex] = field(default_factory=dict)
    by_tag: dict[str, str] = field(default_factory=dict)  # casefolded name -> name
    by_id: dict[str, str] = field(default_factory=dict)  # Message-ID -> name (thread clues)
    own_ids: dict[str, str] = field(default_factory=dict)  # every Message-ID the tool made -> name
    by_address: dict[str, list[str]] = field(default_factory=dict)  # address -> names, by name

    @classmethod
    def of(cls, games: Iterable[GameIndex]) -> FolderIndex:
        index = cls()
        for game in sorted(games, key=lambda g: g.name):
            index.games[game.name] = game
            index.by_tag.setdefault(game.name.casefold(), game.name)
            for message_id in game.sent_ids:
                index.by_id.setdefault(message_id, game.name)
                index.own_ids.setdefault(message_id, game.name)
            for message_id in game.answer_ids:
                index.own_ids.setdefault(message_id, game.name)
            for address in game.players:
                index.by_address.setdefault(address, []).append(game.name)
        return index


@dataclass(frozen=True)
class Route:
    """The decision for one message: ``kind`` (one of the words above), the game
    (for GAME and OWN), why, the sender's address ("" when there is none or more
    than one) and the sender's games (for the answer to AMBIGUOUS and WRONG_GAME)."""

    kind: str
    game: str | None
    reason: str
    sender: str = ""
    games: tuple[str, ...] = ()


def route(headers: Headers | Mapping[str, Any], index: FolderIndex) -> Route:
    """Where the message of these headers goes (see the module docstring)."""
    message_id = _first_id(_text(headers, "Message-ID"))
    if message_id and message_id in index.own_ids and _auto_submitted(headers):
        return Route(OWN, index.own_ids[message_id], "the tool's own mail, left in the INBOX")
    sender = sender_of(headers)
    theirs = index.by_address.get(sender, []) if sender else []
    tag = tagged_game(subject_of(headers), index)
    if tag is not None:
        if tag in theirs or not theirs:
            return Route(GAME, tag, f"the subject names [{tag}]", sender)
        return Route(
            WRONG_GAME,
            None,
            f"the subject names [{tag}], in which {sender} does not play",
            sender,
            tuple(theirs),
        )
    for ident in thread_ids(headers):
        game = index.by_id.get(ident)
        if game is not None and (game in theirs or not theirs):
            return Route(GAME, game, f"a reply to {game}'s mail", sender)
    active = [name for name in theirs if index.games[name].active]
    candidates = active or theirs
    if len(candidates) == 1:
        return Route(GAME, candidates[0], f"{sender} plays in no other game", sender)
    if candidates:
        return Route(
            AMBIGUOUS,
            None,
            f"{sender} plays in {len(candidates)} games and the message names none",
            sender,
            tuple(candidates),
        )
    return Route(UNKNOWN, None, f"{sender or 'no sender'} plays in no game of the folder", sender)


def sender_of(headers: Headers | Mapping[str, Any]) -> str:
    """The From address, lower case; "" when there is none or more than one (a
    forger showing a player's address beside their own is nobody's)."""
    values = _all(headers, "From")
    if len(values) != 1:
        return ""
    found = [addr for _name, addr in getaddresses([str(values[0])[:MAX_HEADER]]) if addr]
    if len(found) != 1 or found[0].count("@") != 1:
        return ""
    return found[0].strip().lower()


def thread_ids(headers: Headers | Mapping[str, Any]) -> list[str]:
    """In-Reply-To's ids, then References' from the newest: at most :data:`MAX_IDS`."""
    ids = _ID.findall(_text(headers, "In-Reply-To")[:MAX_HEADER])
    ids += reversed(_ID.findall(_text(headers, "References")[-MAX_HEADER:]))
    return list(dict.fromkeys(ids))[:MAX_IDS]


def is_own(headers: Headers | Mapping[str, Any], sent_ids: Mapping[str, Any] | set[str]) -> bool:
    """The tool's own mail (rule 0) for one campaign's Message-IDs."""
    message_id = _first_id(_text(headers, "Message-ID"))
    return bool(message_id) and message_id in sent_ids and _auto_submitted(headers)


def _auto_submitted(headers: Headers | Mapping[str, Any]) -> bool:
    value = _text(headers, "Auto-Submitted").strip().lower()
    return bool(value) and value != "no"


def tagged_game(subject: str, index: FolderIndex) -> str | None:
    """The game of the folder a subject names: its tag (``[game7] Turn 3``), or a bare
    ``[game7]`` that is the name of a game of the folder."""
    found = SUBJECT_TAG.search(subject)
    if found is not None and found.group(1).casefold() in index.by_tag:
        return index.by_tag[found.group(1).casefold()]
    for word in _BRACKETED.findall(subject):
        if word.casefold() in index.by_tag:
            return index.by_tag[word.casefold()]
    return None


def subject_of(headers: Headers | Mapping[str, Any]) -> str:
    """The Subject, RFC 2047 words decoded (the first 2,000 characters)."""
    subject = _text(headers, "Subject")[:2000]
    try:
        return str(make_header(decode_header(subject)))
    except (ValueError, LookupError, UnicodeDecodeError):
        return subject


def _first_id(text: str) -> str | None:
    found = _ID.search(text[:2000])
    return found.group(0) if found else None


def _all(headers: Headers | Mapping[str, Any], name: str) -> list[Any]:
    get_all = getattr(headers, "get_all", None)
    if get_all is not None:
        return list(get_all(name) or [])
    value = headers.get(name)
    return [] if value is None else [value]


def _text(headers: Headers | Mapping[str, Any], name: str) -> str:
    value = headers.get(name)
    return "" if value is None else str(value)
