#!/usr/bin/env bash
# The H100 entry with its sets' "resident" (after) and without (before: the entry less that member,
# loaded by OCLBLAS_DATABASE over the compiled-in one; the model then estimates them as it did): the
# shapes preset in both modes, the batched preset and squares of 512 to 2048, row-major, against
# cuBLAS, each problem's plan beside. From the project root after ../shared/gpu/stage.sh:
#   bench/results/nvidia-h100/resident/compare.sh   (writes $OUT/compare.tgz; an H100 only: run's kind
#   nvidia-h100-x1)
source .device/env.sh
set -uo pipefail
o=$OUT/compare; mkdir -p $o
bash bench/results/shapes-model.sh build new . > $o/build.txt 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader > $o/gpu.txt
grep -q H100 $o/gpu.txt || { echo "not an H100: $(cat $o/gpu.txt)"; exit 1; }
python3 -c "
import json, sys
d = json.load(open('database/nvidia/h100.json'))
d.pop('resident', None)
for c in d['classes']:
    c.pop('resident', None)
json.dump(d, open('/tmp/before.json', 'w'), indent=2)"
b=/tmp/new/bench/oclblas-bench
squares=512x512x512,768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536,2048x2048x2048
for t in before after; do
  db=$([ $t = before ] && echo /tmp/before.json || echo "")
  for math in strict accurate; do
    OCLBLAS_DATABASE=$db $b --preset shapes --layout row --peers cublas --math $math --min-time 0.05 --quiet \
      --csv $o/$t-shapes-$math.csv > /dev/null 2>&1; echo "$t shapes $math: $?" >> $o/log.txt
    OCLBLAS_DATABASE=$db OCLBLAS_VERBOSE=1 $b --preset shapes --layout row --peers none --math $math --reps 2 \
      --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/$t-shapes-$math-plans.txt
    OCLBLAS_DATABASE=$db $b --routine gemm --shapes $squares --layout row --trans NN,TT --peers cublas --math $math \
      --min-time 0.05 --quiet --csv $o/$t-squares-$math.csv > /dev/null 2>&1; echo "$t squares $math: $?" >> $o/log.txt
  done
  OCLBLAS_DATABASE=$db OCLBLAS_VERBOSE=1 $b --preset batched --peers none --math strict --reps 2 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/$t-batched-strict-plans.txt
  OCLBLAS_DATABASE=$db $b --preset batched --peers cublas --math strict --min-time 0.05 --quiet \
    --csv $o/$t-batched-strict.csv > /dev/null 2>&1; echo "$t batched: $?" >> $o/log.txt
done
OCLBLAS_VERBOSE=1 $b --routine gemm --shapes $squares --layout row --trans NN,TT --peers none --math strict --reps 2 \
  --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/after-squares-strict-plans.txt
OCLBLAS_DATABASE=/tmp/before.json OCLBLAS_VERBOSE=1 $b --routine gemm --shapes $squares --layout row --trans NN,TT \
  --peers none --math strict --reps 2 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/before-squares-strict-plans.txt
ctest --test-dir /tmp/new -j4 --timeout 300 -R '^(test_model|test_plan|test_sgemm|test_batched|test_gemm_tc)$' \
  > $o/ctest.txt 2>&1; echo "ctest: $?" >> $o/log.txt
tar czf $OUT/compare.tgz -C $OUT compare && rm -rf $o
