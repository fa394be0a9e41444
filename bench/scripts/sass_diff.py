#!/usr/bin/env python3
"""Whether two builds compile the same kernels: the SASS of two `deepselect precompile --out DIR`
directories, spec by spec, with addresses and labels stripped. Prints, per spec, `same` or its
instruction counts, so a refactor that must not change the kernels can be shown not to (and a
change confined to some kernels, to stay there). nvdisasm is not in the toolkit here: pip
downloads it (`pip download --no-deps nvidia-cuda-nvdisasm`, unzip, nvidia/cu13/bin/nvdisasm).
Usage: bench/scripts/sass_diff.py DIR_A DIR_B --nvdisasm PATH [--only TEXT]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile


def cubins(directory):
    """spec text -> the cubin's ELF bytes, for every cubin file under directory."""
    found = {}
    for path in pathlib.Path(directory).rglob("*.cubin"):
        data = path.read_bytes()
        elf = data.find(b"\x7fELF")
        header = data[: elf if elf >= 0 else 0].decode("latin-1")
        spec = re.search(r"^spec=(.*)$", header, re.MULTILINE)
        if elf < 0 or spec is None:
            sys.exit(f"{path}: not a cubin of deepselect's cache (no spec line or ELF)")
        found[spec.group(1)] = data[elf:]
    return found


def instructions(nvdisasm, elf):
    """The kernel's instructions, without addresses, encodings, comments or label names."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(elf)
        file.flush()
        text = subprocess.run([nvdisasm, "-c", file.name], check=True, capture_output=True,
                              text=True).stdout
    lines = []
    for line in text.splitlines():
        line = re.sub(r"/\*[^*]*\*/", "", line).strip()
        if not line or line.startswith(".") or line.endswith(":"):
            continue
        lines.append(re.sub(r"`\([^)]*\)", "LABEL", line))
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir_a")
    parser.add_argument("dir_b")
    parser.add_argument("--nvdisasm", required=True)
    parser.add_argument("--only", default="", help="specs whose text holds this")
    args = parser.parse_args()
    a = cubins(args.dir_a)
    b = cubins(args.dir_b)
    same = 0
    for spec in sorted(set(a) | set(b)):
        if args.only not in spec:
            continue
        if spec not in a or spec not in b:
            print(f"only in {'A' if spec in a else 'B'}: {spec}")
            continue
        code_a = instructions(args.nvdisasm, a[spec])
        code_b = instructions(args.nvdisasm, b[spec])
        if code_a == code_b:
            same += 1
            print(f"same            {spec}")
        else:
            print(f"{len(code_a):6d} {len(code_b):6d}   {spec}")
    print(f"{same} specs the same")


if __name__ == "__main__":
    main()
