"""What became of each message received: the readers of ``mail/received.jsonl``
that commands other than a fetch need (`pbem status`, `pbem resolve`, the tick),
apart from :mod:`pbem.inbox`, which writes it: a resolution imports this much only."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .outbox import Outbox
from .store import fsync_dir

if TYPE_CHECKING:
    from .campaign import Campaign


def received_entries(campaign: Campaign) -> list[dict[str, Any]]:
    """What became of every message received (``received.jsonl``), oldest first;
    a line cut short by a crash is skipped (its message is read again)."""
    path = campaign.store.received_index
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict):
            out.append(entry)
    return out


def drop_stale_acks(campaign: Campaign) -> list[str]:
    """Take out of the outbox the held acknowledgements of turns already resolved (run
    after a resolution; returns their draft ids). Such an acknowledgement is no longer
    true ("You may still change them until the turn is resolved"); the turn's report
    tells the player what was played. Acknowledgements of the awaited turn stay for the GM."""
    with campaign.locked():
        held = held_acks(campaign)
        if not held:  # (nearly always: no index of every mail sent to read)
            return []
        game = campaign.position().game
        outbox = Outbox(campaign.folder)
        turns = {entry.get("draft"): entry.get("turn") for entry in outbox.known_ids().values()}
        dropped = []
        for entry in held:
            turn = turns.get(entry["ack"])
            if game.finished or not isinstance(turn, int) or turn < game.turn:
                outbox.remove(entry["ack"])
                dropped.append(entry["ack"])
        if dropped:
            fsync_dir(outbox.folder)
        return dropped


def dropped_acks_note(dropped: list[str]) -> str:
    """What the GM is told of :func:`drop_stale_acks` ("" for nothing dropped)."""
    if not dropped:
        return ""
    return (
        f"{len(dropped)} held acknowledgement(s) of the resolved turn dropped from the outbox "
        f"(no longer true; the turn's report tells each player what was played)."
    )


def held_acks(campaign: Campaign) -> list[dict[str, Any]]:
    """The acknowledgements held over the hourly limit and still in the outbox
    (for `pbem status`): each message's index entry."""
    outbox = campaign.store.outbox
    return [
        entry
        for entry in received_entries(campaign)
        if entry.get("ack_held") and (outbox / f"{entry['ack']}.eml").exists()
    ]
