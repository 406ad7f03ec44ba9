#!/usr/bin/env bash
# The closing run on an H100: the shapes preset before (6ac29c2) as well, then the closing
# script, then the 6xBF16 search of gemm_tc as on the H200; everything in one archive.
source .device/env.sh
top=$OUT
mkdir -p $OUT/b; OUT=$OUT/b bash bench/results/shapes-model.sh build base .s2-base compare base > /dev/null 2>&1
bash bench/results/nvidia-h200/closing/run.sh > $top/closing.txt 2>&1
mkdir -p /tmp/t; (cmake --build /tmp/final -j16 --target oclblas-tune > /dev/null) && timeout 200 /tmp/final/tuner/oclblas-tune -d gpu -k gemm_tc -s full -t 150 --values gemm_tc:BM=64,128,256:BN=64,128,256:BK=16,32:WM=32,64,128:WN=32,64:PADA=4,8:PADB=4,8 -o /tmp/t/tc-wide.json > /tmp/t/tune-wide.txt 2>&1; cp /tmp/t/tune-wide.txt /tmp/t/tc-wide.json.journal $top/b/
cd $top && mkdir -p x && mv b x/ && tar xzf final.tgz -C x && rm final.tgz && tar czf /tmp/h100.tgz -C x . && rm -rf x closing.txt && mv /tmp/h100.tgz $top/ && ls -la $top
