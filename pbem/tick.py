"""Unattended running: reminders, and ``pbem tick``, the one command for cron.

A tick, in order: fetch and acknowledge new mail; draft the reminders that
fall due; resolve the turn when every order is in or the deadline has passed;
then send on its own only what the GM allowed (``mail: auto_send: [ack,
reminder, report]``), and otherwise tell the GM by mail that a turn waits for
review. Every step is idempotent (a message is read once, a player reminded
once a turn, a turn resolved once, a draft sent once), so running it every
minute does no harm; a second tick while one runs does nothing; a tick after
a long outage catches up (the overdue turn is resolved, the next one opens).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from .campaign import Campaign
from .outbox import Outbox, make_message, seat_part
from .store import dump_json, write_atomic

KINDS = ("ack", "reminder", "report")


def auto_send_kinds(config) -> set[str]:
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
        write_atomic(campaign.store.reminders, dump_json(done))
        return drafted


def _count(done: dict, turn: int, name: str) -> int:
    return done.get("counts", {}).get(f"{turn}/{name}", 0)


def _left(deadline, now) -> str:
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
    uncertain: list[str] = field(default_factory=list)  # the GM must say: arrived, or send again
    notes: list[str] = field(default_factory=list)

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
        if self.waiting_for_review:
            out.append(f"{len(self.waiting_for_review)} draft(s) wait for the GM's review (`pbem preview`).")
        out.extend(self.notes)
        return out


def tick(campaign: Campaign) -> TickReport:
    """One pass of the unattended GM (see the module docstring)."""
    from .store import StoreError, file_lock

    report = TickReport()
    if not campaign.folder.is_dir():
        raise StoreError(f"{campaign.folder}: no such campaign folder")
    with file_lock(campaign.store.tick_lock, timeout=0) as acquired:
        if not acquired:
            report.busy = True
            return report
        return _tick(campaign, report)


def _tick(campaign: Campaign, report: TickReport) -> TickReport:
    from .inbox import fetch_new
    from .postoffice import smtp_settings

    kinds = auto_send_kinds(campaign.config)
    can_send = smtp_settings(campaign.config) is not None
    campaign.publish_drafts()  # a resolve cut short by a crash: its drafts wait for review too
    outcomes = fetch_new(campaign)
    report.messages = len(outcomes)
    report.recorded = sum(o.recorded for o in outcomes)
    acks = [o.ack for o in outcomes if o.ack and not o.ack_held]  # held ones wait for the GM
    held = sorted({o.player for o in outcomes if o.ack_held and o.player is not None})
    if held:
        report.notes.append(
            f"{sum(o.ack_held for o in outcomes)} acknowledgement(s) held for your review: "
            f"too many messages an hour from {', '.join(held)} (see `pbem status`)."
        )
    if campaign.position().game.finished:
        _send_allowed(campaign, report, acks if "ack" in kinds else [], can_send)
        _tell_uncertain(campaign, report)
        return report
    if reminders_due(campaign):
        report.reminders = remind(campaign)
    deadline = campaign.deadline()
    passed = deadline is not None and campaign.now() >= deadline
    if not campaign.missing_orders() or passed:
        result = campaign.resolve(force=False)
        report.resolved = result.turn
        if result.warning:
            report.notes.append(result.warning)
        from .inbox import drop_stale_acks, dropped_acks_note  # held acks of the turn: no longer true

        if note := dropped_acks_note(drop_stale_acks(campaign)):
            report.notes.append(note)
    allowed = []
    if "ack" in kinds:
        allowed += acks
    if "reminder" in kinds:
        allowed += report.reminders
    if report.resolved is not None and "report" in kinds:
        allowed += [
            p.stem for p in Outbox(campaign.folder).drafts() if p.stem.startswith(f"t{report.resolved:03d}")
        ]
    _send_allowed(campaign, report, allowed, can_send)
    waiting = [p.stem for p in Outbox(campaign.folder).drafts()]
    report.waiting_for_review = waiting
    _tell_uncertain(campaign, report)
    if report.resolved is not None and "report" not in kinds:
        _tell_gm(campaign, report, can_send)
    return report


def _send_allowed(campaign: Campaign, report: TickReport, drafts: list[str], can_send: bool) -> None:
    """Send what the GM allowed; an uncertain draft is never sent again by a tick."""
    from .postoffice import send

    campaign.withdraw_drafts()  # a rollback killed half-way: its turn's drafts are never sent
    present = {p.stem for p in Outbox(campaign.folder).drafts()}
    drafts = [d for d in drafts if d in present]
    if drafts and can_send:
        result = send(campaign, drafts)  # a SendError says which draft it made uncertain
        report.sent += result.sent
        for draft_id, reason in result.failed.items():
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


def _tell_gm(campaign: Campaign, report: TickReport, can_send: bool) -> None:
    """Mail the GM that a resolved turn waits for review (once per turn)."""
    gm = campaign.config.gm
    if gm is None or not gm.email:
        report.notes.append("No gm: in campaign.yaml, so the GM was not mailed; run `pbem preview`.")
        return
    outbox = Outbox(campaign.folder)
    draft_id = f"gm-review-t{report.resolved:03d}"
    if any(p.stem == draft_id for p in outbox.drafts()):
        return
    body = (
        f'Turn {report.resolved} of "{campaign.config.title or campaign.name}" has been resolved '
        f"and its reports drafted.\n\nReview them with `pbem preview {campaign.folder}` and send them "
        f"with `pbem send {campaign.folder}`.\n\nDrafts waiting: {len(report.waiting_for_review)}.\n"
    )
    message_id = outbox.message_id(draft_id, gm.email)
    raw = make_message(
        sender_name="pbem",
        sender=gm.email,
        to_name=gm.name,
        to=gm.email,
        subject=f"[{campaign.name}] Turn {report.resolved} waits for your review",
        body=body,
        message_id=message_id,
    )
    outbox.add(
        draft_id, raw, message_id=message_id, kind="gm", turn=report.resolved, to=gm.email, player=None
    )
    if can_send:
        _send_allowed(campaign, report, [draft_id], can_send)
    report.notes.append(f"The GM was told that turn {report.resolved} waits for review.")
