#!/usr/bin/env bash
# The GPU runs behind bench/results/ and database/nvidia/: build, then the
# steps named on the command line, each writing into OUT (default ./gpu-out).
#   bench/gpu.sh test               the test suite on the default device
#   bench/gpu.sh tune NAME SECONDS  oclblas-tune -> OUT/NAME.json (+ journal, log)
#   bench/gpu.sh bench              the GPU sweeps (gemm and gemv, peers), CSV and JSON
#   bench/gpu.sh first              the first SGEMM 4096 of a process, cold and warm cache
#   bench/gpu.sh routine NAME       re-tune only the routine values of database/nvidia/NAME.json
#   bench/gpu.sh gemm               the GPU preset's gemm problems only
#   bench/gpu.sh classes NAME SECONDS
#                                   oclblas-tune with its default classes of shapes, starting from
#                                   the shipped entry -> OUT/NAME.json (NAME auto: h100 or h200 by
#                                   the GPU's name); the steps after it use the new entry
#   bench/gpu.sh shapes LABEL       the shapes preset (every class, both layouts, all transposes),
#                                   cuBLAS as the peer -> OUT/shapes-LABEL.{txt,csv,json}
# Steps run in the order given, e.g. bench/gpu.sh test tune h100 330 bench first, or for the
# classes of shapes: bench/gpu.sh test shapes shipped classes auto 225 shapes tuned.
# On the lent NVIDIA machines: source .device/env.sh first (see README).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
out=$(cd "$out" && pwd) # absolute: the steps export paths into it
build=${OCLBLAS_BUILD_DIR:-build-gpu}
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }

stamp "build"
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j"$(nproc)"; } > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
clinfo -l > "$out/clinfo.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > "$out/nvidia-smi.txt" 2>&1
"$build/bench/oclblas-bench" --help > /dev/null 2>&1

while [ $# -gt 0 ]; do
  step=$1
  shift
  case "$step" in
    test)
      stamp "ctest"
      ctest --test-dir "$build" --output-on-failure -j1 --timeout 300 > "$out/ctest.log" 2>&1
      tail -4 "$out/ctest.log"
      ;;
    tune)
      name=$1 secs=$2
      shift 2
      stamp "tune $name for $secs s"
      start=$(date +%s)
      "$build/tuner/oclblas-tune" -d gpu -s annealing -t "$secs" \
        --size gemm_fast=1024x1024x1024,2048x2048x2048,4096x4096x4096 \
        -o "$out/$name.json" -j "$out/$name.journal" > "$out/tune-$name.log" 2>&1
      echo "tune exit $?, wall $(($(date +%s) - start)) s" | tee -a "$out/tune-$name.log"
      tail -25 "$out/tune-$name.log"
      # The library and the bench that follow use the new entry (it wins at its level).
      export OCLBLAS_DATABASE=$out/$name.json
      ;;
    routine)
      name=$1
      shift
      stamp "routine values of $name"
      # Only the routine values, measured with the shipped entry's kernels, which the new file keeps.
      cp "database/nvidia/$name.json" "$out/$name.json"
      "$build/tuner/oclblas-tune" -d gpu -k routine -o "$out/$name.json" -j "$out/$name-routine.journal" \
        > "$out/routine-$name.log" 2>&1
      echo "tune exit $?" | tee -a "$out/routine-$name.log"
      grep -A12 "^routine values" "$out/routine-$name.log"
      export OCLBLAS_DATABASE=$out/$name.json
      ;;
    gemm)
      stamp "gemm sweep"
      "$build/bench/oclblas-bench" --preset gpu --routine gemm --layout row --quiet \
        --csv "$out/bench-gemm.csv" --json "$out/bench-gemm.json" > "$out/bench-gemm.txt" 2>&1
      cat "$out/bench-gemm.txt"
      ;;
    bench)
      stamp "bench"
      b="$build/bench/oclblas-bench"
      # squares 1024..8192 (gemm to 4096) and the users' shapes, NN, host calls too
      "$b" --preset gpu --routine all --layout row --host --quiet \
        --csv "$out/bench.csv" --json "$out/bench.json" > "$out/bench.txt" 2>&1
      # gemv both directions at 8192 and 16384; gemm's other transposes at 4096
      "$b" --routine gemv --sizes 8192,16384 --trans NN,TN --layout row --quiet \
        --csv "$out/bench-gemv.csv" --json "$out/bench-gemv.json" >> "$out/bench.txt" 2>&1
      "$b" --routine gemm --sizes 4096 --trans NT,TN,TT --layout row --quiet \
        --csv "$out/bench-trans.csv" --json "$out/bench-trans.json" >> "$out/bench.txt" 2>&1
      cat "$out/bench.txt"
      ;;
    classes)
      name=$1 secs=$2
      shift 2
      if [ "$name" = auto ]; then
        case "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" in
          *H200*) name=h200 ;;
          *H100*) name=h100 ;;
          *) name=gpu ;;
        esac
      fi
      stamp "tune $name with classes for $secs s"
      start=$(date +%s)
      # Default classes and sizes (oclblas-tune --list prints them); the seeds are the shipped entry's.
      "$build/tuner/oclblas-tune" -d gpu -s annealing -t "$secs" \
        -o "$out/$name.json" -j "$out/$name.journal" > "$out/tune-$name.log" 2>&1
      echo "tune exit $?, wall $(($(date +%s) - start)) s" | tee -a "$out/tune-$name.log"
      sed -n '/^kernel  /,$p' "$out/tune-$name.log"
      export OCLBLAS_DATABASE=$out/$name.json
      ;;
    shapes)
      label=$1
      shift
      stamp "shapes preset ($label)"
      "$build/bench/oclblas-bench" --preset shapes --peers cublas --min-time 0.05 --quiet \
        --csv "$out/shapes-$label.csv" --json "$out/shapes-$label.json" > "$out/shapes-$label.txt" 2>&1
      echo "bench exit $?" >> "$out/shapes-$label.txt"
      tail -3 "$out/shapes-$label.txt"
      ;;
    first)
      stamp "first call"
      "$build/bench/oclblas-bench" --first-call 4096 --quiet > "$out/first-call.txt" 2>&1
      cat "$out/first-call.txt"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
stamp "done"
