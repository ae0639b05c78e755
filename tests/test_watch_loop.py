"""`pbem watch`'s loop without a mail server (issue 22, item 4): over a folder of games
read from their Maildir, the tick's timers run for every game each period, a mail dropped
in a game's Maildir is read and acknowledged at the next one, a broken game is named
once (not every minute) while the others go on, and a stop ends the loop between batches."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.watch import Watch

PLAYERS = "".join(
    f"  - {{name: {n}, email: {n.lower()}@example.test}}\n" for n in ("Arthur", "Bruno", "Chloe")
)


def make_folder(tmp_path: Path) -> Path:
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text("gm: {name: Rita, email: gm@example.test}\n", encoding="utf-8")
    for name in ("alpha", "bravo"):
        (root / name).mkdir()
        (root / name / "campaign.yaml").write_text(f"seed: 5\nplayers:\n{PLAYERS}", encoding="utf-8")
        assert CliRunner().invoke(main, ["start", str(root / name)]).exit_code == 0
    (root / "broken").mkdir()
    (root / "broken" / "campaign.yaml").write_text("players: [oops\n", encoding="utf-8")
    return root


def drop(game: Path, n: int) -> None:
    new = game / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    (new / f"m{n}.eml").write_bytes(
        (
            f"From: Arthur <arthur@example.test>\r\nTo: gm@example.test\r\n"
            f"Subject: Re: [{game.name}] Turn 1: your cards\r\nMessage-ID: <drop{n}@example.test>\r\n\r\n"
            f"STATUS\r\n"
        ).encode()
    )


def acks(game: Path) -> list[str]:
    return sorted(p.name for p in (game / "mail" / "outbox").glob("ack-*.eml"))


def wait_for(check, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_watch_reads_each_maildir_every_period_and_stops_between_batches(tmp_path):
    root = make_folder(tmp_path)
    lines: list[str] = []
    watcher = Watch(root, log=lines.append, timers_every=0.2)
    runner = threading.Thread(target=watcher.run)
    runner.start()
    try:
        wait_for(lambda: any("watching" in line for line in lines), "the first line")
        drop(root / "bravo", 1)
        wait_for(lambda: len(acks(root / "bravo")) == 1, "bravo's acknowledgement")
        time.sleep(0.6)  # three more periods: read once, acknowledged once
    finally:
        watcher.request_stop("test")
        runner.join(timeout=20)
    assert not runner.is_alive()
    assert len(acks(root / "bravo")) == 1 and acks(root / "alpha") == []
    first = next(line for line in lines if line.startswith("watching"))
    assert first.startswith("watching 2 game(s)") and "2 read from their Maildir" in first, lines
    assert "1 not readable" in first
    assert sum(line.startswith("[broken] FAILED") for line in lines) == 1, lines  # said once
    assert any(line.startswith("[bravo] 1 new message(s)") for line in lines), lines
    assert lines[-2:] == ["test: stopping", "stopped"], lines


def test_watch_over_a_folder_without_any_game_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["watch", str(tmp_path)])
    assert result.exit_code == 1 and "no campaign here" in result.output, result.output
    assert "Traceback" not in result.output
