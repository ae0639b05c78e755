"""A GM's folder of campaigns: every subfolder holding a ``campaign.yaml`` is a game.

``campaigns/pbem.yaml`` (optional) holds what the games share (the GM, the
``mail:`` section, defaults such as ``deadline:``); each game's own
``campaign.yaml`` overrides it key by key (:func:`pbem.config.shared_settings`).

The commands over a folder are loops over the very calls a single campaign
uses (:func:`each`): one game's broken file or failed send is reported by
its name, and the others go on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from .campaign import Campaign
from .config import CAMPAIGN_FILE
from .errors import PbemError

T = TypeVar("T")


class Done(NamedTuple):
    """One game's outcome: ``value`` when it went well, else ``error`` (a sentence)."""

    name: str
    folder: Path
    value: Any = None
    error: str | None = None


def is_campaign(folder: Path | str) -> bool:
    return os.path.isfile(os.path.join(folder, CAMPAIGN_FILE))


def is_gm_folder(folder: Path | str) -> bool:
    """A folder of campaigns: no campaign.yaml of its own, at least one game below."""
    return os.path.isdir(folder) and not is_campaign(folder) and bool(games(folder))


def games(folder: Path | str) -> list[Path]:
    """The campaign folders of a GM's folder, by name (hidden ones, such as a copy
    under way, left out)."""
    root = Path(folder)
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [
        root / e.name for e in entries if not e.name.startswith(".") and e.is_dir() and is_campaign(e.path)
    ]


def _explain(e: BaseException) -> str:
    if isinstance(e, PbemError):  # a campaign file, the lock, a server down, a login refused...
        return e.format_message()
    if isinstance(e, OSError):
        return f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}"
    return f"unexpected error ({type(e).__name__}: {e})"


def each(folder: Path | str, action: Callable[[Campaign], T]) -> Iterator[Done]:
    """``action`` on every game of the folder, in name order, one after the other;
    a game whose action fails is reported (:class:`Done` with ``error``) and the
    next one goes on. Ctrl-C stops the loop."""
    for path in games(folder):
        try:
            yield Done(path.name, path, action(Campaign(path)))
        except Exception as e:  # noqa: BLE001 - one game's trouble never stops the others
            yield Done(path.name, path, error=_explain(e))


# -- what each folder command does for one game ------------------------------------------------------


def game_status(campaign: Campaign) -> dict[str, Any]:
    """One game's line of ``pbem status FOLDER``: the campaign's status and its mail side."""
    from .inbox import held_acks, refused_messages, refused_seen
    from .outbox import Outbox
    from .postoffice import uncertain_drafts

    info = campaign.status()
    known = refused_seen(campaign)
    refused = refused_messages(campaign)
    info["refused"] = refused
    info["refused_new"] = sum(entry["file"] not in known for entry in refused)
    info["held_acks"] = held_acks(campaign)
    info["uncertain"] = uncertain_drafts(campaign.folder)
    info["drafts"] = len(Outbox(campaign.folder).drafts())  # read only: status writes nothing
    return info


def fetch(campaign: Campaign) -> list:
    from .inbox import fetch_new

    return fetch_new(campaign)


def tick(campaign: Campaign, trust_clock: bool = False):
    """One game's tick (:func:`pbem.tick.tick`), ``trust_clock`` passed on."""
    from .tick import tick as run_tick

    return run_tick(campaign, trust_clock=trust_clock)


def drafts(campaign: Campaign) -> list[dict[str, Any]]:
    """The drafts waiting in one game's outbox (``pbem preview FOLDER``)."""
    from .outbox import Outbox, summarize
    from .postoffice import uncertain_drafts

    campaign.config  # noqa: B018 - a broken campaign.yaml is reported, even with no draft
    campaign.publish_drafts()
    uncertain = {u["draft"] for u in uncertain_drafts(campaign.folder)}
    return [
        {"draft": p.stem, "uncertain": p.stem in uncertain, **summarize(p)}
        for p in Outbox(campaign.folder).drafts()
    ]


class Sent(NamedTuple):
    report: Any  # the postoffice's SendReport, None when there was nothing to send
    held: list[str]  # acknowledgements held over the hourly limit, not sent


def send(campaign: Campaign) -> Sent:
    """Send one game's drafts as ``pbem send GAME`` does with no draft named: the held
    acknowledgements stay for the GM, an uncertain draft is never sent again."""
    from .inbox import unheld_drafts
    from .outbox import Outbox
    from .postoffice import send as send_drafts

    campaign.config  # noqa: B018 - a broken campaign.yaml is reported, even with nothing to send
    campaign.publish_drafts()
    unheld, held = unheld_drafts(campaign, Outbox(campaign.folder))
    if not unheld:
        return Sent(None, held)
    return Sent(send_drafts(campaign, unheld), held)
