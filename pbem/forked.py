"""Work done in a forked child beside this process, on the machine's second core, in
the two places where a fetch has work that needs nothing of what this process does
meanwhile:

- :class:`ReadAhead`: a batch's mail read ahead (:func:`pbem.reader.read_mail`, about
  half of a fetch's work) while the batch records orders and drafts acknowledgements;
- :class:`Aside`: one piece of work run whole in the child (half of the games of a
  routed fetch, :mod:`pbem.gmfolder`), its value sent back when it is done.

Either way the child can only make the work quicker, never change it: what it sends
back is taken only when it is whole and for the very input asked about, and for
anything else (a child that died, is stuck, or was never started) this process does the
work itself, as it always did. Reading a message is pure (bytes in, a
:class:`~pbem.reader.ReadMail` out); a game's batch of mail holds that game's lock and
is made durable before the child says it is done, and read again harmlessly if it
is not (a message kept before is recognised by its bytes).

A fork, not ``multiprocessing`` or a process pool: those start helper threads in the
caller (a pool's manager), and a thread of this tool has been seen to die as it
started under a tracer (see :func:`pbem.store.side_by_side`), which leaves a pool
waiting for ever. A fork is taken only where it is safe and worth it (:func:`can_fork`):
on Linux, from a process with no other thread (a thread holding a lock at the fork
would leave the child that lock held for ever), for enough work to pay for the few
milliseconds a fork costs.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .store import write_all

if TYPE_CHECKING:
    from .reader import ReadMail

T = TypeVar("T")

#: The fewest messages a batch reads ahead: below it, forking costs more than it saves.
AT_LEAST = 24
#: How long a batch waits for the child's next answer before it reads on its own
#: (a message takes milliseconds to read; a child that makes the batch wait this long
#: is stuck, and is stopped).
PATIENCE = 20.0
#: How long :meth:`Aside.result` waits for the child's value at most (a half of a routed
#: fetch takes a second or so; a child that takes this long is stuck, and is stopped).
ASIDE_PATIENCE = 300.0

_FRAME = struct.Struct(">I")  # each answer: its length, then its JSON


def can_fork() -> bool:
    """Whether a child may be forked here: on Linux, from a process with no other thread."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1


class _Child:
    """A forked child that runs ``run(fd)`` and writes to the pipe ``fd``; this process
    reads the other end (:attr:`fd`). ``pid`` None: no child could be had."""

    def __init__(self, run: Callable[[int], None]):
        self.pid: int | None = None
        self.fd: int | None = None
        self.status: int | None = None  # its wait status, once stopped
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:  # no process to be had: the caller does the work
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid == 0:  # the child: never returns
            os.close(read_fd)
            code = 1
            try:
                _as_a_child()
                run(write_fd)
                code = 0
            finally:
                os._exit(code)  # no atexit, no flushing of the parent's buffers
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd

    def wait_readable(self, seconds: float) -> bool:
        assert self.fd is not None  # (callers check)
        ready, _, _ = select.select([self.fd], [], [], max(0.0, seconds))
        return bool(ready)

    def stop(self, kill: bool = True) -> None:
        """Close the pipe, end the child (``kill``) and reap it; again: nothing."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.pid is not None:
            pid, self.pid = self.pid, None
            if kill:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.status = os.waitpid(pid, 0)[1]


class ReadAhead:
    """The mail of a batch read ahead by a child process (or, where no child can be
    started, by nobody: :meth:`read` then reads each message itself).

    ``loads``: one callable per message of the batch, in the order the batch reads them,
    each giving the message's bytes (None: nothing to read there). They are called in
    the child. Use as a context manager: leaving it stops the child."""

    def __init__(self, loads: Sequence[Callable[[], bytes | None]]):
        self._child: _Child | None = None
        self._buffer = b""
        self._next = 0  # the index of the child's next answer
        if len(loads) >= AT_LEAST and can_fork():
            from .reader import read_mail  # imported before the fork: the child imports nothing

            self._child = _Child(functools.partial(_read_all, loads, read_mail=read_mail))

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def reading(self) -> bool:
        """Whether a child reads ahead (still)."""
        return self._child is not None and self._child.fd is not None

    def read(self, index: int, raw: bytes) -> ReadMail:
        """Message ``index`` of the batch, whose bytes are ``raw``, as
        :func:`pbem.reader.read_mail` reads it (it raises :class:`UnreadableMail` as that
        does): the child's reading when it read these very bytes, else this process's."""
        from .reader import ReadMail, UnreadableMail, read_mail

        answer = self._answer(index)
        if answer is None or answer.get("sha256") != hashlib.sha256(raw).hexdigest():
            return read_mail(raw)
        if "unreadable" in answer:
            raise UnreadableMail(answer["unreadable"])
        fields = answer["mail"]
        for name in ("in_reply_to", "references", "defects"):
            fields[name] = tuple(fields[name])
        return ReadMail(**fields)

    def close(self) -> None:
        """Stop the child (whatever it has not read is not needed) and reap it."""
        if self._child is not None:
            self._child.stop()

    def _answer(self, index: int) -> dict[str, Any] | None:
        """The child's answer for message ``index`` (None: there is none to be had);
        answers for messages the batch did not need (a copy read before) are passed over."""
        while self.reading and self._next <= index:
            frame = self._frame()
            if frame is None:
                self.close()  # dead, stuck or done: the rest is read here
                return None
            self._next += 1
            if self._next - 1 == index:
                try:
                    answer: dict[str, Any] = json.loads(frame)
                except ValueError:  # cannot happen from the child's own json.dumps; read here
                    return None
                return answer
        return None

    def _frame(self) -> bytes | None:
        """The child's next answer, or None if it has none (ended, or silent for
        :data:`PATIENCE` seconds)."""
        head = self._take(_FRAME.size)
        if head is None:
            return None
        return self._take(_FRAME.unpack(head)[0])

    def _take(self, size: int) -> bytes | None:
        child = self._child
        assert child is not None and child.fd is not None  # (callers check)
        while len(self._buffer) < size:
            if not child.wait_readable(PATIENCE):
                return None
            chunk = os.read(child.fd, max(1 << 16, size - len(self._buffer)))
            if not chunk:
                return None
            self._buffer += chunk
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken


def _read_all(
    loads: Sequence[Callable[[], bytes | None]], fd: int, read_mail: Callable[[bytes], ReadMail]
) -> None:
    """In the child: each message read, and its answer written, in the batch's order."""
    import dataclasses

    from .reader import UnreadableMail

    for load in loads:
        answer: dict[str, Any] = {}
        try:
            raw = load()
        except Exception:  # noqa: BLE001 - the batch meets the same trouble and says what it is
            raw = None
        if raw is not None:
            answer["sha256"] = hashlib.sha256(raw).hexdigest()
            try:
                answer["mail"] = dataclasses.asdict(read_mail(raw))
            except UnreadableMail as e:
                answer["unreadable"] = str(e)
        data = json.dumps(answer).encode("ascii")  # (escaped: a lone surrogate comes back as it went)
        write_all(fd, _FRAME.pack(len(data)) + data)


class Aside(Generic[T]):
    """``work()`` run whole in a forked child while this process goes on; :meth:`result`
    is its value (pickled back through a pipe: the child is this very program), or None
    where there is none to be had (no child was started, it failed, died or is stuck):
    the caller then does the work itself. ``wanted`` False starts no child.

    The work must make whatever it writes durable before it returns (the child's value
    says it is done), and must be safe to do again over what a child that died left:
    the caller redoes it all. Use as a context manager: leaving it stops the child."""

    def __init__(self, work: Callable[[], T], wanted: bool = True):
        self._child = _Child(functools.partial(_send_value, work)) if wanted and can_fork() else None
        #: Whether a child was started (and so was given the work: the caller does it
        #: itself when this is False, or when :meth:`result` is None).
        self.started = self._child is not None and self._child.pid is not None

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._child is not None:
            self._child.stop()

    def result(self) -> T | None:
        """The child's value, once it is done (None: see the class)."""
        child = self._child
        if child is None or child.fd is None:
            return None
        import pickle
        import time

        chunks = []
        until = time.monotonic() + ASIDE_PATIENCE
        while True:
            if not child.wait_readable(until - time.monotonic()):
                child.stop()  # stuck: stopped, and the caller does the work
                return None
            chunk = os.read(child.fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        child.stop(kill=False)
        if child.status != 0:
            return None
        try:
            value: T = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - cut short: the caller does the work
            return None
        return value


def _send_value(work: Callable[[], T], fd: int) -> None:
    import pickle

    write_all(fd, pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL))


def _as_a_child() -> None:
    """A child's first steps: the GM's Ctrl-C ends it at once, and so does its parent's
    death (it holds copies of the parent's locks: a child left running on its own,
    stuck, would keep every later fetch out)."""
    import ctypes

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(Exception):  # (prctl is Linux's: the only system that forks here)
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before the call above: nobody waits for this
        os._exit(1)
