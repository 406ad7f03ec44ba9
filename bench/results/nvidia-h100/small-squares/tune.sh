#!/usr/bin/env bash
# The class small's gemm_fast set (m*n*k <= 1.1e9) tuned again on mid-size squares (768^3, 1000^3,
# 1024^3 whole plans, column-major NN) with more time than the entry's (15 s), then squares of 512
# to 2048 in both modes, against cuBLAS, with the device's entry as it is and with the tuned set in
# its class's place (OCLBLAS_DATABASE: the entry with that class's set and rate replaced, its
# measured shares and peeled factors, which were the old set's, dropped). From the project root
# after ../shared/gpu/stage.sh: bench/results/nvidia-h100/small-squares/tune.sh (writes $OUT/tune.tgz)
source .device/env.sh
set -uo pipefail
o=$OUT/tune; mkdir -p $o
bash bench/results/shapes-model.sh build new . > $o/build.txt 2>&1
(cmake -S . -B /tmp/new -DOCLBLAS_BUILD_TUNER=ON > /dev/null && cmake --build /tmp/new -j16 --target oclblas-tune) \
  >> $o/build.txt 2>&1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" > $o/gpu.txt
case "$gpu" in *H200*) entry=database/nvidia/h200.json ;; *) entry=database/nvidia/h100.json ;; esac
/tmp/new/tuner/oclblas-tune -d gpu -k gemm_fast -s annealing -t ${TUNE_SECONDS:-330} --rates on \
  --class "small:m*n*k <= 1100000000, k >= 2:768x768x768,1000x1000x1000,1024x1024x1024" \
  -o $o/tuned.json -j $o/tuned.journal > $o/tune.log 2>&1
echo "tune: $?" >> $o/log.txt
python3 - "$entry" $o/tuned.json $o/merged.json <<'P' >> $o/log.txt 2>&1
import json, sys
entry, tuned = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
new = next(c for c in tuned["classes"] if c["name"] == "small")
for c in entry["classes"]:
    if c["name"] == "small":
        print("small: %s %s -> %s %s" % (c["parameters"]["gemm_fast"], c["rates"], new["parameters"]["gemm_fast"], new.get("rates")))
        c["parameters"]["gemm_fast"] = new["parameters"]["gemm_fast"]
        c["rates"] = {"gemm_fast": new["rates"]["gemm_fast"]}
        c.pop("along_k_shares", None)
        c.pop("peeled_factors", None)
json.dump(entry, open(sys.argv[3], "w"), indent=2)
P
b=/tmp/new/bench/oclblas-bench
shapes=512x512x512,768x768x768,1000x1000x1000,1023x1023x1023,1024x1024x1024,1536x1536x1536,2048x2048x2048
for math in strict accurate; do
  for t in entry merged; do
    db=$([ $t = merged ] && echo $o/merged.json || echo "")
    OCLBLAS_DATABASE=$db $b --routine gemm --shapes $shapes --layout row --trans NN,NT,TN,TT --peers cublas \
      --math $math --min-time 0.05 --quiet --csv $o/$t-$math.csv > /dev/null 2>&1
    echo "$t $math: $?" >> $o/log.txt
    OCLBLAS_DATABASE=$db OCLBLAS_VERBOSE=1 $b --routine gemm --shapes $shapes --layout row --trans NN,TT \
      --peers none --math $math --reps 2 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/$t-$math-plans.txt
  done
done
tar czf $OUT/tune.tgz -C $OUT tune && rm -rf $o
