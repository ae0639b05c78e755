"""Issue 24, items 3 and 5: seats that change hands, civil disorder after missed
turns, the standby list, and each player's record (exact games: a replaced seat,
an absent player), with the rating shown only from 5 finished games on."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import yaml
from kit import write_config
from test_unattended import Clock, run, utc

from pbem.campaign import Campaign
from pbem.config import ConfigError
from pbem.players import MIN_RATED_GAMES, GameSummary, PlayerRecord, game_summary, lines, over_games
from pbem.record import extract, verify
from pbem.seats import TurnFacts, hand_over, parse_disorder, parse_standby, tenure_problems, tenures

PEOPLE = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
    {"name": "Charles", "email": "charles@example.org"},
]
DORA = {"name": "Dora", "email": "dora@example.org"}
EVE = {"name": "Eve", "email": "eve@example.org"}


def _campaign(tmp_path, **extra) -> Campaign:
    data = {"title": "Seats", "gm": {"name": "Rita", "email": "gm@example.org"}, "players": PEOPLE}
    data["seed"] = 2424
    data.update(extra)
    write_config(tmp_path / "seats", data)
    campaign = Campaign(tmp_path / "seats", clock=Clock(utc("2026-12-01 10:00")))
    campaign.start()
    return campaign


def _legal(cards: list[str]) -> str:
    """A card the player may play: the Countess when the rule forces her, never the Princess."""
    if "Countess" in cards and ({"King", "Prince"} & set(cards)):
        return "Countess"
    return next((c for c in cards if c != "Princess"), cards[0])


def _awaited(campaign: Campaign) -> dict[str, list[int]]:
    """Name -> the hands they must play this turn, from `export` (not from the record's code)."""
    out: dict[str, list[int]] = {}
    for hand in campaign.export()["hands"]:
        if not hand["ended"]:
            out.setdefault(hand["active"], []).append(hand["hand"])
    return out


def _send_orders(campaign: Campaign, name: str, hands: list[int]) -> None:
    state = {h["hand"]: h for h in campaign.export()["hands"]}
    text = "\n".join(f"Hand {h}: {_legal(state[h]['players'][name]['cards'])}" for h in hands)
    campaign.record_orders(name, text)


def _ended(campaign: Campaign) -> dict[int, list[str]]:
    return {h["hand"]: h["winners"] for h in campaign.export()["hands"] if h["ended"]}


def test_the_settings_are_checked_with_a_sentence():
    assert parse_disorder(None).after_turns is None
    assert parse_disorder({"after_turns": 2, "mark": True}).mark
    for bad, words in (
        ({"after_turns": 0}, "from 1 to 20"),
        ({"after_turns": "two"}, "from 1 to 20"),
        ({"after_turns": 2, "mark": "yes"}, "true or false"),
        ({"after": 2}, "unknown setting 'after'"),
        ([2], "must be a mapping"),
    ):
        with pytest.raises(ConfigError, match=words):
            parse_disorder(bad)
    assert parse_standby([DORA]) == [DORA]
    with pytest.raises(ConfigError, match=r"standby\[1\]"):
        parse_standby([{"name": "Dora"}])


def test_start_refuses_a_bad_setting_with_a_sentence(tmp_path):
    write_config(tmp_path / "bad", {"players": PEOPLE, "civil_disorder": {"after_turns": 0}})
    code, out = run("start", tmp_path / "bad")
    assert code == 1 and "civil_disorder.after_turns: a whole number" in out and "Traceback" not in out, out
    assert not (tmp_path / "bad" / "turns").exists()


def test_a_handover_keeps_each_holders_turns_apart():
    seats = tenures({}, [("Arthur", "a@x"), ("Bruno", "b@x")])
    seats = hand_over(seats, 1, 4, "Dora", "d@x", same_person=False)
    assert seats[1] == [
        {"name": "Bruno", "email": "b@x", "from": 1, "to": 3},
        {"name": "Dora", "email": "d@x", "from": 4, "to": None},
    ]
    seats = hand_over(seats, 1, 4, "Eve", "e@x", same_person=False)  # Dora never played: replaced whole
    assert seats[1][-1] == {"name": "Eve", "email": "e@x", "from": 4, "to": None} and len(seats[1]) == 2
    seats = hand_over(seats, 1, 6, "Eve", "eve@y", same_person=True)  # a new address: still Eve's tenure
    assert seats[1][-1] == {"name": "Eve", "email": "eve@y", "from": 4, "to": None}
    record = {"players": ["Arthur", "Eve"], "seats": [[{"name": "Arthur", "from": 1, "to": None}], seats[1]]}
    assert tenure_problems(record) == []
    record["seats"][1][1]["from"] = 5  # a gap between Bruno and Eve
    assert tenure_problems(record) == [
        "seat 2: its holders in the record do not follow one another from turn 1"
    ]
    assert tenure_problems({"players": ["A", "B"]}) == []  # a record from before tenures


def test_the_record_of_a_game_with_a_replaced_seat_and_an_absent_player(tmp_path):
    """Arthur sends every order; Bruno none, and Dora (from the standby list) takes
    his seat from turn 3 and sends every order; Charles sends his orders but on
    turn 2, when he is away. The figures, the record and `verify` agree."""
    campaign = _campaign(tmp_path, standby=[DORA, EVE], absence={"max_days": 5})
    campaign.absent("Charles", "2026-12-02", "2026-12-02")
    expected = {
        key: {"turns": 0, "on_time": 0, "nmr": 0, "absent": 0, "won": 0}
        for key in ("Arthur", "Bruno", "Charles", "Dora")
    }
    day = date(2026, 12, 1)
    turn = 1
    while not campaign.position().game.finished:
        if turn == 3:
            assert campaign.replace_player("Bruno", standby=True) == "Dora"
        campaign.clock.moment = utc(f"{day} 10:00")
        before = _ended(campaign)
        for name, hands in _awaited(campaign).items():
            row = expected[name]
            row["turns"] += 1
            if name == "Bruno" or (name == "Charles" and turn == 2):
                row["nmr"] += len(hands)
            else:
                _send_orders(campaign, name, hands)
                row["on_time"] += 1
            row["absent"] += name == "Charles" and turn == 2
        result = campaign.resolve(force=True)
        for h, winners in _ended(campaign).items():
            for w in winners if h not in before else ():
                expected[w]["won"] += 1
        assert set(result.defaults) <= {"Bruno", "Charles"}
        turn += 1
        day += timedelta(days=1)
    assert turn > 4, "the game must outlast the replacement"

    info = campaign.status()
    assert info["tenures"] == [
        [{"name": "Bruno", "from": 1, "to": 2}, {"name": "Dora", "from": 3, "to": None}],
    ]
    text = (campaign.folder / "campaign.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["standby"] == [EVE]  # Dora left the list

    from pbem.players import campaign_summary

    summary = campaign_summary(campaign.store, campaign.config, campaign.zone, campaign.name)
    got = {
        r.name: {
            "turns": r.turns,
            "on_time": r.on_time,
            "nmr": r.nmr_hands,
            "absent": r.absent,
            "won": r.hands_won,
        }
        for r in summary.records
    }
    assert got == expected
    assert expected == {  # this exact game (seed 2424): 11 turns, Dora's seat from turn 3
        "Arthur": {"turns": 10, "on_time": 10, "nmr": 0, "absent": 0, "won": 4},
        "Bruno": {"turns": 2, "on_time": 0, "nmr": 10, "absent": 0, "won": 0},
        "Charles": {"turns": 11, "on_time": 10, "nmr": 4, "absent": 1, "won": 6},
        "Dora": {"turns": 9, "on_time": 9, "nmr": 0, "absent": 0, "won": 3},
    }
    assert expected["Bruno"] == {
        "turns": 2,
        "on_time": 0,
        "nmr": expected["Bruno"]["nmr"],
        "absent": 0,
        "won": 0,
    }
    assert (
        expected["Charles"]["absent"] == 1
        and expected["Charles"]["on_time"] == expected["Charles"]["turns"] - 1
    )
    shown = campaign_summary(campaign.store, campaign.config, campaign.zone, campaign.name, public=True)
    for gm_view, public in zip(summary.records, shown.records):  # the site's, from the public side
        assert public.absent == 0 and public.to_dict() == {**gm_view.to_dict(), "absent": 0}
    winners = campaign.export()["winners"]
    by_name = {r.name: r for r in summary.records}
    assert by_name["Bruno"].finished == 0 and by_name["Bruno"].games == 1  # left before the end
    assert by_name["Dora"].finished == 1 and by_name["Dora"].games_won == ("Dora" in winners)
    assert sum(r.games_won for r in summary.records) == len(winners)

    record = extract(campaign.report())
    assert record["seats"][1] == [
        {"name": "Bruno", "from": 1, "to": 2},
        {"name": "Dora", "from": 3, "to": None},
    ]
    assert "dora@example.org" not in campaign.report()  # names and turns, never addresses
    assert verify(record) == []
    code, out = run(
        "verify", str(campaign.store.turn_dir(campaign.store.latest_turn()) / "reports/public.txt")
    )
    assert code == 0, out
    record["seats"][1][0]["to"] = 1
    assert verify(record) == ["seat 2: its holders in the record do not follow one another from turn 1"]


def test_a_game_with_no_replacement_keeps_the_record_as_before(tmp_path):
    campaign = _campaign(tmp_path)
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    record = extract(campaign.report())
    assert "seats" not in record and record["version"] == 2 and verify(record) == []


def test_civil_disorder_after_two_missed_turns_is_marked_told_once_and_ends_with_the_standby(tmp_path):
    campaign = _campaign(tmp_path, civil_disorder={"after_turns": 2, "mark": True}, standby=[DORA])
    from pbem.seats import draft_gm_notices

    def play(absent: set[str]) -> None:
        for name, hands in _awaited(campaign).items():
            if name not in absent:
                _send_orders(campaign, name, hands)
        campaign.resolve(force=True)

    play({"Bruno"})
    assert campaign.status()["civil_disorder"] == []
    assert "civil disorder" not in campaign.report()
    play({"Bruno", "Charles"})
    info = campaign.status()
    assert [(d["player"], d["turns"], d["since"]) for d in info["civil_disorder"]] == [("Bruno", 2, 1)]
    assert info["standby"] == DORA
    report = campaign.report()
    assert "Bruno's seat is in civil disorder (missed turns)." in report, report
    assert "Charles's seat" not in report
    code, out = run("status", campaign.folder)
    assert "Civil disorder: Bruno missed 2 turns in a row (since turn 1; the GM is told after 2)" in out, out
    assert f"first standby: Dora <dora@example.org> (`pbem replace {campaign.folder} Bruno --standby`)" in out

    drafted = draft_gm_notices(campaign.store, campaign.config, campaign.zone, campaign.name, "DIR")
    assert drafted == ["gm-disorder-t002-seat2"]
    assert draft_gm_notices(campaign.store, campaign.config, campaign.zone, campaign.name, "DIR") == []
    play({"Bruno"})  # a third turn: the same run, no second notice
    assert draft_gm_notices(campaign.store, campaign.config, campaign.zone, campaign.name, "DIR") == []
    assert campaign.status()["civil_disorder"][0]["turns"] == 3

    code, out = run("replace", campaign.folder, "Bruno", "--standby")
    assert code == 0 and "Bruno's seat is now Dora's; campaign.yaml and its standby list updated" in out, out
    assert campaign.status()["civil_disorder"] == []
    code, out = run("replace", campaign.folder, "Dora", "--standby")
    assert code == 1 and "no standby: list" in out and "Traceback" not in out, out
    code, out = run("replace", campaign.folder, "Dora", "--standby", "--name", "Zed")
    assert code == 2 and "give no --name" in out, out


def test_an_absent_turn_neither_counts_nor_breaks_the_run(tmp_path):
    campaign = _campaign(tmp_path, civil_disorder={"after_turns": 2}, absence={"max_days": 5})
    campaign.absent("Bruno", "2026-12-02", "2026-12-02")
    for day in ("2026-12-01", "2026-12-02", "2026-12-03"):
        campaign.clock.moment = utc(f"{day} 10:00")
        campaign.resolve(force=True)  # nobody sends anything
    found = {d["player"]: d["turns"] for d in campaign.status()["civil_disorder"]}
    assert found == {"Arthur": 3, "Charles": 3, "Bruno": 2}


def test_each_holder_of_a_seat_is_credited_with_their_own_turns_only():
    seats = [
        [{"name": "Arthur", "email": "a@x", "from": 1, "to": None}],
        [
            {"name": "Bruno", "email": "b@x", "from": 1, "to": 2},
            {"name": "Dora", "email": "d@x", "from": 3, "to": None},
        ],
    ]
    away = [{"player": "Dora", "from": "2026-12-04", "to": "2026-12-04"}]
    facts = [
        TurnFacts(1, date(2026, 12, 1), {0: 2, 1: 3}, {1: 3}, {1: 1}, (), (0, 1)),
        TurnFacts(2, date(2026, 12, 2), {0: 2, 1: 2}, {0: 1, 1: 2}, {}, (), (0, 1)),
        TurnFacts(3, date(2026, 12, 3), {0: 2, 1: 2}, {}, {0: 1, 1: 2}, (), (1, 3)),
        TurnFacts(4, date(2026, 12, 4), {1: 1}, {1: 1}, {1: 1}, (1,), (1, 4)),
    ]
    summary = game_summary("g", facts, seats, away)
    got = {
        r.name: (r.turns, r.on_time, r.nmr_hands, r.absent, r.hands_won, r.finished, r.games_won)
        for r in summary.records
    }
    assert got == {
        "Arthur": (3, 2, 1, 0, 1, 1, 0),
        "Bruno": (2, 0, 5, 0, 1, 0, 0),
        "Dora": (2, 1, 1, 1, 3, 1, 1),
    }
    assert summary.result == [("a@x", 1), ("d@x", 0)] and summary.ended == date(2026, 12, 4)
    assert {r.name: r.on_time_ratio for r in summary.records}["Dora"] == 0.5


# -- the rating ------------------------------------------------------------------------------------


def _finished(name: str, ended: date, winner: int, people: list[dict]) -> GameSummary:
    seats = [[{**p, "from": 1, "to": None}] for p in people]
    facts = [
        TurnFacts(
            1,
            ended,
            {s: 1 for s in range(len(people))},
            {},
            {winner: 1},
            (winner,),
            tuple(5 if s == winner else s for s in range(len(people))),
        )
    ]
    return game_summary(name, facts, seats, [])


def test_the_rating_shows_only_from_five_finished_games():
    a, b, c = PEOPLE
    games = [_finished(f"g{i}", date(2026, 1, 1 + i), 0, [a, b, c]) for i in range(MIN_RATED_GAMES - 1)]
    renamed = {"name": "Art", "email": "ARTHUR@example.org"}  # the same address: the same person
    games.append(_finished("g9", date(2026, 2, 1), 0, [renamed, b, DORA]))
    everyone = {r.email.lower(): r for r in over_games(games)}
    arthur = everyone["arthur@example.org"]
    assert arthur.finished == MIN_RATED_GAMES and arthur.games_won == MIN_RATED_GAMES and arthur.name == "Art"
    assert arthur.rating is not None
    assert everyone["bruno@example.org"].rating is not None  # 5 games too
    assert everyone["charles@example.org"].finished == 4 and everyone["charles@example.org"].rating is None
    assert everyone["dora@example.org"].rating is None
    assert arthur.rating > everyone["bruno@example.org"].rating  # five wins against none
    table = "\n".join(lines(list(everyone.values()), rated=True))
    assert "after 5 games" in table and f"{arthur.rating:.1f}" in table
    assert lines([PlayerRecord("Nobody", "n@x")])[1].split()[:2] == ["Nobody", "-"]


def test_status_over_a_gm_folder_has_one_row_per_address_across_games(tmp_path):
    from pathlib import Path

    from pbem.campaign import copy_campaign

    examples = Path(__file__).resolve().parent.parent / "campaigns"
    copy_campaign(examples / "example", tmp_path / "gm" / "four")
    copy_campaign(examples / "duel", tmp_path / "gm" / "two")
    code, out = run("status", tmp_path / "gm")
    assert code == 0 and "Players, over" not in out, out
    assert f"`pbem status {tmp_path / 'gm'} --players`" in out, out
    code, out = run("status", tmp_path / "gm", "--players")
    assert code == 0, out
    table = out.split("Players, over every game (by address):\n", 1)[1].splitlines()
    assert table[0].split() == [
        "PLAYER",
        "ON",
        "TIME",
        "NMR",
        "HANDS",
        "ABSENT",
        "HANDS",
        "WON",
        "GAMES",
        "WON",
        "RATING",
    ]
    rows = {line.split()[0]: line for line in table[1:]}
    four = yaml.safe_load((tmp_path / "gm" / "four" / "campaign.yaml").read_text(encoding="utf-8"))
    two = yaml.safe_load((tmp_path / "gm" / "two" / "campaign.yaml").read_text(encoding="utf-8"))
    addresses = {p["email"] for p in four["players"]} | {p["email"] for p in two["players"]}
    assert len(rows) == len(addresses)  # a player of both games is one row
    assert all(line.endswith("after 5 games") for line in rows.values())
    code, out = run("status", tmp_path / "gm", "--json", "--players")
    import json

    data = json.loads(out)
    assert len(data["players"]) == len(addresses) and all(p["rating"] is None for p in data["players"])


def test_a_resolve_by_hand_drafts_the_civil_disorder_notice_too(tmp_path):
    # As the tick does: the GM who runs `pbem resolve` is told of the seat by a draft, once.
    campaign = _campaign(tmp_path, civil_disorder={"after_turns": 1}, standby=[DORA])
    for name, hands in _awaited(campaign).items():
        if name != "Bruno":
            _send_orders(campaign, name, hands)
    code, out = run("resolve", campaign.folder, "--force")
    assert code == 0, out
    assert "Civil disorder: a notice to you drafted (gm-disorder-t001-seat" in out, out
    from pbem.outbox import Outbox

    notices = [p.stem for p in Outbox(campaign.folder).drafts() if p.stem.startswith("gm-disorder-")]
    assert len(notices) == 1 and notices[0].startswith("gm-disorder-t001-seat"), notices
