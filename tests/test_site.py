"""The game's web pages (issue 14): built from public events and reports only.

Browser tests are in test_site_browser.py; this file checks the replay of the
board against the GM's state, the pages' HTML, what must never be on them, the
twin campaigns, the output folder's safety and the configuration.
"""

from __future__ import annotations

import html
import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import html5lib
import pytest
from site_games import order_lines, play, write_campaign

from pbem import events as ev
from pbem.campaign import Campaign, order_code
from pbem.cards import PREMIUM_DECK, Card
from pbem.config import ConfigError, load_config
from pbem.engine import Game
from pbem.reports import default_templates_dir
from pbem.site import LeakError, SiteError, build_site
from pbem.site import archive as site_archive
from pbem.site.archive import read_archive
from pbem.site.board import replay
from pbem.site.build import MARKER, chart, render_site, write_site
from pbem.store import CampaignStore, StoreError, file_lock
from pbem.tick import tick


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


@pytest.fixture(scope="module")
def duel(tmp_path_factory) -> Path:
    """A finished two-player game (RULES 9)."""
    folder = write_campaign(tmp_path_factory.mktemp("duel") / "duel", 2, seed=3)
    play(folder, policy_seed=3)
    return folder


@pytest.fixture(scope="module")
def premium(tmp_path_factory) -> Path:
    """A finished 6-player game with the Premium deck (RULES 10)."""
    folder = write_campaign(tmp_path_factory.mktemp("premium") / "six", 6, seed=1)
    play(folder, policy_seed=1)
    return folder


@pytest.fixture(scope="module")
def eight(tmp_path_factory) -> Path:
    """An 8-player Premium game in its fifth turn."""
    folder = write_campaign(tmp_path_factory.mktemp("eight") / "eight", 8, seed=4)
    play(folder, turns=4, policy_seed=4)
    return folder


# -- the board, rebuilt from the public events --------------------------------------------------


def assert_board_is_the_gms(board, game: Game, where: str) -> None:
    assert (board.tokens, board.finished, board.winners) == (game.tokens, game.finished, game.winners), where
    for mine, gms in zip(board.hands, game.hands):
        at = f"{where}, hand {gms.number}"
        assert mine.alive == gms.alive, at
        assert mine.protected == gms.protected, at
        assert mine.discards == [[c.title for c in d] for d in gms.discards], at
        assert mine.pile == len(gms.pile), at
        assert (mine.ended, mine.winners) == (gms.ended, gms.winners), at
        assert mine.face_up == tuple(c.title for c in gms.face_up), at
        assert mine.marked == gms.marked, at
        assert mine.jesters == list(gms.jesters), at
        if not gms.ended:
            assert mine.active == gms.active, at


#: The games the replay is checked on: every size the engine plays (RULES 1, 9, 10).
REPLAYED = [(seed, players) for seed in range(1, 7) for players in (2, 3, 4)] + [
    (seed, 5 + seed % 4) for seed in range(1, 9)
]


def test_the_public_replay_gives_the_gms_board_after_every_turn_of_many_games(tmp_path):
    """Who is in, protected, each discard pile in order, cards left, the active
    player, the hands' winners, tokens and the game's winners: as in state.json;
    with two players the face-up cards, with the Premium deck the Sycophant's mark."""
    seen: Counter = Counter()
    for seed, players in REPLAYED:
        folder = write_campaign(tmp_path / f"g{seed}-{players}", players, seed=seed)
        play(folder, policy_seed=seed)
        archive = read_archive(folder)
        boards = replay(players, [t.events for t in archive.turns[1:]], archive.face_up)
        assert len(boards) == len(archive.turns)
        for board in boards:
            assert_board_is_the_gms(
                board, state_after(folder, board.turn), f"seed {seed}, {players} players, turn {board.turn}"
            )
        for turn in archive.turns:
            for e in turn.events:
                seen[e.kind] += 1
                seen["prince from the set-aside card"] += e.kind == "prince" and e.from_set_aside
                seen["prince on the princess"] += e.kind == "prince" and e.card == Card.PRINCESS
                seen["redirected"] += e.kind == "played" and e.redirected
                seen["no valid target"] += (
                    e.kind == "played"
                    and e.recipient is None
                    and e.card in (Card.GUARD, Card.SPY, Card.BARON, Card.KING)
                )
                seen["tie broken by discards"] += e.kind == "ended" and bool(e.totals)
                seen["bishop: discard and draw"] += (
                    e.kind == "bishop" and e.discarded and e.card != Card.PRINCESS
                )
                seen["bishop: kept"] += e.kind == "bishop" and e.hit and not e.discarded
                seen[f"{players == 2 and 'two players, '}a hand won"] += e.kind == "ended"
                if e.kind == "card_tokens":
                    for _, _, card in e.gained:
                        seen[f"a token from the {card.title}"] += 1
    # The games above cover the rare cases of the replay (else this test proves less than it says).
    for case in (
        "prince from the set-aside card",
        "prince on the princess",
        "redirected",
        "no valid target",
        "tie broken by discards",
        "king",
        "baron",
        "protected",
        "game_over",
        "two players, a hand won",
        "marked",
        "mark_followed",
        "chose",
        "assassin",
        "queen",
        "values",
        "bishop: discard and draw",
        "bishop: kept",
        "a token from the Jester",
        "a token from the Constable",
        "a token from the Bishop",
    ):
        assert seen[case] > 0, case


def premium_deck(*top: str) -> list[str]:
    """A 32-card Premium deck whose first cards (set-aside, deal, draw, pile) are ``top``."""
    rest = [c.title for c in PREMIUM_DECK]
    for name in top:
        rest.remove(name)
    return [*top, *rest]


def test_the_replay_follows_a_bishop_that_knocks_out_a_princess_and_one_that_makes_a_player_draw(tmp_path):
    """The rare Bishop cases, with explicit decks: a hit on a Princess whose holder
    said "if Bishop, discard" (out, no draw), and a hit on a Spy (discarded, a new card)."""
    # 5 players: set-aside, one card each from the first player (Arthur in hand 1, Bruno in hand 2), the
    # first player's draw, the pile.
    decks = {
        1: premium_deck("Count", "Bishop", "Princess", "Guard", "Guard", "Guard", "Guard"),
        2: premium_deck("Count", "Bishop", "Spy", "Guard", "Guard", "Guard", "Guard"),
    }
    folder = write_campaign(tmp_path / "bishops", 5, seed="bishops", decks=decks)
    campaign = Campaign(folder)
    campaign.start()
    campaign.record_orders("Bruno", "Hand 1: if Bishop, discard")
    campaign.record_orders("Chloé", "Hand 2: if Bishop, discard")
    campaign.record_orders("Arthur", "Hand 1: Bishop on Bruno, guess 8")
    campaign.record_orders("Bruno", "Hand 2: Bishop on Chloé, guess 2")  # Bruno is first in hand 2
    campaign.resolve(force=True)
    archive = read_archive(folder)
    boards = replay(5, [t.events for t in archive.turns[1:]])
    for board in boards:
        assert_board_is_the_gms(board, state_after(folder, board.turn), f"turn {board.turn}")
    hand1, hand2 = boards[1].hands[0], boards[1].hands[1]
    assert hand1.discards[1] == ["Princess"] and not hand1.alive[1]
    assert hand2.discards[2] == ["Spy"] and hand2.alive[2] and hand2.pile == 32 - 2 - 5 - 1 - 1
    assert boards[1].by_cards == ((0, 1, "Bishop"), (1, 2, "Bishop")) and boards[1].tokens[:2] == [1, 1]


def test_the_replay_refuses_a_private_event(finished):
    archive = read_archive(finished)
    spy = ev.SpySaw(1, 0, 1, Card.PRINCESS)
    turns = [t.events for t in archive.turns[1:]]
    turns[0] = turns[0] + [spy]
    with pytest.raises(LeakError, match="private event"):
        replay(4, turns)


def test_the_builder_fails_when_the_public_filter_is_bypassed(finished, monkeypatch, tmp_path):
    """Belt and braces: were the archive to let private events through, the build stops."""
    assert any(
        e.get("kind") in ("spy_saw", "baron_saw", "king_received", "prince_drew")
        for t in range(1, 4)
        for e in json.loads((finished / "turns" / f"turn-{t:03d}" / "events.json").read_text())
    )
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
    return [
        p
        for p in paths
        if Path(p).name == "state.json"
        or Path(p).name.startswith("private-")
        or "/orders/" in p
        or "/mail/" in p
    ]


@pytest.mark.parametrize("which", ["finished", "duel", "premium"])
def test_the_builder_never_opens_the_state_the_private_reports_the_orders_or_the_mail(
    which, request, tmp_path
):
    folder = request.getfixturevalue(which)
    opened = files_opened(lambda: build_site(folder, tmp_path / "out"))
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


def make_twins(tmp_path: Path, players: int = 4) -> tuple[Path, Path, int]:
    first = write_campaign(tmp_path / "a" / "game", players, seed=11)
    play(first, policy_seed=11)
    swap = unseen_swap(first)
    original = {h: d for h, d in swap["decks"].items()}
    original[swap["hand"]] = [c.title for c in state_after(first, 0).hand(swap["hand"]).deck]
    # Both campaigns name their decks in campaign.yaml: the only difference is the swap.
    a = write_campaign(tmp_path / "A" / "game", players, seed=11, decks=original)
    b = write_campaign(tmp_path / "B" / "game", players, seed=11, decks=swap["decks"])
    return a, b, swap["hand"]


def assert_same_sites(a: Path, b: Path) -> None:
    """Byte-identical sites, but for the end (the final record reveals the decks)."""
    end = {"end.html", "final-report.txt", "opening-report.txt"}
    files_a, files_b = site_files(a), site_files(b)
    assert sorted(files_a) == sorted(files_b)
    differ = [name for name in files_a if name not in end and files_a[name] != files_b[name]]
    assert differ == [], f"pages that differ: {differ}"


@pytest.mark.parametrize("players", [4, 2, 6], ids=["classic", "two-player", "premium"])
def test_twin_campaigns_that_differ_only_in_unseen_cards_build_the_same_site(tmp_path, players):
    a, b, hand = make_twins(tmp_path, players)
    ca, cb = Campaign(a), Campaign(b)
    ca.start(), cb.start()
    deal = Path("turns") / "turn-000" / "events.json"  # the deal's public events (two players: face-up cards)
    assert (a / deal).read_bytes() == (b / deal).read_bytes()
    policy_a, policy_b = random.Random(11), random.Random(11)
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


# -- the pages ----------------------------------------------------------------------------------


def parse_strictly(name: str, data: bytes):
    """html5lib in strict mode: any parse error of the HTML standard fails."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        return parser.parse(data)
    except html5lib.html5parser.ParseError as e:
        raise AssertionError(f"{name}: {e}") from None


def text_of(element) -> str:
    return " ".join("".join(element.itertext()).split())


def table(doc, caption_start: str) -> list[list[str]]:
    """The rows (header row included) of the table whose caption starts so."""
    for t in doc.iter("table"):
        caption = t.find("caption")
        if caption is not None and text_of(caption).startswith(caption_start):
            return [[text_of(cell) for cell in row if cell.tag in ("th", "td")] for row in t.iter("tr")]
    raise AssertionError(f"no table {caption_start!r}")


@pytest.mark.parametrize("which", ["finished", "midgame", "duel", "premium", "eight"])
def test_every_page_is_strict_html5_with_a_title_a_heading_and_tables_with_headers(which, request, tmp_path):
    folder = request.getfixturevalue(which)
    built = build_site(folder, tmp_path / "out")
    pages = [p for p in built.pages if p.endswith(".html")]
    # the hands, the turns, the front page, the players (issue 24), and the end once the game is over
    assert len(pages) == 13 + len(read_archive(folder).turns) + 2 + (which in ("finished", "duel", "premium"))
    for name in pages:
        doc = parse_strictly(name, (tmp_path / "out" / name).read_bytes())
        assert doc.get("lang") == "en"
        assert text_of(doc.find("head/title"))
        assert len(doc.findall(".//h1")) == 1, name
        for t in doc.iter("table"):
            assert t.find("caption") is not None, name
            assert all(th.get("scope") in ("col", "row") for th in t.iter("th")), name
        for link in doc.iter("a"):  # every link stays on the site, and finds its page
            href = link.get("href").split("#")[0]
            assert "//" not in href and (tmp_path / "out" / href).is_file(), (name, href)
        assert not list(doc.iter("script"))
        assert all(not (tag.get("src") or "").startswith("http") for tag in doc.iter())
        assert [link.get("href") for link in doc.iter("link")] == ["style.css"]
    css = (tmp_path / "out" / "style.css").read_text()
    assert "url(" not in css and "@import" not in css and "@font-face" not in css  # nothing fetched


@pytest.mark.parametrize("which", ["finished", "duel", "premium"])
def test_the_pages_hold_no_address_no_order_code_and_no_private_line(which, request, tmp_path):
    folder = request.getfixturevalue(which)
    build_site(folder, tmp_path / "out")
    config = load_config(folder)
    codes = [order_code(str(config.seed), p.name) for p in config.players]
    private_lines = (
        "your Spy saw",
        "showed you the",
        "you traded hands",
        "you drew the",
        "Your cards",
        "your Cardinal",
        "your Baroness",
        "you received the",
    )  # templates/_events.txt.j2
    for name, data in site_files(tmp_path / "out").items():
        text = data.decode("utf-8")
        for p in config.players:
            assert p.email not in text, name
        for code in codes:
            assert code not in text, name
        for private in private_lines:
            assert private not in text, name


@pytest.mark.parametrize("which", ["finished", "duel", "premium"])
def test_a_turn_page_says_what_the_public_report_says(which, request, tmp_path):
    folder = request.getfixturevalue(which)
    build_site(folder, tmp_path / "out")
    last = len(read_archive(folder).turns) - 1
    kinds: Counter = Counter()
    for turn in range(1, last + 1):
        report = (folder / "turns" / f"turn-{turn:03d}" / "reports" / "public.txt").read_text()
        doc = parse_strictly("turn", (tmp_path / "out" / f"turn-{turn:03d}.html").read_bytes())
        lines = [
            html.unescape(text_of(li))
            for ul in doc.iter("ul")
            if ul.get("class") == "plays"
            for li in ul.iter("li")
        ]
        assert turn > 3 or len(lines) > 13
        for line in lines:
            assert line in report, line
            kinds[line.split(" ")[1] if " played the " in line else line[:12]] += 1
    assert sum(kinds.values()) > 100


def test_the_front_page_shows_the_players_the_turn_tokens_and_who_still_owes_orders(midgame, tmp_path):
    build_site(midgame, tmp_path / "out")
    doc = parse_strictly("index", (tmp_path / "out" / "index.html").read_bytes())
    campaign = Campaign(midgame)
    pos = campaign.position()
    body = text_of(doc)
    assert "seating order: Arthur, Bruno, Chloé." in body
    assert f"Turn {pos.game.turn}" in body
    awaited = table(doc, "Orders awaited")[1:]
    assert awaited == [
        [name, ", ".join(map(str, pos.game.awaited()[seat]))]
        for seat, name in enumerate(pos.players)
        if pos.game.awaited()[seat]
    ]
    tokens = table(doc, "Tokens of affection")[1:]
    assert [(row[0], int(row[1])) for row in tokens] == list(zip(pos.players, pos.game.tokens))
    board = table(doc, "The thirteen hands")
    assert board[0] == [
        "Hand",
        "First to play",
        "Arthur",
        "Bruno",
        "Chloé",
        "Cards left",
        "Next to play, or won by",
    ]
    for row, hand in zip(board[1:], pos.game.hands):
        assert row[0] == f"Hand {hand.number}"
        assert row[5] == str(len(hand.pile))
        for seat in range(3):
            assert row[2 + seat].startswith(", ".join(c.title for c in hand.discards[seat]) or "-")
            assert ("out" in row[2 + seat]) == (not hand.alive[seat])
        if hand.ended:
            assert row[6].startswith("won by")
        else:
            assert row[6] == pos.players[hand.active]


def test_the_end_page_gives_the_results_the_decks_and_the_reports_to_verify(finished, tmp_path, cli):
    build_site(finished, tmp_path / "out")
    out = tmp_path / "out"
    game = state_after(finished, len(read_archive(finished).turns) - 1)
    doc = parse_strictly("end", (out / "end.html").read_bytes())
    players = Campaign(finished).position().players
    assert f"{players[game.winners[0]]} wins the game" in text_of(doc)
    decks = table(doc, "Every deck")[1:]
    assert [row[2] for row in decks] == [", ".join(c.title for c in h.deck) for h in game.hands]
    results = table(doc, "The thirteen hands")[1:]
    assert [row[1] for row in results if not row[1].startswith("not finished")] == [
        " and ".join(players[s] for s in h.winners) for h in game.hands if h.ended
    ]
    assert (out / "final-report.txt").read_bytes() == (
        finished / "turns" / f"turn-{game.turn - 1:03d}" / "reports" / "public.txt"
    ).read_bytes()
    result = cli.ok("verify", out / "final-report.txt", "--opening", out / "opening-report.txt")
    assert "VERIFIED" in result.output
    record = "".join(doc.find(".//pre[@class='record']").itertext())
    assert record.startswith("-----BEGIN PBEM RECORD-----")
    assert record in (out / "final-report.txt").read_text()
    # The game is over: nobody is "to play" on the board or in the last turn, though hands were in play.
    assert any(not h.ended for h in game.hands)
    for page in ("index.html", f"turn-{game.turn - 1:03d}.html"):
        assert 'class="tag active"' not in (out / page).read_text(), page
        assert "Next to play:" not in (out / page).read_text(), page


def test_a_hand_page_tells_the_story_from_the_deal_to_the_winner(finished, tmp_path):
    build_site(finished, tmp_path / "out")
    archive = read_archive(finished)
    game = state_after(finished, len(archive.turns) - 1)
    players = archive.players
    for hand in game.hands:
        doc = parse_strictly("hand", (tmp_path / "out" / f"hand-{hand.number:02d}.html").read_bytes())
        plays = [
            e
            for t in archive.turns
            for e in t.events
            if getattr(e, "hand", None) == hand.number and e.kind == "played"
        ]
        items = [li for ul in doc.iter("ul") if ul.get("class") == "plays" for li in ul.iter("li")]
        played = tuple(f"{p} played the" for p in players)
        assert sum(text_of(li).startswith(played) for li in items) == len(plays)
        if hand.ended:
            assert f"Won by {' and '.join(players[s] for s in hand.winners)}." in text_of(doc)


def test_a_two_player_site_shows_each_hands_face_up_cards_from_the_deal(duel, tmp_path):
    """RULES 9: three cards face up in each hand, public from the start: on the
    front page's board, the deal's page, every hand's story; and the draw pile of 9."""
    build_site(duel, tmp_path / "out")
    out = tmp_path / "out"
    dealt = state_after(duel, 0)
    face_up = [", ".join(c.title for c in h.face_up) for h in dealt.hands]
    board = table(parse_strictly("index", (out / "index.html").read_bytes()), "The thirteen hands")
    assert board[0][:3] == ["Hand", "First to play", "Face up"]
    assert [row[2] for row in board[1:]] == face_up
    deal = table(parse_strictly("turn-000", (out / "turn-000.html").read_bytes()), "Two players: the three")
    assert [row[1] for row in deal[1:]] == face_up
    for hand in dealt.hands:
        story = text_of(parse_strictly("hand", (out / f"hand-{hand.number:02d}.html").read_bytes()))
        assert f"three cards laid face up, out of the hand for good ({face_up[hand.number - 1]})" in story
        assert "9 cards are left in the draw pile" in story
    assert "7 tokens of affection wins" in (out / "index.html").read_text()


def test_a_classic_or_premium_site_shows_no_face_up_cards(finished, premium, tmp_path):
    for folder in (finished, premium):
        build_site(folder, tmp_path / folder.name)
        for name, data in site_files(tmp_path / folder.name).items():
            assert b"face up, out of the hand" not in data.lower(), name
            assert b"Face up" not in data, name


def test_a_two_player_opening_report_without_the_face_up_cards_is_a_clear_error(duel, tmp_path, cli):
    """A campaign begun by an older pbem (no deal event in turn 0) has the face-up
    cards in its opening report only: a report that lost them stops the build
    with a message, and the old site stays."""
    folder = tmp_path / "duel"
    shutil.copytree(duel, folder)
    (folder / "turns" / "turn-000" / "events.json").write_text("[]\n", encoding="utf-8")
    cli.ok("site", folder, "--out", tmp_path / "out")
    before = site_files(tmp_path / "out")
    report = folder / "turns" / "turn-000" / "reports" / "public.txt"
    text = report.read_text(encoding="utf-8")
    report.write_text(text.replace("  Hand  5: ", "  Hand  5 "), encoding="utf-8")
    result = cli.fails("site", folder, "--out", tmp_path / "out")
    assert "does not list the three face-up cards of each of the 13 hands" in result.output
    assert str(report) in result.output
    assert site_files(tmp_path / "out") == before


def test_a_premium_site_shows_the_mark_and_tokens_from_cards(premium, tmp_path):
    """RULES 10: the Sycophant's mark on the board (until the next play), tokens from
    the Jester, the Constable and the Bishop in the standings and on the turn pages."""
    build_site(premium, tmp_path / "out")
    out = tmp_path / "out"
    archive = read_archive(premium)
    players = archive.players
    game = state_after(premium, len(archive.turns) - 1)
    tokens = table(parse_strictly("index", (out / "index.html").read_bytes()), "Tokens of affection")
    assert tokens[0] == ["Player", "Tokens", "Hands won", "Tokens from cards"]
    gained = Counter(
        seat for t in archive.turns for e in t.events if e.kind == "card_tokens" for seat, _, _ in e.gained
    )
    assert sum(gained.values()) > 0
    for seat, row in enumerate(tokens[1:]):
        won = sum(seat in h.winners for h in game.hands)
        assert row == [players[seat], str(game.tokens[seat]), str(won), str(gained[seat])]
        assert game.tokens[seat] == won + gained[seat]
    # Each turn's tokens table says which card gave which token.
    for t in archive.turns:
        for e in t.events:
            if e.kind == "card_tokens":
                page = text_of(parse_strictly("turn", (out / f"turn-{t.turn:03d}.html").read_bytes()))
                for _seat, hand, card in e.gained:
                    assert f"+1 ({card.title}, hand {hand})" in page
    # The mark: on every turn page where a hand ends the turn marked, and only there.
    marks = 0
    for t in archive.turns[1:]:
        state = state_after(premium, t.turn)
        doc = parse_strictly("turn", (out / f"turn-{t.turn:03d}.html").read_bytes())
        for section in doc.iter("section"):
            number = int(section.get("id").split("-")[1])
            marked = state.hand(number).marked
            said = "Marked by the Sycophant:" in text_of(section)
            assert said == (marked is not None and not state.finished), (t.turn, number)
            if said:
                marks += 1
                assert f"Marked by the Sycophant: {players[marked]} (" in text_of(section)
                seats = table(section, f"Hand {number} after turn")
                assert [row[0] for row in seats[1:] if "marked" in row[2]] == [players[marked]]
    assert marks > 3
    # The Jesters: who named whom, on the turn pages while the hand goes on, and on the front page's board.
    jesters = 0
    for t in archive.turns[1:]:
        state = state_after(premium, t.turn)
        doc = parse_strictly("turn", (out / f"turn-{t.turn:03d}.html").read_bytes())
        for section in doc.iter("section"):
            hand = state.hand(int(section.get("id").split("-")[1]))
            said = [p for p in section.iter("p") if "'s Jester named " in text_of(p)]
            expected = (
                []
                if hand.ended
                else [
                    f"{players[j]}'s Jester named {players[n]}: if {players[n]} wins this hand, "
                    f"{players[j]} gains a token."
                    for j, n in hand.jesters
                ]
            )
            assert [text_of(p) for p in said] == expected, (t.turn, hand.number)
            jesters += len(expected)
    assert jesters > 3


def test_the_front_pages_board_shows_each_jesters_pick_while_the_hand_goes_on(eight, tmp_path):
    build_site(eight, tmp_path / "out")
    doc = parse_strictly("index", (tmp_path / "out" / "index.html").read_bytes())
    board = table(doc, "The thirteen hands")
    players = read_archive(eight).players
    game = state_after(eight, len(read_archive(eight).turns) - 1)
    picks = 0
    for row, hand in zip(board[1:], game.hands):
        for seat, name in enumerate(players):
            named = [players[n] for j, n in hand.jesters if j == seat and not hand.ended]
            assert [f"Jester on {n}" for n in named] == [
                f"Jester on {n}" for n in players if f"Jester on {n}" in row[2 + seat]
            ], (hand.number, name)
            picks += len(named)
    assert picks > 0


def test_the_charts_turn_labels_do_not_crowd_a_long_game(premium):
    """A Premium game lasts some 20 turns: at most a dozen labels and the deal's."""
    archive = read_archive(premium)
    boards = replay(6, [t.events for t in archive.turns[1:]])
    assert len(boards) > 14
    ticks = [turn for turn, _ in chart(boards, archive.players)["ticks"]]
    assert ticks[0] == 0 and 2 <= len(ticks) <= 13, ticks


def test_titles_and_notes_are_escaped(tmp_path):
    folder = write_campaign(tmp_path / "game", 3, seed=2, title='<script>alert("t")</script> & Co')
    campaign = play(folder, turns=1)
    campaign.add_note('<img src=x onerror=alert(1)> see "hand 2"')
    campaign.resolve(force=True)
    build_site(folder, tmp_path / "out")
    for name, data in site_files(tmp_path / "out").items():
        if name.endswith(".html"):
            text = data.decode()
            assert "<script>" not in text and "<img" not in text, name
            parse_strictly(name, data)
    page = (tmp_path / "out" / "turn-002.html").read_text()
    assert "GM's note: &lt;img src=x onerror=alert(1)&gt; see &#34;hand 2&#34;" in page
    assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt; &amp; Co" in page


def test_the_deadline_is_shown_in_the_campaigns_zone_and_in_utc_and_follows_a_moved_one(tmp_path):
    folder = write_campaign(
        tmp_path / "game", 3, seed=2, deadline={"timezone": "Europe/Paris", "every_days": 3, "at": "20:00"}
    )
    Campaign(folder, clock=lambda: datetime(2026, 10, 22, 10, 0, tzinfo=UTC)).start()
    build_site(folder, tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text()
    assert "due by <strong>Sunday 25 October 2026, 20:00 Europe/Paris (19:00 UTC)</strong>" in index
    Campaign(folder, clock=lambda: datetime(2026, 10, 23, tzinfo=UTC)).set_deadline("2026-10-27 18:30")
    build_site(folder, tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text()
    assert "due by <strong>Tuesday 27 October 2026, 18:30 Europe/Paris (17:30 UTC)</strong>" in index


# -- writing the site safely ----------------------------------------------------------------------


def test_a_folder_that_is_not_a_site_is_refused_and_left_alone(midgame, tmp_path, snap):
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "holiday.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(SiteError, match="holds other files and no pbem site"):
        build_site(midgame, mine)
    assert [p.name for p in mine.iterdir()] == ["holiday.jpg"]
    before = snap(midgame)
    with pytest.raises(SiteError):  # the campaign folder itself
        build_site(midgame, midgame)
    assert snap(midgame) == before
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(SiteError, match="a file is in the way"):
        build_site(midgame, tmp_path / "a-file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "photos"]  # nothing left aside


def test_a_rebuild_replaces_the_old_site_whole(midgame, tmp_path):
    out = tmp_path / "out"
    build_site(midgame, out)
    (out / "old-page.html").write_text("stale")
    build_site(midgame, out)
    assert not (out / "old-page.html").exists() and (out / MARKER).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_crash_while_writing_leaves_the_old_site_and_no_trace(midgame, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build_site(midgame, out)
    before = site_files(out)
    files = render_site(read_archive(midgame))
    written = []
    real = Path.write_bytes

    def crash(self, data):
        written.append(self)
        if len(written) == 5:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", crash)
    with pytest.raises(OSError, match="No space"):
        write_site(out, files)
    monkeypatch.undo()
    assert site_files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_campaign_not_started_has_no_site(tmp_path):
    folder = write_campaign(tmp_path / "game", 3)
    with pytest.raises(StoreError, match="not been started"):
        build_site(folder, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- campaign.yaml, resolve, tick and the command line ----------------------------------------------


@pytest.mark.parametrize(
    "value, problem",
    [
        ("site: yes", "site: must be a mapping"),
        ("site:", "site: must be a mapping"),
        ("site: [out]", "site: must be a mapping"),
        ("site: {folder: www}", "site.folder: unknown key"),
        ("site: {out: 3}", "site.out: a folder"),
        ("site: {out: ''}", "site.out: a folder"),
        ("site: {out: null}", "site.out: a folder"),
    ],
)
def test_a_bad_site_key_is_a_clear_error(tmp_path, value, problem, cli):
    folder = write_campaign(tmp_path / "game", 3)
    with open(folder / "campaign.yaml", "a", encoding="utf-8") as f:
        f.write(value + "\n")
    with pytest.raises(ConfigError, match=problem.replace(".", r"\.")):
        load_config(folder)
    result = cli.fails("start", folder)
    assert problem in result.output and "Traceback" not in result.output


def test_resolve_rebuilds_the_site_when_campaign_yaml_asks(tmp_path, cli):
    relative = write_campaign(tmp_path / "rel", 3, site={"out": "www"})
    elsewhere = tmp_path / "srv" / "game"
    absolute = write_campaign(tmp_path / "abs", 3, site={"out": str(elsewhere)})
    for folder, out in ((relative, relative / "www"), (absolute, elsewhere)):
        cli.ok("start", folder)
        assert "Orders for turn 1 are awaited" in (out / "index.html").read_text()
        cli.ok("resolve", folder, "--force")
        assert "Orders for turn 2 are awaited" in (out / "index.html").read_text()
        assert (out / "turn-001.html").exists()


def test_a_campaign_without_site_key_gets_no_site(tmp_path, cli):
    folder = write_campaign(tmp_path / "game", 3)
    cli.ok("start", folder)
    cli.ok("resolve", folder, "--force")
    assert not (folder / "site").exists()


def test_tick_rebuilds_the_site_when_it_resolves(tmp_path):
    folder = write_campaign(
        tmp_path / "game", 3, site={}, deadline={"timezone": "UTC", "every_days": 1, "at": "20:00"}
    )
    moment = [datetime(2026, 10, 22, 10, 0, tzinfo=UTC)]
    campaign = Campaign(folder, clock=lambda: moment[0])
    campaign.start()
    assert "Orders for turn 1 are due by" in (folder / "site" / "index.html").read_text()
    moment[0] = datetime(2026, 10, 24, tzinfo=UTC)
    assert tick(campaign).resolved == 1
    assert "Orders for turn 2 are due by" in (folder / "site" / "index.html").read_text()


def test_a_site_that_cannot_be_written_does_not_undo_the_turn(tmp_path, cli):
    folder = write_campaign(tmp_path / "game", 3, site={"out": "campaign.yaml"})
    result = cli.ok("start", folder)
    assert "web pages" in result.output and "not rebuilt" in result.output
    result = cli.ok("resolve", folder, "--force")
    assert "Turn 1 resolved" in result.output and "`pbem site" in result.output
    assert (folder / "turns" / "turn-001").is_dir()


def test_the_site_command(midgame, tmp_path, cli):
    result = cli.ok("site", midgame)
    assert f"written to {midgame / 'site'}" in result.output
    assert (midgame / "site" / "index.html").exists()
    result = cli.ok("site", midgame, "--out", tmp_path / "www")
    assert (tmp_path / "www" / "turn-004.html").exists()
    result = cli.fails("site", midgame, "--out", midgame / "turns")
    assert "holds other files and no pbem site" in result.output
    result = cli.fails("site", tmp_path / "nowhere")
    assert "no such campaign folder" in result.output


def test_a_rollback_takes_the_undone_turn_off_the_site(tmp_path, cli):
    folder = write_campaign(tmp_path / "game", 3, site={})
    cli.ok("start", folder)
    cli.ok("resolve", folder, "--force")
    assert (folder / "site" / "turn-001.html").exists()
    result = cli.ok("rollback", folder)
    assert "Warning" not in result.output
    assert not (folder / "site" / "turn-001.html").exists()
    assert "Orders for turn 1 are awaited" in (folder / "site" / "index.html").read_text()
    # A site that cannot be rebuilt: the rollback stands, and the GM is told.
    cli.ok("resolve", folder, "--force")
    (folder / "site" / MARKER).unlink()
    result = cli.ok("rollback", folder)
    assert "Turn 1 rolled back" in result.output
    assert "Warning: the web pages" in result.output and "were not rebuilt" in result.output
    assert not (folder / "turns" / "turn-001").exists()


def test_the_example_campaigns_site_leaves_git_status_clean(tmp_path):
    """`pbem site campaigns/example` writes campaigns/example/site: git ignores it."""
    root = Path(__file__).resolve().parent.parent
    for path in ("campaigns/example/site/index.html", "campaigns/example/site/.pbem-site"):
        result = subprocess.run(["git", "-C", str(root), "check-ignore", "-q", path])
        assert result.returncode == 0, f"{path} is not ignored by git"


@pytest.mark.parametrize("example, players", [("duel", 2), ("premium", 6)])
def test_the_two_player_and_premium_examples_have_a_site(tmp_path, cli, example, players):
    """The shipped examples of every variant build their site (on a copy: the
    examples stay as shipped); every page strict HTML."""
    folder = tmp_path / example
    shutil.copytree(Path(__file__).resolve().parent.parent / "campaigns" / example, folder)
    cli.ok("site", folder, "--out", tmp_path / "out")
    assert len(read_archive(folder).players) == players
    for name, data in site_files(tmp_path / "out").items():
        if name.endswith(".html"):
            parse_strictly(name, data)
    index = parse_strictly("index", (tmp_path / "out" / "index.html").read_bytes())
    board = table(index, "The thirteen hands")
    assert len(board[0]) == 4 + players + (players == 2)


@pytest.mark.parametrize(
    "damage, problem",
    [
        (
            lambda f: (f / "turns" / "turn-002" / "events.json").write_text('[{"kind": "played"'),
            "turn-002/events.json: damaged JSON",
        ),
        (
            lambda f: (f / "turns" / "turn-002" / "events.json").write_text(
                '[{"kind": "teleport", "hand": 1}]'
            ),
            "turn-002/events.json: an event cannot be read",
        ),
        (
            lambda f: (f / "turns" / "turn-003" / "reports" / "public.txt").unlink(),
            "turn-003/reports/public.txt: no such file",
        ),
        (lambda f: shutil.rmtree(f / "turns" / "turn-001"), "a turn folder is missing"),
    ],
)
def test_a_damaged_campaign_folder_is_a_clear_error_and_the_old_site_stays(tmp_path, cli, damage, problem):
    folder = write_campaign(tmp_path / "game", 3, seed=4)
    play(folder, turns=3, policy_seed=4)
    cli.ok("site", folder)
    before = site_files(folder / "site")
    damage(folder)
    result = cli.fails("site", folder)
    assert problem in result.output and "Traceback" not in result.output
    assert site_files(folder / "site") == before


def test_a_site_behind_a_symbolic_link_is_rebuilt_where_the_link_points(midgame, tmp_path):
    real = tmp_path / "srv" / "game"
    build_site(midgame, real)
    link = tmp_path / "www"
    link.symlink_to(real, target_is_directory=True)
    build_site(midgame, link)
    assert link.is_symlink() and (link / "index.html").exists() and (real / MARKER).exists()


def test_the_site_command_waits_for_a_command_that_holds_the_campaign(midgame, cli):
    with file_lock(midgame / ".pbem.lock", timeout=0):
        with pytest.MonkeyPatch.context() as mp:
            real = CampaignStore.locked
            mp.setattr(CampaignStore, "locked", lambda self, timeout=10.0: real(self, timeout=0.1))
            result = cli.fails("site", midgame)
    assert "another pbem command is working on this campaign" in result.output


def test_a_campaigns_own_wording_of_the_events_is_the_sites_too(tmp_path):
    """Same words as the mail: a campaign that rewords the events (templates/_events.txt.j2)
    gets the new words in its public report and on its turn pages alike."""
    folder = write_campaign(tmp_path / "game", 3, seed=6)
    (folder / "templates").mkdir()
    wording = (default_templates_dir() / "_events.txt.j2").read_text().replace("played the", "laid down the")
    (folder / "templates" / "_events.txt.j2").write_text(wording)
    play(folder, turns=1)
    build_site(folder, tmp_path / "out")
    report = (folder / "turns" / "turn-001" / "reports" / "public.txt").read_text()
    page = (tmp_path / "out" / "turn-001.html").read_text()
    assert "laid down the" in report and "laid down the" in page and "played the" not in page


def test_the_web_pages_and_the_mail_never_share_compiled_templates(tmp_path):
    """The site compiles the mail's own event wording with HTML escaping. Jinja's
    bytecode cache keys a template by its name and source only, so one shared
    cache would hand the escaping code to the mail ("O&#39;Brien") or the plain
    code to the web pages. Each kind of environment has a cache of its own.
    Separate processes, as a GM runs them: each reads the cache the other wrote."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(
        "players:\n  - {name: O'Brien, email: ob@example.org}\n  - {name: Bruno, email: b@example.org}\n"
        "  - {name: Chloé, email: c@example.org}\nseed: 11\n",
        encoding="utf-8",
    )

    def pbem(*args):
        done = subprocess.run(
            [sys.executable, "-m", "pbem", *map(str, args)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done

    pbem("start", folder)
    pbem("site", folder, "--out", tmp_path / "site")  # compiles (and caches) the wording, escaped
    pbem("resolve", folder, "--force")  # the mail, rendered after the site filled its cache
    public = (folder / "turns" / "turn-001" / "reports" / "public.txt").read_text(encoding="utf-8")
    assert "O'Brien played" in public and "&#39;" not in public and "&#x27;" not in public
    pbem("site", folder, "--out", tmp_path / "site")  # the pages, after the mail filled its cache
    pages = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert "O'Brien played" not in pages and "O&#39;Brien played" in pages
