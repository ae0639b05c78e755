"""Mail drafts: headers that nothing can inject into, and the campaign tag."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.outbox import make_message

BASE = dict(
    sender_name="Rita",
    sender="gm@example.org",
    to_name="Bruno",
    to="bruno@example.org",
    subject="[game7] Turn 3: your cards and orders",
    body="Hello\n",
    message_id="<a.b@example.org>",
)


@pytest.mark.parametrize("field", ["sender_name", "to_name", "subject", "to", "sender", "message_id"])
@pytest.mark.parametrize("evil", ["x\r\nBcc: eve@example.net", "x\nBcc: eve@example.net", "x\rBcc: y"])
def test_no_header_can_be_injected(field, evil):
    with pytest.raises(ValueError):
        make_message(**{**BASE, field: evil})


def test_body_cannot_add_headers_and_bad_echoed_ids_are_dropped():
    raw = make_message(
        **{
            **BASE,
            "body": "Bcc: eve@example.net\n\nFrom: x\n",
            "in_reply_to": "<bad id\r\nBcc: eve@example.net>",
            "references": ["<ok@x>", "<é@x>"],
        }
    )
    msg = message_from_bytes(raw, policy=default)
    assert msg["Bcc"] is None and msg["In-Reply-To"] is None
    assert str(msg["References"]).split() == ["<ok@x>"]
    assert msg.get_content().replace("\r\n", "\n") == "Bcc: eve@example.net\n\nFrom: x\n"


def test_names_with_specials_and_accents_round_trip():
    raw = make_message(**{**BASE, "sender_name": "Rita (pbem)", "to_name": "Chloé"})
    msg = message_from_bytes(raw, policy=default)
    assert msg["From"].addresses[0].display_name == "Rita (pbem)"
    assert msg["To"].addresses[0].display_name == "Chloé"


@pytest.mark.parametrize("name", ["game 7", "game\n7", ".hidden", "jeu[7]"])
def test_campaign_folder_name_must_be_a_plain_tag(tmp_path, name):
    folder = tmp_path / name
    result = CliRunner().invoke(
        main,
        [
            "new",
            str(folder),
            "--player",
            "Arthur <a@example.org>",
            "--player",
            "Bruno <b@example.org>",
            "--player",
            "Chloé <c@example.org>",
        ],
    )
    assert result.exit_code == 1 and "tag" in result.output
    assert not (folder / "campaign.yaml").exists()


def _thread(folder, turn: int) -> dict[str, tuple[str, str | None]]:
    """Player's address -> (Message-ID, In-Reply-To) of their private mail of a turn folder."""
    mail = folder / "turns" / f"turn-{turn:03d}" / "mail"
    out = {}
    for path in sorted(mail.glob("*-private-*.eml")):
        msg = message_from_bytes(path.read_bytes(), policy=default)
        out[str(msg["To"].addresses[0].addr_spec)] = (msg["Message-ID"], msg["In-Reply-To"])
    return out


@pytest.mark.parametrize("older_folder", [False, True], ids=["indexed", "no-index-in-the-folder"])
def test_each_players_turn_mails_form_one_thread(cli, started3, older_folder):
    """A private turn mail answers the player's previous one, after a rollback
    too; a turn folder from an older pbem without a mail index is read from the
    campaign's index of every Message-ID instead."""
    opening = _thread(started3, 0)
    assert all(reply is None for _, reply in opening.values())
    if older_folder:
        (started3 / "turns" / "turn-000" / "mail" / "index.jsonl").unlink()
    cli.ok("resolve", "--force", started3)
    first = _thread(started3, 1)
    assert {to: reply for to, (_, reply) in first.items()} == {to: mid for to, (mid, _) in opening.items()}
    cli.ok("rollback", started3)
    cli.ok("resolve", "--force", started3)
    again = _thread(started3, 1)
    assert {to: reply for to, (_, reply) in again.items()} == {to: mid for to, (mid, _) in opening.items()}
    cli.ok("resolve", "--force", started3)
    second = _thread(started3, 2)
    assert {to: reply for to, (_, reply) in second.items()} == {to: mid for to, (mid, _) in again.items()}
