"""``python -m games.engine replay FILE|-``, ``fairness derive``, ``fairness verify FILE|-``,
``bench``, ``solve``, ``solve-seats`` and ``robots --parties N --seed S --team0 P --team1 Q``."""

from __future__ import annotations

import sys

USAGE = (
    "usage: python -m games.engine replay FILE|- | python -m games.engine fairness derive"
    " | python -m games.engine fairness verify FILE|- | python -m games.engine bench"
    " | python -m games.engine robots --parties N --seed S --team0 P --team1 Q"
    " (python -m games.engine robots --help lists P, Q)"
)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "replay":
        from .replay import run

        return run(argv[1])
    if argv[:1] == ["fairness"]:
        from .fairness import run_derive, run_verify

        if argv[1:] == ["derive"]:
            return run_derive()
        if len(argv) == 3 and argv[1] == "verify":
            return run_verify(argv[2])
    if len(argv) == 1 and argv[0] == "bench":
        from .bench import main as bench

        bench()
        return 0
    if argv == ["solve"]:
        from .solve import main as solve

        return solve(argv[1:])
    if argv == ["solve-seats"]:
        from .solve_seats import main as solve_seats

        return solve_seats(argv[1:])
    if argv[:1] == ["robots"]:
        from .robots_match import main as robots

        return robots(argv[1:])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
