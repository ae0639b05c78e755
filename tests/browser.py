"""A real headless browser for the site tests: Debian's chromium, driven by selenium.

Never downloads a browser or a driver: the paths are given explicitly, so
selenium-manager is never asked for one. Every run gets a new empty profile,
and the flags keep chromium from calling home (no sync, no component update,
no background networking).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

PHONE = (390, 844)
DESKTOP = (1280, 900)


@contextmanager
def chromium(width: int = DESKTOP[0], height: int = DESKTOP[1]) -> Iterator[webdriver.Chrome]:
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()


def full_page_screenshot(driver: webdriver.Chrome, path: Path, width: int) -> None:
    """A screenshot of the whole page at ``width`` CSS pixels (the window grows to the page's height)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height, 600), 6000))
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
