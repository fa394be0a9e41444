#!/usr/bin/env bash
# Builds the deepselect tool of this commit with kernel patches applied (those waiting for the
# GPU in bench/results/), one build per argument, for bench/scripts/ab_check.sh to compare in one
# device call. Each NAME=[PATCH[+PATCH...]] gets a worktree of HEAD under /tmp/deepselect-NAME,
# the patches applied in order (paths relative to the repo root; none: HEAD itself), and its
# tool copied to build/deepselect_NAME; with --tools, its phase_times and radix_micro go to
# build/devtools/NAME/.
# Usage (repo root, after tools/install_deps.sh):
#   bench/scripts/build_patches.sh [--tools] NAME=[PATCH[+PATCH...]]...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tools=false
if [ "${1:-}" = "--tools" ]; then
  tools=true
  shift
fi
[ $# -gt 0 ] || { sed -n '2,9p' "$0"; exit 2; }
mkdir -p build
for spec in "$@"; do
  name=${spec%%=*}
  patches=${spec#*=}
  tree=/tmp/deepselect-$name
  git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
  git worktree add --detach "$tree" HEAD > /dev/null
  list=()
  [ -z "$patches" ] || IFS='+' read -r -a list <<< "$patches"
  for patch in "${list[@]+"${list[@]}"}"; do
    git -C "$tree" apply "$root/$patch"
    echo "$name: applied $patch"
  done
  cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /dev/null
  cmake --build "$tree/build" -j2 --target deepselect_cli > /dev/null
  cp "$tree/build/deepselect" "build/deepselect_$name"
  echo "$name: build/deepselect_$name"
  if $tools; then
    mkdir -p "build/devtools/$name"
    # phase_times draws the bench's inputs through the test kit (the CLI's build made it).
    for tool in phase_times radix_micro; do
      nvcc -O3 -std=c++20 -arch=sm_90a -DDS_PHASE_TIMES -I "$tree/templates" -I "$tree/include" \
        -I "$tree/src" -I "$tree/tests" "$tree/bench/scripts/$tool.cu" "$tree/build/libdeepselect_testkit.a" \
        "$tree/build/libdeepselect_core.a" -o "build/devtools/$name/$tool"
    done
    echo "$name: build/devtools/$name/{phase_times,radix_micro}"
  fi
done
