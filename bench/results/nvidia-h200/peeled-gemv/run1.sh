#!/usr/bin/env bash
# On a lent H200, from the project root: the H200 entry's gemm_fast sets timed for a k that is not
# whole tiles (../../nvidia-h100/peeled/calibrate, `h200`), then the H100's mid-size SGEMV sets
# against the H200 entry's plans (../../nvidia-h100/gemv-runs/vw1.sh and vt.sh). Everything comes
# back in $OUT as tar files.
set -uo pipefail
h100=bench/results/nvidia-h100
mkdir -p $OUT/calibrate
OUT=$OUT/calibrate bash $h100/peeled/calibrate/run.sh h200
tar czf $OUT/calibrate.tgz -C $OUT calibrate && rm -rf $OUT/calibrate
bash $h100/gemv-runs/vw1.sh
bash $h100/gemv-runs/vt.sh
