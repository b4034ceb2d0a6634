#!/bin/sh
# ik.h's ik_skeleton_solve() against Orocos KDL's TreeIkSolverPos_NR_JL + TreeIkSolverVel_wdls on
# the humanoid of bench/humanoid.h, the same problems in the same run (bench/kdl_tree.cpp says
# how KDL's tree is made): once with the humanoid's ball-joint cones on ik.h's side (KDL cannot
# hold them), once with them off on both sides (--free-balls).
# Usage: bench/kdl_tree.sh [--problems N] [kdl_tree options]   (make bench-kdl-tree PROBLEMS=N)
# Needs g++ and liborocos-kdl-dev (installed with apt-get when missing).
set -eu
cd "$(dirname "$0")/.." || exit 1
N=1000
if [ "${1:-}" = --problems ]; then
    N=$2
    shift 2
fi
if [ ! -f /usr/include/kdl/treeiksolverpos_nr_jl.hpp ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get install -y liborocos-kdl-dev >/dev/null
fi
mkdir -p build/kdl
${CXX:-g++} -std=c++14 -O2 -Wall -Wextra -I/usr/include/eigen3 -o build/kdl/kdl_tree \
    bench/kdl_tree.cpp -lorocos-kdl
echo "$(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
build/kdl/kdl_tree --problems "$N" "$@"
echo
build/kdl/kdl_tree --problems "$N" --free-balls "$@"
