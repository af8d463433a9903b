"""How strong is Ruff's ``pimc``: in-process tournaments against sharp, steady and random.

One seeded ``arena tournament --in-process`` per form (double; single at 2, 3 and 4
seats, F1), reported by ``bench/strength.py``: the leaderboard's order, wins and points
per deal, and the leaderboard's own probability that pimc is the better player. Issue
30's goal: pimc first, with P(better than sharp) >= 0.99, in every form, over 200 rounds.

Run: ``python bench/ruff_strength.py [--rounds 200] [--form double --form single-3]
[--pimc pimc:budget=0.05] [--minutes M] [--results DIR]``. Long: pimc thinks 50 ms a
decision; ``--minutes`` stops each tournament then and rates the matches played.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/strength.py, run as a script

from strength import parse, run_form, strength_parser  # noqa: E402

OPPONENTS = ("sharp", "steady", "random")
# The search entrant: a fixed number of worlds, so that the figures do not depend on how
# busy the machine is and the bench can run at the lowest priority. 70 is about what its
# default 50 ms bought in the middle of a deal's play (median worlds a card decision: 68 in
# double, 114 at 2 seats, 80 at 3; 2026-11-25, under the quiet lock).
PIMC = "pimc:samples=70"
FORMS = {
    "double": ["--form", "double"],
    "single-2": ["--form", "single", "--seats", "2"],
    "single-3": ["--form", "single", "--seats", "3"],
    "single-4": ["--form", "single", "--seats", "4"],
}


def main() -> None:
    parser = strength_parser(__doc__, "FORM")
    parser.add_argument("--form", choices=sorted(FORMS), action="append")
    parser.set_defaults(pimc=PIMC)
    args = parse(parser)
    with tempfile.TemporaryDirectory() as tmp:
        base = args.results or Path(tmp)
        met = [
            run_form(
                "ruff",
                form,
                FORMS[form],
                (args.pimc, *OPPONENTS),
                "sharp",
                args.rounds,
                args.seed,
                base / form,
                "deal",
                args.minutes,
            )  # fmt: skip
            for form in args.form or tuple(FORMS)
        ]
    raise SystemExit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
