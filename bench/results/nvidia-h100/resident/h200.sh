#!/usr/bin/env bash
# The same for the H200's entry, in one run on an H200: the groups each of its gemm_fast sets holds
# (run.sh's fill and resident.py), written into a copy of the entry as "resident" (the lower of a
# set's programs: those whose -D options hold all the set's parameters), then compare.sh's runs with
# the entry without them (before) and with them (after), both loaded by OCLBLAS_DATABASE. From the
# project root after ../shared/gpu/stage.sh, run's kind nvidia-h200:
#   bench/results/nvidia-h100/resident/h200.sh   (writes $OUT/h200.tgz)
source .device/env.sh
set -uo pipefail
d=bench/results/nvidia-h100/resident
o=$OUT/h200; mkdir -p $o
bash bench/results/shapes-model.sh build new . > $o/build.txt 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader > $o/gpu.txt
grep -q H200 $o/gpu.txt || { echo "not an H200: $(cat $o/gpu.txt)"; exit 1; }
gcc -O2 -o /tmp/fill $d/fill.c -Iinclude -L/tmp/new -loclblas -lOpenCL -Wl,-rpath,/tmp/new
rm -rf /tmp/rcache; mkdir -p /tmp/rcache
OCLBLAS_CACHE_DIR=/tmp/rcache /tmp/fill > $o/resident.txt 2>&1
python3 $d/resident.py /tmp/rcache | sort -u >> $o/resident.txt 2>&1
python3 - database/nvidia/h200.json $o/resident.txt /tmp/before.json /tmp/after.json <<'P' > $o/sets.txt
import json, sys
entry = json.load(open(sys.argv[1]))
held = []
for line in open(sys.argv[2]):
    if line.startswith('gemm_fast '):
        head, keys = line.split(' :: ')
        held.append((int(head.split()[-1]), dict(kv.split('=') for kv in keys.strip().split(','))))
def resident(params):
    found = [r for r, opts in held if all(opts.get(k) == str(v) for k, v in params.items())]
    return min(found) if found else None
entry.pop('resident', None)
for c in entry['classes']:
    c.pop('resident', None)
json.dump(entry, open(sys.argv[3], 'w'), indent=2)
r = resident(entry['parameters']['gemm_fast'])
print('every shape', r)
if r: entry['resident'] = {'gemm_fast': r}
for c in entry['classes']:
    if 'gemm_fast' in c['parameters']:
        r = resident(c['parameters']['gemm_fast'])
        print(c['name'], r)
        if r: c['resident'] = {'gemm_fast': r}
json.dump(entry, open(sys.argv[4], 'w'), indent=2)
P
b=/tmp/new/bench/oclblas-bench
squares=512x512x512,768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536,2048x2048x2048
for t in before after; do
  db=/tmp/$t.json
  for math in strict accurate; do
    OCLBLAS_DATABASE=$db $b --preset shapes --layout row --peers cublas --math $math --min-time 0.05 --quiet \
      --csv $o/$t-shapes-$math.csv > /dev/null 2>&1; echo "$t shapes $math: $?" >> $o/log.txt
    OCLBLAS_DATABASE=$db OCLBLAS_VERBOSE=1 $b --preset shapes --layout row --peers none --math $math --reps 2 \
      --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/$t-shapes-$math-plans.txt
  done
  OCLBLAS_DATABASE=$db $b --routine gemm --shapes $squares --layout row --trans NN,TT --peers cublas --math strict \
    --min-time 0.05 --quiet --csv $o/$t-squares-strict.csv > /dev/null 2>&1; echo "$t squares: $?" >> $o/log.txt
  OCLBLAS_DATABASE=$db OCLBLAS_VERBOSE=1 $b --preset batched --peers none --math strict --reps 2 --quiet 2>&1 \
    | grep "^oclblas: sgemm" | sort -u > $o/$t-batched-strict-plans.txt
done
cp /tmp/after.json $o/h200-after.json
tar czf $OUT/h200.tgz -C $OUT h200 && rm -rf $o
