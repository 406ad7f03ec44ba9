"""Compares an entry before and after the tuner wrote gemv_n into it:
everything but "tuned" and the gemv_n sets must be the same, the classes
in the same order (gemv-small's gemv_n set, new, aside). Exit 1 if not.
    python3 keep.py BEFORE.json AFTER.json"""
import json
import sys

before, after = (json.load(open(p)) for p in sys.argv[1:3])


def strip(e):
    e = dict(e)
    e.pop("tuned")
    e["parameters"] = {k: v for k, v in e["parameters"].items() if k != "gemv_n"}
    e["classes"] = [dict(c, parameters={k: v for k, v in c["parameters"].items() if k != "gemv_n"})
                    for c in e.get("classes", [])]
    return e


b, a = strip(before), strip(after)
bad = [k for k in sorted(set(b) | set(a)) if b.get(k) != a.get(k)]
print("classes before:", [c["name"] for c in before.get("classes", [])])
print("classes after: ", [c["name"] for c in after.get("classes", [])])
for k in bad:
    print("differs:", k)
print("the same but for gemv_n" if not bad else "NOT the same")
sys.exit(1 if bad else 0)
