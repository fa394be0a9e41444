#!/usr/bin/env python3
"""Whether two builds compile the same kernels: the SASS of two `deepselect precompile --out DIR`
directories, spec by spec, with addresses and labels stripped. Prints, per spec, `same` or its
instruction counts and its local-memory stores and loads (STL/LDL: spills), so a refactor that
must not change the kernels can be shown not to (and a change confined to some kernels, to stay
there, and to spill no more). With --outside FILE, only the instructions that the line table
does not give to that template file are compared, and each spec prints how many of A's are not
matched, in order, in B: whether a change to one part (the sort) rewrote the rest (ptxas
allocates the whole kernel at once). nvdisasm is not in the toolkit here: pip downloads it
(`pip download --no-deps nvidia-cuda-nvdisasm`, unzip, nvidia/cu13/bin/nvdisasm).
Usage: bench/scripts/sass_diff.py DIR_A DIR_B --nvdisasm PATH [--only TEXT] [--outside FILE]
"""
import argparse
import difflib
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


def instructions(nvdisasm, elf, outside=None):
    """The kernel's instructions, without addresses, encodings, comments or label names; with
    `outside`, those the line table gives to that file (a basename) left out."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(elf)
        file.flush()
        flags = ["-g", "-c"] if outside else ["-c"]
        text = subprocess.run([nvdisasm, *flags, file.name], check=True, capture_output=True,
                              text=True).stdout
    lines = []
    in_outside = False
    for line in text.splitlines():
        source = re.search(r'//## File "([^"]+)"', line)
        if source:
            in_outside = pathlib.Path(source.group(1)).name == outside
            continue
        if in_outside:
            continue
        line = re.sub(r"/\*[^*]*\*/", "", line).strip()
        if not line or line.startswith(".") or line.endswith(":"):
            continue
        lines.append(re.sub(r"`\([^)]*\)", "LABEL", line))
    return lines


def local_accesses(code):
    """The kernel's local-memory stores and loads (register spills, mostly), as `STL/LDL`."""
    def count(op):
        return sum(1 for line in code if re.match(rf"(@!?U?P\w+\s+)?{op}\b", line))
    return f"{count('STL')}/{count('LDL')}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir_a")
    parser.add_argument("dir_b")
    parser.add_argument("--nvdisasm", required=True)
    parser.add_argument("--only", default="", help="specs whose text holds this")
    parser.add_argument("--outside", help="compare only the code outside this template file")
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
        code_a = instructions(args.nvdisasm, a[spec], args.outside)
        code_b = instructions(args.nvdisasm, b[spec], args.outside)
        if args.outside:
            matcher = difflib.SequenceMatcher(None, code_a, code_b, autojunk=False)
            matched = sum(block.size for block in matcher.get_matching_blocks())
            print(f"{len(code_a) - matched:6d} of {len(code_a):6d} unmatched   {spec}")
            same += code_a == code_b
        elif code_a == code_b:
            same += 1
            print(f"same            {spec}")
        else:
            local = f"{local_accesses(code_a)} -> {local_accesses(code_b)}"
            print(f"{len(code_a):6d} {len(code_b):6d}   local {local:13s}  {spec}")
    print(f"{same} specs the same")


if __name__ == "__main__":
    main()
