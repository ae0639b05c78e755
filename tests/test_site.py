"""The game's web pages (issue 14): built from public events and reports only.

Browser tests are in test_site_browser.py; this file checks the replay of the
board against the GM's state, the pages' HTML, what must never be on them, the
twin campaigns, the output folder's safety and the configuration.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import html5lib
import pytest
import yaml

from pbem import events as ev
from pbem.campaign import Campaign, order_code
from pbem.cards import Card
from pbem.config import ConfigError, load_config
from pbem.engine import Game
from pbem.site import LeakError, SiteError, build_site
from pbem.site import archive as site_archive
from pbem.site.archive import read_archive
from pbem.site.board import replay
from pbem.site.build import MARKER, render_site, write_site

sys.path.insert(0, str(Path(__file__).parent))
from site_games import play, write_campaign  # noqa: E402


def state_after(folder: Path, turn: int) -> Game:
    """The GM's view (the tests may read it; the site never does)."""
    data = json.loads((folder / "turns" / f"turn-{turn:03d}" / "state.json").read_text(encoding="utf-8"))
    return Game.from_dict(data["game"])


def site_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    folder = write_campaign(tmp_path_factory.mktemp("finished") / "game4", 4, seed=3)
    play(folder, policy_seed=3)
    return folder


@pytest.fixture(scope="module")
def midgame(tmp_path_factory) -> Path:
    folder = write_campaign(tmp_path_factory.mktemp("midgame") / "game3", 3, seed=5)
    play(folder, turns=4, policy_seed=5)
    return folder


# -- the board, rebuilt from the public events --------------------------------------------------


def test_the_public_replay_gives_the_gms_board_after_every_turn_of_many_games(tmp_path):
    """Who is in, protected, each discard pile in order, cards left, the active
    player, the hands' winners, tokens and the game's winners: as in state.json."""
    seen: Counter = Counter()
    for seed in range(1, 7):
        for players in (3, 4):
            folder = write_campaign(tmp_path / f"g{seed}-{players}", players, seed=seed)
            play(folder, policy_seed=seed)
            archive = read_archive(folder)
            boards = replay(players, [t.events for t in archive.turns[1:]])
            assert len(boards) == len(archive.turns)
            for board in boards:
                game = state_after(folder, board.turn)
                where = f"seed {seed}, {players} players, turn {board.turn}"
                assert (board.tokens, board.finished, board.winners) == \
                    (game.tokens, game.finished, game.winners), where
                for mine, gms in zip(board.hands, game.hands):
                    at = f"{where}, hand {gms.number}"
                    assert mine.alive == gms.alive, at
                    assert mine.protected == gms.protected, at
                    assert mine.discards == [[c.title for c in d] for d in gms.discards], at
                    assert mine.pile == len(gms.pile), at
                    assert (mine.ended, mine.winners) == (gms.ended, gms.winners), at
                    if not gms.ended:
                        assert mine.active == gms.active, at
            for turn in archive.turns:
                for e in turn.events:
                    seen[e.kind] += 1
                    seen["prince from the set-aside card"] += e.kind == "prince" and e.from_set_aside
                    seen["prince on the princess"] += e.kind == "prince" and e.card == Card.PRINCESS
                    seen["redirected"] += e.kind == "played" and e.redirected
                    seen["no valid target"] += e.kind == "played" and e.recipient is None and e.card in (
                        Card.GUARD, Card.SPY, Card.BARON, Card.KING)
                    seen["tie broken by discards"] += e.kind == "ended" and bool(e.totals)
    # The games above cover the rare cases of the replay (else this test proves less than it says).
    for case in ("prince from the set-aside card", "prince on the princess", "redirected", "no valid target",
                 "tie broken by discards", "king", "baron", "protected", "game_over"):
        assert seen[case] > 0, case


def test_the_replay_refuses_a_private_event(finished):
    archive = read_archive(finished)
    spy = ev.SpySaw(1, 0, 1, Card.PRINCESS)
    turns = [t.events for t in archive.turns[1:]]
    turns[0] = turns[0] + [spy]
    with pytest.raises(LeakError, match="private event"):
        replay(4, turns)


def test_the_builder_fails_when_the_public_filter_is_bypassed(finished, monkeypatch, tmp_path):
    """Belt and braces: were the archive to let private events through, the build stops."""
    assert any(e.get("kind") in ("spy_saw", "baron_saw", "king_received", "prince_drew")
               for t in range(1, 4) for e in json.loads(
                   (finished / "turns" / f"turn-{t:03d}" / "events.json").read_text()))
    monkeypatch.setattr(site_archive.ev, "public", lambda events: list(events))
    with pytest.raises(LeakError):
        build_site(finished, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- what the builder reads ---------------------------------------------------------------------

_opened: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, bytes, Path)):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)  # audit hooks cannot be removed: this one records only while _opened is a list


def files_opened(action) -> list[str]:
    global _opened
    _opened = []
    try:
        action()
        return _opened
    finally:
        _opened = None


def forbidden(paths: list[str]) -> list[str]:
    return [p for p in paths if Path(p).name == "state.json" or Path(p).name.startswith("private-")
            or "/orders/" in p or "/mail/" in p]


def test_the_builder_never_opens_the_state_the_private_reports_the_orders_or_the_mail(finished, tmp_path):
    opened = files_opened(lambda: build_site(finished, tmp_path / "out"))
    assert any(p.endswith("events.json") for p in opened)
    assert any(p.endswith("public.txt") for p in opened)
    assert forbidden(opened) == []


def test_the_open_watch_sees_a_read_of_the_state(finished):
    """The test above can fail: reading the position opens state.json, and is seen."""
    opened = files_opened(lambda: Campaign(finished).position())
    assert forbidden(opened)


# -- twin campaigns -----------------------------------------------------------------------------


def unseen_swap(folder: Path) -> dict:
    """Decks for a twin of the finished campaign in ``folder``: the same decks,
    but in one hand two cards nobody ever saw (the set-aside card, still set
    aside at the end, and a card still in the draw pile) change places."""
    game = state_after(folder, max(int(p.name[5:]) for p in (folder / "turns").glob("turn-*")))
    decks = {h.number: [c.title for c in h.deck] for h in game.hands}
    for h in game.hands:
        if h.set_aside is None or not h.pile:
            continue
        depth = len(h.deck) - len(h.pile)  # deck index of the pile's top card
        for i in range(depth, len(h.deck)):
            if h.deck[i] != h.deck[0]:
                twin = decks[h.number][:]
                twin[0], twin[i] = twin[i], twin[0]
                return {"decks": {**decks, h.number: twin}, "hand": h.number, "cards": (twin[0], twin[i])}
    raise AssertionError("no hand with two different cards nobody saw")


def make_twins(tmp_path: Path) -> tuple[Path, Path, int]:
    first = write_campaign(tmp_path / "a" / "game", 4, seed=11)
    play(first, policy_seed=11)
    swap = unseen_swap(first)
    original = {h: d for h, d in swap["decks"].items()}
    original[swap["hand"]] = [c.title for c in state_after(first, 0).hand(swap["hand"]).deck]
    # Both campaigns name their decks in campaign.yaml: the only difference is the swap.
    a = write_campaign(tmp_path / "A" / "game", 4, seed=11, decks=original)
    b = write_campaign(tmp_path / "B" / "game", 4, seed=11, decks=swap["decks"])
    return a, b, swap["hand"]


def assert_same_sites(a: Path, b: Path) -> None:
    """Byte-identical sites, but for the end (the final record reveals the decks)."""
    end = {"end.html", "final-report.txt", "opening-report.txt"}
    files_a, files_b = site_files(a), site_files(b)
    assert sorted(files_a) == sorted(files_b)
    differ = [name for name in files_a if name not in end and files_a[name] != files_b[name]]
    assert differ == [], f"pages that differ: {differ}"


def test_twin_campaigns_that_differ_only_in_unseen_cards_build_the_same_site(tmp_path):
    a, b, hand = make_twins(tmp_path)
    ca, cb = Campaign(a), Campaign(b)
    ca.start(), cb.start()
    policy_a, policy_b = __import__("random").Random(11), __import__("random").Random(11)
    from site_games import order_lines

    turn = 0
    while True:
        build_site(a, tmp_path / "siteA")
        build_site(b, tmp_path / "siteB")
        assert_same_sites(tmp_path / "siteA", tmp_path / "siteB")
        if ca.position().game.finished:
            break
        for campaign, policy in ((ca, policy_a), (cb, policy_b)):
            for name, text in order_lines(campaign, policy).items():
                campaign.record_orders(name, text)
            campaign.resolve(force=True)
        turn += 1
    assert cb.position().game.finished
    # The decks really differ, and the end shows it (the record reveals them).
    deck_a = state_after(a, 0).hand(hand).deck
    deck_b = state_after(b, 0).hand(hand).deck
    assert deck_a != deck_b
    assert (tmp_path / "siteA" / "end.html").read_bytes() != (tmp_path / "siteB" / "end.html").read_bytes()
    assert turn > 5


def test_the_twin_comparison_catches_a_site_that_shows_a_hidden_card(tmp_path, monkeypatch):
    """The twin test can fail: a builder that put the set-aside card of the
    swapped hand on a page (here through a GM's note) builds different sites."""
    a, b, hand = make_twins(tmp_path)
    play(a, turns=2, policy_seed=11)
    play(b, turns=2, policy_seed=11)
    real = site_archive.read_archive

    def leaky(folder):
        archive = real(folder)
        hidden = state_after(Path(folder), 0).hand(hand).set_aside.title
        first = archive.turns[1]._replace(notes=[f"hand {hand} set aside the {hidden}"])
        return archive._replace(turns=[archive.turns[0], first, *archive.turns[2:]])

    monkeypatch.setattr("pbem.site.build.read_archive", leaky)
    build_site(a, tmp_path / "siteA")
    build_site(b, tmp_path / "siteB")
    with pytest.raises(AssertionError, match="turn-001.html"):
        assert_same_sites(tmp_path / "siteA", tmp_path / "siteB")
