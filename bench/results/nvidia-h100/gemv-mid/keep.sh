#!/usr/bin/env bash
# The tuner into a copy of this GPU's compiled-in entry, one kernel (gemv_n,
# two candidates, with the class gemv-small): what it did not tune must come
# out as it went in (keep.py). On a lent GPU from the project root:
#   bash bench/results/nvidia-h100/gemv-mid/keep.sh    -> $OUT/keep
source .device/env.sh
set -uo pipefail
o=$OUT/keep
mkdir -p "$o"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case $name in *H200*) entry=database/nvidia/h200.json ;; *) entry=database/nvidia/h100.json ;; esac
echo "$name, $entry" > "$o/log.txt"
{ cmake -S . -B /tmp/keep -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF &&
  cmake --build /tmp/keep -j16 --target oclblas-tune; } > /tmp/keep-build.log 2>&1 || { tail -30 /tmp/keep-build.log; exit 1; }
cp "$entry" "$o/entry.json"
/tmp/keep/tuner/oclblas-tune -d gpu -k gemv_n -n 2 --class "gemv-small:k <= 1, m*n <= 26000000:4096x4096" \
  -o "$o/entry.json" -j "$o/keep.journal" > "$o/tune.txt" 2>&1
echo "tune exit $?" >> "$o/log.txt"
python3 bench/results/nvidia-h100/gemv-mid/keep.py "$entry" "$o/entry.json" >> "$o/log.txt" 2>&1
echo "keep.py exit $?" >> "$o/log.txt"
cat "$o/log.txt"
