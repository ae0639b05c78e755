"""A GM's folder of campaigns: every subfolder holding a ``campaign.yaml`` is a game.

``campaigns/pbem.yaml`` (optional) holds what the games share (the GM, the
``mail:`` section, defaults such as ``deadline:``); each game's own
``campaign.yaml`` overrides it key by key (:func:`pbem.config.shared_settings`).

The commands over a folder are loops over the very calls a single campaign
uses (:func:`each`): one game's broken file or failed send is reported by
its name, and the others go on.

Mail in over the folder is :func:`fetch_folder`: the games that share one IMAP
account are served by ONE fetch, routed by :mod:`pbem.routing`; the folder's
own records (the shared fetch's ledger, the messages no game took and their
list) live in ``campaigns/.pbem/``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from .campaign import Campaign, GameError
from .config import CAMPAIGN_FILE
from .errors import PbemError
from .store import append_lines, file_lock, fsync_dir, fsync_files, write_atomic

if TYPE_CHECKING:  # the mail side loads when a folder command needs it
    import email.message

    from .inbox import Mailroom, Outcome
    from .quiet import QuietBook
    from .reports import Renderer
    from .routing import GameIndex, Route
    from .tick import TickReport
    from .transport.imap import FetchLedger, ImapSettings

T = TypeVar("T")


class Done(NamedTuple):
    """One game's outcome: ``value`` when it went well, else ``error`` (a sentence)."""

    name: str
    folder: Path
    value: Any = None
    error: str | None = None


def is_campaign(folder: Path | str) -> bool:
    return os.path.isfile(os.path.join(folder, CAMPAIGN_FILE))


def is_gm_folder(folder: Path | str) -> bool:
    """A folder of campaigns: no campaign.yaml of its own, at least one game below."""
    return os.path.isdir(folder) and not is_campaign(folder) and bool(games(folder))


def games(folder: Path | str) -> list[Path]:
    """The campaign folders of a GM's folder, by name (hidden ones, such as a copy
    under way, left out)."""
    root = Path(folder)
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [
        root / e.name for e in entries if not e.name.startswith(".") and e.is_dir() and is_campaign(e.path)
    ]


def _explain(e: BaseException) -> str:
    if isinstance(e, PbemError):  # a campaign file, the lock, a server down, a login refused...
        return e.format_message()
    if isinstance(e, OSError):
        return f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}"
    return f"unexpected error ({type(e).__name__}: {e})"


def each(folder: Path | str, action: Callable[[Campaign], T]) -> Iterator[Done]:
    """``action`` on every game of the folder, in name order, one after the other;
    a game whose action fails is reported (:class:`Done` with ``error``) and the
    next one goes on. Ctrl-C stops the loop."""
    return each_of(games(folder), action)


def each_of(paths: Iterable[Path], action: Callable[[Campaign], T]) -> Iterator[Done]:
    """:func:`each` over the campaign folders given (``pbem watch``: the games a mail concerns)."""
    for path in paths:
        try:
            yield Done(path.name, path, action(Campaign(path)))
        except Exception as e:  # noqa: BLE001 - one game's trouble never stops the others
            yield Done(path.name, path, error=_explain(e))


# -- what each folder command does for one game ------------------------------------------------------


def game_status(campaign: Campaign) -> dict[str, Any]:
    """One game's line of ``pbem status FOLDER``: the campaign's status and its mail side."""
    from .inbox import refused_messages, refused_seen
    from .outbox import Outbox
    from .postoffice import uncertain_drafts
    from .received import held_acks

    info = campaign.status()
    known = refused_seen(campaign)
    refused = refused_messages(campaign)
    info["refused"] = refused
    info["refused_new"] = sum(entry["file"] not in known for entry in refused)
    info["held_acks"] = held_acks(campaign)
    info["uncertain"] = uncertain_drafts(campaign.folder)
    info["drafts"] = len(Outbox(campaign.folder).drafts())  # read only: status writes nothing
    return info


def fetch(campaign: Campaign) -> list[Outcome]:
    """One game's own fetch (``pbem fetch GAME``): its Maildir, or IMAP by its tag and threads."""
    from .inbox import fetch_new

    return fetch_new(campaign)


@contextlib.contextmanager
def ticking(folder: Path | str) -> Iterator[bool]:
    """Held by ``pbem tick FOLDER`` for its whole run (``.pbem/tick.lock``); yields
    whether it was taken. cron may start a tick while the last one still runs (a slow
    server): the second must stop before the shared account's fetch ledger, which it
    would find in use, so that it fails no game and mails the GM nothing (a single
    game's tick does the same with the campaign's own tick lock)."""
    state = Path(folder) / STATE
    state.mkdir(exist_ok=True)
    with file_lock(state / TICK_LOCK, timeout=0) as acquired:
        yield acquired


def tick(
    campaign: Campaign, trust_clock: bool = False, fetched: FolderFetch | None = None, fetch: bool = True
) -> TickReport:
    """One game's tick (:func:`pbem.tick.tick`), ``trust_clock`` and ``fetch`` passed on;
    with ``fetched`` (the folder's :func:`fetch_folder`), its mail as fetched there (a
    game whose mail could not be fetched fails, as its own tick would); a game that
    fetch found quiet (:mod:`pbem.quiet`) and that got no mail is not read again."""
    from .tick import tick as run_tick

    if fetched is None:
        return run_tick(campaign, trust_clock=trust_clock, fetch=fetch)
    name = campaign.folder.name
    if name in fetched.errors:
        raise GameError(fetched.errors[name])
    outcomes = fetched.outcomes.get(name, [])
    book = fetched.quiet
    if book is not None and not trust_clock and not outcomes and name in fetched.quiet_games:
        from .quiet import quiet_tick

        note = fetched.quiet_games[name]
        if book.holds(note, campaign.now()):  # the clock read again: the fetch took a while
            return quiet_tick(note)
    campaign = fetched.campaigns.get(name, campaign)  # its settings read once, by the fetch
    try:
        report = run_tick(campaign, trust_clock=trust_clock, outcomes=outcomes)
    except BaseException:
        if book is not None:
            book.forget(name)
        raise
    if book is not None:
        if trust_clock:
            book.forget(name)  # the GM's word for this once: no note made with it
        else:
            book.note(campaign, report, fetched.imap_sections.get(name))
    return report


def drafts(campaign: Campaign) -> list[dict[str, Any]]:
    """The drafts waiting in one game's outbox (``pbem preview FOLDER``)."""
    from .outbox import Outbox, summarize
    from .postoffice import uncertain_drafts

    campaign.config  # noqa: B018 - a broken campaign.yaml is reported, even with no draft
    campaign.publish_drafts()
    uncertain = {u["draft"] for u in uncertain_drafts(campaign.folder)}
    return [
        {"draft": p.stem, "uncertain": p.stem in uncertain, **summarize(p)}
        for p in Outbox(campaign.folder).drafts()
    ]


class Sent(NamedTuple):
    report: Any  # the postoffice's SendReport, None when there was nothing to send
    held: list[str]  # acknowledgements held over the hourly limit, not sent


def send(campaign: Campaign, on_wait: Callable[[float], None] | None = None) -> Sent:
    """Send one game's drafts as ``pbem send GAME`` does with no draft named: the held
    acknowledgements stay for the GM, an uncertain draft is never sent again;
    ``on_wait(seconds)`` is told of each wait for ``mail.smtp.rate``'s minute."""
    from .inbox import unheld_drafts
    from .outbox import Outbox
    from .postoffice import send as send_drafts

    campaign.config  # noqa: B018 - a broken campaign.yaml is reported, even with nothing to send
    campaign.publish_drafts()
    unheld, held = unheld_drafts(campaign, Outbox(campaign.folder))
    if not unheld:
        return Sent(None, held)
    return Sent(send_drafts(campaign, unheld, on_wait=on_wait), held)


# -- one mailbox for every game: fetch and route ---------------------------------------------------

#: The folder's own records (hidden: :func:`games` passes it over): the fetch ledger of
#: each shared account, the messages no game took, and their list; the tick's lock
#: (:func:`ticking`) and its notes of the quiet games (:mod:`pbem.quiet`).
STATE = ".pbem"
UNROUTABLE = "unroutable.jsonl"
TICK_LOCK = "tick.lock"
UNROUTABLE_SEEN = "unroutable-seen.json"
#: Answers to unroutable mail one sender gets in an hour, at most: more are listed only
#: (a flood of spoofed mail must not become a flood of mail in the GM's name).
ANSWERS_PER_HOUR = 1
ANSWER_TEMPLATE = "which_game.txt.j2"
ANSWER_PREFIX = "route-"  # the draft ids of those answers


@dataclass
class AccountFetch:
    """One IMAP account's fetch for the games that share it."""

    account: str  # user@host:port/folder
    games: list[str]
    summary: Any = None  # the transport's FetchSummary, when the fetch ran
    error: str | None = None
    listed: list[dict[str, Any]] = field(default_factory=list[Any])  # mail no game took, listed this time
    left_own: int = 0  # the tool's own mail seen and left in the INBOX


@dataclass
class FolderFetch:
    """What :func:`fetch_folder` did: every game's outcomes (:class:`pbem.inbox.Outcome`),
    the games that could not be fetched, and each shared account's fetch."""

    outcomes: dict[str, list[Any]] = field(default_factory=dict[str, Any])
    errors: dict[str, str] = field(default_factory=dict)
    accounts: list[AccountFetch] = field(default_factory=list)
    campaigns: dict[str, Campaign] = field(default_factory=dict, repr=False)  # as the fetch read them
    quiet: QuietBook | None = field(default=None, repr=False)  # the folder's quiet notes (a tick's fetch)
    quiet_games: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)  # found quiet, and
    # not read: their notes
    imap_sections: dict[str, str | None] = field(default_factory=dict, repr=False)  # game -> mail.imap as
    # written (json), for its note

    @property
    def failed(self) -> list[str]:
        """The games whose mail could not be (all) fetched."""
        return sorted(self.errors)

    def folder_lines(self) -> list[str]:
        """What the folder's fetch says beside each game's lines: shared accounts, mail no
        game took, the tool's own mail left for the GM."""
        out = []
        for a in self.accounts:
            if a.error:
                continue  # said by each of its games ("[game7] FAILED: ...")
            out.append(f"[{a.account}] one fetch for {len(a.games)} game(s).")
            for entry in a.listed:
                out.append(f"[{a.account}] {unroutable_line(entry)}")
            if a.left_own:
                out.append(
                    f"[{a.account}] {a.left_own} mail(s) the tool sent (notices to you, copies) "
                    f"left in the INBOX, unread."
                )
        return out

    def lines(self) -> list[str]:
        """``pbem fetch FOLDER``'s output: each game's messages, then the folder's lines."""
        out = []
        for name in sorted(set(self.outcomes) | set(self.errors)):
            if name in self.errors:
                out.append(f"[{name}] FAILED: {self.errors[name]}")
                continue
            for outcome in self.outcomes[name]:
                out.append(f"[{name}] {outcome.summary()}")
            out.append(f"[{name}] {len(self.outcomes[name])} new message(s).")
        return out + self.folder_lines()


def fetch_folder(folder: Path | str, acknowledge: bool = True, quiet: QuietBook | None = None) -> FolderFetch:
    """Fetch the new mail of every game of the folder, in one process.

    Games that share one IMAP account (the same host, port, user and folder: usually
    the ``mail.imap`` of ``pbem.yaml``) are served by ONE fetch, each message routed
    (:mod:`pbem.routing`) to the game its tag names, else the game whose mail it
    answers, else the only game of its sender; the tool's own mail is left in the
    INBOX untouched; a player of several games who names none is answered
    (``templates/which_game.txt.j2``) and, like a stranger's mail that names no
    game, listed for the GM (:func:`unroutable`, ``pbem status FOLDER``). Every
    message a game or the folder takes is kept, byte for byte, before the server
    copy is moved. Games without IMAP read their Maildir as alone.

    With ``acknowledge`` (``pbem fetch``), the acknowledgements go at once where
    the game allows it, as a single game's fetch does; a tick sends them itself.
    One game's broken file, or an account's server trouble, is reported (``errors``:
    every game of the account) and the others go on.

    With ``quiet`` (a tick's fetch), a game found quiet (:mod:`pbem.quiet`) is not read:
    its Maildir is in its fingerprint, and its IMAP section in its note."""
    from .campaign import system_clock
    from .inbox import fetch_new
    from .postoffice import imap_settings

    report = FolderFetch(quiet=quiet)
    groups: dict[tuple[Any, ...], tuple[Any, list[Campaign]]] = {}
    known: dict[str | None, Any] = {}  # a mail.imap section as written -> its settings (read once: the
    # shared one of pbem.yaml is the same for every game, and its TLS context costs ~10 ms)
    for path in games(folder):
        note = quiet.look(path, system_clock()) if quiet is not None else None
        if note is not None:
            report.quiet_games[path.name] = note
            if note["imap"] is None:  # a Maildir game: nothing new in its Maildir, nothing to read
                report.outcomes[path.name] = []
                continue
        campaign = report.campaigns[path.name] = Campaign(path)
        try:
            written = note["imap"] if note is not None and note["imap"] in known else imap_written(campaign)
            report.imap_sections[path.name] = written
            if written not in known:
                known[written] = imap_settings(campaign.config)
            settings = known[written]
            if settings is None:
                report.outcomes[path.name] = fetch_new(campaign, acknowledge=acknowledge)
                continue
        except Exception as e:  # noqa: BLE001 - one game's trouble never stops the others
            report.errors[path.name] = _explain(e)
            continue
        key = (settings.host.lower(), settings.port, settings.user, settings.folder)
        groups.setdefault(key, (settings, []))[1].append(campaign)
    for settings, campaigns in groups.values():
        _fetch_account(Path(folder), settings, campaigns, report, acknowledge)
    return report


def imap_written(campaign: Campaign) -> str | None:
    """The game's ``mail.imap`` section as written (JSON), None without one: the games
    of one written section share their settings (and a quiet game's note keeps it)."""
    mail = campaign.config.extra.get("mail")
    section = mail.get("imap") if isinstance(mail, dict) else None
    return json.dumps(section, sort_keys=True, default=str) if section is not None else None


def noted_tick(campaign: Campaign, quiet: QuietBook, fetch: bool = True) -> TickReport:
    """One game's tick (``pbem watch``'s timers: its own mail fetched, or none), and its
    quiet note made or dropped (:meth:`pbem.quiet.QuietBook.note`)."""
    from .tick import tick as run_tick

    try:
        report = run_tick(campaign, fetch=fetch)
    except BaseException:
        quiet.forget(campaign.folder.name)
        raise
    quiet.note(campaign, report, imap_written(campaign))
    return report


def _fetch_account(
    folder: Path, settings: ImapSettings, campaigns: list[Campaign], report: FolderFetch, acknowledge: bool
) -> None:
    from .transport.imap import FetchLedger, fetch_routed

    account = AccountFetch(
        f"{settings.user} at {settings.host}:{settings.port}/{settings.folder}", [c.name for c in campaigns]
    )
    report.accounts.append(account)
    router = _Router(folder, campaigns, account, report)
    ledger = FetchLedger(folder / STATE / f"fetched-{_slug(account.account)}.json")
    try:
        with contextlib.ExitStack() as rooms:
            router.rooms = rooms
            if ledger.mark(settings.folder) == (None, 0):
                _start_from_games(ledger, settings.folder, router.served)
            account.summary = fetch_routed(settings, ledger, router.route, router.deliver, router.flush)
    except Exception as e:  # noqa: BLE001 - the account's trouble is its games' trouble, not the folder's
        account.error = _explain(e)
        for name in account.games:
            report.errors.setdefault(name, account.error)
    for name, outcomes in router.outcomes.items():
        report.outcomes.setdefault(name, []).extend(outcomes)
    for campaign in router.served:
        report.outcomes.setdefault(campaign.name, [])
        if acknowledge and router.outcomes.get(campaign.name):
            from .inbox import acknowledge as send_acks

            try:
                send_acks(campaign, router.outcomes[campaign.name])
            except Exception as e:  # noqa: BLE001 - the messages are kept; the GM sends them later
                report.errors.setdefault(campaign.name, f"acknowledgements not sent: {_explain(e)}")


def _start_from_games(ledger: FetchLedger, folder: str, campaigns: list[Campaign]) -> None:
    """A new shared ledger starts where the games' own fetches had got to (the lowest
    of their marks, all of one UIDVALIDITY): the mail below was examined by each game
    already, and the GM's older mail is not listed again."""
    from .transport.imap import FetchLedger

    marks = set()
    for campaign in campaigns:
        path = campaign.store.imap_ledger
        if path.exists():
            with contextlib.suppress(Exception):  # a damaged one: no mark to start from
                marks.add(FetchLedger(path).mark(folder))
    validities = {validity for validity, _ in marks}
    validity = validities.pop() if len(validities) == 1 else None
    if validity is not None:
        ledger.set_mark(folder, validity, min(uid for _, uid in marks))


def _slug(text: str) -> str:
    import hashlib

    readable = "".join(c if c.isalnum() else "-" for c in text)[:40].strip("-")
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


class _Router:
    """The callbacks of one shared fetch: route by headers, deliver into the game's
    Mailroom (or the folder's own records), flush everything once per chunk."""

    def __init__(self, folder: Path, campaigns: list[Campaign], account: AccountFetch, report: FolderFetch):
        from .routing import FolderIndex

        self.folder = folder
        self.state = folder / STATE
        self.account = account
        self.rooms: contextlib.ExitStack | None = None
        self.open: dict[str, Mailroom] = {}  # game -> its Mailroom, entered on its first message
        self.shared_renderer: Renderer | None = None
        self.outcomes: dict[str, list[Any]] = {}
        self.served: list[Campaign] = []
        self.info: dict[str, dict[str, Any]] = {}  # game -> what an answer says of it
        indexes = []
        for campaign in campaigns:
            try:
                index, info = _game_index(campaign)
            except Exception as e:  # noqa: BLE001 - a broken game is named; the others are routed
                report.errors[campaign.name] = _explain(e)
                continue
            if index is None:
                continue  # not started: no mail of its own yet
            indexes.append(index)
            self.info[campaign.name] = info
            self.served.append(campaign)
        self.campaigns = {c.name: c for c in self.served}
        self.index = FolderIndex.of(indexes)
        self.listed = _listed_keys(self.state)
        self.pending: list[dict[str, Any]] = []  # list[Any] entries, written at the next flush
        self.kept: list[Path] = []  # raw messages the folder kept, synced at the next flush
        self.answered = _recent_answers(self.state)
        self.waiting: dict[str, list[bytes]] = {}  # game -> its messages of the chunk, read at the flush

    def route(self, headers: email.message.Message) -> tuple[Route, email.message.Message] | None:
        from .routing import GAME, OWN, UNKNOWN, route

        where = route(headers, self.index)
        if where.kind == OWN:
            self.account.left_own += 1
            return None
        if where.kind == UNKNOWN:
            key = _header_key(headers)
            if key not in self.listed:
                self.listed.add(key)
                self.pending.append(_entry(headers, where, key, file=None, answer=None))
            return None
        if where.kind == GAME and where.game not in self.campaigns:
            return None  # cannot happen: the index holds the served games only
        return where, headers

    def deliver(self, raw: bytes, routed: tuple[Route, email.message.Message]) -> None:
        from .routing import GAME

        where, headers = routed
        if where.kind == GAME:
            assert where.game is not None  # a GAME route names its game
            self.waiting.setdefault(where.game, []).append(raw)  # read into its game at the flush
            return
        import hashlib

        sha = hashlib.sha256(raw).hexdigest()
        key = "sha256:" + sha
        if key in self.listed:
            return  # kept and answered by a fetch that died before noting it
        relative = f"{STATE}/received/{sha[:20]}.eml"
        path = self.folder / relative
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, raw, durable=False)  # synced with the chunk, in flush()
            self.kept.append(path)
        answer = self._answer(where, headers, sha)
        self.listed.add(key)
        self.pending.append(_entry(headers, where, key, file=relative, answer=answer))

    def _read_here(self, game: str, raws: list[bytes]) -> None:
        room = self._room(game)
        outcomes = self.outcomes.setdefault(game, [])
        for raw in raws:
            outcomes.append(room.receive(raw, source="imap"))
        room.outbox.write_given()  # a game's few drafts written while the next games are read

    def _apart(self, waiting: dict[str, list[bytes]]) -> list[str]:
        """The games a child may read, about half of the chunk's messages: of those whose
        room is not open here (its lock is held here: an answer drafted in it, or an
        earlier chunk), the last ones, in the order their mail came."""
        free = [game for game in waiting if game not in self.open]
        half = sum(map(len, waiting.values())) // 2
        apart: list[str] = []
        count = 0
        for game in reversed(free):
            if count >= half:
                break
            apart.append(game)
            count += len(waiting[game])
        return apart if len(apart) < len(waiting) else apart[:-1]

    def _room(self, name: str) -> Mailroom:
        if name not in self.open:
            from .inbox import Mailroom

            assert self.rooms is not None
            campaign = self.campaigns[name]
            room = Mailroom(campaign, self._renderer(campaign), one_of_many=True)
            self.open[name] = self.rooms.enter_context(room)
        return self.open[name]

    def _renderer(self, campaign: Campaign) -> Renderer:
        """The default templates' renderer, one for every game without templates of its own."""
        from .reports import Renderer

        if campaign.store.templates_dir().is_dir():
            return Renderer(campaign.store.templates_dir())
        if self.shared_renderer is None:
            self.shared_renderer = Renderer(None)
        return self.shared_renderer

    def _answer(self, where: Route, headers: email.message.Message, sha: str) -> str | None:
        """Draft the short answer naming the sender's games, in the first of them; its
        ``game/draft`` (None when the sender had their answer this hour)."""
        from datetime import UTC, datetime

        from .outbox import make_message
        from .routing import WRONG_GAME, subject_of, tagged_game

        now = datetime.now(UTC)
        recent = [t for t in self.answered.get(where.sender, []) if (now - t).total_seconds() < 3600]
        if not where.sender or len(recent) >= ANSWERS_PER_HOUR:
            return None
        home = where.games[0]
        campaign = self.campaigns[home]
        room = self._room(home)
        draft_id = f"{ANSWER_PREFIX}{sha[:12]}"
        if not room.outbox.has(draft_id):
            config = campaign.config
            gm = config.gm
            named = None
            if where.kind == WRONG_GAME:
                named = tagged_game(subject_of(headers), self.index)
            body = self._renderer(campaign).render(
                ANSWER_TEMPLATE,
                {
                    "games": [self.info[name] for name in where.games if name in self.info],
                    "wrong_game": where.kind == WRONG_GAME,
                    "named": named,
                    "gm": gm.name if gm else "",
                },
            )
            message_id = room.outbox.message_id(draft_id, gm.email if gm else "")
            their_id = str(headers.get("Message-ID", "")).strip()
            raw = make_message(
                sender_name=gm.name if gm else "pbem",
                sender=gm.email if gm else "",
                to_name="",
                to=where.sender,
                subject="Which game is your message for?",
                body=body,
                message_id=message_id,
                in_reply_to=their_id or None,
                references=[their_id] if their_id else [],
            )
            room.outbox.add(
                draft_id, raw, message_id=message_id, kind="ack", turn=None, to=where.sender, player=None
            )
        self.answered.setdefault(where.sender, []).append(now)
        return f"{home}/{draft_id}"

    def flush(self) -> None:
        """Everything delivered so far read into its game and made durable, then the
        folder's kept messages, then its list. About half of the games are read by a
        child process beside this one, where one can be forked (:class:`pbem.forked.Aside`:
        the second core's share); if it fails, they are read here, again (a message a
        game kept before is recognised by its bytes, its orders not applied twice)."""
        import functools

        from .forked import AT_LEAST, Aside
        from .inbox import flush_together

        waiting, self.waiting = self.waiting, {}
        apart = self._apart(waiting) if sum(map(len, waiting.values())) >= AT_LEAST else []
        if apart:  # what both processes need, loaded once, before the fork (a fresh process
            # each cron run: the reader's import and the templates would cost both of them)
            from . import reader  # noqa: F401

            self._renderer(self.campaigns[apart[0]]).env.get_template("ack.txt.j2")
        games = [(self.campaigns[game], waiting[game]) for game in apart]
        work = functools.partial(_read_into_games, games, self._renderer)
        with Aside(work, wanted=bool(apart)) as child:
            here = [g for g in waiting if not child.started or g not in apart]
            for game in here:
                self._read_here(game, waiting[game])
            # every game's files synced together, then each game's records; the first error
            # is raised, and nothing of the chunk is noted
            flush_together(list(self.open.values()))  # a room with nothing new flushes at no cost
            done = child.result()
        if child.started:
            if done is None:  # the child failed: its games are read here (again, harmlessly)
                for game in apart:
                    self._read_here(game, waiting[game])
                flush_together([self.open[game] for game in apart])
            else:
                for game, outcomes in done.items():
                    self.outcomes.setdefault(game, []).extend(outcomes)
        if self.kept:
            fsync_files(self.kept)
            fsync_dir(self.state / "received")
            self.kept = []
        if self.pending:
            append_lines(
                self.state / UNROUTABLE, [json.dumps(e, ensure_ascii=False) for e in self.pending], sync=True
            )
            self.account.listed += self.pending
            self.pending = []


def _read_into_games(
    games: list[tuple[Campaign, list[bytes]]], renderer: Callable[[Campaign], Renderer]
) -> dict[str, list[Any]]:
    """Each game's messages read into it, in a Mailroom of its own (its lock held until
    every batch is durable): the outcomes by game. The part of a routed fetch that a
    child does (:meth:`_Router.flush`)."""
    from .inbox import Mailroom, flush_together

    outcomes: dict[str, list[Any]] = {}
    with contextlib.ExitStack() as stack:
        rooms = []
        for campaign, raws in games:
            room = stack.enter_context(Mailroom(campaign, renderer(campaign), one_of_many=True))
            rooms.append(room)
            outcomes[campaign.name] = [room.receive(raw, source="imap") for raw in raws]
            room.outbox.write_given()
        flush_together(rooms)
    return outcomes


def _game_index(campaign: Campaign) -> tuple[GameIndex | None, dict[str, Any]]:
    """What routing knows of one game (None for a game not started) and what an
    answer says of it (its name, title, turn and the player's name there)."""
    from .outbox import Outbox
    from .routing import GameIndex
    from .transport.ledger import SentLedger

    if not campaign.started():
        return None, {}
    config = campaign.config
    game = campaign.position().game
    sent: set[str] = set()
    answers: set[str] = set()
    for message_id, entry in Outbox(campaign.folder).known_ids().items():
        draft = entry.get("draft")
        (answers if isinstance(draft, str) and draft.startswith(ANSWER_PREFIX) else sent).add(message_id)
    ledger_path = campaign.store.sent_ledger
    if ledger_path.exists():
        for record in SentLedger(ledger_path).entries():
            sent_id = record.get("message_id")
            if isinstance(sent_id, str) and not str(record.get("draft_id", "")).startswith(ANSWER_PREFIX):
                sent.add(sent_id)
    index = GameIndex(
        campaign.name,
        frozenset(p.email.lower() for p in config.players),
        active=not game.finished,
        sent_ids=frozenset(sent),
        answer_ids=frozenset(answers),
    )
    return index, {"name": campaign.name, "title": config.title, "turn": game.turn, "finished": game.finished}


def _header_key(headers: email.message.Message) -> str:
    import hashlib

    parts = [str(headers.get(h, "")) for h in ("Message-ID", "Date", "From", "Subject")]
    return "head:" + hashlib.sha256("\n".join(parts).encode("utf-8", "replace")).hexdigest()


def _shown(text: Any, limit: int = 120) -> str:
    """A header's text as the GM's list shows it: printable, short."""
    text = "".join(c if c.isprintable() else "?" for c in str(text or ""))
    shown: str = text if len(text) <= limit else text[:limit] + "..."
    return shown


def _entry(
    headers: email.message.Message, where: Route, key: str, file: str | None, answer: str | None
) -> dict[str, Any]:
    from datetime import UTC, datetime

    from .routing import subject_of

    return {
        "key": key,
        "status": where.kind,
        "reason": _shown(where.reason, 300),
        "sender": _shown(where.sender),
        "games": list(where.games),
        "subject": _shown(subject_of(headers)),
        "date": _shown(headers.get("Date", "")),
        "message_id": _shown(headers.get("Message-ID", ""), 200),
        "file": file,  # kept in the folder (None: left in the INBOX)
        "answer": answer,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def unroutable(folder: Path | str) -> list[dict[str, Any]]:
    """The mail no game took, oldest first (``FOLDER/.pbem/unroutable.jsonl``); a line
    torn by a crash is skipped."""
    path = Path(folder) / STATE / UNROUTABLE
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            out.append(entry)
    return out


def unroutable_seen(folder: Path | str) -> set[str]:
    """The keys of the listed mail the GM has marked seen (``pbem status FOLDER --seen``)."""
    try:
        return set(json.loads((Path(folder) / STATE / UNROUTABLE_SEEN).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return set()  # none, or damaged: everything shows again, nothing is lost


def mark_unroutable_seen(folder: Path | str) -> int:
    """Mark every listed message seen; how many there are."""
    keys = sorted({entry["key"] for entry in unroutable(folder)})
    write_atomic(Path(folder) / STATE / UNROUTABLE_SEEN, json.dumps(keys, indent=1).encode("utf-8"))
    return len(keys)


def unroutable_line(entry: dict[str, Any]) -> str:
    """One listed message, for the GM."""
    where = (f"kept in {entry['file']}" if entry.get("file") else "left in the INBOX") + (
        f"; answered ({entry['answer']})" if entry.get("answer") else ""
    )
    status = {"ambiguous": "no game named", "wrong game": "wrong game", "unknown": "unknown sender"}.get(
        entry.get("status", ""), str(entry.get("status"))
    )
    return (
        f"{status}: {entry.get('sender') or 'no sender'}, {entry.get('subject') or '(no subject)'!r}"
        f" -- {entry.get('reason', '')}; {where}"
    )


def _listed_keys(state: Path) -> set[str]:
    return {entry["key"] for entry in unroutable(state.parent)}


def _recent_answers(state: Path) -> dict[str, list[Any]]:
    from datetime import datetime

    out: dict[str, list[Any]] = {}
    for entry in unroutable(state.parent):
        if entry.get("answer") and entry.get("sender"):
            with contextlib.suppress(TypeError, ValueError):
                out.setdefault(entry["sender"], []).append(datetime.fromisoformat(entry["at"]))
    return out
