#!/bin/sh
# The arm benchmark (TRAC-IK's protocol): ik.h's ik_arm_solve() and Orocos KDL 1.5 on the same
# problem files, checked by one independent FK (bench/arm_report), printed as one table.
# Usage: bench/arm_kdl.sh [--problems N] [--budget-ms T]   (make bench-kdl PROBLEMS=N)
# Needs g++ and liborocos-kdl-dev (installed with apt-get when missing).
set -eu
cd "$(dirname "$0")/.." || exit 1
N=1000
BUDGET=5
while [ $# -gt 0 ]; do
    case $1 in
    --problems) N=$2; shift 2 ;;
    --budget-ms) BUDGET=$2; shift 2 ;;
    *) echo "usage: bench/arm_kdl.sh [--problems N] [--budget-ms T]" >&2; exit 2 ;;
    esac
done
if [ ! -f /usr/include/kdl/chainiksolverpos_lma.hpp ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get install -y liborocos-kdl-dev >/dev/null
fi
B=build/arm
mkdir -p $B
WARN="-Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow"
CC=${CC:-cc}
$CC -std=c99 $WARN -O2 -o $B/ik_problems bench/ik_problems.c -lm
$CC -std=c99 $WARN -O2 -o $B/ik_solve bench/ik_solve.c -lm
$CC -std=c99 $WARN -O2 -o $B/arm_report bench/arm_report.c -lm
${CXX:-g++} -std=c++14 -O2 -Wall -Wextra -I/usr/include/eigen3 -o $B/kdl_solve bench/kdl_solve.cpp \
    -lorocos-kdl
# problems into build/arm; the chain files are regenerated in place (they must not change)
$B/ik_problems --problems "$N" --chains bench/chains --out $B >/dev/null
if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet -- bench/chains; then
    echo "note: bench/chains/*.csv differ from the committed ones" >&2
fi

echo "$N problems per chain and start mode, budget $BUDGET ms per problem (ik.h and KDL LMA with"
echo "restarts), success = every position component within 1e-5 m, every rotation-vector component"
echo "within 1e-5 rad (position only for planar chains), joints within limits; times in"
echo "microseconds per problem, failures included. $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
$B/arm_report --header ik.h KDL-LMA KDL-NR_JL KDL-LMA+restarts
for chain in iiwa14 panda human ur5 planar3 planar7 planar20; do
    po=""
    case $chain in planar*) po=--position-only ;; esac
    for mode in random near; do
        p=$B/${chain}_$mode.csv
        r=$B/res_${chain}_$mode
        $B/ik_solve bench/chains/$chain.csv "$p" $po --budget-ms "$BUDGET" >"$r.ik.csv"
        $B/kdl_solve bench/chains/$chain.csv "$p" $po --solver lma >"$r.lma.csv"
        rm -f "$r.nrjl.csv"
        [ -z "$po" ] && $B/kdl_solve bench/chains/$chain.csv "$p" --solver nrjl >"$r.nrjl.csv"
        $B/kdl_solve bench/chains/$chain.csv "$p" $po --solver lma-restarts --budget-ms "$BUDGET" \
            >"$r.lmarr.csv"
        # the reference: LMA with restarts for random starts, NR_JL for near starts, plain LMA
        # for the position-only planar chains
        ref=3
        [ $mode = near ] && ref=2
        [ -n "$po" ] && ref=1
        $B/arm_report $po --ref $ref "$chain | $mode" bench/chains/$chain.csv "$p" \
            ik.h="$r.ik.csv" KDL-LMA="$r.lma.csv" KDL-NR_JL="$r.nrjl.csv" \
            KDL-LMA+restarts="$r.lmarr.csv"
    done
done
