#!/usr/bin/env bash
# On a lent GPU, from the project root, with main before the change (git archive 9994823)
# unpacked in build-s12base: base and new (this tree) built side by side
# (../../shapes-model.sh's steps and file names). Phase 1: the GPU tests of new; the shapes
# preset of both, both modes, twice; the plans of both. Phase 2 (the builds of phase 1 where
# this machine still has them): SGEMV squares of 1000 to 8192 and 3001 x 2999, column-major N
# and T, both trees in turn, twice; ragged SGEMMs, both modes. Writes $OUT/compare-PHASE.tgz.
#   bench/results/nvidia-h200/peeled-gemv/compare.sh 1|2
source .device/env.sh
dest=$OUT
export OUT=$dest/compare-$1
mkdir -p "$OUT"
m=bench/results/shapes-model.sh
[ "$1" = 2 ] && [ -x /tmp/new/bench/oclblas-bench ] && [ -x /tmp/base/bench/oclblas-bench ] ||
  bash $m build new . build base build-s12base > /dev/null 2>&1
if [ "$1" = 1 ]; then
  ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_gemm_tc|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|test_plan|test_model|test_host_plan|test_threads|test_lifetime)$' \
    > "$OUT/ctest.txt" 2>&1
  echo "GPU tests of new: exit $?" >> "$OUT/log.txt"
  for run in 1 2; do
    bash $m compare base compare new > /dev/null 2>&1
    for f in base-default base-strict new-default new-strict; do mv "$OUT/$f.csv" "$OUT/$f-$run.csv"; done
  done
  bash $m plans base plans new > /dev/null 2>&1
else
  squares=1000x1000,1024x1024,2000x2000,2048x2048,2500x2500,3000x3000,3001x2999,4000x4000,4096x4096,8192x8192
  for run in 1 2; do
    for t in base new; do
      for tr in NN TN; do
        /tmp/$t/bench/oclblas-bench --routine gemv --shapes $squares --layout col --trans $tr \
          --peers $([ $run = 1 ] && echo cublas || echo none) --min-time 0.05 --quiet \
          --csv "$OUT/gemv-$t-$tr-$run.csv" > /dev/null 2>&1
        echo "gemv $t $tr $run: exit $?" >> "$OUT/log.txt"
      done
    done
  done
  for t in base new; do
    for tr in NN TN; do
      OCLBLAS_VERBOSE=1 /tmp/$t/bench/oclblas-bench --routine gemv --shapes $squares --layout col --trans $tr \
        --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemv" | sort -u >> "$OUT/gemv-plans-$t.txt"
    done
  done
  ragged=500x500x500,1000x1000x1000,1500x1500x1500,2000x2000x500,1000x1000x4000,3000x3000x3000
  for mode in accurate strict; do
    for t in base new; do
      /tmp/$t/bench/oclblas-bench --routine gemm --shapes $ragged --layout row --trans NN,NT,TN,TT --math $mode \
        --peers cublas --min-time 0.05 --quiet --csv "$OUT/ragged-$t-$mode.csv" > /dev/null 2>&1
      echo "ragged $t $mode: exit $?" >> "$OUT/log.txt"
    done
    echo "== $mode" | tee -a "$OUT/ragged-plans-new.txt" >> "$OUT/ragged-plans-base.txt"
    for t in base new; do
      OCLBLAS_VERBOSE=1 OCLBLAS_MATH_MODE=$mode /tmp/$t/bench/oclblas-bench --routine gemm --shapes $ragged --layout row \
        --trans NN,NT,TN,TT --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u >> "$OUT/ragged-plans-$t.txt"
    done
  done
fi
cat "$OUT/log.txt"
cd "$dest" && tar czf compare-$1.tgz compare-$1 && rm -rf compare-$1
