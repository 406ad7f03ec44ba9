#!/usr/bin/env bash
# A gemm_fast set for mid-size squares, on a lent GPU from the project root.
# Every set of the entries was tuned where many work-groups share a compute
# unit; 1024^3 has 128 to 256 of them for 132 units. Steps, in the order given:
#   tune ENTRY SECONDS   build the tree with the tuner in /tmp/mid; tune gemm_fast on
#                        1024^3 alone (annealing from ENTRY's set, SECONDS) -> tuned.json;
#                        then the step rate ENTRY tuned.json
#   tune-class ENTRY SECONDS NAME RULE SIZES BEFORE
#                        gemm_fast's class NAME (RULE, on the products SIZES) tuned alone as
#                        the tuner tunes a class (whole plans), beside a set for every shape;
#                        then the step rate with the class's set, as NAME before BEFORE
#   rate ENTRY TUNED     time TUNED's set for every shape and ENTRY's sets at 4096^3
#                        column-major NT in place (the entries' rates) and at 1024^3
#                        (calibrate.c) -> rates.csv; ENTRY with TUNED's set as the class
#                        `mid`, rated -> entry.json
#   bench ENTRY PRESET   the preset in the default and strict modes, the compiled-in entry
#                        (base) and ENTRY (new, OCLBLAS_DATABASE; `-`: entry.json of the
#                        rate step), cuBLAS FP32 and CLBlast beside them ->
#                        PRESET-{base,new}-{accurate,strict}.csv; new's plans -> PRESET-plans-MODE.txt
#   gemv BASE            the shapes preset's SGEMVs (both layouts), the tree built from BASE
#                        (a source folder) and this one, each twice in turn -> gemv-{base,new}-{1,2}.csv
#   gemv-odd BASE        SGEMV 3001 x 2999 alone, both layouts and directions, the trees of
#                        the gemv step three times in turn -> gemv-odd-{base,new}-{1,2,3}.csv
#   gpc ENTRY V,V...     the shapes preset's SGEMVs with ENTRY's GEMV_GROUPS_PER_CU at each
#                        value V (OCLBLAS_DATABASE), twice in turn -> gpc-V-{1,2}.csv
#   routine SECONDS      oclblas-tune's routine values alone, the gemv targets searched and
#                        the others held at the compiled-in entry's (one candidate each)
#                        -> routine.json, routine.txt
# Writes into $OUT/mid (log.txt has each step's time); the caller tars it.
source .device/env.sh
set -uo pipefail
o=$OUT/mid
mkdir -p "$o"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$o/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$o/log.txt" 2>&1
build() {
  [ -x /tmp/mid/bench/oclblas-bench ] && return
  stamp "build"
  { cmake -S . -B /tmp/mid -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_CBLAS=OFF && cmake --build /tmp/mid -j16; } \
    > /tmp/mid-build.log 2>&1 || { tail -30 /tmp/mid-build.log | tee -a "$o/log.txt"; exit 1; }
}
class_args=() # the rate step's class: FROM NEW RULE BEFORE for entry.py (none: the set `mid`)
build_base() {
  [ -x /tmp/mid-base/bench/oclblas-bench ] && return
  stamp "build base from $1"
  { cmake -S "$1" -B /tmp/mid-base -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF &&
    cmake --build /tmp/mid-base -j16; } > /tmp/mid-base-build.log 2>&1 || { tail -30 /tmp/mid-base-build.log | tee -a "$o/log.txt"; exit 1; }
}
while [ $# -gt 0 ]; do
  step=$1
  shift
  case $step in
    tune)
      entry=$1 secs=$2
      shift 2
      build
      stamp "tune $secs s"
      OCLBLAS_DATABASE=$entry /tmp/mid/tuner/oclblas-tune -d gpu -k gemm_fast --no-classes -s annealing -t "$secs" \
        --size gemm_fast=1024x1024x1024 --values gemm_fast:MWG=32,64,128:NWG=32,64,128:SA=1:SB=1 \
        -o "$o/tuned.json" -j "$o/tuned.journal" > "$o/tune.txt" 2>&1
      stamp "tune exit $?"
      set -- rate "$entry" "$o/tuned.json" "$@"
      ;;
    tune-class)
      entry=$1 secs=$2 name=$3 rule=$4 sizes=$5 before=$6
      shift 6
      build
      stamp "tune class $name ($rule: $sizes) $secs s"
      OCLBLAS_DATABASE=$entry /tmp/mid/tuner/oclblas-tune -d gpu -k gemm_fast -s annealing -t "$secs" \
        --class "$name:$rule:$sizes" -o "$o/tuned.json" -j "$o/tuned.journal" > "$o/tune.txt" 2>&1
      stamp "tune exit $?"
      class_args=("$name" "$name" "$rule" "$before")
      set -- rate "$entry" "$o/tuned.json" "$@"
      ;;
    rate)
      entry=$1 tuned=$2
      shift 2
      build
      gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate \
        bench/results/shapes-model/calibrate.c -Iinclude -L/tmp/mid -loclblas -lOpenCL -Wl,-rpath,/tmp/mid || exit 1
      python3 bench/results/nvidia-h100/mid-set/entry.py list "$entry" "$tuned" "${class_args[@]}" > "$o/rates-list.txt" || exit 1
      stamp "calibrate"
      /tmp/calibrate < "$o/rates-list.txt" > "$o/rates.csv" 2> "$o/calibrate-err.txt"
      stamp "calibrate exit $?"
      python3 bench/results/nvidia-h100/mid-set/entry.py entry "$entry" "$tuned" "$o/rates.csv" "${class_args[@]}" \
        > "$o/entry.json" 2> "$o/entry.txt" || { cat "$o/entry.txt"; exit 1; }
      cat "$o/entry.txt"
      ;;
    bench)
      entry=$1 preset=$2
      shift 2
      [ "$entry" = - ] && entry=$o/entry.json
      build
      layout=()
      [ "$preset" = shapes ] && layout=(--layout row)
      for mode in accurate strict; do
        for t in base new; do
          db=()
          [ $t = new ] && db=(env OCLBLAS_DATABASE="$entry")
          "${db[@]}" /tmp/mid/bench/oclblas-bench --preset "$preset" "${layout[@]}" --math $mode --peers cublas,clblast \
            --min-time 0.05 --quiet --csv "$o/$preset-$t-$mode.csv" > /dev/null 2>&1
          stamp "$preset $t $mode: exit $?"
        done
        OCLBLAS_DATABASE="$entry" OCLBLAS_VERBOSE=1 /tmp/mid/bench/oclblas-bench --preset "$preset" "${layout[@]}" \
          --math $mode --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: \(sgem\|batch\)" | sort -u \
          > "$o/$preset-plans-$mode.txt"
      done
      ;;
    gemv)
      base=$1
      shift
      build
      build_base "$base"
      for run in 1 2; do
        for t in base new; do
          b=/tmp/mid; [ $t = base ] && b=/tmp/mid-base
          $b/bench/oclblas-bench --preset shapes --routine gemv --peers cublas,clblast --min-time 0.05 --quiet \
            --csv "$o/gemv-$t-$run.csv" > /dev/null 2>&1
          stamp "gemv $t $run: exit $?"
        done
      done
      OCLBLAS_VERBOSE=1 /tmp/mid/bench/oclblas-bench --preset shapes --routine gemv --peers none --min-time 0.001 --quiet 2>&1 |
        grep "^oclblas: sgemv" | sort -u > "$o/gemv-plans.txt"
      ;;
    gemv-odd)
      base=$1
      shift
      build
      build_base "$base"
      for run in 1 2 3; do
        for t in base new; do
          b=/tmp/mid; [ $t = base ] && b=/tmp/mid-base
          $b/bench/oclblas-bench --shapes 3001x2999 --routine gemv --peers cublas --min-time 0.05 --quiet \
            --csv "$o/gemv-odd-$t-$run.csv" > /dev/null 2>&1
          stamp "gemv-odd $t $run: exit $?"
        done
      done
      ;;
    gpc)
      entry=$1 values=$2
      shift 2
      build
      for v in ${values//,/ }; do
        python3 -c 'import json, sys; e = json.load(open(sys.argv[1])); e["parameters"]["routine"]["GEMV_GROUPS_PER_CU"] = int(sys.argv[2]); print(json.dumps(e, indent=2))' \
          "$entry" $v > "$o/gpc-$v.json" || exit 1
      done
      for run in 1 2; do
        for v in ${values//,/ }; do
          OCLBLAS_DATABASE="$o/gpc-$v.json" /tmp/mid/bench/oclblas-bench --preset shapes --routine gemv --peers cublas \
            --min-time 0.05 --quiet --csv "$o/gpc-$v-$run.csv" > /dev/null 2>&1
          stamp "gpc $v $run: exit $?"
        done
      done
      for v in ${values//,/ }; do
        OCLBLAS_DATABASE="$o/gpc-$v.json" OCLBLAS_VERBOSE=1 /tmp/mid/bench/oclblas-bench --preset shapes --routine gemv \
          --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemv" | sort -u > "$o/gpc-$v-plans.txt"
      done
      ;;
    routine)
      secs=$1
      shift
      build
      held=$(python3 -c '
import json, sys
name = sys.argv[1]
for f in ("database/nvidia/h100.json", "database/nvidia/h200.json"):
    e = json.load(open(f))
    if e["device"]["name"] == name:
        r = e["parameters"]["routine"]
        print(":".join(f"{k}={v}" for k, v in r.items() if "GEMV" not in k))' "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)")
      stamp "routine tuning, holding $held"
      /tmp/mid/tuner/oclblas-tune -d gpu -k routine --no-classes -t "$secs" --values "routine:$held" \
        -o "$o/routine.json" -j "$o/routine.journal" > "$o/routine.txt" 2>&1
      stamp "routine exit $?"
      ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
done
