#!/usr/bin/env python3
"""Writes calibrate.c's command list (stdout) for the price of reading an
operand in place along k: the H100 entry's gemm_fast sets (`list.py
h200`: the H200's) forced, so that the plan reads along k whatever the
model says, column-major, each problem in the four transposes (NT:
neither operand along k, NN: B, TT: A, TN: both), with the split of k
fixed (deep ones at several splits); deep problems of growing k beside
squares and narrow ones. Then 256 x 256 x 65536 row-major on gemm_tc in
the accurate mode (its operand turned by a helper pass) and as the plan
chooses."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
device = sys.argv[1] if len(sys.argv) > 1 else 'h100'  # the entry whose sets are timed: h100 or h200
entry = json.load(open(os.path.join(here, '..', '..', '..', '..', 'database', 'nvidia', device + '.json')))
def ps(d):
    return ','.join('%s=%d' % kv for kv in d.items())
sets = {device + '-all': entry['parameters']['gemm_fast']}
for c in entry['classes']:
    if 'gemm_fast' in c['parameters']:
        sets[device + '-' + c['name']] = dict(entry['parameters']['gemm_fast'], **c['parameters']['gemm_fast'])
problems = [(256, 256, 8192, 8), (256, 256, 16384, 16), (256, 256, 32768, 32), (256, 256, 65536, 24),
            (256, 256, 65536, 32), (256, 256, 65536, 48), (256, 256, 65536, 64), (512, 512, 16384, 12),
            (512, 512, 16384, 16), (512, 512, 16384, 24), (1024, 1024, 16384, 3), (1024, 1024, 16384, 4),
            (1024, 1024, 16384, 6), (1024, 1024, 16384, 8), (1024, 1024, 4096, 1), (1024, 1024, 1024, 1),
            (2048, 2048, 2048, 1), (4096, 4096, 1024, 1), (4096, 4096, 4096, 1), (4096, 128, 4096, 8),
            (128, 4096, 4096, 8), (32, 4096, 4096, 4), (64, 16384, 1024, 1), (16384, 64, 1024, 1)]
out = sys.stdout
out.write('mode strict\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0\n')
for name, s in sets.items():
    out.write('label alongk:%s\nset gemm_fast %s\n' % (name, ps(s)))
    for (m, n, k, sl) in problems:
        for t in ('NT', 'NN', 'TT', 'TN'):
            out.write('gemm col %s %d %d %d %d\n' % (t, m, n, k, sl))
out.write('set gemm_fast -\n')
out.write('mode accurate\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=64\nlabel tc\nset gemm_tc %s\n'
          % ps(entry['parameters']['gemm_tc']))
for t in ('NN', 'NT', 'TN', 'TT'):
    for sl in (32, 48, 64):
        out.write('gemm row %s 256 256 65536 %d\n' % (t, sl))
out.write('set gemm_tc -\nroutine -\nlabel shipped\n')
for mode in ('accurate', 'strict'):
    out.write('mode %s\n' % mode)
    for t in ('NN', 'NT', 'TN', 'TT'):
        out.write('gemm row %s 256 256 65536 0\n' % t)
