"""Rebuild ``campaigns/example`` (a 4-player game), ``campaigns/duel`` (a
two-player game, RULES.md 9) and ``campaigns/premium`` (a 6-player game with
the Premium deck, RULES.md 10): each two turns in, with every order of turn 3
already on file, so that ``pbem resolve campaigns/example`` (or ``duel``, or
``premium``) works right after install and shows what the tool does.

    python campaigns/make_example.py

The orders are typed the way players write them (several forms of INTERFACE.md),
chosen by a fixed generator among the legal plays, so the example is the same
every time it is rebuilt.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pbem.campaign import Campaign  # noqa: E402
from pbem.engine import CARD_RULES, PAIRED, legal_cards  # noqa: E402

CAMPAIGN_YAML = """\
title: Love Letter, postal example game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloé, email: chloe@example.fr}
  - {name: Dominik, email: dominik@example.de}
seed: 20261129
"""

DUEL_YAML = """\
title: Love Letter, postal duel (two players)
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Chloé, email: chloe@example.fr}
seed: 20261130
"""

PREMIUM_YAML = """\
title: Love Letter, postal Premium game (six players)
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloé, email: chloe@example.fr}
  - {name: Dominik, email: dominik@example.de}
  - {name: Elena, email: elena@example.es}
  - {name: Farid, email: farid@example.org}
seed: 20261201
"""

FORMS = [
    "Hand {h}: {card} on {target}, guess {guess}",
    "H{h} {card} {target} {guess}",
    "hand {h}: {card} -> {target} ({guess})",
    "Hand {h} - play the {card} on {target} and guess that they have a {guess}",
]


def order_line(h: int, card, players: list[str], me: str, policy: random.Random) -> str:
    if not CARD_RULES[card].targets:
        return f"Hand {h}: {card.title}"
    if card.title in ("Prince", "Sycophant") and policy.random() < 0.2:
        return f"Hand {h}: {card.title} on myself"
    if card in PAIRED:
        first, second = policy.sample([p for p in players if p != me], 2)
        look = f", look at {second}" if card.title == "Cardinal" and policy.random() < 0.5 else ""
        return f"Hand {h}: {card.title} on {first} and {second}{look}"
    target = policy.choice([p for p in players if p != me])
    guess = policy.choice(["Spy", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess", "5"])
    if len(players) >= 5:
        guess = policy.choice([guess, "0", "2", "4", "9"])  # Premium: a number, or a card for its rank
    form = policy.choice(FORMS) if card.title in ("Guard", "Bishop") else "Hand {h}: {card} on {target}"
    return form.format(h=h, card=card.title, target=target, guess=guess)


def record_turn(campaign: Campaign, policy: random.Random) -> None:
    pos = campaign.position()
    for seat, hands in pos.game.awaited().items():
        me = pos.players[seat]
        lines = [
            order_line(h, policy.choice(legal_cards(pos.game.hand(h).cards[seat])), pos.players, me, policy)
            for h in hands
        ]
        campaign.record_orders(me, "\n".join(lines), source="example")


def build(name: str, campaign_yaml: str, base: Path = HERE) -> Path:
    folder = base / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    (folder / "campaign.yaml").write_text(campaign_yaml, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(7)
    for _ in range(2):
        record_turn(campaign, policy)
        campaign.resolve()
    record_turn(campaign, policy)
    status = campaign.status()
    print(f"{folder}: turn {status['turn']} awaited, every order on file: {not status['missing']}")
    return folder


def main() -> None:
    build("example", CAMPAIGN_YAML)
    build("duel", DUEL_YAML)
    build("premium", PREMIUM_YAML)


if __name__ == "__main__":
    main()
