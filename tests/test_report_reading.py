"""The report as a reader sees it, in headless Chromium at a laptop's width (1366 px) and
a phone's (390 px), for every game: nothing scrolls sideways that should not, the rating
chart's axis fits the lines, the subtitle speaks words, the Truco viewer names its cards
and suits, teams are not marked in an entrant's colour, and the highlight means one thing
in every viewer. Each width's screenshot of each game is saved (the path is printed)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import browser
import pytest
from conftest import MissingTool
from test_report import (  # noqa: F401  (module fixtures, run again for this module)
    arena,
    needs_browser,
    open_match,
    press,
    ruff_runs,
    script_json,
    step_label,
    truco_run,
    truf_run,
)

LAPTOP, PHONE = 1366, 390


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("report-reading")
    print(f"screenshots of the report: {where}")
    return where


@pytest.fixture(scope="module")
def faulty_truco(truco_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """The Truco run with faults written into two match lines: the widest leaderboard."""
    run = tmp_path_factory.mktemp("faulty") / "run"
    shutil.copytree(truco_run, run)
    path = run / "matches.jsonl"
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    lines[0]["faults"]["timeout"][1] = 12
    lines[0]["faults"]["illegal"][0] = 3
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    (run / "leaderboard.json").unlink()  # rebuilt from the matches
    assert arena("report", str(run))[0] == 0
    return run


def runs_of(
    truf_run: Path,  # noqa: F811
    truco_run: Path,  # noqa: F811
    ruff_runs: list[Path],  # noqa: F811
    faulty_truco: Path,
) -> dict[str, Path]:
    return {
        "truf": truf_run,
        "truco": truco_run,
        "ruff": ruff_runs[0],
        "truco-faults": faulty_truco,
    }


def at_width(driver: Any, width: int) -> None:
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 640}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def overflow(driver: Any, element_id: str) -> int:
    """How many pixels the element's content is wider than the element."""
    return int(
        driver.execute_script(
            "const e = document.getElementById(arguments[0]); return e.scrollWidth - e.clientWidth",
            element_id,
        )
    )


def test_every_report_fits_a_laptop_and_a_phone(
    truf_run: Path,  # noqa: F811
    truco_run: Path,  # noqa: F811
    ruff_runs: list[Path],  # noqa: F811
    faulty_truco: Path,
    shots: Path,
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    with browser.chromium(LAPTOP, 900) as driver:
        for name, run in runs_of(truf_run, truco_run, ruff_runs, faulty_truco).items():
            for width in (LAPTOP, PHONE):
                at_width(driver, width)
                driver.get(browser.url(run / "report.html"))
                assert browser.console_errors(driver) == []
                page = driver.execute_script(
                    "return document.documentElement.scrollWidth - window.innerWidth"
                )
                assert page <= 0, f"{name} at {width} px: the page scrolls sideways"
                if width == LAPTOP:  # every column of the leaderboard in sight
                    assert overflow(driver, "leaderboard-table") <= 0, name
                # The match list's results (the scores) in sight, at both widths.
                assert overflow(driver, "match-table") <= 0, f"{name} at {width} px"
                driver.save_screenshot(str(shots / f"{name}-{width}.png"))
        # The folded fault column says what happened, in words.
        at_width(driver, LAPTOP)
        driver.get(browser.url(faulty_truco / "report.html"))
        table = driver.find_element("id", "leaderboard-table").text
        assert "12 timeouts" in table and "3 illegal" in table, table


def test_without_faults_the_leaderboard_says_so_instead_of_zero_columns(
    truf_run: Path,  # noqa: F811
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    with browser.chromium(LAPTOP, 900) as driver:
        driver.get(browser.url(truf_run / "report.html"))
        head = driver.find_element("css selector", "#leaderboard-table thead").text
        assert "timeouts" not in head and "faults" not in head, head
        assert "No faults" in driver.find_element("id", "leaderboard").text


def test_the_rating_axis_fits_the_lines_not_the_first_matchs_band(
    truf_run: Path,  # noqa: F811
    truco_run: Path,  # noqa: F811
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    with browser.chromium(LAPTOP, 900) as driver:
        for run in (truf_run, truco_run):
            driver.get(browser.url(run / "report.html"))
            low, high = driver.execute_script("return window.arenaReport.ratingRange()")
            ratings = script_json((run / "report.html").read_text("utf-8"), "summary")["ratings"]
            every_mu = [m for mus in ratings["mu"].values() for m in mus]
            assert low <= min(every_mu) and max(every_mu) <= high  # every line in sight
            start = next(iter(ratings["sigma"].values()))[0]
            first = next(iter(ratings["mu"].values()))[0]
            # Not stretched to the start's ±3σ (25 ± 25): the lines would overlap.
            assert low > first - 3 * start and high < first + 3 * start, (low, high)


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("truf", ["classic variant", "4 deals a match", "scoring method 1 (C13)"]),
        ("truco", ["4 seats", "to 15 points", "envido: the seed's count (R9)"]),
        ("ruff", ["double form (F1)", "4 seats", "set of 52 points (F9)"]),
    ],
)
def test_the_subtitle_says_the_rules_in_words_not_keys(
    truf_run: Path,  # noqa: F811
    truco_run: Path,  # noqa: F811
    ruff_runs: list[Path],  # noqa: F811
    game: str,
    words: list[str],
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    run = {"truf": truf_run, "truco": truco_run, "ruff": ruff_runs[0]}[game]
    with browser.chromium(LAPTOP, 900) as driver:
        driver.get(browser.url(run / "report.html"))
        subtitle = driver.find_element("id", "subtitle").text
    assert "_" not in subtitle, subtitle  # envido_count, tied_hands, alt_deals
    assert "seed 7" in subtitle and all(w in subtitle for w in words), subtitle


def entrant_colours(driver: Any) -> set[str]:
    return set(
        driver.execute_script(
            "return [...document.querySelectorAll('.chip i')].map(i => getComputedStyle(i)"
            ".backgroundColor)"
        )
    )


def stripe_colours(driver: Any, seats: str) -> set[str]:
    return set(
        driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(s => getComputedStyle(s)"
            ".borderLeftColor)",
            seats,
        )
    )


def acted_name(driver: Any) -> str:
    (seat,) = driver.find_elements("css selector", ".seat.acted")
    return str(seat.find_element("css selector", ".chip").text)


def test_the_truco_viewer_names_cards_and_suits_and_marks_teams_apart_from_entrants(
    truco_run: Path,  # noqa: F811
    shots: Path,
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    from selenium.webdriver.common.keys import Keys

    lines = [json.loads(x) for x in (truco_run / "replays.jsonl").read_text("utf-8").splitlines()]
    rec = lines[0]
    seat, action = rec["plays"][0]["actions"][0]
    assert action.startswith("play ")
    with browser.chromium(LAPTOP, 900) as driver:
        driver.get(browser.url(truco_run / "report.html"))
        open_match(driver, rec["match"], rec["deal"])
        press(driver, Keys.ARROW_RIGHT)
        label = step_label(driver)
        assert f"{rec['seats'][seat]} plays " in label and " of " in label, label
        assert not re.search(r"\b\d+[EBOC]\b", label), label  # no results-file codes
        legend = driver.find_element("css selector", ".suit-legend").text
        for suit in ("swords", "clubs", "coins", "cups"):
            assert suit in legend, legend
        # The highlight: the seat whose action the step shows, as in every viewer.
        assert acted_name(driver) == rec["seats"][seat]
        stripes = stripe_colours(driver, ".truco-seats .seat")
        assert len(stripes) == 2 and not stripes & entrant_colours(driver), stripes
        driver.save_screenshot(str(shots / "truco-viewer-1366.png"))
        at_width(driver, PHONE)
        driver.save_screenshot(str(shots / "truco-viewer-390.png"))


def test_the_highlight_is_the_seat_that_just_acted_in_truf_and_ruff(
    truf_run: Path,  # noqa: F811
    ruff_runs: list[Path],  # noqa: F811
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    from selenium.webdriver.common.keys import Keys

    with browser.chromium(LAPTOP, 900) as driver:
        rec = json.loads((truf_run / "replays.jsonl").read_text("utf-8").splitlines()[0])
        driver.get(browser.url(truf_run / "report.html"))
        open_match(driver, rec["match"], rec["deal"])
        assert driver.find_elements("css selector", ".seat.acted") == []  # the bids: all
        press(driver, Keys.ARROW_RIGHT, 3)  # trick 1, card 3
        third = rec["seats"][rec["tricks"][0]["cards"][2][0]]
        assert acted_name(driver) == third
        assert f"trick 1 · card 3: {third} plays " in step_label(driver)  # the label says who

        run = ruff_runs[0]
        rec = next(
            json.loads(x)
            for x in (run / "replays.jsonl").read_text("utf-8").splitlines()
            if json.loads(x)["ended"] == "played"
        )
        driver.get(browser.url(run / "report.html"))
        open_match(driver, rec["match"], rec["deal"])
        press(driver, Keys.ARROW_RIGHT)  # the first announcement (F4)
        assert acted_name(driver) == rec["seats"][rec["announcements"][0][0]]
        stripes = stripe_colours(driver, ".ruff-seat")  # the double form's two sides
        assert len(stripes) == 2 and not stripes & entrant_colours(driver), stripes


def test_an_empty_filter_result_says_so_in_words(
    truf_run: Path,  # noqa: F811
    missing_tool: MissingTool,
) -> None:
    needs_browser(missing_tool)
    with browser.chromium(LAPTOP, 900) as driver:
        driver.get(browser.url(truf_run / "report.html"))
        driver.find_element("id", "match-filter").send_keys("no such bot")
        text = driver.find_element("id", "matches").text
        assert "0 of 0" not in text
        assert "No match has “no such bot” in its id or entrants (of 3)." in text, text
