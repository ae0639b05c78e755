"""Folders on any server: `processed_folder: pbem/game7` on Dovecot with either separator.

Dovecot's default Maildir++ layout separates levels with "." and refuses "/" in a
name ("Name must not have '/' characters"); LAYOUT=fs separates them with "/".
The settings write levels with "/" and the fetch spells them the server's way.
"""

from __future__ import annotations

import uuid

import pytest
from servers import DovecotServer

from pbem.transport import FetchError, FetchLedger, ImapSettings, fetch_new


def fetch(server, user, tmp_path, processed: str, folder: str = "INBOX"):
    settings = ImapSettings(
        host=server.host,
        port=server.imap_port,
        tls=False,
        user=user,
        password=server.passwords[user],
        folder=folder,
        processed_folder=processed,
        timeout=5.0,
    )
    delivered: list[bytes] = []
    ledger = FetchLedger(tmp_path / f"imap-{uuid.uuid4().hex[:6]}.json")
    return fetch_new(settings, ledger, lambda headers: True, delivered.append), delivered


def reply() -> bytes:
    return (
        f"From: alice@example.test\r\nTo: gm@example.test\r\nSubject: [game7] orders\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@example.test>\r\n\r\nHand 1: Countess\r\n"
    ).encode()


def folders(server, user) -> dict[str, tuple]:
    with server.imap(user) as client:
        return {name: flags for flags, _, name in client.list_folders()}


def count(server, user, folder: str) -> int:
    with server.imap(user) as client:
        client.select_folder(folder, readonly=True)
        return len(client.search(["ALL"]))


@pytest.mark.parametrize("written", ["pbem/game7", "pbem.game7", "games/love letter/7"])
def test_processed_folder_with_either_separator_works_on_each_layout(layout_dovecot, tmp_path, written):
    server = layout_dovecot
    user = server.new_account()
    server.deliver(reply(), user)
    summary, delivered = fetch(server, user, tmp_path, written)
    assert summary.delivered == 1 and len(delivered) == 1
    separator = "." if server.layout == "maildir++" else "/"
    expected = separator.join(written.split("/"))
    present = folders(server, user)
    assert expected in present, present
    assert count(server, user, expected) == 1 and count(server, user, "INBOX") == 0
    # Every level exists as a folder of its own (created level by level).
    levels = expected.split(separator)
    for depth in range(1, len(levels)):
        assert separator.join(levels[:depth]) in present
    # A second message goes to the same folder, which now exists.
    server.deliver(reply(), user)
    assert fetch(server, user, tmp_path, written)[0].delivered == 1
    assert count(server, user, expected) == 2


def test_folder_to_read_is_a_path_too(layout_dovecot, tmp_path):
    server = layout_dovecot
    user = server.new_account()
    separator = "." if server.layout == "maildir++" else "/"
    server.append(user, f"players{separator}in", reply())
    summary, _ = fetch(server, user, tmp_path, "pbem/done", folder="players/in")
    assert summary.delivered == 1


def test_trash_is_refused_as_the_processed_folder(layout_dovecot, tmp_path):
    server = layout_dovecot
    user = server.new_account()
    server.deliver(reply(), user)
    with pytest.raises(FetchError, match=r"processed_folder: 'Trash' is the server's trash .*pbem/game7"):
        fetch(server, user, tmp_path, "Trash")
    assert count(server, user, "INBOX") == 1  # left where it was


def test_a_refused_folder_name_says_what_to_write_instead(layout_dovecot, tmp_path):
    server = layout_dovecot
    user = server.new_account()
    server.deliver(reply(), user)
    with pytest.raises(FetchError) as caught:
        fetch(server, user, tmp_path, "~pbem/game7")
    text = str(caught.value)
    assert "mail.imap.processed_folder" in text and "refused to create the folder" in text
    assert "Begins with '~'" in text  # the server's own words
    assert "processed_folder: pbem/game7" in text
    assert count(server, user, "INBOX") == 1


def test_a_server_keeping_folders_under_inbox_gets_the_prefix(tmp_path):
    """Courier's way (Dovecot configured alike): every folder is INBOX.something."""
    with DovecotServer(namespace_prefix="INBOX.", spare_accounts=1) as server:
        user = server.new_account()
        server.deliver(reply(), user)
        summary, _ = fetch(server, user, tmp_path, "pbem/game7")
        assert summary.delivered == 1
        assert count(server, user, "INBOX.pbem.game7") == 1
        # Written with the prefix already, it is not doubled.
        server.deliver(reply(), user)
        assert fetch(server, user, tmp_path, "INBOX/pbem/game7")[0].delivered == 1
        assert count(server, user, "INBOX.pbem.game7") == 2
