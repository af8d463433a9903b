"""bench/flood.py runs a calm and a flooded tournament per flood and reports their ratio,
with what the flooder's calls came back with. At a tiny size, to check that it works:
speed is the bench's to report, never a test's."""

from __future__ import annotations

import ast
import re
import subprocess

from procs import run_bench


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return run_bench("flood.py", "--rounds", "1", "--deals", "1", "--repeat", "1", *args,
                     timeout=180)  # fmt: skip


def test_the_flood_bench_reports_each_flood_against_calm() -> None:
    out = bench("--floods", "junk,bad-hello,continuation", "--sources", "4")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    calm = r"calm [\d,]+/s [\d,]+ us CPU referee [\d,]+ MB [\d,]+ fds honest faults \d+"
    assert re.match(rf"#1 {calm}  junk [\d,]+/s .* ratio \d+\.\d\d", lines[1]), lines[1]
    # The flooder's calls: the first hellos are refused for their version, then the
    # address is refused outright.
    assert "FAILED_PRECONDITION" in lines[2] and "UNAVAILABLE" in lines[2], lines[2]
    # The raw HTTP/2 attacker reports the frames it sent a second.
    assert "'frames_per_second'" in lines[3], lines[3]
    assert re.fullmatch(
        r"  bad-hello +\d+\.\d\d \(CPU \d+\.\d\d\) peak [\d,]+ MB [\d,]+ fds, faults \d+",
        lines[-2],
    ), lines


def test_the_connection_floods_hold_connections_and_count_the_referees_descriptors() -> None:
    """Two attacker processes share the connections (10,000 each at most), and the
    referee's open file descriptors are reported: with 12,000 asked for at a tiny rate,
    what was made and what the server closed are counted in one report."""
    out = bench("--floods", "connections,churn", "--sources", "4", "--connections", "12000",
                "--dial-rate", "400")  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "12,000 connections, 400 dials/s" in lines[0], lines[0]
    held = re.search(r"connections [\d,]+/s .* referee [\d,]+ MB ([\d,]+) fds .*(\{.*\})", lines[1])
    assert held, lines[1]
    report = ast.literal_eval(held.group(2))
    assert report.get("connections", 0) > 0 and "error" not in report, report
    assert int(held.group(1).replace(",", "")) > 0
    assert "'connections'" in lines[2] and "error" not in lines[2], lines[2]


def test_an_unknown_flood_is_an_error_not_a_traceback() -> None:
    out = bench("--floods", "smurf")
    assert out.returncode == 2
    assert "unknown flood(s): smurf" in out.stderr and "Traceback" not in out.stderr
