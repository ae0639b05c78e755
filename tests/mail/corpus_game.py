"""The campaign the mail corpus belongs to, built the same way by the tests and
by bench/ingest.py: ``game7`` (tests/mail/corpus/campaign.yaml) resolved to
turn 3, the turn the corpus's messages answer, with the players' order codes
as the messages quote them (tests/mail/corpus/codes.yaml)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.campaign import Campaign

CORPUS = Path(__file__).resolve().parent / "corpus"
CODES: dict[str, str] = yaml.safe_load((CORPUS / "codes.yaml").read_text(encoding="utf-8"))


def corpus_code(seed: str, name: str) -> str:
    """Stands in for pbem.inbox.order_code: the codes the corpus quotes."""
    return CODES[name]


def make_game7(parent: Path) -> Campaign:
    """``parent/game7`` at turn 3 (turns 1 and 2 played by the NMR defaults)."""
    folder = Path(parent) / "game7"
    folder.mkdir()
    (folder / "campaign.yaml").write_bytes((CORPUS / "campaign.yaml").read_bytes())
    campaign = Campaign(folder)
    campaign.start()
    campaign.resolve(force=True)
    campaign.resolve(force=True)
    return campaign
