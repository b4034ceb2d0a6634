#!/bin/sh
# Every figure of `make bench` as instructions (valgrind --tool=callgrind), for this ik.h and for
# an earlier one (default: 0.9.0), the same bench.c built against each, printed as one set of
# tables: "before -> after (change)" in every cell. Instruction counts repeat to the instruction,
# so one run of each suffices and the comparison holds on a loaded machine.
# Usage: bench/instructions.sh [--base REV] [bench arguments, e.g. --limits]
# (make bench-instructions BENCH_ARGS=...). Needs valgrind and git. Takes a few minutes.
set -eu
cd "$(dirname "$0")/.." || exit 1
BASE=32ce453 # 0.9.0's last commit
if [ "${1:-}" = --base ]; then
    BASE=$2
    shift 2
fi
B=build/instructions
rm -rf $B
mkdir -p $B/base/bench $B/head/bench
git show "$BASE:ik.h" >$B/base/ik.h
cp ik.h $B/head/ik.h
for v in base head; do
    cp bench/bench.c bench/arms.h $B/$v/bench/
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
