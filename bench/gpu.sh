#!/usr/bin/env bash
# The GPU runs behind bench/results/ and database/nvidia/: build, then the
# steps named on the command line, each writing into OUT (default ./gpu-out).
#   bench/gpu.sh test               the test suite on the default device
#   bench/gpu.sh tune NAME SECONDS  oclblas-tune -> OUT/NAME.json (+ journal, log)
#   bench/gpu.sh bench              the GPU sweeps (gemm and gemv, peers), CSV and JSON
#   bench/gpu.sh first              the first SGEMM 4096 of a process, cold and warm cache
#   bench/gpu.sh routine NAME       re-tune only the routine values of database/nvidia/NAME.json
#   bench/gpu.sh gemm               the GPU preset's gemm problems only
#   bench/gpu.sh host               host-pointer calls (issue 16): SGEMM 1024..16384 and SGEMV
#                                   4096..16384 beside OpenBLAS and NVBLAS, oclblas-hostcheck at
#                                   4096, 16384 and 50000^3 (HOST_HUGE=0: not 50000^3), each
#                                   with its verbose log (host-*-log.txt, hostcheck-log.txt)
#   bench/gpu.sh multi              issue 17: bench/results/multi-gpu/run.sh on every GPU (1, 2, 4...)
#   bench/gpu.sh modes              the math modes (issue 14): gemm_tc's tests (accuracy gate), then
#                                   accurate and tf32 against cuBLAS FP32 and TF32, and strict at 4096
#   bench/gpu.sh classes NAME SECONDS
#                                   oclblas-tune with its default classes of shapes, starting from
#                                   the shipped entry -> OUT/NAME.json (NAME auto: h100 or h200 by
#                                   the GPU's name); the steps after it use the new entry
#   bench/gpu.sh shapes LABEL       the shapes preset (every class, both layouts, all transposes),
#                                   cuBLAS as the peer -> OUT/shapes-LABEL.{txt,csv,json}
#   bench/gpu.sh batched            the batched preset (issue 24) in the accurate and strict modes,
#                                   cuBLAS, CLBlast and OpenBLAS beside -> OUT/batched-MODE.{txt,csv,json}
# Steps run in the order given, e.g. bench/gpu.sh test tune h100 330 bench first, or for the
# classes of shapes: bench/gpu.sh test shapes shipped classes auto 225 shapes tuned.
# On the lent NVIDIA machines: source .device/env.sh first (the OpenCL ICD, CLBlast and
# OpenBLAS staged there).
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
    host)
      stamp "host-pointer calls"
      b="$build/bench/oclblas-bench"
      hc="$build/bench/oclblas-hostcheck"
      # Column-major, as Fortran sgemm_ callers have it. OpenBLAS is a peer
      # up to 4096; past it only the reference (one call: 16384^3 takes it
      # about a minute).
      # stdout: the tables; stderr: the library's verbose log (rates, choices, where each call's time went).
      OCLBLAS_VERBOSE=1 "$b" --routine gemm --sizes 1024,2048,4096 --layout col --host --peers openblas,nvblas --quiet \
        --csv "$out/host-gemm.csv" --json "$out/host-gemm.json" > "$out/host.txt" 2> "$out/host-gemm-log.txt"
      OCLBLAS_VERBOSE=1 "$b" --routine gemm --sizes 8192,16384 --layout col --host --peers nvblas --reps 3 --quiet \
        --csv "$out/host-gemm-large.csv" --json "$out/host-gemm-large.json" >> "$out/host.txt" \
        2> "$out/host-gemm-large-log.txt"
      OCLBLAS_VERBOSE=1 "$b" --routine gemv --sizes 4096,8192,16384 --layout col --trans NN,TN --host --peers openblas \
        --quiet --csv "$out/host-gemv.csv" --json "$out/host-gemv.json" >> "$out/host.txt" 2> "$out/host-gemv-log.txt"
      cat "$out/host.txt"
      for f in "$out"/host-*-log.txt; do
        echo "-- $(basename "$f")"
        grep -E "host BLAS|rates of|cost model" "$f" | sort | uniq -c | sort -rn | head -12
        grep -E "kernels busy" "$f" | tail -3
      done
      stamp "oclblas-hostcheck 4096, 16384 (verbose log in hostcheck-log.txt)"
      OCLBLAS_VERBOSE=1 "$hc" --sizes 4096,16384 --reps 3 --json "$out/hostcheck.json" > "$out/hostcheck.txt" \
        2> "$out/hostcheck-log.txt"
      cat "$out/hostcheck.txt"
      grep -E "rates|tiles of|kernels busy|TFLOPS\)" "$out/hostcheck-log.txt" | tail -16
      if [ "${HOST_HUGE:-1}" != 0 ]; then
        stamp "oclblas-hostcheck 50000^3 (30 GB of host memory)"
        "$hc" --sizes 50000 --reps 1 --samples 128 --json "$out/hostcheck-50000.json" > "$out/hostcheck-50000.txt" 2>&1
        cat "$out/hostcheck-50000.txt"
      fi
      ;;
    multi)
      stamp "issue 17: host-pointer SGEMM on 1, 2, 4... GPUs"
      BUILD=$build bench/results/multi-gpu/run.sh "$out/multi-gpu" "${MULTI_SIZES:-16384,32768}"
      ;;
    modes)
      stamp "math modes: tests"
      # -V: the accuracy figures of test_gemm_tc are in the log even when it passes.
      # (not test_gemm_tc_emu: the emulation is for devices without tensor cores)
      ctest --test-dir "$build" -V -j1 --timeout 300 -R '^(test_plan|test_mathmode.*|test_gemm_tc)$' \
        > "$out/ctest-modes.log" 2>&1
      grep -E "Test +#|tests passed|(uniform|spread) +(strict|accurate|tf32)|ERROR|FAILED|skipped" "$out/ctest-modes.log"
      b="$build/bench/oclblas-bench"
      for mode in accurate tf32; do
        stamp "math mode $mode"
        "$b" --math $mode --routine gemm --layout row --peers cublas,cublas-tf32 --quiet \
          --shapes 2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x1024,8192x1024x4096 \
          --csv "$out/bench-$mode.csv" --json "$out/bench-$mode.json" > "$out/bench-$mode.txt" 2>&1
        cat "$out/bench-$mode.txt"
      done
      stamp "math mode strict"
      "$b" --math strict --routine gemm --layout row --peers cublas --sizes 4096 --quiet \
        --csv "$out/bench-strict.csv" --json "$out/bench-strict.json" > "$out/bench-strict.txt" 2>&1
      cat "$out/bench-strict.txt"
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
    batched)
      # Issue 24's batched preset in the default and the strict mode, cuBLAS's and CLBlast's
      # strided batches and OpenBLAS's loop beside it.
      for mode in accurate strict; do
        stamp "batched preset ($mode)"
        "$build/bench/oclblas-bench" --preset batched --math "$mode" --peers cublas,clblast,openblas \
          --min-time 0.05 --quiet --csv "$out/batched-$mode.csv" --json "$out/batched-$mode.json" \
          > "$out/batched-$mode.txt" 2>&1
        echo "bench exit $?" >> "$out/batched-$mode.txt"
        tail -3 "$out/batched-$mode.txt"
      done
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
