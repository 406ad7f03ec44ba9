#!/usr/bin/env python3
"""How the plans of the final tree compare with main before it (82f0423) on
the sample of problems.txt, on the H100 and the H200: every measured run
gives the time of the plan its tree made (plans/*.txt, printed by plans.c
from that tree); a plan made by more than one run gets the mean of their
times. For each device: the final plans over the base plans (geometric mean
of base time over final time) where the plan changed, how many are more
than 10% and 25% slower; where it did not, the spread of its two
measurements (the base tree's and a later run's of the same plan); then
the slowest against base. Given two plan files (plans.c's output, H100 then
H200, of a tree with other facts, e.g. another step_wait_us), it judges
those plans instead of the final ones, on the problems whose plan some run
measured, and counts the others.
    bench/results/nvidia-h100/direct-batched/evaluate.py [H100-PLANS H200-PLANS]"""
import csv, glob, math, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
h200 = os.path.join(here, '..', '..', 'nvidia-h200', 'direct-batched')
# (device, folder of the run's CSVs, tree in it, plans of that tree)
RUNS = [('h100', 'validate-wait0.7-sample', 'base', 'h100-base'), ('h100', 'validate-wait0.7-sample', 'new', 'h100-wait0.7'),
        ('h100', 'validate-sample-short-k', 'base', 'h100-base'), ('h100', 'validate-sample-short-k', 'new', 'h100-final'),
        ('h200', 'validate-tiles-sample', 'base', 'h200-base'), ('h200', 'validate-tiles-sample', 'new', 'h200-tiles'),
        ('h200', 'validate-sample', 'base', 'h200-base'), ('h200', 'validate-sample', 'new', 'h200-final')]


def plans(name):
    out = {}
    for line in open(name if name.endswith('.txt') else os.path.join(here, 'plans', name + '.txt')):
        key, _, rest = line.partition(': ')
        out[key] = re.sub(r'; model.*', '', re.sub(r'^\d+ sgemm \S+ \S+: ', '', rest.strip()))
    return out


def times(folder, tree):
    out = {}
    for f in glob.glob(os.path.join(folder, 'sample-%s-x*.csv' % tree)):
        count = f.rsplit('-x', 1)[1][:-4]
        for r in csv.DictReader(open(f)):
            key = 'str %sx%sx%s x%s %s%s' % (r['m'], r['n'], r['k'], count, r['trans_a'], r['trans_b'])
            out[key] = float(r['device_ms']) * 1000
    return out


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


for device in ('h100', 'h200'):
    measured = {}  # problem -> plan -> [us]
    for dev, folder, tree, plan_file in RUNS:
        if dev != device:
            continue
        p = plans(plan_file)
        for key, us in times(os.path.join(here if dev == 'h100' else h200, folder), tree).items():
            measured.setdefault(key, {}).setdefault(p[key], []).append(us)
    given = sys.argv[1:3] if len(sys.argv) >= 3 else None
    base, final = plans(device + '-base'), plans(given[device == 'h200'] if given else device + '-final')
    mean = lambda key, plan: sum(measured[key][plan]) / len(measured[key][plan])
    rows = [(key, mean(key, base[key]), mean(key, final[key]), base[key] == final[key]) for key in measured
            if final[key] in measured[key]]
    if len(rows) < len(measured):
        print('%s: %d problems left out, their plan measured by no run' % (device, len(measured) - len(rows)))
    ratio = [b / f for _, b, f, same in rows if not same]
    print('%s, changed plans: %d problems, base over final %.3f; final slower by >10%%: %d, >25%%: %d' % (
        device, len(ratio), geomean(ratio), sum(x < 1 / 1.1 for x in ratio), sum(x < 0.8 for x in ratio)))
    spread = [measured[key][base[key]][0] / measured[key][base[key]][-1] for key, _, _, same in rows
              if same and len(measured[key][base[key]]) > 1]
    print('  the same plan measured twice: %d problems, first over last %.3f; apart by >10%%: %d, >25%%: %d' % (
        len(spread), geomean(spread), sum(x < 1 / 1.1 or x > 1.1 for x in spread), sum(x < 0.8 or x > 1.25 for x in spread)))
    print('  all: base over final %.3f' % geomean([b / f for _, b, f, _ in rows]))
    for key, b, f, same in sorted(rows, key=lambda x: x[1] / x[2])[:12]:
        print('  %-28s base %7.1f us final %7.1f us  %s' % (key, b, f, 'same plan' if same else final[key][:60]))
