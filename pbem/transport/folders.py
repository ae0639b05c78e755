"""IMAP folder names on any server: the GM writes ``pbem/game7``, the server gets its own spelling.

Servers separate the levels of a folder path differently: ``/`` (Gmail, Dovecot
with ``LAYOUT=fs``, Cyrus with ``unixhierarchysep``), ``.`` (Dovecot's default
Maildir++, Courier, Cyrus), or not at all (a flat server). Some keep every
folder under a personal prefix (``INBOX.`` on Courier and older Cyrus). So the
settings write levels with ``/`` and this module asks the server, once per
connection, for its separator (``LIST "" ""``, RFC 3501 6.3.8) and its personal
namespace (RFC 2342), and spells the path the server's way. A folder is created
level by level (servers differ on whether creating ``a.b`` creates ``a``), and
a server's refusal becomes an error saying what to write instead.

The server's special-use folders (RFC 6154: ``\\Trash``, ``\\Junk``...) are
asked for too: mail moved to the trash or the spam folder is deleted by the
server after a while, so those are refused as the processed folder.
"""

from __future__ import annotations

import imaplib
import re
from collections.abc import Callable
from typing import Any

from imapclient import IMAPClient

from ..errors import MailError

__all__ = ["FolderError", "Mailbox", "levels"]

_ERRORS = (imaplib.IMAP4.error, OSError)
# Folders the server empties or owns: never a place to keep the players' mail.
_REFUSED_SPECIAL = {
    b"\\Trash": "trash",
    b"\\Junk": "spam folder",
    b"\\Drafts": "drafts folder",
    b"\\Sent": "sent-mail folder",
    b"\\Flagged": "flagged-mail view",
}


class FolderError(MailError):
    """A folder cannot be used as written; the message says what to write instead."""


def levels(path: str) -> list[str]:
    """The levels of a folder path as the settings write it: ``pbem/game7`` -> [pbem, game7]."""
    return [part for part in path.split("/") if part]


class Mailbox:
    """The folder names of one IMAP connection (asked lazily, at most once each)."""

    def __init__(self, client: IMAPClient, where: str):
        self.client = client
        self.where = where
        self._delimiter: str | None | bool = False  # False: not asked yet; None: a flat server
        self._prefix: str | None = None
        self._special: dict[str, bytes] | None = None

    # -- what the server says

    def delimiter(self) -> str | None:
        """The server's hierarchy separator, or None for a flat server."""
        if self._delimiter is False:
            answer = self._ask("asking for the folder separator", self.client.list_folders, "", "")
            found = answer[0][1] if answer else None
            if isinstance(found, bytes):
                found = found.decode("ascii", "replace")
            self._delimiter = found or None
        return self._delimiter  # type: ignore[return-value]

    def prefix(self) -> str:
        """The personal namespace's prefix (``INBOX.`` on Courier), or ``""``."""
        if self._prefix is None:
            self._prefix = ""
            if self.client.has_capability("NAMESPACE"):
                spaces = self._ask("asking for the namespaces", self.client.namespace)
                personal = spaces.personal or ()
                if personal:
                    prefix = personal[0][0]
                    self._prefix = prefix.decode() if isinstance(prefix, bytes) else str(prefix or "")
        return self._prefix

    def special_use(self) -> dict[str, bytes]:
        """Server folder name -> its special-use flag, for the folders that have one."""
        if self._special is None:
            self._special = {}
            if self.client.has_capability("SPECIAL-USE") or self.client.has_capability("XLIST"):
                for flags, _, name in self._ask("listing the folders", self.client.list_folders):
                    for flag in flags:
                        if flag in _REFUSED_SPECIAL or flag in (b"\\Archive", b"\\All"):
                            self._special[name] = flag
        return self._special

    # -- names

    def server_name(self, path: str, setting: str) -> str:
        """The server's name for the settings' path ``a/b/c``."""
        parts = levels(path)
        if len(parts) == 1 and parts[0].upper() == "INBOX":
            return "INBOX"
        if len(parts) > 1 or self.prefix():
            separator = self.delimiter()
            if separator is None:
                if len(parts) > 1:
                    raise FolderError(
                        f"{setting}: {path!r}: IMAP server {self.where} has no folders inside "
                        f"folders; write one name, e.g. {setting.rsplit('.', 1)[-1]}: {'-'.join(parts)}"
                    )
                return parts[0]
            prefix = self.prefix()
            if prefix and parts[0].upper() != prefix.rstrip(separator).upper():
                parts = [*levels(prefix.replace(separator, "/")), *parts]
            return separator.join(parts)
        return parts[0]

    def ensure(self, path: str, setting: str) -> str:
        """The server's name for `path`, created level by level if needed (and subscribed)."""
        name = self.server_name(path, setting)
        flag = self.special_use().get(name)
        if flag in _REFUSED_SPECIAL:
            raise FolderError(
                f"{setting}: {path!r} is the server's {_REFUSED_SPECIAL[flag]} ({flag.decode()}), where "
                f"mail does not stay; write another folder, e.g. {setting.rsplit('.', 1)[-1]}: pbem/game7"
            )
        separator = self.delimiter()
        parts = name.split(separator) if separator else [name]
        for depth in range(1, len(parts) + 1):
            level = (separator or "").join(parts[:depth])
            if self._ask(f"looking for folder {level!r}", self.client.folder_exists, level):
                continue
            try:
                self.client.create_folder(level)
            except imaplib.IMAP4.error as exc:
                raise FolderError(self._refusal(path, level, setting, _text(exc))) from None
            except OSError as exc:
                raise FolderError(f"IMAP server {self.where} failed while creating {level!r}: {exc}") from exc
            try:  # cosmetic: mail clients show subscribed folders
                self.client.subscribe_folder(level)
            except _ERRORS:
                pass
        return name

    def _refusal(self, path: str, level: str, setting: str, said: str) -> str:
        key = setting.rsplit(".", 1)[-1]
        parts = levels(path)
        plain = [re.sub(r"[^A-Za-z0-9_-]+", "-", p).strip("-") or "pbem" for p in parts]
        if plain != parts:
            advice = f"write a name of letters, digits and - only, e.g. {key}: {'/'.join(plain)}"
        elif len(parts) > 1:
            advice = (
                f"write {key}: {'-'.join(parts)} (one level), or create the folder in your mail "
                f"program and write its path here with / between the levels"
            )
        else:
            advice = f"create the folder in your mail program and write its name here as {key}:"
        return (
            f"{setting}: IMAP server {self.where} refused to create the folder {level!r} ({said}); {advice}"
        )

    def _ask(self, what: str, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except _ERRORS as exc:
            raise FolderError(f"IMAP server {self.where} failed while {what}: {_text(exc)}") from exc


def _text(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if text.startswith(("b'", 'b"')) and text.endswith(text[1]):
        text = text[2:-1]
    return text
