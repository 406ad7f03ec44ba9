#!/usr/bin/env bash
# One gemm_direct set on PoCL's haswell target, on the tuner's own CPU
# problems (single 64^3 and 128^3, the direct plan forced) and on the batch
# the entry's set serves (1000 x 32^3); column-major NN, strict mode. From
# the project root after ./run.sh build, on an idle machine:
#   bash bench/results/pocl-cpu/haswell/direct/tuner/run.sh LABEL PARAMS   -> $OUT_DIR/LABEL-*.csv
set -u
out=${OUT_DIR:-bench/results/pocl-cpu/haswell/direct/tuner}
lab=$1 p=$2
common=(--routine gemm --layout col --trans NN --peers none --math strict --quiet --min-time 0.2
        --override "gemm_direct:$p")
build/bench/oclblas-bench "${common[@]}" --shapes 64x64x64,128x128x128 \
  --override routine:GEMM_MIN_INDIRECT=256 --csv "$out/$lab-single.csv" > /dev/null 2>&1
build/bench/oclblas-bench "${common[@]}" --shapes 32x32x32 --batch 1000 \
  --csv "$out/$lab-batch-1000x32x32x32.csv" > /dev/null 2>&1
