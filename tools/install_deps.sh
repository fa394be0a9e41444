#!/usr/bin/env bash
# Installs the build dependencies on Debian/Ubuntu (the CUDA toolkit must already be there).
set -euo pipefail
packages=(cmake make g++ libfmt-dev doctest-dev libcli11-dev nlohmann-json3-dev libxxhash-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -e /usr/local/cuda/include/nvrtc.h ]; then
  echo "install_deps: the CUDA toolkit (NVRTC) is missing: install it first" >&2
  exit 1
fi
