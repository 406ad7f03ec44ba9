#!/usr/bin/env python3
"""gemm_tc's peeled-program factors from oclblas-bench CSVs of the entry's set forced (--override) in
column-major NT (neither operand read along k), TT (A along k) and NN (B along k), each at sizes
whose k is whole k-tiles (first program) and 8 short of them (peeled, operands in place): a
transpose's factor is the mean over sizes of the peeled rate over the first program's; the entry's
factors are NT's, TT's over NT's and NN's over NT's, as the plan's model multiplies them. Writes
them into the entry given as "peeled_factors" for gemm_tc and prints them.
  peeled.py NT.csv TT.csv NN.csv ENTRY.json"""
import csv, json, sys

def factor(path):
    rates = {}
    for r in csv.DictReader(open(path)):
        if r['library'] == 'oclblas':
            m, n, k = int(r['m']), int(r['n']), int(r['k'])
            rates[(m, k)] = 2.0 * m * n * k / float(r['device_ms'])
    pairs = [(rates[(m, k)], rates[(m, m)]) for (m, k) in rates if k != m]
    for (short, whole) in pairs:
        print('%s: %.0f / %.0f GFLOPS = %.3f' % (path, short / 1e6, whole / 1e6, short / whole))
    return sum(s / w for s, w in pairs) / len(pairs)

nt, tt, nn = (factor(p) for p in sys.argv[1:4])
factors = [round(nt, 2), round(tt / nt, 2), round(nn / nt, 2)]
entry = json.load(open(sys.argv[4]))
entry.setdefault('peeled_factors', {})['gemm_tc'] = factors
open(sys.argv[4], 'w').write(json.dumps(entry, indent=2, ensure_ascii=False) + '\n')
print('gemm_tc peeled_factors', factors)
