#!/usr/bin/env bash
# Offline check of kernels/gemm_tc.cl and tc_probes.cl for NVIDIA, on a
# machine without a GPU:
# each configuration of configs.txt is compiled by clang (OpenCL C to NVPTX,
# the built-ins from ptx-check-prelude.h) and assembled by the CUDA
# toolkit's ptxas for sm_90, which reports registers, spills and shared
# memory and proves that the inline PTX assembles. With nvdisasm (env
# NVDISASM, e.g. from the nvidia-cuda-nvdisasm wheel) it also counts the
# SASS of the loop that holds the MMAs. clang's code is not NVIDIA's
# OpenCL compiler's (both are LLVM-based, so the figures are close, not
# equal); the GPU run's -cl-nv-verbose lines are the real ones.
#     bash proto/ptx-check.sh [configs.txt] [OUT folder]
set -u
here=$(cd "$(dirname "$0")" && pwd)
configs=${1:-$here/configs.txt}
out=${2:-/tmp/tc-ptx-check}
kernel=$here/gemm_tc.cl
[ -f "$kernel" ] || kernel=$here/../../kernels/gemm_tc.cl
clang=$(command -v clang-15 || command -v clang)
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
nvdisasm=${NVDISASM:-$(command -v nvdisasm || true)}
mkdir -p "$out"
gcc -std=c11 -O2 -o "$out/tc_probe" "$here/tc_probe.c" -lOpenCL -lm || exit 1
"$out/tc_probe" legal --config "$configs" > "$out/legal.txt"
printf '%-40s %5s %7s %7s %6s   %s\n' config regs spillST spillLD smem "SASS of the MMA loop: HMMA LDS LDGSTS int-ALU FP32 other"
grep -v '^[[:space:]]*#' "$configs" | grep -v '^[[:space:]]*$' | while read -r line; do
  name=${line%% *}
  derived=$(grep "^$name " "$out/legal.txt" | sed -n 's/.*legal: \([^|]*\)|.*/\1/p')
  if [ -z "$derived" ]; then echo "$name: $(grep "^$name " "$out/legal.txt")"; continue; fi
  defs=$(echo "${line#* } $derived" | sed 's/\([A-Z_]*=\)/-D\1/g')
  smem=""
  [[ "$line" == *CP_ASYNC=1* ]] && smem="-DTC_SMEM_ADDR=1"
  if ! "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -Xclang -finclude-default-header \
      -include "$here/ptx-check-prelude.h" -DTC_ASM=__asm__ $defs $smem -S -o "$out/$name.ptx" "$kernel" \
      2> "$out/$name.clang.txt"; then
    echo "$name: clang FAILED"; head -5 "$out/$name.clang.txt"; continue
  fi
  # clang emits PTX 7.x for sm_80; ptxas assembles it for sm_90.
  if ! "$ptxas" -v -arch=sm_90 -o "$out/$name.cubin" "$out/$name.ptx" > "$out/$name.ptxas.txt" 2>&1; then
    echo "$name: ptxas FAILED"; head -5 "$out/$name.ptxas.txt"; continue
  fi
  regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$out/$name.ptxas.txt")
  sst=$(sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p' "$out/$name.ptxas.txt")
  sld=$(sed -n 's/.* \([0-9]*\) bytes spill loads.*/\1/p' "$out/$name.ptxas.txt")
  sm=$(sed -n 's/.* \([0-9]*\) bytes smem.*/\1/p' "$out/$name.ptxas.txt")
  mix=""
  if [ -n "$nvdisasm" ]; then
    "$nvdisasm" -c "$out/$name.cubin" > "$out/$name.sass" 2>/dev/null
    # The MMA loop: from the last label before the first HMMA to the first
    # branch after the last HMMA.
    mix=$(awk '{ line[NR] = $0 } /HMMA/ { if (!f) f = NR; l = NR }
      END {
        s = f; while (s > 1 && line[s] !~ /^\.L_x/) s--
        e = l; while (e < NR && line[e] !~ / BRA /) e++
        for (i = s; i <= e; i++) {
          n = split(line[i], w, /[ \t;]+/); op = ""
          for (j = 1; j <= n; j++) if (w[j] ~ /^[A-Z][A-Z0-9_]*(\.|$)/ && w[j] != "PT") { op = w[j]; break }
          sub(/\..*/, "", op)
          if (op == "") continue
          if (op == "HMMA") h++; else if (op == "LDS") s2++; else if (op == "LDGSTS") g++
          else if (op ~ /^(LOP3|IADD3|VIADD|ISETP|SEL|SHF|LEA|IABS|IMNMX|PRMT|MOV)$/) a++
          else if (op ~ /^(FADD|FMUL|FFMA|FSETP|FSEL|FMNMX)$/) fp++
          else o++
        }
        printf "%4d %4d %4d %5d %5d %5d", h, s2, g, a, fp, o }' "$out/$name.sass")
  fi
  printf '%-40s %5s %7s %7s %6s   %s\n' "$name" "$regs" "${sst:-0}" "${sld:-0}" "$sm" "$mix"
done
# The probes: does each one's inline PTX assemble?
for p in "-DPROBE_MMA" "-DPROBE_CVT" "-DPROBE_ADDR" "-DPROBE_CPASYNC -DTC_SMEM_ADDR=1" "-DPROBE_CPASYNC -DTC_SMEM_ADDR=2" \
         "-DPROBE_CPASYNC -DTC_SMEM_ADDR=3"; do
  sed 's/\basm volatile/__asm__ volatile/g' "$here/tc_probes.cl" > "$out/probes.cl"
  if "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -Xclang -finclude-default-header \
      -include "$here/ptx-check-prelude.h" $p -S -o "$out/probe.ptx" "$out/probes.cl" 2> "$out/probe.clang.txt" &&
     "$ptxas" -arch=sm_90 -o "$out/probe.cubin" "$out/probe.ptx" > "$out/probe.ptxas.txt" 2>&1; then
    echo "probe $p: assembles for sm_90"
  else
    echo "probe $p: FAILED"; cat "$out/probe.clang.txt" "$out/probe.ptxas.txt" | head -5
  fi
done
