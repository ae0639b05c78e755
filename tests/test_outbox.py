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
