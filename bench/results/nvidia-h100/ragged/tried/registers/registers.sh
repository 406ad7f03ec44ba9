#!/usr/bin/env bash
# On a lent H100, from the project root: build each gemm_fast source named
# (default: the ones below) with NVIDIA's OpenCL for every set in sets.txt
# (the options the library passes, -D for every parameter and derived
# size) and print ptxas's registers and spill stores for sm_90.
#   bash bench/results/nvidia-h100/ragged/tried/registers/registers.sh [FILE.cl ...]
source .device/env.sh
here=bench/results/nvidia-h100/ragged/tried/registers
if [ $# -eq 0 ]; then
  git show 1a2241e:kernels/gemm_fast.cl > /tmp/before.cl # main before
  set -- /tmp/before.cl kernels/gemm_fast.cl $here/first-k-tile.cl $here/rest-after-loop.cl $here/rest-before-loop.cl
fi
gcc -O2 -o /tmp/ptx $here/ptx.c -lOpenCL
while read -r opts; do
  echo "== $opts"
  for f in "$@"; do
    /tmp/ptx "$f" "-cl-std=CL1.2 $opts -DOCLBLAS_NVIDIA=1" > /tmp/k.bin || { echo "  $f: build failed"; continue; }
    python3 -c "import sys; b=open('/tmp/k.bin','rb').read(); i=b.find(b'.version'); j=b.find(b'\\0',i); sys.stdout.write(b[i:(j if j>0 else len(b))].decode('latin1'))" > /tmp/k.ptx
    echo "  $(basename "$f"): $(/usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/k.ptx -o /tmp/k.cubin 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ')"
  done
done < $here/sets.txt
