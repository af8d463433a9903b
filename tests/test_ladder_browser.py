"""The ladder's live page in headless Chromium (issue 31, item 6): a match that finishes
while the page is open appears without a reload, a bot's own text is shown as text,
and an entrant's page and a match's replay (the report's viewer) render."""

from __future__ import annotations

from pathlib import Path

import browser
import pytest
from conftest import MissingTool
from ladderkit import Ladder, bot, new_ladder, stop_all, until

HOSTILE_BOT = """
from bots.random import Bot as Random

class Hostile(Random):
    name = "hostile"
    version = "<img src=x onerror=alert(1)>"
"""

# The text (or a data attribute) of each element a selector finds, read in one go.
TEXT = """const [sel, key] = arguments;
return [...document.querySelectorAll(sel)].map(e => key ? e.dataset[key] : e.textContent)
  .filter(x => x);"""


def test_the_live_page_shows_a_new_match_without_a_reload(
    tmp_path: Path, missing_tool: MissingTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    why = browser.missing()
    if why:
        missing_tool(f"the ladder's browser test needs Chromium ({why})", browser.INSTALL)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    (tmp_path / "hostile.py").write_text(HOSTILE_BOT)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "h"], "--game", "truf", "--deals", "1")
    ladder = Ladder(lad)
    bots = [bot(ladder.address, tokens[n], "random") for n in "abc"]  # three: no table yet
    try:
        with browser.chromium() as driver:
            driver.get(ladder.web + "/")
            wait = WebDriverWait(driver, 60)
            wait.until(lambda d: "0 matches" in d.find_element(By.ID, "summary").text)
            driver.execute_script("window.notReloaded = true;")
            bots.append(bot(ladder.address, tokens["h"], "hostile:Hostile"))  # the fourth
            # (read in the page: the lists are redrawn as events come)
            match_id = wait.until(lambda d: d.execute_script(TEXT, "#recent li", "match"))[0]
            assert driver.execute_script("return window.notReloaded === true;")
            rows = wait.until(lambda d: d.execute_script(TEXT, "#leaderboard tr[data-label^='h@']"))
            assert "<img src=x onerror=alert(1)>" in rows[0]  # shown as text
            assert driver.find_elements(By.CSS_SELECTOR, "#leaderboard img") == []
            assert browser.console_errors(driver) == []

            driver.get(ladder.web + "/entrant/h")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#versions tbody tr"))
            assert driver.find_element(By.ID, "name").text == "h"
            assert driver.find_elements(By.CSS_SELECTOR, "#chart svg polyline")
            assert driver.find_elements(By.CSS_SELECTOR, "#versions img") == []

            driver.get(f"{ladder.web}/match/{match_id}")
            wait.until(lambda d: d.find_element(By.ID, "step-label").text)
            first = driver.find_element(By.ID, "step-label").text
            driver.find_element(By.ID, "next-step").click()
            assert driver.find_element(By.ID, "step-label").text != first
            assert driver.find_elements(By.CSS_SELECTOR, "#viewer-body *")
            assert browser.console_errors(driver) == []
    finally:
        stop_all(bots)
        ladder.stop()


# Steps through every step of the match page; the first showing a face-down card, or -1.
FIRST_BACK = """for (let i = 0; i < state.steps.length; i++) {
  show(i);
  if (document.querySelector("#viewer-body .card.back")) return i;
}
return -1;"""


def test_a_truco_match_page_draws_the_cards_no_one_saw_face_down(
    tmp_path: Path, missing_tool: MissingTool
) -> None:
    """docs/ladder.md, "What is public": the page gets the public record, whose hidden
    cards (null) the report's viewer draws face down, without an error."""
    why = browser.missing()
    if why:
        missing_tool(f"the ladder's browser test needs Chromium ({why})", browser.INSTALL)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b"], "--game", "truco", "--seats", "2", "--points", "15")
    ladder = Ladder(lad)
    bots = [bot(ladder.address, tokens[n], "random", game="truco") for n in "ab"]
    try:
        match_id = until(lambda: ladder.get("/api/matches"), what="a match")[0]["match"]
        stop_all(bots)
        hidden = sum(c is None for d in ladder.get(f"/api/match/{match_id}")["deals"]
                     for h in d["hands"] for c in h)  # fmt: skip
        assert hidden > 0
        with browser.chromium() as driver:
            driver.get(f"{ladder.web}/match/{match_id}")
            WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "step-label").text)
            assert driver.execute_script(FIRST_BACK) >= 0
            assert browser.console_errors(driver) == []
    finally:
        stop_all(bots)
        ladder.stop()
