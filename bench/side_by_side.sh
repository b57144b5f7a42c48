#!/usr/bin/env bash
# The chains' topological solver with SCCs of one depth side by side:
# `pmc check --solver cpu.topo-interval-vi` on one thread and on all, RUNS
# runs each (default 3), alternating; prints each run's solve seconds and
# the kernel line (which says how many SCCs went side by side).
#   bash bench/side_by_side.sh [PMC] [G=32,L=20000]
PMC=${1:-build-ref/shell/pmc}
CONSTANTS=${2:-G=32,L=20000}
THREADS=$(nproc)
for ((run = 0; run < ${RUNS:-3}; ++run)); do
  for threads in 1 "$THREADS"; do
    "$PMC" check --model bench/sources/rings.pm --const "$CONSTANTS" --property 'P=? [ F "goal" ]' \
      --solver cpu.topo-interval-vi --threads "$threads" --json | python3 -c '
import json, sys
for line in sys.stdin:
    if line.startswith("{"):
        r = json.loads(line)
        print("threads %3s: solve %.3f s, value %s, %s" % (sys.argv[1], r["timings"]["solve"], r["value"], r["kernel"]))
' "$threads"
  done
done
