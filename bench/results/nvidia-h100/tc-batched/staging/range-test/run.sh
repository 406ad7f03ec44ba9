source .device/env.sh
dest=$OUT; export OUT=$dest/diag2; mkdir -p $OUT
m=bench/results/shapes-model.sh
bash $m build fixb . build base .s7-base build fixa .s7-fixa > /dev/null 2>&1
tc=$(python3 -c "import json; print(','.join('%s=%d' % kv for kv in json.load(open('database/nvidia/h100.json'))['parameters']['gemm_tc'].items()))")
for round in 1 2; do for t in base fixa fixb; do
  /tmp/$t/bench/oclblas-bench --routine gemm --sizes 2048,4096,8192 --layout col --trans NN,NT,TN,TT --math accurate \
    --override "gemm_tc:$tc" --peers none --min-time 0.1 --quiet --csv "$OUT/tc-along-k-$t-$round.csv" > /dev/null 2>&1
  echo "$round $t $?" >> $OUT/log.txt
done; done
cd $dest && tar czf diag2.tgz diag2 && rm -rf diag2
