"""The GM's views of a campaign: ``pbem status`` (who owes what) and ``pbem
export`` (the whole state as INTERFACE.md's JSON).

Plain functions of a :class:`~pbem.orderbook.Position` and the orders on file:
they read no file and change nothing (:class:`~pbem.campaign.Campaign` reads
what they need and calls them).
"""

from __future__ import annotations

from typing import Any

from .engine import PREMIUM_PLAYERS
from .orderbook import Position, missing_hands


def export_view(campaign: str, position: Position, on_file: dict[str, Any]) -> dict[str, Any]:
    """The whole state as INTERFACE.md's JSON (``on_file``: the orders on file
    for the awaited turn, empty once the game is over)."""
    game, players = position.game, position.players
    hands = []
    for h in game.hands:
        hands.append(
            {
                "hand": h.number,
                "ended": h.ended,
                "active": None if h.active is None or h.ended else players[h.active],
                "draw_pile": len(h.pile),
                "set_aside": h.set_aside.title if h.set_aside else None,
                "winners": [players[s] for s in h.winners],
                **({"face_up": [c.title for c in h.face_up]} if game.players == 2 else {}),
                **(
                    {"marked": None if h.marked is None or h.ended else players[h.marked]}
                    if game.players in PREMIUM_PLAYERS
                    else {}
                ),
                "players": {
                    name: {
                        "in": h.alive[s],
                        "cards": [c.title for c in h.cards[s]] if h.alive[s] else [],
                        "discards": [c.title for c in h.discards[s]],
                        "protected": h.protected[s],
                    }
                    for s, name in enumerate(players)
                },
            }
        )
    orders = {
        name: {
            hand: {k: rec[k] for k in ("card", "target", "guess", "targets", "look", "status") if k in rec}
            for hand, rec in sorted(per_hand.items(), key=lambda kv: int(kv[0]))
        }
        for name, per_hand in on_file.items()
    }
    return {
        "campaign": campaign,
        "players": players,
        "turn": game.turn,
        "finished": game.finished,
        "winners": [players[s] for s in game.winners],
        "tokens": dict(zip(players, game.tokens)),
        "hands": hands,
        "orders": orders,
    }


def status_view(
    campaign: str, position: Position, on_file: dict[str, Any], deadline: dict[str, Any] | None
) -> dict[str, Any]:
    """What the GM needs at a glance: turn, hands in play, who owes what, tokens
    (``on_file``: the orders on file for the awaited turn; ``deadline``: its
    deadline as the status shows it, None without one)."""
    game = position.game
    return {
        "campaign": campaign,
        # the awaited turn; once the game is over, the turn it ended on
        "turn": game.turn - 1 if game.finished else game.turn,
        "finished": game.finished,
        "winners": [position.players[s] for s in game.winners],
        "hands_in_play": [h.number for h in game.hands if not h.ended],
        "missing": {} if game.finished else missing_hands(position, on_file),
        "on_file": {name: sorted(int(h) for h in hands) for name, hands in on_file.items()},
        "tokens": dict(zip(position.players, game.tokens)),
        "deadline": deadline,
    }
