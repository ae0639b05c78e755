"""Two-player postal games through the public commands (RULES.md 9, INTERFACE.md).

The rules themselves are pinned in test_engine_rules.py ("9. two players"); here:
campaign files, the face-up cards in every report that shows a hand and in the
export, orders against a protected lone opponent, and `pbem verify`.
"""

from __future__ import annotations

import re

import kit
import pytest
from builders import B, C, G, H, K, P, X

from pbem.campaign import Campaign
from pbem.cards import Card
from pbem.record import extract, verify

PLAYERS2 = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
]


def duo_deck(face_up: list[Card], held: list[Card], draw: Card, set_aside: Card) -> list[str]:
    """Hand 1's deck: set-aside, three face up, Arthur's card, Bruno's, Arthur's draw."""
    return kit.deck_titles(2, 1, dict(enumerate(held)), draw, set_aside=set_aside, face_up=face_up)


@pytest.fixture
def duo(tmp_path, cli):
    folder = tmp_path / "duo"
    deck = duo_deck([X, C, K], [G, H], B, P)
    kit.write_config(folder, kit.config(PLAYERS2, decks={1: deck}))
    cli.ok("start", folder)
    return folder


def test_a_two_player_campaign_starts_and_deals_as_rules_9_says(duo, cli):
    data = cli.export(duo)
    assert data["players"] == ["Arthur", "Bruno"]
    hand1 = data["hands"][0]
    assert hand1["face_up"] == ["Princess", "Countess", "King"]
    assert hand1["set_aside"] == "Prince" and hand1["draw_pile"] == 9
    assert hand1["players"]["Arthur"]["cards"] == ["Guard", "Baron"]
    assert hand1["players"]["Bruno"]["cards"] == ["Handmaid"]
    assert [h["active"] for h in data["hands"]] == ["Arthur", "Bruno"] * 6 + ["Arthur"]
    assert all(len(h["face_up"]) == 3 for h in data["hands"])


def test_three_player_export_has_no_face_up_key(started3, cli):
    assert all("face_up" not in h for h in cli.export(started3)["hands"])


def test_opening_public_and_private_reports_show_the_face_up_cards(duo, cli):
    opening = cli.report(duo, 0)
    assert "7 tokens" in opening
    assert re.search(r"Hand  1: Princess, Countess, King", opening)
    private = cli.report(duo, 0, "Arthur")
    assert re.search(r"Face up.*\n(.*\n)*  Hand  1: Princess, Countess, King", private)
    # Bruno does not play hand 1 this turn: his mail lists only his own turns' face-up cards.
    assert "Hand  1: Princess" not in cli.report(duo, 0, "Bruno")
    cli.ok("order", duo, "--player", "Arthur", "Hand 1: Guard on Bruno, guess King")
    cli.ok("resolve", duo, "--force")
    public = cli.report(duo, 1)
    assert "Face up, out of the hand: Princess, Countess, King." in public
    assert "Hit" not in public.split("Hand 2")[0]  # a King is face up: Bruno cannot hold it


def test_a_guard_on_the_protected_lone_opponent_is_accepted_and_has_no_effect(duo, cli):
    # Turn 1: Arthur's Guard misses (Bruno holds the Handmaid); turn 2: Bruno plays it.
    cli.ok("order", duo, "--player", "Arthur", "Hand 1: Guard on Bruno, guess Prince")
    cli.ok("resolve", duo, "--force")
    cli.ok("order", duo, "--player", "Bruno", "Hand 1: Handmaid")
    cli.ok("resolve", duo, "--force")
    out = cli.ok("order", duo, "--player", "Arthur", "Hand 1: Baron on Bruno").output
    assert "protected" in out and "no effect" in out
    cli.ok("resolve", duo, "--force")
    report = cli.report(duo, 3)
    assert "nobody could be chosen" in report.split("Hand 2")[0]
    assert cli.export(duo)["hands"][0]["players"]["Arthur"]["in"]


@pytest.mark.parametrize("count", [1, 9])
def test_one_or_nine_players_are_refused_naming_the_allowed_counts(cli, snap, tmp_path, count):
    players = [{"name": f"Player{chr(65 + i)}", "email": f"p{i}@example.org"} for i in range(count)]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    before = snap(folder)
    out = cli.fails("start", folder).output
    assert snap(folder) == before
    assert "2 to 4" in out and "5 to 8" in out and "Premium" in out and "Traceback" not in out


def test_pbem_new_with_two_players_starts_and_with_one_is_refused(cli, tmp_path):
    cli.ok(
        "new",
        tmp_path / "pair",
        "--player",
        "Arthur <a@example.org>",
        "--player",
        "Bruno <b@example.org>",
        "--seed",
        "duo-seed-long-enough",
    )
    assert len(cli.export(tmp_path / "pair")["players"]) == 2
    out = cli.fails("new", tmp_path / "solo", "--player", "Arthur <a@example.org>").output
    assert "2 to 4" in out
    assert not (tmp_path / "solo" / "campaign.yaml").exists()


@pytest.mark.parametrize("length", [15, 17, 32])
def test_a_deck_of_the_wrong_length_for_the_player_count_is_refused(cli, snap, tmp_path, length):
    full = list(kit.FULL_DECK)
    deck = (full * 2)[:length]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(PLAYERS2, decks={3: deck}))
    out = cli.fails("start", folder).output
    assert "decks.3" in out and "16 cards" in out and f"has {length}" in out and "2 players" in out


def test_verify_replays_a_two_player_game(tmp_path):
    folder = tmp_path / "vduo"
    kit.write_config(folder, kit.config(PLAYERS2, seed="a-long-secret-seed-for-the-duo"))
    campaign = Campaign(folder)
    campaign.start()
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    record = extract(campaign.report())
    assert verify(record) == []
    record["turns"][0]["orders"]["1"] = {"card": "Princess", "target": None, "guess": None}
    assert verify(record)  # a changed order no longer gives the reported results
