"""How strong is Truco's ``pimc``: in-process tournaments against shrewd, basic and random.

One seeded ``arena tournament --in-process`` per seat count (2, 4 and 6, R2; at six, two
pimc, two shrewd, basic and random, each compared by its best-placed copy), reported by
``bench/strength.py``: the leaderboard's order, wins and points per hand, and the
leaderboard's own probability that pimc is the better player. Issue 30's goal: pimc
first, with P(better than shrewd) >= 0.99, at every seat count, over 200 rounds.

Run: ``python bench/truco_strength.py [--rounds 200] [--seats 2 --seats 4]
[--pimc pimc:budget=0.05] [--minutes M] [--results DIR]``. Long: pimc thinks 50 ms a
decision; ``--minutes`` stops each tournament then and rates the matches played.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/strength.py, run as a script

from strength import parse, run_form, strength_parser  # noqa: E402

OPPONENTS = ("shrewd", "basic", "random")
SIX = (
    "shrewd",
    "shrewd",
    "basic",
    "random",
)  # six seats need six entrants: two of each search and best


def main() -> None:
    parser = strength_parser(__doc__, "SEATS")
    parser.add_argument("--seats", type=int, choices=(2, 4, 6), action="append")
    args = parse(parser)
    with tempfile.TemporaryDirectory() as tmp:
        base = args.results or Path(tmp)
        met = [
            run_form(
                "truco",
                f"{seats} seats",
                ["--seats", str(seats)],
                (args.pimc, *OPPONENTS) if seats < 6 else (args.pimc, args.pimc, *SIX),
                "shrewd",
                args.rounds,
                args.seed,
                base / str(seats),
                "hand",
                args.minutes,
            )  # fmt: skip
            for seats in args.seats or (2, 4, 6)
        ]
    raise SystemExit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
