#!/usr/bin/env python3
"""Summarizes an ncu source-page CSV (bench/scripts/profile_sass.sh): the kernel's executed warp
instructions and stall samples, then its basic blocks (runs of instructions with one execution
count) ordered by instructions executed, with their first instructions.
Usage: sass_hotspots.py NAME-sass.csv [TOP]"""
import csv
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    header = rows[1]
    executed = header.index("Instructions Executed")
    samples = header.index("Warp Stall Sampling (All Samples)")
    source = header.index("Source")
    lines = []
    for row in rows[2:]:
        if len(row) > executed and row[executed].isdigit():
            lines.append((int(row[executed]), int(row[samples] or 0), row[source].strip()))
    total = sum(n for n, _, _ in lines) or 1
    total_samples = sum(s for _, s, _ in lines) or 1
    print(f"{rows[0][1]}: {total} warp instructions executed, {total_samples} stall samples")
    blocks = []
    for index, (n, s, text) in enumerate(lines):
        if blocks and blocks[-1]["n"] == n and blocks[-1]["end"] == index - 1:
            block = blocks[-1]
            block["end"] = index
            block["samples"] += s
            block["text"].append(text)
        else:
            blocks.append({"start": index, "end": index, "n": n, "samples": s, "text": [text]})
    blocks.sort(key=lambda b: -b["n"] * len(b["text"]))
    print("  lines        runs  instrs  %instr  %samples  first instructions")
    for b in blocks[:top]:
        weight = b["n"] * len(b["text"])
        print(f"{b['start']:5d}-{b['end']:<5d} {b['n']:9d} {len(b['text']):6d} {100 * weight / total:6.1f}"
              f"  {100 * b['samples'] / total_samples:7.1f}   {' ; '.join(b['text'][:4])[:90]}")


if __name__ == "__main__":
    main()
