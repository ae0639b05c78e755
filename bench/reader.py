"""Mail reader speed: milliseconds per message over the corpus of real client
mail (tests/mail/corpus), and the time to read a few large messages.

    python bench/reader.py

The ingest target (bench/ingest.py: 500 messages a second, everything
included) needs the reader well under 1 ms per message; a large message
should read well under a second.
"""

from __future__ import annotations

import base64
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.reader import UnreadableMail, read_mail  # noqa: E402

CORPUS = ROOT / "tests" / "mail" / "corpus"


def timed(raw: bytes) -> float:
    start = time.perf_counter()
    try:
        read_mail(raw)
    except UnreadableMail:
        pass
    return time.perf_counter() - start


def large_messages() -> dict[str, bytes]:
    quoted = "".join(f"> Hand {n}: Guard, Prince        <- your turn\n" for n in range(1, 14))
    plain = ("Hand 3: Baron on Bruno\n\n" + quoted * 4000).encode()
    picture = base64.encodebytes(random.Random(1).randbytes(1_500_000))
    html = (
        b"<div>Hand 3: Baron</div><blockquote>"
        + b"<div>Hand 7: Guard, Prince</div>" * 40000
        + b"</blockquote>"
    )
    return {
        "3 MB of quoted plain text": b"From: a@example.org\nSubject: [g] Turn 3\n\n" + plain,
        "1 MB of HTML and a 2 MB picture": (
            b'From: a@example.org\nContent-Type: multipart/mixed; boundary="b"\n\n--b\n'
            b"Content-Type: text/html; charset=utf-8\n\n" + html + b"\n--b\nContent-Type: image/jpeg\n"
            b"Content-Transfer-Encoding: base64\n\n" + picture + b"\n--b--\n"
        ),
        "50,000 tiny MIME parts": (
            b'From: a@example.org\nContent-Type: multipart/mixed; boundary="b"\n\n'
            + b"--b\nContent-Type: text/plain\n\nHand 3: Baron\n" * 50000
            + b"--b--\n"
        ),
    }


def main() -> None:
    raws = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]
    best = float("inf")
    for _ in range(5):
        best = min(best, sum(timed(raw) for raw in raws) / len(raws))
    print(
        f"corpus: {len(raws)} messages, best of 5 rounds: {best * 1000:.2f} ms per message "
        f"({1 / best:,.0f} messages/s)"
    )
    for name, raw in large_messages().items():
        print(f"{name}: {timed(raw) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
