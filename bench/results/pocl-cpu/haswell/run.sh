#!/usr/bin/env bash
# An entry for PoCL's haswell target on an AMD EPYC of 2 cores (the device
# "pthread-haswell-AMD EPYC", which had only the generic PoCL and CPU sets),
# tuned on such a machine with nothing else running, from the project root
# after ./run.sh build. Steps, in the order given:
#   seed                 the skylake-avx512 entry (same CPU, AVX-512 target) renamed for
#                        this device -> entry.json, the tuner's starting point
#   gemm SECONDS         gemm_fast (for every shape and its classes) and the routine values,
#                        no local memory (a CPU's OpenCL emulates it) -> entry.json
#   gemv SECONDS         gemv_n and gemv_t and their class, the search narrowed to what a CPU
#                        uses -> entry.json
#   routine              the routine values again with the new sets in force -> entry.json
#   bench TAG [ENTRY]    the shapes preset against OpenBLAS (2 threads), with the compiled-in
#                        entries or ENTRY (OCLBLAS_DATABASE) -> shapes-TAG.csv
# Writes into this folder; tune-*.log hold the tuner's output, tune.journal its measurements.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=build/tuner/oclblas-tune B=build/bench/oclblas-bench
E=$here/entry.json J=$here/tune.journal
export OPENBLAS_NUM_THREADS=2
while [ $# -gt 0 ]; do
  step=$1
  shift
  case $step in
    seed)
      python3 - database/pocl/skylake-avx512-epyc.json "$E" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["device"] = {"vendor": "pocl", "type": "CPU", "architecture": "haswell", "name": "pthread-haswell-AMD EPYC"}
open(sys.argv[2], "w").write(json.dumps(e, indent=2, ensure_ascii=False) + "\n")
PY
      ;;
    gemm)
      secs=$1
      shift
      $T -d cpu -k gemm_fast,routine -s annealing -t "$secs" --values gemm_fast:SA=0:SB=0:MDIMA=8:NDIMB=8 \
        --size gemm_fast=1024x1024x1024 -o "$E" -j "$J" > "$here/tune-gemm.log" 2>&1
      echo "gemm exit $?"
      ;;
    gemv)
      secs=$1
      shift
      $T -d cpu -k gemv_n,gemv_t -s annealing -t "$secs" \
        --values gemv_n:WGS=1,2,4,8:WPT=1,8,16:VW=8,16:UNR=2,4,8:STRM=0,2 \
        --values gemv_t:WGS=8,16,32,64:TPC=1,2:VW=8,16:UNR=2,4 -o "$E" -j "$J" > "$here/tune-gemv.log" 2>&1
      echo "gemv exit $?"
      ;;
    routine)
      OCLBLAS_DATABASE=$E $T -d cpu -k routine -o "$E" -j "$J" > "$here/tune-routine.log" 2>&1
      echo "routine exit $?"
      ;;
    bench)
      tag=$1
      shift
      db=(env)
      if [ $# -gt 0 ] && [ -f "$1" ]; then db=(env OCLBLAS_DATABASE="$1"); shift; fi
      "${db[@]}" $B --preset shapes --peers openblas --quiet --csv "$here/shapes-$tag.csv" > /dev/null 2>&1
      echo "bench $tag exit $?"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
