#!/usr/bin/env python3
"""How the cost model's facts were chosen (src/plan/model.c, the "model" of
database/nvidia/h200.json): the model, in Python, against calibrate.csv of
a calibration run (nvidia-h200/shapes-model/call1). For each candidate set
of facts it prints the error of the predicted times (rms of log(predicted /
measured) over every timing) and, on each row-major NN problem of the
preset, how much slower the plan the model picks ran than the fastest one
measured (mean and worst), among the sets of the shipped entry. Rates: each
set's time at 4096^3 column-major NT (gemm_direct: 1024^3 row-major NN).
    bench/results/shapes-model/fit.py CALIBRATE.CSV DATABASE-FOLDER-OF-THE-RUN [h200|h100]
(the run's database: git show ae488ff:database/nvidia/h200.json and h100.json;
the device whose entry's sets are judged, h200 unless named). Last, for the
chosen facts, the plan the model picks over every split of k from 1 to 64
(as plan.c searches them) on the deep and narrow problems, beside the
measured splits."""
import collections, contextlib, csv, io, math, os, sys

cal, dbdir = sys.argv[1], sys.argv[2]
device = sys.argv[3] if len(sys.argv) > 3 else 'h200'
here = os.path.dirname(os.path.abspath(__file__))
# The sets calibrate-list.py timed, from the run's database.
ns = {'__file__': os.path.join(dbdir, 'x', 'x', 'x', 'calibrate-list.py')}
src = open(os.path.join(here, 'calibrate-list.py')).read().replace(
    "db = os.path.join(here, '..', '..', '..', 'database', 'nvidia')", 'db = %r' % dbdir)
with contextlib.redirect_stdout(io.StringIO()):
    exec(src, ns)
sets, directs, tcs = ns['sets'], ns['directs'], ns['tcs']
meas = {}
for r in csv.DictReader(open(cal)):
    if r['k'] and float(r['us']) > 0:
        meas[(r['label'], r['mode'], r['layout'], r['trans'], int(r['m']), int(r['n']), int(r['k']),
              int(r['slices']))] = float(r['us'])
C = 132
cd = lambda a, b: -(-a // b)

def tile(label):
    if label.startswith('fast:'):
        s = sets[label[5:]]
        return dict(kind='fast', M=s['MWG'], N=s['NWG'], K=s['KWG'], items=s['MDIMC'] * s['NDIMC'])
    if label.startswith('tc-'):
        s = tcs[label]
        return dict(kind='tc', M=s['BM'], N=s['BN'], K=s['BK'], items=32 * (s['BM'] // s['WM']) * (s['BN'] // s['WN']))
    s = directs[label]
    return dict(kind='direct', M=s['WGD'], N=s['WGD'], K=1, items=s['MDIMCD'] * s['NDIMCD'])

R = {}
for l in set(k[0] for k in meas):
    if l.startswith('fast:'):
        R[l] = 2 * 4096 ** 3 / (meas[(l, 'strict', 'col', 'NT', 4096, 4096, 4096, 1)] * 1e-6)
    elif l.startswith('tc-'):
        R[l] = 2 * 4096 ** 3 / (meas[(l, 'accurate', 'col', 'NT', 4096, 4096, 4096, 1)] * 1e-6)
    elif l.startswith('direct-'):
        R[l] = 2 * 1024 ** 3 / (meas[(l, 'strict', 'row', 'NN', 1024, 1024, 1024, 0)] * 1e-6)

def kernel_s(t, rate, M, N, k, s, P):
    """model.c's oclblas__model_kernel_s."""
    if t['kind'] == 'direct':
        groups = cd(M, t['M']) * cd(N, t['N'])
        gf = 2.0 * M * N * k / groups
        mp, np_ = M, N
    else:
        mp, np_ = cd(M, t['M']) * t['M'], cd(N, t['N']) * t['N']
        ks = cd(cd(k, t['K']), s) * t['K']
        groups = cd(M, t['M']) * cd(N, t['N']) * s
        gf = 2.0 * t['M'] * t['N'] * ks
    resident = max(1, math.floor(rate / (C * t['items'] * P['busy_item']) + 0.5))
    per_unit = cd(groups, C * resident) * resident if groups > C * resident else cd(groups, C)
    thr, lat = per_unit * gf / (rate / C), gf / (t['items'] * P['item'])
    q = P.get('p', 0)  # the entry's bounds_norm: the bounds' p-norm, else their maximum
    return (max(thr, lat) if not q else (thr ** q + lat ** q) ** (1.0 / q)), mp, np_

def plan_s(label, layout, trans, m, n, k, s, P):
    """plan.c's plan_time: launches, bytes of pads and sums, the kernel."""
    t = tile(label)
    if layout == 'row':
        ta, tb, M, N = trans[1] == 'T', trans[0] == 'T', n, m
    else:
        ta, tb, M, N = trans[0] == 'T', trans[1] == 'T', m, n
    g, mp, np_ = kernel_s(t, R[label], M, N, k, s, P)
    kernels, nbytes = 1, 0
    if t['kind'] != 'direct':
        kp = cd(k, t['K']) * t['K']
        if not (not ta and M == mp and k == kp):
            kernels += 1; nbytes += 4 * (M * k + mp * kp)
        if not (tb and N == np_ and k == kp):
            kernels += 1; nbytes += 4 * (N * k + np_ * kp)
        if s > 1:
            kernels += 1; nbytes += 4 * (s * mp * np_ + M * N)
    return 1e6 * (P['call'] + (kernels - 1) * P['launch'] + nbytes / P['bw'] + g)

def evaluate(P, labels, strict_only=False, show=False):
    err, regret, groups = [], [], collections.defaultdict(list)
    for (label, mode, layout, trans, m, n, k, s), us in meas.items():
        if label not in R or (s == 0 and not label.startswith('direct')) or (strict_only and label.startswith('tc')):
            continue
        p = plan_s(label, layout, trans, m, n, k, max(s, 1), P)
        err.append(math.log(p / us))
        if layout == 'row' and trans == 'NN' and label in labels:
            groups[(m, n, k)].append((p, us, label, s))
    for shape, L in groups.items():
        best, pick = min(L, key=lambda x: x[1]), min(L)
        regret.append(pick[1] / best[1])
        if show:
            print('  %-16s picks %-20s s=%d: %6.1f us (predicted %6.1f); fastest %6.1f %s s=%d' % (
                'x'.join(map(str, shape)), pick[2], pick[3], pick[1], pick[0], best[1], best[2], best[3]))
    return (math.sqrt(sum(e * e for e in err) / len(err)),
            math.exp(sum(math.log(r) for r in regret) / len(regret)), max(regret))

# The sets of each entry as shipped (calibrate-list.py names a set shared
# by both entries after the first that has it).
entries = {
    'h200': ['fast:h100-all', 'fast:h200-narrow-m', 'fast:h100-narrow-n', 'fast:h200-deep', 'fast:h200-small',
             'fast:try-64x64t256', 'tc-all', 'direct-h100'],
    'h100': ['fast:h100-all', 'fast:h100-narrow-m', 'fast:h100-narrow-n', 'fast:h100-small', 'fast:h100-small-tile',
             'tc-all', 'direct-h100'],
}
entry = entries[device]
for busy in (1.0e9, 1.4e9, 1e12):
    for item in (1.5e9, 1.8e9, 2.0e9, 2.5e9, 3.0e9):
        P = dict(call=16e-6, launch=8e-6, bw=3e12, item=item, busy_item=busy)
        print('item %.1f GFLOPS, busy item %.1f GFLOPS: rms %.3f; picks over fastest: mean %.3f, worst %.3f; '
              'strict mean %.3f, worst %.3f' % ((item / 1e9, busy / 1e9) + evaluate(P, entry) + evaluate(P, entry, True)[1:]))
import json
f = json.load(open(os.path.join(dbdir, device + '.json')))['model']
P = dict(p=f.get('bounds_norm', 0), call=f['call_us'] * 1e-6, launch=f['launch_us'] * 1e-6, bw=f['bandwidth_gbs'] * 1e9,
         item=f['item_gflops'] * 1e9, busy_item=f['busy_item_gflops'] * 1e9)
print('the %s entry\'s facts (%s):' % (device, ', '.join('%s %g' % kv for kv in f.items())))
print('  rms %.3f; picks over fastest: mean %.3f, worst %.3f' % evaluate(P, entry, show=True))
print('its picks over splits 1 to 64 (strict: gemm_fast and gemm_direct), row-major NN, and the measured splits:')
for shape in ((1024, 1024, 16384), (256, 256, 65536), (4096, 128, 4096), (128, 4096, 4096), (512, 512, 512)):
    t, label, s = min((plan_s(l, 'row', 'NN', *shape, s, P), l, s) for s in range(1, 65) for l in entry
                      if not l.startswith('tc'))
    got = ', '.join('s=%d %.1f' % (k, meas[(label, 'strict', 'row', 'NN') + shape + (k,)])
                    for k in (1, 2, 4, 8) if (label, 'strict', 'row', 'NN') + shape + (k,) in meas)
    print('  %-16s %s s=%d predicted %.1f us; measured %s' % ('x'.join(map(str, shape)), label, s, t, got))
