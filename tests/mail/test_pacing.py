"""Issue 22, item 5: `send` paces itself within ``mail.smtp.rate`` (messages a minute,
recipients a day), against a real aiosmtpd, on a clock the test moves (no sleeps):
a minute's limit makes the rest wait for the window, a day's limit leaves the rest in the
outbox (exit status 4, saying until when), and the day's count holds across runs."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER

from pbem.cli import EXIT_PACED, main
from pbem.transport.ledger import SentLedger
from pbem.transport.pacing import Pacer, Rate, RateRecord
from pbem.transport.smtp import SmtpSettings, send_drafts

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock that moves only when the pacer sleeps."""

    def __init__(self, start: datetime):
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


def drafts(count: int) -> list[tuple[str, bytes]]:
    return [
        (
            f"d{n:02d}",
            (
                f"From: Rita <{SMTP_USER}>\r\nTo: player{n}@example.test\r\nSubject: [g] Turn 1: n{n}\r\n"
                f"Message-ID: <pace.{n}@pbem.test>\r\n\r\nYour cards.\r\n"
            ).encode(),
        )
        for n in range(count)
    ]


def settings(server) -> SmtpSettings:
    return SmtpSettings(
        host=server.host,
        port=server.port,
        security="starttls",
        user=SMTP_USER,
        password=SMTP_PASSWORD,
        timeout=5,
        backoff=0.01,
        tls_context=server.client_context(),
    )


def test_three_a_minute_sends_three_then_waits_for_the_window(tmp_path, sink_smtp):
    clock = Clock(T0)
    record = RateRecord(tmp_path / "rate.jsonl", "gm on smtp")
    pacer = Pacer(Rate(per_minute=3), record, clock=clock, sleep=clock.sleep)
    sent_at: dict[str, float] = {}

    def progress(draft_id: str, event: str) -> None:
        if event == "sent":
            sent_at[draft_id] = (clock.now - T0).total_seconds()

    summary = send_drafts(
        drafts(10), settings(sink_smtp), SentLedger(tmp_path / "sent.jsonl"), progress, pacer=pacer
    )

    assert len(summary.sent) == 10 and not summary.waiting and len(sink_smtp.received) == 10
    minutes = sorted(int(at // 60) for at in sent_at.values())
    assert minutes == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]  # 3 in the first minute, the rest as it frees
    assert clock.slept == [60.0, 60.0, 60.0] and summary.paced == 180.0
    assert len(record.recent(clock.now)) == 10


def test_a_window_spent_by_an_earlier_run_is_waited_for(tmp_path, sink_smtp):
    record = RateRecord(tmp_path / "rate.jsonl", "gm on smtp")
    for seconds in (0, 20, 40):  # an earlier send spent this minute's three
        record.add(T0 + timedelta(seconds=seconds), 1)
    clock = Clock(T0 + timedelta(seconds=50))
    pacer = Pacer(Rate(per_minute=3), record, clock=clock, sleep=clock.sleep)
    send_drafts(drafts(1), settings(sink_smtp), SentLedger(tmp_path / "sent.jsonl"), pacer=pacer)
    assert clock.slept == [10.0]  # until the first of the three is a minute old


def test_the_day_limit_leaves_the_rest_waiting_and_counts_recipients(tmp_path, sink_smtp):
    clock = Clock(T0)
    record = RateRecord(tmp_path / "rate.jsonl", "gm on smtp")
    cc = [
        (
            f"c{n}",
            (
                f"From: Rita <{SMTP_USER}>\r\nTo: a{n}@example.test\r\nCc: b{n}@example.test\r\n"
                f"Subject: [g] Turn 1\r\nMessage-ID: <cc.{n}@pbem.test>\r\n\r\nHi.\r\n"
            ).encode(),
        )
        for n in range(4)
    ]
    pacer = Pacer(Rate(per_day=5), record, clock=clock, sleep=clock.sleep)
    summary = send_drafts(cc, settings(sink_smtp), SentLedger(tmp_path / "sent.jsonl"), pacer=pacer)
    assert summary.sent == ["c0", "c1"]  # 2 recipients each: a third would make 6 > 5
    assert summary.waiting == ["c2", "c3"] and not summary.failed
    assert "2026-12-02 12:00 UTC" in summary.wait_reason and "5 recipients" in summary.wait_reason


def test_a_line_cut_short_by_a_crash_is_skipped(tmp_path):
    path = tmp_path / "rate.jsonl"
    record = RateRecord(path, "gm")
    record.add(T0, 2)
    with path.open("a") as f:
        f.write('{"at": "2026-12-01T12:00:01+00:00", "acc')  # torn
    assert record.recent(T0 + timedelta(seconds=5)) == [(T0, 2)]
    assert RateRecord(path, "someone else").recent(T0) == []


# -- `pbem send` over two runs: the day's limit holds across them


def _game(tmp_path, smtp, per_day: int):
    root = tmp_path / "campaigns"
    root.mkdir()
    ca = tmp_path / "ca.pem"
    smtp.ca.cert_pem.write_to_path(str(ca))
    (root / "pbem.yaml").write_text(
        f"gm: {{name: Rita, email: {SMTP_USER}}}\n"
        f"mail:\n  smtp: {{host: {smtp.host}, port: {smtp.port}, security: starttls, user: {SMTP_USER},"
        f" password_env: PACE_SMTP, ca_file: {ca}, timeout: 5,"
        f" rate: {{per_minute: 30, per_day: {per_day}}}}}\n",
        encoding="utf-8",
    )
    players = "".join(
        f"  - {{name: {n}, email: {n.lower()}@example.test}}\n" for n in ("Arthur", "Bruno", "Chloe")
    )
    games = []
    for name in ("alpha", "bravo"):
        (root / name).mkdir()
        (root / name / "campaign.yaml").write_text(f"seed: 3\nplayers:\n{players}", encoding="utf-8")
        assert CliRunner().invoke(main, ["start", str(root / name)]).exit_code == 0
        games.append(root / name)
    return root, games


def _send(folder, now: datetime):
    env = {"PACE_SMTP": SMTP_PASSWORD, "PBEM_NOW": now.isoformat()}
    return CliRunner().invoke(main, ["send", str(folder)], env=env)


def _recipients(smtp) -> int:
    return sum(len(r.rcpt_tos) for r in smtp.received)


def test_the_day_limit_holds_across_runs_and_games(tmp_path, sink_smtp):
    root, (alpha, bravo) = _game(tmp_path, sink_smtp, per_day=8)

    first = _send(alpha, T0)
    assert first.exit_code == 0, first.output  # alpha's 6 drafts (one recipient each): all go
    assert "6 sent" in first.output and _recipients(sink_smtp) == 6

    second = _send(bravo, T0 + timedelta(hours=1))  # the same account: 2 recipients left today
    assert second.exit_code == EXIT_PACED, second.output
    assert "2 sent" in second.output
    assert "4 drafts wait for the next window" in second.output
    assert "2026-12-02 12:00 UTC" in second.output and "Traceback" not in second.output
    assert _recipients(sink_smtp) == 8
    assert len(list((bravo / "mail" / "outbox").glob("*.eml"))) == 4

    third = _send(bravo, T0 + timedelta(hours=2))  # a new run, the same day: nothing more
    assert third.exit_code == EXIT_PACED and "0 sent" in third.output, third.output
    assert _recipients(sink_smtp) == 8

    over = _send(root, T0 + timedelta(hours=3))  # over the folder: said per game
    assert over.exit_code == EXIT_PACED, over.output
    assert "[bravo] 4 drafts wait for the next window" in over.output and _recipients(sink_smtp) == 8

    next_day = _send(bravo, T0 + timedelta(days=1, minutes=1))
    assert next_day.exit_code == 0, next_day.output
    assert "4 sent" in next_day.output and _recipients(sink_smtp) == 12
    assert (root / "smtp-rate.jsonl").is_file()  # one record for the folder's account


@pytest.mark.parametrize(
    "rate,said",
    [
        ("{per_minute: 0}", "mail.smtp.rate.per_minute: must be a whole number from 1 to 1000000"),
        ("{per_day: many}", "mail.smtp.rate.per_day: must be a whole number"),
        ("{per_hour: 5}", "mail.smtp.rate.per_hour: unknown; rate takes per_minute and per_day"),
        ("30", "mail.smtp.rate: must be a mapping"),
    ],
)
def test_a_wrong_rate_is_a_sentence(tmp_path, rate, said):
    folder = tmp_path / "game"
    folder.mkdir()
    players = "".join(
        f"  - {{name: {n}, email: {n.lower()}@example.test}}\n" for n in ("Arthur", "Bruno", "Chloe")
    )
    (folder / "campaign.yaml").write_text(
        f"gm: {{name: Rita, email: gm@example.test}}\nseed: 1\nplayers:\n{players}"
        f"mail:\n  smtp: {{host: localhost, port: 2525, security: none, rate: {rate}}}\n",
        encoding="utf-8",
    )
    assert CliRunner().invoke(main, ["start", str(folder)]).exit_code == 0
    result = CliRunner().invoke(main, ["send", str(folder)])
    assert result.exit_code == 1 and said in result.output, result.output
    assert "Traceback" not in result.output
    assert len(list((folder / "mail" / "outbox").glob("*.eml"))) == 6  # nothing sent, nothing lost


def test_a_send_over_the_folder_says_each_wait_for_the_minute_as_a_single_game_does(tmp_path, sink_smtp):
    """An earlier run spent this minute's 30 messages 58 s ago: a send over the
    folder waits about 2 s before its first draft, and says so, naming the game
    (it used to wait in silence: a GM would think it hung)."""
    root, (alpha, _bravo) = _game(tmp_path, sink_smtp, per_day=100)
    record = RateRecord(root / "smtp-rate.jsonl", f"{SMTP_USER} on {sink_smtp.host}:{sink_smtp.port}")
    for _ in range(30):
        record.add(T0 - timedelta(seconds=58), 1)
    (bravo_outbox := _bravo / "mail" / "outbox").mkdir(exist_ok=True)
    for draft in bravo_outbox.glob("*.eml"):
        draft.unlink()  # bravo has nothing to send: only alpha's wait is said
    result = _send(root, T0)
    assert result.exit_code == 0, result.output
    assert re.search(r"^\[alpha\] Waiting [12] s: mail.smtp.rate's minute is full.$", result.output, re.M)
    assert "[bravo] Waiting" not in result.output
    assert "[alpha] 6 sent" in result.output and _recipients(sink_smtp) == 6
