"""The site in a real browser: Debian's headless chromium driven by selenium.

Pages are loaded from disk (file://). The chart must be drawn (an SVG with one
line per player, every point at its player's tokens after each turn), the
links between turns and hands must lead where they say, and each page is
photographed at phone and desktop width; the screenshots are kept as test
artefacts under the test's tmp_path (pytest keeps the last runs' folders).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import DESKTOP, PHONE, chromium, full_page_screenshot
from selenium.webdriver.common.by import By
from site_games import play, write_campaign

from pbem.site import build_site


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, Path]:
    """A finished 4-player game and its site."""
    root = tmp_path_factory.mktemp("browser")
    folder = write_campaign(root / "game4", 4, seed=3)
    play(folder, policy_seed=3)
    build_site(folder, root / "site")
    return folder, root / "site"


@pytest.fixture(scope="module")
def premium_site(tmp_path_factory) -> tuple[Path, Path]:
    """A finished 6-player Premium game (RULES 10) and its site."""
    root = tmp_path_factory.mktemp("premium")
    folder = write_campaign(root / "six", 6, seed=1)
    play(folder, policy_seed=1)
    build_site(folder, root / "site")
    return folder, root / "site"


@pytest.fixture(scope="module")
def browser():
    with chromium(*DESKTOP) as driver:
        yield driver


def as_phone(driver, height: int = PHONE[1]) -> None:
    """Lay pages out at the phone's 390 CSS px: headless chromium will not make a
    window narrower than 500 px, so the phone's screen is emulated (DevTools)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def phone_screenshot(driver, path: Path) -> None:
    """The whole page at phone width (the emulated screen grows to the page's height)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    as_phone(driver, min(max(height, 600), 6000))
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    as_phone(driver)


def tokens_by_turn(folder: Path) -> dict[str, list[int]]:
    """Each player's tokens after the deal and after each turn, from the GM's states."""
    turns = sorted((folder / "turns").glob("turn-*"))
    states = [json.loads((t / "state.json").read_text(encoding="utf-8")) for t in turns]
    players = states[-1]["players"]
    return {name: [s["game"]["tokens"][seat] for s in states] for seat, name in enumerate(players)}


def test_the_chart_draws_one_line_per_player_with_points_at_their_tokens(site, browser, tmp_path):
    folder, out = site
    assert_chart_draws_the_tokens(browser, folder, out)
    full_page_screenshot(browser, tmp_path / "index-desktop.png", DESKTOP[0])


def test_a_premium_games_chart_draws_six_lines_with_the_tokens_cards_gave(premium_site, browser, tmp_path):
    """Six players, and tokens earned by cards (Jester, Constable, Bishop) as well as by hands."""
    folder, out = premium_site
    lines = assert_chart_draws_the_tokens(browser, folder, out)
    assert len(lines) == 6
    by_cards = [
        e
        for t in sorted((folder / "turns").glob("turn-*"))
        for e in json.loads((t / "events.json").read_text(encoding="utf-8"))
        if e["kind"] == "card_tokens"
    ]
    assert by_cards  # the points above count tokens from cards too
    full_page_screenshot(browser, tmp_path / "premium-index-desktop.png", DESKTOP[0])


def assert_chart_draws_the_tokens(browser, folder: Path, out: Path) -> list:
    """The front page's chart, read by the browser: one line per player, each
    point at the tokens the GM's state gives after that turn. The lines drawn."""
    browser.get((out / "index.html").as_uri())
    chart = browser.find_element(By.CSS_SELECTOR, "svg.chart")
    assert chart.is_displayed() and chart.size["width"] > 200 and chart.size["height"] > 100
    assert (
        browser.find_element(By.CSS_SELECTOR, "svg.chart > title").get_attribute("textContent")
        == "Tokens of affection after each turn"
    )
    expected = tokens_by_turn(folder)
    assert max(max(v) for v in expected.values()) >= 4  # a finished game: somebody reached the target
    grid = {
        int(line.get_attribute("data-tokens")): float(line.get_attribute("y1"))
        for line in chart.find_elements(By.CSS_SELECTOR, "g.grid line")
    }
    lines = chart.find_elements(By.TAG_NAME, "polyline")
    assert [line.get_attribute("data-player") for line in lines] == list(expected)
    xs = None
    for line in lines:
        name = line.get_attribute("data-player")
        # The browser's own reading of the points (SVG DOM), not the attribute text.
        points = browser.execute_script("return Array.from(arguments[0].points).map(p => [p.x, p.y]);", line)
        assert len(points) == len(expected[name])
        assert [round(y, 2) for _, y in points] == [grid[t] for t in expected[name]], name
        assert xs is None or [x for x, _ in points] == xs  # every line has a point at every turn
        xs = [x for x, _ in points]
        assert line.value_of_css_property("stroke") != "none"
        box = browser.execute_script("return arguments[0].getBBox().width;", line)
        assert box > 100  # drawn across the chart
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    # Every point is inside the drawing, and the drawing fills the chart's box on the page.
    view = browser.execute_script(
        "var v = arguments[0].viewBox.baseVal; return [v.x, v.y, v.width, v.height];", chart
    )
    assert view[0] <= min(xs) and max(xs) <= view[0] + view[2]
    assert view[1] <= min(grid.values()) and max(grid.values()) <= view[1] + view[3]
    assert abs(chart.size["width"] / chart.size["height"] - view[2] / view[3]) < 0.05
    return lines


def test_links_lead_from_turn_to_turn_and_to_each_hands_story(site, browser):
    folder, out = site
    last = max(int(p.name[5:]) for p in (folder / "turns").glob("turn-*"))
    browser.get((out / "turn-001.html").as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "Report of turn 1"
    for turn in range(2, last + 1):  # forwards, by the "next" link, to the last turn
        browser.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Report of turn {turn}"
    assert browser.find_elements(By.CSS_SELECTOR, "a[rel=next]") == []
    browser.find_element(By.CSS_SELECTOR, "a[rel=prev]").click()
    assert browser.current_url.endswith(f"turn-{last - 1:03d}.html")
    # From a turn to a hand's story, and from the story back to that turn.
    browser.find_element(By.CSS_SELECTOR, "section.hand h2 a").click()
    assert browser.current_url.endswith(".html") and "/hand-" in browser.current_url
    number = int(browser.current_url.rsplit("hand-", 1)[1][:2])
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Hand {number}"
    browser.find_element(By.CSS_SELECTOR, f"section#turn-{last - 1} h2 a").click()
    assert browser.current_url.endswith(f"turn-{last - 1:03d}.html#hand-{number}")
    # The front page's board links to every hand; the nav to the end.
    browser.get((out / "index.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "table.board tbody th a")
    assert [a.text for a in rows] == [f"Hand {h}" for h in range(1, 14)]
    rows[12].click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "Hand 13"
    browser.find_element(By.LINK_TEXT, "The end").click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "The end"
    assert "wins the game" in browser.find_element(By.CLASS_NAME, "headline").text


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_pages_read_at_phone_and_desktop_width(site, size, tmp_path):
    """No page is wider than the screen (wide tables scroll inside their box), and
    each is photographed as an artefact."""
    _, out = site
    shots = tmp_path / "screenshots"
    with chromium(*size) as driver:
        if size == PHONE:
            as_phone(driver)
        for page in ("index.html", "turn-003.html", "hand-05.html", "end.html"):
            driver.get((out / page).as_uri())
            width = driver.execute_script("return document.documentElement.scrollWidth")
            inner = driver.execute_script("return window.innerWidth")
            assert inner == size[0] and width <= inner, (page, width, inner)
            text_size = driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
            assert text_size >= 16
            if size == PHONE:
                phone_screenshot(driver, shots / f"{page[:-5]}-{size[0]}.png")
            else:
                full_page_screenshot(driver, shots / f"{page[:-5]}-{size[0]}.png", size[0])
                driver.set_window_size(*size)
    for page in ("index", "turn-003", "hand-05", "end"):
        png = (shots / f"{page}-{size[0]}.png").read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_an_eight_player_board_reads_on_a_phone_without_overflowing(tmp_path):
    """Eight players: at 390 px the 13-hands grid shows each hand as a block whose
    cells say whose they are; nothing is wider than the screen, not even inside
    the board's box. At desktop width it is the grid again."""
    folder = write_campaign(tmp_path / "eight", 8, seed=4)
    play(folder, policy_seed=4)
    build_site(folder, tmp_path / "site")
    players = list(tokens_by_turn(folder))
    with chromium(*PHONE) as driver:
        as_phone(driver)
        driver.get((tmp_path / "site" / "index.html").as_uri())
        assert driver.execute_script("return window.innerWidth") == PHONE[0]
        assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        board = driver.find_element(By.CSS_SELECTOR, "table.board")
        box = driver.find_element(By.CSS_SELECTOR, "div.scroll:has(> table.board)")
        assert driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", box)
        assert board.size["width"] <= PHONE[0]
        caption = board.find_element(By.TAG_NAME, "caption")
        assert caption.size["width"] > PHONE[0] * 0.8  # the caption spans the board, not a narrow column
        rows = board.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == 13
        cells = rows[0].find_elements(By.TAG_NAME, "td")
        labels = [
            driver.execute_script("return getComputedStyle(arguments[0], '::before').content", cell)
            for cell in cells
        ]
        assert labels[1:9] == [f'"{name}: "' for name in players]
        for cell in board.find_elements(By.TAG_NAME, "td"):
            right = driver.execute_script("return arguments[0].getBoundingClientRect().right", cell)
            assert right <= PHONE[0], cell.text
        assert driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)") >= 16
        phone_screenshot(driver, tmp_path / "screenshots" / "eight-index-390.png")
    with chromium(*DESKTOP) as driver:
        driver.get((tmp_path / "site" / "index.html").as_uri())
        header = driver.find_element(By.CSS_SELECTOR, "table.board thead")
        assert header.is_displayed()  # the grid, with its column headers
        assert driver.execute_script("return document.documentElement.scrollWidth") <= DESKTOP[0]
        full_page_screenshot(driver, tmp_path / "screenshots" / "eight-index-1280.png", DESKTOP[0])
    assert (tmp_path / "screenshots" / "eight-index-390.png").read_bytes().startswith(b"\x89PNG")


@pytest.fixture(scope="module")
def crowded_sites(tmp_path_factory) -> dict[tuple[int, str], Path]:
    """Sites of 5- to 8-player Premium games (up to twelve columns on the board): finished, every
    discard pile at its longest, and after three turns, with the tags (to play, out, protected, a
    Jester's)."""
    root = tmp_path_factory.mktemp("crowded")
    sites = {}
    for players, seed in ((5, 6), (6, 7), (7, 5), (8, 4)):
        for stage, turns in (("end", None), ("turn 3", 3)):
            name = f"{players}-{'end' if turns is None else turns}"
            folder = write_campaign(root / f"game{name}", players, seed=seed)
            play(folder, turns=turns, policy_seed=seed)
            build_site(folder, root / f"site{name}")
            sites[players, stage] = root / f"site{name}"
    return sites


#: The board's box and every cell, as the browser lays them out: what scrolls, what is under 14 px,
#: a word broken across two lines, text outside its cell, cells overlapping their neighbours.
BOARD_LAYOUT = """
const box = document.querySelector('div.scroll:has(> table.board)');
const board = box.querySelector('table.board');
const out = {scroll: [box.scrollWidth, box.clientWidth], small: [], broken: [], outside: [], overlapping: [],
             clipped: [], words: 0, jesters: board.querySelectorAll('.tag.jester').length};
const inside = (r, cell) => r.left >= cell.left - 0.5 && r.right <= cell.right + 0.5
                            && r.top >= cell.top - 0.5 && r.bottom <= cell.bottom + 0.5;
for (const row of board.querySelectorAll('tr')) {
  let before = null;
  for (const cell of row.children) {
    const rect = cell.getBoundingClientRect();
    if (before && rect.left < before.right - 1) out.overlapping.push(cell.textContent);
    before = rect;
    if (cell.scrollWidth > cell.clientWidth) out.clipped.push(cell.textContent);
    for (const tag of cell.querySelectorAll('*')) {
      if (!inside(tag.getBoundingClientRect(), rect)) out.outside.push(tag.textContent);
      if (tag.scrollWidth > tag.clientWidth || tag.scrollHeight > tag.clientHeight) {
        out.clipped.push(tag.textContent);
      }
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.data.trim()) continue;
      const size = parseFloat(getComputedStyle(text.parentElement).fontSize);
      if (size < 14) out.small.push(text.data + ' ' + size + 'px');
      for (const word of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        out.words += 1;
        if (range.getClientRects().length > 1) out.broken.push(word[0]);
        if (!inside(range.getBoundingClientRect(), rect)) out.outside.push(word[0]);
      }
    }
  }
}
return out;
"""


def assert_page_fits(driver) -> None:
    """Nothing wider than the window less its vertical scrollbar: no sideways scroll of the page."""
    page = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert page[0] <= page[1], f"the page scrolls sideways: {page}"


def assert_board_fits(driver, width: int) -> dict:
    """The page at ``width``: the board is the grid, and fits its box (no sideways scroll
    inside it), every text in it at 14 px or more, no word broken across lines, nothing
    outside its cell, no cell over its neighbour."""
    assert driver.execute_script("return window.innerWidth") == width
    assert_page_fits(driver)
    assert driver.find_element(By.CSS_SELECTOR, "table.board thead").is_displayed()  # the grid
    layout = driver.execute_script(BOARD_LAYOUT)
    assert layout["scroll"][0] <= layout["scroll"][1], f"the board scrolls sideways: {layout['scroll']}"
    assert layout["words"] > 100
    for problem in ("small", "broken", "outside", "overlapping", "clipped"):
        assert layout[problem] == [], problem
    return layout


@pytest.mark.parametrize("width", [1280, 1024])
@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_a_premium_board_fits_a_desktop_screen(crowded_sites, players, width, tmp_path):
    """Up to twelve columns: at 1280 and at 1024 px a reader sees every player's column without
    scrolling sideways, in cells that stay readable, after a few turns and at the end."""
    jesters = 0
    with chromium(width, DESKTOP[1]) as driver:
        for stage in ("turn 3", "end"):
            driver.get((crowded_sites[players, stage] / "index.html").as_uri())
            jesters += assert_board_fits(driver, width)["jesters"]
            full_page_screenshot(driver, tmp_path / f"{players}-{stage[:4].strip()}-{width}.png", width)
            driver.set_window_size(width, DESKTOP[1])
    assert jesters  # a Jester's tag, which holds a name, is on a board too


def test_an_eight_player_board_of_long_names_fits_at_1280(tmp_path):
    """Names of ten and eleven letters, in the column headers, the first and next players and the
    Jesters' tags: the board still fits a 1280 px screen."""
    names = ["Bartholomew", "Konstantin", "Maximiliane", "Wilhelmina", "Christopher", "Alessandra"]
    names += ["Fitzgerald", "Gwendolyn"]
    folder = write_campaign(tmp_path / "long", 8, seed=4, names=names)
    play(folder, turns=4, policy_seed=4)
    build_site(folder, tmp_path / "site")
    with chromium(*DESKTOP) as driver:
        driver.get((tmp_path / "site" / "index.html").as_uri())
        headers = driver.find_elements(By.CSS_SELECTOR, "table.board thead th")
        assert [h.text for h in headers[2:10]] == names
        assert assert_board_fits(driver, DESKTOP[0])["jesters"]
        full_page_screenshot(driver, tmp_path / "long-names-1280.png", DESKTOP[0])


def test_a_name_too_long_for_the_grid_scrolls_the_board_in_its_box_not_the_page(tmp_path):
    """A name of one 40-letter word (the longest campaign.yaml accepts) cannot fit twelve
    columns: the board scrolls sideways inside its box, as before, and its box stays inside
    the window; nothing is clipped; and the page itself never scrolls sideways (the standings'
    table breaks such a name rather than widen the page)."""
    names = ["Wolfeschlegelsteinhausenbergerdorffvoral", "Bruno", "Chloé", "Dominik", "Elena"]
    names += ["Farid", "Gwen", "Hugo"]
    folder = write_campaign(tmp_path / "longest", 8, seed=4, names=names)
    play(folder, turns=4, policy_seed=4)
    build_site(folder, tmp_path / "site")
    for width in (1280, 1024):
        with chromium(width, DESKTOP[1]) as driver:
            driver.get((tmp_path / "site" / "index.html").as_uri())
            box = driver.execute_script(
                "const r = document.querySelector('div.scroll:has(> table.board)').getBoundingClientRect();"
                "return [r.left, r.right, document.documentElement.clientWidth];"
            )
            assert 0 <= box[0] and box[1] <= box[2], box
            assert_page_fits(driver)
            layout = driver.execute_script(BOARD_LAYOUT)
            assert layout["scroll"][0] > layout["scroll"][1]  # the box scrolls
            assert layout["clipped"] == [] and layout["outside"] == [] and layout["small"] == []


def test_the_browser_is_debians_and_selenium_manager_is_never_asked(monkeypatch):
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    def refuse(*args, **kwargs):
        raise AssertionError("selenium-manager was asked for a driver or a browser")

    monkeypatch.setattr(SeleniumManager, "binary_paths", refuse)
    with chromium(*PHONE) as driver:
        assert driver.capabilities["browserName"] == "chrome"
        assert (
            driver.capabilities["chrome"]["chromedriverVersion"].split(".")[0]
            == driver.capabilities["browserVersion"].split(".")[0]
        )


def test_the_players_page_shows_each_holders_record_and_no_address(tmp_path):
    """Issue 24, item 5: a finished game whose seat 2 changed hands at turn 3. The
    "Players" link leads to a table with a row per person: their turns on time,
    NMR hands (every hand played for them by the default, as the orders on file
    say), hands won, and the game (Bruno left his seat)."""
    import random

    from site_games import order_lines

    from pbem.campaign import Campaign

    folder = write_campaign(tmp_path / "seats", 4, seed=5)
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(5)
    while not campaign.position().game.finished:
        if campaign.position().game.turn == 3:
            campaign.replace_player("Bruno", "Dora", "dora@example.org")
        for name, text in order_lines(campaign, policy).items():
            campaign.record_orders(name, text)
        campaign.resolve(force=True)
    nmr: dict[str, int] = {}
    turns: dict[str, list[bool]] = {}  # per player, each turn they played: on time?
    for orders in (folder / "turns").glob("turn-*/orders.json"):
        missed: dict[str, bool] = {}
        for record in json.loads(orders.read_text(encoding="utf-8")).values():
            late = record["status"] == "nmr"
            nmr[record["player"]] = nmr.get(record["player"], 0) + late
            missed[record["player"]] = missed.get(record["player"], False) or late
        for name, late in missed.items():
            turns.setdefault(name, []).append(not late)
    out = tmp_path / "site"
    build_site(folder, out)
    with chromium(*DESKTOP) as driver:
        driver.get((out / "index.html").as_uri())
        driver.find_element(By.LINK_TEXT, "Players").click()
        assert driver.find_element(By.TAG_NAME, "h1").text == "Players"
        rows = {
            row.find_element(By.TAG_NAME, "th").text: [td.text for td in row.find_elements(By.TAG_NAME, "td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "table.players tbody tr")
        }
        assert sorted(rows) == ["Arthur", "Bruno", "Chloé", "Dominik", "Dora"]
        assert {name: int(cells[1]) for name, cells in rows.items()} == {n: nmr.get(n, 0) for n in rows}
        on_time = {n: f"{sum(t)} of {len(t)} ({100 * sum(t) / len(t):.0f}%)" for n, t in turns.items()}
        assert {name: cells[0] for name, cells in rows.items()} == on_time
        assert rows["Bruno"][3] == "left the seat" and len(turns["Bruno"]) == 2  # turns 1 and 2
        winners = campaign.export()["winners"]
        assert [n for n, cells in rows.items() if cells[3] == "won"] == winners
        assert "@" not in driver.page_source  # no address on the site
        as_phone(driver)
        driver.refresh()
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= PHONE[0], width
