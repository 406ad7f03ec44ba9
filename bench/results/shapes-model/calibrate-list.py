#!/usr/bin/env python3
"""Writes the command list for calibrate.c (stdout): every gemm_fast set of
the H100 and H200 entries and a few untuned smaller tiles, each on the
shapes preset's problems (row-major NN, with pads) and on aligned squares
column-major NT (operands in place), at 1, 2, 4 and 8 slices of k; gemm_tc
in the accurate mode; the direct kernel; SGEMV with GEMV_GROUPS_PER_CU."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
db = os.path.join(here, '..', '..', '..', 'database', 'nvidia')
sets = {}
for dev in ('h100', 'h200'):
    e = json.load(open(os.path.join(db, dev + '.json')))
    sets[dev + '-all'] = e['parameters']['gemm_fast']
    for c in e.get('classes', []):
        if 'gemm_fast' in c['parameters']:
            sets[dev + '-' + c['name']] = dict(e['parameters']['gemm_fast'], **c['parameters']['gemm_fast'])
def fast(mwg, nwg, mdimc, ndimc, mdima, ndimb, vwm=4, vwn=4, kwi=8):
    return dict(MWG=mwg, NWG=nwg, KWG=16, MDIMC=mdimc, NDIMC=ndimc, MDIMA=mdima, NDIMB=ndimb, KWI=kwi,
                VWM=vwm, VWN=vwn, STRM=1, STRN=1, SA=1, SB=1)
sets['try-64x64'] = fast(64, 64, 8, 8, 16, 16)
sets['try-64x64t256'] = fast(64, 64, 16, 16, 16, 16)
sets['try-32x64'] = fast(32, 64, 8, 8, 8, 16)
sets['try-64x32'] = fast(64, 32, 8, 8, 16, 8)
sets['try-128x128'] = fast(128, 128, 16, 16, 16, 16)
seen = {}
for name, s in list(sets.items()):
    key = tuple(sorted(s.items()))
    if key in seen:
        del sets[name]
    seen[key] = name

def ps(d):
    return ','.join('%s=%d' % kv for kv in d.items())

# The preset's problems as the caller has them (row-major), and smaller squares.
preset = [(512, 512, 512), (1000, 1000, 1000), (2048, 2048, 2048), (4096, 4096, 4096), (32, 4096, 4096),
          (64, 16384, 1024), (4096, 128, 4096), (1024, 1024, 16384), (256, 256, 65536), (4096, 4096, 128),
          (3001, 2999, 1000), (256, 256, 256), (768, 768, 768), (1024, 1024, 1024), (4096, 32, 4096),
          (16384, 64, 1024), (128, 4096, 4096)]
squares = [256, 512, 1024, 2048, 4096]
out = sys.stdout
out.write('mode strict\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0\n')
for name, s in sets.items():
    out.write('label fast:%s\nset gemm_fast %s\n' % (name, ps(s)))
    for (m, n, k) in preset:
        for sl in (1, 2, 4, 8):
            if sl > 1 and k // sl < 128:
                continue
            out.write('gemm row NN %d %d %d %d\n' % (m, n, k, sl))
    for q in squares:
        for sl in (1, 2, 4):
            out.write('gemm col NT %d %d %d %d\n' % (q, q, q, sl))
out.write('set gemm_fast -\n')
# Launch cost: one kernel (in place), three (pads), four (a split).
out.write('label launch\nset gemm_fast %s\n' % ps(sets['h100-all']))
for q in (128, 256):
    out.write('gemm col NT %d %d %d 1\ngemm row NN %d %d %d 1\ngemm row NN %d %d %d 2\n' % ((q,) * 9))
out.write('set gemm_fast -\n')
# The plan as shipped (slices 0), for the record.
out.write('label shipped\n')
for (m, n, k) in preset:
    out.write('gemm row NN %d %d %d 0\n' % (m, n, k))
# gemm_tc in the accurate mode, forced from any size.
out.write('mode accurate\nroutine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=64\n')
tc = json.load(open(os.path.join(db, 'h200.json')))['parameters']['gemm_tc']
tcs = {'tc-all': tc, 'tc-128x64': dict(tc, BN=64, WN=32), 'tc-64x64': dict(tc, BM=64, BN=64, WM=32, WN=32)}
for name, s in tcs.items():
    out.write('label %s\nset gemm_tc %s\n' % (name, ps(s)))
    for (m, n, k) in preset:
        for sl in (1, 2, 4):
            if sl > 1 and k // sl < 128:
                continue
            out.write('gemm row NN %d %d %d %d\n' % (m, n, k, sl))
    for q in squares:
        out.write('gemm col NT %d %d %d 1\n' % (q, q, q))
out.write('set gemm_tc -\nlabel shipped\n')
for (m, n, k) in preset:
    out.write('gemm row NN %d %d %d 0\n' % (m, n, k))
# The direct kernel on everything small enough, its sets and larger tiles.
out.write('mode strict\nroutine GEMM_MIN_INDIRECT=1048576\n')
directs = {}
for dev in ('h100', 'h200'):
    directs['direct-' + dev] = json.load(open(os.path.join(db, dev + '.json')))['parameters']['gemm_direct']
directs['direct-32'] = dict(WGD=32, KWGD=16, MDIMCD=8, NDIMCD=8, KWID=4, PADA=0, PADB=0)
directs['direct-32t256'] = dict(WGD=32, KWGD=32, MDIMCD=16, NDIMCD=16, KWID=4, PADA=0, PADB=0)
directs['direct-64'] = dict(WGD=64, KWGD=16, MDIMCD=16, NDIMCD=16, KWID=4, PADA=0, PADB=0)
small = [(128, 128, 128), (256, 256, 256), (384, 384, 384), (512, 512, 512), (768, 768, 768), (1000, 1000, 1000),
         (1024, 1024, 1024), (32, 4096, 4096), (4096, 32, 4096), (64, 16384, 1024), (4096, 128, 4096)]
for name, s in directs.items():
    out.write('label %s\nset gemm_direct %s\n' % (name, ps(s)))
    for (m, n, k) in small:
        for t in ('NN', 'NT', 'TN', 'TT'):
            if t != 'NN' and (m, n, k) not in ((512, 512, 512), (1000, 1000, 1000)):
                continue
            out.write('gemm row %s %d %d %d 0\n' % (t, m, n, k))
out.write('set gemm_direct -\n')
# SGEMV: the groups per compute unit.
out.write('mode strict\n')
for g in (1, 2, 4, 8, 16, 32, 64):
    out.write('label gemv-gpc%d\nroutine GEMV_GROUPS_PER_CU=%d\n' % (g, g))
    for (m, n) in ((4096, 4096), (8192, 8192), (3001, 2999), (65536, 256), (16384, 16384)):
        for lay in ('row', 'col'):
            for t in ('N', 'T'):
                out.write('gemv %s %s %d %d\n' % (lay, t, m, n))
out.write('routine -\n')
# gemv_n's sets (it was tuned on 3 configurations only).
for wgs in (64, 128, 256):
    for vw in (1, 2, 4):
        for wpt in (1, 2, 4):
            out.write('label gemvn-w%d-v%d-p%d\nset gemv_n WGS=%d,VW=%d,WPT=%d,UNR=8,STRM=1\n' % (wgs, vw, wpt, wgs, vw, wpt))
            for (m, n) in ((4096, 4096), (3001, 2999), (65536, 256), (8192, 8192)):
                out.write('gemv col N %d %d\ngemv row T %d %d\n' % (m, n, m, n))
out.write('set gemv_n -\n')
