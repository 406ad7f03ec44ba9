#!/usr/bin/env bash
# Issue 17: host-pointer SGEMM from pageable memory on 1, 2, 4 (8) devices
# of one host, each result checked on sampled elements against float64, with
# each device's idle fraction, and a run with one device made to fail.
#
#   bench/results/multi-gpu/run.sh OUT [SIZES]
#
# OUT       folder for the results (made if missing)
# SIZES     square sizes, comma-separated (default 16384,32768)
# Environment:
#   BUILD   build folder with bench/oclblas-hostcheck (default build)
#   KIND    gpu (default): the GPUs clinfo lists; all: every device
#           (PoCL's CPU devices, e.g. POCL_DEVICES="pthread pthread")
#   REPS    timed calls after the first (default 3; the median is reported)
#   FAULT_SIZE  size of the device-failure run (default: the last of SIZES;
#           with a single device the host computes the failed device's
#           tiles, so it is 4096 there unless set)
#
# The devices are named to the library by their OpenCL indices
# (OCLBLAS_DEVICE=P:D,P:D,...), counts 1, 2, 4, 8 up to what the machine
# has. Idle fraction of a device = 1 - (its busy time) / (the call's wall
# time), for the last timed call; busy = the union on its kernel queue of
# each chunk's interval from max(its first command's START, the previous
# chunk's END, its uploads' END) to its last kernel's END (OpenCL
# profiling, the device's clock; README.md beside this script). The
# failure run sets OCLBLAS_FAULT=D:2 (device D, the last one, fails after
# delivering two tiles; the tiles it had in flight are lost with it): the
# result must be complete and right, the report naming one failed device.
set -uo pipefail
out=${1:?usage: run.sh OUT [SIZES]}
sizes=${2:-16384,32768}
build=${BUILD:-build}
kind=${KIND:-gpu}
reps=${REPS:-3}
hc="$build/bench/oclblas-hostcheck"
# The devices, not the cost model's choice, are what is measured here.
export OCLBLAS_HOST_CALLS=device
[ -x "$hc" ] || { echo "no $hc: build first (cmake --build $build)" >&2; exit 2; }
mkdir -p "$out"

# OpenCL indices P:D of the devices of the kind asked for, from clinfo -l.
specs=$(clinfo -l 2>/dev/null | awk -v kind="$kind" '
  /^Platform #/ { p = $2; sub("#", "", p); sub(":", "", p) }
  /Device #/ { d = $0; sub(/.*Device #/, "", d); n = d; sub(/:.*/, "", n); name = d; sub(/^[0-9]+: */, "", name)
               if (kind == "all" || name ~ /NVIDIA|AMD|Radeon|Intel\(R\) (Arc|Data Center|Iris)|GPU/) print p ":" n }')
count=$(echo "$specs" | grep -c . || true)
[ "$count" -ge 1 ] || { echo "no device of kind $kind (clinfo -l)" >&2; exit 2; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "command: $0 $*  (KIND=$kind REPS=$reps)"
  echo "devices ($count):"
  clinfo -l 2>/dev/null
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total --format=csv
  echo "host: $(nproc) processors, $(free -g | awk '/Mem:/ {print $2}') GiB"
} > "$out/machine.txt"

status=0
for n in 1 2 4 8; do
  [ "$n" -le "$count" ] || break
  list=$(echo "$specs" | head -n "$n" | paste -sd, -)
  echo "== $n device(s): OCLBLAS_DEVICE=$list" | tee -a "$out/results.txt"
  OCLBLAS_DEVICE=$list "$hc" --sizes "$sizes" --reps "$reps" --json "$out/devices-$n.json" 2>&1 |
    tee -a "$out/results.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done

# One device fails mid-call: the others (or the host, with one device) take its tiles.
list=$(echo "$specs" | paste -sd, -)
last=$((count - 1))
fsize=${FAULT_SIZE:-$([ "$count" -gt 1 ] && echo "${sizes##*,}" || echo 4096)}
echo "== failure: OCLBLAS_DEVICE=$list OCLBLAS_FAULT=$last:2" | tee -a "$out/results.txt"
OCLBLAS_DEVICE=$list OCLBLAS_FAULT=$last:2 OCLBLAS_VERBOSE=1 "$hc" --sizes "$fsize" --reps 1 \
  --json "$out/failure.json" > "$out/failure.txt" 2> "$out/failure-log.txt"
[ $? -eq 0 ] || status=1
cat "$out/failure.txt" | tee -a "$out/results.txt"
grep -E "OCLBLAS_FAULT|failed during|computed by the host" "$out/failure-log.txt" | sort | uniq -c | head -20 |
  tee -a "$out/results.txt"
echo "exit $status" | tee -a "$out/results.txt"
exit $status
