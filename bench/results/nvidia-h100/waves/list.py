#!/usr/bin/env python3
"""Writes calibrate.c's command list (stdout) for how a kernel's time
follows its number of work-groups on the H100 (132 compute units): the
same work per group (a 128 x 64 tile of gemm_fast's set for every shape,
or gemm_tc's 128 x 128, over 1024 of k), 1024 x 1024 x 1024 s split into s
slices for s from 1 to 16, so that the groups grow by one tile set at a
time while each group's work stays the same; column-major NT (operands
in place, no pass)."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
entry = json.load(open(os.path.join(here, '..', '..', '..', '..', 'database', 'nvidia', 'h100.json')))
ps = lambda d: ','.join('%s=%d' % kv for kv in d.items())
out = sys.stdout
out.write('mode strict\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0\nlabel waves:fast\nset gemm_fast %s\n'
          % ps(entry['parameters']['gemm_fast']))
for s in range(1, 17):
    out.write('gemm col NT 1024 1024 %d %d\n' % (1024 * s, s))
out.write('set gemm_fast -\nmode accurate\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=64\nlabel waves:tc\n'
          'set gemm_tc %s\n' % ps(entry['parameters']['gemm_tc']))
for s in range(1, 17):
    out.write('gemm col NT 1024 1024 %d %d\n' % (1024 * s, s))
out.write('set gemm_tc -\n')
