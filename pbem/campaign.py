"""The library API: one campaign, everything a GM (or a script) does with it.

The CLI is a thin layer over :class:`Campaign`; a script can do the same::

    from pbem.campaign import Campaign
    game = Campaign("campaigns/game7")
    receipt = game.record_orders("Bruno", "Hand 2: Countess")
    result = game.resolve(force=True)
    print(result.public_report)

Every method that writes holds the campaign's lock, checks everything first,
and writes last (a turn folder in one rename), so a failure leaves the
campaign as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import events as ev
from .config import CAMPAIGN_FILE, CampaignConfig, ConfigError, check_names_apart, load_config
from .engine import Game, Order, deal_events, derive_secret, resolve_turn, shuffled_deck
from .errors import PbemError
from .grammar import format_code, is_plain_tag
from .knowledge import Knowledge, from_json, still_open, to_json, update
from .orderbook import OrderBook, Position, Receipt, missing_hands, order_as_read
from .orders import ACCEPTED, COMPLETED, REJECTED, as_written, check_order, name_key
from .record import commitments, game_record, order_to_json, record_block
from .reports import Renderer, Table, private_context, public_context, template_digests
from .store import (
    EVENTS,
    LOCK_FILE,
    PUBLIC_REPORT,
    ROSTER,
    STANDING,
    STATE,
    TURN_ORDERS,
    CampaignStore,
    StoreError,
    dump_json,
    private_report,
    write_atomic,
)

if TYPE_CHECKING:  # the deadline and absence rules load when a campaign uses them
    from .absence import Outcome, Policy
    from .deadlines import Schedule

TAG_MAX = 40  # the longest campaign tag grammar.TAG_WORD reads in a subject


class GameError(PbemError):
    """What the GM asked for cannot be done now; the message says why and what to do."""

    exit_code = 1  # the `pbem` command's exit status for it


class MissingOrders(GameError):
    """``resolve`` without ``--force`` while orders are missing."""

    exit_code = 3  # a script (cron) can tell "not yet" from a failure

    def __init__(self, turn: int, missing: dict[str, list[int]], deadline: str = ""):
        self.turn = turn
        self.missing = missing
        who = "; ".join(
            f"{name}: hand{'s' if len(h) > 1 else ''} {', '.join(map(str, h))}" for name, h in missing.items()
        )
        due = f" The deadline is {deadline}; after it, resolve plays them by default." if deadline else ""
        super().__init__(
            f"turn {turn} cannot be resolved yet, orders are missing from {who}.{due} "
            f"Record them, or use --force to play the missing ones by the NMR defaults."
        )


class TurnResult:
    """A turn just resolved (or the start): the new game, its events and reports."""

    def __init__(
        self,
        turn: int,
        game: Game,
        events: list[ev.Event],
        public_report: str,
        private_reports: dict[str, str],
        defaults: dict[str, list[int]],
        warning: str = "",
    ):
        self.turn = turn
        self.game = game
        self.events = events
        self.public_report = public_report
        self.private_reports = private_reports
        self.defaults = defaults  # player -> hands played by the NMR defaults
        self.proxied: dict[str, list[int]] = {}  # player -> hands played by the proxy
        self.warning = warning  # something the GM should know (the turn is resolved all the same)


def check_tag(name: str) -> None:
    """The campaign folder's name is its tag in every mail subject (``[game7]
    Turn 3``): replies are matched on it, so it must be one plain word."""
    if len(name) > TAG_MAX and is_plain_tag(name[:TAG_MAX]):
        raise GameError(
            f"the campaign folder's name {name!r} is the campaign's tag in mail subjects "
            f"([{name[:12]}...] Turn 1): it is {len(name)} characters long, at most {TAG_MAX} "
            f"fit; choose a shorter folder name (e.g. game7)"
        )
    if not is_plain_tag(name):
        raise GameError(
            f"the campaign folder's name {name!r} is the campaign's tag in mail subjects "
            f"([{name}] Turn 1): use only letters, digits, '_', '.' and '-' (e.g. game7)"
        )


def weak_seed(seed: str) -> bool:
    """A seed someone could guess: decks and defaults follow from it (less
    than about 80 bits: shorter than 20 hex digits, 24 decimal digits...)."""
    distinct = len(set(seed))
    return len(seed) * max(1.0, distinct.bit_length() - 0.5) < 80


def order_code(seed: str, name: str) -> str:
    """The personal order code shown in a player's private mails (8 characters
    from an alphabet without look-alikes, e.g. ``K7QM-3XTP``)."""
    return format_code(bytes.fromhex(derive_secret(seed, f"order-code/{name}")))


def copy_campaign(source: Path | str, dest: Path | str) -> Path:
    """Copy the campaign folder ``source`` (an example, or a game to try
    something on) to ``dest``, which must not exist: commands then run on the
    copy and the original, perhaps tracked by git, stays as it was. The lock
    and half-written turns are left behind. Returns the copy's folder."""
    import shutil

    source, dest = Path(source), Path(dest)
    if not (source / CAMPAIGN_FILE).is_file():
        raise GameError(f"{source} is not a campaign folder (it has no {CAMPAIGN_FILE})")
    if dest.exists():
        raise GameError(f"{dest} exists already; give a folder that does not exist yet")
    check_tag(dest.resolve().name)
    tmp = dest.with_name(f".{dest.name}.copying")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(LOCK_FILE, ".turn-*.tmp"))
    tmp.rename(dest)  # all or nothing: an interrupted copy leaves no half campaign at dest
    return dest


#: A clock: returns the present moment (an aware datetime).
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The real time, in UTC; ``PBEM_NOW`` (an ISO time) replaces it: for tests,
    and for a GM who replays what a tick would have done at a given moment."""
    fixed = os.environ.get("PBEM_NOW")
    if fixed:
        moment = datetime.fromisoformat(fixed)
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    return datetime.now(UTC)


class Campaign:
    """One campaign folder.

    ``clock`` is the one source of the present moment for everything done with
    this campaign (deadlines, turn openings, order and message timestamps,
    reminders); by default :func:`system_clock`.
    """

    def __init__(self, folder: Path | str, clock: Clock | None = None):
        self.folder = Path(folder)
        self.store = CampaignStore(self.folder)
        self.clock: Clock = clock or system_clock
        self._config: CampaignConfig | None = None
        #: What this object has committed, one sentence each ("turn 1 is resolved ..."):
        #: an error or Ctrl-C after a commit must say what was done, not "nothing happened".
        self.done: list[str] = []

    @classmethod
    def create(
        cls,
        folder: Path | str,
        players: list[dict[str, str]],
        *,
        seed: str | None = None,
        decks: Any = None,
        title: str = "",
        gm: dict[str, str] | None = None,
        deadline: dict[str, Any] | None = None,
        clock: Clock | None = None,
    ) -> Campaign:
        """Write a new campaign's ``campaign.yaml`` in ``folder`` (``pbem new``):
        ``players`` ({"name", "email"}) seated in an order shuffled with the seed
        (RULES 1), a 128-bit seed drawn when none is given, ``decks`` as a
        campaign.yaml's ``decks:``, ``deadline`` as its ``deadline:`` section.
        Everything is checked before the file is written (at once, atomically);
        the game is not started (:meth:`start`)."""
        import secrets

        from .config import config_from_data, dump_config
        from .engine import seat_order

        folder = Path(folder)
        check_tag(folder.resolve().name)  # before anything is written
        store = CampaignStore(folder)
        if store.campaign_file.exists():
            if cls(folder).started():
                raise GameError(
                    f"{folder} holds a game that has already started (or is over); "
                    f"give `pbem new` another folder"
                )
            raise GameError(f"{store.campaign_file} exists already; use `pbem start {folder}` for it")
        seed = seed if seed is not None else secrets.token_hex(16)  # 128 bits
        data: dict[str, Any] = {"title": title} if title else {}
        if gm:
            data["gm"] = gm
        by_name = {p["name"]: p for p in players}
        if len(by_name) != len(players):
            raise GameError("two players have the same name")
        data["players"] = [by_name[n] for n in seat_order(seed, list(by_name))]
        data["seed"] = int(seed) if seed.isdigit() else seed
        if decks is not None:
            data["decks"] = decks
        if deadline is not None:
            from .deadlines import parse_schedule

            parse_schedule(deadline)  # a bad section is refused before anything is written
            data["deadline"] = deadline
        config = config_from_data(data, "the new campaign")  # validate before writing anything
        check_names_apart(config.players, "the new campaign")
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(store.campaign_file, dump_config(config))
        return cls(folder, clock)

    @property
    def name(self) -> str:
        """The campaign's tag (its folder name), used in mail subjects: ``[game7]``."""
        if not hasattr(self, "_name"):
            self._name = self.folder.resolve().name
        return self._name

    @property
    def config(self) -> CampaignConfig:
        if self._config is None:
            self._config = load_config(self.folder)
        return self._config

    # -- the clock and the deadline --------------------------------------------
    def now(self) -> datetime:
        """The present moment, by the campaign's clock."""
        return self.clock()

    @property
    def schedule(self) -> Schedule | None:
        """The ``deadline:`` section (None without one), validated."""
        if not hasattr(self, "_schedule"):
            section = self.config.extra.get("deadline")
            if section is None:
                self._schedule = None
            else:
                from .deadlines import parse_schedule

                self._schedule = parse_schedule(section)
        return self._schedule

    def deadline(self) -> datetime | None:
        """The deadline of the awaited turn: the GM's (``pbem deadline``), else the schedule's."""
        pos = self.position()
        override = self.store.read_deadlines().get(str(pos.game.turn))
        if override:
            return self._past_absences(datetime.fromisoformat(override))
        if self.schedule is None:
            return None
        from .deadlines import scheduled

        moment = scheduled(self.schedule, pos.game.turn, pos.opened_at)
        return None if moment is None else self._past_absences(moment)

    def _past_absences(self, deadline: datetime) -> datetime:
        """With ``absence: {then: extend}`` (the default), a deadline that falls in a
        player's absence moves to the day after it."""
        from .absence import EXTEND, extended

        if self.absence_policy.then != EXTEND:
            return deadline
        absences = self.store.read_absences()
        return extended(deadline, absences, self.zone) if absences else deadline

    @property
    def zone(self) -> tzinfo:
        """The campaign's time zone (``deadline: timezone:``; UTC without one: datetime's
        own, which writes and compares as zoneinfo's "UTC" does, without importing zoneinfo
        and its database search into every command)."""
        return self.schedule.zone if self.schedule is not None else UTC

    @property
    def absence_policy(self) -> Policy:
        """The ``absence:`` section (njudge's defaults without one), validated."""
        if not hasattr(self, "_absence_policy"):
            from .absence import parse_policy

            self._absence_policy = parse_policy(self.config.extra.get("absence"))
        return self._absence_policy

    def away(self) -> list[dict[str, Any]]:
        """The absences running today or to come: ``{"player", "span"}`` (never why)."""
        from .absence import announced, span_text

        today = self.now().astimezone(self.zone).date()
        return [
            {"player": a["player"], "span": span_text(a)}
            for a in announced(self.store.read_absences(), today)
        ]

    def absent(self, player: str, start: str, end: str, source: str = "gm") -> Outcome:
        """``pbem absent``: ``player`` away from ``start`` to ``end`` (days, as
        ``2026-12-10``), as the policy allows; a :class:`pbem.absence.Outcome`. A
        deadline that moves with it is told to every player (a notice drafted)."""
        from datetime import date

        from .absence import ACCEPTED, request

        days = []
        for text in (start, end):
            try:
                days.append(date.fromisoformat(text.strip()[:10]))
            except ValueError:
                raise ConfigError(f"pbem absent: {text!r:.40} is not a day; write it as 2026-12-10") from None
        with self.locked():
            pos = self.position()
            if pos.game.finished:
                raise GameError("the game is over; nobody needs to be away from it")
            name = self._player(player, pos.players)
            before = self.deadline()
            now = self.now()
            absences = self.store.read_absences()
            outcome = request(
                absences,
                name,
                days[0],
                days[1],
                self.absence_policy,
                now.astimezone(self.zone).date(),
                now.isoformat(timespec="seconds"),
                source,
            )
            if outcome.status != ACCEPTED or outcome.record is None:
                raise GameError(f"{name} cannot be away then: {outcome.reason}")
            self.store.write_absences([*absences, outcome.record])
            self._tell_moved(pos, before)
            return outcome

    def back(self, player: str) -> dict[str, Any] | None:
        """``pbem absent --back``: ``player``'s absence ends today; the absence ended (None: none)."""
        from .absence import back

        with self.locked():
            pos = self.position()
            name = self._player(player, pos.players)
            before = self.deadline()
            absences, ended = back(self.store.read_absences(), name, self.now().astimezone(self.zone).date())
            if ended is not None:
                self.store.write_absences(absences)
                self._tell_moved(pos, before)
            return ended

    def absence_changed(self, before: datetime | None) -> str:
        """After an absence by mail (the caller holds the lock): the awaited turn's
        deadline as players read it, a notice drafted when it is no longer ``before``."""
        self._tell_moved(self.position(), before)
        return self.deadline_text(self.deadline())

    def _tell_moved(self, pos: Position, before: datetime | None) -> None:
        """Draft the deadline notices when the awaited turn's deadline is no longer ``before``."""
        after = self.deadline()
        self.notices_drafted = []
        if after is not None and before is not None and after != before and not pos.game.finished:
            self.notices_drafted = self._draft_notices(pos, before, after)

    def deadline_text(self, deadline: datetime | None) -> str:
        """A deadline as players read it, in the campaign's time zone and UTC
        ("" for none)."""
        if deadline is None:
            return ""
        from .deadlines import describe

        zone = self.schedule.zone if self.schedule is not None else UTC
        return describe(deadline, zone)

    def set_deadline(self, when: str, *, from_now: bool = False, earlier: bool = False) -> datetime:
        """Move the awaited turn's deadline (``2026-12-01 20:00``, ISO, ``+2d``):
        a relative span extends the current deadline (from now with
        ``from_now``); a deadline earlier than the current one is refused unless
        ``earlier``. A notice to every player is drafted in the outbox
        (:attr:`notices_drafted` lists them)."""
        from .deadlines import moved

        with self.locked():
            pos = self.position()
            if pos.game.finished:
                raise GameError("the game is over; there is no deadline to move")
            zone = self.zone
            current = self.deadline()
            now = self.now()
            moment = moved(when, current, zone, now, from_now=from_now, earlier=earlier)
            deadlines = self.store.read_deadlines()
            deadlines[str(pos.game.turn)] = moment.isoformat(timespec="seconds")
            self.notices_drafted = self._draft_notices(pos, current, moment)
            self.store.write_deadlines(deadlines)
            return moment

    notices_drafted: list[str] = []

    def _draft_notices(self, pos: Position, current: datetime | None, moment: datetime) -> list[str]:
        """A notice to every player that the deadline of the awaited turn is now ``moment``."""
        from .deadlines import time_left
        from .notices import draft_deadline_notices
        from .outbox import Outbox

        return draft_deadline_notices(
            Outbox(self.folder),
            self._renderer(),
            self.config,
            campaign=self.name,
            players=pos.players,
            turn=pos.game.turn,
            deadline=self.deadline_text(moment),
            previous=self.deadline_text(current),
            later=current is None or moment >= current,
            left=time_left(moment, self.now()),
        )

    def add_note(self, text: str) -> None:
        """A GM's note for the next public report."""
        with self.locked():
            turn = self.position().game.turn
            self.store.add_note(turn, text)

    def _notes(self, turn: int) -> list[str]:
        return self.store.read_notes(turn)

    # -- reading the position ------------------------------------------------
    def started(self) -> bool:
        return self.store.latest_turn() is not None

    _position: Position | None = None
    _position_files: tuple[Any, ...] | None = None  # the files it was read from, as they were

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the campaign's lock; what was read before it is read again, unless its
        files are the very ones it was read from (:meth:`_position_version`)."""
        with self.store.locked():
            # another command may have written before we got the lock
            if self._position is not None:
                version = self._position_version()
                if version is None or version != self._position_files:
                    self._position = None
            yield

    def position(self) -> Position:
        """The game as of the latest resolved turn (read once per command: every
        change of position goes through :meth:`_commit` or :meth:`rollback`,
        which forget it)."""
        if self._position is None:
            version = self._position_version()
            self._position = self._read_position()
            self._position_files = version
        return self._position

    def _position_version(self) -> tuple[Any, ...] | None:
        """The latest turn and the state of the files the position is read from (inode,
        size, modification and change times); None when one was changed less than 2 s
        ago, where a rewrite of the same size could keep its times: never the same."""
        import time

        latest = self.store.latest_turn()
        if latest is None:
            return None
        version: list[Any] = [latest]
        newest = 0
        for path in (self.store.turn_dir(latest) / STATE, self.store.root / ROSTER):
            try:
                info = os.stat(path)
            except FileNotFoundError:
                version.append(None)
                continue
            version.append((info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns))
            newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
        return tuple(version) if newest < time.time_ns() - 2_000_000_000 else None

    def _read_position(self) -> Position:
        latest = self.store.latest_turn()
        if latest is None:
            raise GameError(f"{self.folder}: the game has not been started; run `pbem start {self.folder}`")
        data = self.store.read_json(latest, STATE)
        players = self.store.read_roster() or list(data["players"])  # after `pbem replace`
        opened = datetime.fromisoformat(data.get("opened_at") or "1970-01-01T00:00:00+00:00")
        known = from_json(data["knowledge"]) if "knowledge" in data else None
        return Position(latest, Game.from_dict(data["game"]), players, data["seed"], opened, known)

    def _table(self, players: list[str]) -> Table:
        return Table(self.name, self.config.title, players)

    def _renderer(self) -> Renderer:
        return Renderer(self.store.templates_dir())

    # -- start -------------------------------------------------------------------
    def start(self) -> TurnResult:
        """Validate ``campaign.yaml``, deal the thirteen hands, draft the opening reports."""
        config = self.config
        _ = self.schedule  # a bad deadline: section fails here, before anything is written
        from .seats import parse_disorder, parse_standby  # and bad civil_disorder: or standby: ones

        parse_disorder(config.extra.get("civil_disorder"))
        parse_standby(config.extra.get("standby"))
        check_tag(self.name)
        check_names_apart(config.players, str(self.folder / CAMPAIGN_FILE))
        with self.locked():
            if self.started():
                raise GameError(f"{self.folder}: the game has already started")
            if config.seed is not None:
                seed = config.seed
            else:
                import secrets

                seed = secrets.token_hex(16)  # 128 bits: nobody can guess it
            players = config.names
            decks = {h: config.decks.get(h) or shuffled_deck(seed, h, len(players)) for h in range(1, 14)}
            game = Game.new(len(players), decks)
            result = self._commit(0, game, deal_events(game), players, seed, {})
            if config.seed is not None and weak_seed(config.seed) and not config.decks:
                weak = (
                    f"the seed {config.seed!r} is short: anyone who guesses it can rebuild "
                    f"every deck from it. For a real game, leave seed: out (pbem draws a "
                    f"128-bit one) or use a long random one; keep it secret."
                )
                result.warning = " ".join(filter(None, [result.warning, weak]))  # keep the site's warning
            return result

    # -- orders --------------------------------------------------------------------
    def record_orders(self, player: str, text: str, source: str = "gm", turn: int | None = None) -> Receipt:
        """Record the orders in ``text`` from ``player``. Each is accepted,
        completed or rejected (RULES 3); a later order for a hand replaces the
        earlier one. ``turn``, when given, is the turn the player meant (from
        their mail): orders for another turn than the awaited one are rejected."""
        with self.locked():
            book = self.order_book()
            before = self.deadline()
            receipt = book.submit(player, text, source, turn)
            book.save()
            if receipt.absence is not None and receipt.absence["status"] in ("accepted", "back"):
                receipt.absence["deadline"] = self.absence_changed(before)  # ABSENT / BACK
            return receipt

    def order_book(self) -> OrderBook:
        """The orders on file for the awaited turn, to add to in memory and save
        once (the caller holds the lock)."""
        pos = self.position()
        if pos.game.finished:
            raise GameError("the game is over; no more orders are taken")
        from .config import NMR_PROXY, nmr_policy, proxy_allowed

        config = self.config
        everyone = nmr_policy(config) == NMR_PROXY
        return OrderBook(
            self.store,
            pos,
            self.clock,
            self._player,
            proxy_allowed(config),
            everyone,
            absence_policy=self.absence_policy,
            zone=self.zone,
        )

    def _player(self, given: str, players: list[str]) -> str:
        key = name_key(given.strip())
        for name in players:
            if name_key(name) == key:
                return name
        raise GameError(f"{given!r} is not a player of this game (players: {', '.join(players)})")

    def missing_orders(self) -> dict[str, list[int]]:
        """Player -> hands in which no order is on file for the awaited turn."""
        pos = self.position()
        return missing_hands(pos, self.store.read_orders(pos.game.turn))

    # -- resolve ---------------------------------------------------------------------------
    def resolve(self, force: bool = False) -> TurnResult:
        """Resolve the awaited turn and draft its reports. Without ``force``,
        refuses while orders are missing and the deadline has not passed; with
        it, or once the deadline has passed, missing orders get the NMR defaults
        (RULES 5)."""
        with self.locked():
            pos = self.position()
            game = pos.game
            if game.finished:
                raise GameError("the game is over; there is no turn to resolve")
            missing = self.missing_orders()
            deadline = self.deadline()
            passed = deadline is not None and self.now() >= deadline
            if missing and not force and not passed:
                raise MissingOrders(game.turn, missing, self.deadline_text(deadline))
            orders, records = self._orders_for_engine(pos)
            standing = self._standing_for_engine(pos)
            new, events = resolve_turn(game, orders, pos.seed, standing=standing)
            return self._commit(game.turn, new, events, pos.players, pos.seed, records, standing)

    def _standing_for_engine(self, pos: Position) -> dict[int, dict[int, bool]]:
        """The "if Bishop" orders received for the awaited turn: hand -> seat ->
        discard? (RULES 10.3). Those of hands over or players out change nothing."""
        out: dict[int, dict[int, bool]] = {}
        for name, per_hand in self.store.read_standing(pos.game.turn).items():
            if name not in pos.players:
                continue
            for h, what in per_hand.items():
                out.setdefault(int(h), {})[pos.players.index(name)] = what == "discard"
        return out

    def _orders_for_engine(self, pos: Position) -> tuple[dict[int, Order | None], dict[str, Any]]:
        """The orders on file, checked again against the position (an order
        that no longer fits is dropped and the hand played by default)."""
        game = pos.game
        on_file = self.store.read_orders(game.turn)
        proxied = self.proxied(pos)
        orders: dict[int, Order | None] = {}
        records: dict[str, dict[str, Any]] = {}
        for seat, hands in game.awaited().items():
            name = pos.players[seat]
            for h in hands:
                record = on_file.get(name, {}).get(str(h))
                checked = None
                if record is not None:
                    written = order_as_read(record, h, pos.players, name)
                    if written is not None:
                        checked = check_order(written, game, pos.players, name)
                if checked is None or checked.status == REJECTED:
                    orders[h] = None
                    records[str(h)] = {"player": name, "status": "nmr"}
                    if name in proxied:
                        order = self._proxy_play(pos, h, seat)
                        orders[h] = order
                        records[str(h)] = {"player": name, "status": "proxy", "engine": order_to_json(order)}
                else:
                    assert record is not None  # checked: it was read from this record
                    orders[h] = checked.order
                    records[str(h)] = {
                        "player": name,
                        "status": checked.status,
                        "text": record["text"],
                        "order": checked.written.canonical(),
                        "engine": order_to_json(checked.order),
                    }
                    if checked.written.target_text:  # a name that names nobody: the report quotes it
                        records[str(h)]["target_text"] = as_written(
                            checked.written.target_text, record["text"]
                        )
        return orders, records

    def proxied(self, pos: Position | None = None) -> set[str]:
        """The players whose missing orders the proxy plays: everyone with
        ``nmr: proxy``, else those who sent PROXY ON (unless ``proxy: false``)."""
        from .absence import PROXY, away_on
        from .config import NMR_PROXY, nmr_policy, proxy_allowed

        pos = pos or self.position()
        if nmr_policy(self.config) == NMR_PROXY:
            return set(pos.players)
        away: set[str] = set()
        if self.absence_policy.then == PROXY:  # an absent player's missing orders: the proxy's
            away = set(away_on(self.store.read_absences(), self.now().astimezone(self.zone).date()))
        if not proxy_allowed(self.config):
            return away
        asked = self.store.read_proxy()
        return away | {name for name in pos.players if asked.get(name, {}).get("proxy") == "on"}

    def _proxy_play(self, pos: Position, number: int, seat: int) -> Order:
        """The proxy's play for ``seat`` in hand ``number``: from what that player
        knows (their cards, the public state, what their private mail told them),
        with its own generator derived from the seed, the turn and the hand."""
        import random

        from .proxy import decide, seen_by

        game = pos.game
        known = self._known_before(game.turn)
        rng = random.Random(f"{pos.seed}/proxy/turn/{game.turn}/hand/{number}")
        return decide(seen_by(game.hand(number), seat, known), rng)

    def _commit(
        self,
        turn: int,
        game: Game,
        events: list[ev.Event],
        players: list[str],
        seed: str,
        records: dict[str, Any],
        standing: Mapping[int, Mapping[int, bool]] | None = None,
    ) -> TurnResult:
        """Render the reports and write the turn folder in one step."""
        table = self._table(players)
        renderer = self._renderer()
        opened_at = self.now()
        deadline = ""
        if not game.finished and self.schedule is not None:
            from .deadlines import scheduled

            deadline = self.deadline_text(scheduled(self.schedule, game.turn, opened_at))
        public = self._public_report(
            table, renderer, turn, game, events, players, seed, records, standing, deadline
        )
        known = still_open(update(self._known_before(turn), turn, events), game)
        private = {
            name: renderer.private(
                private_context(
                    table,
                    turn,
                    game,
                    events,
                    seat,
                    code=order_code(seed, name),
                    deadline=deadline,
                    known=known,
                    orders=records,
                )
            )
            for seat, name in enumerate(players)
        }
        state = {
            "turn": turn,
            "players": players,
            "seed": seed,
            "opened_at": opened_at.isoformat(timespec="seconds"),
            "game": game.to_dict(),
            "knowledge": to_json(known),  # the next turn's private mails start from it
        }
        files = self._turn_files(state, events, records, standing, public, private)
        files.update(self._turn_mails(turn, game, public, private, players))
        warning = self._write_turn(turn, files)
        return self._turn_result(turn, game, events, public, private, records, warning)

    def _public_report(
        self,
        table: Table,
        renderer: Renderer,
        turn: int,
        game: Game,
        events: list[Any],
        players: list[str],
        seed: str,
        records: dict[str, Any],
        standing: Mapping[int, Mapping[int, bool]] | None,
        deadline: str,
    ) -> str:
        """The turn's public report: the events, the GM's notes, the next deadline, the
        opening commitments (turn 0), who is away; and, once the game is over, the
        final record (with what verify needs to render this report again)."""
        context = public_context(
            table, turn, game, events, notes=self._notes(game.turn - 1), deadline=deadline, orders=records
        )
        if turn == 0:
            context["commitments"] = commitments(seed, game)
        if not game.finished:
            context["away"] = self.away()  # who is away (never why)
            context["disorder"] = self._disorder_marked(turn, records, players, events, game)
        if game.finished:
            report = {  # what verify needs beyond the game to render this report again
                "title": table.title,
                "notes": context["notes"],
                "templates": template_digests(renderer.env, "public.txt.j2"),
            }
            context["record"] = record_block(
                game_record(
                    self.store, self.name, players, seed, turn, game, events, records, standing or {}, report
                )
            )
        return str(renderer.public(context))

    def _write_turn(self, turn: int, files: dict[str, str]) -> str:
        """Write the turn folder (the commit), then copy its drafts to the outbox and
        rebuild the site; returns the warning for what failed after the commit (the
        turn stays resolved), "" when nothing did. An error before the commit raises."""
        warning = ""
        try:
            folder = self.store.write_turn(turn, files)
        except OSError as e:  # the rename is the commit: an error after it (syncing) does not undo it
            folder = self.store.turn_dir(turn)
            if not folder.is_dir():
                raise
            warning = (
                f"the turn is resolved, but making its folder durable failed ({e}); "
                f"check the disk: a power cut before the system writes it could lose the turn"
            )
        self._position = None
        what = f"turn {turn} is resolved" if turn else "the game is started"
        self.done.append(f"{what}; its reports are drafted in {self.store.reports_dir(turn)}")
        try:  # the turn is resolved now; the outbox copy can be redone at any time
            from .outbox import publish

            publish(self.folder, folder)
        except BaseException as e:  # noqa: BLE001 - even Ctrl-C: the turn *is* resolved
            what = "interrupted" if isinstance(e, KeyboardInterrupt) else f"failed ({e})"
            warning = (
                f"the turn is resolved, but copying its mail drafts to the outbox {what}; "
                f"`pbem preview {self.folder}` finishes it"
            )
        return " ".join(filter(None, [warning, self._rebuild_site()]))

    @staticmethod
    def _turn_files(
        state: dict[str, Any],
        events: list[Any],
        records: dict[str, Any],
        standing: Mapping[int, Mapping[int, bool]] | None,
        public: str,
        private: dict[str, str],
    ) -> dict[str, str]:
        """A turn folder's files (but its mail drafts), by name in it: the STATE, the events,
        the orders played (not at turn 0), the standing orders used, the reports."""
        files = {
            STATE: dump_json(state),
            EVENTS: dump_json([ev.to_dict(e) for e in events]),
            PUBLIC_REPORT: public,
        }
        if state["turn"]:
            files[TURN_ORDERS] = dump_json(records)
        if standing:
            files[STANDING] = dump_json(
                {str(h): {str(s): v for s, v in per.items()} for h, per in standing.items()}
            )
        for name, text in private.items():
            files[private_report(name)] = text
        return files

    @staticmethod
    def _turn_result(
        turn: int,
        game: Game,
        events: list[Any],
        public: str,
        private: dict[str, str],
        records: dict[str, Any],
        warning: str,
    ) -> TurnResult:
        """What a resolved turn gives back, with the hands whose orders were the NMR
        default and those the proxy played, per player (from the RECORDS played)."""
        defaults: dict[str, list[int]] = {}
        proxied: dict[str, list[int]] = {}
        for h, rec in records.items():
            if rec["status"] == "nmr":
                defaults.setdefault(rec["player"], []).append(int(h))
            elif rec["status"] == "proxy":
                proxied.setdefault(rec["player"], []).append(int(h))
        result = TurnResult(turn, game, events, public, private, defaults, warning)
        result.proxied = proxied
        return result

    def _disorder_marked(
        self, turn: int, records: dict[str, Any], players: list[str], events: list[Any], game: Game
    ) -> list[str]:
        """The players whose seat this turn's public report says is in civil disorder
        (``civil_disorder: {mark: true}``, :mod:`pbem.seats`): names, never why but "missed turns"."""
        if not turn or "civil_disorder" not in self.config.extra:
            return []
        from . import seats

        day = self.now().astimezone(self.zone).date()
        public = [ev.to_dict(e) for e in events if e.kind in seats.KINDS]
        facts = seats.facts_of(turn, records, players, public, game.tokens, day)
        return seats.marked(self.store, self.config, self.zone, facts)

    def _rebuild_site(self) -> str:
        """Rebuild the web pages when campaign.yaml asks for them (``site:``); a
        failure is a warning: the turn is resolved, `pbem site` redoes the pages."""
        from .config import site_out

        out = site_out(self.config, self.folder)
        if out is None:
            return ""
        try:
            from .site import build_site  # jinja and the site's templates: only for campaigns with a site

            build_site(self.folder, out)
        except Exception as e:  # noqa: BLE001 - whatever went wrong, the turn stays resolved
            return f"the web pages in {out} were not rebuilt ({e}); `pbem site {self.folder}` retries"
        return ""

    def _known_before(self, turn: int) -> Knowledge:
        """What players knew of each other's cards before ``turn``: the record
        kept with the previous turn's state, or, for a campaign begun by an
        older pbem that kept none, rebuilt from every earlier turn's events."""
        if turn == 0:
            return {}
        pos = self.position()
        if pos.turn_on_file == turn - 1 and pos.known is not None:
            return pos.known
        known: Knowledge = {}
        for t in self.store.turns():
            if 0 < t < turn:
                known = update(known, t, [ev.from_dict(e) for e in self.store.read_json(t, EVENTS)])
        return known

    def _turn_mails(
        self, turn: int, game: Game, public: str, private: dict[str, str], players: list[str]
    ) -> dict[str, str]:
        """The turn's mail drafts, as files of the turn folder (written with it, at once)."""
        from .outbox import turn_mails

        by_name = {p.name: p for p in self.config.players}
        people = [by_name[name] for name in players if name in by_name]
        generation = 1 + self.store.rolled_back_count(turn)
        return turn_mails(
            self.folder, self.name, turn, generation, game.finished, self.config.gm, people, public, private
        )

    def publish_drafts(self) -> list[str]:
        """Finish copying the latest turn's drafts to the outbox, and taking
        those of rolled-back turns out of it (after a crash)."""
        from .outbox import publish

        self.withdraw_drafts()
        latest = self.store.latest_turn()
        return [] if latest is None else publish(self.folder, self.store.turn_dir(latest))

    def withdraw_drafts(self) -> list[str]:
        """Take the unsent drafts of every rolled-back turn out of the outbox."""
        from .outbox import withdraw

        return withdraw(self.folder, self.store.rolled_back_dirs())

    # -- replacing a player ------------------------------------------------------------------
    def replace_player(
        self, old: str, name: str | None = None, email: str | None = None, *, standby: bool = False
    ) -> str:
        """Give a seat a new name and/or address: cards, tokens and orders on file
        stay with the seat. ``standby``: to the first of campaign.yaml's ``standby:``
        list, who leaves it. ``campaign.yaml`` is rewritten (the old one is kept as
        ``campaign.yaml.bak``); the seat's tenures (:mod:`pbem.seats`) say who held it
        from which turn: a new name and a new address (or a standby) is someone else.
        Returns the seat's name now."""
        from .config import (
            config_from_data,
            config_to_data,
            dump_config,
            dump_data,
            own_settings,
            shared_settings,
        )

        with self.locked():
            pos = self.position()
            old = self._player(old, pos.players)
            config = self.config
            from . import seats

            rest = None
            if standby:
                person, rest = seats.take_standby(config)
                name, email = person["name"], person["email"]
            holder = next(p for p in config.players if p.name == old)
            same_person = not standby and (name in (None, old) or email in (None, holder.email))
            people = []
            for p in config.players:
                if p.name == old:
                    people.append({"name": name or p.name, "email": email or p.email})
                else:
                    people.append({"name": p.name, "email": p.email})
            new_name = name or old
            data: dict[str, Any] = {"players": people}
            if rest is not None:
                data["standby"] = rest
            candidate = config_from_data({**config_to_data(config), **data}, CAMPAIGN_FILE)  # validates
            check_names_apart(candidate.players, CAMPAIGN_FILE)
            roster = [new_name if n == old else n for n in pos.players]
            path = self.store.campaign_file
            write_atomic(self.store.campaign_backup, path.read_bytes())
            if new_name != old:
                self._rename_on_file(pos.game.turn, old, new_name)
            self.store.write_roster(roster)
            seat = pos.players.index(old)
            held = seats.tenures(self.store.read_seats(), [(p.name, p.email) for p in config.players])
            after = seats.hand_over(
                held, seat, pos.game.turn, new_name, email or holder.email, same_person=same_person
            )
            self.store.write_seats({**self.store.read_seats(), "version": 1, "tenures": after})
            self._position = None
            if shared_settings(self.folder) is None:
                write_atomic(path, dump_config(candidate))
            else:  # the shared settings stay in pbem.yaml: only the seats change here
                write_atomic(path, dump_data({**own_settings(self.folder), **data}))
            self._config = candidate
            self.welcome_drafted = None
            if not same_person:  # someone new holds the seat: a notice tells them so
                self.welcome_drafted = seats.draft_welcome(
                    self.store,
                    candidate,
                    campaign=self.name,
                    seat=seat,
                    before=old,
                    turn=pos.game.turn,
                    deadline=self.deadline_text(self.deadline()),
                    code=order_code(pos.seed, new_name),
                )
            return new_name

    def _rename_on_file(self, turn: int, old: str, new_name: str) -> None:
        """What the awaited turn holds under a seat's old name, moved to its new one
        (:meth:`replace_player`): the orders on file, the standing "if Bishop" orders,
        a PROXY ON. They stay with the seat."""
        on_file = self.store.read_orders(turn)
        if old in on_file:
            on_file[new_name] = on_file.pop(old)
            self.store.write_orders(turn, on_file)
        standing = self.store.read_standing(turn)
        if old in standing:
            standing[new_name] = standing.pop(old)
            self.store.write_standing(turn, standing)
        asked = self.store.read_proxy()
        if old in asked:
            asked[new_name] = asked.pop(old)
            self.store.write_proxy(asked)

    #: The notice drafted to the new holder of a seat by the latest :meth:`replace_player`.
    welcome_drafted: str | None = None

    # -- rollback ------------------------------------------------------------------------------
    #: How long a rollback waits for a send (``pbem send``, a tick) to finish.
    SEND_WAIT = 60.0

    def rollback(self) -> int:
        """Undo the latest resolution; its orders stay on file to be corrected.
        Returns the turn that is awaited again.

        A send running meanwhile would mail the undone turn's drafts after the
        rollback returned: the rollback holds the sent ledger's lock, which every
        send holds while it picks and sends its drafts, so it waits for a running
        send to finish (up to ``SEND_WAIT`` seconds, then nothing is done), and a
        send started meanwhile waits for it, then finds the drafts withdrawn."""
        from .transport.ledger import LedgerBusy, SentLedger

        if not self.folder.is_dir():  # the ledger's lock must not create a mistyped folder
            raise StoreError(f"{self.folder}: no such campaign folder")
        self._check_rollback()  # a refused rollback leaves no trace, not even a lock file
        try:
            with SentLedger(self.store.sent_ledger).lock(wait=self.SEND_WAIT):
                return self._rollback()
        except LedgerBusy:
            raise GameError(
                f"a `pbem send` or `pbem tick` is sending this campaign's mail and has not "
                f"finished after {self.SEND_WAIT:.0f} s; nothing was rolled back. Wait for it to "
                f"finish (or stop it), then roll back again"
            ) from None

    def _check_rollback(self) -> int:
        latest = self.store.latest_turn()
        if latest is None:
            raise GameError("the game has not been started")
        if latest == 0:
            raise GameError("nothing to roll back: no turn has been resolved yet")
        return latest

    def _rollback(self) -> int:
        with self.locked():
            latest = self._check_rollback()  # again: another command may have rolled back meanwhile
            # The move is the commit; the drafts follow, and if a crash stops
            # them, every command that sends takes them out first (withdraw_drafts).
            warnings = []
            try:
                self.store.roll_back(latest)
            except OSError as e:
                if self.store.turn_dir(latest).is_dir():
                    raise  # not moved: nothing was rolled back
                warnings.append(
                    f"turn {latest} is rolled back, but making that durable failed ({e}); check the "
                    f"disk: a power cut before the system writes it could bring the turn back"
                )
            self._position = None
            self.done.append(f"turn {latest} is rolled back (its orders are still on file)")
            try:
                self.withdraw_drafts()
            except OSError as e:
                warnings.append(
                    f"its unsent drafts are not all taken out of the outbox yet ({e}); "
                    f"`pbem preview` or `pbem send` takes them out first"
                )
            warnings.append(self._rebuild_site())  # the undone turn leaves the web pages too
            self.site_warning = " ".join(filter(None, warnings))
            return latest

    #: What went wrong after a rollback's commit: syncing it, withdrawing its drafts,
    #: rebuilding the web pages ("" when nothing did). The turn is rolled back all the same.
    site_warning = ""

    # -- reading reports and state ------------------------------------------------------------
    def report(self, turn: int | None = None, player: str | None = None) -> str:
        pos = self.position()
        turn = pos.turn_on_file if turn is None else turn
        if turn not in self.store.turns():
            raise GameError(
                f"there is no report of turn {turn} (turns on file: "
                f"{', '.join(map(str, self.store.turns()))})"
            )
        if player is None:
            return self.store.read_text(turn, PUBLIC_REPORT)
        name = self._player(player, pos.players)
        return self.store.read_text(turn, private_report(name))

    def export(self) -> dict[str, Any]:
        """The whole state as INTERFACE.md's JSON (see :mod:`pbem.views`)."""
        from .views import export_view  # only `pbem export` needs it: kept off the other commands' start-up

        pos = self.position()
        on_file = self.store.read_orders(pos.game.turn) if not pos.game.finished else {}
        return export_view(self.name, pos, on_file)

    def status(self) -> dict[str, Any]:
        """What the GM needs at a glance: turn, hands in play, who owes what, tokens
        (see :mod:`pbem.views`). (The mail side, refused messages and held
        acknowledgements, is the inbox's: :func:`pbem.inbox.refused_messages`,
        :func:`pbem.inbox.held_acks`.)"""
        from .views import status_view  # only `pbem status` and the tick need it: kept off resolve's start-up

        pos = self.position()
        info = status_view(
            self.name, pos, self.store.read_orders(pos.game.turn), self._deadline_status(pos.game)
        )
        info["proxy"] = [] if pos.game.finished else [n for n in pos.players if n in self.proxied(pos)]
        info["away"] = [] if pos.game.finished else self.away()
        from .seats import status as seats_status  # civil disorder, the standby, tenures

        info.update(seats_status(self.store, self.config, self.zone))
        return info

    def _deadline_status(self, game: Game) -> dict[str, Any] | None:
        if game.finished:
            return None
        deadline = self.deadline()
        if deadline is None:
            return None
        from .deadlines import time_left

        return {
            "at": deadline.isoformat(timespec="seconds"),
            "text": self.deadline_text(deadline),
            "left": time_left(deadline, self.now()),
            "passed": self.now() >= deadline,
        }


__all__ = [
    "Campaign",
    "GameError",
    "MissingOrders",
    "Receipt",
    "TurnResult",
    "ConfigError",
    "StoreError",
    "order_code",
    "ACCEPTED",
    "COMPLETED",
    "REJECTED",
]
