"""How the transport logs in: a user name and a secret asked for at login time.

A secret is a password or an OAuth2 access token. It comes from the campaign's
settings (see :mod:`pbem.postoffice`): an environment variable
(``password_env``), a command that prints it (``password_command``, e.g.
``pass show mail/gm``), or, for OAuth2, a command that prints a fresh access
token (``oauth2: {token_command: [...]}``, e.g. a token helper such as oama).
A command is run without a shell, once per connection (a token lasts about an
hour: a long ``pbem watch`` asks again for every connection) and once more when
the server refuses a token that has expired in between.

Secrets never leave this module but into the login itself: they are not kept
in a settings object's ``repr``, not put in any error message (a failing
command is named by its setting, with its exit status and the last line of its
standard error), and never written to a file.
"""

from __future__ import annotations

import base64
import os
import subprocess
from dataclasses import dataclass, field

from ..errors import MailError

__all__ = [
    "CredentialError",
    "Credentials",
    "Secret",
    "MECHANISMS",
    "xoauth2_response",
    "oauthbearer_response",
]

#: How the secret is presented: a password (PLAIN/LOGIN), or an OAuth2 token by one of two SASL mechanisms.
MECHANISMS = ("password", "xoauth2", "oauthbearer")

#: How long a password or token command may take (a keyring asking for its passphrase takes a while).
COMMAND_TIMEOUT = 60.0


class CredentialError(MailError):
    """The secret could not be had: a variable unset, a command that failed, hung or printed nothing."""


@dataclass(frozen=True)
class Secret:
    """Where a password or token comes from; `fetch()` asks for it now.

    Exactly one of `value` (a literal, for library callers and tests), `env` (an
    environment variable's name) or `command` (program and arguments) is set.
    `setting` names the setting it came from, for error messages
    (``mail.smtp.password_command``)."""

    setting: str
    value: str | None = field(default=None, repr=False)
    env: str | None = None
    command: tuple[str, ...] | None = None
    timeout: float = COMMAND_TIMEOUT

    def fetch(self) -> str:
        if self.value is not None:
            return self.value
        if self.env is not None:
            value = os.environ.get(self.env)
            if value is None:
                raise CredentialError(f"{self.setting}: the environment variable {self.env} is not set")
            return value
        if self.command:
            return _run(self.command, self.setting, self.timeout)
        raise CredentialError(f"{self.setting}: no secret configured")

    @property
    def asked_each_time(self) -> bool:
        """True when asking again may give another secret (a command)."""
        return bool(self.command)


def _run(command: tuple[str, ...], setting: str, timeout: float) -> str:
    """The first line the command prints; every failure is a CredentialError naming the setting."""
    program = command[0]
    try:
        done = subprocess.run(
            list(command),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        raise CredentialError(f"{setting}: no such program: {program}") from None
    except PermissionError:
        raise CredentialError(f"{setting}: {program} cannot be run (permission denied)") from None
    except subprocess.TimeoutExpired:
        raise CredentialError(
            f"{setting}: {program} gave no answer within {timeout:g} seconds and was stopped"
        ) from None
    except OSError as exc:
        raise CredentialError(f"{setting}: {program} cannot be run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        said = f": {lines[-1].strip()}" if lines else " (and wrote nothing on its standard error)"
        raise CredentialError(f"{setting}: {program} failed with exit status {done.returncode}{said}")
    out = done.stdout.decode("utf-8", "replace").splitlines()
    first = out[0].strip() if out else ""
    if not first:
        raise CredentialError(
            f"{setting}: {program} printed nothing on its first line (the secret is read from there)"
        )
    return first


@dataclass(frozen=True)
class Credentials:
    """A login: `user`, its `secret` and how it is presented (`mechanism`, one of MECHANISMS)."""

    user: str
    secret: Secret
    mechanism: str = "password"

    def __post_init__(self) -> None:
        if self.mechanism not in MECHANISMS:
            raise ValueError(f"mechanism must be one of {MECHANISMS}, not {self.mechanism!r}")

    @property
    def oauth2(self) -> bool:
        return self.mechanism != "password"

    @property
    def setting(self) -> str:
        """The setting a GM checks when the login is refused."""
        return self.secret.setting

    def describe(self) -> str:
        """How this login is made, for error messages: never the secret itself."""
        if not self.setting:
            return "the password given"
        if self.oauth2:
            return f"an OAuth2 token ({self.mechanism.upper()}) from {self.setting}"
        return f"the password from {self.setting}"


def xoauth2_response(user: str, token: str) -> str:
    """The XOAUTH2 initial response, not yet base64-encoded (Google's and Microsoft's format)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def oauthbearer_response(user: str, token: str, host: str, port: int) -> str:
    """The OAUTHBEARER initial response of RFC 7628, not yet base64-encoded."""
    authzid = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={authzid},\x01host={host}\x01port={port}\x01auth=Bearer {token}\x01\x01"


def b64(text: str) -> bytes:
    return base64.b64encode(text.encode("utf-8"))
