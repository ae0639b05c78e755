"""Unattended running: reminders, and ``pbem tick``, the one command for cron.

A tick, in order: fetch and acknowledge new mail; draft the reminders that
fall due; resolve the turn when every order is in or the deadline has passed;
then send on its own only what the GM allowed (``mail: auto_send: [ack,
reminder, report]``), and otherwise tell the GM by mail that a turn waits for
review. Every step is idempotent (a message is read once, a player reminded
once a turn, a turn resolved once, a draft sent once), so running it every
minute does no harm; a second tick while one runs does nothing; a tick after
a long outage catches up (the overdue turn is resolved, the next one opens).

Nothing is played blind: what auto_send allows is sent by every tick until it
has gone (not only what that tick drafted), first of all; a deadline does not
fall while the latest turn's mail has not left (the tick holds it and says
so), and once it has, late by more than ``LATE_MAIL_GRACE``, the deadline
moves on by the time lost. A clock that looks wrong
(:func:`pbem.deadlines.clock_doubt`) holds what goes by the clock, reminders
and the resolution, until the GM says it is right (``trust_clock``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .campaign import Campaign
from .config import CampaignConfig
from .outbox import Outbox, make_message, seat_part
from .store import dump_json, write_atomic

KINDS = ("ack", "reminder", "report")


def auto_send_kinds(config: CampaignConfig) -> set[str]:
    """What the GM lets a tick send without review."""
    mail = config.extra.get("mail") or {}
    kinds = set(mail.get("auto_send") or []) if isinstance(mail, dict) else set()
    unknown = kinds - set(KINDS)
    if unknown:
        from .config import ConfigError

        raise ConfigError(
            f"campaign.yaml: mail.auto_send: unknown kind {sorted(unknown)[0]!r} (kinds: {', '.join(KINDS)})"
        )
    if isinstance(mail, dict) and mail.get("auto_ack"):
        kinds.add("ack")
    return kinds


# -- reminders -------------------------------------------------------------------------------------


def reminded(campaign: Campaign) -> dict[str, dict[str, Any]]:
    path = campaign.store.reminders
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def remind(campaign: Campaign, again: bool = False) -> list[str]:
    """Draft a reminder to every player who still owes orders, naming the hands;
    a player already reminded this turn is skipped unless ``again``."""
    from .reports import Renderer, choices

    with campaign.locked():
        pos = campaign.position()
        if pos.game.finished:
            return []
        turn = pos.game.turn
        done = reminded(campaign)
        before = json.dumps(done, sort_keys=True)
        this_turn = done.setdefault(str(turn), {})
        deadline = campaign.deadline()
        config = campaign.config
        gm = config.gm
        outbox = Outbox(campaign.folder)
        renderer = Renderer(campaign.store.templates_dir())
        drafted = []
        proxied = campaign.proxied(pos)  # their missing orders go to the proxy, not the default
        for name, hands in campaign.missing_orders().items():
            if name in this_turn and not again:
                continue
            person = next(p for p in config.players if p.name == name)
            body = renderer.render(
                "reminder.txt.j2",
                {
                    "player": name,
                    "turn": turn,
                    "hands": hands,
                    "campaign": campaign.name,
                    "title": config.title,
                    "deadline": campaign.deadline_text(deadline),
                    "left": _left(deadline, campaign.now()),
                    "proxy": name in proxied,
                    "choices": {
                        h: choices(pos.players, pos.game.hand(h), pos.players.index(name)) for h in hands
                    },
                },
            )
            seat = pos.players.index(name)
            draft_id = f"reminder-t{turn:03d}-{seat_part(seat)}-{_count(done, turn, name) + 1}"
            if outbox.has(draft_id):  # drafted by a run that crashed before noting it: keep that one
                this_turn[name] = campaign.now().isoformat(timespec="seconds")
                done.setdefault("counts", {})[f"{turn}/{name}"] = _count(done, turn, name) + 1
                drafted.append(draft_id)
                continue
            message_id = outbox.message_id(draft_id, gm.email if gm else "")
            raw = make_message(
                sender_name=gm.name if gm else "pbem",
                sender=gm.email if gm else "",
                to_name=name,
                to=person.email,
                subject=f"[{campaign.name}] Turn {turn}: reminder, orders missing",
                body=body,
                message_id=message_id,
            )
            outbox.add(
                draft_id, raw, message_id=message_id, kind="reminder", turn=turn, to=person.email, player=name
            )
            this_turn[name] = campaign.now().isoformat(timespec="seconds")
            done.setdefault("counts", {})[f"{turn}/{name}"] = _count(done, turn, name) + 1
            drafted.append(draft_id)
        if json.dumps(done, sort_keys=True) != before:  # a tick with no one left to remind writes nothing
            write_atomic(campaign.store.reminders, dump_json(done))
        return drafted


def _count(done: dict[str, Any], turn: int, name: str) -> int:
    count: int = done.get("counts", {}).get(f"{turn}/{name}", 0)
    return count


def _left(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return ""
    from .deadlines import time_left

    return time_left(deadline, now)


def reminders_due(campaign: Campaign) -> bool:
    """True once the deadline is closer than ``remind_hours``."""
    schedule = campaign.schedule
    deadline = campaign.deadline()
    if schedule is None or deadline is None or campaign.position().game.finished:
        return False
    return campaign.now() >= deadline - timedelta(hours=schedule.remind_hours)


# -- the tick ------------------------------------------------------------------------------------------


@dataclass
class TickReport:
    busy: bool = False
    messages: int = 0
    recorded: int = 0
    reminders: list[str] = field(default_factory=list)
    resolved: int | None = None
    sent: list[str] = field(default_factory=list)
    waiting_for_review: list[str] = field(default_factory=list)
    waiting_to_send: list[str] = field(default_factory=list)  # auto_send allows them: the next tick tries
    uncertain: list[str] = field(default_factory=list)  # the GM must say: arrived, or send again
    disorder: list[str] = field(default_factory=list)  # seats that reached the run of missed turns
    held: str = ""  # why the tick held back (a deadline over undelivered mail, a doubtful clock)
    notes: list[str] = field(default_factory=list)
    send_failed: bool = False  # a send stopped (server down, ...): the next tick goes on
    failed: list[str] = field(default_factory=list)  # drafts the server refused: tried again next tick

    def lines(self) -> list[str]:
        if self.busy:
            return ["Another tick is running on this campaign; nothing done."]
        out = [f"{self.messages} new message(s), {self.recorded} with orders recorded."]
        if self.reminders:
            out.append(f"Reminders drafted: {', '.join(self.reminders)}.")
        if self.resolved is not None:
            out.append(f"Turn {self.resolved} resolved.")
        if self.sent:
            out.append(f"Sent on its own (auto_send): {len(self.sent)} mail(s).")
        if self.waiting_to_send:
            out.append(
                f"{len(self.waiting_to_send)} draft(s) that auto_send allows are not sent yet; "
                f"the next tick sends them."
            )
        if self.waiting_for_review:
            out.append(f"{len(self.waiting_for_review)} draft(s) wait for the GM's review (`pbem preview`).")
        if self.held:
            out.append(f"HELD: {self.held}")
        out.extend(self.notes)
        return out


def tick(
    campaign: Campaign, trust_clock: bool = False, outcomes: list[Any] | None = None, fetch: bool = True
) -> TickReport:
    """One pass of the unattended GM (see the module docstring). ``trust_clock``
    is the GM's word that a clock :func:`pbem.deadlines.clock_doubt` finds wrong is right.
    ``outcomes``: the game's mail, fetched already (a GM folder's shared fetch,
    :func:`pbem.gmfolder.fetch_folder`): the tick then fetches nothing itself.
    ``fetch=False`` leaves the mail to the caller (``pbem watch`` fetches as mail comes)."""
    from .store import StoreError, file_lock

    report = TickReport()
    if not campaign.folder.is_dir():
        raise StoreError(f"{campaign.folder}: no such campaign folder")
    with file_lock(campaign.store.tick_lock, timeout=0) as acquired:
        if not acquired:
            report.busy = True
            return report
        return _tick(campaign, report, trust_clock, outcomes, fetch)


def _tick(
    campaign: Campaign,
    report: TickReport,
    trust_clock: bool = False,
    fetched: list[Any] | None = None,
    fetch: bool = True,
) -> TickReport:
    from .inbox import fetch_new
    from .postoffice import smtp_settings
    from .transport.smtp import SendError

    kinds = auto_send_kinds(campaign.config)
    can_send = smtp_settings(campaign.config) is not None
    campaign.publish_drafts()  # a resolve cut short by a crash: its drafts wait for review too
    try:
        outcomes = fetched if fetched is not None else fetch_new(campaign) if fetch else []
    except SendError as exc:  # auto_ack's send, after the messages were read and kept
        outcomes = []
        report.send_failed = True
        report.notes.append(f"acknowledgements not sent: {exc} The next tick sends them.")
    report.messages = len(outcomes)
    report.recorded = sum(o.recorded for o in outcomes)
    held = sorted({o.player for o in outcomes if o.ack_held and o.player is not None})
    if held:
        report.notes.append(
            f"{sum(o.ack_held for o in outcomes)} acknowledgement(s) held for your review: "
            f"too many messages an hour from {', '.join(held)} (see `pbem status`)."
        )
    # What auto_send allows and an earlier tick could not send (SMTP down, a crash) goes
    # first: the deadline below depends on the turn's mail having reached the players.
    _send_allowed(campaign, report, allowed_drafts(campaign, kinds), can_send)
    if not campaign.position().game.finished:
        _timed_steps(campaign, report, can_send, trust_clock)
        if report.resolved is not None:
            _tell_disorder(campaign, report)
    if not report.send_failed:
        _send_allowed(campaign, report, allowed_drafts(campaign, kinds), can_send)
    allowed = set(allowed_drafts(campaign, kinds)) if can_send else set()
    waiting = [p.stem for p in Outbox(campaign.folder).drafts()]
    report.waiting_for_review = [d for d in waiting if d not in allowed]
    _tell_uncertain(campaign, report)  # allowed, but never sent again by a tick: said apart
    report.waiting_to_send = [d for d in waiting if d in allowed and d not in report.uncertain]
    if report.resolved is not None and "report" not in kinds:
        _tell_gm(campaign, report, can_send)
    return report


def _timed_steps(campaign: Campaign, report: TickReport, can_send: bool, trust_clock: bool) -> None:
    """Reminders and the resolution, which go by the clock: held when the clock
    looks wrong, and a deadline held while the turn's mail has not reached the players."""
    from .deadlines import clock_doubt

    pos = campaign.position()
    deadline = campaign.deadline()
    now = campaign.now()
    doubt = clock_doubt(now, pos.opened_at, deadline)
    if doubt and not trust_clock:
        report.held = (
            f"{doubt}. The tick resolves nothing and drafts no reminder while the clock looks "
            f"wrong. Set the clock right, or, if it is right, run `pbem tick {campaign.folder} "
            f"--trust-clock` once to go ahead with it."
        )
        return
    if _extend_for_late_mail(campaign, report, can_send):
        deadline = campaign.deadline()
    passed = deadline is not None and now >= deadline
    if reminders_due(campaign) and not passed:  # past it, the turn is resolved (or held) now
        report.reminders = remind(campaign)
    if campaign.missing_orders() and not passed:
        return
    if campaign.missing_orders() and can_send:
        from .postoffice import undelivered_turn_mail

        undelivered = undelivered_turn_mail(campaign)
        if undelivered:
            shown = ", ".join(undelivered[:6]) + (", ..." if len(undelivered) > 6 else "")
            report.held = (
                f"turn {pos.game.turn}'s deadline ({campaign.deadline_text(deadline)}) has passed, "
                f"but {len(undelivered)} of its turn mails have not reached the players, or not for "
                f"certain ({shown}; an uncertain one waits for your word, see below): "
                f"the turn is NOT resolved by defaults. The deadline is held until they are sent "
                f"(the next tick tries, or `pbem send {campaign.folder}`), then moved on by the time "
                f"lost; `pbem resolve {campaign.folder} --force` resolves it now."
            )
            return
    result = campaign.resolve(force=False)
    report.resolved = result.turn
    if result.warning:
        report.notes.append(result.warning)
    from .received import drop_stale_acks, dropped_acks_note  # held acks of the turn: no longer true

    if note := dropped_acks_note(drop_stale_acks(campaign)):
        report.notes.append(note)


def _extend_for_late_mail(campaign: Campaign, report: TickReport, can_send: bool) -> bool:
    """The awaited turn's mail left late (an SMTP outage, a crash): move its
    deadline on by the time lost, once, unless the GM set one (`pbem deadline`)."""
    from .deadlines import LATE_MAIL_GRACE
    from .postoffice import delivered_at

    if not can_send:
        return False
    with campaign.locked():
        pos = campaign.position()
        overrides = campaign.store.read_deadlines()
        if str(pos.game.turn) in overrides:  # the GM's deadline (or moved on already): kept
            return False
        deadline = campaign.deadline()
        when = delivered_at(campaign) if deadline is not None else None
        if when is None or deadline is None:
            return False
        lost = when - pos.opened_at
        if lost <= LATE_MAIL_GRACE:
            return False
        moved = deadline + lost
        overrides[str(pos.game.turn)] = moved.isoformat(timespec="seconds")
        campaign.store.write_deadlines(overrides)
    report.notes.append(
        f"Turn {pos.game.turn}'s mail reached the players {_span(lost)} late: its deadline moves from "
        f"{campaign.deadline_text(deadline)} to {campaign.deadline_text(moved)} "
        f"(`pbem deadline {campaign.folder} WHEN` sets another)."
    )
    return True


def _span(delta: timedelta) -> str:
    """``2 days 3 hours``."""
    from .deadlines import time_left

    start = datetime(2000, 1, 1)
    return time_left(start + delta, start).removesuffix(" left")


def allowed_drafts(campaign: Campaign, kinds: set[str]) -> list[str]:
    """The drafts in the outbox that a tick may send on its own: those of the
    kinds ``auto_send`` names (reports, reminders, acknowledgements; not the
    acknowledgements held over the hourly limit), and the tick's own notes to
    the GM, whenever they were drafted: a send that failed is tried again."""
    from .received import held_acks

    wanted = {"gm"}
    for kind in kinds:
        wanted |= {"report": {"public", "private"}, "ack": {"ack"}, "reminder": {"reminder"}}[kind]
    outbox = Outbox(campaign.folder)
    drafts = outbox.drafts()
    if not drafts:
        return []
    by_draft = {entry.get("draft"): entry.get("kind") for entry in outbox.known_ids().values()}
    held = {entry.get("ack") for entry in held_acks(campaign)} if "ack" in kinds else set()
    out = []
    for path in drafts:
        kind = by_draft.get(path.stem) or _kind_of(path.stem)
        if kind in wanted and path.stem not in held:
            out.append(path.stem)
    return out


def _kind_of(draft_id: str) -> str:
    """A draft's kind from its id, for one whose index line a crash lost."""
    import re

    if re.match(r"t\d{3}(r\d+)?-(public|private)-", draft_id):
        return "public"
    for prefix, kind in (("ack-", "ack"), ("reminder-", "reminder"), ("gm-review-", "gm")):
        if draft_id.startswith(prefix):
            return kind
    return ""


def _send_allowed(campaign: Campaign, report: TickReport, drafts: list[str], can_send: bool) -> None:
    """Send what the GM allowed; an uncertain draft is never sent again by a tick.
    A send that fails is noted; what it did not send, the next tick sends."""
    from .postoffice import send
    from .transport.ledger import SentLedger
    from .transport.smtp import SendError

    if not drafts or not can_send or report.send_failed:
        return
    ledger = SentLedger(campaign.store.sent_ledger)
    drafts = [d for d in drafts if not ledger.is_uncertain(d) and d not in report.sent]
    if not drafts:
        return
    try:
        result = send(campaign, drafts, missing_ok=True)  # a rollback may withdraw some meanwhile
    except SendError as exc:
        report.send_failed = True
        if exc.summary is not None:
            report.sent += exc.summary.sent
        report.notes.append(f"Sending stopped: {exc} The next tick sends what is left.")
        return
    report.sent += result.sent
    if result.waiting:  # the rate's day is full: not a failure, the next tick goes on
        report.notes.append(f"{len(result.waiting)} mail(s) wait for the next window: {result.wait_reason}.")
    for draft_id, reason in result.failed.items():
        report.failed.append(draft_id)
        report.notes.append(f"could not send {draft_id}: {reason}")


def _tell_uncertain(campaign: Campaign, report: TickReport) -> None:
    """Uncertain drafts wait for the GM's word: say so on every tick."""
    from .postoffice import uncertain_drafts

    ids = [u["draft"] for u in uncertain_drafts(campaign.folder)]
    if ids:
        report.uncertain = ids
        report.notes.append(
            f"{len(ids)} uncertain mail(s), handed to the SMTP server without a reply "
            f"(maybe delivered, maybe not), are NOT sent again by a tick: {', '.join(ids)}. "
            f"Check, then `pbem send {campaign.folder} --mark-sent ID` or "
            f"`--resend-uncertain ID`."
        )


def _tell_disorder(campaign: Campaign, report: TickReport) -> None:
    """Seats whose holder has just missed ``civil_disorder: after_turns`` turns in a
    row: a notice to the GM drafted (:mod:`pbem.seats`), and said in the tick's lines."""
    from . import seats

    drafted = seats.draft_gm_notices(
        campaign.store, campaign.config, campaign.zone, campaign.name, str(campaign.folder)
    )
    if not drafted:
        return
    info = seats.status(campaign.store, campaign.config, campaign.zone)
    for d in info["civil_disorder"]:
        if not any(x.endswith(f"-seat{d['seat'] + 1}") for x in drafted):
            continue  # told on an earlier tick
        line = f"Civil disorder: {d['player']} missed {d['turns']} turns in a row (since turn {d['since']})"
        standby = info["standby"]
        line += (
            f"; first standby: {standby['name']} (`pbem replace {campaign.folder} {d['player']} --standby`)."
            if standby
            else "; no standby: list in campaign.yaml."
        )
        report.disorder.append(line)
    report.notes.extend(report.disorder)
    report.notes.append(f"The GM was told by mail: {', '.join(drafted)}.")


def _tell_gm(campaign: Campaign, report: TickReport, can_send: bool) -> None:
    """Mail the GM that a resolved turn waits for review (once per turn)."""
    gm = campaign.config.gm
    if gm is None or not gm.email:
        report.notes.append("No gm: in campaign.yaml, so the GM was not mailed; run `pbem preview`.")
        return
    from .notices import draft_to_gm
    from .reports import Renderer

    outbox = Outbox(campaign.folder)
    draft_id = f"gm-review-t{report.resolved:03d}"
    if any(p.stem == draft_id for p in outbox.drafts()):
        return
    body = Renderer(campaign.store.templates_dir()).render(
        "gm_review.txt.j2",
        {
            "turn": report.resolved,
            "title": campaign.config.title or campaign.name,
            "folder": str(campaign.folder),
            "waiting": len(report.waiting_for_review),
            "disorder": report.disorder,  # the seats whose holder missed turns in a row (a notice too)
        },
    )
    subject = f"[{campaign.name}] Turn {report.resolved} waits for your review"
    draft_to_gm(outbox, draft_id, gm, subject=subject, body=body, turn=report.resolved)
    _send_allowed(campaign, report, [draft_id], can_send)
    report.notes.append(f"The GM was told that turn {report.resolved} waits for review.")
