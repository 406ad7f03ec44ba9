#!/usr/bin/env python3
"""Each set's factors on its rate in its peeled program, from run.sh's
calibrate CSV: for every problem, transpose pair and split, time(K) /
time(K - 8) (the same tiles of k; the first program on whole tiles, the
peeled one on a ragged k). Prints each ratio, and per set and transpose
pair (column-major: NT neither operand along k, TT A, NN B, TN both) their
quartiles; then the factors an entry takes, cautious: F the lower quartile
of NT, A and B those of TT and NN over F (so that the program is taken
where it was faster on three problems of four measured).
  fit.py calibrate-h100.csv"""
import csv, statistics, sys

rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r['label'], r['trans'], int(r['m']), int(r['n']), int(r['k']), int(r['slices'])): float(r['us']) for r in rows}
ratios = {}
for (label, tr, m, n, k, s), us in sorted(t.items()):
    ragged = t.get((label, tr, m, n, k - 8, s))
    if ragged is None:
        continue
    ratios.setdefault(label, {}).setdefault(tr, []).append(us / ragged)
    print('%-24s %s %5d x %5d x %5d, %2d slices: %8.1f / %8.1f us = %.3f' % (label, tr, m, n, k, s, us, ragged, us / ragged))
print()
for label, by in ratios.items():
    q = {tr: statistics.quantiles(rs, n=4) for tr, rs in by.items()}
    print('%-24s quartiles %s' % (label, ', '.join('%s %.3f %.3f %.3f' % (tr, *q[tr]) for tr in ('NT', 'TT', 'NN', 'TN'))))
    f = q['NT'][0]
    print('%-24s factors [F, A, B] = [%.2f, %.2f, %.2f]' % (label, f, q['TT'][0] / f, q['NN'][0] / f))
