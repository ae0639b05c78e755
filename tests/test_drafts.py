"""Issue 8.1: every draft has a file of its own, whatever the players' names.

Draft names used to be built from a slug of the player's name, so names that
slug alike (any Cyrillic or Greek name, "Chloé" and "Chloe") shared one file
and each draft silently replaced the last. A draft's name now comes from the
seat, and writing a draft never replaces another.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default
from types import SimpleNamespace

import kit
import pytest

from pbem.outbox import DraftClash, Outbox, make_message, turn_mails

SCRIPTS = [
    {"name": "Борис", "email": "boris@example.org"},
    {"name": "Иван", "email": "ivan@example.org"},
    {"name": "Ольга", "email": "olga@example.org"},
    {"name": "Ζωή", "email": "zoe@example.org"},
]


def outbox_mail(folder):
    """Draft id -> (To address, Subject) of every draft in the outbox."""
    out = {}
    for path in sorted((folder / "mail" / "outbox").glob("*.eml")):
        msg = message_from_bytes(path.read_bytes(), policy=default)
        out[path.stem] = (msg["To"].addresses[0].addr_spec, str(msg["Subject"]))
    return out


@pytest.fixture
def cyrillic(tmp_path, cli):
    folder = tmp_path / "script"
    kit.write_config(folder, kit.config(SCRIPTS, gm={"name": "Rita", "email": "gm@example.org"}))
    cli.ok("start", folder)
    return folder


def test_opening_drafts_of_four_non_latin_players_are_eight_files(cli, cyrillic):
    mail = outbox_mail(cyrillic)
    assert len(mail) == 8, sorted(mail)
    to = sorted(address for address, _ in mail.values())
    assert to == sorted(p["email"] for p in SCRIPTS for _ in range(2))


def test_resolve_drafts_one_public_and_one_private_mail_per_player(cli, cyrillic):
    cli.ok("resolve", cyrillic, "--force")
    turn1 = {d: v for d, v in outbox_mail(cyrillic).items() if d.startswith("t001")}
    assert len(turn1) == 8
    for person in SCRIPTS:
        kinds = sorted(d.split("-")[1] for d, (to, _) in turn1.items() if to == person["email"])
        assert kinds == ["private", "public"], person


def test_remind_drafts_a_reminder_for_every_player(cli, cyrillic):
    cli.ok("remind", cyrillic)
    reminders = {d: v for d, v in outbox_mail(cyrillic).items() if d.startswith("reminder")}
    assert sorted(to for to, _ in reminders.values()) == sorted(p["email"] for p in SCRIPTS)
    cli.ok("remind", cyrillic, "--again")
    reminders = {d: v for d, v in outbox_mail(cyrillic).items() if d.startswith("reminder")}
    assert len(reminders) == 8


def test_acknowledgements_of_four_non_latin_players_are_four_drafts(cli, cyrillic):
    inbox = cyrillic / "mail" / "inbox" / "new"
    inbox.mkdir(parents=True)
    for n, person in enumerate(SCRIPTS):
        raw = make_message(
            sender_name=person["name"],
            sender=person["email"],
            to_name="Rita",
            to="gm@example.org",
            subject="[script] Turn 1: orders",
            body="STATUS\n",
            message_id=f"<m{n}@example.org>",
        )
        (inbox / f"m{n}.eml").write_bytes(raw)
    cli.ok("fetch", cyrillic)
    acks = {d: v for d, v in outbox_mail(cyrillic).items() if d.startswith("ack")}
    assert sorted(to for to, _ in acks.values()) == sorted(p["email"] for p in SCRIPTS)


def test_names_that_differ_only_by_an_accent_get_two_drafts(tmp_path):
    """Chloé and Chloe at one table (whether `start` lets them sit together is
    another matter): the turn's mails are still one file per player."""
    players = [
        SimpleNamespace(name="Chloé", email="chloe@example.fr"),
        SimpleNamespace(name="Chloe", email="chloe@example.org"),
    ]
    files = turn_mails(
        tmp_path, "g", 1, 1, False, None, players, "public", {"Chloé": "for Chloé", "Chloe": "for Chloe"}
    )
    drafts = [name for name in files if name.endswith(".eml")]
    assert len(drafts) == 4
    private = [text for name, text in files.items() if "private" in name]
    assert any("chloe@example.fr" in t for t in private) and any("chloe@example.org" in t for t in private)


def test_a_draft_never_replaces_another(tmp_path):
    outbox = Outbox(tmp_path)
    outbox.add("d1", b"first", message_id="<1@x>", kind="ack", turn=1, to="a@x", player="A")
    with pytest.raises(DraftClash, match="d1.eml"):
        outbox.add("d1", b"second", message_id="<2@x>", kind="ack", turn=1, to="b@x", player="B")
    assert (outbox.folder / "d1.eml").read_bytes() == b"first"
    assert list(outbox.known_ids()) == ["<1@x>"]
    assert sorted(p.name for p in outbox.folder.iterdir()) == ["d1.eml"]  # no temporary file left


def test_a_draft_never_replaces_another_in_a_batch(tmp_path):
    first = Outbox(tmp_path)
    first.add("d1", b"first", message_id="<1@x>", kind="ack", turn=1, to="a@x", player="A")
    batch = Outbox(tmp_path, durable=False)
    batch.add("d1", b"second", message_id="<2@x>", kind="ack", turn=1, to="b@x", player="B")
    with pytest.raises(DraftClash):
        batch.wait()
    assert (first.folder / "d1.eml").read_bytes() == b"first"


def test_a_batch_writer_switches_threads_sooner_while_it_runs_and_gives_the_interval_back(tmp_path):
    """The batch's draft writer needs the interpreter lock between its calls to the
    kernel: while it runs, a thread waits at most WRITER_SWITCH_INTERVAL for it; once
    it stops (its writes done, or one failed), the interval is the one it found."""
    import sys

    from pbem.outbox import WRITER_SWITCH_INTERVAL

    before = sys.getswitchinterval()
    first = Outbox(tmp_path)
    first.add("d1", b"first", message_id="<1@x>", kind="ack", turn=1, to="a@x", player="A")
    for fails in (False, True):
        batch = Outbox(tmp_path, durable=False)
        batch.add("d2", b"two", message_id="<2@x>", kind="ack", turn=1, to="b@x", player="B")
        other = Outbox(tmp_path / "other", durable=False)  # two batches at once: one interval saved
        other.add("d9", b"nine", message_id="<9@x>", kind="ack", turn=1, to="b@x", player="B")
        assert sys.getswitchinterval() == pytest.approx(min(before, WRITER_SWITCH_INTERVAL))
        if fails:
            batch.add("d1", b"clash", message_id="<3@x>", kind="ack", turn=1, to="b@x", player="B")
            with pytest.raises(DraftClash):
                batch.wait()
        else:
            batch.wait()
        assert sys.getswitchinterval() == pytest.approx(min(before, WRITER_SWITCH_INTERVAL))  # the other runs
        other.wait()
        assert sys.getswitchinterval() == before
        (batch.folder / "d2.eml").unlink()
        (other.folder / "d9.eml").unlink()


def test_the_games_of_a_folders_fetch_leave_the_switch_interval_as_it_is(started3, started4):
    """A GM folder's fetch hands each game's few drafts to its writer at once, a writer
    per game: switching sooner would only make the reading thread hand the lock to
    writers with little to do. Its rooms write their drafts all the same."""
    import sys

    from pbem.campaign import Campaign
    from pbem.inbox import Mailroom, flush_together

    before = sys.getswitchinterval()
    rooms = [Mailroom(Campaign(folder), one_of_many=True) for folder in (started3, started4)]
    for n, room in enumerate(rooms):
        with room:
            room.receive(
                f"From: Bruno <bruno@example.org>\r\nSubject: Re: [{room.campaign.name}] Turn 1\r\n"
                f"Message-ID: <m{n}@example.org>\r\n\r\nHand 2: Guard on Arthur, guess Priest\r\n".encode()
            )
            room.outbox.write_given()
            assert sys.getswitchinterval() == before
            flush_together([room])
            assert room.outbox.drafts(), "the acknowledgement was written"
    assert sys.getswitchinterval() == before


def test_a_batch_never_waits_for_a_writer_thread_that_is_gone(tmp_path, monkeypatch):
    """If the writer thread stops before it took every chunk (a fetch in the suite once
    hung for ever on a pool thread that was gone), wait() writes what is left itself:
    no draft is lost and nothing waits for ever."""
    from pbem import outbox as outbox_module

    batch = Outbox(tmp_path, durable=False)
    monkeypatch.setattr(outbox_module._Writer, "_run", lambda self: None)  # the thread stops at once
    names = [f"d{n}" for n in range(outbox_module.WRITER_CHUNK * 2 + 3)]
    for n, name in enumerate(names):
        batch.add(name, f"draft {n}".encode(), message_id=f"<{n}@x>", kind="ack", turn=1, to="a", player="A")
    batch.wait()
    batch.flush()
    assert sorted(p.name for p in batch.folder.iterdir()) == sorted(f"{name}.eml" for name in names)
    assert (batch.folder / "d7.eml").read_bytes() == b"draft 7"
    assert len(Outbox(tmp_path).known_ids()) == len(names)


# -- never replacing must not wedge a rerun after a crash ---------------------------------------------


def test_a_fetch_rerun_after_a_crash_keeps_the_ack_already_drafted(cli, tmp_path):
    """A batch killed after its acknowledgement was drafted but before its index
    was written reads the message again: the ack already there is kept (not
    replaced, not doubled, no clash)."""
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3))
    cli.ok("start", folder)
    inbox = folder / "mail" / "inbox"
    (inbox / "new").mkdir(parents=True)
    raw = make_message(
        sender_name="Arthur",
        sender="arthur@example.org",
        to_name="GM",
        to="gm@example.org",
        subject="[g] Turn 1: orders",
        body="STATUS\n",
        message_id="<again@example.org>",
    )
    (inbox / "new" / "m1.eml").write_bytes(raw)
    index = folder / "mail" / "received.jsonl"
    before = index.read_text() if index.exists() else ""
    cli.ok("fetch", folder)
    acks = sorted((folder / "mail" / "outbox").glob("ack-*.eml"))
    assert len(acks) == 1
    first = acks[0].read_bytes()
    index.write_text(before)  # as if killed before the batch's index was written
    for path in (inbox / "cur").iterdir():
        path.rename(inbox / "new" / "m1.eml")
    cli.ok("fetch", folder)
    acks = sorted((folder / "mail" / "outbox").glob("ack-*.eml"))
    assert len(acks) == 1 and acks[0].read_bytes() == first


def test_remind_rerun_after_a_crash_keeps_the_reminders_already_drafted(cli, cyrillic):
    noted = cyrillic / "mail" / "reminders.json"
    cli.ok("remind", cyrillic)
    drafted = sorted(p.name for p in (cyrillic / "mail" / "outbox").glob("reminder-*"))
    noted.unlink()  # as if killed before the reminders were noted
    cli.ok("remind", cyrillic)
    assert sorted(p.name for p in (cyrillic / "mail" / "outbox").glob("reminder-*")) == drafted
