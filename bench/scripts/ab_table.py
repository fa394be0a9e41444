#!/usr/bin/env python3
"""Side-by-side table of `deepselect bench` logs of several builds (compare_builds.sh writes one
per build): us per call for each shape, distribution and k, each build's ratio to the first, and
the geometric mean of those ratios. With --turns, the logs of an A/B run in turns (BASE_1
OTHER_1 BASE_2 OTHER_2 ...): each result's ratio in each turn to that turn's base, and the gate
for landing OTHER. A template change rewrites kernels it does not touch, and those move either
way (bench/results/NOTES.md, v167-v169), so the gate judges the results the change targets
(--targets, a regular expression on a result's line; every result without it) by their
geometric mean, below 0.995 in every turn, and the rest by theirs, at most 1.002 in every turn;
no result may be more than 2% slower in every turn, and those more than 0.5% slower are listed.
Usage: ab_table.py BASE.log OTHER.log [MORE.log ...]
       ab_table.py --turns [--targets REGEX] BASE_1.log OTHER_1.log BASE_2.log OTHER_2.log [...]"""
import math
import os
import re
import sys


def results(path):
    """{(shape, dist, k, dtype, rows, n, order, kind): (us, floor_us)} from one bench log."""
    rows = {}
    for line in open(path):
        fields = line.split()
        # shape dist rows x n k dtype order kind us/call GB/s floor /floor check
        if len(fields) < 14 or fields[3] != "x" or not fields[0].startswith(("dsa", "sample", "custom")):
            continue
        key = (fields[0], fields[1], fields[5], fields[6], fields[2], fields[4], fields[7], fields[8])
        rows[key] = (float(fields[9]), float(fields[11]))
    return rows


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


def turns(logs, targets):
    """Prints the per-turn table and the gate; returns whether OTHER passes it."""
    tables = [results(path) for path in logs]
    bases, others = tables[0::2], tables[1::2]
    keys = [key for key in bases[0] if all(key in table for table in tables)]
    ratios = {key: [o[key][0] / b[key][0] for b, o in zip(bases, others)] for key in keys}
    labels = {key: f"{key[0]:<17} {key[1]:<10} {key[2]:>5} {key[3]:<5} {key[6]}" for key in keys}
    for key, per_turn in sorted(ratios.items(), key=lambda item: -min(item[1])):
        print(f"{labels[key]:<50}" + "".join(f" {r:>7.3f}" for r in per_turn))
    targeted = {key for key in keys if targets is None or re.search(targets, labels[key])}

    def means(chosen):
        return [geometric_mean([ratios[key][t] for key in chosen]) for t in range(len(bases))]

    target_means, rest_means = means(targeted), means(set(keys) - targeted)
    slower = [key for key, per_turn in ratios.items() if min(per_turn) > 1.005]
    harmed = [key for key in slower if min(ratios[key]) > 1.02]
    rest_kept = len(targeted) == len(keys) or max(rest_means) <= 1.002
    passes = max(target_means) < 0.995 and rest_kept and not harmed
    print(f"targets ({len(targeted)}), geometric mean per turn:",
          *(f"{m:.4f}" for m in target_means))
    if len(targeted) < len(keys):
        print(f"the rest ({len(keys) - len(targeted)}), geometric mean per turn:",
              *(f"{m:.4f}" for m in rest_means))
    print(f"slower than the base by more than 0.5% in every turn: {len(slower)}")
    for key in slower:
        print("  " + labels[key])
    print(f"slower by more than 2% in every turn: {len(harmed)}")
    print("GATE", "pass" if passes else "fail")
    return passes


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--turns":
        args = sys.argv[2:]
        targets = None
        if args[:1] == ["--targets"] and len(args) > 1:
            targets, args = args[1], args[2:]
        if len(args) < 2 or len(args) % 2 != 0:
            sys.exit(__doc__)
        turns(args, targets)
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    logs = sys.argv[1:]
    tables = [results(path) for path in logs]
    # deepselect_main.log -> "main"; the current build's deepselect.log -> "deepselect".
    names = [os.path.splitext(os.path.basename(path))[0] for path in logs]
    names = [name.removeprefix("deepselect_")[:12] for name in names]
    header = f"{'shape':<17} {'dist':<10} {'k':>5} {'dtype':<5} {'floor':>7}"
    header += "".join(f" {name:>12}" for name in names)
    header += "".join(f" {'/' + names[0][:8]:>9}" for _ in names[1:])
    print(header)
    ratios = [[] for _ in names[1:]]
    for key, (base_us, floor_us) in tables[0].items():
        times = [table.get(key, (math.nan, 0.0))[0] for table in tables]
        line = f"{key[0]:<17} {key[1]:<10} {key[2]:>5} {key[3]:<5} {floor_us:>7.2f}"
        line += "".join(f" {us:>12.2f}" for us in times)
        for i, us in enumerate(times[1:]):
            ratio = us / base_us
            line += f" {ratio:>9.3f}"
            if not math.isnan(ratio):
                ratios[i].append(ratio)
        print(line)
    summary = f"{'geometric mean of the ratios':<48}" + " " * 13 * len(names)
    for values in ratios:
        summary += f" {geometric_mean(values):>9.3f}"
    print(summary)


if __name__ == "__main__":
    main()
