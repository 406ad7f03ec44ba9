#!/usr/bin/env python3
"""How many work-groups of each gemm_fast set an H100 unit holds, as the
cost model sees it: model.c's kernel time (fit.py's copy of it) over every
timing of calibrate.csv, with the set's residency forced to 1..9 groups
per unit, the rms of log(predicted / measured) for each; beside it the
residency the model derives (rate / (units x items x busy_item_gflops)).
The entry's facts (call 12 us, kernel 4 us, 2.5 TB/s, a work-item 2.5
GFLOPS, 1 busy, bounds_norm 6). From the project root:
    git show d8ed65b:database/nvidia/h100.json > /tmp/fitdb/h100.json
    git show d8ed65b:database/nvidia/h200.json > /tmp/fitdb/h200.json
    bench/results/nvidia-h100/model-fit/residency.py /tmp/fitdb"""
import math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
fit = os.path.join(here, '..', '..', 'shapes-model', 'fit.py')
sys.argv = [fit, os.path.join(here, 'calibrate.csv'), sys.argv[1], 'h100']
src = open(fit).read().split("entry = entries[device]")[0]
# The residency a set is forced to, where P['res'] names it.
src = src.replace("resident = max(1, math.floor(rate / (C * t['items'] * P['busy_item']) + 0.5))",
                  "resident = P['res'].get(t.get('label'), max(1, math.floor(rate / (C * t['items'] * P['busy_item']) + 0.5)))")
src = src.replace("t = tile(label)\n", "t = dict(tile(label), label=label)\n")
g = {'__file__': fit}
exec(src, g)
meas, R, plan_s, tile = g['meas'], g['R'], g['plan_s'], g['tile']
P = dict(p=6, call=12e-6, launch=4e-6, bw=2.5e12, item=2.5e9, busy_item=1e9, res={})
for label in sorted(R):
    if not label.startswith('fast:'):
        continue
    t = tile(label)
    derived = max(1, math.floor(R[label] / (132 * t['items'] * 1e9) + 0.5))
    rms = []
    for r in range(1, 10):
        P['res'] = {label: r}
        e = [math.log(plan_s(label, lay, tr, m, n, k, max(s, 1), P) / us)
             for (l, mode, lay, tr, m, n, k, s), us in meas.items() if l == label and s > 0]
        rms.append(math.sqrt(sum(x * x for x in e) / len(e)))
    best = min(range(9), key=lambda i: rms[i])
    print('%-22s tile %dx%d, %3d items: derived %d (rms %.3f), best %d (rms %.3f); by residency %s' % (
        label, t['M'], t['N'], t['items'], derived, rms[derived - 1], best + 1, rms[best],
        ' '.join('%d:%.3f' % (i + 1, x) for i, x in enumerate(rms))))
