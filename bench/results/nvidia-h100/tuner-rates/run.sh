#!/usr/bin/env bash
# The rates oclblas-tune writes, on a lent H100 or H200: its test (tune_run,
# where the database gives the device the cost model's facts), then the
# tuner with one configuration per search (-n 1: the entry's own set) on
# gemm_fast, gemm_direct and gemm_tc into a copy of the GPU's compiled-in
# entry, so that the rates it writes sit beside those the entry holds
# (bench/results/shapes-model/calibrate.c): compare.py. From the project root:
#   bash bench/results/nvidia-h100/tuner-rates/run.sh    -> $OUT/rates
source .device/env.sh
set -uo pipefail
here=bench/results/nvidia-h100/tuner-rates
o=$OUT/rates
mkdir -p "$o"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case $name in *H200*) entry=database/nvidia/h200.json ;; *) entry=database/nvidia/h100.json ;; esac
echo "$name, $entry, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)" > "$o/log.txt"
{ cmake -S . -B /tmp/rates -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_CBLAS=OFF &&
  cmake --build /tmp/rates -j16; } > /tmp/rates-build.log 2>&1 || { tail -30 /tmp/rates-build.log; exit 1; }
ctest --test-dir /tmp/rates --timeout 500 -R '^tune_run$' --output-on-failure > "$o/ctest.txt" 2>&1
echo "ctest tune_run exit $?" >> "$o/log.txt"
cp "$entry" "$o/entry.json"
/tmp/rates/tuner/oclblas-tune -d gpu -k gemm_fast,gemm_direct,gemm_tc -n 1 -o "$o/entry.json" \
  -j "$o/rates.journal" > "$o/tune.txt" 2>&1
echo "tune exit $?" >> "$o/log.txt"
python3 "$here/compare.py" "$entry" "$o/entry.json" > "$o/compare.txt" 2>&1
echo "compare.py exit $?" >> "$o/log.txt"
cat "$o/log.txt" "$o/compare.txt"
