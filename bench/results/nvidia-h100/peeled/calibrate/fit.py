#!/usr/bin/env python3
"""Each set's share of its rate kept in its program for a k that is not
whole tiles, from run.sh's calibrate CSV: for every problem, transpose
pair and split, time(K) / time(K - 8) (the same tiles of k, the first of
each slice read partly as zeros in the second); prints each ratio and,
per set, their median (the share the entry takes) and range.
  fit.py calibrate-h100.csv"""
import csv, statistics, sys

rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r['label'], r['trans'], int(r['m']), int(r['n']), int(r['k']), int(r['slices'])): float(r['us']) for r in rows}
by_set = {}
for (label, tr, m, n, k, s), us in sorted(t.items()):
    ragged = t.get((label, tr, m, n, k - 8, s))
    if ragged is None:
        continue
    r = us / ragged
    by_set.setdefault(label, []).append(r)
    print('%-24s %s %5d x %5d x %5d, %2d slices: %8.1f / %8.1f us = %.3f' % (label, tr, m, n, k, s, us, ragged, r))
print()
for label, rs in by_set.items():
    print('%-24s median %.3f, %.3f to %.3f over %d' % (label, statistics.median(rs), min(rs), max(rs), len(rs)))
