#!/bin/bash
# Session 12, call 1: bench suite (3 rotated rounds), then the fuzz packs.
set -u
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/r/gpu.txt 2>&1
bench/run --out $OUT/r/bench --runs 3 > $OUT/r/bench.log 2>&1
for p in "$@"; do
  n=$(basename $p .tar.gz)
  timeout 330 python3 fuzz/run-gpu --dir $p --out $OUT/r/fuzz-$n --budget 300 > $OUT/r/fuzz-$n.log 2>&1
done
cd $OUT && tar czf results.tgz r && rm -rf r
