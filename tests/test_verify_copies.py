"""Issue 20: a finished game verifies, at every table size, from every copy a
player holds, and every small edit of what it tells is refused.

Before: the record lost its spaces at the line breaks ("Dowager Queen" came back
"DowagerQueen"), verify refused every Premium record (its events and numeric
guesses), said "Checked" and "Not checked" about the same hands of a mail with
CRLF line ends, and proved nothing of the readable text beyond a few lines.
"""

from __future__ import annotations

import functools
import random
import re
import tempfile
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from site_games import order_lines

from pbem.audit import RecordError, check_report
from pbem.campaign import Campaign
from pbem.cards import Card
from pbem.cli import main
from pbem.record import BEGIN, END, extract, record_block, report_text
from pbem.site import build_site

#: A name with a space (the record's wrap once lost it) and one with an accent (quoted-printable).
NAMES = ["Anne Marie", "Bruno", "Chloé", "Dmitri", "Eve", "Farid", "Gwen", "Hugo"]
NOTE = "Thanks for playing so fast, all of you"
#: The first player an order names (replaced by a name that names nobody).
NAMED = re.compile(r"(Hand \d+: \w+(?: \w+)? on )[^,\n]+?(?= and |,|$)", re.M)
CARDS = sorted({c.title for c in Card}, key=len, reverse=True)
CARD_WORD = re.compile(r"\b(" + "|".join(map(re.escape, CARDS)) + r")\b")


_ROOT = tempfile.TemporaryDirectory(prefix="pbem-verify-")  # removed when the tests end


@functools.cache
def finished_game(players: int, seed: int, templates: str = "") -> Path:
    """A whole game played to its end, with orders drawn from ``seed`` (some
    naming nobody, some hands left to the default rules) and a GM's note in
    every report; ``templates``: a public.txt.j2 of the GM's own."""
    folder = Path(tempfile.mkdtemp(prefix="game-", dir=_ROOT.name)) / "copies"
    folder.mkdir()
    if templates:
        (folder / "templates").mkdir()
        (folder / "templates" / "public.txt.j2").write_text(templates, encoding="utf-8")
    lines = [f"title: Table of {players}", "players:"]
    for i, name in enumerate(NAMES[:players]):
        lines.append(f"  - {{name: {name}, email: p{i}@example.org}}")
    lines.append(f"seed: {seed}")
    (folder / "campaign.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(seed)
    while not campaign.position().game.finished:
        campaign.add_note(NOTE)
        for i, (name, text) in enumerate(order_lines(campaign, policy).items()):
            if i == 0:  # a name that names nobody: the report says so, never quoting it
                text = re.sub(NAMED, r"\1Mallory", text, count=1)
            campaign.record_orders(name, text)
        campaign.resolve(force=True)
    return folder


def last_turn(folder: Path) -> int:
    return max(int(p.name.split("-")[1]) for p in (folder / "turns").glob("turn-*"))


def client_saved(raw: bytes, cte: str) -> bytes:
    """The mail as a mail client saves it: more headers, every header re-wrapped
    short, the body encoded again (``cte``), CRLF line ends."""
    sent = message_from_bytes(raw, policy=default)
    saved = EmailMessage(policy=default)
    saved["Received"] = (
        "from mx.example.org by imap.example.org with LMTP id 42; Tue, 1 Dec 2026 10:00:00 +0000"
    )
    for key in ("From", "To", "Subject", "Date", "Message-ID"):
        if sent[key] is not None:
            saved[key] = str(sent[key])
    body = sent.get_body(preferencelist=("plain",))
    assert body is not None
    saved.set_content(body.get_content(), cte=cte)
    out = saved.as_bytes(policy=SMTP.clone(max_line_length=40))
    assert b"\r\n" in out and b"\n " in out or b"\n\t" in out, "the headers are re-wrapped"
    return out


def copies(folder: Path) -> dict[str, bytes]:
    """Every copy of the final report a player may hold."""
    turn = last_turn(folder)
    sent = sorted((folder / "mail" / "outbox").glob(f"t{turn:03d}-public-*.eml"))
    assert sent, "the final report is in the outbox"
    site = Path(tempfile.mkdtemp(prefix="site-", dir=_ROOT.name))
    build_site(folder, site)
    raw = sent[0].read_bytes()
    return {
        "turn folder": (folder / "turns" / f"turn-{turn:03d}" / "reports" / "public.txt").read_bytes(),
        "outbox .eml": raw,
        "site final-report.txt": (site / "final-report.txt").read_bytes(),
        "client-saved .eml (quoted-printable)": client_saved(raw, "quoted-printable"),
        "client-saved .eml (base64)": client_saved(raw, "base64"),
    }


def verdict_of(raw: bytes, opening: bytes | None = None):
    text = report_text(raw)
    published = None
    if opening is not None:
        from pbem.record import opening_commitments

        published = opening_commitments(report_text(opening))
    return check_report(text, extract(text), published)


def run_verify(tmp: Path, raw: bytes, name: str = "final.eml", opening: bytes | None = None):
    path = tmp / name
    path.write_bytes(raw)
    args = ["verify", str(path)]
    if opening is not None:
        (tmp / "opening.txt").write_bytes(opening)
        args += ["--opening", str(tmp / "opening.txt")]
    result = CliRunner().invoke(main, args)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def assert_disjoint(verdict, text: str) -> None:
    """What was proven and what was not: no subject, no line of the text, in both;
    together they cover every line of the text."""
    proven = {c.subject for c in verdict.proven}
    unproven = {c.subject for c in verdict.unproven}
    assert not proven & unproven, proven & unproven
    lines_proven = frozenset().union(*(c.lines for c in verdict.proven))
    lines_unproven = frozenset().union(*(c.lines for c in verdict.unproven))
    assert not lines_proven & lines_unproven
    every = {i for i, line in enumerate(text.split("\n"), 1) if line.strip()}
    assert lines_proven | lines_unproven == every


TABLES = [2, 3, 4, 5, 6, 7, 8]
EDITS = 4  # edits of the text, and of the record, per game


@pytest.mark.parametrize("players", TABLES)
@given(seed=st.integers(0, 10**6), data=st.data())
@settings(
    max_examples=1,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a whole game per example: no shrinking
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_a_finished_game_verifies_from_every_copy_and_refuses_every_edit(players, seed, data, tmp_path):
    folder = finished_game(players, seed)
    opening = (folder / "turns" / "turn-000" / "reports" / "public.txt").read_bytes()
    held = copies(folder)
    for name, raw in held.items():
        verdict = verdict_of(raw, opening)
        assert verdict.problems == [], f"{name}: {verdict.problems}"
        assert_disjoint(verdict, report_text(raw).rstrip("\n"))
        # A public report quotes no player's words, neither in its text nor in its record.
        assert "Mallory" not in report_text(raw) and "Mallory" not in str(extract(report_text(raw)))
        subjects = [c.subject for c in verdict.proven]
        assert "the readable text" in subjects and "the decks" in subjects, f"{name}: {subjects}"
        notes = [c for c in verdict.unproven if "GM's note" in c.words]
        assert notes and all(NOTE in c.words for c in notes), f"{name}: the GM's note is not marked"
    # The command itself, from the copy a mail client saved.
    code, out = run_verify(tmp_path, held["client-saved .eml (base64)"], opening=opening)
    assert code == 0 and out.startswith("VERIFIED"), out
    proven_part, unproven_part = out.split("\nNot proven:", 1)
    assert "Not checked" not in out and "readable text" in proven_part
    assert NOTE in unproven_part and NOTE not in proven_part

    final = held["turn folder"].decode("utf-8")
    readable = final.split(BEGIN, 1)[0]
    note_free = "\n".join(line if NOTE not in line else " " * len(line) for line in readable.split("\n"))

    # One character of the readable text changed: a card, the winner, a token count.
    targets = [("card", m.start(), m.group()) for m in CARD_WORD.finditer(note_free)]
    over = re.search(r"GAME OVER\. (.+?) (?:wins the game|share the win)", readable)
    assert over is not None
    targets.append(("winner", over.start(1), over.group(1)))
    table = readable.index("Tokens of affection")
    for m in re.finditer(r"(?m)^  (\S.*?)\s+(\d+)\b", readable[table:].split("\n\n")[0]):
        targets.append(("tokens", table + m.start(2), m.group(2)))
    for _ in range(EDITS):
        what, at, word = data.draw(st.sampled_from(targets), label="what is edited in the text")
        edited, new_word = _edit(final, at, word, data)
        verdict = verdict_of(edited.encode("utf-8"))
        assert verdict.problems, f"an edit of {what} {word!r} in the readable text was verified"
        # The verifier quotes the word the edit changed, as the record gives it: of a card's
        # name of two words ("Dowager Queen" made "aowager Queen"), the one word changed.
        was, now = word.split(), new_word.split()
        given = next((w for w, n in zip(was, now) if w != n), word) if len(was) == len(now) else word
        assert any(f"'{given}'" in p and "where the record gives" in p for p in verdict.problems), (
            verdict.problems
        )
        assert not [c for c in verdict.proven if c.subject == "the readable text"]
        assert_disjoint(verdict, edited.rstrip("\n"))

    # One character of the record changed: a card of a deck or of an event, the winner, a token count.
    record = extract(final)
    block = record_block(record)
    assert block in final
    import json

    body = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    spots = [("card", m.start(), m.group()) for m in re.finditer(r'"(?:' + "|".join(CARDS) + r')"', body)]
    spots = [(w, a + 1, t[1:-1]) for w, a, t in spots]
    winners_at = body.index('"winners":[') + len('"winners":[') + 1
    spots.append(("winner", winners_at, record["winners"][0]))
    tokens_at = body.index('"tokens":[', body.index('"turns":'))
    for m in re.finditer(r"\d+", body[tokens_at + 10 : body.index("]", tokens_at)]):
        spots.append(("tokens", tokens_at + 10 + m.start(), m.group()))
    for _ in range(EDITS):
        what, at, word = data.draw(st.sampled_from(spots), label="what is edited in the record")
        changed, new_word = _edit(body, at, word, data)
        tampered = final.replace(block, record_block(json.loads(changed)))
        try:
            verdict = verdict_of(tampered.encode("utf-8"))
        except RecordError as e:
            said = str(e)
        else:
            assert verdict.problems, f"an edit of {what} {word!r} in the record was verified"
            assert_disjoint(verdict, tampered.rstrip("\n"))
            said = " ".join(verdict.problems)
        assert new_word in said, (
            f"the sentence does not say what differs ({what} {word!r} -> {new_word!r}): {said}"
        )


def _edit(text: str, at: int, word: str, data) -> str:
    """``text`` with one character of ``word`` (which starts at ``at``) replaced by
    another, and the word as it is then."""
    i = data.draw(st.integers(0, len(word) - 1), label="which character")
    old = word[i]
    pool = "0123456789" if old.isdigit() else "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    new = data.draw(st.sampled_from([c for c in pool if c != old]), label="the new character")
    assert text[at + i] == old
    return text[: at + i] + new + text[at + i + 1 :], word[:i] + new + word[i + 1 :]


# -- item 1: the wrap round-trips exactly --------------------------------------------------------------


@given(
    st.dictionaries(
        st.text(st.characters(codec="utf-8"), max_size=8),
        st.text(st.characters(codec="utf-8"), max_size=40) | st.integers() | st.none(),
        max_size=12,
    )
)
@settings(max_examples=200, deadline=None)
def test_the_record_block_reads_back_exactly_however_a_mail_client_strips_or_quotes_it(record):
    record = {"version": 2, **record}
    block = record_block(record)
    assert extract(block) == record
    stripped = "\n".join(line.strip() for line in block.split("\n"))
    assert extract(stripped) == record
    quoted = "\n".join("> " + line for line in block.split("\n"))
    assert extract(quoted) == record
    crlf = "\r\n".join("  " + line + "   " for line in block.split("\n"))
    assert extract(crlf) == record
    assert all(len(line) <= 76 for line in block.split("\n")[1:-1])


def test_a_space_at_a_line_break_survives():
    """The case of the issue: "Dowager Queen" across a break came back "DowagerQueen"."""
    for pad in range(0, 90):
        record = {"version": 2, "deck": ["x" * pad + "Dowager Queen", "Anne Marie"]}
        block = record_block(record)
        assert extract("\n".join(line.strip() for line in block.split("\n"))) == record


def test_an_older_record_is_still_read():
    """pbem before the escape wrote raw JSON in 76 columns; a mail client stripped the spaces at line ends."""
    import json

    record = {"version": 1, "deck": ["x" * 46 + "Dowager Queen"], "name": "y" * 55 + "Anne Marie"}
    text = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    lines = [text[i : i + 76] for i in range(0, len(text), 76)]
    assert any(line.endswith(" ") for line in lines), "the example breaks at a space"
    old = "\n".join([BEGIN, *(line.rstrip() for line in lines), END])
    assert extract(old) == record


# -- item 3: what it says it checked is what it checked ----------------------------------------------------


def test_a_mail_with_crlf_never_says_checked_and_not_checked_about_the_same_thing(tmp_path):
    folder = finished_game(3, 20)
    raw = copies(folder)["client-saved .eml (quoted-printable)"]
    code, out = run_verify(tmp_path, raw)
    assert code == 0, out
    proven, unproven = out.split("\nProven:", 1)[1].split("\nNot proven:", 1)

    def subjects(part: str) -> set[str]:
        return {line.strip("- .").split(":")[0] for line in part.splitlines() if line.startswith("  - ")}

    assert subjects(proven) and subjects(unproven)
    assert not subjects(proven) & subjects(unproven), out
    assert "(not found in the text)" not in out


# -- item 4: a GM's own templates are named, not rendered -------------------------------------------------


def test_a_report_written_with_the_gms_own_templates_is_said_not_reproducible(tmp_path):
    from pbem.reports import default_templates_dir

    own = (default_templates_dir() / "public.txt.j2").read_text(encoding="utf-8")
    own = own.replace("Tokens of affection (", "Tokens of affection, as they stand (")
    folder = finished_game(3, 7, own)
    raw = copies(folder)["outbox .eml"]
    verdict = verdict_of(raw)
    assert verdict.problems == []
    assert not [c for c in verdict.proven if c.subject == "the readable text"]
    said = [c.words for c in verdict.unproven if c.subject == "the readable text"]
    assert said and "public.txt.j2 (SHA-256 " in said[0] and "cannot be rendered again" in said[0]
    assert "_events.txt.j2" not in said[0], "only the template the GM changed is named"
    assert_disjoint(verdict, report_text(raw).rstrip("\n"))
    code, out = run_verify(tmp_path, raw)
    assert code == 0 and "public.txt.j2 (SHA-256" in out.split("Not proven:")[1]


def test_an_older_record_from_a_crlf_mail_says_each_hand_once(tmp_path):
    """A record without the rendering facts (older pbem) falls back to the old
    checks: read from a CRLF copy, the hands ended in the last turn are found,
    and none is both proven and not."""
    folder = finished_game(4, 11)
    final = (folder / "turns" / f"turn-{last_turn(folder):03d}" / "reports" / "public.txt").read_text("utf-8")
    record = extract(final)
    del record["report"]
    start, end = final.index(BEGIN), final.index(END) + len(END)
    older = (final[:start] + record_block(record) + final[end:]).replace("\n", "\r\n")
    code, out = run_verify(tmp_path, older.encode("utf-8"), name="older.txt")
    assert code == 0, out
    assert "not found in the text" not in out
    proven, unproven = out.split("\nProven:", 1)[1].split("\nNot proven:", 1)
    assert "hand(s) ended in the last turn" in proven
    verdict = verdict_of(older.encode("utf-8"))
    assert_disjoint(verdict, report_text(older.encode("utf-8")).rstrip("\n"))
