"""Issue 22, the idle tick over a folder (pbem.quiet): a game an earlier tick found quiet
is not read again, and a game with anything to do is never skipped: new mail, every order
in, the deadline passed, reminders due, a draft added, a settings edit, a clock gone back,
``--trust-clock``, another environment. Each case is a full tick, doing the work."""

from __future__ import annotations

import json
from pathlib import Path

import kit
import pytest
import yaml

import pbem.tick
from pbem import quiet
from pbem.campaign import Campaign

SHARED = {
    "gm": {"name": "Rita", "email": "rita@example.org"},
    "deadline": {"timezone": "UTC", "every_days": 3, "at": "12:00", "remind_hours": 24},
}
START = "2026-11-02T12:00:00+00:00"  # turn 1 is due on 5 November, 12:00 UTC
CALM = "2026-11-02T13:00:00+00:00"  # days before it, and before the reminders


@pytest.fixture
def root(tmp_path, cli, monkeypatch):
    """Two started games, ticked until both are noted quiet."""
    monkeypatch.setattr(quiet, "SETTLED", 0.0)  # the tests' files are all fresh
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text(yaml.safe_dump(SHARED), encoding="utf-8")
    monkeypatch.setenv("PBEM_NOW", START)
    for name in ("alpha", "bravo"):
        kit.write_config(root / name, kit.config(3))
        cli.ok("start", root / name)
    monkeypatch.setenv("PBEM_NOW", CALM)
    cli.ok("tick", root)  # quiet: candidates (the Maildirs made: a change)
    cli.ok("tick", root)  # quiet again, unchanged by its tick: noted
    assert sorted(notes(root)) == ["alpha", "bravo"]
    assert all("fingerprint" in note for note in notes(root).values())
    return root


@pytest.fixture
def full(monkeypatch):
    """The games a tick read in full (the quiet ones are not)."""
    read: list[str] = []
    real = pbem.tick._tick

    def counted(campaign, *args, **kwargs):
        read.append(campaign.folder.name)
        return real(campaign, *args, **kwargs)

    monkeypatch.setattr(pbem.tick, "_tick", counted)
    return read


def notes(root: Path) -> dict:
    path = root / ".pbem" / "quiet.json"
    return json.loads(path.read_text())["games"] if path.exists() else {}


def deliver(game: Path, sender: str, body: str) -> None:
    raw = (
        f"From: {sender}\r\nTo: rita@example.org\r\nSubject: [{game.name}] orders\r\n"
        f"Message-ID: <{body[:5]}-{game.name}@example.org>\r\n\r\n{body}\r\n"
    ).encode()
    (game / "mail" / "inbox" / "new" / f"1.{game.name}").write_bytes(raw)


def test_a_quiet_game_is_not_read_again_and_the_tick_says_the_same(root, cli, full):
    said = cli.ok("tick", root).stdout
    assert full == []
    assert "[alpha] 0 new message(s), 0 with orders recorded." in said
    assert "[alpha] 6 draft(s) wait for the GM's review" in said
    quiet_file = root / ".pbem" / "quiet.json"
    quiet_file.unlink()  # no notes: every game read in full, the same lines
    assert cli.ok("tick", root).stdout == said
    assert sorted(full) == ["alpha", "bravo"]


def test_new_mail_in_the_maildir_is_read(root, cli, full):
    deliver(root / "alpha", "arthur@example.org", "STATUS")
    said = cli.ok("tick", root).stdout
    assert "[alpha] 1 new message(s)" in said
    assert full == ["alpha"]  # bravo is still quiet


def test_every_order_in_resolves_the_turn(root, cli, full):
    campaign = Campaign(root / "alpha")
    game = campaign.position().game
    for seat, hands in game.awaited().items():
        name = campaign.position().players[seat]
        orders = "\n".join(f"Hand {h}: {game.hand(h).cards[seat][0].title}" for h in hands)
        campaign.record_orders(name, orders)
    said = cli.ok("tick", root).stdout
    assert "[alpha] Turn 1 resolved." in said and "[bravo] Turn 1 resolved." not in said
    assert full == ["alpha"]
    # The review now waiting is listed by the quiet ticks as by the full ones.
    after = cli.ok("tick", root).stdout  # quiet: a candidate
    assert cli.ok("tick", root).stdout == after  # quiet again, unchanged: noted
    assert "fingerprint" in notes(root)["alpha"]
    full.clear()
    assert cli.ok("tick", root).stdout == after
    assert full == []
    assert "[alpha] " in after and "wait for the GM's review" in after


def test_the_deadline_passing_resolves_the_turn(root, cli, full, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-05T12:30:00+00:00")
    said = cli.ok("tick", root).stdout
    assert "[alpha] Turn 1 resolved." in said and "[bravo] Turn 1 resolved." in said
    assert sorted(full) == ["alpha", "bravo"]


def test_reminders_falling_due_are_drafted(root, cli, full, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-04T13:00:00+00:00")
    said = cli.ok("tick", root).stdout
    assert "[alpha] Reminders drafted" in said and "[bravo] Reminders drafted" in said
    # Everyone reminded, the next ticks do nothing: quiet again, until the deadline.
    cli.ok("tick", root)
    cli.ok("tick", root)
    full.clear()
    assert "Reminders drafted" not in cli.ok("tick", root).stdout
    assert full == []
    monkeypatch.setenv("PBEM_NOW", "2026-11-05T12:00:01+00:00")
    assert "[alpha] Turn 1 resolved." in cli.ok("tick", root).stdout


def test_a_draft_added_by_hand_is_listed(root, cli, full):
    cli.ok("remind", root / "alpha")  # three reminders drafted by the GM
    said = cli.ok("tick", root).stdout
    assert "[alpha] 9 draft(s) wait for the GM's review" in said
    assert full == ["alpha"]


def test_a_settings_file_edited_in_place_is_read(root, cli, full):
    shared = root / "pbem.yaml"
    text = shared.read_text()
    assert "remind_hours: 24" in text
    with shared.open("r+", encoding="utf-8") as f:  # same size, same inode: as some editors save
        f.write(text.replace("remind_hours: 24", "remind_hours: 96"))
    said = cli.ok("tick", root).stdout
    assert "[alpha] Reminders drafted" in said and "[bravo] Reminders drafted" in said


def test_a_clock_gone_back_trust_clock_or_another_environment_read_every_game(root, cli, full, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-02T12:30:00+00:00")  # before the notes were made
    cli.ok("tick", root)
    assert sorted(full) == ["alpha", "bravo"]
    full.clear()
    cli.ok("tick", root, "--trust-clock")
    assert sorted(full) == ["alpha", "bravo"] and notes(root) == {}  # no note made on the GM's word
    cli.ok("tick", root)
    full.clear()
    monkeypatch.setenv("PBEM_SOMETHING", "new")  # pbem's own variables: read by the tick
    cli.ok("tick", root)
    assert sorted(full) == ["alpha", "bravo"]


def test_a_password_variable_gone_is_said(tmp_path, cli, full, monkeypatch):
    monkeypatch.setattr(quiet, "SETTLED", 0.0)
    root = tmp_path / "campaigns"
    root.mkdir()
    smtp = {"host": "127.0.0.1", "port": 2525, "security": "none", "user": "rita", "password_env": "QUIET_PW"}
    (root / "pbem.yaml").write_text(yaml.safe_dump({**SHARED, "mail": {"smtp": smtp}}), encoding="utf-8")
    monkeypatch.setenv("QUIET_PW", "secret")
    monkeypatch.setenv("PBEM_NOW", START)
    kit.write_config(root / "alpha", kit.config(3))
    cli.ok("start", root / "alpha")
    monkeypatch.setenv("PBEM_NOW", CALM)
    cli.ok("tick", root)
    cli.ok("tick", root)
    assert "alpha" in notes(root)  # its turn mail waits for review: nothing is sent
    full.clear()
    cli.ok("tick", root)
    assert full == []
    monkeypatch.delenv("QUIET_PW")
    said = cli.fails("tick", root).stdout
    assert "[alpha] FAILED:" in said and "QUIET_PW" in said


def test_no_note_for_a_game_changed_less_than_settled_seconds_ago(tmp_path, cli, monkeypatch):
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text(yaml.safe_dump(SHARED), encoding="utf-8")
    monkeypatch.setenv("PBEM_NOW", START)
    kit.write_config(root / "alpha", kit.config(3))
    cli.ok("start", root / "alpha")
    cli.ok("tick", root)
    cli.ok("tick", root)
    # Its files are seconds old (a same-size rewrite could hide in them): a candidate only.
    assert notes(root) == {"alpha": {"candidate": True}}


def test_a_damaged_note_file_means_full_ticks(root, cli, full):
    (root / ".pbem" / "quiet.json").write_text("{not json", encoding="utf-8")
    said = cli.ok("tick", root).stdout
    assert sorted(full) == ["alpha", "bravo"] and "Traceback" not in said
    assert sorted(notes(root)) == ["alpha", "bravo"]


def test_the_watch_timers_skip_a_quiet_game_and_read_one_with_mail(root, cli, full):
    from pbem.watch import Watch

    lines: list[str] = []
    watch = Watch(root, log=lines.append)
    watch.timers()
    assert full == []  # both noted quiet by the ticks before: not read
    deliver(root / "bravo", "arthur@example.org", "STATUS")
    watch.timers()
    assert full == ["bravo"]
    assert any(line.startswith("[bravo] 1 new message(s)") for line in lines)
    assert list((root / "bravo" / "mail" / "inbox" / "new").iterdir()) == []
    watch.timers()  # bravo changed by its tick: quiet again, a candidate
    watch.timers()  # unchanged by this tick: noted
    full.clear()
    watch.timers()
    assert full == []


def test_a_games_archives_are_fingerprinted_by_their_folder_and_the_latest_turn_whole(tmp_path, cli):
    """A long game's history is not walked file by file (pbem.quiet._ARCHIVES): an old
    turn's folder, the kept messages and the sent drafts count by their folder, which
    changes with every file put in or taken out; the latest turn is walked whole."""
    import os
    import time

    game = tmp_path / "solo"
    kit.write_config(game, kit.config(3))
    cli.ok("start", game)
    cli.ok("resolve", game, "--force")  # turn 1 by the defaults: turns 0 and 1 are on file
    book = quiet.QuietBook(tmp_path)
    first, _ = book.fingerprint(game)

    def later(path: Path) -> None:  # a change the file's times show, whatever the clock's grain
        stamp = time.time_ns() + 5_000_000_000
        os.utime(path, ns=(stamp, stamp))

    old = game / "turns" / "turn-000" / "reports" / "public.txt"
    later(old)  # inside an archive: not walked
    assert book.fingerprint(game)[0] == first
    latest = sorted((game / "turns").glob("turn-*"))[-1] / "state.json"
    later(latest)
    second, _ = book.fingerprint(game)
    assert second != first  # the latest turn: walked
    for archive in ("mail/received", "mail/sent"):
        (game / archive).mkdir(parents=True, exist_ok=True)
        third, _ = book.fingerprint(game)
        (game / archive / "new.eml").write_bytes(b"x")
        assert book.fingerprint(game)[0] != third  # a file put in: its folder changed
    fourth, _ = book.fingerprint(game)
    cli.ok("rollback", game)
    assert book.fingerprint(game)[0] != fourth  # a turn undone: the turns' folder changed


def test_a_maildir_linked_from_elsewhere_is_read_when_mail_comes(root, cli, full, tmp_path):
    """The GM's mail system delivers into a Maildir of its own, linked as the game's
    mail/inbox (``ln -s ~/Maildir/.game7 mail/inbox``): mail delivered there changes
    nothing in the game's own tree, so a game with a linked folder is never noted
    quiet; a linked file counts by its target (a campaign.yaml kept elsewhere)."""
    import shutil

    game = root / "alpha"
    elsewhere = tmp_path / "Maildir-alpha"
    shutil.move(game / "mail" / "inbox", elsewhere)
    (game / "mail" / "inbox").symlink_to(elsewhere, target_is_directory=True)
    for _ in range(3):
        cli.ok("tick", root)
    assert "fingerprint" not in notes(root).get("alpha", {})
    deliver(game, "arthur@example.org", "STATUS")  # through the link, into elsewhere/new
    assert "[alpha] 1 new message(s)" in cli.ok("tick", root).stdout


def test_a_linked_settings_file_is_read_when_its_target_changes(root, cli, full, tmp_path):
    game = root / "bravo"
    kept = tmp_path / "bravo-campaign.yaml"
    (game / "campaign.yaml").rename(kept)
    (game / "campaign.yaml").symlink_to(kept)
    cli.ok("tick", root)
    cli.ok("tick", root)
    assert "fingerprint" in notes(root)["bravo"]  # a linked file: noted, by its target's state
    full.clear()
    kept.write_text(kept.read_text(encoding="utf-8").replace("players:", "players:  "), encoding="utf-8")
    cli.ok("tick", root)
    assert full == ["bravo"]  # its target changed: read in full
