"""Notices: the drafts of a mail that is not a turn's report, an acknowledgement
or a reminder. To every player: a deadline that moved (``templates/deadline.txt.j2``).
To the GM: a turn that waits for review, a seat in civil disorder
(:func:`draft_to_gm`, its wording in each caller's template).

Drafted into the outbox like reminders, for the GM to read and send (``pbem send``).
"""

from __future__ import annotations

from .config import CampaignConfig, Person
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


def draft_to_gm(
    outbox: Outbox, draft_id: str, gm: Person, *, subject: str, body: str, turn: int | None
) -> bool:
    """Draft DRAFT_ID, a notice from pbem to the GM (their own address on both
    sides); False, and nothing drafted, when a draft of that id is there already
    (each notice is drafted once)."""
    if outbox.has(draft_id):
        return False
    message_id = outbox.message_id(draft_id, gm.email)
    raw = make_message(
        sender_name="pbem",
        sender=gm.email,
        to_name=gm.name,
        to=gm.email,
        subject=subject,
        body=body,
        message_id=message_id,
    )
    outbox.add(draft_id, raw, message_id=message_id, kind="gm", turn=turn, to=gm.email, player=None)
    return True
