#!/usr/bin/env bash
# On a lent H100, from the project root: build the tree in /tmp/new and time
# list.py's commands with calibrate.c -> $OUT/calibrate.csv, then the same
# commands once more under OCLBLAS_VERBOSE=1 for the plans they ran
# ($OUT/plans.txt; a separate run, so that the log's writes time nothing).
#   bench/results/nvidia-h100/peeled/calibrate/run.sh [h100|h200]
source .device/env.sh # before set -e: its probes of the driver's paths fail where a path is absent
set -euo pipefail
here=bench/results/nvidia-h100/peeled/calibrate
out=${OUT:-gpu-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
cmake -S . -B /tmp/new -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF > /tmp/build.log 2>&1
cmake --build /tmp/new -j16 >> /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate \
  bench/results/shapes-model/calibrate.c -Iinclude -L/tmp/new -loclblas -lOpenCL -Wl,-rpath,/tmp/new
python3 $here/list.py "${1:-h100}" > /tmp/list.txt
/tmp/calibrate < /tmp/list.txt > "$out/calibrate-${1:-h100}.csv"
OCLBLAS_VERBOSE=1 /tmp/calibrate < /tmp/list.txt 2>&1 >/dev/null | uniq > "$out/plans-${1:-h100}.txt"
