"""The deal's public event of a two-player game (RULES 9): each hand's three
face-up cards, written with turn 0 (``events.json``), so that a public reader
(the web pages) knows them without reading a report's wording. A campaign begun
by an older pbem has no such event: the pages read its opening report instead.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import kit
import pytest
from builders import B, C, G, H, K, P, S, X, deck
from site_games import play as play_site_game
from site_games import write_campaign

from pbem import events as ev
from pbem.campaign import Campaign
from pbem.cards import FULL_DECK
from pbem.engine import HANDS_PER_GAME, Game, deal_events, shuffled_deck
from pbem.site import build_site
from pbem.site.archive import read_archive
from pbem.store import StoreError

PLAYERS2 = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
]

#: The three face-up cards of each hand, in deck order (a card may come twice or three times).
FACE_UP = {
    1: (X, C, K),
    2: (G, G, G),
    3: (S, B, H),
    4: (P, P, G),
    5: (K, X, C),
    6: (H, H, S),
    7: (B, B, G),
    8: (G, S, B),
    9: (C, G, X),
    10: (P, H, K),
    11: (S, S, P),
    12: (G, B, X),
    13: (K, G, G),
}
TURN0_EVENTS = Path("turns") / "turn-000" / "events.json"
WORDING = "laid face up, out of the hand for good"  # the event's sentence (_events.txt.j2)


def exact_deck(number: int) -> list:
    """Hand ``number``'s deck with FACE_UP's cards laid face up; the players'
    cards and the draw are the first cards left over."""
    left = sorted((Counter(FULL_DECK) - Counter(FACE_UP[number])).elements())
    return deck(2, number, {0: left[0], 1: left[-1]}, left[1], face_up=list(FACE_UP[number]))


def expected_events() -> list:
    return [ev.FaceUp(h, FACE_UP[h]) for h in range(1, HANDS_PER_GAME + 1)]


@pytest.fixture
def duo(tmp_path) -> Path:
    """A two-player campaign, started, every deck exact."""
    folder = tmp_path / "duo"
    decks = {h: [c.title for c in exact_deck(h)] for h in range(1, HANDS_PER_GAME + 1)}
    kit.write_config(folder, kit.config(PLAYERS2, decks=decks))
    Campaign(folder).start()
    return folder


def turn0_events(folder: Path) -> list:
    return json.loads((folder / TURN0_EVENTS).read_text(encoding="utf-8"))


# -- the event -----------------------------------------------------------------------------------


def test_the_deal_lists_each_hands_three_face_up_cards_in_deal_order():
    game = Game.new(2, {h: exact_deck(h) for h in range(1, HANDS_PER_GAME + 1)})
    events = deal_events(game)
    assert events == expected_events()
    assert [e.hand for e in events] == list(range(1, 14))
    assert all(e.audience is None for e in events) and ev.public(events) == events
    assert events[1].cards == (G, G, G)  # the same card three times stays three cards


def test_the_event_round_trips_through_json_and_names_its_cards():
    event = ev.FaceUp(5, (K, X, C))
    assert ev.to_dict(event) == {"kind": "face_up", "hand": 5, "cards": ["King", "Princess", "Countess"]}
    assert ev.from_dict(ev.to_dict(event)) == event
    assert ev.from_dict(json.loads(json.dumps(ev.to_dict(event)))) == event


@pytest.mark.parametrize(
    "cards", [["King", "Joker", "Guard"], "Guard", [1, 2, 3], [None, "Guard", "Guard"]], ids=str
)
def test_an_event_with_a_card_that_is_none_of_the_game_is_refused(cards):
    with pytest.raises(ValueError, match="is not a list of card names"):
        ev.from_dict({"kind": "face_up", "hand": 1, "cards": cards})


@pytest.mark.parametrize("players", [3, 4, 5, 6, 8])
def test_no_deal_event_with_three_to_eight_players(players):
    game = Game.new(players, {h: shuffled_deck("no-face-up", h, players) for h in range(1, 14)})
    assert deal_events(game) == []


# -- written with the opening turn --------------------------------------------------------------


def test_start_writes_the_deal_event_in_turn_0(duo):
    assert turn0_events(duo) == [ev.to_dict(e) for e in expected_events()]


def test_a_three_player_start_writes_no_event(started3):
    assert turn0_events(started3) == []


def test_the_opening_reports_tell_the_face_up_cards_once_and_never_as_a_play(duo):
    campaign = Campaign(duo)
    public = campaign.report(0)
    for h, cards in FACE_UP.items():
        line = f"  Hand {h:2d}: {', '.join(c.title for c in cards)}\n"
        assert public.count(line) == 1, line
    assert WORDING not in public
    for name in ("Arthur", "Bruno"):
        private = campaign.report(0, name)
        assert WORDING not in private
        assert "Last turn:" not in private  # the deal is no play of a "last turn"
    # ... and their own turns' face-up cards are still in the private mail (the odds of a Guard)
    assert "Face up" in campaign.report(0, "Arthur")


def test_the_deal_event_survives_a_rollback_and_a_replacement(duo, cli):
    before = (duo / TURN0_EVENTS).read_bytes()
    campaign = Campaign(duo)
    campaign.resolve(force=True)
    assert all(e["kind"] != "face_up" for e in json.loads((duo / "turns/turn-001/events.json").read_text()))
    assert campaign.rollback() == 1
    assert (duo / TURN0_EVENTS).read_bytes() == before
    cli.ok("replace", duo, "Arthur", "--name", "Zoe")
    assert (duo / TURN0_EVENTS).read_bytes() == before  # cards, not names: nothing to rewrite
    Campaign(duo).resolve(force=True)
    archive = read_archive(duo)
    assert archive.players == ["Zoe", "Bruno"]
    assert archive.face_up == {h: tuple(c.title for c in cards) for h, cards in FACE_UP.items()}
    assert archive.turns[0].events == []  # no play in the deal: the face-up cards are apart


# -- the web pages read it ------------------------------------------------------------------------


def site_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_the_site_reads_the_face_up_cards_from_the_event_not_the_reports_wording(duo, tmp_path):
    """A GM's public.txt.j2 may word the list otherwise (or leave it out): the
    pages still show the deal's face-up cards. (Before the event, this build
    stopped: the opening report was the only place they were read from.)"""
    folder = tmp_path / "worded"
    kit.write_config(folder, (duo / "campaign.yaml").read_text(encoding="utf-8"))
    template = (Path(__file__).parent.parent / "templates" / "public.txt.j2").read_text(encoding="utf-8")
    head = "Two players: in each hand three cards lie face up, out of the hand for good:"
    assert head in template
    (folder / "templates").mkdir()
    (folder / "templates" / "public.txt.j2").write_text(
        template.replace(head, "Cards on the table, for all to see:"), encoding="utf-8"
    )
    Campaign(folder).start()
    assert head not in Campaign(folder).report(0)
    build_site(folder, tmp_path / "out")
    assert read_archive(folder).face_up == {h: tuple(c.title for c in cards) for h, cards in FACE_UP.items()}
    story = (tmp_path / "out" / "hand-05.html").read_text(encoding="utf-8")
    assert "three cards laid face up, out of the hand for good (King, Princess, Countess)" in story


@pytest.fixture(scope="module")
def played_duel(tmp_path_factory) -> Path:
    """A two-player game a few turns in, with its site built."""
    folder = write_campaign(tmp_path_factory.mktemp("played") / "duel", 2, seed=8)
    play_site_game(folder, turns=4, policy_seed=8)
    return folder


def test_a_campaign_from_an_older_pbem_builds_the_same_site_from_its_opening_report(played_duel, tmp_path):
    """An older pbem wrote turn 0's events.json empty: the face-up cards come from
    the opening report, and the pages are the same, byte for byte."""
    old = tmp_path / "old" / "duel"
    shutil.copytree(played_duel, old)
    assert turn0_events(old) and all(e["kind"] == "face_up" for e in turn0_events(old))
    (old / TURN0_EVENTS).write_text("[]\n", encoding="utf-8")
    assert read_archive(old).face_up == read_archive(played_duel).face_up
    build_site(played_duel, tmp_path / "new-site")
    build_site(old, tmp_path / "old-site")
    assert site_files(tmp_path / "old-site") == site_files(tmp_path / "new-site")


def damage_hand_5(events: list) -> list:
    return [dict(e, cards=e["cards"][:2]) if e["hand"] == 5 else e for e in events]


@pytest.mark.parametrize(
    "damage",
    [
        damage_hand_5,  # two cards
        lambda events: [e for e in events if e["hand"] != 5],  # a hand left out
        lambda events: events + [events[0]],  # a hand twice
        lambda events: [dict(e, hand=str(e["hand"])) for e in events],  # not a hand number
    ],
    ids=["two-cards", "hand-missing", "hand-twice", "hand-not-a-number"],
)
def test_a_damaged_deal_event_stops_the_site_with_a_clear_error(played_duel, tmp_path, cli, damage):
    folder = tmp_path / "duel"
    shutil.copytree(played_duel, folder)
    cli.ok("site", folder, "--out", tmp_path / "out")
    before = site_files(tmp_path / "out")
    path = folder / TURN0_EVENTS
    path.write_text(json.dumps(damage(turn0_events(folder))), encoding="utf-8")
    result = cli.fails("site", folder, "--out", tmp_path / "out")
    assert "the deal's face-up cards are not three cards for each of the 13 hands" in result.output
    assert str(path) in result.output and "Traceback" not in result.output
    assert site_files(tmp_path / "out") == before
    with pytest.raises(StoreError, match="restore it from a backup"):
        read_archive(folder)


def test_a_deal_event_with_an_unknown_card_or_outside_the_deal_is_refused(played_duel, tmp_path, cli):
    folder = tmp_path / "duel"
    shutil.copytree(played_duel, folder)
    dealt = turn0_events(folder)
    path = folder / TURN0_EVENTS
    path.write_text(json.dumps([dict(dealt[0], cards=["Joker", "Guard", "Guard"]), *dealt[1:]]), "utf-8")
    result = cli.fails("site", folder, "--out", tmp_path / "out")
    assert "an event cannot be read" in result.output and str(path) in result.output
    path.write_text(json.dumps(dealt), encoding="utf-8")
    later = folder / "turns" / "turn-002" / "events.json"
    later.write_text(json.dumps(json.loads(later.read_text()) + [dealt[0]]), encoding="utf-8")
    result = cli.fails("site", folder, "--out", tmp_path / "out")
    assert "only the deal (turn 0) of a two-player game has" in result.output and str(later) in result.output


def test_a_deal_event_in_a_three_player_game_is_refused(started3, tmp_path, cli):
    path = started3 / TURN0_EVENTS
    path.write_text(json.dumps([ev.to_dict(ev.FaceUp(1, (G, G, G)))]), encoding="utf-8")
    result = cli.fails("site", started3, "--out", tmp_path / "out")
    assert "only the deal (turn 0) of a two-player game has" in result.output


# -- verify and export ----------------------------------------------------------------------------


def test_a_finished_two_player_game_exports_and_verifies(duo, cli, tmp_path):
    campaign = Campaign(duo)
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    data = cli.export(duo)
    assert [tuple(h["face_up"]) for h in data["hands"]] == [
        tuple(c.title for c in FACE_UP[h]) for h in range(1, 14)
    ]
    final, opening = tmp_path / "final.txt", tmp_path / "opening.txt"
    final.write_text(campaign.report(), encoding="utf-8")
    opening.write_text(campaign.report(0), encoding="utf-8")
    assert cli.ok("verify", final, "--opening", opening).output.startswith("VERIFIED: ")
