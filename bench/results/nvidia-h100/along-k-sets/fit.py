#!/usr/bin/env python3
"""The price of reading an operand along k, per set (calibrate.csv of
list.py, on the H100): each gemm_fast set's share of its rate kept when it
reads A, and B, in place along k (the median over the problems of the time
with neither operand along k over the time with that one), and how well
the cost model (src/plan/model.c and plan.c's tiled_time, in Python)
predicts these timings and picks among them: with the device's one share
for every set and operand (the entry's along_k_share), with each set's
two shares, and with the two kernel bounds joined by their p-norm
(bounds_norm) instead of their maximum, over a grid of that p and a
work-item's rate. Pick: for each problem and transpose, the set and split of
k the model finds fastest against the fastest measured.
    fit.py [CALIBRATE.CSV [ENTRY.JSON]]"""
import collections, csv, json, math, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
cal = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'calibrate.csv')
entry_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, '..', '..', '..', '..', 'database', 'nvidia',
                                                                  'h100.json')
entry = json.load(open(entry_path))
device = os.path.basename(entry_path)[:-len('.json')]  # list.py's labels: h100-all, h100-narrow-m, ...
C = 132
cd = lambda a, b: -(-a // b)
sets = {device + '-all': (entry['parameters']['gemm_fast'], entry['rates']['gemm_fast'])}
for c in entry['classes']:
    if 'gemm_fast' in c['parameters']:
        sets[device + '-' + c['name']] = (dict(entry['parameters']['gemm_fast'], **c['parameters']['gemm_fast']),
                                     c.get('rates', entry['rates'])['gemm_fast'])
meas = {}
for r in csv.DictReader(open(cal)):
    if r['label'].startswith('alongk:'):
        meas[(r['label'][7:], r['trans'], int(r['m']), int(r['n']), int(r['k']), int(r['slices']))] = float(r['us'])

shares = {}
for name in sets:
    a, b = [], []
    for (s, t, m, n, k, sl), us in meas.items():
        if s == name and t == 'NT':
            b.append(us / meas[(s, 'NN', m, n, k, sl)])
            a.append(us / meas[(s, 'TT', m, n, k, sl)])
    shares[name] = (statistics.median(a), statistics.median(b))

def plan_us(name, trans, m, n, k, s, P, share):
    """plan.c's tiled_time for column-major trans, operands along k read in place."""
    p, rate = sets[name]
    tm, tn, tk, items = p['MWG'], p['NWG'], p['KWG'], p['MDIMC'] * p['NDIMC']
    rate *= 1e9
    a_along, b_along = trans[0] == 'T', trans[1] == 'N'
    sa, sb = share(name)
    kept = (sa if a_along else 1) * (sb if b_along else 1)
    mp, np_ = cd(m, tm) * tm, cd(n, tn) * tn
    kp = cd(k, tk) * tk
    ks = cd(kp // tk, s) * tk  # k padded to the set's k-tile only; the last slice may be shorter
    s = cd(kp, ks)
    groups = (mp // tm) * (np_ // tn) * s
    gf = 2.0 * tm * tn * ks
    resident = max(1, math.floor(rate / (C * items * P['busy']) + 0.5))
    per_unit = cd(groups, C * resident) * resident if groups > C * resident else cd(groups, C)
    thr, lat = per_unit * gf / (kept * rate / C), gf / (kept * items * P['item'])
    q = P.get('p', 0)
    kern = max(thr, lat) if not q else (thr ** q + lat ** q) ** (1.0 / q)
    kernels, nbytes = 1, 0.0
    if not (a_along or (m == mp and k == kp)):
        kernels += 1; nbytes += 4 * (m * k + mp * kp)
    if not (b_along or (n == np_ and k == kp)):
        kernels += 1; nbytes += 4 * (n * k + np_ * kp)
    if s > 1:
        kernels += 1; nbytes += 4 * (s * mp * np_ + m * n)
    return 1e6 * (P['call'] + (kernels - 1) * P['launch'] + nbytes / P['bw'] + kern)

def evaluate(P, share):
    err, regret, groups = [], [], collections.defaultdict(list)
    for (name, t, m, n, k, s), us in meas.items():
        pred = plan_us(name, t, m, n, k, s, P, share)
        err.append(math.log(pred / us))
        groups[(t, m, n, k)].append((pred, us, name, s))
    for L in groups.values():
        regret.append(min(L)[1] / min(L, key=lambda x: x[1])[1])
    return (math.sqrt(sum(e * e for e in err) / len(err)),
            math.exp(sum(math.log(r) for r in regret) / len(regret)), max(regret))

f = entry['model']
now = dict(call=f['call_us'] * 1e-6, launch=f['launch_us'] * 1e-6, bw=f['bandwidth_gbs'] * 1e9,
           item=f['item_gflops'] * 1e9, busy=f['busy_item_gflops'] * 1e9, p=f.get('bounds_norm', 0))
# The H100's facts before along_k_shares and bounds_norm (another entry: its own, without the norm).
before = dict(now, item=1.8e9 if device == 'h100' else now['item'], p=0)
problems = len({(t, m, n, k) for (_, t, m, n, k, _) in meas})
print("each set's share of its rate reading along k (median over %d problems and splits of k): A, B"
      % (len(meas) // len(sets) // 4))
for name, (a, b) in shares.items():
    print('  %-16s %.2f %.2f' % (name, a, b))
device_share = lambda name: (f.get('along_k_share', 1),) * 2
set_share = lambda name: shares[name]
print('the model over these %d timings: rms of log(predicted / measured); the plan it picks over the '
      'fastest measured, mean and worst over %d problems' % (len(meas), problems))
rows = [('facts before, one share %.2f' % f.get('along_k_share', 1), before, device_share),
        ("facts before, each set's shares", before, set_share),
        ("the entry's facts (bounds_norm %g, item %.1f), each set's" % (now['p'], now['item'] / 1e9), now, set_share)]
for q in (0, 6, 8, 12):
    for item in (1.8, 2.2, 2.5, 3.0):
        rows.append(("each set's, bounds_norm %2d, item %.1f" % (q, item), dict(now, p=q, item=item * 1e9), set_share))
for label, P, share in rows:
    print('  %-48s rms %.3f; picks %.3f, worst %.3f' % ((label,) + evaluate(P, share)))
