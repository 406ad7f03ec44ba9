#!/usr/bin/env bash
# The H100's own rates for the cost model: each set of its entry at 4096^3 column-major NT in
# place (gemm_direct: 1024^3 row-major NN), the entry rewritten with them, and the shapes preset
# in both modes with that entry loaded at run time (OCLBLAS_DATABASE).
source .device/env.sh
o=$OUT/h; mkdir -p $o
(cmake -S . -B /tmp/final -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF && cmake --build /tmp/final -j16) > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate bench/results/shapes-model/calibrate.c -Iinclude -L/tmp/final -loclblas -lOpenCL -Wl,-rpath,/tmp/final || exit 1
/tmp/calibrate < bench/results/nvidia-h100/closing/rates-list.txt > $o/rates.csv 2> $o/calibrate-err.txt; echo "calibrate $?"; cat $o/rates.csv | cut -d, -f1-9 | head -30
python3 - $o <<'PY'
import csv, json, sys, statistics, collections
o = sys.argv[1]
t = collections.defaultdict(list)
for r in csv.DictReader(open(o + '/rates.csv')):
    t[r['label']].append(float(r['us']))
rate = {k: (2 * 1024**3 if k.startswith('direct') else 2 * 4096**3) / (min(v) * 1e-6) / 1e9 for k, v in t.items()}
print({k: round(v) for k, v in rate.items()})
e = json.load(open('database/nvidia/h100.json'))
e['rates'] = {'gemm_fast': round(rate['fast:all'], -2), 'gemm_direct': round(rate['direct:all'], -2), 'gemm_tc': round(rate['tc:all'], -2)}
for c in e['classes']:
    if 'fast:' + c['name'] in rate:
        c['rates'] = {'gemm_fast': round(rate['fast:' + c['name']], -2)}
json.dump(e, open(o + '/h100.json', 'w'), indent=2)
PY
for m in accurate strict; do OCLBLAS_DATABASE=$o/h100.json /tmp/final/bench/oclblas-bench --preset shapes --layout row --peers cublas,clblast --math $m --min-time 0.05 --quiet --csv $o/rated-$m.csv > $o/rated-$m.txt 2>&1; echo "bench $m $?"; done
OCLBLAS_DATABASE=$o/h100.json OCLBLAS_VERBOSE=1 /tmp/final/bench/oclblas-bench --preset shapes --layout row --peers none --math strict --min-time 0.001 --quiet 2>&1 | grep "oclblas: sgemm.*NN:" > $o/rated-plans.txt
cd $o && tar czf /tmp/h.tgz . && cd / && rm -rf $o && mv /tmp/h.tgz $OUT/
