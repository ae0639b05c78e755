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
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

from . import events as ev
from .cards import Card
from .config import CAMPAIGN_FILE, CampaignConfig, ConfigError, check_names_apart, load_config
from .engine import PAIRED, PREMIUM_PLAYERS, Game, Order, derive_secret, resolve_turn, shuffled_deck
from .grammar import format_code, is_plain_tag
from .orders import (ACCEPTED, COMPLETED, REJECTED, CheckedOrder, as_written, check_order, name_key,
                     one_order_per_hand, parse_orders)
from .reports import KNOWLEDGE_KINDS, Renderer, Table, private_context, public_context
from .record import build_record, commitments, order_to_json, record_block
from .store import CampaignStore, StoreError, dump_json

TAG_MAX = 40  # the longest campaign tag grammar.TAG_WORD reads in a subject

class GameError(RuntimeError):
    """What the GM asked for cannot be done now; the message says why and what to do."""


class MissingOrders(GameError):
    """``resolve`` without ``--force`` while orders are missing."""

    def __init__(self, turn: int, missing: dict[str, list[int]], deadline: str = ""):
        self.turn = turn
        self.missing = missing
        who = "; ".join(f"{name}: hand{'s' if len(h) > 1 else ''} {', '.join(map(str, h))}"
                        for name, h in missing.items())
        due = f" The deadline is {deadline}; after it, resolve plays them by default." if deadline else ""
        super().__init__(f"turn {turn} cannot be resolved yet, orders are missing from {who}.{due} "
                         f"Record them, or use --force to play the missing ones by the NMR defaults.")


class Receipt(NamedTuple):
    """What became of one submission of orders."""

    player: str
    turn: int
    checked: list[CheckedOrder]
    ignored: list[str]
    on_file: dict[int, dict]          # hand -> order on file after this submission
    missing: list[int]                # hands still without an order

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
        out.append(f"  still missing: {', '.join(map(str, self.missing)) if self.missing else 'none'}")
        return out


class TurnResult:
    """A turn just resolved (or the start): the new game, its events and reports."""

    def __init__(self, turn: int, game: Game, events: list, public_report: str,
                 private_reports: dict[str, str], defaults: dict[str, list[int]], warning: str = ""):
        self.turn = turn
        self.game = game
        self.events = events
        self.public_report = public_report
        self.private_reports = private_reports
        self.defaults = defaults      # player -> hands played by the NMR defaults
        self.warning = warning        # something the GM should know (the turn is resolved all the same)


class Position(NamedTuple):
    """The game as of the latest resolved turn."""

    turn_on_file: int        # the latest turn folder (0: the start)
    game: Game
    players: list[str]
    seed: str
    opened_at: datetime      # when the awaited turn opened (the latest turn folder was written)


def missing_hands(position: Position, on_file: dict) -> dict[str, list[int]]:
    """Player -> hands in which they must play and have no order on file."""
    out = {}
    for seat, hands in position.game.awaited().items():
        name = position.players[seat]
        mine = on_file.get(name, {})
        missing = [h for h in hands if str(h) not in mine]
        if missing:
            out[name] = missing
    return out


def check_tag(name: str) -> None:
    """The campaign folder's name is its tag in every mail subject (``[game7]
    Turn 3``): replies are matched on it, so it must be one plain word."""
    if len(name) > TAG_MAX and is_plain_tag(name[:TAG_MAX]):
        raise GameError(f"the campaign folder's name {name!r} is the campaign's tag in mail subjects "
                        f"([{name[:12]}...] Turn 1): it is {len(name)} characters long, at most {TAG_MAX} "
                        f"fit; choose a shorter folder name (e.g. game7)")
    if not is_plain_tag(name):
        raise GameError(f"the campaign folder's name {name!r} is the campaign's tag in mail subjects "
                        f"([{name}] Turn 1): use only letters, digits, '_', '.' and '-' (e.g. game7)")


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

    from .config import CAMPAIGN_FILE
    from .store import LOCK_FILE

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
        return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    return datetime.now(timezone.utc)


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
    def schedule(self):
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
            return datetime.fromisoformat(override)
        if self.schedule is None:
            return None
        from .deadlines import scheduled

        return scheduled(self.schedule, pos.game.turn, pos.opened_at)

    def deadline_text(self, deadline: datetime | None) -> str:
        """A deadline as players read it, in the campaign's time zone and UTC
        ("" for none)."""
        if deadline is None:
            return ""
        from .deadlines import describe

        zone = self.schedule.zone if self.schedule is not None else timezone.utc
        return describe(deadline, zone)

    def set_deadline(self, when: str) -> datetime:
        """Move the awaited turn's deadline (``2026-12-01 20:00``, ISO, ``+2d``)."""
        from zoneinfo import ZoneInfo

        from .deadlines import parse_when

        with self.locked():
            pos = self.position()
            if pos.game.finished:
                raise GameError("the game is over; there is no deadline to move")
            zone = self.schedule.zone if self.schedule is not None else ZoneInfo("UTC")
            moment = parse_when(when, zone, self.now(), where="pbem deadline")
            deadlines = self.store.read_deadlines()
            deadlines[str(pos.game.turn)] = moment.isoformat(timespec="seconds")
            self.store.write_deadlines(deadlines)
            return moment

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

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the campaign's lock; what was read before it is read again."""
        with self.store.locked():
            self._position = None  # another command may have written before we got the lock
            yield

    def position(self) -> Position:
        """The game as of the latest resolved turn (read once per command: every
        change of position goes through :meth:`_commit` or :meth:`rollback`,
        which forget it)."""
        if self._position is None:
            self._position = self._read_position()
        return self._position

    def _read_position(self) -> Position:
        latest = self.store.latest_turn()
        if latest is None:
            raise GameError(f"{self.folder}: the game has not been started; run `pbem start {self.folder}`")
        data = self.store.read_json(latest, "state.json")
        players = self.store.read_roster() or list(data["players"])  # after `pbem replace`
        opened = datetime.fromisoformat(data.get("opened_at") or "1970-01-01T00:00:00+00:00")
        return Position(latest, Game.from_dict(data["game"]), players, data["seed"], opened)

    def _table(self, players: list[str]) -> Table:
        return Table(self.name, self.config.title, players)

    def _renderer(self) -> Renderer:
        return Renderer(self.store.templates_dir())

    # -- start -------------------------------------------------------------------
    def start(self) -> TurnResult:
        """Validate ``campaign.yaml``, deal the thirteen hands, draft the opening reports."""
        config = self.config
        self.schedule  # a bad deadline: section fails here, before anything is written
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
            result = self._commit(0, game, [], players, seed, {})
            if config.seed is not None and weak_seed(config.seed) and not config.decks:
                weak = (f"the seed {config.seed!r} is short: anyone who guesses it can rebuild "
                        f"every deck from it. For a real game, leave seed: out (pbem draws a "
                        f"128-bit one) or use a long random one; keep it secret.")
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
            receipt = book.submit(player, text, source, turn)
            book.save()
            return receipt

    def order_book(self) -> "OrderBook":
        """The orders on file for the awaited turn, to add to in memory and save
        once (the caller holds the lock)."""
        pos = self.position()
        if pos.game.finished:
            raise GameError("the game is over; no more orders are taken")
        return OrderBook(self, pos)

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

    def _orders_for_engine(self, pos: Position) -> tuple[dict[int, Order | None], dict]:
        """The orders on file, checked again against the position (an order
        that no longer fits is dropped and the hand played by default)."""
        game = pos.game
        on_file = self.store.read_orders(game.turn)
        orders: dict[int, Order | None] = {}
        records: dict[str, dict] = {}
        for seat, hands in game.awaited().items():
            name = pos.players[seat]
            for h in hands:
                record = on_file.get(name, {}).get(str(h))
                checked = None
                if record is not None:
                    written = parse_orders(record["text"], pos.players, name).orders
                    written = [w for w in written if w.hand == h and w.standing is None]
                    if written:
                        checked = check_order(written[-1], game, pos.players, name)
                if checked is None or checked.status == REJECTED:
                    orders[h] = None
                    records[str(h)] = {"player": name, "status": "nmr"}
                else:
                    orders[h] = checked.order
                    records[str(h)] = {"player": name, "status": checked.status,
                                       "text": record["text"], "order": checked.written.canonical(),
                                       "engine": order_to_json(checked.order)}
                    if checked.written.target_text:  # a name that names nobody: the report quotes it
                        records[str(h)]["target_text"] = as_written(checked.written.target_text, record["text"])
        return orders, records

    def _commit(self, turn: int, game: Game, events: list, players: list[str],
                seed: str, records: dict, standing: dict | None = None) -> TurnResult:
        """Render the reports and write the turn folder in one step."""
        table = self._table(players)
        renderer = self._renderer()
        opened_at = self.now()
        deadline = ""
        if not game.finished and self.schedule is not None:
            from .deadlines import scheduled

            deadline = self.deadline_text(scheduled(self.schedule, game.turn, opened_at))
        context = public_context(table, turn, game, events, notes=self._notes(game.turn - 1),
                                 deadline=deadline, orders=records)
        if turn == 0:
            context["commitments"] = commitments(seed, game)
        if game.finished:
            context["record"] = record_block(self._record(players, seed, turn, game, events, records,
                                                          standing or {}))
        public = renderer.public(context)
        earlier = self._earlier_events(turn)
        private = {
            name: renderer.private(private_context(table, turn, game, events, seat,
                                                   code=order_code(seed, name), deadline=deadline,
                                                   earlier=earlier, orders=records))
            for seat, name in enumerate(players)
        }
        files = {
            "state.json": dump_json({"turn": turn, "players": players, "seed": seed,
                                     "opened_at": opened_at.isoformat(timespec="seconds"),
                                     "game": game.to_dict()}),
            "events.json": dump_json([ev.to_dict(e) for e in events]),
            "reports/public.txt": public,
        }
        if turn:
            files["orders.json"] = dump_json(records)
        if standing:
            files["standing.json"] = dump_json({str(h): {str(s): v for s, v in per.items()}
                                                for h, per in standing.items()})
        for name, text in private.items():
            files[f"reports/private-{name}.txt"] = text
        files.update(self._turn_mails(turn, game, public, private, players))
        folder = self.store.write_turn(turn, files)
        self._position = None
        warning = ""
        try:  # the turn is resolved now; the outbox copy can be redone at any time
            from .outbox import publish

            publish(self.folder, folder)
        except BaseException as e:  # noqa: BLE001 - even Ctrl-C: the turn *is* resolved
            what = "interrupted" if isinstance(e, KeyboardInterrupt) else f"failed ({e})"
            warning = (f"the turn is resolved, but copying its mail drafts to the outbox {what}; "
                       f"`pbem preview {self.folder}` finishes it")
        warning = " ".join(filter(None, [warning, self._rebuild_site()]))
        defaults: dict[str, list[int]] = {}
        for h, rec in records.items():
            if rec["status"] == "nmr":
                defaults.setdefault(rec["player"], []).append(int(h))
        return TurnResult(turn, game, events, public, private, defaults, warning)

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

    def _earlier_events(self, turn: int) -> list[tuple[int, Any]]:
        """(turn, event) of the turns resolved before ``turn``, the kinds that
        tell what players learned then and whether it still holds (their
        private mail shows it): only those are decoded, for speed."""
        return [(t, ev.from_dict(e)) for t in self.store.turns() if 0 < t < turn
                for e in self.store.read_json(t, "events.json") if e["kind"] in KNOWLEDGE_KINDS]

    def _record(self, players: list[str], seed: str, turn: int, game: Game, events: list,
                records: dict, standing: dict) -> dict:
        """The whole game's record for the final report (see :mod:`pbem.record`)."""
        start = Game.from_dict(self.store.read_json(0, "state.json")["game"])
        turns = []
        for t in range(1, turn + 1):
            if t == turn:
                recs, evs, tokens = records, events, game.tokens
                stand = {str(h): {str(s): v for s, v in per.items()} for h, per in standing.items()}
            else:
                recs = self.store.read_json(t, "orders.json")
                evs = [ev.from_dict(e) for e in self.store.read_json(t, "events.json")]
                tokens = self.store.read_json(t, "state.json")["game"]["tokens"]
                path = self.store.turn_dir(t) / "standing.json"
                stand = self.store.read_json(t, "standing.json") if path.exists() else {}
            entry = {
                "turn": t,
                "orders": {h: (r.get("engine") if r["status"] != "nmr" else None) for h, r in recs.items()},
                "events": [ev.to_dict(e) for e in ev.public(evs)],
                "tokens": list(tokens),
            }
            if stand:
                entry["standing"] = stand
            turns.append(entry)
        return build_record(self.name, players, seed, start, turns, game)

    def _turn_mails(self, turn: int, game: Game, public: str, private: dict[str, str],
                    players: list[str]) -> dict[str, str]:
        """The turn's mail drafts, as files of the turn folder (written with it, at once)."""
        from .outbox import turn_mails

        by_name = {p.name: p for p in self.config.players}
        people = [by_name[name] for name in players if name in by_name]
        generation = 1 + self.store.rolled_back_count(turn)
        return turn_mails(self.folder, self.name, turn, generation, game.finished, self.config.gm,
                          people, public, private)

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
    def replace_player(self, old: str, name: str | None = None, email: str | None = None) -> str:
        """Give a seat a new name and/or address: cards, tokens and orders on file
        stay with the seat. ``campaign.yaml`` is rewritten (the old one is kept as
        ``campaign.yaml.bak``). Returns the seat's name now."""
        from .config import config_from_data, config_to_data, dump_config
        from .store import write_atomic

        with self.locked():
            pos = self.position()
            old = self._player(old, pos.players)
            config = self.config
            people = []
            for p in config.players:
                if p.name == old:
                    people.append({"name": name or p.name, "email": email or p.email})
                else:
                    people.append({"name": p.name, "email": p.email})
            new_name = name or old
            data = {"players": people}
            candidate = config_from_data({**config_to_data(config), **data}, CAMPAIGN_FILE)  # validates
            check_names_apart(candidate.players, CAMPAIGN_FILE)
            roster = [new_name if n == old else n for n in pos.players]
            path = self.folder / CAMPAIGN_FILE
            write_atomic(path.with_name(CAMPAIGN_FILE + ".bak"), path.read_bytes())
            if new_name != old:
                on_file = self.store.read_orders(pos.game.turn)
                if old in on_file:
                    on_file[new_name] = on_file.pop(old)
                    self.store.write_orders(pos.game.turn, on_file)
                standing = self.store.read_standing(pos.game.turn)  # "if Bishop" orders stay with the seat
                if old in standing:
                    standing[new_name] = standing.pop(old)
                    self.store.write_standing(pos.game.turn, standing)
            self.store.write_roster(roster)
            self._position = None
            write_atomic(path, dump_config(candidate))
            self._config = candidate
            return new_name

    # -- rollback ------------------------------------------------------------------------------
    def rollback(self) -> int:
        """Undo the latest resolution; its orders stay on file to be corrected.
        Returns the turn that is awaited again."""
        with self.locked():
            latest = self.store.latest_turn()
            if latest is None:
                raise GameError("the game has not been started")
            if latest == 0:
                raise GameError("nothing to roll back: no turn has been resolved yet")
            # The move is the commit; the drafts follow, and if a crash stops
            # them, every command that sends takes them out first (withdraw_drafts).
            self.store.roll_back(latest)
            self._position = None
            self.withdraw_drafts()
            self.site_warning = self._rebuild_site()  # the undone turn leaves the web pages too
            return latest

    #: What went wrong rebuilding the web pages after a rollback ("" when nothing did).
    site_warning = ""

    # -- reading reports and state ------------------------------------------------------------
    def report(self, turn: int | None = None, player: str | None = None) -> str:
        pos = self.position()
        turn = pos.turn_on_file if turn is None else turn
        if turn not in self.store.turns():
            raise GameError(f"there is no report of turn {turn} (turns on file: "
                            f"{', '.join(map(str, self.store.turns()))})")
        if player is None:
            return self.store.read_text(turn, "reports/public.txt")
        name = self._player(player, pos.players)
        return self.store.read_text(turn, f"reports/private-{name}.txt")

    def export(self) -> dict[str, Any]:
        """The whole state as INTERFACE.md's JSON."""
        pos = self.position()
        game, players = pos.game, pos.players
        on_file = self.store.read_orders(game.turn) if not game.finished else {}
        hands = []
        for h in game.hands:
            hands.append({
                "hand": h.number,
                "ended": h.ended,
                "active": None if h.active is None or h.ended else players[h.active],
                "draw_pile": len(h.pile),
                "set_aside": h.set_aside.title if h.set_aside else None,
                "winners": [players[s] for s in h.winners],
                **({"face_up": [c.title for c in h.face_up]} if game.players == 2 else {}),
                **({"marked": None if h.marked is None or h.ended else players[h.marked]}
                   if game.players in PREMIUM_PLAYERS else {}),
                "players": {
                    name: {
                        "in": h.alive[s],
                        "cards": [c.title for c in h.cards[s]] if h.alive[s] else [],
                        "discards": [c.title for c in h.discards[s]],
                        "protected": h.protected[s],
                    }
                    for s, name in enumerate(players)
                },
            })
        orders = {
            name: {hand: {k: rec[k] for k in ("card", "target", "guess", "targets", "look", "status")
                          if k in rec}
                   for hand, rec in sorted(per_hand.items(), key=lambda kv: int(kv[0]))}
            for name, per_hand in on_file.items()
        }
        return {
            "campaign": self.name,
            "players": players,
            "turn": game.turn,
            "finished": game.finished,
            "winners": [players[s] for s in game.winners],
            "tokens": dict(zip(players, game.tokens)),
            "hands": hands,
            "orders": orders,
        }

    def status(self) -> dict[str, Any]:
        """What the GM needs at a glance: turn, hands in play, who owes what, tokens.
        (The mail side, refused messages and held acknowledgements, is the
        inbox's: :func:`pbem.inbox.refused_messages`, :func:`pbem.inbox.held_acks`.)"""
        pos = self.position()
        game = pos.game
        return {
            "campaign": self.name,
            # the awaited turn; once the game is over, the turn it ended on
            "turn": game.turn - 1 if game.finished else game.turn,
            "finished": game.finished,
            "winners": [pos.players[s] for s in game.winners],
            "hands_in_play": [h.number for h in game.hands if not h.ended],
            "missing": {} if game.finished else self.missing_orders(),
            "on_file": {name: sorted(int(h) for h in hands)
                        for name, hands in self.store.read_orders(game.turn).items()},
            "tokens": dict(zip(pos.players, game.tokens)),
            "deadline": self._deadline_status(game),
        }

    def _deadline_status(self, game: Game) -> dict | None:
        if game.finished:
            return None
        deadline = self.deadline()
        if deadline is None:
            return None
        from .deadlines import time_left

        return {"at": deadline.isoformat(timespec="seconds"), "text": self.deadline_text(deadline),
                "left": time_left(deadline, self.now()), "passed": self.now() >= deadline}


class OrderBook:
    """The orders on file for the awaited turn, changed in memory, saved at once.

    ``pbem order`` submits one text; the mail reader submits a whole batch of
    messages and saves once (one write for the batch, not one per message).
    """

    def __init__(self, campaign: Campaign, position: Position):
        self.campaign = campaign
        self.position = position
        self.turn = position.game.turn
        self.on_file = campaign.store.read_orders(self.turn)
        self.standing = campaign.store.read_standing(self.turn)  # "if Bishop" orders (RULES 10.3)
        self.log: list[dict] = []

    def player(self, given: str) -> str:
        return self.campaign._player(given, self.position.players)

    def submit(self, player: str, text: str, source: str = "gm", turn: int | None = None) -> Receipt:
        pos = self.position
        name = self.player(player)
        game = pos.game
        parsed = parse_orders(text, pos.players, name)
        if turn is not None and turn != game.turn:
            why = (f"your message answers the mail of turn {turn}, which is over; turn {game.turn} is "
                   f"being played now: reply to the Turn {game.turn} mail")
            checked = [CheckedOrder(w, REJECTED, why) for w in parsed.orders]
        else:
            checked = one_order_per_hand([check_order(w, game, pos.players, name) for w in parsed.orders])
        mine = self.on_file.setdefault(name, {})
        now = self.campaign.now().isoformat(timespec="seconds")
        for c in checked:
            if c.status != REJECTED and c.written.standing:  # not a play: it replaces no play order
                self.standing.setdefault(name, {})[str(c.hand)] = c.written.standing
            elif c.status != REJECTED:
                mine[str(c.hand)] = _order_record(c, now, source, pos.players, name)
        if not mine:
            self.on_file.pop(name)
        self.log.append({
            "received": now, "player": name, "source": source, "text": text,
            "results": [{"hand": c.hand, "status": c.status, "reason": c.reason or c.note,
                         "order": c.written.canonical()} for c in checked],
        })
        return Receipt(name, game.turn, checked, parsed.ignored, self.mine(name), self.missing(name))

    def clear(self, player: str, source: str = "gm") -> None:
        """Drop every order of ``player`` for the awaited turn."""
        name = self.player(player)
        self.on_file.pop(name, None)
        now = self.campaign.now().isoformat(timespec="seconds")
        self.log.append({"received": now, "player": name, "source": source, "text": "CLEAR", "results": []})

    def mine(self, name: str) -> dict[int, dict]:
        return {int(h): o for h, o in sorted(self.on_file.get(name, {}).items(), key=lambda kv: int(kv[0]))}

    def missing(self, name: str) -> list[int]:
        return missing_hands(self.position, self.on_file).get(name, [])

    def save(self) -> None:
        """The orders file first, then the log: a crash in between loses no order."""
        store = self.campaign.store
        store.write_orders(self.turn, self.on_file)
        if self.standing:
            store.write_standing(self.turn, self.standing)
        store.log_submissions(self.turn, self.log)
        self.log = []


def _order_record(checked: CheckedOrder, when: str, source: str, players: list[str] = (),
                  me: str = "") -> dict:
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
        "reason": checked.reason,
        "note": checked.note,
        "received": when,
        "source": source,
    }


def _cardinal_look(w, me: str) -> str | None:
    """The player a Cardinal order looks at, the default filled in (RULES 10.3):
    the one named after "look", else the one of the two who is not the writer,
    else the first named."""
    names = [n for n in (w.target, w.second) if n is not None]
    if w.look is not None and w.look in names:
        return w.look
    if not names:
        return None
    return names[1] if names[0] == me and len(names) > 1 else names[0]


__all__ = ["Campaign", "GameError", "MissingOrders", "Receipt", "TurnResult", "ConfigError",
           "StoreError", "order_code", "ACCEPTED", "COMPLETED", "REJECTED"]
