#!/usr/bin/env bash
# The logic of kernels/gemm_tc.cl on a CPU (PoCL), in its emulation mode:
# every configuration of configs-emu.txt (or $1) runs tc_probe's correctness
# cases (edges, split of k, alpha/beta, beta = 0 with NaN in C, Inf, NaN,
# tiny, huge, overflow) and a long-k accuracy check against float64. Then
# two runs with the tensor cores modelled as flushing subnormals (--ftz):
# GUARD = 2 with the range [2^-51, 2^63] must still pass everything; GUARD = 1
# is shown failing the tiny and subnormal cases, which is what the guard's
# range is for. With FULL=1 it also runs the first three GPU
# configurations (each costs PoCL about 90 s of compilation).
# Exit status 0 when every required run passes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
configs=${1:-$here/configs-emu.txt}
kernel=$here/gemm_tc.cl
[ -f "$kernel" ] || kernel=$here/../../kernels/gemm_tc.cl
tmp=$(mktemp -d)
gcc -std=c11 -O2 -Wall -Wextra -o "$tmp/tc_probe" "$here/tc_probe.c" -lOpenCL -lm || exit 1
fail=0
run() { # run "config line" [extra options]
  local line=$1; shift
  "$tmp/tc_probe" run --emulate --device cpu --kernel "$kernel" --config "$line" --acc 64x64x4096 "$@" > "$tmp/log" 2>&1
  local rc=$?
  grep -E '^CONFIG .*ILLEGAL|^BUILD .*FAILED|  log\||^CORRECT .*(FAIL|cases pass)|^ACCURACY|^FATAL' "$tmp/log" | cut -c1-190
  return $rc
}
lines() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$'; }
while read -r line; do
  echo "== ${line%% *}"
  run "$line" || fail=1
done < <(lines "$configs")
if [ "${FULL:-0}" = 1 ]; then
  while read -r line; do
    echo "== ${line%% *} (GPU configuration)"
    run "$line" --phases correct || fail=1
  done < <(lines "$here/configs.txt" | head -3)
fi
echo "== flushing tensor cores, GUARD = 2 on [2^-51, 2^63]: must pass"
run "ftz-g2 BM=64 BN=64 BK=16 WM=32 WN=32 STAGES=3 CP_ASYNC=1 SPLIT=0 PADA=8 PADB=8 PRODUCTS=3 PROMOTE=2 GUARD=2 LOOP=0 FRAGV=1 CHUNK=0 KPAIR=0 GUARD_EMIN=-51 GUARD_EMAX=63" \
  --ftz --phases correct || fail=1
run "ftz-g2-chunk BM=64 BN=64 BK=16 WM=32 WN=32 STAGES=3 CP_ASYNC=1 SPLIT=0 PADA=8 PADB=8 PRODUCTS=3 PROMOTE=0 GUARD=2 LOOP=2 FRAGV=4 CHUNK=1 KPAIR=0 GUARD_EMIN=-51 GUARD_EMAX=63" \
  --ftz --phases correct || fail=1
echo "== flushing tensor cores, GUARD = 1: tiny-2^-115 and subnormal-lo-terms are expected to FAIL"
run "ftz-g1 BM=64 BN=64 BK=16 WM=32 WN=32 STAGES=3 CP_ASYNC=1 SPLIT=0 PADA=8 PADB=8 PRODUCTS=3 PROMOTE=2 GUARD=1 LOOP=0 FRAGV=1 CHUNK=0 KPAIR=0" \
  --ftz --phases correct
rm -rf "$tmp"
echo "emulation: $([ $fail = 0 ] && echo ALL PASS || echo FAILURES)"
exit $fail
