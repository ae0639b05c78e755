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
from pbem.cards import Card
from pbem.config import ConfigError, load_config
from pbem.engine import Game
from pbem.reports import default_templates_dir
from pbem.site import LeakError, SiteError, build_site
from pbem.site import archive as site_archive
from pbem.site.archive import read_archive
from pbem.site.board import replay
from pbem.site.build import MARKER, render_site, write_site
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
                assert (board.tokens, board.finished, board.winners) == (
                    game.tokens,
                    game.finished,
                    game.winners,
                ), where
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
                    seen["no valid target"] += (
                        e.kind == "played"
                        and e.recipient is None
                        and e.card in (Card.GUARD, Card.SPY, Card.BARON, Card.KING)
                    )
                    seen["tie broken by discards"] += e.kind == "ended" and bool(e.totals)
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
    ):
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


@pytest.mark.parametrize("which", ["finished", "midgame"])
def test_every_page_is_strict_html5_with_a_title_a_heading_and_tables_with_headers(which, request, tmp_path):
    folder = request.getfixturevalue(which)
    built = build_site(folder, tmp_path / "out")
    pages = [p for p in built.pages if p.endswith(".html")]
    assert len(pages) == 13 + len(read_archive(folder).turns) + 1 + (which == "finished")
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


def test_the_pages_hold_no_address_no_order_code_and_no_private_line(finished, tmp_path):
    build_site(finished, tmp_path / "out")
    config = load_config(finished)
    codes = [order_code(str(config.seed), p.name) for p in config.players]
    for name, data in site_files(tmp_path / "out").items():
        text = data.decode("utf-8")
        for p in config.players:
            assert p.email not in text, name
        for code in codes:
            assert code not in text, name
        for private in ("your Spy saw", "showed you the", "you traded hands", "you drew the", "Your cards"):
            assert private not in text, name


def test_a_turn_page_says_what_the_public_report_says(finished, tmp_path):
    build_site(finished, tmp_path / "out")
    for turn in range(1, 4):
        report = (finished / "turns" / f"turn-{turn:03d}" / "reports" / "public.txt").read_text()
        doc = parse_strictly("turn", (tmp_path / "out" / f"turn-{turn:03d}.html").read_bytes())
        lines = [
            html.unescape(text_of(li))
            for ul in doc.iter("ul")
            if ul.get("class") == "plays"
            for li in ul.iter("li")
        ]
        assert len(lines) > 13
        for line in lines:
            assert line in report, line


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
