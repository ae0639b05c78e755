"""Mail ingest speed: messages read per second from a 1,000-message Maildir
into a campaign (`pbem fetch` without a mail server).

    python bench/ingest.py [--messages N]

The messages are the realistic replies of tests/mail/corpus, each given a new
Message-ID so that none is a duplicate, dropped into the campaign's
mail/inbox/new. Everything a fetch does is timed: keeping each message byte for
byte, reading MIME and quotes, checking sender, campaign, turn and order code,
recording the orders and drafting an acknowledgement per message. On Linux the
fetch's forked child reads the mail ahead on the second core (pbem/forked.py), as it
does for a GM: its work is on the clock too (the fetch ends when the last message is
recorded).

Target (issue 3): at least 500 messages per second.

The package is byte-compiled first, as `pip install` does (bench/cli.py does the
same): the reader's modules are imported by the fetch, on the clock, and on a
machine with PYTHONDONTWRITEBYTECODE set an editable install would compile their
sources on every run, which no installed copy does.

The campaign is made in a temporary folder beside the repository (``--dir``
to choose). What creating a file costs differs from folder to folder and from hour
to hour on the virtual machines this runs on (measured: 0.03 ms to 0.9 ms on one
disk), and a fetch creates one file per acknowledgement: so the bench also prints
what creating as many small files took in the same folder, just before.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mail"))  # the corpus and its campaign

from corpus_game import CORPUS, corpus_code, make_game7  # noqa: E402

import pbem  # noqa: E402
from pbem import inbox  # noqa: E402


def messages(count: int) -> list[bytes]:
    corpus = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]
    out = []
    for i in range(count):
        raw = corpus[i % len(corpus)]
        new_id = f"<bench-{i}@example.net>".encode()
        if re.search(rb"(?im)^message-id:", raw):
            raw = re.sub(rb"(?im)^(message-id:)[^\r\n]*", rb"\1 " + new_id, raw, count=1)
        else:
            raw = b"Message-ID: " + new_id + b"\r\n" + raw
        out.append(raw)
    return out


def file_cost(folder: Path, count: int) -> float:
    """Seconds to create and write COUNT small files in FOLDER (then removed), what the
    disk had to write before flushed first and after (neither timed)."""
    here = folder / "file-cost"
    here.mkdir()
    os.sync()
    start = time.perf_counter()
    for i in range(count):
        fd = os.open(here / f"{i}.eml", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"x" * 2000)
        os.close(fd)
    elapsed = time.perf_counter() - start
    for i in range(count):
        os.unlink(here / f"{i}.eml")
    here.rmdir()
    os.sync()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--dir", default=str(ROOT.parent), help="where to make the campaign")
    args = parser.parse_args()
    inbox.order_code = corpus_code  # the codes the corpus's messages quote
    compileall.compile_dir(str(Path(pbem.__file__).parent), quiet=1)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="pbem-ingest-") as tmp:
        campaign = make_game7(Path(tmp))
        folder = campaign.folder
        new = folder / "mail" / "inbox" / "new"
        new.mkdir(parents=True)
        for i, raw in enumerate(messages(args.messages)):
            (new / f"{1700000000 + i}.M{i}P1.bench").write_bytes(raw)
        files = file_cost(folder, args.messages)
        start = time.perf_counter()
        outcomes = inbox.fetch_maildir(campaign)
        elapsed = time.perf_counter() - start
        statuses: dict[str, int] = {}
        for o in outcomes:
            statuses[o.status] = statuses.get(o.status, 0) + 1
        kept = len(list((folder / "mail" / "received").glob("*.eml")))
        rate = len(outcomes) / elapsed
        print(
            f"{len(outcomes)} messages read in {elapsed:.2f} s: {rate:,.0f} messages/s "
            f"({'meets' if rate >= 500 else 'MISSES'} the target of 500)"
        )
        print(f"outcomes: {statuses}; {kept} messages kept byte for byte")
        print(
            f"this folder's disk, just before: {args.messages:,} small files created in "
            f"{files:.2f} s ({files / args.messages * 1000:.2f} ms each)"
        )


if __name__ == "__main__":
    main()
