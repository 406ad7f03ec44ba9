source .device/env.sh
dest=$OUT; export OUT=$dest/diag; mkdir -p $OUT
m=bench/results/shapes-model.sh
bash $m build fix . build base .s7-base build head .s7-head build batch .s7-batch build nobatch .s7-nobatch > /dev/null 2>&1
tc=$(python3 -c "import json; print(','.join('%s=%d' % kv for kv in json.load(open('database/nvidia/h100.json'))['parameters']['gemm_tc'].items()))")
for round in 1 2; do for t in base batch head nobatch fix; do
  /tmp/$t/bench/oclblas-bench --routine gemm --sizes 2048,4096,8192 --layout col --trans NT,TN --math accurate \
    --override "gemm_tc:$tc" --peers none --min-time 0.1 --quiet --csv "$OUT/nt-$t-$round.csv" > /dev/null 2>&1
  echo "$round $t $?" >> $OUT/log.txt
done; done
cd $dest && tar czf diag.tgz diag
