"""A message is kept under its digest's name, made in place (`store.write_kept`), not
written aside and renamed: a rename costs as much again as the file on some disks.
What a rename gave, never a torn file under the name, is given otherwise: a torn copy
(a crash mid-write) is named by no record, its message is read again, and the bytes
found then differ and are replaced whole."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from pbem.store import write_kept

RAW = b"From: Bruno <bruno@example.org>\r\nSubject: Re: [game3] Turn 1\r\n\r\nHand 1: Guard\r\n"


def test_a_new_message_is_made_whole_and_private(tmp_path):
    path = tmp_path / "a.eml"
    assert write_kept(path, RAW) is True
    assert path.read_bytes() == RAW
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(tmp_path) == ["a.eml"]  # nothing written aside


def test_a_whole_copy_is_left_as_it_is(tmp_path):
    path = tmp_path / "a.eml"
    write_kept(path, RAW)
    before = path.stat()
    assert write_kept(path, RAW) is False
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize("found", [b"", RAW[:20], RAW[:-1] + b"X", RAW + b"more"])
def test_a_torn_or_other_copy_is_replaced_whole(tmp_path, found):
    path = tmp_path / "a.eml"
    path.write_bytes(found)
    assert write_kept(path, RAW) is True
    assert path.read_bytes() == RAW
    assert os.listdir(tmp_path) == ["a.eml"]


def test_a_link_under_the_name_is_replaced_not_followed(tmp_path):
    """A symbolic link there, even to the very bytes, is no copy: the link is replaced
    by the file, and what it pointed to is left untouched."""
    elsewhere = tmp_path / "elsewhere.eml"
    elsewhere.write_bytes(RAW)
    path = tmp_path / "a.eml"
    path.symlink_to(elsewhere)
    assert write_kept(path, RAW) is True
    assert not path.is_symlink() and path.read_bytes() == RAW
    assert elsewhere.read_bytes() == RAW


def test_a_write_that_fails_leaves_no_file(tmp_path, monkeypatch):
    real = os.write

    def half_then_full(fd, data):
        if len(data) > 10:
            return real(fd, bytes(data[:10]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    path = tmp_path / "a.eml"
    with pytest.raises(OSError):
        write_kept(path, RAW)
    assert not path.exists()


def test_a_message_whose_kept_copy_was_torn_is_kept_whole_and_read(started3, tmp_path):
    """A fetch killed while keeping a message left part of it under its name, and no
    record of it: the message comes again, its copy is made whole, its orders read."""
    import hashlib

    from pbem import inbox
    from pbem.campaign import Campaign

    game = Campaign(started3)
    raw = (
        b"From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\nSubject: Re: [game3] Turn 1\r\n"
        b"Message-ID: <torn@example.org>\r\n\r\nHand 2: Guard on Arthur, guess Priest\r\n"
    )
    torn = game.store.received / f"{hashlib.sha256(raw).hexdigest()[:20]}.eml"
    torn.parent.mkdir(parents=True, exist_ok=True)
    torn.write_bytes(raw[:30])
    message = tmp_path / "reply.eml"
    message.write_bytes(raw)
    outcome = inbox.receive_file(game, message)
    assert outcome.status == inbox.RECORDED, outcome
    assert (started3 / outcome.file).read_bytes() == raw
