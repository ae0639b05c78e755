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
def browser():
    with chromium(*DESKTOP) as driver:
        yield driver


def tokens_by_turn(folder: Path) -> dict[str, list[int]]:
    """Each player's tokens after the deal and after each turn, from the GM's states."""
    turns = sorted((folder / "turns").glob("turn-*"))
    states = [json.loads((t / "state.json").read_text(encoding="utf-8")) for t in turns]
    players = states[-1]["players"]
    return {name: [s["game"]["tokens"][seat] for s in states] for seat, name in enumerate(players)}


def test_the_chart_draws_one_line_per_player_with_points_at_their_tokens(site, browser, tmp_path):
    folder, out = site
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
    full_page_screenshot(browser, tmp_path / "index-desktop.png", DESKTOP[0])


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
        for page in ("index.html", "turn-003.html", "hand-05.html", "end.html"):
            driver.get((out / page).as_uri())
            width = driver.execute_script("return document.documentElement.scrollWidth")
            inner = driver.execute_script("return window.innerWidth")
            assert width <= inner, (page, width, inner)
            text_size = driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
            assert text_size >= 16
            full_page_screenshot(driver, shots / f"{page[:-5]}-{size[0]}.png", size[0])
            driver.set_window_size(*size)
    for page in ("index", "turn-003", "hand-05", "end"):
        png = (shots / f"{page}-{size[0]}.png").read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 5000


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
