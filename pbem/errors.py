"""The one error tree of pbem: every error it raises on purpose is a :class:`PbemError`.

An error carries what the ``pbem`` command needs to report it, click's way: the
sentence for the GM (:meth:`PbemError.format_message`, printed by
:meth:`PbemError.show` as ``Error: ...`` on standard error, never a traceback) and the
command's exit status (the class attribute ``exit_code``: 1 unless a class says
otherwise). ``pbem.cli`` catches :class:`PbemError` alone (and the operating
system's ``OSError``); anything else is a bug and is reported as one.

Each class is defined beside the code that raises it (and importable from there);
the classes that belong to no one module are here. The tree, as ``--help`` would
draw it (module, then what it means)::

    PbemError                errors                 an error the GM can act on: exit 1
    ├── ConfigError          config                 campaign.yaml cannot be used (+ValueError)
    ├── GameError            campaign               what was asked cannot be done now
    │   └── MissingOrders    campaign               resolve while orders are missing: exit 3
    ├── StoreError           store                  the campaign folder is not in the shape needed
    │   ├── Busy             store                  another pbem command holds the campaign's lock
    │   ├── DraftClash       outbox                 a draft of that id is in the outbox already
    │   └── TemplateRefused  reports                a template that may not be used, or that failed
    ├── TemplateLimit        reports                a template went past a bound (then refused)
    ├── RulesError           errors                 what the rules do not allow (+ValueError)
    │   ├── IllegalDeal      errors                 not a deck, or a number of players, of the game
    │   └── IllegalPlay      errors                 a card not held, the Countess rule, a game over
    ├── MailError            errors                 the mail servers, the logins, the mail ledgers
    │   ├── CredentialError  transport.credentials  a password or a token could not be had
    │   ├── FetchError       transport.imap         the mailbox could not be read
    │   ├── FolderError      transport.folders      an IMAP folder cannot be used as written
    │   ├── LedgerError      transport.ledger       a ledger file exists but cannot be used
    │   │   └── LedgerBusy   transport.ledger       another process holds the ledger
    │   ├── SendError        transport.smtp         sending stopped: the server cannot be used now
    │   ├── DayFull          transport.pacing       (inner) the day's rate is spent: the rest waits
    │   ├── _Dropped         transport.idle         (inner) watch's IDLE line is gone: reconnect
    │   ├── _LoginFailed     transport.smtp         (inner) a login that did not succeed
    │   └── _Retry           transport.smtp         (inner) a temporary failure, tried again
    ├── UnreadableMail       reader.api             a reply with no readable text (+ValueError)
    ├── TooIntricate         reader.visible         (inner) styles nested too deep (+ValueError)
    ├── RecordError          audit                  a record that cannot be checked (+ValueError)
    ├── SiteError            site.build             the site cannot be written where it was asked
    ├── LeakError            site.board             a private event reached the site (+ValueError)
    └── Unfinished           cli                    the output said what was not done: exit 1

(+ValueError): the classes that were ``ValueError`` before the tree stay one, so
that a script's ``except ValueError`` (and the engine's callers, who were told
"the engine raises ValueError") keep working; ``RuntimeError`` is gone: nothing
caught it.

This module imports nothing from pbem, so that the pure engine and the mail
reader may raise its errors without depending on anything else.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO


class PbemError(Exception):
    """An error the GM (or a script) can act on: the message says what is wrong and
    what to do. ``exit_code`` is the ``pbem`` command's exit status for it."""

    exit_code: ClassVar[int] = 1

    def format_message(self) -> str:
        """The sentence for the GM ("" when the command already said everything)."""
        return str(self)

    def show(self, file: TextIO | None = None) -> None:
        """Print ``Error: <message>`` (to standard error unless ``file``), as click
        prints its own errors; nothing for an error without a message."""
        message = self.format_message()
        if message:
            out = sys.stderr if file is None else file
            out.write(f"Error: {message}\n")
            out.flush()


class RulesError(PbemError, ValueError):
    """The engine was asked for something the rules do not allow. Also a
    ``ValueError``: the engine's callers were told it raises one."""


class IllegalDeal(RulesError):
    """Not a deck of the game (RULES 1, 10.1), or not a number of players it is
    played with: the hand cannot be dealt."""


class IllegalPlay(RulesError):
    """A play the rules forbid: a card the player does not hold, the King or a
    Prince beside the Countess, a turn of a game that is over. The orders layer
    rejects such orders first (RULES 3): reaching the engine, it is a bug."""


class MailError(PbemError):
    """The mail side failed: a server down or refusing the login, a secret that
    could not be had, a mail ledger unusable or held by another run."""
