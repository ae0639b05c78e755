"""The `mail:` section's login and security settings: what a GM writes, what pbem makes of it."""

from __future__ import annotations

import pytest
import yaml

from pbem.config import ConfigError, config_from_data
from pbem.postoffice import imap_settings, smtp_settings

PLAYERS = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Arthur", "Bruno", "Charles")]


def config(smtp: dict | None = None, imap: dict | None = None):
    mail = {}
    if smtp is not None:
        mail["smtp"] = smtp
    if imap is not None:
        mail["imap"] = imap
    return config_from_data({"players": PLAYERS, "mail": mail})


def imap(**values):
    return config(imap={"host": "imap.example.org", "user": "gm@example.org", **values})


def smtp(**values):
    return config(smtp={"host": "smtp.example.org", "user": "gm@example.org", **values})


def refused(make, **values) -> str:
    settings = imap_settings if make is imap else smtp_settings
    with pytest.raises(ConfigError) as caught:
        settings(make(**values))
    return str(caught.value)


def test_password_command_and_oauth2_from_yaml():
    data = yaml.safe_load(
        """
        smtp: {host: smtp.example.org, user: gm@example.org, password_command: [pass, show, mail/gm]}
        imap: {host: imap.example.org, user: gm@example.org,
               oauth2: {token_command: [oama, access, gm@example.org], mechanism: oauthbearer}}
        """
    )
    c = config(data["smtp"], data["imap"])
    s, i = smtp_settings(c), imap_settings(c)
    assert s.credentials.secret.command == ("pass", "show", "mail/gm")
    assert s.credentials.mechanism == "password" and s.credentials.setting == "mail.smtp.password_command"
    assert i.credentials.secret.command == ("oama", "access", "gm@example.org")
    assert i.credentials.mechanism == "oauthbearer"
    assert i.credentials.setting == "mail.imap.oauth2.token_command"
    # Nothing was run: the command is asked at login time only.
    assert i.credentials.secret.value is None


def test_oauth2_mechanism_defaults_to_xoauth2():
    assert imap_settings(imap(oauth2={"token_command": ["helper"]})).credentials.mechanism == "xoauth2"


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"password_command": "pass show mail/gm"}, "password_command: must be a list"),
        ({"password_command": []}, "password_command: must be a list of words"),
        ({"oauth2": {"mechanism": "xoauth2"}}, "oauth2.token_command: missing"),
        ({"oauth2": {"token_command": ["h"], "mechanism": "plain"}}, "xoauth2 or oauthbearer, not 'plain'"),
        ({"oauth2": {"token_command": ["h"], "scope": "x"}}, "oauth2.scope: unknown"),
        ({"oauth2": "oama access"}, "oauth2: must be a mapping"),
        (
            {"password_env": "X", "password_command": ["pass"]},
            "password_env and password_command: write only one",
        ),
        ({"password": "hunter2"}, "never write a password in the file"),
        ({}, "user gm@example.org is given but not how to log in"),
        ({"pasword_env": "X"}, "mail.imap.pasword_env: unknown"),
    ],
)
def test_bad_login_settings_are_refused_with_a_sentence(values, words):
    assert words in refused(imap, **values)


def test_unset_password_variable_is_named(monkeypatch):
    monkeypatch.delenv("PBEM_NOT_SET", raising=False)
    assert "PBEM_NOT_SET (password_env) is not set" in refused(smtp, password_env="PBEM_NOT_SET")


@pytest.mark.parametrize(
    ("values", "security", "port"),
    [
        ({}, "tls", 993),
        ({"port": 993}, "tls", 993),
        ({"port": 143}, "starttls", 143),
        ({"security": "starttls"}, "starttls", 143),
        ({"tls": True}, "tls", 993),
        ({"security": "tls", "port": 10993}, "tls", 10993),
    ],
)
def test_imap_security_follows_the_port(values, security, port):
    s = imap_settings(imap(password_command=["p"], **values))
    assert (s.security, s.port, s.tls) == (security, port, security == "tls")
    assert s.ssl_context is not None and s.ssl_context.check_hostname  # host names are checked


@pytest.mark.parametrize(
    ("values", "security", "port"),
    [
        ({}, "starttls", 587),
        ({"port": 465}, "tls", 465),
        ({"port": 587}, "starttls", 587),
        ({"security": "tls"}, "tls", 465),
    ],
)
def test_smtp_security_follows_the_port(values, security, port):
    s = smtp_settings(smtp(password_command=["p"], **values))
    assert (s.security, s.port) == (security, port)
    assert s.tls_context is not None and s.tls_context.check_hostname


def test_plain_text_only_for_this_machine():
    text = refused(imap, password_command=["p"], tls=False)
    assert "none sends everything, password included, in plain text" in text and "imap.example.org" in text
    assert "security: starttls (port 143)" in text
    assert "smtp.example.org" in refused(smtp, password_command=["p"], security="none")
    local = config(
        smtp={"host": "localhost", "security": "none"},
        imap={"host": "127.0.0.1", "tls": False, "user": "gm", "password_command": ["p"]},
    )
    assert smtp_settings(local).security == "none" and smtp_settings(local).login() is None
    assert imap_settings(local).security == "none"


def test_settings_repr_holds_no_secret(monkeypatch):
    monkeypatch.setenv("PBEM_TEST_SECRET", "s3cr3t-value")
    s = smtp_settings(smtp(password_env="PBEM_TEST_SECRET"))
    assert "s3cr3t-value" not in repr(s)
    from pbem.transport import ImapSettings

    assert "s3cr3t" not in repr(ImapSettings(host="h", port=1, tls=True, user="u", password="s3cr3t"))


@pytest.mark.parametrize("make", [imap, smtp])
@pytest.mark.parametrize("security", [[], {"a": 1}, 3, True])
def test_a_security_that_is_no_word_is_refused_with_a_sentence(make, security):
    """Found by the campaign.yaml fuzz: `security: []` was a TypeError in `pbem status`."""
    said = refused(make, password_env="X", security=security)
    assert ".security: " in said and "tls" in said
