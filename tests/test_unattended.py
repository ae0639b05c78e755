"""Issue 5: deadlines on a controlled clock, reminders, `pbem tick`, and
`pbem verify` on true and tampered final reports. No test sleeps: every clock
is passed in (library) or set with PBEM_NOW (command line)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from pbem.campaign import Campaign, MissingOrders
from pbem.cli import main
from pbem.config import ConfigError
from pbem.deadlines import describe, parse_schedule, parse_when, scheduled
from pbem.record import BEGIN, END, extract, record_block
from pbem.tick import remind, tick

UTC = UTC
PARIS = ZoneInfo("Europe/Paris")
YAML = """\
title: Clock game
gm: {{name: Rita, email: gm@example.org}}
players:
  - {{name: Arthur, email: arthur@example.org}}
  - {{name: Bruno, email: bruno@example.org}}
  - {{name: Chloé, email: chloe@example.fr}}
seed: 11
{extra}"""
SCHEDULE = 'deadline: {timezone: Europe/Paris, every_days: 3, at: "20:00", remind_hours: 24}\n'


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, moment: datetime):
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


def at(campaign: Campaign, text: str) -> Campaign:
    """The campaign, its clock moved to ``text`` (UTC)."""
    campaign.clock.moment = utc(text)
    return campaign


def make(tmp_path: Path, extra: str = SCHEDULE, start: str = "2026-10-22 10:00") -> Campaign:
    folder = tmp_path / "clock"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML.format(extra=extra), encoding="utf-8")
    campaign = Campaign(folder, clock=Clock(utc(start)))
    campaign.start()
    return campaign


def run(*args, now: str | None = None) -> tuple[int, str]:
    env = {"PBEM_NOW": now} if now else {}
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return result.exit_code, result.output


# -- deadlines ------------------------------------------------------------------------------------


def test_deadline_across_the_autumn_dst_change_stays_at_local_time():
    schedule = parse_schedule({"timezone": "Europe/Paris", "every_days": 3, "at": "20:00"})
    # Opened Thursday 22 October (summer time, UTC+2); due Sunday 25th, after the change (UTC+1).
    due = scheduled(schedule, 1, utc("2026-10-22 10:00"))
    assert due == utc("2026-10-25 19:00")
    assert due.astimezone(PARIS).hour == 20
    before = scheduled(schedule, 1, utc("2026-10-19 10:00"))
    assert before == utc("2026-10-22 18:00")  # still summer time: 20:00 = 18:00 UTC


def test_deadline_on_the_spring_change_and_a_skipped_hour():
    schedule = parse_schedule({"timezone": "Europe/Paris", "every_days": 1, "at": "02:30"})
    # 29 March 2026, 02:30 does not exist in Paris: the deadline moves on to 03:30 local.
    due = scheduled(schedule, 1, utc("2026-03-28 12:00"))
    assert due.astimezone(PARIS).strftime("%d %H:%M") == "29 03:30"


def test_turn_mail_states_the_deadline_in_zone_and_utc(tmp_path):
    campaign = make(tmp_path)
    text = campaign.report(0, "Arthur")
    assert "Orders are due by Sunday 25 October 2026, 20:00 Europe/Paris (19:00 UTC)." in text
    assert describe(utc("2026-10-25 19:00"), PARIS) in campaign.report(0)


def test_explicit_turn_deadlines_and_bad_sections(tmp_path):
    schedule = parse_schedule({"timezone": "America/New_York", "turns": {1: "2026-12-01 20:00"}})
    assert scheduled(schedule, 1, utc("2026-11-01 00:00")) == utc("2026-12-02 01:00")
    assert scheduled(schedule, 2, utc("2026-11-01 00:00")) is None
    for bad in (
        {"timezone": "Mars/Olympus", "every_days": 3},
        {"timezone": "UTC"},
        {"timezone": "UTC", "every_days": 0},
        {"timezone": "UTC", "every_days": 2, "at": "25:00"},
    ):
        with pytest.raises(ConfigError):
            parse_schedule(bad)
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(
        YAML.format(extra="deadline: {timezone: Nowhere, every_days: 2}\n"), encoding="utf-8"
    )
    code, out = run("start", folder)
    assert code == 1 and "deadline.timezone" in out and not (folder / "turns").exists()


def test_resolve_before_the_deadline_needs_every_order_after_it_plays_defaults(tmp_path):
    campaign = make(tmp_path)
    with pytest.raises(MissingOrders) as e:
        at(campaign, "2026-10-25 18:59").resolve()
    assert "25 October 2026, 20:00 Europe/Paris" in str(e.value)
    result = at(campaign, "2026-10-25 19:00").resolve()
    assert result.turn == 1 and sum(len(h) for h in result.defaults.values()) == 13


def test_pbem_deadline_moves_the_current_deadline_and_status_shows_time_left(tmp_path):
    campaign = make(tmp_path)
    code, out = run("deadline", campaign.folder, "2026-10-30 12:00", now="2026-10-23T10:00:00+00:00")
    assert code == 0 and "Friday 30 October 2026, 12:00 Europe/Paris (11:00 UTC)" in out
    code, out = run("status", campaign.folder, now="2026-10-29T11:00:00+00:00")
    assert "1 day left" in out
    code, out = run("deadline", campaign.folder, "+36h", now="2026-10-23T10:00:00+00:00")
    assert campaign.deadline() == utc("2026-10-31 23:00")  # +36h extends the current deadline
    code, out = run(
        "deadline", campaign.folder, "+36h", "--from-now", "--earlier", now="2026-10-23T10:00:00+00:00"
    )
    assert campaign.deadline() == utc("2026-10-24 22:00")
    code, out = run("deadline", campaign.folder, "next week")
    assert code == 1 and "is not a time" in out


def test_parse_when_forms():
    assert parse_when("2026-12-01 20:00", PARIS, None) == utc("2026-12-01 19:00")
    assert parse_when("2026-12-01T20:00:00+00:00", PARIS, None) == utc("2026-12-01 20:00")
    assert parse_when("+2d", PARIS, utc("2026-12-01 00:00")) == utc("2026-12-03 00:00")


# -- reminders and tick ---------------------------------------------------------------------------------


def drafts(campaign: Campaign, prefix: str) -> list[str]:
    return sorted(p.stem for p in (campaign.folder / "mail" / "outbox").glob(f"{prefix}*.eml"))


def test_reminders_name_the_missing_hands_and_fall_due_once(tmp_path):
    campaign = make(tmp_path)
    campaign.record_orders(
        "Arthur",
        "\n".join(
            f"Hand {h}: {campaign.position().game.hand(h).cards[0][0].title} on Bruno, guess Prince"
            for h in (1, 4, 7, 10, 13)
        ),
    )
    report = tick(at(campaign, "2026-10-24 18:00"))  # 25 hours before: not yet due
    assert report.reminders == []
    report = tick(at(campaign, "2026-10-24 19:00"))  # 24 hours before: due
    assert sorted(report.reminders) == ["reminder-t001-seat2-1", "reminder-t001-seat3-1"]
    body = (campaign.folder / "mail" / "outbox" / "reminder-t001-seat2-1.eml").read_text()
    assert "hands 2, 5, 8 and 11" in body
    assert tick(at(campaign, "2026-10-24 20:00")).reminders == []  # not twice
    assert remind(at(campaign, "2026-10-24 21:00")) == []
    assert remind(at(campaign, "2026-10-24 21:00"), again=True) == [
        "reminder-t001-seat2-2",
        "reminder-t001-seat3-2",
    ]


def test_tick_twice_in_a_row_does_the_work_once(tmp_path):
    campaign = make(tmp_path)
    first = tick(at(campaign, "2026-10-25 19:30"))
    assert first.resolved == 1
    snapshot = sorted(p.name for p in campaign.folder.rglob("*"))
    second = tick(at(campaign, "2026-10-25 19:31"))
    assert second.resolved is None and second.reminders == [] and second.messages == 0
    assert sorted(p.name for p in campaign.folder.rglob("*")) == snapshot
    assert campaign.position().game.turn == 2


def test_tick_resolves_as_soon_as_every_order_is_in(tmp_path):
    campaign = make(tmp_path)
    game = campaign.position().game
    for seat, hands in game.awaited().items():
        name = campaign.position().players[seat]
        campaign.record_orders(
            name, "\n".join(f"Hand {h}: {game.hand(h).cards[seat][0].title}" for h in hands)
        )
    report = tick(at(campaign, "2026-10-22 11:00"))
    # Some orders may be completed (no target named), all are on file: the turn goes.
    assert report.resolved == 1
    assert drafts(campaign, "gm-review-t001") == ["gm-review-t001"]  # the GM is told, reports wait


def test_tick_after_a_long_outage_catches_up_once(tmp_path):
    campaign = make(tmp_path)
    report = tick(at(campaign, "2026-11-20 12:00"))  # weeks after turn 1's deadline
    assert report.resolved == 1
    # Turn 2 opened now: its deadline is three days on, so the next tick waits.
    assert campaign.deadline() == utc("2026-11-23 19:00")
    assert tick(at(campaign, "2026-11-20 12:01")).resolved is None


def test_a_second_tick_while_one_runs_does_nothing(tmp_path):
    from filelock import FileLock

    campaign = make(tmp_path)
    with FileLock(str(campaign.folder / ".pbem.tick.lock")):
        report = tick(at(campaign, "2026-10-25 19:30"))
    assert report.busy and report.resolved is None
    assert campaign.position().game.turn == 1


def test_tick_command_line(tmp_path):
    campaign = make(tmp_path)
    code, out = run("tick", campaign.folder, now="2026-10-25T19:30:00+00:00")
    assert code == 0 and "Turn 1 resolved." in out


# -- note ---------------------------------------------------------------------------------------------------


def test_gm_note_appears_in_the_next_public_report(tmp_path):
    campaign = make(tmp_path)
    code, _ = run("note", campaign.folder, "Bruno is on holiday; the GM plays his hands.")
    assert code == 0
    at(campaign, "2026-10-23 10:00").resolve(force=True)
    assert "GM's note: Bruno is on holiday; the GM plays his hands." in campaign.report(1)
    at(campaign, "2026-10-24 10:00").resolve(force=True)
    assert "GM's note" not in campaign.report(2)


# -- verify -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verify") / "vgame"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML.format(extra=""), encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    final = campaign.report()
    opening = campaign.report(0)
    return folder, final, opening


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def tampered(final: str, change) -> str:
    record = extract(final)
    change(record)
    start, end = final.index(BEGIN), final.index(END) + len(END)
    return final[:start] + record_block(record) + final[end:]


def test_verify_accepts_a_true_final_report(finished, tmp_path):
    folder, final, opening = finished
    code, out = run(
        "verify", write(tmp_path, "final.txt", final), "--opening", write(tmp_path, "o.txt", opening)
    )
    assert code == 0 and out.startswith("VERIFIED")
    mail = sorted((folder / "mail" / "outbox").glob("*public-seat2.eml"))[-1]
    code, out = run("verify", mail)
    assert code == 0, out


def test_verify_rejects_one_card_of_a_deck_changed(finished, tmp_path):
    _, final, opening = finished

    def swap(record):
        deck = record["hands"]["5"]["deck"]
        i = next(i for i in range(15, 0, -1) if deck[i] != deck[i - 1])
        deck[i], deck[i - 1] = deck[i - 1], deck[i]

    code, out = run("verify", write(tmp_path, "f.txt", tampered(final, swap)))
    assert code == 1 and "hand 5: the deck does not match its commitment" in out

    def swap_and_recommit(record):  # a GM who also rewrote the commitment in the final report
        swap(record)
        from pbem.record import deck_commitment

        hand = record["hands"]["5"]
        record["commitments"]["5"] = deck_commitment(hand["salt"], hand["deck"])

    path = write(tmp_path, "g.txt", tampered(final, swap_and_recommit))
    code, out = run("verify", path, "--opening", write(tmp_path, "o.txt", opening))
    assert code == 1 and "differ from the opening report's for: 5" in out


def test_verify_rejects_one_result_changed(finished, tmp_path):
    _, final, _ = finished

    def flip(record):
        for turn in record["turns"]:
            for event in turn["events"]:
                if event["kind"] == "guard":
                    event["hit"] = not event["hit"]
                    return
        raise AssertionError("no Guard play in this game")

    code, out = run("verify", write(tmp_path, "f.txt", tampered(final, flip)))
    assert code == 1 and "the record says" in out and "the rules give" in out

    def winner(record):
        record["winners"] = [p for p in record["players"] if p not in record["winners"]][:1]

    code, out = run("verify", write(tmp_path, "w.txt", tampered(final, winner)))
    assert code == 1 and "won the game; the rules give" in out


def test_verify_refuses_a_file_without_record(tmp_path):
    code, out = run("verify", write(tmp_path, "x.txt", "hello"))
    assert code == 1 and "no PBEM RECORD" in out


# -- replacing a player -------------------------------------------------------------------------------------


def test_replace_player_keeps_seat_cards_tokens_and_orders(tmp_path):
    campaign = make(tmp_path, extra="")
    before = campaign.export()
    seat = before["players"].index("Bruno")
    hand = campaign.position().game.awaited()[seat][0]
    card = campaign.position().game.hand(hand).cards[seat][0].title
    campaign.record_orders("Bruno", f"Hand {hand}: {card}")
    code, out = run(
        "replace", campaign.folder, "bruno", "--name", "Bernard", "--email", "bernard@example.org"
    )
    assert code == 0, out
    after = Campaign(campaign.folder).export()
    assert after["players"][seat] == "Bernard" and "Bruno" not in after["players"]
    for h_before, h_after in zip(before["hands"], after["hands"]):
        assert h_before["players"]["Bruno"] == h_after["players"]["Bernard"]
    assert after["tokens"]["Bernard"] == before["tokens"]["Bruno"]
    assert str(hand) in after["orders"]["Bernard"]
    assert "bernard@example.org" in (campaign.folder / "campaign.yaml").read_text(encoding="utf-8")
    assert (campaign.folder / "campaign.yaml.bak").exists()
    code, out = run("replace", campaign.folder, "Arthur", "--name", "Chloé")
    assert code == 1 and "already the name" in out
    code, out = run("replace", campaign.folder, "Arthur", "--email", "not-an-address")
    assert code == 1 and "email" in out
    result = Campaign(campaign.folder, clock=Clock(utc("2026-10-23 10:00"))).resolve(force=True)
    assert "Bernard" in result.private_reports


def test_a_guessable_seed_is_warned_about_and_the_default_one_is_long(tmp_path):
    code, out = run(
        "new",
        tmp_path / "weak",
        "--player",
        "Arthur <a@example.org>",
        "--player",
        "Bruno <b@example.org>",
        "--player",
        "Chloé <c@example.org>",
        "--seed",
        "20261129",
    )
    assert code == 0 and "anyone who guesses it can rebuild every deck" in out
    code, out = run(
        "new",
        tmp_path / "strong",
        "--player",
        "Arthur <a@example.org>",
        "--player",
        "Bruno <b@example.org>",
        "--player",
        "Chloé <c@example.org>",
    )
    assert code == 0 and "guesses" not in out
    seed = str(Campaign(tmp_path / "strong").config.seed)
    assert len(seed) >= 32


# -- one clock (issue 9) ---------------------------------------------------------------------------


def test_pbem_now_reaches_the_order_log_and_the_received_index(tmp_path):
    campaign = make(tmp_path, extra="")
    now = "2026-10-23T08:15:00+00:00"
    held = [c.title for c in campaign.position().game.hand(2).cards[1]]  # Bruno plays first in hand 2
    order = f"Hand 2: {'Countess' if 'Countess' in held else held[0]}"
    code, out = run("order", campaign.folder, "--player", "Bruno", order, now=now)
    assert code == 0, out
    message = tmp_path / "bruno.eml"
    message.write_bytes(
        b"From: bruno@example.org\r\nTo: gm@example.org\r\nSubject: [clock] Turn 1\r\n"
        b"Message-ID: <clock1@example.org>\r\n\r\n" + order.encode() + b"\r\n"
    )
    code, out = run("order", campaign.folder, "--mail", message, now=now)
    assert code == 0, out
    folder = campaign.folder
    store = Campaign(folder).store  # where the order log lives is the store's business
    log_path = store.orders_path(1).with_suffix(".log")
    entries = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()]
    assert [e["received"] for e in entries] == [now, now]
    on_file = store.read_orders(1)["Bruno"]
    assert {o["received"] for o in on_file.values()} == {now}
    index = [json.loads(line) for line in (folder / "mail" / "received.jsonl").read_text().splitlines()]
    assert [e["received"] for e in index] == [now]


def test_the_clock_is_given_once_to_the_campaign(tmp_path):
    """A library caller gives the campaign its clock; every step reads it."""
    moment = [utc("2026-10-22 10:00")]
    folder = tmp_path / "clock"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML.format(extra=SCHEDULE), encoding="utf-8")
    campaign = Campaign(folder, clock=lambda: moment[0])
    campaign.start()
    assert campaign.position().opened_at == moment[0]
    moment[0] = utc("2026-10-25 19:00")  # turn 1's deadline
    assert campaign.status()["deadline"]["passed"]
    assert campaign.resolve().turn == 1
    assert campaign.position().opened_at == moment[0]


def _imports(module: str) -> set[str]:
    """The pbem modules ``module`` imports, at the top or inside functions."""
    import ast

    import pbem

    tree = ast.parse((Path(pbem.__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pbem."):
            out.add(node.module.split(".")[1])
    return out


def test_the_campaign_never_calls_back_into_the_inbox():
    """Issue 9: mail in sits below the campaign's use of it; the campaign and
    the tick reach no private name of each other."""
    assert "inbox" not in _imports("campaign")
    import pbem

    for module in ("tick", "cli"):
        source = (Path(pbem.__file__).parent / f"{module}.py").read_text(encoding="utf-8")
        assert "campaign._now" not in source and "._deadline_text" not in source, module


def test_the_gms_review_notice_says_what_waits_and_the_commands(tmp_path):
    # templates/gm_review.txt.j2: the turn, the game, both commands with the folder, the count.
    import email

    from pbem.outbox import Outbox

    campaign = make(tmp_path)
    report = tick(at(campaign, "2026-11-20 12:00"))  # past the deadline: resolved by the defaults
    assert report.resolved == 1
    path = next(p for p in Outbox(campaign.folder).drafts() if p.stem == "gm-review-t001")
    message = email.message_from_bytes(path.read_bytes())
    body = message.get_payload(decode=True).decode("utf-8")
    assert message["Subject"].endswith("Turn 1 waits for your review")
    assert f"pbem preview {campaign.folder}" in body and f"pbem send {campaign.folder}" in body
    assert "Turn 1 of" in body and "has been resolved" in body
    assert f"Drafts waiting: {len(report.waiting_for_review)}." in body
