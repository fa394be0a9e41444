#!/usr/bin/env python3
"""Side-by-side table of `deepselect bench` logs of several builds (compare_builds.sh writes one
per build): us per call for each shape, distribution and k, each build's ratio to the first, and
the geometric mean of those ratios.
Usage: ab_table.py BASE.log OTHER.log [MORE.log ...]"""
import math
import os
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


def main():
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
        mean = math.exp(sum(math.log(r) for r in values) / len(values)) if values else math.nan
        summary += f" {mean:>9.3f}"
    print(summary)


if __name__ == "__main__":
    main()
