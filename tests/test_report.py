"""The HTML report (``arena report DIR``): built from the results files alone, one
offline file, a one-line error for a broken file; and in a real browser (headless
Chromium): no console errors, a match opens, arrow keys step through a deal."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
import shutil
import zlib
from pathlib import Path
from typing import Any

import browser
import pytest
from conftest import MissingTool
from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import REGISTRY
from arena.standings.leaderboard import headers_of

runner = CliRunner()


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def tournament(out: Path, *extra: str) -> Path:
    code, text = arena("tournament", "--in-process", "--seed", "7", "--results", str(out),
                       "--quiet", *extra)  # fmt: skip
    assert code == 0, text
    return out


@pytest.fixture(scope="module")
def truf_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament(tmp_path_factory.mktemp("truf") / "run", "--rounds", "3", "--deals", "4")


@pytest.fixture(scope="module")
def truco_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament(tmp_path_factory.mktemp("truco") / "run", "--game", "truco",
                      "--rounds", "2", "--points", "15")  # fmt: skip


@pytest.fixture(scope="module")
def ruff_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Ruff and Trump in double (partners, F1) and single with three seats."""
    where = tmp_path_factory.mktemp("ruff")
    single = ("--form", "single", "--seats", "3")
    return [
        tournament(where / "double", "--game", "ruff", "--rounds", "2"),
        tournament(where / "single3", "--game", "ruff", *single, "--rounds", "2"),
    ]


def script_json(page: str, element_id: str) -> Any:
    pattern = rf'<script id="{element_id}" type="application/json">(.*?)</script>'
    found = re.search(pattern, page, re.S)
    assert found, element_id
    return json.loads(found.group(1))


def copy_run(run: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(run, target)
    (target / "report.html").unlink()
    return target


# --- the file ------------------------------------------------------------------------


def test_a_finished_tournament_writes_the_report_and_prints_its_path(truf_run: Path) -> None:
    assert (truf_run / "report.html").is_file()
    code, text = arena("tournament", "--in-process", "--seed", "7", "--rounds", "1", "--deals",
                       "1", "--results", str(truf_run.parent / "again"), "--quiet")  # fmt: skip
    assert code == 0
    assert f"report: {truf_run.parent / 'again' / 'report.html'}" in text


def test_the_report_loads_nothing_from_outside_the_file(truf_run: Path) -> None:
    page = (truf_run / "report.html").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page
    assert "uPlot" in page  # the charting library is inside


def test_the_leaderboard_has_the_terminals_columns_of_each_game(
    truf_run: Path, truco_run: Path
) -> None:
    for run in (truf_run, truco_run):
        summary = script_json((run / "report.html").read_text(encoding="utf-8"), "summary")
        board = json.loads((run / "leaderboard.json").read_text(encoding="utf-8"))
        shown = [c["header"] for c in summary["leaderboard"]["columns"]]
        assert shown == [h for _, h in headers_of(list(board["rows"][0]))]
        assert [r[1] for r in summary["leaderboard"]["rows"]] == [r["bot"] for r in board["rows"]]
    assert "for/hand" in shown  # Truco's own stat columns, from the registry


def test_each_match_carries_its_own_deals_compressed(truf_run: Path) -> None:
    page = (truf_run / "report.html").read_text(encoding="utf-8")
    packed = script_json(page, "replays")
    lines = [json.loads(x) for x in (truf_run / "replays.jsonl").read_text().splitlines()]
    assert sorted(packed) == sorted({r["match"] for r in lines})
    for match, blob in packed.items():
        text = zlib.decompress(base64.b64decode(blob)).decode("utf-8")
        mine = [r for r in lines if r["match"] == match]
        assert [json.loads(x) for x in text.split("\n")] == mine


def test_the_rating_history_ends_at_the_leaderboards_ratings(truf_run: Path) -> None:
    page = (truf_run / "report.html").read_text(encoding="utf-8")
    summary = script_json(page, "summary")
    board = json.loads((truf_run / "leaderboard.json").read_text(encoding="utf-8"))
    for row in board["rows"]:
        assert summary["ratings"]["mu"][row["bot"]][-1] == pytest.approx(row["mu"], abs=0.01)
        assert summary["ratings"]["sigma"][row["bot"]][-1] == pytest.approx(row["sigma"], abs=0.01)
    assert len(summary["ratings"]["labels"]) == 1 + len(summary["matches"])


def test_head_to_head_counts_who_finished_above_whom(truf_run: Path) -> None:
    summary = script_json((truf_run / "report.html").read_text(encoding="utf-8"), "summary")
    names = summary["entrants"]
    matches = [json.loads(x) for x in (truf_run / "matches.jsonl").read_text().splitlines()]
    a, b = names[0], names[1]
    shared = [m for m in matches if a in m["seats"] and b in m["seats"]]
    above = sum(m["ranks"][m["seats"].index(a)] < m["ranks"][m["seats"].index(b)] for m in shared)
    assert summary["h2h"]["shared"][0][1] == len(shared)
    assert summary["h2h"]["above"][0][1] == above


def test_bids_against_tricks_count_every_seat_of_every_deal(truf_run: Path) -> None:
    summary = script_json((truf_run / "report.html").read_text(encoding="utf-8"), "summary")
    deals = [json.loads(x) for x in (truf_run / "replays.jsonl").read_text().splitlines()]
    name = summary["entrants"][0]
    mine = [(d["final_bids"][s], d["tricks_won"][s]) for d in deals
            for s in range(4) if d["seats"][s] == name]  # fmt: skip
    counted = {(b, t): c for b, t, c in summary["outcomes"][name]["bids"]}
    assert sum(counted.values()) == len(mine)
    assert counted[mine[0]] == mine.count(mine[0])


def test_the_fault_log_lists_each_fault_with_its_entrant(truf_run: Path, tmp_path: Path) -> None:
    run = copy_run(truf_run, tmp_path)
    lines = (run / "replays.jsonl").read_text().splitlines()
    deal = json.loads(lines[0])
    fault = {"seat": 2, "kind": "timeout", "detail": "no answer in 1.0 s", "deal": 1,
             "strikes": 1, "disqualified": False}  # fmt: skip
    deal["faults"] = [fault]
    lines[0] = json.dumps(deal, separators=(",", ":"))
    (run / "replays.jsonl").write_text("\n".join(lines) + "\n")
    assert arena("report", str(run))[0] == 0
    faults = script_json((run / "report.html").read_text(encoding="utf-8"), "summary")["faults"]
    assert faults == {
        "rows": [[deal["match"], 1, deal["seats"][2], "timeout", "no answer in 1.0 s", 1, False]],
        "total": 1,
    }


def test_a_bot_name_cannot_break_out_of_the_page(truf_run: Path, tmp_path: Path) -> None:
    run = copy_run(truf_run, tmp_path)
    (run / "tournament.json").unlink()  # copied results without it still make a report
    hostile = "</script><script>alert(1)</script>"
    for name in ("matches.jsonl", "replays.jsonl"):
        path = run / name
        path.write_text(path.read_text().replace('"random"', json.dumps(hostile)))
    code, text = arena("report", str(run))
    assert code == 0, text
    page = (run / "report.html").read_text(encoding="utf-8")
    assert hostile not in page
    assert hostile in script_json(page, "summary")["entrants"]


def test_an_unfinished_matchs_deal_lines_are_left_out(truf_run: Path, tmp_path: Path) -> None:
    run = copy_run(truf_run, tmp_path)
    first = (run / "replays.jsonl").read_text().splitlines()[0]
    with open(run / "replays.jsonl", "a") as f:
        f.write(first.replace('"r0001-t01"', '"r0099-t01"') + "\n")
    assert arena("report", str(run))[0] == 0
    packed = script_json((run / "report.html").read_text(encoding="utf-8"), "replays")
    assert "r0099-t01" not in packed


@pytest.mark.parametrize(
    ("name", "damage", "expected"),
    [
        ("matches.jsonl", lambda t: t.replace("}\n", "}\n{oops\n", 1),
         r"matches\.jsonl line 2: not valid JSON"),
        ("replays.jsonl", lambda t: t.replace('"scores"', '"scorez"', 1),
         r"replays\.jsonl line 1: .*'scores'"),
        ("replays.jsonl", lambda t: "[1]\n" + t, r"replays\.jsonl line 1: expected a JSON object"),
        ("tournament.json", lambda t: t[:-5], r"tournament\.json line \d+: not valid JSON"),
    ],
)  # fmt: skip
def test_a_broken_results_file_is_one_line_naming_the_file_and_line(
    truf_run: Path, tmp_path: Path, name: str, damage: Any, expected: str
) -> None:
    run = copy_run(truf_run, tmp_path)
    (run / name).write_text(damage((run / name).read_text()))
    code, text = arena("report", str(run))
    assert code == 1
    assert len(text.strip().splitlines()) == 1 and "Traceback" not in text
    assert re.search(expected, text), text
    assert not (run / "report.html").exists()


def test_a_directory_without_results_is_refused(tmp_path: Path) -> None:
    code, text = arena("report", str(tmp_path))
    assert code == 1 and "no matches.jsonl" in text
    code, text = arena("report", str(tmp_path / "nowhere"))
    assert code == 1 and "is not a directory" in text


def without_viewer(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """As a game that has no replay view yet (Ruff and Trump's, while it is being added)."""
    entry = dataclasses.replace(REGISTRY[game], viewer=None)
    monkeypatch.setitem(REGISTRY, game, entry)


def test_a_game_without_a_viewer_still_gets_a_report(
    truco_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_viewer(monkeypatch, "truco")
    run = copy_run(truco_run, tmp_path)
    assert arena("report", str(run))[0] == 0
    page = (run / "report.html").read_text(encoding="utf-8")
    assert script_json(page, "summary")["viewer"] is None
    assert "arenaViewers.truco =" not in page


# --- in a real browser ---------------------------------------------------------------


@pytest.fixture
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("report-screenshots")
    print(f"screenshots of the report: {where}")
    return where


def needs_browser(missing_tool: MissingTool) -> None:
    why = browser.missing()
    if why:
        missing_tool(f"the report's browser test needs Chromium ({why})", browser.INSTALL)


def step_label(driver: Any) -> str:
    return str(driver.find_element("id", "step-label").text)


def press(driver: Any, key: str, times: int = 1) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(times):
        ActionChains(driver).send_keys(key).perform()


def open_first_match(driver: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_elements("css selector", "tr.match")[0].click()
    WebDriverWait(driver, 10).until(
        lambda d: step_label(d) or d.find_elements("css selector", "#viewer-body .note")
    )


def test_the_truf_report_in_chromium(
    truf_run: Path, shots: Path, missing_tool: MissingTool
) -> None:
    needs_browser(missing_tool)
    from selenium.webdriver.common.keys import Keys

    summary = script_json((truf_run / "report.html").read_text(encoding="utf-8"), "summary")
    with browser.chromium(1280, 900) as driver:
        driver.get(browser.url(truf_run / "report.html"))
        assert browser.console_errors(driver) == []
        rows = driver.find_elements("css selector", "#leaderboard-table tbody tr")
        assert len(rows) == len(summary["entrants"])
        assert driver.find_elements("css selector", "#rating-chart canvas")
        assert len(driver.find_elements("css selector", "#entrant-panels canvas")) == len(rows)
        driver.save_screenshot(str(shots / "truf-overview.png"))
        search = driver.find_element("id", "match-filter")
        search.send_keys("no such bot")
        assert driver.find_elements("css selector", "tr.match") == []
        search.clear()
        search.send_keys(summary["entrants"][0])
        assert len(driver.find_elements("css selector", "tr.match")) == len(summary["matches"])

        open_first_match(driver)
        assert step_label(driver) == "Deal 1/4 · bids"
        assert len(driver.find_elements("css selector", ".seat .hand")) == 4
        press(driver, Keys.ARROW_RIGHT, 3)
        assert step_label(driver).startswith("Deal 1/4 · trick 1 · card 3: ")
        press(driver, Keys.ARROW_DOWN)
        assert step_label(driver).startswith("Deal 1/4 · trick 2 · card 1: ")
        press(driver, Keys.ARROW_LEFT)
        assert step_label(driver).startswith("Deal 1/4 · trick 1 · card 4: ")
        assert "wins" in driver.find_element("css selector", ".center .mid").text
        driver.save_screenshot(str(shots / "truf-trick.png"))
        # C11: a trump in an open trick shows face down; once the trick closes, face up.
        press(driver, Keys.HOME)
        hidden_seen = False
        for _ in range(53):  # the bids, 52 cards: to the deal's score
            backs = driver.find_elements("css selector", ".center .card.back")
            closed = "wins" in driver.find_element("css selector", ".center .mid").text
            assert not (backs and closed)
            if backs and not hidden_seen:
                hidden_seen = True
                driver.save_screenshot(str(shots / "truf-face-down.png"))
            press(driver, Keys.ARROW_RIGHT)
        assert hidden_seen
        assert step_label(driver) == "Deal 1/4 · scored"
        assert len(driver.find_elements("css selector", ".scores tbody tr")) == 1  # running totals
        press(driver, Keys.PAGE_DOWN)
        assert step_label(driver) == "Deal 2/4 · bids"
        press(driver, Keys.ESCAPE)
        assert not driver.find_element("id", "viewer").is_displayed()

        browser.as_phone(driver)
        driver.get(browser.url(truf_run / "report.html"))
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, "the page scrolls sideways on a phone"
        driver.save_screenshot(str(shots / "phone-overview.png"))
        open_first_match(driver)
        press(driver, Keys.ARROW_RIGHT, 6)
        driver.save_screenshot(str(shots / "phone-viewer.png"))
        assert browser.console_errors(driver) == []


def test_truco_and_a_game_without_a_viewer_in_chromium(
    truco_run: Path,
    tmp_path: Path,
    shots: Path,
    missing_tool: MissingTool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    needs_browser(missing_tool)
    from selenium.webdriver.common.keys import Keys

    run = copy_run(truco_run, tmp_path)
    assert arena("report", str(run))[0] == 0
    plain = tmp_path / "plain"
    shutil.copytree(run, plain)
    without_viewer(monkeypatch, "truco")
    assert arena("report", str(plain))[0] == 0
    with browser.chromium(1280, 900) as driver:
        driver.get(browser.url(run / "report.html"))
        open_first_match(driver)
        assert re.fullmatch(r"Hand 1/\d+ · dealt", step_label(driver))
        press(driver, Keys.ARROW_RIGHT, 3)
        assert "trick 1" in step_label(driver)
        assert driver.find_elements("css selector", ".log .now")
        driver.save_screenshot(str(shots / "truco-viewer.png"))
        assert browser.console_errors(driver) == []

        driver.get(browser.url(plain / "report.html"))
        open_first_match(driver)
        note = driver.find_element("css selector", "#viewer-body .note").text
        assert "replays are not yet viewable" in note
        assert browser.console_errors(driver) == []


def deal_lines(run: Path) -> list[dict[str, Any]]:
    lines = (run / "replays.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def open_match(driver: Any, match: str, deal: int = 1) -> None:
    driver.execute_script("window.arenaReport.openMatch(arguments[0], arguments[1])", match, deal)
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 10).until(step_label)


def test_ruff_reports_in_chromium(
    ruff_runs: list[Path], shots: Path, missing_tool: MissingTool
) -> None:
    needs_browser(missing_tool)
    from selenium.webdriver.common.keys import Keys

    ruff_ended = 0
    with browser.chromium(1280, 900) as driver:
        for run in ruff_runs:
            deals = deal_lines(run)
            rec = next(d for d in deals if d["ended"] == "played")
            n, name = sum(d["match"] == rec["match"] for d in deals), rec["seats"]
            at = f"Deal {rec['deal']}/{n} · "
            driver.get(browser.url(run / "report.html"))
            assert browser.console_errors(driver) == []
            # Points per deal for each entrant (Ruff has no bids: no bid table).
            assert len(driver.find_elements("css selector", "#entrant-panels canvas")) == 6
            assert not driver.find_elements("css selector", "#entrant-panels .heatmap")
            open_match(driver, rec["match"], rec["deal"])
            assert step_label(driver) == at + "dealt"
            assert len(driver.find_elements("css selector", ".ruff-seat")) == len(name)
            shown = driver.find_elements("css selector", ".ruff-seat .hand .card")
            assert len(shown) == sum(len(h) for h in rec["hands"])  # every hand, as dealt
            press(driver, Keys.ARROW_RIGHT)  # ruling F4: eldest announces first
            seat, number = rec["announcements"][0]
            assert seat == rec["eldest"]
            assert step_label(driver) == at + f"{name[seat]} announces {number}"
            press(driver, Keys.ARROW_DOWN)  # the rub (F5), then the shown ruff (F6)
            assert step_label(driver) == at + f"{name[rec['rubber']]} rubs"
            assert len(driver.find_elements("css selector", ".hand.rub .card")) == 8
            assert len(driver.find_elements("css selector", ".card.discarded")) == 4
            press(driver, Keys.ARROW_RIGHT)
            suit = driver.find_element("css selector", ".ruff-info").text
            assert "SHOWN RUFF (F6)" in suit.upper()
            press(driver, Keys.ARROW_DOWN, 2)
            assert step_label(driver) == at + "trick 2 · card 1"
            press(driver, Keys.ARROW_LEFT)
            assert step_label(driver) == at + f"trick 1 · card {len(name)}"
            winner = name[rec["tricks"][0]["winner"]]
            trick = driver.find_element("css selector", ".ruff-now").text.upper()
            assert f"TRICK 1: {winner.upper()} WINS" in trick
            driver.save_screenshot(str(shots / f"ruff-{run.name}-trick.png"))
            press(driver, Keys.PAGE_DOWN)
            press(driver, Keys.ARROW_LEFT)
            assert step_label(driver) == at + "scored"
            points = driver.find_elements("css selector", ".ruff-points tbody tr")
            assert [r.text.split()[-1] for r in points] == [str(x) for x in rec["scores"]]
            assert len(driver.find_elements("css selector", ".scores tbody tr")) == rec["deal"]
            driver.save_screenshot(str(shots / f"ruff-{run.name}-scored.png"))
            # A deal whose ruff reached the set ends there (F9): the match's last step.
            for ended in (d for d in deals if d["ended"] == "ruff"):
                ruff_ended += 1
                open_match(driver, ended["match"], ended["deal"])
                press(driver, Keys.END)
                assert step_label(driver).endswith("wins the ruff: 12 reach the set")
                assert driver.find_elements("css selector", ".ruff-set")
                driver.save_screenshot(str(shots / f"ruff-{run.name}-set-at-the-ruff.png"))
                break
            press(driver, Keys.ESCAPE)
            assert browser.console_errors(driver) == []

            browser.as_phone(driver)
            driver.get(browser.url(run / "report.html"))
            open_match(driver, rec["match"], rec["deal"])
            press(driver, Keys.ARROW_DOWN, 3)
            assert "trick 1" in step_label(driver)
            width = driver.execute_script("return document.getElementById('viewer').scrollWidth")
            assert width <= 390, "the viewer scrolls sideways on a phone"
            driver.save_screenshot(str(shots / f"ruff-{run.name}-phone.png"))
            assert browser.console_errors(driver) == []
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert ruff_ended, "seed 7 has a deal whose ruff reaches the set; pick a seed that does"


def test_the_vendored_uplot_is_the_pinned_version_with_its_licence() -> None:
    assets = Path(__file__).resolve().parent.parent / "arena" / "report" / "assets"
    pin = re.search(
        r'VERSION = "([\d.]+)"', (assets.parents[2] / "scripts" / "vendor_uplot.py").read_text()
    )
    assert pin
    head = (assets / "uPlot.iife.min.js").read_text(encoding="utf-8")[:100]
    assert f"(v{pin.group(1)})" in head
    assert "MIT" in (assets / "uPlot.LICENSE").read_text(encoding="utf-8")
