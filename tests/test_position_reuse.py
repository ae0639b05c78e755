"""A campaign's position read before its lock is kept under the lock only when the files
it was read from are the very same (a GM folder's fetch reads every game's position to
route its mail, then each game's Mailroom takes the lock): anything another command
wrote meanwhile is read again."""

from __future__ import annotations

import time

import kit

from pbem.campaign import Campaign


def later(monkeypatch, seconds: float = 10.0) -> None:
    """The clock some seconds on: the files are settled (their times can be trusted)."""
    now = time.time_ns() + int(seconds * 1e9)
    monkeypatch.setattr(time, "time_ns", lambda: now)


def started(tmp_path) -> Campaign:
    kit.write_config(tmp_path / "game", kit.config(3))
    game = Campaign(tmp_path / "game")
    game.start()
    return game


def test_an_unchanged_settled_position_is_kept_under_the_lock(tmp_path, monkeypatch):
    game = started(tmp_path)
    read = Campaign(game.folder)
    later(monkeypatch)
    before = read.position()
    with read.locked():
        assert read.position() is before


def test_a_fresh_position_file_is_read_again_under_the_lock(tmp_path, monkeypatch):
    game = started(tmp_path)
    state = game.store.turn_dir(0) / "state.json"
    written = state.stat().st_ctime_ns
    # Half a second after it was written: its times cannot be trusted yet.
    monkeypatch.setattr(time, "time_ns", lambda: written + 500_000_000)
    read = Campaign(game.folder)
    before = read.position()
    with read.locked():
        assert read.position() is not before


def test_a_turn_resolved_meanwhile_is_read_again(tmp_path, monkeypatch):
    game = started(tmp_path)
    read = Campaign(game.folder)
    later(monkeypatch)
    assert read.position().game.turn == 1
    Campaign(game.folder).resolve(force=True)  # another command
    with read.locked():
        assert read.position().game.turn == 2


def test_a_turn_rolled_back_and_resolved_again_is_read_again(tmp_path, monkeypatch):
    game = started(tmp_path)
    other = Campaign(game.folder)
    other.resolve(force=True)
    read = Campaign(game.folder)
    later(monkeypatch)
    before = read.position()
    other = Campaign(game.folder)
    other.rollback()
    other.resolve(force=True)  # turn 2 again: the same number, a new state file
    with read.locked():
        assert read.position() is not before
        assert read.position().game.turn == 2
