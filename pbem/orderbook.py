"""The order book: the orders on file for the awaited turn, and what became of
each submission (its :class:`Receipt`).

Orders come from `pbem order` (one text) and from the mail reader (a batch of
messages, saved once); both go through :class:`OrderBook`, which checks each
order against the position (:mod:`pbem.orders`) and keeps the record the
resolution reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from .cards import Card
from .engine import PAIRED, PREMIUM_PLAYERS, Game
from .grammar import absence_request, is_absence_line, is_proxy_line, proxy_request
from .knowledge import Knowledge
from .orders import REJECTED, CheckedOrder, WrittenOrder, check_order, one_order_per_hand, parse_orders
from .store import CampaignStore
from .tuples import NamedTuple


class Position(NamedTuple):
    """The game as of the latest resolved turn."""

    turn_on_file: int  # the latest turn folder (0: the start)
    game: Game
    players: list[str]
    seed: str
    opened_at: datetime  # when the awaited turn opened (the latest turn folder was written)
    known: Knowledge | None = None  # what players know of each other's cards (None: not on file)


def missing_hands(position: Position, on_file: dict[str, Any]) -> dict[str, list[int]]:
    """Player -> hands in which they must play and have no order on file."""
    out = {}
    for seat, hands in position.game.awaited().items():
        name = position.players[seat]
        mine = on_file.get(name, {})
        missing = [h for h in hands if str(h) not in mine]
        if missing:
            out[name] = missing
    return out


#: What a PROXY ON / PROXY OFF did, as the GM's screen says it.
PROXY_LINES = {
    "on": "PROXY ON: from now on the proxy plays {player}'s missing orders",
    "off": "PROXY OFF: {player}'s missing orders are played by the NMR defaults again",
    "everyone": "PROXY ON/OFF noted; nmr: proxy has the proxy play every missing order anyway",
    "refused": "PROXY ON/OFF refused: this campaign does not use the proxy (proxy: false)",
}


def absence_line(player: str, absence: dict[str, Any]) -> str:
    """What an ABSENT / BACK did, as the GM's screen says it."""
    status, span = absence["status"], absence.get("span", "")
    if status == "accepted":
        then = "the proxy plays" if absence.get("then") == "proxy" else "deadlines in it are extended"
        return f"ABSENT: {player} is away {span} ({then})"
    if status == "refused":
        return f"ABSENT refused: {absence.get('reason', '')}"
    if status == "back":
        return f"BACK: {player} is back (the absence of {span} is over)"
    if status == "not_away":
        return f"BACK: {player} had no absence running or to come"
    return "ABSENT not understood: write ABSENT 2026-12-10 to 2026-12-20"


class Receipt(NamedTuple):
    """What became of one submission of orders."""

    player: str
    turn: int
    checked: list[CheckedOrder]
    ignored: list[str]
    on_file: dict[int, dict[str, Any]]  # hand -> order on file after this submission
    missing: list[int]  # hands still without an order
    # PROXY ON / OFF in this text: "on", "off"; "refused" (proxy: false), "everyone" (nmr: proxy)
    proxy: str | None = None
    # ABSENT / BACK in this text: {"status": accepted, refused, back, not_away or bad,
    # "span": "10 to 20 December 2026", "reason", "then": extend or proxy}
    absence: dict[str, Any] | None = None

    @property
    def any_rejected(self) -> bool:
        return any(c.status == REJECTED for c in self.checked)

    def lines(self) -> list[str]:
        """One line per order as read, then the lines ignored and the hands missing."""
        out = []
        for c in self.checked:
            line = f"  hand {c.hand}: {c.status:<9} {c.written.canonical()}"
            if c.reason:
                line += f"  -- {c.reason}"
            if c.note:
                line += f"  ({c.note})"
            out.append(line)
        out += [f"  ignored (not an order): {text}" for text in self.ignored]
        if self.proxy is not None:
            out.append(f"  {PROXY_LINES[self.proxy].format(player=self.player)}")
        if self.absence is not None:
            out.append(f"  {absence_line(self.player, self.absence)}")
        out.append(f"  still missing: {', '.join(map(str, self.missing)) if self.missing else 'none'}")
        return out


class OrderBook:
    """The orders on file for the awaited turn, changed in memory, saved at once.

    ``pbem order`` submits one text; the mail reader submits a whole batch of
    messages and saves once (one write for the batch, not one per message).
    """

    def __init__(
        self,
        store: CampaignStore,
        position: Position,
        clock: Callable[[], datetime],
        find_player: Callable[[str, list[str]], str],
        proxy_allowed: bool = True,
        proxy_everyone: bool = False,
        absence_policy: Any = None,
        zone: Any = None,
    ):
        self.store = store
        self.position = position
        self.clock = clock  # the campaign's: order and log timestamps
        self.find_player = (
            find_player  # a name as given -> the player's name (or an error naming the players)
        )
        self.turn = position.game.turn
        self.on_file = store.read_orders(self.turn)
        self.standing = store.read_standing(self.turn)  # "if Bishop" orders (RULES 10.3)
        self.proxy_allowed = proxy_allowed  # campaign.yaml: unless proxy: false
        self.proxy_everyone = proxy_everyone  # campaign.yaml: nmr: proxy
        self.proxy = store.read_proxy()  # player -> their latest PROXY ON / OFF
        self._proxy_changed = False
        self.absence_policy = absence_policy  # campaign.yaml: absence: (None: ABSENT is not read)
        self.zone = zone  # the campaign's time zone: "today" for an absence
        self.absences = store.read_absences() if absence_policy is not None else []
        self._absences_changed = False
        self.log: list[dict[str, Any]] = []
        self._unlogged = _unlogged_entries(self.on_file, store.logged_sources(self.turn))

    def player(self, given: str) -> str:
        return self.find_player(given, self.position.players)

    def submit(
        self, player: str, text: str, source: str = "gm", turn: int | None = None, record: bool = True
    ) -> Receipt:
        """Check and record the orders of ``text``. ``record=False`` only checks them: a
        message read again after a crash (its orders were recorded the first time) must not
        replace what was recorded since; its receipt shows the orders on file."""
        pos = self.position
        name = self.player(player)
        game = pos.game
        parsed = parse_orders(text, pos.players, name)
        ignored = [line for line in parsed.ignored if not is_proxy_line(line)]
        if self.absence_policy is not None:
            ignored = [line for line in ignored if not is_absence_line(line)]
        if turn is not None and turn != game.turn:
            why = (
                f"your message answers the mail of turn {turn}, which is over; turn {game.turn} is "
                f"being played now: reply to the Turn {game.turn} mail"
            )
            checked = [CheckedOrder(w, REJECTED, why) for w in parsed.orders]
        else:
            every = [check_order(w, game, pos.players, name) for w in parsed.orders]
            checked = one_order_per_hand(every)
            kept = {id(c) for c in checked}
            # a line that named a hand but no card, beside an order for that hand: not an order
            ignored += [
                c.written.text
                for c in every
                if id(c) not in kept and c.written.card is None and c.written.standing is None
            ]
        if not record:
            return Receipt(name, game.turn, checked, ignored, self.mine(name), self.missing(name))
        mine = self.on_file.setdefault(name, {})
        now = self.clock().isoformat(timespec="seconds")
        proxy = self._ask_proxy(name, text, now, source)
        absence = self._ask_absence(name, text, now, source)
        for c in checked:
            if c.status != REJECTED and c.written.standing:  # not a play: it replaces no play order
                self.standing.setdefault(name, {})[str(c.hand)] = c.written.standing
            elif c.status != REJECTED:
                mine[str(c.hand)] = _order_record(c, now, source, pos.players, name)
        if not mine:
            self.on_file.pop(name)
        self.log.append(
            {
                "received": now,
                "player": name,
                "source": source,
                "text": text,
                "results": [
                    {
                        "hand": c.hand,
                        "status": c.status,
                        "reason": c.reason or c.note,
                        "order": c.written.canonical(),
                    }
                    for c in checked
                ],
            }
        )
        return Receipt(name, game.turn, checked, ignored, self.mine(name), self.missing(name), proxy, absence)

    def _ask_absence(self, name: str, text: str, now: str, source: str) -> dict[str, Any] | None:
        """Record an ABSENT or a BACK in ``text`` as the campaign's policy decides."""
        from .absence import ACCEPTED, back, request, span_text

        if self.absence_policy is None:
            return None
        asked = absence_request(text)
        if asked is None:
            return None
        policy = self.absence_policy
        today = self.clock().astimezone(self.zone).date()
        kind, start, end = asked
        if kind == "bad":
            return {"status": "bad", "then": policy.then}
        if kind == "back":
            self.absences, ended = back(self.absences, name, today)
            if ended is None:
                return {"status": "not_away", "then": policy.then}
            self._absences_changed = True
            return {"status": "back", "span": span_text(ended), "then": policy.then}
        assert start is not None and end is not None
        outcome = request(self.absences, name, start, end, policy, today, now, source)
        span = span_text({"from": start.isoformat(), "to": end.isoformat()})
        if outcome.status != ACCEPTED or outcome.record is None:
            return {"status": "refused", "span": span, "reason": outcome.reason, "then": policy.then}
        self.absences.append(outcome.record)
        self._absences_changed = True
        return {"status": "accepted", "span": span, "then": policy.then}

    def save_absences(self) -> None:
        """Write the absences now (an absence moves the deadline: it is told at once)."""
        if self._absences_changed:
            self.store.write_absences(self.absences)
            self._absences_changed = False

    def _ask_proxy(self, name: str, text: str, now: str, source: str) -> str | None:
        """Record a PROXY ON / PROXY OFF in ``text``: from then on the proxy plays
        (or stops playing) the player's missing orders. "refused" where the
        campaign forbids the proxy (``proxy: false``), "everyone" where it plays
        for everyone anyway (``nmr: proxy``)."""
        wanted = proxy_request(text)
        if wanted is None:
            return None
        if not self.proxy_allowed:
            return "refused"
        self.proxy[name] = {"proxy": wanted, "received": now, "source": source}
        self._proxy_changed = True
        return "everyone" if self.proxy_everyone else wanted

    def proxy_on(self, name: str) -> bool:
        """Whether ``name`` has asked for the proxy (and not stopped it)."""
        return self.proxy_allowed and self.proxy.get(name, {}).get("proxy") == "on"

    def clear(self, player: str, source: str = "gm") -> None:
        """Drop every order of ``player`` for the awaited turn."""
        name = self.player(player)
        self.on_file.pop(name, None)
        now = self.clock().isoformat(timespec="seconds")
        self.log.append({"received": now, "player": name, "source": source, "text": "CLEAR", "results": []})

    def mine(self, name: str) -> dict[int, dict[str, Any]]:
        return {int(h): o for h, o in sorted(self.on_file.get(name, {}).items(), key=lambda kv: int(kv[0]))}

    def missing(self, name: str) -> list[int]:
        return missing_hands(self.position, self.on_file).get(name, [])

    def save(self) -> None:
        """The orders file first, then the log: a crash in between loses no order.

        Such a crash leaves orders on file that no log line names; the lines for them are
        written first here (they tell of orders recorded before), so that a newer order that
        replaces one on file can never erase the last trace that its message was applied (the
        message would be read again, and applied again, over the newer order)."""
        store = self.store
        if self._unlogged:
            store.log_submissions(self.turn, self._unlogged)
            self._unlogged = []
        store.write_orders(self.turn, self.on_file)
        if self.standing:
            store.write_standing(self.turn, self.standing)
        if self._proxy_changed:
            store.write_proxy(self.proxy)
            self._proxy_changed = False
        if self._absences_changed:
            store.write_absences(self.absences)
            self._absences_changed = False
        store.log_submissions(self.turn, self.log)
        self.log = []


def _unlogged_entries(on_file: dict[str, dict[str, Any]], logged: set[str]) -> list[dict[str, Any]]:
    """The log lines a crash between an orders file and its log left out: one per kept
    message whose orders are on file with no log line naming it, rebuilt from those orders
    and marked ``"again": true``."""
    entries: dict[str, dict[str, Any]] = {}
    for name, hands in on_file.items():
        if not isinstance(hands, dict):
            continue  # a file edited by hand: the campaign's own checks tell of it
        for hand, record in sorted(hands.items(), key=lambda kv: (len(kv[0]), kv[0])):
            if not isinstance(record, dict):
                continue
            source = record.get("source")
            if not CampaignStore.is_kept_message(source) or source in logged:
                continue
            entry = entries.setdefault(
                source,
                {
                    "received": record.get("received"),
                    "player": name,
                    "source": source,
                    "again": True,
                    "results": [],
                },
            )
            entry["results"].append(
                {
                    "hand": int(hand) if hand.isdigit() else hand,
                    "status": record.get("status"),
                    "reason": record.get("reason") or record.get("note"),
                    "order": record.get("text"),
                }
            )
    return list(entries.values())


def _order_record(
    checked: CheckedOrder, when: str, source: str, players: Sequence[str] = (), me: str = ""
) -> dict[str, Any]:
    w = checked.written
    target = None  # null when a random target will be chosen
    if checked.order is not None and checked.order.target is not None and not checked.random_target:
        target = w.target
    guess = checked.order.guess if checked.order is not None else None
    premium: dict[str, Any] = {}
    if len(players) in PREMIUM_PLAYERS:  # values as the player wrote them (RULES 10.4)
        target = w.target
        guess = w.guess
        if w.card in PAIRED:
            premium["targets"] = [t for t in (w.target, w.second) if t is not None]
        if w.card == Card.CARDINAL:
            premium["look"] = _cardinal_look(w, me)
    return {
        "card": w.card.title if w.card else None,
        "target": target,
        "guess": guess.title if isinstance(guess, Card) else guess,
        **premium,
        "status": checked.status,
        "text": w.text,
        # The order as it was read and acknowledged, and the roster it was read against: the
        # resolve plays this, not a new reading of the text (a reader changed by an upgrade
        # meanwhile must not play what the player was not told), unless the roster changed.
        "read": {"players": list(players), "order": w.to_json()},
        "reason": checked.reason,
        "note": checked.note,
        "received": when,
        "source": source,
    }


def order_as_read(record: dict[str, Any], hand: int, players: Sequence[str], me: str) -> WrittenOrder | None:
    """The play order of ``record`` (``me``'s for ``hand``, on file) as it was read when it came
    in, when it was read against the same roster; else its text read again (a record of an
    older version, or one a seat's new name changed). None when the text holds no play for
    ``hand`` (a record edited by hand)."""
    read = record.get("read")
    if isinstance(read, dict) and read.get("players") == list(players):
        order = WrittenOrder.from_json(read.get("order"))
        if order is not None and order.hand == hand and order.standing is None:
            return order
    read_again = parse_orders(record["text"], list(players), me).orders
    plays = [w for w in read_again if w.hand == hand and w.standing is None]
    return plays[-1] if plays else None


def _cardinal_look(w: WrittenOrder, me: str) -> str | None:
    """The player a Cardinal order looks at, the default filled in (RULES 10.3):
    the one named after "look", else the one of the two who is not the writer,
    else the first named."""
    names = [n for n in (w.target, w.second) if n is not None]
    if w.look is not None and w.look in names:
        return w.look
    if not names:
        return None
    return names[1] if names[0] == me and len(names) > 1 else names[0]
