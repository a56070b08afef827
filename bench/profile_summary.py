"""`python -m bench.profile_summary FILE [N]`: the functions that take the web process's CPU in
py-spy's collapsed stacks (bench/cpu.py --profile): inclusive and own share of the samples."""

import sys
from collections import Counter


def summary(path: str, top: int = 40) -> str:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8") as lines_in:
        lines_read = lines_in.readlines()
    for line in lines_read:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = [
            frame.split(" (")[0] + " " + frame.split(" (")[-1].split(":")[0].rsplit("/", 1)[-1]
            for frame in stack.split(";")
        ]
        for frame in set(frames):
            inclusive[frame] += samples
        own[frames[-1]] += samples
    lines = [f"{total} samples"]
    lines += [f"incl {100 * n / total:5.1f}%  {f}" for f, n in inclusive.most_common(top)]
    lines += [f"own  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top // 2)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40))
