"""A batch's mail read ahead in a second process (pbem.forked): the same reading as
the batch's own, message for message, and never a batch that waits on, or trusts, a
child that died, hung or read other bytes."""

from __future__ import annotations

import os
import threading
import time

import pytest
from corpus_game import CORPUS, corpus_code, make_game7

from pbem import forked, inbox
from pbem.forked import ReadAhead
from pbem.reader import UnreadableMail, read_mail

UNREADABLE = b"From: Bruno <bruno@example.org>\r\nSubject: hi\r\n\r\n   \r\n"


def corpus() -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))] + [UNREADABLE, b"\xff\xfe" * 40]


def loads(raws: list[bytes]):
    return [lambda raw=raw: raw for raw in raws]


def reading(read, raw: bytes):
    try:
        return read(raw)
    except UnreadableMail as e:
        return ("unreadable", str(e))


def test_the_child_reads_every_message_as_the_batch_would(monkeypatch):
    raws = corpus()
    with ReadAhead(loads(raws)) as ahead:
        assert ahead.reading  # forked: this test process has no other thread
        for index, raw in enumerate(raws):
            assert reading(lambda r, i=index: ahead.read(i, r), raw) == reading(read_mail, raw), index
    assert ("unreadable", "Your message is empty.") != reading(read_mail, UNREADABLE)  # (a real reason)


def test_the_answers_come_from_the_child(monkeypatch):
    """Not read again here: the batch's process never calls read_mail for them."""
    raws = corpus()[:30]
    with ReadAhead(loads(raws)) as ahead:
        monkeypatch.setattr("pbem.reader.read_mail", _must_not_read)
        for index, raw in enumerate(raws):
            reading(lambda r, i=index: ahead.read(i, r), raw)


def _must_not_read(raw: bytes):
    raise AssertionError("read in the batch's process")


def test_messages_the_batch_skips_are_passed_over():
    raws = corpus()
    with ReadAhead(loads(raws)) as ahead:
        for index in (3, 4, 20, len(raws) - 1):  # the others were copies read before, say
            assert reading(lambda r, i=index: ahead.read(i, r), raws[index]) == reading(
                read_mail, raws[index]
            )


def test_other_bytes_than_the_child_read_are_read_here():
    """A file that changed between the child's reading and the batch's (another mail
    program, say): the batch reads the bytes it has, never the child's answer."""
    raws = corpus()
    changed = raws[5].replace(b"Hand", b"Hund")
    with ReadAhead(loads(raws)) as ahead:
        assert reading(lambda r: ahead.read(5, r), changed) == reading(read_mail, changed)
        assert reading(lambda r: ahead.read(6, r), raws[6]) == reading(read_mail, raws[6])


def test_a_child_that_dies_leaves_the_batch_reading_on_its_own():
    raws = corpus()
    with ReadAhead(loads(raws)) as ahead:
        assert ahead._child.pid is not None
        os.kill(ahead._child.pid, 9)
        for index, raw in enumerate(raws):
            assert reading(lambda r, i=index: ahead.read(i, r), raw) == reading(read_mail, raw)
        assert not ahead.reading


def test_a_load_that_fails_in_the_child_is_read_by_the_batch():
    raws = corpus()[:30]

    def broken():
        raise OSError("gone")

    sources = loads(raws)
    sources[2] = broken
    with ReadAhead(sources) as ahead:
        for index, raw in enumerate(raws):
            assert reading(lambda r, i=index: ahead.read(i, r), raw) == reading(read_mail, raw)


def test_a_stuck_child_is_stopped_and_the_batch_goes_on(monkeypatch):
    monkeypatch.setattr(forked, "PATIENCE", 0.3)
    raws = corpus()[:30]

    def stuck():
        time.sleep(60)
        return raws[0]

    with ReadAhead([stuck] + loads(raws[1:])) as ahead:
        pid = ahead._child.pid
        start = time.monotonic()
        assert reading(lambda r: ahead.read(0, r), raws[0]) == reading(read_mail, raws[0])
        assert time.monotonic() - start < 10
        assert not ahead.reading
        with pytest.raises(ChildProcessError):  # killed and reaped
            os.waitpid(pid, os.WNOHANG)


def test_no_child_for_a_small_batch_or_beside_another_thread(monkeypatch):
    raws = corpus()
    with ReadAhead(loads(raws[: forked.AT_LEAST - 1])) as ahead:
        assert not ahead.reading
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with ReadAhead(loads(raws)) as ahead:
            assert not ahead.reading  # a fork beside a thread could leave a lock held in the child
            assert reading(lambda r: ahead.read(0, r), raws[0]) == reading(read_mail, raws[0])
    finally:
        stop.set()
        other.join()


def test_a_maildir_fetch_gives_the_same_outcomes_with_and_without_a_child(tmp_path, monkeypatch):
    """The whole fetch: every message's status, orders and acknowledgement alike."""
    monkeypatch.setattr(inbox, "order_code", corpus_code)
    results = []
    for at_least in (forked.AT_LEAST, 10**9):
        monkeypatch.setattr(forked, "AT_LEAST", at_least)
        (tmp_path / str(at_least)).mkdir()
        game = make_game7(tmp_path / str(at_least))
        new = game.folder / "mail" / "inbox" / "new"
        new.mkdir(parents=True)
        for i, raw in enumerate(corpus()):
            (new / f"{1700000000 + i}.M{i}.test").write_bytes(raw)
        outcomes = inbox.fetch_maildir(game)
        orders = (game.folder / "orders" / "turn-003.json").read_text(encoding="utf-8")
        acks = sorted(p.name for p in (game.folder / "mail" / "outbox").iterdir())
        results.append(
            ([(o.status, o.player, o.detail) for o in outcomes], _without_times(orders), len(acks))
        )
    assert results[0] == results[1]


def _without_times(orders: str) -> str:
    import re

    return re.sub(r'"received": "[^"]*"', "", orders)


def test_the_child_writes_nothing_and_leaves_no_process(tmp_path):
    raws = corpus()
    before = set(os.listdir(tmp_path))
    with ReadAhead(loads(raws)) as ahead:
        pid = ahead._child.pid
        ahead.read(0, raws[0])
    assert set(os.listdir(tmp_path)) == before
    with pytest.raises(ChildProcessError):  # reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)


def test_aside_brings_back_the_childs_value():
    with forked.Aside(lambda: {"west": [os.getpid(), "ok"]}) as child:
        assert child.started
        value = child.result()
    assert value is not None and value["west"][1] == "ok" and value["west"][0] != os.getpid()


def test_aside_has_no_value_from_a_child_that_failed_or_died():
    def fails():
        raise OSError(28, "No space left on device")

    with forked.Aside(fails) as child:
        assert child.started and child.result() is None
    with forked.Aside(lambda: os._exit(0)) as child:  # ended without a word: no value
        assert child.result() is None


def test_aside_stops_a_stuck_child(monkeypatch):
    monkeypatch.setattr(forked, "ASIDE_PATIENCE", 0.3)
    with forked.Aside(lambda: time.sleep(60)) as child:
        pid = child._child.pid
        start = time.monotonic()
        assert child.result() is None
        assert time.monotonic() - start < 10
    with pytest.raises(ChildProcessError):  # killed and reaped
        os.waitpid(pid, os.WNOHANG)


def test_aside_starts_no_child_beside_another_thread_or_unwanted():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with forked.Aside(lambda: 1) as child:
            assert not child.started and child.result() is None
    finally:
        stop.set()
        other.join()
    with forked.Aside(lambda: 1, wanted=False) as child:
        assert not child.started


def test_a_child_dies_with_its_parent():
    """A parent killed (a cron job's timeout, say) takes its child with it: a child left
    running on its own would hold copies of the parent's locks."""
    import subprocess
    import sys

    script = (
        "import time\nfrom pbem import forked\n"
        "child = forked.Aside(lambda: time.sleep(60))\nprint(child._child.pid, flush=True)\ntime.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        until = time.monotonic() + 10
        while _state(pid) != "S" and time.monotonic() < until:  # at its work (asleep)
            time.sleep(0.02)
        assert _state(pid) == "S"
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while _state(pid) not in ("", "Z") and time.monotonic() < deadline:  # gone, or dead and unreaped
        time.sleep(0.05)
    assert _state(pid) in ("", "Z"), "the child outlived its parent"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""
