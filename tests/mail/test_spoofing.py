"""Issue 8, spoofing and leaks: what a hostile player (or a stranger writing
from a player's address) can make the inbox do. Each test is the attack.

No servers: the messages go straight into the campaign's Mailroom.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import inbox
from pbem.campaign import Campaign, order_code
from pbem.cli import main
from pbem.grammar import CODE_ALPHABET, CODE_SHAPE, code_candidates, codes_in, mask_codes
from pbem.received import held_acks

YAML = """\
title: Spoof game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloé, email: chloe@example.fr}
  - {name: Dominik, email: dominik@example.de}
seed: 5b1c7e0d9a3f44e2b8c61d07a5e9f3c2
"""
ADDRESS = {
    "Arthur": "arthur@example.org",
    "Bruno": "bruno@example.org",
    "Chloé": "chloe@example.fr",
    "Dominik": "dominik@example.de",
}


@pytest.fixture
def game(tmp_path) -> Campaign:
    folder = tmp_path / "spoof"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def code(campaign: Campaign, name: str) -> str:
    return order_code(campaign.position().seed, name)


_count = 0


def mail(sender: str, body: str, *, subject: str = "[spoof] Turn 1") -> bytes:
    global _count
    _count += 1
    return (
        f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
        f"Message-ID: <m{_count}@sender.example>\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def receive(campaign: Campaign, *raws: bytes) -> list[inbox.Outcome]:
    with inbox.Mailroom(campaign) as room:
        return [room.receive(raw, source="test") for raw in raws]


def drafts(campaign: Campaign) -> dict[str, object]:
    """Every mail the tool drafted: draft id -> parsed message."""
    folder = campaign.folder / "mail" / "outbox"
    return {p.stem: message_from_bytes(p.read_bytes(), policy=default_policy) for p in folder.glob("*.eml")}


def to_of(msg) -> str:
    return msg["To"].addresses[0].addr_spec


def body_of(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def gm_output(campaign: Campaign) -> str:
    """What the GM's commands print about the campaign (status, in text and JSON)."""
    runner = CliRunner()
    out = ""
    for args in (["status", str(campaign.folder)], ["status", "--json", str(campaign.folder)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        out += result.output
    return out


# -- 8.6: a forgery warning never mails the forged code ---------------------------------------------


def _one_off(text: str) -> str:
    """The code with one character changed (still in the code alphabet)."""
    last = text[-1]
    return text[:-1] + ("A" if last != "A" else "B")


@pytest.mark.parametrize("how", ["exact", "one character off", "lower case"])
def test_a_forgery_warning_never_mails_the_forged_code(game, how):
    chloe = code(game, "Chloé")
    carried = {"exact": chloe, "one character off": _one_off(chloe), "lower case": chloe.lower()}[how]
    (outcome,) = receive(game, mail(ADDRESS["Bruno"], f"Code: {carried}\nHand 2: Guard on Arthur, guess Spy"))
    assert outcome.status == inbox.CODE_MISMATCH, outcome.detail
    assert outcome.ack
    warning = body_of(drafts(game)[outcome.ack])
    # The game goes on: reminders, then the turn resolved and its reports drafted.
    from pbem.tick import remind

    assert remind(game)
    game.resolve(force=True)
    # Every mail the tool drafted: only Chloé's own mails may hold her code, in any spelling.
    for draft_id, msg in drafts(game).items():
        if to_of(msg) == ADDRESS["Chloé"]:
            continue
        text = body_of(msg) + str(msg["Subject"])
        for spelled in {chloe, carried, carried.upper()}:
            assert spelled.upper() not in text.upper(), (draft_id, text)
    assert "not yours" in warning and to_of(drafts(game)[outcome.ack]) == ADDRESS["Bruno"]
    # Nor in what the tool prints or records about the message.
    for text in (
        outcome.detail,
        outcome.summary(),
        gm_output(game),
        game.store.received_index.read_text(encoding="utf-8"),
    ):
        assert chloe not in text.upper() and carried.upper() not in text.upper(), text
    # The GM still learns whose code it was.
    assert "Chloé" in outcome.detail


def test_a_code_quoted_in_an_accepted_message_is_not_echoed(game):
    """Bruno's own code makes the message his; another player's code in it (in
    a line that is not an order) never comes back in the acknowledgement."""
    chloe = code(game, "Chloé")
    for body in (
        f"{code(game, 'Bruno')}\nChloé told me her code is {chloe}, funny",
        f"{code(game, 'Bruno')}\nHand 2: Guard on {chloe}\nHand 6: Guard on {chloe}\n"
        f"Hand 10: Guard on {chloe}",
    ):
        (outcome,) = receive(game, mail(ADDRESS["Bruno"], body))
        assert outcome.status == inbox.RECORDED
        ack = body_of(drafts(game)[outcome.ack])
        assert chloe not in ack.upper(), ack


# -- 8.7: ordinary words are not codes -------------------------------------------------------------


WORDS = ["well-kept", "self-made", "WELL-KEPT", "Self-Made", "bear-hunt", "part-time"]


@pytest.mark.parametrize("word", WORDS)
def test_a_hyphenated_word_is_not_an_order_code(game, word):
    body = f"A {word} plan this time.\nHand 2: Countess"
    (outcome,) = receive(game, mail(ADDRESS["Bruno"], body))
    assert outcome.status == inbox.RECORDED, outcome.detail
    ack = body_of(drafts(game)[outcome.ack])
    assert "writing in your name" not in ack and "not yours" not in ack


@pytest.mark.parametrize("word", WORDS)
def test_with_require_code_a_word_is_no_code_but_the_own_code_is(game, word):
    text = (game.folder / "campaign.yaml").read_text(encoding="utf-8") + "require_code: true\n"
    (game.folder / "campaign.yaml").write_text(text, encoding="utf-8")
    game = Campaign(game.folder)
    missing, mine = receive(
        game,
        mail(ADDRESS["Bruno"], f"A {word} plan.\nHand 2: Countess"),
        mail(ADDRESS["Bruno"], f"A {word} plan. {code(game, 'Bruno')}\nHand 2: Countess"),
    )
    assert missing.status == inbox.CODE_MISSING, missing.detail
    assert mine.status == inbox.RECORDED, mine.detail


def test_a_mistyped_own_code_is_refused_without_echo(game):
    bruno = code(game, "Bruno")
    swapped = bruno[:5] + bruno[6] + bruno[5] + bruno[7:]  # two neighbours swapped
    assert swapped != bruno
    for written in (swapped, _one_off(bruno)):
        (outcome,) = receive(game, mail(ADDRESS["Bruno"], f"Code {written}\nHand 2: Countess"))
        assert outcome.status == inbox.CODE_MISMATCH, written
        ack = body_of(drafts(game)[outcome.ack])
        assert written not in ack and "mistyped" in ack, ack
        assert "writing in your name" not in ack


def test_code_grammar_keeps_only_the_campaigns_codes():
    codes = ["K7QM-3XTP", "B4HN-8RWC"]
    text = "well-kept self-made WELL-KEPT k7qm-3xtp B4HN-8WRC ZZZZ-ZZZZ B4HN-8RWCX K7QM-3XTQ"
    found = [(c.written, c.code, c.exact) for c in codes_in(text, codes)]
    assert found == [
        ("k7qm-3xtp", "K7QM-3XTP", True),
        ("B4HN-8WRC", "B4HN-8RWC", False),
        ("K7QM-3XTQ", "K7QM-3XTP", False),
    ]


# -- 8.9: acknowledgements are no phishing relay ----------------------------------------------------

PHISH = (
    "URGENT from the GM: your account will be closed.\n"
    "Log in at http://evil.example/login to keep it.\n"
    "Password reset: https://evil.example/reset?u=bruno\n"
)


def _targeted_orders(campaign: Campaign, name: str, target: str) -> str:
    """One order per hand where ``name`` plays this turn, each with a targeted card
    they hold aimed at ``target`` (a word that names no player)."""
    from pbem.engine import TARGETED

    pos = campaign.position()
    seat = pos.players.index(name)
    lines = []
    for h in pos.game.hands:
        if h.active == seat and not h.ended:
            card = next((c for c in h.cards[seat] if c in TARGETED), None)
            if card is not None:
                lines.append(f"Hand {h.number}: {card.title} on {target}")
    assert lines, "the seed deals Bruno no targeted card this turn: change the seed"
    return "\n".join(lines)


def test_an_acknowledgement_echoes_only_what_was_read_as_orders(game):
    body = PHISH + "Hand 2: Countess\n"
    no_orders = PHISH
    odd_target = _targeted_orders(game, "Bruno", "evil.example")
    outcomes = receive(game, *(mail(ADDRESS["Bruno"], b) for b in (body, no_orders, odd_target)))
    for outcome in outcomes:
        assert outcome.status == inbox.RECORDED, outcome.detail
        ack = body_of(drafts(game)[outcome.ack])
        for spoofed in ("evil.example", "URGENT", "Log in", "Password", "account"):
            assert spoofed not in ack, ack
    first, second, _ = (body_of(drafts(game)[o.ack]) for o in outcomes)
    assert "Hand 2: Countess" in first and "3 other lines were not orders" in first
    assert "3 lines were not orders" in second


def _spoof_campaign(tmp_path, smtp, monkeypatch, auto_send="[ack]") -> Campaign:
    from servers import SMTP_PASSWORD, SMTP_USER

    folder = tmp_path / "spoof"
    folder.mkdir()
    ca = tmp_path / "ca.pem"
    smtp.ca.cert_pem.write_to_path(str(ca))
    monkeypatch.setenv("SPOOF_SMTP", SMTP_PASSWORD)
    (folder / "campaign.yaml").write_text(
        YAML + f"mail:\n  smtp: {{host: {smtp.host}, port: {smtp.port}, security: starttls,"
        f" user: {SMTP_USER}, password_env: SPOOF_SMTP, ca_file: {ca}}}\n"
        f"  auto_send: {auto_send}\n",
        encoding="utf-8",
    )
    campaign = Campaign(folder)
    campaign.start()
    for p in (folder / "mail" / "outbox").glob("*.eml"):  # the opening mails: not this test's business
        p.unlink()
    return campaign


def _drop_in_maildir(campaign: Campaign, raws: list[bytes]) -> None:
    new = campaign.folder / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    for i, raw in enumerate(raws):
        (new / f"{i:04d}.spoof").write_bytes(raw)


@pytest.fixture
def smtp():
    """A submission server that keeps what it accepts (no relay: only the count matters)."""
    from servers import SmtpServer

    server = SmtpServer(relay=None)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_hundred_spoofed_messages_make_a_few_acknowledgements(tmp_path, smtp, monkeypatch):
    from pbem.tick import tick

    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = _spoof_campaign(tmp_path, smtp, monkeypatch)
    spoofed = [mail(ADDRESS["Bruno"], PHISH + f"Message {n}") for n in range(100)]
    _drop_in_maildir(campaign, spoofed + [mail(ADDRESS["Arthur"], "Hand 1: Countess")])
    report = tick(campaign)
    assert report.messages == 101
    assert f"{100 - inbox.ACKS_PER_HOUR} acknowledgement(s) held" in "\n".join(report.lines())
    # Every message kept and indexed, none lost.
    index = campaign.store.received_index.read_text(encoding="utf-8").splitlines()
    assert len(index) == 101 and len(list(campaign.store.received.glob("*.eml"))) == 101
    # Bruno's address got a few acknowledgements, Arthur his own one; the rest wait for the GM.
    sent_to = [r.rcpt_tos[0] for r in smtp.received]
    assert sent_to.count(ADDRESS["Bruno"]) == inbox.ACKS_PER_HOUR
    assert sent_to.count(ADDRESS["Arthur"]) == 1
    held = held_acks(campaign)
    assert len(held) == 100 - inbox.ACKS_PER_HOUR and {h["player"] for h in held} == {"Bruno"}
    for r in smtp.received:
        assert b"evil.example" not in r.content
    # The GM is told, in words.
    out = gm_output(campaign)
    assert f"{100 - inbox.ACKS_PER_HOUR} acknowledgements to Bruno held" in out, out
    # A later tick (the hour gone) sends Bruno's next acknowledgement, but never the held ones.
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T11:30:00+00:00")
    _drop_in_maildir(campaign, [mail(ADDRESS["Bruno"], "Hand 2: Countess")])
    tick(campaign)
    sent_to = [r.rcpt_tos[0] for r in smtp.received]
    assert sent_to.count(ADDRESS["Bruno"]) == inbox.ACKS_PER_HOUR + 1
    assert len(held_acks(campaign)) == 100 - inbox.ACKS_PER_HOUR


def test_the_rate_limit_counts_acknowledgements_of_earlier_batches(game, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    first = receive(game, *(mail(ADDRESS["Bruno"], "Hand 2: Countess") for _ in range(inbox.ACKS_PER_HOUR)))
    assert not any(o.ack_held for o in first)
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:59:00+00:00")
    (late,) = receive(game, mail(ADDRESS["Bruno"], "Hand 2: Countess"))
    assert late.ack_held and late.status == inbox.RECORDED and "held" in late.summary()
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T11:00:01+00:00")
    (next_hour,) = receive(game, mail(ADDRESS["Bruno"], "Hand 2: Countess"))
    assert not next_hour.ack_held


PDF = "Log in at evil.example to keep your account.pdf"


def test_an_unreadable_message_is_answered_without_its_attachment_names(game):
    """A message with nothing but an attachment is unreadable; the player is told
    why, but the attachment's name (the spoofer's words) does not go back."""
    raw = (
        f"From: {ADDRESS['Bruno']}\r\nTo: gm@example.org\r\nSubject: [spoof] Turn 1\r\n"
        "Message-ID: <unreadable1@sender.example>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
        f'--b1\r\nContent-Type: application/pdf; name="{PDF}"\r\n'
        f'Content-Disposition: attachment; filename="{PDF}"\r\n'
        "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--b1--\r\n"
    ).encode()
    (outcome,) = receive(game, raw)
    assert outcome.status == inbox.UNREADABLE, outcome.status
    ack = body_of(drafts(game)[outcome.ack])
    assert "evil.example" not in ack and "account" not in ack, ack
    assert "no text I can read" in ack
    assert "evil.example" in outcome.detail  # the GM sees what came


# -- the code grammar, over random codes and texts -------------------------------------------------

_codes = st.lists(
    st.text(CODE_ALPHABET, min_size=8, max_size=8).map(lambda s: s[:4] + "-" + s[4:]),
    min_size=1,
    max_size=8,
    unique=True,
)


@settings(max_examples=200, deadline=None)
@given(
    codes=_codes,
    which=st.integers(min_value=0),
    lower=st.booleans(),
    before=st.text(max_size=40),
    after=st.text(max_size=40),
)
def test_a_campaign_code_anywhere_is_found_and_masked(codes, which, lower, before, after):
    code = codes[which % len(codes)]
    written = code.lower() if lower else code
    text = f"{before} {written} {after}"
    assert any(c.code == code and c.exact for c in codes_in(text, codes))
    masked = mask_codes(text, codes)
    assert code not in masked.upper()


@settings(max_examples=200, deadline=None)
@given(codes=_codes, word=st.text("abcdefghjkmnpqrstuvwxyz", min_size=8, max_size=8))
def test_a_word_far_from_every_code_is_no_code(codes, word):
    candidate = word[:4] + "-" + word[4:]
    far = all(sum(a != b for a, b in zip(candidate.upper(), c)) > 2 for c in codes)
    if far:
        assert codes_in(f"A {candidate} plan", codes) == []
        assert mask_codes(f"A {candidate} plan", codes) == f"A {candidate} plan"


_PIECES = ["k7qm", "3XTP", "ab2Z", "9", "-", "--", "_", " ", "é", "\n", ".", "wxyz1"]


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(st.sampled_from(_PIECES), max_size=14), codes=_codes)
def test_codes_are_looked_for_from_their_hyphens_as_the_shape_finds_them(pieces, codes):
    """code_candidates finds a code's shape from its hyphen (twenty times quicker):
    exactly CODE_SHAPE's matches, runs of hyphens, words and other scripts around
    them included; and mask_codes masks what CODE_SHAPE.sub would."""
    text = "".join(pieces)
    text = f"{codes[0].lower()}{text} {codes[0]}{text}"  # codes in it (one first), whatever was drawn
    assert [m.span() for m in code_candidates(text)] == [m.span() for m in CODE_SHAPE.finditer(text)]
    seen = {c.written for c in codes_in(text, codes)}
    expected = CODE_SHAPE.sub(lambda m: "(an order code)" if m.group(0) in seen else m.group(0), text)
    assert mask_codes(text, codes) == expected


def test_the_gm_sets_the_hourly_limit_and_a_bad_one_is_a_clear_error(game, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    yaml_text = (game.folder / "campaign.yaml").read_text(encoding="utf-8")
    (game.folder / "campaign.yaml").write_text(yaml_text + "mail: {acks_per_hour: 1}\n", encoding="utf-8")
    raws = [mail(ADDRESS["Bruno"], "Hand 2: Countess") for _ in range(2)]
    first, second = receive(Campaign(game.folder), *raws)
    assert not first.ack_held and second.ack_held
    for bad in ("0", "-2", "many", "true", "1.5"):
        (game.folder / "campaign.yaml").write_text(
            yaml_text + f"mail: {{acks_per_hour: {bad}}}\n", encoding="utf-8"
        )
        new = game.folder / "mail" / "inbox" / "new"
        new.mkdir(parents=True, exist_ok=True)
        (new / "one.eml").write_bytes(mail(ADDRESS["Bruno"], "Hand 2: Countess"))
        result = CliRunner().invoke(main, ["fetch", str(game.folder)])
        assert result.exit_code == 1 and "mail.acks_per_hour" in result.output, result.output
        assert "Traceback" not in result.output
        assert (new / "one.eml").exists()  # nothing read, nothing lost


# -- issue 18, item 9: spoofed words never reach players in the GM's name -------------------------

PHISHY_WORDS = [
    "Your-account-is-suspended-reply-with-your-password",
    "Claim-your-prize-at-evil-dot-com",
    "Send-the-GM-your-bank-details",
    "WireTheEntryFeeTodayPlease",  # one long word, no hyphen
    "Call-0800-555-0199",  # a phone number a client would link
    "+4420794600001",
]


def _guessing_orders(campaign: Campaign, name: str, guess: str) -> str:
    """A Guard order with ``guess`` as the guess, in a hand where ``name`` holds a Guard."""
    from pbem.cards import Card

    pos = campaign.position()
    seat = pos.players.index(name)
    other = next(p for p in pos.players if p != name)
    for h in pos.game.hands:
        if h.active == seat and not h.ended and Card.GUARD in h.cards[seat]:
            return f"Hand {h.number}: Guard on {other}, guess {guess}"
    raise AssertionError("the seed deals Bruno no Guard this turn: change the seed")


@pytest.mark.parametrize("word", PHISHY_WORDS)
def test_a_long_or_odd_unknown_word_is_not_quoted_back(game, word):
    bodies = [_targeted_orders(game, "Bruno", word), _guessing_orders(game, "Bruno", word)]
    outcomes = receive(game, *(mail(ADDRESS["Bruno"], b) for b in bodies))
    for outcome in outcomes:
        assert outcome.status == inbox.RECORDED, outcome.detail
        ack = body_of(drafts(game)[outcome.ack])
        assert inbox.UNQUOTED_WORD in ack, ack  # the player is still told what went wrong
        for piece in [word, *(p for p in word.replace("+", "-").split("-") if len(p) > 4)]:
            assert piece not in ack, (piece, ack)


@pytest.mark.parametrize("word", ["Brunno", "Artur", "Jean-Luc", "Zed"])
def test_a_short_misspelt_name_is_still_quoted_to_its_sender(game, word):
    (outcome,) = receive(game, mail(ADDRESS["Bruno"], _targeted_orders(game, "Bruno", word)))
    assert f'"{word}" names no player' in body_of(drafts(game)[outcome.ack])


@pytest.mark.parametrize("word", ["Claim-your-prize-at-evil-dot-com", "Brunno"])
def test_the_public_report_never_quotes_a_players_words(game, word):
    receive(game, mail(ADDRESS["Bruno"], _targeted_orders(game, "Bruno", word)))
    result = game.resolve(force=True)
    assert "the name written is not a player's" in result.public_report
    for report in (result.public_report, *result.private_reports.values()):
        assert word not in report


def test_held_acknowledgements_go_only_on_the_gms_word(tmp_path, smtp, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = _spoof_campaign(tmp_path, smtp, monkeypatch, auto_send="[]")
    spoofed = [mail(ADDRESS["Bruno"], PHISH + f"Message {n}") for n in range(40)]
    receive(campaign, *spoofed, mail(ADDRESS["Arthur"], "Hand 1: Countess"))
    held = [h["ack"] for h in held_acks(campaign)]
    assert len(held) == 40 - inbox.ACKS_PER_HOUR
    runner = CliRunner()
    result = runner.invoke(main, ["send", str(campaign.folder)])
    assert result.exit_code == 0, result.output
    assert f"{len(held)} held acknowledgements not sent" in result.output
    sent_to = [r.rcpt_tos[0] for r in smtp.received]
    assert sent_to.count(ADDRESS["Bruno"]) == inbox.ACKS_PER_HOUR and sent_to.count(ADDRESS["Arthur"]) == 1
    # Named, one goes; --held sends the rest.
    result = runner.invoke(main, ["send", str(campaign.folder), held[0]])
    assert result.exit_code == 0, result.output
    assert len(smtp.received) == inbox.ACKS_PER_HOUR + 2
    result = runner.invoke(main, ["send", str(campaign.folder)])
    assert "Nothing else to send" in result.output and len(smtp.received) == inbox.ACKS_PER_HOUR + 2
    result = runner.invoke(main, ["send", str(campaign.folder), "--held"])
    assert result.exit_code == 0, result.output
    assert len(smtp.received) == 40 + 1 and held_acks(campaign) == []


# -- issue 18, item 10: hidden HTML is said to the GM and to the player -----------------------------


def test_orders_hidden_in_html_are_not_recorded_and_everyone_is_told(game):
    visible = _targeted_orders(game, "Bruno", "Arthur").splitlines()[0]
    hidden = _guessing_orders(game, "Bruno", "Princess")
    html = f'<div>{visible}</div><div style="color:#fefefe;font-size:1px">{hidden}</div>'
    raw = mail(ADDRESS["Bruno"], html).replace(b"text/plain", b"text/html")
    (outcome,) = receive(game, raw)
    assert outcome.status == inbox.RECORDED
    assert [c.written.text for c in outcome.receipt.checked] == [visible]
    assert "hides text" in outcome.detail and "hides text" in outcome.summary()
    assert "hidden by its formatting" in body_of(drafts(game)[outcome.ack])
