# Sourced by the device-machine scripts that share one CUDA build in /tmp/b
# (bench/gpu_explore.sh, bench/gpu_solvers.sh): the libraries the device's
# image lacks (device_lzma.sh), the log folder $OUT, the carried reference
# models and the pmc under test.
#   PMC_MODELS   the carried reference models (default .dev/models: manifest.tsv and each instance's source)
set -u
source bench/device_lzma.sh
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
export PMC_MODELS=${PMC_MODELS:-$PWD/.dev/models}
export PATH=/usr/local/cuda/bin:$PATH
PMC=/tmp/b/shell/pmc
