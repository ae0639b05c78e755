"""Notices to every player: the drafts of a mail that is not a turn's report,
an acknowledgement or a reminder (today: a deadline that moved).

Drafted into the outbox like reminders, one per player, for the GM to read and
send (``pbem send``); the wording is in ``templates/deadline.txt.j2``.
"""

from __future__ import annotations

from .config import CampaignConfig
from .outbox import Outbox, make_message, seat_part
from .reports import Renderer


def draft_deadline_notices(
    outbox: Outbox,
    renderer: Renderer,
    config: CampaignConfig,
    *,
    campaign: str,
    players: list[str],
    turn: int,
    deadline: str,
    previous: str,
    later: bool,
    left: str,
) -> list[str]:
    """One notice per player that the deadline of ``turn`` moved; the draft ids."""
    gm = config.gm
    emails = {p.name: p.email for p in config.players}
    drafted = []
    # The n-th notice of this turn: ids never repeat, sent or waiting (a sent id is never sent again)
    used = {e.get("draft") for e in outbox.known_ids().values()}
    for seat, name in enumerate(players):
        body = renderer.render(
            "deadline.txt.j2",
            {
                "player": name,
                "turn": turn,
                "campaign": campaign,
                "title": config.title,
                "deadline": deadline,
                "previous": previous,
                "later": later,
                "left": left,
            },
        )
        n = 1
        draft_id = f"deadline-t{turn:03d}-{n}-{seat_part(seat)}"
        while outbox.has(draft_id) or draft_id in used:
            n += 1
            draft_id = f"deadline-t{turn:03d}-{n}-{seat_part(seat)}"
        message_id = outbox.message_id(draft_id, gm.email if gm else "")
        raw = make_message(
            sender_name=gm.name if gm else "pbem",
            sender=gm.email if gm else "",
            to_name=name,
            to=emails[name],
            subject=f"[{campaign}] Turn {turn}: the deadline has moved",
            body=body,
            message_id=message_id,
        )
        outbox.add(
            draft_id, raw, message_id=message_id, kind="notice", turn=turn, to=emails[name], player=name
        )
        drafted.append(draft_id)
    return drafted
