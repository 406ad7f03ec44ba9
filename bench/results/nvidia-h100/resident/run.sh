#!/usr/bin/env bash
# The work-groups an SM holds at once for every GEMM set of this GPU's entry, in both math modes'
# programs: oclblas_cache_fill into an empty folder, then resident.py on it. From the project root
# after ../shared/gpu/stage.sh: bench/results/nvidia-h100/resident/run.sh (writes $OUT/resident.txt)
source .device/env.sh
set -uo pipefail
d=bench/results/nvidia-h100/resident
bash bench/results/shapes-model.sh build new . > /dev/null 2>&1
gcc -O2 -o /tmp/fill $d/fill.c -Iinclude -L/tmp/new -loclblas -lOpenCL -Wl,-rpath,/tmp/new
rm -rf /tmp/rcache; mkdir -p /tmp/rcache
OCLBLAS_CACHE_DIR=/tmp/rcache /tmp/fill > $OUT/resident.txt 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader >> $OUT/resident.txt
python3 $d/resident.py /tmp/rcache | sort -u >> $OUT/resident.txt 2>&1
