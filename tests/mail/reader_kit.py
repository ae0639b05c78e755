"""Helpers shared by the mail reader's tests (tests/mail/test_reader_*.py): messages, replies, seeds."""

from __future__ import annotations

import base64
import os
import quopri
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pbem.reader import ReadMail

TURN_MAIL = """\
Chloé, here is your position for turn 3 of "Love Letter, postal game 7".
Orders are due by Tuesday 1 December 2026, 20:00 Europe/Paris (19:00 UTC).

Your cards
  Hand  1: Guard
  Hand  3: Baron, Countess      <- your turn
  Hand  7: Guard, Prince        <- your turn

Your order code: Z9FD-2LJE (keep it in your reply)

Orders for turn 3 -- fill in one line per hand and reply to this mail:
Hand 3:
Hand 7:

Examples: "Hand 3: Guard on Bruno, guess Prince", "Hand 7: Prince on myself",
"Hand 11: Countess".
"""

SUBJECT = "Re: [game7] Turn 3: your cards and orders"
FROM = "Chloé Martin <chloe@example.org>"
ATTRIBUTION = "On Tue, 1 Dec 2026 at 10:00, Rita (pbem) <gm@example.org> wrote:"

# Lines of the turn mail that look like orders: none may ever reach own_text.
QUOTED_ORDER_LOOKALIKES = (
    "Guard on Bruno",
    "Baron, Countess",
    "Guard, Prince",
    "your turn",
    "Z9FD",
    "Hand 11",
)


def quote(text: str, prefix: str = "> ") -> str:
    """Quote text the way mail clients do: "> " before each line, ">" alone on blank ones."""
    return "\n".join(prefix + line if line.strip() else prefix.rstrip() for line in text.splitlines())


def message(
    body: str | bytes,
    *,
    content_type: str = "text/plain; charset=utf-8",
    cte: str = "8bit",
    subject: str = SUBJECT,
    sender: str | None = FROM,
    extra: str = "",
    crlf: bool = False,
) -> bytes:
    """A single-part message; a str body is encoded as UTF-8 (then transfer-encoded)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    if cte == "base64":
        data = base64.encodebytes(data)
    elif cte == "quoted-printable":
        data = quopri.encodestring(data)
    head = ""
    if sender is not None:
        head += f"From: {sender}\n"
    head += (
        "To: Rita (pbem) <gm@example.org>\n"
        f"Subject: {subject}\n"
        "Date: Tue, 01 Dec 2026 11:00:00 +0100\n"
        "Message-ID: <reply-1@example.org>\n"
        "In-Reply-To: <turn3-chloe@example.org>\n"
        "References: <turn2-chloe@example.org>\n <turn3-chloe@example.org>\n"
        "MIME-Version: 1.0\n"
        f"Content-Type: {content_type}\n"
        f"Content-Transfer-Encoding: {cte}\n"
        f"{extra}"
        "\n"
    )
    raw = head.encode("utf-8") + data
    if crlf:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return raw


def multipart(subtype: str, parts: list[str], *, boundary: str = "b1", headers: str = "") -> str:
    """A multipart entity (headers + body) as text, for nesting into `message`-like builds."""
    body = "".join(f"--{boundary}\n{part}\n" for part in parts) + f"--{boundary}--\n"
    return f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n{headers}\n{body}'


def part(body: str, content_type: str = "text/plain; charset=utf-8", extra: str = "") -> str:
    return f"Content-Type: {content_type}\nContent-Transfer-Encoding: 8bit\n{extra}\n{body}"


def multipart_message(entity: str, *, subject: str = SUBJECT) -> bytes:
    head = (
        f"From: {FROM}\nTo: gm@example.org\nSubject: {subject}\n"
        "Message-ID: <reply-2@example.org>\nMIME-Version: 1.0\n"
    )
    return (head + entity).encode("utf-8")


def reply(own: str, *, top: bool = True) -> str:
    """A reply body: own words above (top) or below the quoted turn mail."""
    quoted = ATTRIBUTION + "\n" + quote(TURN_MAIL)
    return f"{own}\n\n{quoted}\n" if top else f"{quoted}\n\n{own}\n"


def assert_no_lookalikes(read: ReadMail) -> None:
    for text in QUOTED_ORDER_LOOKALIKES:
        assert text not in read.own_text, f"quoted {text!r} leaked into own_text"
    assert "Hand 11" not in read.own_text
    assert "Examples" not in read.own_text


TURN_HTML = TURN_MAIL.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>\n")


def html_message(markup: str) -> bytes:
    return message(markup, content_type="text/html; charset=utf-8")


def inline_reply(answer3: str | None, answer7: str | None, blank_lines: int = 0) -> str:
    """The turn mail quoted, with the player's lines typed under the form lines."""
    out = [ATTRIBUTION]
    for line in TURN_MAIL.splitlines():
        out.append("> " + line if line else ">")
        if line == "Hand 3:" and answer3 is not None:
            out.extend([""] * blank_lines + [answer3])
        if line == "Hand 7:" and answer7 is not None:
            out.extend([""] * blank_lines + [answer7])
    return "\n".join(out) + "\n"


SEEDS = [
    message(reply("Hand 3: Baron on Bruno")),
    message(
        reply("Hand 3: Baron sur Bérénice"),
        cte="quoted-printable",
        content_type="text/plain; charset=utf-8; format=flowed",
    ),
    message(inline_reply("Baron on Bruno", "Prince on myself"), cte="base64"),
    message("Hand 3: Bérénice".encode("latin-1"), content_type="text/plain"),
    multipart_message(
        multipart(
            "mixed",
            [
                multipart(
                    "alternative",
                    [
                        part(reply("Hand 3: Baron")),
                        part(f"<blockquote>{TURN_HTML}</blockquote>", "text/html"),
                    ],
                    boundary="alt",
                ),
                "Content-Type: application/pdf\nContent-Disposition: attachment; filename=a.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n",
                "Content-Type: message/rfc822\n\nSubject: x\n\nHand 3: Princess\n",
            ],
        )
    ),
    html_message(
        '<div>Hand 3: Baron</div><div id="appendonsend"></div><div id="divRplyFwdMsg">From: Rita</div><div class="gmail_quote"><blockquote type="cite">Hand 3:</blockquote>Guard</div>'
    ),
]


FUZZ = settings(
    # Under mutmut, the examples of the profile "mutmut" (tests/conftest.py): 10, not 300.
    max_examples=settings.default.max_examples if "MUTANT_UNDER_TEST" in os.environ else 300,
    deadline=None,  # speed is measured in bench/reader.py, not in tests
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


CORPUS = Path(__file__).parent / "corpus"
MUTATION_SEEDS = SEEDS + [path.read_bytes() for path in sorted(CORPUS.glob("*.eml"))]


@st.composite
def mutated(draw):
    """A valid message (ours or a corpus one) with bytes flipped, inserted, deleted, or cut."""
    data = bytearray(draw(st.sampled_from(MUTATION_SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        op = draw(st.sampled_from(["flip", "insert", "delete", "cut", "dup"]))
        at = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "cut":
            del data[at:]
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
    return bytes(data)
