#!/usr/bin/env python3
"""Fails if a weak symbol is defined both in an ISA's kernel objects and in
any other group of objects (the baseline or another ISA).

The linker keeps one copy of a weak symbol (an inline function or template
instance that was not inlined) for the whole library. If that copy came from
objects built with -mavx512f, the baseline and SSE2 code calling it would
execute AVX-512 instructions on a CPU without them. Symbols whose name carries
the ISA (xsimd::batch<float, avx2>, bcast::kernels::avx2::...) are defined by
one group only and are safe; DW.ref.* personality pointers are data, the same
in every copy.

usage: check_isa_weak_symbols.py NM GROUP=obj1|obj2|... [GROUP=...]
"""
import subprocess
import sys


def weak_definitions(nm, objects):
    out = subprocess.run([nm, "--defined-only", *objects], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("W", "V", "w", "v", "u"):
            if not parts[2].startswith("DW.ref."):
                names.add(parts[2])
    return names


def main(argv):
    nm, groups = argv[1], {}
    for arg in argv[2:]:
        name, _, objs = arg.partition("=")
        objects = [o for o in objs.split("|") if o]
        if objects:
            groups[name] = weak_definitions(nm, objects)
    isa_groups = [g for g in groups if g != "baseline"]
    if not isa_groups:
        print("no ISA kernel objects in this build: nothing to check")
        return 0
    clashes = []
    for isa in isa_groups:
        for other, names in groups.items():
            if other == isa or (other in isa_groups and other < isa):
                continue
            clashes += [(isa, other, s) for s in sorted(groups[isa] & names)]
    for isa, other, symbol in clashes[:50]:
        print(f"weak symbol defined by both {isa} and {other} objects: {symbol}")
    if clashes:
        print(f"{len(clashes)} weak symbols could be taken from the wrong ISA's objects")
        return 1
    print("ISA objects share no weak symbols: " +
          ", ".join(f"{g} {len(n)} weak" for g, n in groups.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
