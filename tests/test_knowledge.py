"""What players know of each other's cards is carried from turn to turn in the
GM's state (pbem/knowledge.py), so a resolve reads one record instead of every
earlier turn's events. The carried record must say exactly what the whole
history says, and a campaign begun before the record existed must get the same
private mails."""

from __future__ import annotations

import json
import shutil

import kit
import pytest

from pbem import events as ev
from pbem.campaign import Campaign
from pbem.cards import Card
from pbem.knowledge import from_json, still_open, update
from pbem.store import EVENTS, STATE

SIX = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")]


def _campaign(tmp_path, players, seed) -> Campaign:
    folder = tmp_path / f"game{len(players)}-{seed}"
    folder.mkdir()
    kit.write_config(folder, {"title": "Knowledge", "seed": seed, "players": players})
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def _rebuilt(campaign: Campaign, turn: int):
    """The record as the whole history tells it after ``turn``."""
    known: dict = {}
    for t in range(1, turn + 1):
        known = update(known, t, [ev.from_dict(e) for e in campaign.store.read_json(t, EVENTS)])
    return known


@pytest.mark.parametrize(("players", "seed"), [(kit.PLAYERS4, 11), (SIX, 12), (SIX[:5], 13)])
def test_the_carried_record_is_what_the_whole_history_tells(tmp_path, players, seed):
    """Every turn of a game played by the defaults (which look and trade often)."""
    campaign = _campaign(tmp_path, players, seed)
    looked = 0
    while not campaign.position().game.finished and campaign.position().game.turn <= 30:
        result = campaign.resolve(force=True)
        state = campaign.store.read_json(result.turn, STATE)
        carried = from_json(state["knowledge"])
        assert carried == still_open(_rebuilt(campaign, result.turn), result.game)
        looked += sum(len(entries) for entries in carried.values())
    assert looked, "these games should have taught somebody a card"


def test_a_campaign_without_the_record_gets_the_same_private_mails(tmp_path):
    """A campaign begun by an older pbem kept no record: it is rebuilt from the
    events, and the private mails say the same as with the record."""
    campaign = _campaign(tmp_path, SIX, 21)
    for _ in range(4):
        campaign.resolve(force=True)
    older = tmp_path / "older"
    shutil.copytree(campaign.folder, older)
    latest = Campaign(older).store.turn_dir(4) / STATE
    data = json.loads(latest.read_text(encoding="utf-8"))
    assert data["knowledge"], "the test needs a game in which somebody knows a card"
    del data["knowledge"]
    latest.write_text(json.dumps(data), encoding="utf-8")

    with_record = campaign.resolve(force=True)
    without_record = Campaign(older).resolve(force=True)
    assert without_record.private_reports == with_record.private_reports
    assert "You know:" in "".join(with_record.private_reports.values())


def test_a_card_played_since_and_a_trade_mark_what_was_learned():
    """update() folds one turn at a time: what a later turn shows (the card
    played, a King's trade) marks what an earlier turn taught."""
    saw = ev.SpySaw(1, 0, 1, Card.PRINCE)  # Ann's Spy saw Ben's Prince in hand 1
    gave = ev.KingReceived(2, 2, 0, Card.BARON)  # Cy received Ann's Baron in hand 2
    first = update({}, 1, [saw, gave])
    assert [(e["hand"], e["other"], e["card"], e["how"]) for e in first[0]] == [
        (1, 1, "Prince", "spy_saw"),
        (2, 2, "Baron", "king_gave"),
    ]
    played = ev.Played(1, 1, Card.GUARD, 0, 0, Card.KING, False, False, False, False)
    traded = ev.KingTrade(2, 3, 2)  # Dee's King: Cy's card changed hands
    second = update(first, 2, [played, traded])
    assert second[0][0]["played_since"] == ["Guard"] and not second[0][0]["may_have_changed"]
    assert second[0][1]["may_have_changed"]
    assert first[0][0]["played_since"] == [] and not first[0][1]["may_have_changed"]  # not changed in place
    assert 1 not in second and 2 not in second  # nobody else learned anything
