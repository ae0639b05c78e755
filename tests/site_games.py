"""Finished and half-played campaigns for the site tests and bench/site.py.

Orders are chosen by a fixed generator among the legal plays, with targets
that are sometimes protected, out or the player themselves (so redirections,
completed orders and NMR defaults all happen), and some hands are left to the
NMR defaults. Premium games (5 to 8 players) also name two players (the
Cardinal, the Baroness), guess numbers, and give standing Bishop orders.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from pbem.campaign import Campaign
from pbem.engine import legal_cards

NAMES = ["Arthur", "Bruno", "Chloé", "Dominik", "Elena", "Farid", "Gwen", "Hugo"]
GUESSES = ["Spy", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess", "Guard"]
NUMBERS = [str(n) for n in range(10)] + ["Sycophant", "Bishop", "Assassin"]  # RULES 10.2


def write_campaign(
    folder: Path,
    players: int = 4,
    seed: int | str = 7,
    decks: dict | None = None,
    names: list[str] | None = None,
    **extra,
) -> Path:
    """``names``: the players' names (default: the first ``players`` of NAMES)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "title": f"Site test game {seed}",
        "players": [
            {"name": n, "email": f"{n.lower().replace('é', 'e')}@example.org"}
            for n in (names or NAMES)[:players]
        ],
        "seed": seed,
    }
    if decks:
        data["decks"] = decks
    data.update(extra)
    (folder / "campaign.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return folder


def order_lines(campaign: Campaign, policy: random.Random) -> dict[str, str]:
    """Player -> the text of their orders this turn (some hands left out: NMR)."""
    pos = campaign.position()
    premium = len(pos.players) >= 5
    out = {}
    for seat, hands in pos.game.awaited().items():
        me = pos.players[seat]
        lines = []
        for h in hands:
            if policy.random() < 0.15:
                continue  # no order: the NMR default plays it
            card = policy.choice(legal_cards(pos.game.hand(h).cards[seat]))
            target = policy.choice(pos.players)  # perhaps themselves, out, or protected
            if premium:
                second = policy.choice(pos.players)
                guess = policy.choice(NUMBERS)
                lines.append(f"Hand {h}: {card.title} on {target} and {second}, guess {guess}")
                continue
            guess = policy.choice(GUESSES)
            lines.append(f"Hand {h}: {card.title} on {target}, guess {guess}")
        if premium and policy.random() < 0.5:  # a standing order for when a Bishop hits (RULES 10.3)
            lines.append(f"Hand {policy.randint(1, 13)}: if Bishop, {policy.choice(['discard', 'keep'])}")
        if lines:
            out[me] = "\n".join(lines)
    return out


def play(folder: Path, turns: int | None = None, policy_seed: int = 1) -> Campaign:
    """Start the campaign in ``folder`` and play ``turns`` turns (None: to the end)."""
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(policy_seed)
    played = 0
    while not campaign.position().game.finished and (turns is None or played < turns):
        for name, text in order_lines(campaign, policy).items():
            campaign.record_orders(name, text)
        campaign.resolve(force=True)
        played += 1
    return campaign
