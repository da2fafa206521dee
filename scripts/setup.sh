#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), then configures and builds
# StreamAlloc in build/. Safe to run again: it only installs what is absent
# and only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev clang-format-22
          cmake ninja-build libgtest-dev python3 ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cuda="${CUDA_PATH:-/usr/local/cuda}"
if [ ! -f "$cuda/include/cuda_runtime.h" ] || [ ! -x "$cuda/bin/nvcc" ]; then
  echo "setup: no CUDA toolkit at $cuda (set CUDA_PATH); StreamAlloc parses CUDA headers from it" >&2
  exit 1
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTREAMALLOC_CUDA_PATH="$cuda" >/dev/null
ninja -C build streamalloc streamalloc-nvcc StreamAllocUnitTests
