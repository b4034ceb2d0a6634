#!/bin/sh
# Every solution in closed form against Orocos KDL: ik_closed_form_solve(), ik_arm_solve() and
# KDL's NR_JL and LMA solvers on the five arms of bench/industrial.h and the KUKA iiwa 14 (at
# each pose's swivel, and its swivel intervals), the same poses in one run (bench/kdl_closed.cpp
# says what is timed and checked); then, where valgrind is installed, the instructions per solve
# of ik.h's solvers (callgrind, 1024 solves over 256 of the poses).
# Usage: bench/kdl_closed.sh [--problems N] [--no-instructions]   (make bench-kdl-closed PROBLEMS=N)
# Needs g++ and liborocos-kdl-dev (installed with apt-get when missing).
set -eu
cd "$(dirname "$0")/.." || exit 1
N=1000
COUNT=yes
while [ $# -gt 0 ]; do
    case $1 in
    --problems) N=$2; shift 2 ;;
    --no-instructions) COUNT=no; shift ;;
    *) echo "usage: bench/kdl_closed.sh [--problems N] [--no-instructions]" >&2; exit 2 ;;
    esac
done
if [ ! -f /usr/include/kdl/chainiksolverpos_nr_jl.hpp ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get install -y liborocos-kdl-dev >/dev/null
fi
B=${KDL_CLOSED_OUT:-build/kdl}
mkdir -p "$B"
${CXX:-g++} -std=c++14 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion -Werror \
    -isystem /usr/include/eigen3 -o "$B/kdl_closed" bench/kdl_closed.cpp -lorocos-kdl
echo "$(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$B/kdl_closed" --poses "$N"
[ $COUNT = yes ] || exit 0
command -v valgrind >/dev/null 2>&1 || { echo "(no valgrind: no instruction counts)"; exit 0; }
# instructions in count_solve() over 1024 solves of arm a, solver s, start k, divided
count() {
    valgrind --tool=callgrind --toggle-collect=count_solve --callgrind-out-file="$B/cg.out" \
        "$B/kdl_closed" --calls="$1,$2,$3,1024" >/dev/null 2>&1
    awk '/^totals:/ { printf "%.0f", $2 / 1024 }' "$B/cg.out"
}
echo
echo "| instructions per solve (zero start / near start) | every answer (-pi..pi) | the arm's" \
    "limits, 8 nearest | \`ik_arm_solve\` | the swivel intervals |"
echo "|---|--:|--:|--:|--:|"
a=0
for arm in UR5e UR10 "ABB IRB 2400" "Fanuc LR Mate 200iD" "KUKA KR 6 R900" "KUKA LBR iiwa 14"; do
    row="| $arm"
    for s in 0 1 2; do
        row="$row | $(count $a $s 0) / $(count $a $s 1)"
    done
    # the swivel intervals (SRS arms only: the iiwa, arm 5) take no start
    [ $a -eq 5 ] && row="$row | $(count $a 3 0)" || row="$row | "
    echo "$row |"
    a=$((a + 1))
done
rm -f "$B/cg.out"
