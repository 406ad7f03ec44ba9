"""The rates of two entries of one device side by side: each set's (for
every shape and each class) rate in the first (before) and the second
(after), and their ratio, where both hold the same set; a set that
changed is named so. Usage: compare.py BEFORE.json AFTER.json"""
import json
import sys


def sets(entry):
    """(where, kernel) -> (parameters, rate or None)"""
    out = {}
    for k, p in entry.get("parameters", {}).items():
        out[("every shape", k)] = (p, entry.get("rates", {}).get(k))
    for c in entry.get("classes", []):
        for k, p in c.get("parameters", {}).items():
            out[("class " + c["name"], k)] = (p, c.get("rates", {}).get(k))
    return out


def main():
    before, after = (sets(json.load(open(p))) for p in sys.argv[1:3])
    print(f"{'set':<28} {'kernel':<12} {'before':>9} {'after':>9} {'after/before':>12}")
    for key in before:
        if key not in after:
            continue
        (p0, r0), (p1, r1) = before[key], after[key]
        if r0 is None and r1 is None:
            continue
        same = "" if p0 == p1 else "  (another set)"
        ratio = f"{r1 / r0:12.3f}" if r0 and r1 and not same else f"{'-':>12}"
        show = lambda r: f"{r:9.0f}" if r else f"{'-':>9}"
        print(f"{key[0]:<28} {key[1]:<12} {show(r0)} {show(r1)} {ratio}{same}")


main()
