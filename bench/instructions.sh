#!/bin/sh
# Every figure of `make bench` as instructions (valgrind --tool=callgrind), for this ik.h and for
# an earlier one (default: 0.9.0), the same bench.c built against each, printed as one set of
# tables: "before -> after (change)" in every cell. Instruction counts repeat to the instruction,
# so one run of each suffices and the comparison holds on a loaded machine.
# Usage: bench/instructions.sh [--base REV] [--arms N] [bench arguments, e.g. --limits]
# (make bench-instructions BENCH_ARGS=...). Needs valgrind and git. Takes a minute.
# --arms N: instead, ik_arm_solve on the first N problems of each chain and start of
# make bench-kdl (bench/arm_kdl.sh), restarts until solved (no time budget, so the same
# attempts every run): instructions per problem, and the problems solved.
set -eu
cd "$(dirname "$0")/.." || exit 1
BASE=32ce453 # 0.9.0's last commit
ARMS=0
while [ $# -gt 0 ]; do
    case $1 in
    --base) BASE=$2; shift 2 ;;
    --arms) ARMS=$2; shift 2 ;;
    *) break ;;
    esac
done
B=build/instructions
rm -rf $B
mkdir -p $B/base/bench $B/head/bench
git show "$BASE:ik.h" >$B/base/ik.h
cp ik.h $B/head/ik.h
CC=${CC:-cc}
if [ "$ARMS" -gt 0 ]; then
    for v in base head; do
        cp bench/*.c bench/*.h $B/$v/bench/
        $CC -std=c99 -O2 -o $B/$v/ik_solve $B/$v/bench/ik_solve.c -lm
    done
    $CC -std=c99 -O2 -o $B/ik_problems bench/ik_problems.c -lm
    $CC -std=c99 -O2 -o $B/arm_report bench/arm_report.c -lm
    cp -r bench/chains $B/chains # (ik_problems rewrites them)
    $B/ik_problems --problems "$ARMS" --chains $B/chains --out $B >/dev/null
    echo "ik_arm_solve, the first $ARMS problems of make bench-kdl per chain and start, restarts until"
    echo "solved (--budget-ms 0): instructions per problem in ik_arm_solve, $BASE's ik.h"
    echo "-> this ik.h; problems converged (of $ARMS), checked by arm_report's own FK in make bench-kdl"
    echo
    echo "| chain | start | instructions per problem | solved |"
    echo "|---|---|--:|--:|"
    for chain in iiwa14 panda human ur5 planar3 planar7 planar20; do
        po=""
        case $chain in planar*) po=--position-only ;; esac
        for mode in random near; do
            line="| $chain | $mode |"
            for v in base head; do
                valgrind --tool=callgrind --toggle-collect=ik_arm_solve \
                    --callgrind-out-file=$B/$v/arm.out $B/$v/ik_solve $B/chains/$chain.csv \
                    $B/${chain}_$mode.csv $po --budget-ms 0 --problems "$ARMS" \
                    >$B/$v/res_"$ARMS".csv 2>/dev/null
                eval "ins_$v=$(($(sed -n 's/^totals: //p' $B/$v/arm.out) / ARMS))"
                eval "ok_$v=$(grep -c ',converged,' $B/$v/res_"$ARMS".csv || true)"
            done
            echo "$line $ins_base -> $ins_head: $(awk "BEGIN { printf \"%+.1f%%\", 100 * ($ins_head - $ins_base) / $ins_base }") | $ok_base -> $ok_head |"
        done
    done
    exit 0
fi
for v in base head; do
    cp bench/bench.c bench/*.h $B/$v/bench/
    ${CC:-cc} -std=c99 -O2 -DBENCH_CALLGRIND -o $B/$v/bench/bench $B/$v/bench/bench.c -lm
    valgrind --tool=callgrind --callgrind-out-file=$B/$v/out $B/$v/bench/bench --runs=1 \
        --instructions=$B/$v/out "$@" >$B/$v.txt 2>$B/$v.log
done
echo "Instructions per figure of make bench: $BASE's ik.h -> this ik.h (change), one callgrind"
echo "run each; cells whose figure is not a cost (iterations, ratios) show this ik.h's value."
echo
# join the two outputs cell by cell: a cost cell (ns in its header or the table's) becomes
# "a -> b: +x%", with the iteration counts "(k)" of either side where the cell has one
awk -F'|' '
function num(s) { return s ~ /^ *-?[0-9.]+ *(\( *[0-9]+\))? *$/ ? s + 0 : "" }
function count(s) { return s ~ /\(/ ? " (" (substr(s, index(s, "(") + 1) + 0) ")" : "" }
function cost(h, first) { return (h ~ /ns/ || first ~ /ns/) && h !~ /\/|pinned|^ *dof *$/ }
function fmt(x) { return sprintf(x < 100 ? "%.1f" : "%.0f", x) }
NR == FNR { base[FNR] = $0; next }
{
    if ($0 !~ /^\|/ || $0 ~ /^\|--/) { print; next }
    if (FNR == 1 || base[FNR - 1] !~ /^\|/) { header = $0; print; next }
    n = split(base[FNR], old, "|"); split(header, head, "|")
    line = ""
    for (i = 2; i < NF; i++) {
        a = num(old[i]); b = num($i); cell = $i
        if (a != "" && b != "" && a > 0 && cost(head[i], head[2]))
            cell = sprintf(" %s%s -> %s%s: %+.1f%% ", fmt(a), count(old[i]), fmt(b), count($i),
                           100 * (b - a) / a)
        line = line "|" cell
    }
    print line "|"
}' $B/base.txt $B/head.txt
