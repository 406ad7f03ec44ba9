#!/usr/bin/env bash
# A user's quick tuning on a lent GPU, end to end: oclblas-tune --quick into a
# fresh entry (the rates of the sets it chose measured, since the compiled-in
# entry gives the device the cost model's facts), then the entry loaded with
# OCLBLAS_DATABASE: the verbose log's plans show whether the model chose among
# the new sets. From the project root:
#   bash bench/results/nvidia-h100/tuner-rates/quick.sh    -> $OUT/quick
source .device/env.sh
set -uo pipefail
o=$OUT/quick
mkdir -p "$o"
{ cmake -S . -B /tmp/quick -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF &&
  cmake --build /tmp/quick -j16; } > /tmp/quick-build.log 2>&1 || { tail -30 /tmp/quick-build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$o/log.txt"
/tmp/quick/tuner/oclblas-tune -d gpu --quick -o "$o/quick.json" -j "$o/quick.journal" > "$o/tune.txt" 2>&1
echo "tune exit $?" >> "$o/log.txt"
shapes=512x512x512,1000x1000x1000,4096x4096x4096,4096x32x4096,1024x1024x16384
for db in shipped quick; do
  env $([ $db = quick ] && echo OCLBLAS_DATABASE=$o/quick.json) OCLBLAS_VERBOSE=1 \
    /tmp/quick/bench/oclblas-bench --routine gemm --shapes $shapes --layout col --trans NN --math strict \
    --peers cublas --quiet --csv "$o/$db.csv" > "$o/$db.txt" 2>&1
  echo "bench $db exit $?" >> "$o/log.txt"
done
grep -h "^rates\|entry checked" "$o/tune.txt" >> "$o/log.txt"
for db in shipped quick; do grep -E "oclblas: sgemm .*(model|class)" "$o/$db.txt" | sort -u | sed "s/^/$db: /"; done >> "$o/log.txt"
cat "$o/log.txt"
