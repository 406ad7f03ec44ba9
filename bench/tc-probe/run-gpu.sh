#!/usr/bin/env bash
# One GPU run of the tensor-core SGEMM kernel's development harness
# (kernels/gemm_tc.cl outside the library), in one command, in a few
# minutes. From the repository root, after `source .device/env.sh`:
#     bash bench/tc-probe/run-gpu.sh [FOLDER]
# FOLDER (default: this script's folder) holds gemm_tc.cl (else
# kernels/gemm_tc.cl of the checkout is used), tc_probe.c, tc_probes.cl,
# tc_data.h, configs.txt and cublas_peer.cu. Everything goes to $OUT
# (default ./tc-out): nvidia-smi, clinfo, the probes, cuBLAS on the same
# operands, one log per configuration, the PTX of each with `ptxas -v`,
# summary.tsv; the compact summary is printed last.
# It builds the harness with gcc, runs the probes (mma.sync layout and
# arithmetic, cvt, cp.async address variants), then each configuration of
# configs.txt (correctness, accuracy at 1024^3 and 4096^3, kernel time at
# 4096^3, 8192^3, 2048^3, 4096x4096x1024, 8192x1024x4096; TC_SIZES), each capped at TC_CONFIG_TIMEOUT seconds
# (default 75), none started after TC_BUDGET seconds (default 240).
# TC_CONFIGS names another configuration file.
set -u
here=$(cd "${1:-$(dirname "$0")}" && pwd)
out=${OUT:-$PWD/tc-out}
budget=${TC_BUDGET:-240}
cap=${TC_CONFIG_TIMEOUT:-75}
configs=${TC_CONFIGS:-$here/configs.txt}
# kernel-time problems: N (a cube) or MxNxK, for the configurations and cuBLAS
sizes=${TC_SIZES:-4096,8192,2048,4096x4096x1024,8192x1024x4096}
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
mkdir -p "$out/cfg" "$out/ptx"
: > "$out/summary.tsv"
tmp=$(mktemp -d)
exec > >(tee -a "$out/run.log") 2>&1

kernel=$here/gemm_tc.cl
[ -f "$kernel" ] || kernel=$here/../../kernels/gemm_tc.cl
for f in "$kernel" "$here/tc_probe.c" "$here/tc_probes.cl" "$here/tc_data.h" "$configs"; do
  [ -f "$f" ] || { echo "FATAL missing $f"; exit 1; }
done

echo "==== machine"
nvidia-smi > "$out/nvidia-smi.txt" 2>&1
nvidia-smi -q > "$out/nvidia-smi-q.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader 2>&1 | head -2
command -v clinfo > /dev/null && clinfo > "$out/clinfo.txt" 2>&1
cuda_bin=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
nvcc=$cuda_bin/nvcc
ptxas=$(command -v ptxas 2>/dev/null || echo "$cuda_bin/ptxas")
{ "$nvcc" --version; "$ptxas" --version; gcc --version; } > "$out/toolchain.txt" 2>&1

echo "==== build"
if ! gcc -std=c11 -O2 -Wall -Wextra -o "$tmp/tc_probe" "$here/tc_probe.c" -lOpenCL -lm > "$out/build.txt" 2>&1; then
  cat "$out/build.txt"; echo "FATAL the harness does not build"; exit 1
fi
# cuBLAS peer: compiled in the background while the probes run.
peer_ok=0
if [ -x "$nvcc" ] && [ -f "$here/cublas_peer.cu" ]; then
  (timeout 120 "$nvcc" -O2 -o "$tmp/cublas_peer" "$here/cublas_peer.cu" -lcublas > "$out/cublas-build.txt" 2>&1) &
  peer_pid=$!
fi
timeout 30 "$tmp/tc_probe" info | tee "$out/device.txt"
arch=$(sed -n 's/.*compute capability \([0-9]\)\.\([0-9]\).*/sm_\1\2/p' "$out/device.txt" | head -1)

echo "==== probes ($(elapsed) s)"
# One process per probe: a probe that faults cannot spoil the others.
: > "$out/probes.log"
for p in mma cvt addr cp1 cp2 cp3; do
  timeout 30 "$tmp/tc_probe" probes --probes "$here/tc_probes.cl" --only $p >> "$out/probes.log" 2>&1
  echo "probe $p: exit status $?" >> "$out/probes.log"
done
grep -E '^(PROBE|FATAL)|log\|' "$out/probes.log" | cut -c1-230 | head -40
smem=$(sed -n 's/^PROBE cp.async TC_SMEM_ADDR=\([0-9]\): OK.*/\1/p' "$out/probes.log" | head -1)
echo "RECOMMEND TC_SMEM_ADDR=${smem:-none}" | tee -a "$out/probes.log"

if [ -n "${peer_pid:-}" ]; then
  wait "$peer_pid"
  if [ -x "$tmp/cublas_peer" ]; then
    echo "==== cuBLAS on the same operands ($(elapsed) s)"
    timeout 60 "$tmp/cublas_peer" 1024,4096 "$sizes" > "$out/cublas.log" 2>&1
    grep -E '^(PEER|ACCURACY|TIME|NOTE|FATAL)' "$out/cublas.log"
  else
    echo "cuBLAS peer not built (see cublas-build.txt)"; tail -3 "$out/cublas-build.txt"
  fi
fi

echo "==== configurations ($(elapsed) s; none started after ${budget} s)"
grep -v '^[[:space:]]*#' "$configs" | grep -v '^[[:space:]]*$' > "$tmp/configs"
while read -r line; do
  name=${line%% *}
  log=$out/cfg/$name.log
  if [ "$(elapsed)" -ge "$budget" ]; then
    printf '%s\tskipped (time budget)\n' "$name" >> "$out/summary.tsv"; continue
  fi
  if [[ "$line" == *CP_ASYNC=1* ]] && [ -z "$smem" ] && grep -q '^PROBE cp.async' "$out/probes.log"; then
    printf '%s\tskipped (no cp.async variant works)\n' "$name" >> "$out/summary.tsv"; continue
  fi
  t0=$(date +%s)
  timeout "$cap" "$tmp/tc_probe" run --kernel "$kernel" --config "$line" --smem-addr "${smem:-1}" --out "$out/ptx" --sizes "$sizes" \
    --summary "$out/summary.tsv" > "$log" 2>&1 < /dev/null
  rc=$?
  [ $rc -eq 124 ] && printf '%s\ttimeout (%s s)\n' "$name" "$cap" >> "$out/summary.tsv"
  regs=""
  if [ -x "$ptxas" ] && [ -f "$out/ptx/$name.ptx" ] && [ -n "$arch" ]; then
    timeout 20 "$ptxas" -v -arch="$arch" "$out/ptx/$name.ptx" -o "$tmp/$name.cubin" > "$out/ptx/$name.ptxas.txt" 2>&1
    regs=$(grep -Eo 'Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)' "$out/ptx/$name.ptxas.txt" | tr '\n' ' ')
    # The SASS, for the instruction mix of NVIDIA's own code (NOTES.md).
    [ -x "$cuda_bin/cuobjdump" ] && [ -f "$tmp/$name.cubin" ] &&
      timeout 20 "$cuda_bin/cuobjdump" -sass "$tmp/$name.cubin" > "$out/ptx/$name.sass" 2>&1
  fi
  echo "-- $name: exit $rc, $(($(date +%s) - t0)) s ${regs:+| ptxas: $regs}"
  grep -E '^(CONFIG .*ILLEGAL|BUILD .*FAILED|FATAL)|  ptxas\|.*(Used|spill)|^CORRECT .*(FAIL|cases pass)|^ACCURACY .*4096x|^TIME |WRONG|  log\|' \
    "$log" | cut -c1-200 | head -14
done < "$tmp/configs"

echo
echo "==== SUMMARY ($(elapsed) s; full logs in $out)"
head -1 "$out/device.txt"
grep -E '^PROBE (mma layout|cvt|cp.async)|^RECOMMEND|^PROBE mma arithmetic, (sum|alignment|subnormal|overflow|low operand bits \(A = 1 \+ 2\^-12)' \
  "$out/probes.log" | cut -c1-160
[ -f "$out/cublas.log" ] && grep -E '^(TIME|ACCURACY .*4096x)' "$out/cublas.log"
echo "(accuracy: max |C-C64|/(|A||B|) / ||C-C64||/||C64|| at the largest accuracy size, 4096^3 on the GPU)"
printf '%-40s %-7s %-22s %-22s %s\n' "config" "correct" "uniform max/norm" "spread max/norm" "size:TFLOPS"
awk -F'\t' '{
  if ($2 != "ok") { printf "%-40s %s\n", $1, $2 (NF > 2 ? ": " $3 : ""); next }
  t = ""; for (i = 9; i <= NF; ++i) t = t " " $i
  printf "%-40s %-7s %-22s %-22s%s\n", $1, $4, $5 "/" $6, $7 "/" $8, t
}' "$out/summary.tsv"
best() { awk -F'\t' -v p="$1" '$2 == "ok" && $3 == p && $0 !~ /WRONG/ {
  for (i = 9; i <= NF; ++i) if ($i ~ /^4096:/) { v = substr($i, 6) + 0; if (v > b) { b = v; n = $1 } } }
  END { if (n != "") printf "%s %.1f\n", n, b }' "$out/summary.tsv"; }
fp32=$(sed -n 's/^TIME cublas-fp32  4096^3.*, \([0-9.]*\) TFLOPS$/\1/p' "$out/cublas.log" 2>/dev/null)
tf32=$(sed -n 's/^TIME cublas-tf32  4096^3.*, \([0-9.]*\) TFLOPS$/\1/p' "$out/cublas.log" 2>/dev/null)
read -r bx vx <<< "$(best P3)"
read -r bt vt <<< "$(best P1)"
echo "BEST accurate (3xTF32) at 4096^3: ${bx:-none} ${vx:-} TFLOPS (target 75; cuBLAS FP32 ${fp32:-?})"
echo "BEST tf32 (1xTF32) at 4096^3:     ${bt:-none} ${vt:-} TFLOPS (target 200; cuBLAS TF32 ${tf32:-?})"
echo "total $(elapsed) s"
rm -rf "$tmp"
