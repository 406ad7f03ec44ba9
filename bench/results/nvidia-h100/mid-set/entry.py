#!/usr/bin/env python3
"""The rating of a tuned gemm_fast set and the entry that holds it as a class of its own (tune.sh).

usage: entry.py list ENTRY TUNED [FROM NEW RULE BEFORE]
           calibrate.c's list: each gemm_fast set of ENTRY and TUNED's new one, at 4096^3
           column-major NT in place (as the entries' rates) and at 1024^3 NN
       entry.py entry ENTRY TUNED RATES [FROM NEW RULE BEFORE]
           ENTRY with TUNED's set as the class NEW (rule RULE, before the class BEFORE), its
           rate from RATES (calibrate.c's CSV); each set's rates at both sizes on stderr
FROM is TUNED's class whose set is taken, `-` its set for every shape; the defaults take
that set as the class `mid`, tuned on 1024^3, before `small`.
"""
import csv
import json
import sys

SIZES = ((4096, "NT", 3), (1024, "NN", 3))
MID = {"name": "mid", "when": "min(m,n) >= 768, max(m,n) <= 1280, k >= 768"}


def new_set(tuned, source):
    if source == "-":
        return tuned["parameters"]["gemm_fast"]
    return next(c["parameters"]["gemm_fast"] for c in tuned["classes"] if c["name"] == source)


def sets(entry, tuned, source, new):
    out = [("all", entry["parameters"]["gemm_fast"])]
    out += [(c["name"], c["parameters"]["gemm_fast"]) for c in entry["classes"] if "gemm_fast" in c["parameters"]]
    out.append((new, new_set(tuned, source)))
    return out


def params_text(p):
    return ",".join(f"{k}={v}" for k, v in p.items())


def main(argv):
    entry = json.load(open(argv[1]))
    tuned = json.load(open(argv[2]))
    extra = argv[3:] if argv[0] == "list" else argv[4:]
    source, new, rule, before = extra if extra else ("-", MID["name"], MID["when"], "small")
    if argv[0] == "list":
        print("mode strict")
        print("routine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0")
        for name, p in sets(entry, tuned, source, new):
            print(f"label fast:{name}")
            print(f"set gemm_fast {params_text(p)}")
            for size, trans, runs in SIZES:
                for _ in range(runs):
                    print(f"gemm col {trans} {size} {size} {size} 1")
        return 0
    best = {}
    for r in csv.DictReader(open(argv[3])):
        n = int(r["m"])
        key = (r["label"], n)
        best[key] = min(best.get(key, float("inf")), float(r["us"]))
    rate = {k: 2 * k[1] ** 3 / (us * 1e-6) / 1e9 for k, us in best.items()}
    for name, _ in sets(entry, tuned, source, new):
        print(f"{name:12} 4096^3 {rate.get(('fast:' + name, 4096), 0):8.0f}  1024^3 {rate.get(('fast:' + name, 1024), 0):8.0f} GFLOPS",
              file=sys.stderr)
    cls = {"name": new, "when": rule, "parameters": {"gemm_fast": new_set(tuned, source)},
           "rates": {"gemm_fast": int(round(rate[("fast:" + new, 4096)], -2))}}
    classes = [c for c in entry["classes"] if c["name"] != new]
    at = next(i for i, c in enumerate(classes) if c["name"] == before)
    entry["classes"] = classes[:at] + [cls] + classes[at:]
    print(json.dumps(entry, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
