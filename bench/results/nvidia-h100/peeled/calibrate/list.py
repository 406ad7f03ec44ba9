#!/usr/bin/env python3
"""Writes calibrate.c's command list (stdout) for the price of a set's
program for a k that is not whole tiles: the H100 entry's gemm_fast sets
(`list.py h200`: the H200's) forced, column-major, each problem in the four
transposes with k whole tiles (K) and k eight short of it (K - 8: the same
tiles of k, the first read partly as zeros), the split of k fixed. A forced
set has no rate, so the plan follows the rules: the operands are read in
place wherever the set can, the ragged k by its second program."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
device = sys.argv[1] if len(sys.argv) > 1 else 'h100'
entry = json.load(open(os.path.join(here, '..', '..', '..', '..', '..', 'database', 'nvidia', device + '.json')))
def ps(d):
    return ','.join('%s=%d' % kv for kv in d.items())
sets = {device + '-all': entry['parameters']['gemm_fast']}
for c in entry['classes']:
    if 'gemm_fast' in c['parameters'] and c['name'] != 'deep':  # deep: the set for every shape (H100)
        sets[device + '-' + c['name']] = dict(entry['parameters']['gemm_fast'], **c['parameters']['gemm_fast'])
problems = [(512, 512, 512, 1), (512, 512, 512, 4), (1024, 1024, 1024, 1), (1024, 1024, 1024, 3),
            (1536, 1536, 1536, 1), (1536, 1536, 1536, 2), (2048, 2048, 2048, 1), (4096, 4096, 1024, 1),
            (4096, 4096, 4096, 1), (1024, 1024, 4096, 4), (32, 4096, 4096, 4), (128, 4096, 4096, 8),
            (4096, 128, 4096, 8)]
out = sys.stdout
out.write('mode strict\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0\n')
for name, s in sets.items():
    out.write('label raggedk:%s\nset gemm_fast %s\n' % (name, ps(s)))
    for (m, n, k, sl) in problems:
        for t in ('NT', 'NN', 'TT', 'TN'):
            for kk in (k, k - 8):
                out.write('gemm col %s %d %d %d %d\n' % (t, m, n, kk, sl))
out.write('set gemm_fast -\n')
