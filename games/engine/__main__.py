"""``python -m games.engine replay FILE|-`` and ``python -m games.engine bench``."""

from __future__ import annotations

import sys

USAGE = "usage: python -m games.engine replay FILE|- | python -m games.engine bench"


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "replay":
        from .replay import run

        return run(argv[1])
    if len(argv) == 1 and argv[0] == "bench":
        from .bench import main as bench

        bench()
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
