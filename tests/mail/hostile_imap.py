"""A small IMAP server on loopback that can lie: for the hostile-reply tests only.

It speaks just enough IMAP4rev1 for `pbem fetch` (greeting, CAPABILITY, LOGIN,
SELECT, UID SEARCH, UID FETCH, LIST, CREATE, SUBSCRIBE, UID STORE, UID MOVE,
LOGOUT) over one mailbox of messages; ``faults`` maps a command (``greeting``,
``SELECT``, ``FETCH-HEADER``, ``FETCH-BODY``...) to the lie told in its place. Real
mail behaviour is tested against Dovecot (servers.py); this server exists
because Dovecot cannot be made to send a reply outside the RFC.
"""

from __future__ import annotations

import re
import socketserver
import threading

CAPS = b"IMAP4rev1 MOVE UIDPLUS"

#: The lies the server can tell, by name (each a function of the tag and the honest reply).
FAULTS = {
    "no uidvalidity": lambda tag, honest: re.sub(rb"\* OK \[UIDVALIDITY \d+\][^\r\n]*\r\n", b"", honest),
    "uidvalidity abc": lambda tag, honest: re.sub(rb"UIDVALIDITY \d+", b"UIDVALIDITY abc", honest),
    "uidvalidity 0": lambda tag, honest: re.sub(rb"UIDVALIDITY \d+", b"UIDVALIDITY 0", honest),
    "uidvalidity huge": lambda tag, honest: re.sub(rb"UIDVALIDITY \d+", b"UIDVALIDITY " + b"9" * 60, honest),
    "uidnext abc": lambda tag, honest: re.sub(rb"UIDNEXT \d+", b"UIDNEXT -x", honest),
    "huge literal": lambda tag, honest: b"* 1 FETCH (UID 1 BODY[HEADER] {99999999999}\r\nFrom: x\r\n",
    "short literal": lambda tag, honest: b"* 1 FETCH (UID 1 BODY[HEADER] {5000}\r\nFrom: x\r\n",
    "literal in greeting": lambda tag, honest: b"* OK {99999999999}\r\n",
    "garbage": lambda tag, honest: b"* \x00\xff((( ]] {{ 12\r\n" + tag + b" OK done\r\n",
    "bye": lambda tag, honest: b"* BYE going away\r\n",
    "no": lambda tag, honest: tag + b" NO [SERVERBUG] nope\r\n",
    "bad": lambda tag, honest: tag + b" BAD what\r\n",
    "close": lambda tag, honest: b"",
    "silence": lambda tag, honest: None,
    "search lies": lambda tag, honest: (
        b"* SEARCH 1 x -4 0 99999999999999999999 2\r\n" + tag + b" OK done\r\n"
    ),
    "fetch other uids": lambda tag, honest: (
        b"* 1 FETCH (UID 77 FLAGS ())\r\n* 2 FETCH (UID abc)\r\n" + tag + b" OK done\r\n"
    ),
    "fetch no data": lambda tag, honest: (
        b"* 1 FETCH (UID 1)\r\n* 2 FETCH (UID 2 BODY[HEADER] NIL)\r\n" + tag + b" OK done\r\n"
    ),
    "flood": lambda tag, honest: b"* 1 EXISTS\r\n" * 20000 + honest,
    "long line": lambda tag, honest: b"* OK " + b"x" * 1_100_000 + b"\r\n" + honest,
    "unknown tag": lambda tag, honest: b"ZZZ9 OK done\r\n" + honest,
    "not imap": lambda tag, honest: b"HTTP/1.1 400 Bad Request\r\n\r\n",
}

#: The places a lie can be told.
PLACES = ["greeting", "LOGIN", "SELECT", "SEARCH", "FETCH-HEADER", "FETCH-BODY", "LIST", "STORE", "MOVE"]


class HostileImap:
    """``with HostileImap(messages, faults) as server:`` ... ``server.port``."""

    def __init__(self, messages: list[bytes], faults: dict[str, str] | None = None):
        self.messages = messages
        self.faults = dict(faults or {})
        self.commands: list[bytes] = []
        outer = self

        class Handler(socketserver.StreamRequestHandler):
            timeout = 30

            def handle(self) -> None:
                outer._serve(self)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> HostileImap:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- the protocol ------------------------------------------------------------------------

    def _reply(self, handler, place: str, tag: bytes, honest: bytes) -> bool:
        """Send the honest reply or the lie for ``place``; False: the connection is done."""
        fault = self.faults.get(place)
        data = honest if fault is None else FAULTS[fault](tag, honest)
        if data is None:  # silence: the client's timeout must end it
            try:
                handler.rfile.readline()
            except OSError:
                pass
            return False
        try:
            handler.wfile.write(data)
            handler.wfile.flush()
        except OSError:
            return False
        return bool(data) and not data.startswith((b"* BYE", b"HTTP"))

    def _serve(self, handler) -> None:
        if not self._reply(handler, "greeting", b"*", b"* OK [CAPABILITY " + CAPS + b"] hostile ready\r\n"):
            return
        while True:
            try:
                line = handler.rfile.readline(100_000)
            except OSError:  # (a timeout too)
                return
            if not line:
                return
            self.commands.append(line)
            parts = line.rstrip(b"\r\n").split(b" ")
            tag, verb = parts[0], (parts[1].upper() if len(parts) > 1 else b"")
            args = parts[2:]
            place, honest = self._honest(tag, verb, args)
            if not self._reply(handler, place, tag, honest) or verb == b"LOGOUT":
                return

    def _honest(self, tag: bytes, verb: bytes, args: list[bytes]) -> tuple[str, bytes]:
        ok = tag + b" OK done\r\n"
        n = len(self.messages)
        if verb == b"CAPABILITY":
            return "CAPABILITY", b"* CAPABILITY " + CAPS + b"\r\n" + ok
        if verb == b"LOGIN":
            return "LOGIN", tag + b" OK [CAPABILITY " + CAPS + b"] logged in\r\n"
        if verb in (b"SELECT", b"EXAMINE"):
            return "SELECT", (
                b"* %d EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT %d] ok\r\n"
                b"* FLAGS (\\Seen \\Deleted)\r\n%s OK [READ-WRITE] selected\r\n" % (n, n + 1, tag)
            )
        if verb == b"LIST":
            return "LIST", b'* LIST () "/" pbem-processed\r\n' + ok
        if verb == b"UID" and args:
            sub = args[0].upper()
            if sub == b"SEARCH":
                return "SEARCH", b"* SEARCH " + b" ".join(b"%d" % (i + 1) for i in range(n)) + b"\r\n" + ok
            if sub == b"FETCH":
                whole = b"BODY.PEEK[]" in b" ".join(args).upper()
                out = b""
                for uid in _uids(args[1] if len(args) > 1 else b"", n):
                    raw = self.messages[uid - 1]
                    data = raw if whole else raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n"
                    key = b"BODY[]" if whole else b"BODY[HEADER]"
                    out += b"* %d FETCH (UID %d %s {%d}\r\n%s)\r\n" % (uid, uid, key, len(data), data)
                return ("FETCH-BODY" if whole else "FETCH-HEADER"), out + ok
            if sub == b"STORE":
                return "STORE", ok
            if sub in (b"MOVE", b"COPY", b"EXPUNGE"):
                return "MOVE", ok
        return verb.decode("ascii", "replace"), ok


def _uids(spec: bytes, n: int) -> list[int]:
    out = []
    for part in spec.split(b","):
        if b":" in part:
            a, b = part.split(b":", 1)
            low = int(a) if a.isdigit() else 1
            high = n if b == b"*" or not b.isdigit() else int(b)
            out += range(low, min(high, n) + 1)
        elif part.isdigit() and 1 <= int(part) <= n:
            out.append(int(part))
    return out
