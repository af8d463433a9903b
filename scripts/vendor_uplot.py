#!/usr/bin/env python3
"""Refresh the report's vendored charting library, uPlot (MIT), from npm.

    python scripts/vendor_uplot.py           # fetch uPlot VERSION, rewrite arena/report/assets
    python scripts/vendor_uplot.py 1.6.33    # another version (then update VERSION here)

The report (``arena/report``) embeds ``uPlot.iife.min.js`` and ``uPlot.min.css`` in every
``report.html`` so that it opens offline; ``uPlot.LICENSE`` travels with them. Runs
``npm pack uplot@VERSION`` (npm's own client, checksum-verified) in a temporary directory
and copies the three files out of the package; nothing else is installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VERSION = "1.6.32"  # pinned; tests/test_report.py checks the vendored file says so
ASSETS = Path(__file__).resolve().parent.parent / "arena" / "report" / "assets"
FILES = {
    "package/dist/uPlot.iife.min.js": "uPlot.iife.min.js",
    "package/dist/uPlot.min.css": "uPlot.min.css",
    "package/LICENSE": "uPlot.LICENSE",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", nargs="?", default=VERSION)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["npm", "pack", f"uplot@{args.version}", "--silent"], cwd=tmp, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (tarball,) = Path(tmp).glob("uplot-*.tgz")
        with tarfile.open(tarball) as tar:
            for member, name in FILES.items():
                source = tar.extractfile(member)
                if source is None:
                    raise SystemExit(f"{tarball.name} has no {member}")
                with open(ASSETS / name, "wb") as target:
                    shutil.copyfileobj(source, target)
    print(f"uPlot {args.version} -> {ASSETS}")


if __name__ == "__main__":
    main()
