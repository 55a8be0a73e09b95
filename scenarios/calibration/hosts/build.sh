#!/usr/bin/env bash
# Builds the calibration host programs (scenarios/calibration/hosts/NAME.cu) into bin/ with nvcc, as an
# application is built for `warptlm exec` (docs/cuda-apps.md): the shared CUDA runtime, PTX for compute_75
# in the fat binary, -O3 as the workloads' PTX (scripts/gen-ptx). Then checks that each binary's PTX (read
# from its fat binary by ptx_of.py) is its workload's committed PTX (tb/workloads/NAME/NAME.ptx) line for
# line, apart from comments and whitespace (nvcc stores the PTX without them and with tabs made spaces).
#   scenarios/calibration/hosts/build.sh [NAME ...]      (default: all of them)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
nvcc="$(command -v nvcc || true)"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then
  echo "build.sh: nvcc not found (looked in PATH and /usr/local/cuda/bin); the committed binaries are used otherwise" >&2
  exit 77
fi
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  names=(vecadd matmul transpose_naive reduce_seq histogram bfs blackscholes pb_gemm gemv)
fi
mkdir -p "$here/bin"
# PTX without comments, blank lines and runs of whitespace.
normal() { sed -e 's://.*$::' -e 's/[[:space:]]\+/ /g' -e 's/^ //' -e 's/ $//' | sed '/^$/d'; }
status=0
for name in "${names[@]}"; do
  # the workload module whose kernels it includes (pb_gemm: polybench)
  module="$(sed -n 's:^#include "[./]*tb/workloads/\([A-Za-z0-9_]*\)/.*:\1:p' "$here/$name.cu" | head -1)"
  module="${module:-$name}"
  echo "build.sh: scenarios/calibration/hosts/$name.cu -> bin/$name"
  "$nvcc" -cudart shared -gencode arch=compute_75,code=compute_75 -O3 -o "$here/bin/$name" "$here/$name.cu"
  if diff <("$here/ptx_of.py" "$here/bin/$name" | normal) <(normal < "$root/tb/workloads/$module/$module.ptx") >/dev/null; then
    echo "build.sh: bin/$name's PTX is tb/workloads/$module/$module.ptx"
  else
    echo "build.sh: bin/$name's PTX DIFFERS from tb/workloads/$module/$module.ptx:" >&2
    diff <("$here/ptx_of.py" "$here/bin/$name" | normal) <(normal < "$root/tb/workloads/$module/$module.ptx") | head -20 >&2
    status=1
  fi
done
exit $status
