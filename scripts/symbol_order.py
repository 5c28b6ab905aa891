"""The functions of one binary that callgrind profiles ran, for lld's
--symbol-ordering-file (see make-symbol-order.sh): the profiles in the order of
their file names, and within each the functions it ran first seen there, the
costliest first.

    python3 symbol_order.py BINARY-NAME FOLDER-OF-profile.NNN-FILES
"""
import collections
import glob
import os
import re
import sys

# Callgrind's compressed names: "fn=(12) name" the first time, "fn=(12)" after;
# the same for objects (ob, cob) and for called functions (cfn).
NAMED = re.compile(r"(c?ob|c?fn|c?fi|fe|c?fl)=\((\d+)\)(?: (.*))?$")


def functions_by_cost(path, binary):
    objects, functions = {}, {}
    current_object = current = None
    cost = collections.Counter()
    with open(path, errors="replace") as profile:
        for line in profile:
            named = NAMED.match(line.rstrip("\n"))
            if named:
                kind, ident, name = named.groups()
                table = objects if kind.endswith("ob") else functions if kind.endswith("fn") else None
                if table is not None and name:
                    table[ident] = name
                if kind == "ob":
                    current_object = objects.get(ident)
                elif kind == "fn":
                    inside = current_object is not None and os.path.basename(current_object) == binary
                    current = functions.get(ident) if inside else None
                    if current:
                        cost[current] += 0
                continue
            if current and line[:1].isdigit():
                fields = line.split()
                if len(fields) >= 2 and fields[1].isdigit():
                    cost[current] += int(fields[1])
    # "name'2": callgrind's name for a recursive call of `name`.
    return [re.sub(r"'\d+$", "", name) for name in sorted(cost, key=lambda name: -cost[name])]


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    seen = set()
    for path in sorted(glob.glob(os.path.join(folder, "profile.*"))):
        for name in functions_by_cost(path, binary):
            # Not a symbol: callgrind's "(below main)" and the like.
            if name not in seen and not any(c.isspace() for c in name):
                seen.add(name)
                print(name)


if __name__ == "__main__":
    main()
