"""The HTML report at scale: how long ``arena report`` takes, how big the file is, and how
fast it opens in headless Chromium (Debian's ``chromium`` and ``chromium-driver``).

Run: ``python bench/report.py results/<run>``, or ``python bench/report.py --rounds 1000``
to play an in-process Truf tournament of that many rounds first (in a temporary
directory). Prints the build time, the file's size, the page's load time (navigation
start to the end of the load event, which includes running its scripts and drawing its
charts) and the time to open the first match's replay viewer. Measures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the browser helper

import browser  # noqa: E402

from arena.report.html import write_report  # noqa: E402


def play(rounds: int, directory: Path) -> None:
    command = ["arena", "tournament", "--in-process", "--quiet", "--seed", "1",
               "--rounds", str(rounds), "--results", str(directory)]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def open_times(page: Path, repeats: int) -> tuple[list[float], list[float]]:
    """Load times (ms) of the page, and times (ms) to show the first match's first step."""
    loads, opens = [], []
    with browser.chromium() as driver:
        for _ in range(repeats):
            driver.get(browser.url(page))
            loads.append(
                driver.execute_script(
                    "const t = performance.getEntriesByType('navigation')[0];"
                    "return t.loadEventEnd - t.startTime;"
                )
            )
            parts = driver.execute_script("return window.arenaReport.timings")
            start = time.perf_counter()
            driver.find_elements("css selector", "tr.match")[0].click()
            while not driver.find_element("id", "step-label").text:
                time.sleep(0.005)
            opens.append((time.perf_counter() - start) * 1000)
            if errors := browser.console_errors(driver):
                raise SystemExit(f"console errors: {errors}")
    print(f"drawing each part (ms, last load): {parts}")
    return loads, opens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, help="a results directory")
    parser.add_argument("--rounds", type=int, default=1000, help="without DIR: rounds to play")
    parser.add_argument("--repeats", type=int, default=5, help="page loads to time")
    args = parser.parse_args()
    if why := browser.missing():
        raise SystemExit(f"no browser: {why}; install: {browser.INSTALL}")
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.directory
        if directory is None:
            directory = Path(tmp) / "run"
            start = time.perf_counter()
            play(args.rounds, directory)
            print(f"played {args.rounds} rounds in {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        page = write_report(directory)
        built = time.perf_counter() - start
        replays = (directory / "replays.jsonl").stat().st_size
        print(f"report built in {built:.2f} s: {page.stat().st_size / 1e6:.2f} MB "
              f"(replays.jsonl {replays / 1e6:.2f} MB)")  # fmt: skip
        loads, opens = open_times(page, args.repeats)
        print(f"page load in Chromium: median {statistics.median(loads):.0f} ms, "
              f"max {max(loads):.0f} ms over {len(loads)} loads")  # fmt: skip
        print(f"first match's viewer shown: median {statistics.median(opens):.0f} ms")


if __name__ == "__main__":
    main()
