"""Issue 8.5: the turn writer and the outbox sync what they write, and only that.

``os.sync()`` flushed every disk of the machine on each resolve (slow and rude
on a shared server); the outbox's batch writer switched drafts in without any
sync. A spy on ``os.fsync`` records which files and folders were synced.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.outbox import Outbox


@pytest.fixture
def synced(monkeypatch):
    """The real paths of every file or folder fsync'd; os.sync() is an error."""
    paths: list[str] = []
    real_fsync = os.fsync

    def spy(fd):
        paths.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    def no_sync():
        raise AssertionError("os.sync() flushes the whole machine")

    monkeypatch.setattr(os, "fsync", spy)
    monkeypatch.setattr(os, "sync", no_sync)
    return paths


def test_resolve_syncs_each_file_of_the_turn_and_never_the_machine(cli, started3, synced):
    cli.ok("resolve", started3, "--force")
    turn = started3 / "turns" / "turn-001"
    files = [p for p in turn.rglob("*") if p.is_file()]
    assert files
    # Written aside (turns/.turn-001.tmp), then renamed: compare the names inside the turn folder.
    synced_inside = {p.split(".turn-001.tmp/", 1)[1] for p in synced if ".turn-001.tmp/" in p}
    for path in files:
        assert str(path.relative_to(turn)) in synced_inside, path
    for folder in ("mail", "reports"):
        assert folder in synced_inside, f"the folder {folder}/ (its entries) was not synced"
    assert str(started3 / "turns") in synced, "the rename into turns/ was not made durable"


def batch_of(tmp_path, drafts: int) -> Outbox:
    """An outbox's batch of ``drafts`` drafts, written and flushed."""
    outbox = Outbox(tmp_path, durable=False)
    for n in range(drafts):
        outbox.add(f"d{n}", b"draft %d" % n, message_id=f"<{n}@x>", kind="ack", turn=1, to="a@x", player="A")
    outbox.wait()
    outbox.flush()
    return outbox


def test_the_outbox_batch_writer_syncs_every_draft_and_its_folder(tmp_path, synced):
    outbox = batch_of(tmp_path, 3)
    for n in range(3):
        draft = str(outbox.folder / f"d{n}.eml")
        # The bytes are synced before the draft gets its name (a temporary file, then a link).
        assert any(Path(p).name == f".d{n}.eml.tmp" or p == draft for p in synced), (n, synced)
    assert str(outbox.folder) in synced
    assert str(tmp_path / "mail" / "messages.jsonl") in synced


def test_resolve_leaves_the_outbox_links_unsynced(cli, started3, synced):
    """Publishing a turn's drafts (hard links to its synced files) waits for no
    disk: every command that shows or sends drafts publishes again, and the
    sent ledger, not the outbox, keeps a draft from leaving twice (the test
    with a real server: tests/mail/test_send_uncertain.py, a publish lost in a crash)."""
    synced.clear()
    cli.ok("resolve", started3, "--force")
    assert str(started3 / "mail" / "outbox") not in synced
    assert str(started3 / "mail" / "messages.jsonl") not in synced
    assert str(started3 / "turns") in synced  # the turn itself is durable before its drafts are published


def test_the_mailroom_syncs_each_message_it_keeps_and_never_the_machine(started3, synced, tmp_path):
    """Issue 9.5: the inbox kept messages with a bare rename and then flushed
    the whole machine (os.sync()); now each kept file and its folder are synced."""
    from pbem import inbox
    from pbem.campaign import Campaign

    game = Campaign(started3)
    message = tmp_path / "reply.eml"
    message.write_bytes(
        b"From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\n"
        b"Subject: Re: [game3] Turn 1\r\nMessage-ID: <r1@example.org>\r\n\r\nHand 1: Guard\r\n"
    )
    synced.clear()
    outcome = inbox.receive_file(game, message)
    assert str(started3 / outcome.file) in synced, synced
    assert str(game.store.received) in synced
    assert str(game.store.received_index) in synced


def test_write_atomic_syncs_the_file_and_its_folder(tmp_path, synced):
    from pbem.store import write_atomic

    target = tmp_path / "deep" / "roster.json"
    write_atomic(target, "[]\n")
    assert target.read_text() == "[]\n"
    assert any(Path(p).parent == target.parent and Path(p).name.startswith(".roster.json.") for p in synced)
    assert str(target.parent) in synced, "the rename was not made durable"
    assert [p.name for p in target.parent.iterdir()] == ["roster.json"]


# The folder's file names a module other than the store must not spell out (issue 9.5).
FOLDER_NAMES = {
    "campaign.yaml.bak",
    "roster.json",
    "deadlines.json",
    "received.jsonl",
    "messages.jsonl",
    "sent.jsonl",
    "imap-ledger.json",
    "refused-seen.json",
    "reminders.json",
    "index.jsonl",
    "state.json",
    "events.json",
    "orders.json",
    "standing.json",
    ".pbem.lock",
    ".pbem.tick.lock",
    "rolled-back",
    "reports/public.txt",
}


def test_only_the_store_spells_the_campaign_folders_paths():
    """Modules ask CampaignStore for a path; a name joined elsewhere is a second
    owner of the folder."""
    import ast

    import pbem

    root = Path(pbem.__file__).parent
    skip = {"store.py", "engine.py", "events.py", "orders.py"}
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name in skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if node.value in FOLDER_NAMES or node.value.startswith(("mail/", "turns/", "reports/")):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
    assert not found, "paths spelled outside pbem/store.py:\n" + "\n".join(found)


def test_side_by_side_does_every_item_even_when_its_threads_die_at_start(threads_die_at_start):
    import threading

    from pbem.store import side_by_side

    done: list[tuple[int, str]] = []
    side_by_side(lambda n: done.append((n, threading.current_thread().name)), list(range(20)), workers=8)
    assert sorted(n for n, _ in done) == list(range(20))
    assert threads_die_at_start  # the helpers were started, and died
    assert {name for _, name in done} == {threading.current_thread().name}  # the caller did it all


def test_side_by_side_raises_the_first_error_once_every_thread_is_done():
    from pbem.store import side_by_side

    done: list[int] = []

    def work(n):
        if n == 5:
            raise OSError(28, "No space left on device")
        done.append(n)

    with pytest.raises(OSError, match="No space left"):
        side_by_side(work, list(range(10)), workers=3)
    assert 5 not in done


def test_the_outbox_batch_writes_every_draft_when_its_writer_dies_at_start(tmp_path, threads_die_at_start):
    outbox = batch_of(tmp_path, 40)
    assert "pbem-outbox" in threads_die_at_start
    assert sorted(p.name for p in outbox.folder.glob("d*.eml")) == sorted(f"d{n}.eml" for n in range(40))
    assert (outbox.folder / "d7.eml").read_bytes() == b"draft 7"


def _reply(to_game: str, n: int) -> bytes:
    return (
        f"From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\n"
        f"Subject: Re: [{to_game}] Turn 1\r\nMessage-ID: <r{n}-{to_game}@example.org>\r\n\r\n"
        f"Hand 2: Guard on Arthur, guess Priest\r\n"
    ).encode()


def _two_rooms(started3, started4):
    """Two games' batches (a message read into each, not yet flushed), and their exit."""
    import contextlib

    from pbem.campaign import Campaign
    from pbem.inbox import Mailroom

    stack = contextlib.ExitStack()
    rooms = [stack.enter_context(Mailroom(Campaign(folder))) for folder in (started3, started4)]
    for n, room in enumerate(rooms):
        room.receive(_reply(room.campaign.name, n), source="imap")
    return rooms, stack


def test_several_games_are_flushed_together_every_file_synced_before_any_index(started3, started4, synced):
    """A routed fetch flushes every game of a chunk at once (flush_together): each
    message kept and each draft of every game, and their folders, are synced before
    any game writes the records that name them (its orders, its indexes)."""
    from pbem.inbox import flush_together

    rooms, stack = _two_rooms(started3, started4)
    with stack:
        synced.clear()
        flush_together(rooms)
    named = (".jsonl", ".log", "/orders")  # the records: indexes, the orders' log, their folder
    records = [i for i, p in enumerate(synced) if p.endswith(named) or "/orders/" in p]
    files = [i for i, p in enumerate(synced) if "/mail/received/" in p or "/mail/outbox/" in p]
    assert len(files) == 4, synced  # a message kept and an acknowledgement, in each game
    for room in rooms:
        for folder in (room.store.received, room.outbox.folder):
            assert str(folder) in synced
        assert str(room.store.received_index) in synced
    assert records and max(files) < min(records), synced
    folders = [synced.index(str(r.store.received)) for r in rooms]
    assert max(folders) < min(records), synced


def test_a_failed_sync_of_several_games_indexes_none_of_them(started3, started4, monkeypatch):
    """One failed sync in the first round: no game of the batch writes its orders or
    its index, so that every message is read again (none counted as done)."""
    from pbem import store
    from pbem.inbox import flush_together

    rooms, stack = _two_rooms(started3, started4)
    real = store.fsync_file

    def failing(path):
        if path.parent.name == "received" and rooms[1].campaign.name in str(path):
            raise OSError(5, "Input/output error")
        real(path)

    monkeypatch.setattr(store, "fsync_file", failing)
    with pytest.raises(OSError), stack:
        flush_together(rooms)
    for room in rooms:
        assert not room.store.received_index.exists()
        assert not (room.root / "orders" / "turn-001.json").exists()
