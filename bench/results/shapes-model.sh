#!/usr/bin/env bash
# Issue 22 on a lent GPU: the plan that picks per call by a cost model,
# measured against the plan before it. Steps, in the order given, each
# writing into OUT (default ./gpu-out):
#   build NAME SRC        configure and build SRC in /tmp/NAME (Release; no tuner, no cblas)
#   graft NAME SRC FROM F[,F...]  SRC with the files F (paths in the tree) taken from the tree
#                         FROM, copied to /tmp/src-NAME and built in /tmp/NAME (e.g. an old
#                         library with the new bench)
#   test NAME             ctest test_plan, test_model, test_host_plan, test_sgemm, test_sgemv,
#                         test_batched*, test_threads in /tmp/NAME (those the tree has)
#   compare NAME          oclblas-bench --preset shapes --layout row --peers cublas,clblast, default
#                         (accurate) and strict modes -> NAME-default.csv, NAME-strict.csv
#   plans NAME            the plan of each of the preset's problems (OCLBLAS_VERBOSE) -> NAME-plans.txt
#   calibrate NAME        bench/results/shapes-model/calibrate.c over calibrate-list.py's list
#                         (every set, split and kernel on the preset's problems) -> calibrate.csv
#   diag NAME             where a small call's time goes: a trivial kernel by plain OpenCL
#                         (no events, events, waits) and plans of 1 to 3 kernels, device and
#                         host time per call, each call asking for an event and (labels
#                         *-last-event) the last of a batch only -> NAME-diag.csv
# The lent machine sends /work/main; the trees under test travel inside it, made by git
# archive (nvidia-h200/shapes-model/README.md, shapes-model/overhead.md). For example:
#   source .device/env.sh; bash .h9/bench/results/shapes-model.sh build base .h9-base build new .h9 \
#     test new compare base compare new plans new
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-gpu-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/log.txt
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$log"; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$log" 2>&1
while [ $# -gt 0 ]; do
  step=$1
  shift
  case "$step" in
    build)
      name=$1 src=$2
      shift 2
      stamp "build $name from $src"
      { cmake -S "$src" -B "/tmp/$name" -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF &&
        cmake --build "/tmp/$name" -j16; } > "/tmp/build-$name.log" 2>&1 || { tail -30 "/tmp/build-$name.log" | tee -a "$log"; exit 1; }
      ;;
    graft)
      name=$1 src=$2 from=$3 files=$4
      shift 4
      stamp "build $name: $src with $files from $from"
      rm -rf "/tmp/src-$name" && cp -r "$src" "/tmp/src-$name" || exit 1
      for f in ${files//,/ }; do cp "$from/$f" "/tmp/src-$name/$f" || exit 1; done
      { cmake -S "/tmp/src-$name" -B "/tmp/$name" -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF &&
        cmake --build "/tmp/$name" -j16; } > "/tmp/build-$name.log" 2>&1 || { tail -30 "/tmp/build-$name.log" | tee -a "$log"; exit 1; }
      ;;
    test)
      name=$1
      shift
      stamp "tests of $name"
      ctest --test-dir "/tmp/$name" --output-on-failure -j4 --timeout 300 \
        -R '^(test_plan|test_model|test_host_plan|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|test_threads)$' \
        > "/tmp/ctest-$name.log" 2>&1
      grep -E "tests passed|Failed|FAILED|\*\*\*" "/tmp/ctest-$name.log" | tee -a "$log"
      ;;
    compare)
      name=$1
      shift
      for mode in accurate strict; do
        stamp "shapes preset, $name, $mode"
        label=$([ $mode = accurate ] && echo default || echo strict)
        "/tmp/$name/bench/oclblas-bench" --preset shapes --layout row --peers cublas,clblast --math $mode \
          --min-time 0.05 --quiet --csv "$out/$name-$label.csv" > "/tmp/bench-$name-$label.txt" 2>&1
        echo "bench exit $?" | tee -a "$log"
        tail -2 "/tmp/bench-$name-$label.txt" >> "$log"
      done
      ;;
    plans)
      name=$1
      shift
      stamp "plans of $name"
      for mode in accurate strict; do
        echo "== $mode" >> "$out/$name-plans.txt"
        OCLBLAS_VERBOSE=1 "/tmp/$name/bench/oclblas-bench" --preset shapes --layout row --peers none --math $mode \
          --reps 3 --quiet > /dev/null 2> "/tmp/plans-$name.txt"
        grep -E "^oclblas: (sgemm|sgemv) " "/tmp/plans-$name.txt" | sort -u >> "$out/$name-plans.txt"
      done
      ;;
    calibrate)
      name=$1
      shift
      stamp "calibrate with $name"
      gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate "$here/shapes-model/calibrate.c" -I"$here/../../include" -L"/tmp/$name" -loclblas \
        -lOpenCL -Wl,-rpath,"/tmp/$name" || exit 1
      python3 "$here/shapes-model/calibrate-list.py" > /tmp/calibrate-list.txt
      /tmp/calibrate < /tmp/calibrate-list.txt > "$out/calibrate.csv" 2> /tmp/calibrate-err.txt
      echo "calibrate exit $?, $(wc -l < "$out/calibrate.csv") lines" | tee -a "$log"
      head -20 /tmp/calibrate-err.txt >> "$log"
      ;;
    diag)
      name=$1
      shift
      stamp "diag with $name"
      gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate \
        "$here/shapes-model/calibrate.c" -I"$here/../../include" -L"/tmp/$name" -loclblas -lOpenCL -Wl,-rpath,"/tmp/$name" || exit 1
      # Fixed plans (the routine values force them): gemm_fast in place (1 kernel), with a
      # transpose (2), and a split (3); gemm_direct (1); gemv_t (1) and gemv_n with its reduction (2).
      # gemm_fast's, at two sizes, labelled diag-fast$1:
      fast_plans() {
        echo "routine GEMM_MIN_INDIRECT=64,GEMM_TC_MIN=0"
        echo "label diag-fast$1"
        for s in 128 512; do
          printf 'gemm col NT %s %s %s 1\ngemm row NN %s %s %s 1\ngemm row NN %s %s %s 2\n' $s $s $s $s $s $s $s $s $s
        done
      }
      {
        printf 'raw\nmode strict\n'
        fast_plans ""
        cat <<'LIST'
routine GEMM_MIN_INDIRECT=1048576
label diag-direct
gemm row NN 16 16 16 0
gemm row NN 128 128 128 0
routine -
label diag-gemv
gemv row N 3001 2999
gemv row T 4096 4096
gemv col N 4096 4096
events last
LIST
        fast_plans -last-event
        cat <<'LIST'
routine GEMM_MIN_INDIRECT=1048576
label diag-direct-last-event
gemm row NN 128 128 128 0
routine -
label diag-gemv-last-event
gemv row T 4096 4096
LIST
      } | /tmp/calibrate > "$out/$name-diag.csv" 2>> "$log"
      echo "diag exit $?" | tee -a "$log"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
stamp "done"
