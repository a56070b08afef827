"""`python -m bench.review`: the CPU a partie's review costs (docs/review.md).

Without options, robots play parties with the engine alone; each is then reviewed in this
process, for one person's seat (a practice partie) and for four (a partie of four people),
with the analysis' own sample count: per partie the decisions, CPU and wall time, then the mean
CPU of one decision. `--live`: the whole path on the real stack (bench.review_live)."""

import argparse
import statistics
import sys
import time

from bench.robot_parties import robot_partie
from games.engine import review
from games.engine.robot import build_tables


def main() -> None:
    if "--live" in sys.argv:
        from bench import review_live

        sys.argv.remove("--live")
        review_live.main()
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--parties", type=int, default=6)
    parser.add_argument("--samples", type=int, default=review.SAMPLES)
    args = parser.parse_args()
    build_tables()
    per_decision = []
    for seed in range(1, args.parties + 1):
        state = robot_partie(seed, 4 if seed % 2 else 8)
        for seats in ({0}, {0, 1, 2, 3}):
            cpu, wall = time.process_time(), time.monotonic()
            found = review.review_seats(state, seats, samples=args.samples)
            cpu, wall = time.process_time() - cpu, time.monotonic() - wall
            count = sum(len(rows) for rows in found.values())
            per_decision.append(cpu / count)
            print(
                f"partie {seed}: {state['hand_number']} hands, seats {sorted(seats)}: "
                f"{count} decisions, cpu {cpu:.1f} s, wall {wall:.1f} s"
            )
    mean = statistics.mean(per_decision)
    print(f"samples={args.samples} cpu_per_decision_ms={1000 * mean:.0f}")


if __name__ == "__main__":
    main()
