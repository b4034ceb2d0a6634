#!/bin/sh
# ik.h's ik_fabrik_solve() against THREE.IK (npm three-ik, FABRIK for three.js, run headless in
# Node) on the same chains and targets in one run (bench/three_ik.c writes the problems and
# measures ik.h; bench/three-ik/bench.mjs measures THREE.IK the same way).
# Usage: bench/three_ik.sh [PROBLEMS]   (make bench-three-ik PROBLEMS=N). Needs node and npm.
# Writes into $THREE_IK_OUT (default build/three-ik).
set -eu
cd "$(dirname "$0")/.." || exit 1
N=${1:-1000}
D=${THREE_IK_OUT:-build/three-ik}
mkdir -p "$D"
${CC:-cc} -std=c99 -O2 -Wall -Wextra -o "$D/three_ik" bench/three_ik.c -lm
[ -f bench/three-ik/node_modules/.package-lock.json ] ||
    (cd bench/three-ik && npm ci --no-audit --no-fund >/dev/null)
"$D/three_ik" "$D/problems.txt" "$N" >"$D/ik.txt"
node bench/three-ik/bench.mjs "$D/problems.txt" >"$D/three.txt"
echo "$(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), node $(node --version)"
echo
echo "chains of n free ball joints, links 1/n, targets at 0.1 .. 0.95 of the reach, from the straight pose; $N problems a chain"
echo
echo "| links | ik.h solved to 1e-5 in 100 iterations | THREE.IK solved | ik.h median iterations | THREE.IK median iterations | ik.h ns per iteration | THREE.IK ns per iteration | THREE.IK / ik.h |"
echo "|--:|--:|--:|--:|--:|--:|--:|--:|"
while read -r _ n count solved its ns; do
    set -- $(grep "^three-ik $n " "$D/three.txt")
    awk -v n="$n" -v c="$count" -v s="$solved" -v i="$its" -v t="$ns" -v s2="$4" -v i2="$5" -v t2="$6" \
        'BEGIN { printf "| %d | %.1f%% | %.1f%% | %s | %s | %.0f | %.0f | %.1fx |\n", n, 100 * s / c, 100 * s2 / c, i, i2, t, t2, t2 / t }'
done <"$D/ik.txt"
