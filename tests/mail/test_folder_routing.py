"""Issue 22, item 3, against a real Dovecot and aiosmtpd: twenty games of one GM's
folder share one IMAP account (``campaigns/pbem.yaml``), and ONE fetch serves them
all. Players reply with and without the tag, with Message-IDs of other games, from
addresses in two games; a stranger writes; the tool's own mail (copies, the tick's
review notices to the GM) lands in the same INBOX. Every player's message ends up
in exactly one game, or is answered as unroutable and listed; nothing is left in the
INBOX without the GM being told; the GM's own notices stay there, unread."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import formatdate, make_msgid
from pathlib import Path

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER, DovecotServer, SmtpServer

from pbem.cli import main
from pbem.gmfolder import unroutable
from pbem.outbox import Outbox

GAMES = [f"g{n:02d}" for n in range(1, 21)]
PROCESSED = "pbem-processed"
pytestmark = pytest.mark.servers  # its own Dovecot and aiosmtpd (a module fixture)
STRANGER = "mom@example.net"


def run(*args, ok=(0,)):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code in ok, result.output
    return result.output


@pytest.fixture(scope="module")
def servers():
    dovecot = DovecotServer(spare_accounts=80).start()
    smtp = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, starttls=True).start()
    try:
        yield dovecot, smtp
    finally:
        smtp.stop()
        dovecot.stop()


def mail(sender: str, subject: str, body: str = "STATUS", **headers: str) -> tuple[str, bytes]:
    message_id = make_msgid(domain="player.example")
    lines = [
        f"From: {sender}",
        "To: the GM <gm@example.test>",
        f"Subject: {subject}",
        f"Date: {formatdate()}",
        f"Message-ID: {message_id}",
        *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items()),
        "Content-Type: text/plain; charset=utf-8",
    ]
    return message_id, ("\r\n".join(lines) + "\r\n\r\n" + body + "\r\n").encode()


def turn_mail_id(root: Path, game: str, player: str) -> str:
    """The Message-ID of the player's private turn mail of the game."""
    for message_id, entry in Outbox(root / game).known_ids().items():
        if entry.get("kind") == "private" and entry.get("player") == player:
            return message_id
    raise AssertionError(f"no turn mail for {player} in {game}")


def received(root: Path, game: str) -> dict[str, dict]:
    path = root / game / "mail" / "received.jsonl"
    if not path.exists():
        return {}
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    return {e["message_id"]: e for e in entries}


def inbox(dovecot, user: str, folder: str = "INBOX") -> dict[str, tuple[str, bool]]:
    """Message-ID -> (subject, seen) of a folder of the GM's mailbox."""
    with dovecot.imap(user) as client:
        if not client.folder_exists(folder):
            return {}
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        if not uids:
            return {}
        data = client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID SUBJECT)]", "FLAGS"])
    out = {}
    for item in data.values():
        head = item[b"BODY[HEADER.FIELDS (MESSAGE-ID SUBJECT)]"].decode()
        fields = dict(line.split(": ", 1) for line in head.replace("\r\n ", " ").splitlines() if ": " in line)
        fields = {k.lower(): v for k, v in fields.items()}
        out[fields["message-id"]] = (fields.get("subject", ""), b"\\Seen" in item[b"FLAGS"])
    return out


def gm_folder(tmp_path, dovecot, monkeypatch, gm: str) -> Path:
    """A GM's folder whose shared settings fetch from ``gm``'s account on ``dovecot``."""
    monkeypatch.setenv("GM_IMAP", dovecot.passwords[gm])
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text(
        f"gm: {{name: Rita, email: {gm}}}\nmail:\n"
        f"  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: GM_IMAP}}\n",
        encoding="utf-8",
    )
    return root


def two_games(tmp_path, dovecot, monkeypatch, seed: int) -> tuple[Path, str, dict[str, list[str]]]:
    """A GM's folder of two started games, east and west, on one fresh account of
    ``dovecot``: the folder, the GM's address, each game's three players."""
    gm = dovecot.new_account()
    root = gm_folder(tmp_path, dovecot, monkeypatch, gm)
    senders = {}
    for name in ("east", "west"):
        (root / name).mkdir()
        who = [f"{name}-{n}@example.org" for n in ("ann", "ben", "cy")]
        senders[name] = who
        players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in zip(("Ann", "Ben", "Cy"), who))
        (root / name / "campaign.yaml").write_text(f"seed: {seed}\nplayers:\n{players}", encoding="utf-8")
        run("start", root / name)
    return root, gm, senders


def test_one_fetch_routes_twenty_games_and_leaves_the_gms_notices_alone(tmp_path, servers, monkeypatch):
    dovecot, smtp = servers
    gm = dovecot.new_account()
    monkeypatch.setenv("ROUTE_IMAP", dovecot.passwords[gm])
    monkeypatch.setenv("ROUTE_SMTP", SMTP_PASSWORD)
    ca = tmp_path / "ca.pem"
    smtp.ca.cert_pem.write_to_path(str(ca))
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text(
        f"gm: {{name: Rita, email: {gm}}}\n"
        f"deadline: {{timezone: UTC, every_days: 3, at: '20:00', remind_hours: 1}}\n"
        f"mail:\n"
        f"  auto_send: [ack]\n"
        f"  acks_per_hour: 20\n"
        f"  smtp: {{host: {smtp.host}, port: {smtp.port}, security: starttls, user: {SMTP_USER},"
        f" password_env: ROUTE_SMTP, ca_file: {ca}, timeout: 10}}\n"
        f"  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: ROUTE_IMAP}}\n",
        encoding="utf-8",
    )
    twin = dovecot.new_account()  # plays in g01 and g02
    address: dict[tuple[str, str], str] = {}
    for game in GAMES:
        names = ("Ann", "Ben", "Twin" if game in ("g01", "g02") else "Cat")
        for name in names:
            address[(game, name)] = twin if name == "Twin" else dovecot.new_account()
        players = "".join(f"  - {{name: {n}, email: {address[(game, n)]}}}\n" for n in names)
        (root / game).mkdir()
        (root / game / "campaign.yaml").write_text(
            f"title: Game {game}\nseed: {game}\nplayers:\n{players}", encoding="utf-8"
        )
        run("start", root / game)

    # -- the mail of one morning, all in the GM's INBOX ---------------------------------------------
    expect: dict[str, str] = {}  # Message-ID -> the game it must end in
    listed: dict[str, str] = {}  # Message-ID -> the status of the list of mail no game took
    sent = []
    for game in GAMES:  # tagged replies
        mid, raw = mail(address[(game, "Ann")], f"Re: [{game}] Turn 1: your cards and orders")
        expect[mid] = game
        sent.append(raw)
    for game in GAMES[2:10]:  # fresh mail, no tag, no thread: the sender's only game
        mid, raw = mail(address[(game, "Ben")], "duel orders")
        expect[mid] = game
        sent.append(raw)
    for game in GAMES[10:15]:  # replies without the tag (the client dropped it): the thread
        mid, raw = mail(address[(game, "Cat")], "Re: your cards", In_Reply_To=turn_mail_id(root, game, "Cat"))
        expect[mid] = game
        sent.append(raw)
    # a player of g16 answering g17's mail (a forwarded copy?): passed over, her own game
    mid, raw = mail(address[("g16", "Ben")], "Re: cards", In_Reply_To=turn_mail_id(root, "g17", "Ann"))
    expect[mid] = "g16"
    sent.append(raw)
    # a stranger with g18's Message-ID: g18 keeps it and lists the unknown sender
    mid, raw = mail("mallory@evil.example", "Re: cards", In_Reply_To=turn_mail_id(root, "g18", "Ann"))
    expect[mid] = "g18"
    sent.append(raw)
    # Twin plays in g01 and g02: a thread names the game; nothing names it: answered
    mid, raw = mail(twin, "Re: your cards", References=turn_mail_id(root, "g02", "Twin"))
    expect[mid] = "g02"
    sent.append(raw)
    mid, raw = mail(twin, "my orders for this week")
    listed[mid] = "ambiguous"
    sent.append(raw)
    mid, raw = mail(twin, "[g05] Turn 1: orders")  # a game Twin does not play in
    listed[mid] = "wrong game"
    sent.append(raw)
    mid, raw = mail(STRANGER, "Sunday lunch", body="Are you coming?")
    listed[mid] = "unknown"
    sent.append(raw)
    # the tool's own mail: copies of turn mails to the GM (our Message-IDs, Auto-Submitted)
    own = []
    for game in ("g03", "g07"):
        draft = next((root / game / "mail" / "outbox").glob("t000-public-*.eml"))
        own.append(next(i for i, e in Outbox(root / game).known_ids().items() if e["draft"] == draft.stem))
        sent.append(draft.read_bytes())
    for raw in sent:
        dovecot.deliver(raw, gm)

    out = run("tick", root)
    assert "one fetch for 20 game(s)" in out, out

    # every player's message in exactly one game, the one it was for
    where = {game: received(root, game) for game in GAMES}
    for message_id, game in expect.items():
        holders = [g for g in GAMES if message_id in where[g]]
        assert holders == [game], (message_id, holders)
    strangers = [e for e in where["g18"].values() if e["status"] == "unknown sender"]
    assert [e["sender"] for e in strangers] == ["mallory@evil.example"]
    for message_id in listed:
        assert not any(message_id in where[g] for g in GAMES)
    acks = [e for g in GAMES for e in where[g].values() if e["status"] == "recorded"]
    assert len(acks) == len(expect) - 1 and all(e["ack"] for e in acks)  # all but the stranger's

    # the rest is listed for the GM; the two unroutable messages are kept, Twin answered once
    nowhere = {e["message_id"]: e for e in unroutable(root)}
    assert {m: e["status"] for m, e in nowhere.items()} == listed
    for message_id in listed:
        entry = nowhere[message_id]
        if entry["status"] == "unknown":
            assert entry["file"] is None  # the GM's own mail: left where it is
        else:
            assert (root / entry["file"]).read_bytes().count(message_id.encode()) == 1
    answered = [e for e in nowhere.values() if e["answer"]]
    assert [e["status"] for e in answered] == ["ambiguous"]  # one answer an hour to one sender
    status = run("status", root)
    assert "Mail no game took (3 new):" in status, status
    assert STRANGER in status and "left in the INBOX" in status and twin in status

    # the GM's INBOX: only what was left for them, unread; the rest filed away, read
    left = inbox(dovecot, gm)
    assert set(left) == {*own, next(m for m, s in listed.items() if s == "unknown")}
    assert not any(seen for _subject, seen in left.values())
    assert set(inbox(dovecot, gm, PROCESSED)) == set(expect) | {
        m for m, s in listed.items() if s != "unknown"
    }

    # the acknowledgements and the answer went by SMTP (auto_send: [ack]) to the players' boxes
    with dovecot.imap(twin) as client:
        client.select_folder("INBOX")
        subjects = [
            d[b"BODY[HEADER.FIELDS (SUBJECT)]"].decode()
            for d in client.fetch(client.search(["ALL"]), ["BODY.PEEK[HEADER.FIELDS (SUBJECT)]"]).values()
        ]
    assert sum("Which game is your message for?" in s for s in subjects) == 1, subjects
    assert sum("[g02] Turn 1" in s for s in subjects) == 1, subjects  # the ack of the threaded reply

    # -- the deadline passes: every game resolves and mails the GM a review notice -----------------
    run("send", root)  # the turn mails, so that the deadline may fall
    later = datetime.now(UTC) + timedelta(days=4)
    monkeypatch.setenv("PBEM_NOW", later.isoformat(timespec="seconds"))
    out = run("tick", root, ok=(0, 1))
    assert sum(f"[{g}] Turn 1 resolved." in out for g in GAMES) == 20, out
    notices = {m for m, (s, _) in inbox(dovecot, gm).items() if "waits for your review" in s}
    assert len(notices) == 20
    out = run("tick", root, ok=(0, 1))  # the next fetch meets them
    assert "20 mail(s) the tool sent (notices to you, copies) left in the INBOX" in out, out
    left = inbox(dovecot, gm)
    assert notices <= set(left) and not any(left[m][1] for m in notices)  # still there, unread
    assert not notices & set(inbox(dovecot, gm, PROCESSED))
    for game in GAMES:  # never read as a player's mail
        assert not any(e["sender"] == gm for e in received(root, game).values())


def test_a_single_campaign_leaves_the_tools_own_mail_and_reads_the_reply_quoting_it(
    tmp_path, servers, monkeypatch
):
    """Item 2 holds for one campaign alone too: the GM's copy of a turn mail (tagged, so
    the campaign's fetch used to take it and file it as "unknown sender") stays in the
    INBOX, unread; the player's reply that quotes it, with its In-Reply-To, is read."""
    dovecot, _smtp = servers
    gm, ann, ben, cat = (dovecot.new_account() for _ in range(4))
    monkeypatch.setenv("SOLO_IMAP", dovecot.passwords[gm])
    game = tmp_path / "solo"
    game.mkdir()
    players = "".join(
        f"  - {{name: {n}, email: {a}}}\n" for n, a in zip(("Ann", "Ben", "Cat"), (ann, ben, cat))
    )
    (game / "campaign.yaml").write_text(
        f"gm: {{name: Rita, email: {gm}}}\nseed: 3\nplayers:\n{players}mail:\n"
        f"  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: SOLO_IMAP}}\n",
        encoding="utf-8",
    )
    run("start", game)
    draft = next((game / "mail" / "outbox").glob("t000-private-*.eml"))
    ours = next(i for i, e in Outbox(game).known_ids().items() if e["draft"] == draft.stem)
    dovecot.deliver(draft.read_bytes(), gm)  # the copy to the GM: "[solo] Turn 1: ..."
    quoted = "> " + draft.read_bytes().decode("ascii", "replace").replace("\r\n", "\r\n> ")
    reply, raw = mail(
        ann, "Re: [solo] Turn 1: your cards and orders", "STATUS\r\n\r\n" + quoted, In_Reply_To=ours
    )
    dovecot.deliver(raw, gm)

    out = run("fetch", game)
    assert "recorded" in out, out
    assert set(received(root=tmp_path, game="solo")) == {reply}
    left = inbox(dovecot, gm)
    assert set(left) == {ours} and left[ours][1] is False  # still there, unread
    assert set(inbox(dovecot, gm, PROCESSED)) == {reply}
    assert "No new messages." in run("fetch", game)  # and not met again as new


def test_the_same_bytes_twice_and_a_second_fetch_change_nothing(tmp_path, servers, monkeypatch):
    """One fetch for two games: a message delivered twice, byte for byte, is kept once;
    a second fetch finds nothing new and lists nothing twice."""
    dovecot, _smtp = servers
    gm, ann, ben, cat, dan = (dovecot.new_account() for _ in range(5))
    root = gm_folder(tmp_path, dovecot, monkeypatch, gm)
    for name, who in (("east", (ann, ben, cat)), ("west", (ann, ben, dan))):
        (root / name).mkdir()
        players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in zip(("Ann", "Ben", "Cy"), who))
        (root / name / "campaign.yaml").write_text(f"seed: 4\nplayers:\n{players}", encoding="utf-8")
        run("start", root / name)
    twice, raw = mail(dan, "orders")  # Dan plays in west only
    dovecot.append(gm, "INBOX", raw)  # by APPEND: the same bytes (LMTP adds a Received line each time)
    dovecot.append(gm, "INBOX", raw)
    lost, raw = mail(ann, "orders")  # Ann plays in both
    dovecot.deliver(raw, gm)
    out = run("fetch", root)
    assert "[west] 1 new message(s)." in out and "[east] 0 new message(s)." in out, out
    assert set(received(root, "west")) == {twice}
    assert [e["message_id"] for e in unroutable(root)] == [lost]
    assert inbox(dovecot, gm) == {}  # both copies filed away, and Ann's message (kept in the folder)
    again = run("fetch", root)
    assert "[west] 0 new message(s)." in again and "no game named" not in again
    assert len(unroutable(root)) == 1
    status = run("status", root)
    assert "Mail no game took (1 new):" in status and ann in status and "answered (east/" in status
    assert "Marked 1 message(s) no game took as seen." in run("status", root, "--seen")
    status = run("status", root)
    assert "Mail no game took, already seen: 1." in status and "(1 new)" not in status
    listed = json.loads(run("status", root, "--json"))["unroutable"]
    assert [(e["message_id"], e["status"], e["seen"]) for e in listed] == [(lost, "ambiguous", True)]


def test_a_fetch_that_fails_half_way_is_finished_by_the_next_nothing_lost_nor_doubled(
    tmp_path, servers, monkeypatch
):
    """A game's Mailroom fails on the third message (a full disk, say): the fetch says
    so, and nothing of the chunk is noted or filed away (the games' mail is read at the
    chunk's end, game by game: a chunk is done whole or not at all), so every message
    stays in the INBOX, unread; the next fetch reads them all, each once."""
    from pbem import inbox as inbox_module
    from pbem.gmfolder import fetch_folder

    dovecot, _smtp = servers
    root, gm, senders = two_games(tmp_path, dovecot, monkeypatch, seed=5)
    ids = []
    for n in range(6):
        game = ("east", "west")[n % 2]
        mid, raw = mail(senders[game][n % 3], "orders")
        ids.append((mid, game))
        dovecot.deliver(raw, gm)

    real = inbox_module.Mailroom.receive
    calls = []

    def failing(self, raw, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(self, raw, *args, **kwargs)

    monkeypatch.setattr(inbox_module.Mailroom, "receive", failing)
    first = fetch_folder(root)
    assert first.failed == ["east", "west"] and "No space left on device" in first.errors["east"]
    assert {g: set(received(root, g)) for g in ("east", "west")} == {"east": set(), "west": set()}
    assert set(inbox(dovecot, gm)) == {mid for mid, _ in ids}  # all wait, unread
    assert not any(seen for _, seen in inbox(dovecot, gm).values())

    monkeypatch.setattr(inbox_module.Mailroom, "receive", real)
    second = fetch_folder(root)
    assert not second.failed
    for mid, game in ids:
        holders = [g for g in ("east", "west") if mid in received(root, g)]
        assert holders == [game]
    for game in ("east", "west"):
        assert len(received(root, game)) == 3  # each once
    assert inbox(dovecot, gm) == {}


def test_a_fetch_whose_threads_die_at_start_still_keeps_every_message(
    tmp_path, servers, monkeypatch, threads_die_at_start
):
    """Every thread the tool starts dies before it runs a line (as one started under
    coverage's tracer once did in CI): the routed fetch of two games neither waits for
    ever nor leaves a message unkept; the callers do the work the threads did not."""
    import threading

    from pbem.gmfolder import fetch_folder

    dovecot, _smtp = servers
    root, gm, senders = two_games(tmp_path, dovecot, monkeypatch, seed=6)
    ids = {}
    for name, who in senders.items():
        for sender in who:
            mid, raw = mail(sender, "orders")
            ids[mid] = name
            dovecot.deliver(raw, gm)
    results = []
    fetch = threading.Thread(target=lambda: results.append(fetch_folder(root)), name="test", daemon=True)
    fetch.start()
    fetch.join(timeout=120)
    assert not fetch.is_alive(), "the fetch waits for ever on a thread that is gone"
    assert threads_die_at_start and results and not results[0].failed
    for mid, game in ids.items():
        assert [g for g in ("east", "west") if mid in received(root, g)] == [game]
    assert inbox(dovecot, gm) == {}


def _orders_by_mail(
    root: Path, senders: dict[str, list[str]], gm: str, dovecot, per_game: int
) -> dict[str, str]:
    """``per_game`` messages from each game's players, delivered: Message-ID -> game."""
    ids = {}
    for n in range(per_game):
        for game, who in senders.items():
            mid, raw = mail(who[n % 3], f"orders {n}", body="Hand 1: Guard on Ann, guess Priest")
            ids[mid] = game
            dovecot.deliver(raw, gm)
    return ids


def _each_once(root: Path, ids: dict[str, str], dovecot, gm: str) -> None:
    for mid, game in ids.items():
        assert [g for g in ("east", "west") if mid in received(root, g)] == [game], mid
    for game in ("east", "west"):
        lines = (root / game / "mail" / "received.jsonl").read_text().splitlines()
        assert len(lines) == len(set(lines)) == sum(1 for g in ids.values() if g == game)
        acks = [p for p in (root / game / "mail" / "outbox").iterdir() if p.name.startswith("ack-")]
        assert len(acks) == len(lines)  # one acknowledgement a message, none twice
    assert inbox(dovecot, gm) == {}


# The fetch runs in a process of its own: this one has the SMTP server's thread, and a
# process with another thread forks no child (pbem.forked.can_fork). WHEN: how the
# child's work goes ("well", or it dies "before" reading a message, or "after" reading
# them all durably but before it says so); the script prints the pids that read games,
# and each game's outcomes.
_FETCH_SCRIPT = r"""
import json, os, sys
from pbem import gmfolder
when, root = sys.argv[1], sys.argv[2]
real, parent, readers = gmfolder._read_into_games, os.getpid(), []

def spied(games, renderer):
    print(json.dumps({"reader": os.getpid(), "games": [c.name for c, _ in games]}), flush=True)
    if when == "after":
        real(games, renderer)
    if when != "well":
        os._exit(3)
    return real(games, renderer)

gmfolder._read_into_games = spied
report = gmfolder.fetch_folder(root)
print(json.dumps({"parent": parent, "failed": report.failed,
                  "outcomes": {g: [o.status for o in out] for g, out in report.outcomes.items()}}))
"""


def _fetch_apart(root: Path, when: str) -> tuple[list[dict], dict]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _FETCH_SCRIPT, when, str(root)], capture_output=True, text=True, check=True
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return lines[:-1], lines[-1]


def test_half_of_the_games_are_read_by_a_child_process_and_the_fetch_is_the_same(
    tmp_path, servers, monkeypatch
):
    """A chunk of 24 messages or more: the games of about half of them are read into
    their games by a forked child (the machine's second core), the rest in the fetch's
    own process; every message ends up once in its game, acknowledged once, its outcome
    reported."""
    dovecot, _smtp = servers
    root, gm, senders = two_games(tmp_path, dovecot, monkeypatch, seed=7)
    ids = _orders_by_mail(root, senders, gm, dovecot, per_game=13)
    readers, report = _fetch_apart(root, "well")
    assert [r["games"] for r in readers] == [["west"]] and readers[0]["reader"] != report["parent"]
    assert not report["failed"]
    assert report["outcomes"] == {g: ["recorded"] * 13 for g in ("east", "west")}
    _each_once(root, ids, dovecot, gm)


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_child_that_dies_leaves_its_games_to_the_fetch_nothing_lost_nor_doubled(
    tmp_path, servers, monkeypatch, when
):
    """The child dies before it reads a message, or once it has read them all and made
    them durable but before it says so: the fetch reads its games itself (again, for
    "after": a message kept before is known by its bytes, its orders are not applied
    twice, and it gets no second acknowledgement)."""
    dovecot, _smtp = servers
    root, gm, senders = two_games(tmp_path, dovecot, monkeypatch, seed=8)
    ids = _orders_by_mail(root, senders, gm, dovecot, per_game=12)
    readers, report = _fetch_apart(root, when)
    assert [r["games"] for r in readers] == [["west"]]
    assert not report["failed"]
    assert report["outcomes"]["east"] == ["recorded"] * 12
    assert report["outcomes"]["west"] == (["recorded"] * 12 if when == "before" else ["duplicate"] * 12)
    _each_once(root, ids, dovecot, gm)
    log = (root / "west" / "orders" / "turn-001.log").read_text().splitlines()
    assert len(log) == 12  # each message's orders applied once
