#!/usr/bin/env bash
# The PRISM-language explorer of an earlier tree against this one, on the
# device machine (or any host): both built in release without CUDA, then
# bench/build_rate.py, which alternates the two `pmc convert` commands and
# asserts byte-identical outputs. Logs under $OUT.
#
#   bash bench/explore_rate.sh medium|large
#   BEFORE_TREE  `git archive REV | gzip` of the earlier tree (default .dev-before/tree.tar.gz)
#   SOURCES      a folder with QVBS's consensus.6.prism, consensus.8.prism, nand.prism, crowds.prism,
#                csma.3-4.prism, egl.prism, pacman.nm and the manifest's leader_async N7 as
#                leader_async7.nm (default .dev-src/explore/src)
# medium: six sources on all cores (3 runs each), three on 2 threads (OMP_NUM_THREADS=2);
# large: pacman MAXSTEPS=60 and consensus.8 K=2 (one run each, peak RSS by /usr/bin/time).
set -u
source bench/device_lzma.sh
PART=${1:-medium}
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
S=${SOURCES:-.dev-src/explore/src}
BEFORE_TREE=${BEFORE_TREE:-.dev-before/tree.tar.gz}
nproc > "$OUT/nproc.txt"
if [ ! -x /tmp/bb/shell/pmc ] || [ ! -x /tmp/ba/shell/pmc ]; then
  rm -rf /tmp/before /tmp/bb /tmp/ba
  mkdir -p /tmp/before && tar xzf "$BEFORE_TREE" -C /tmp/before
  options="-Dcuda=disabled -Dbuildtype=release -Dtests=false -Dbench=false"
  ( meson setup /tmp/bb /tmp/before $options && ninja -C /tmp/bb shell/pmc ) > "$OUT/build-before.log" 2>&1 &
  ( meson setup /tmp/ba . $options && ninja -C /tmp/ba shell/pmc ) > "$OUT/build-after.log" 2>&1
  wait
fi
ls -la /tmp/bb/shell/pmc /tmp/ba/shell/pmc || exit 1
if [ "$PART" = medium ]; then
  python3 bench/build_rate.py /tmp/bb/shell/pmc /tmp/ba/shell/pmc --repeat 3 \
    --case $S/consensus.6.prism:K=2 --case $S/nand.prism:N=60,K=4 \
    --case $S/crowds.prism:TotalRuns=6,CrowdSize=20 --case $S/csma.3-4.prism --case $S/leader_async7.nm \
    --case $S/egl.prism:N=8,L=2 | tee "$OUT/rate_all_cores.txt"
  OMP_NUM_THREADS=2 python3 bench/build_rate.py /tmp/bb/shell/pmc /tmp/ba/shell/pmc --repeat 1 \
    --case $S/consensus.6.prism:K=2 --case $S/csma.3-4.prism --case $S/nand.prism:N=40,K=2 | tee "$OUT/rate_2_threads.txt"
else
  python3 bench/build_rate.py /tmp/bb/shell/pmc /tmp/ba/shell/pmc --repeat 1 --case $S/pacman.nm:MAXSTEPS=60 \
    | tee "$OUT/pacman60.txt"
  for b in ba bb; do
    /usr/bin/time -f "$b %e s %M KB" /tmp/$b/shell/pmc convert $S/consensus.8.prism /tmp/c8.pmcb --const K=2 2>&1 \
      | tee -a "$OUT/consensus8.txt"
  done
fi
