#!/bin/sh
# Builds and runs the test program in every variant: {gcc, clang} x {C99, C++11} x {double,
# float}, -Wall -Wextra -Wpedantic -Werror, then AddressSanitizer + UndefinedBehaviorSanitizer,
# two IK_STATIC copies in one program, and the examples. A variant whose compiler or sanitizer
# runtime is missing is skipped with a notice. The last line sums every variant's counts.
# Usage: tests/matrix.sh [quick]   (quick: gcc C99 double only)
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=build/test
mkdir -p "$OUT"
WARN="-Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow"
SRCS="tests/test_main.c tests/test_math.c tests/test_chain.c tests/test_svd.c tests/test_limb.c tests/test_ccd.c tests/test_jacobian.c tests/test_robust.c"
passed=0
failed=0
skipped=""

have() { command -v "$1" >/dev/null 2>&1; }
# the C compiler for the single-build checks below: gcc, else cc, else clang
CC0=gcc
have gcc || CC0=cc
have "$CC0" || CC0=clang

# run NAME CMD...: runs a test binary, adds its "N passed, N failed" line to the totals.
run() {
    name=$1
    shift
    log="$OUT/$name.log"
    "$@" >"$log" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    p=0
    f=1
    if [ -n "$line" ]; then
        p=${line%% passed*}
        f=${line#*passed, }
        f=${f%% failed*}
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
        echo "FAIL $name (exit $rc):"
        grep -v '^ik.h ' "$log" | tail -n 40
    else
        echo "ok   $name: $line"
    fi
}

# build NAME COMPILER LANG FLAGS...: compiles the test program; failures count as one failure.
build() {
    name=$1
    cc=$2
    lang=$3
    shift 3
    if ! have "$cc"; then
        echo "skip $name: $cc not found"
        skipped="$skipped $name"
        return 1
    fi
    if [ "$lang" = c ]; then std="-x c -std=c99"; else std="-x c++ -std=c++11"; fi
    if ! $cc $std $WARN "$@" -o "$OUT/$name" $SRCS -lm >"$OUT/$name.build.log" 2>&1; then
        echo "FAIL $name: build failed"
        head -n 40 "$OUT/$name.build.log"
        failed=$((failed + 1))
        return 1
    fi
    return 0
}

variant() {
    name=$1
    build "$@" && run "$name" "$OUT/$name"
}

# sanitizers need their runtime: probe with a one-line program first
san_ok() {
    printf 'int main(void){return 0;}\n' >"$OUT/probe.c"
    $1 -fsanitize=address,undefined -o "$OUT/probe" "$OUT/probe.c" >/dev/null 2>&1 && "$OUT/probe"
}

variant gcc-c99-double "$CC0" c -O2
[ "${1:-}" = quick ] && { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
variant gcc-c99-float gcc c -O2 -DIK_USE_FLOAT
variant clang-c99-double clang c -O2
variant clang-c99-float clang c -O2 -DIK_USE_FLOAT
variant gxx-cxx11-double g++ cxx -O2
variant gxx-cxx11-float g++ cxx -O2 -DIK_USE_FLOAT
variant clangxx-cxx11-double clang++ cxx -O2
variant clangxx-cxx11-float clang++ cxx -O2 -DIK_USE_FLOAT
SAN="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
for cc in gcc clang; do
    if have $cc && san_ok $cc; then
        variant $cc-asan-ubsan-double $cc c $SAN
        variant $cc-asan-ubsan-float $cc c $SAN -DIK_USE_FLOAT
    else
        echo "skip $cc-asan-ubsan: $cc or its sanitizer runtime not found"
        skipped="$skipped $cc-asan-ubsan"
    fi
done

# two IK_STATIC copies in one program, as C and as C++
for prec in double float; do
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    if $CC0 -std=c99 $WARN $def -O2 -o "$OUT/static-$prec" tests/static_a.c tests/static_b.c -lm \
        >"$OUT/static-$prec.build.log" 2>&1; then
        run static-c99-$prec "$OUT/static-$prec"
    else
        echo "FAIL static-c99-$prec: build failed"; cat "$OUT/static-$prec.build.log"
        failed=$((failed + 1))
    fi
done
if have g++ && g++ -x c++ -std=c++11 $WARN -O2 -o "$OUT/static-cxx" tests/static_a.c \
    tests/static_b.c -lm >"$OUT/static-cxx.build.log" 2>&1; then
    run static-cxx11 "$OUT/static-cxx"
elif have g++; then
    echo "FAIL static-cxx11: build failed"; cat "$OUT/static-cxx.build.log"; failed=$((failed + 1))
fi

# the fuzz harnesses replay the committed seed corpora without libFuzzer (tests/fuzz/replay.c),
# under ASan + UBSan when the compiler has them; then the long-run tracking check, shortened
FUZZ_SRCS="tests/fuzz/replay.c tests/fuzz/fuzz_chain.c tests/fuzz/fuzz_rotation.c tests/fuzz/fuzz_svd.c tests/fuzz/fuzz_limb.c tests/fuzz/fuzz_ccd.c tests/fuzz/fuzz_jacobian.c"
FSAN="-O2"
san_ok "$CC0" && FSAN="$SAN"
for prec in double float; do
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    if $CC0 -std=c99 $WARN $FSAN $def -o "$OUT/fuzz-replay-$prec" $FUZZ_SRCS -lm \
        >"$OUT/fuzz-replay-$prec.build.log" 2>&1; then
        run fuzz-replay-$prec "$OUT/fuzz-replay-$prec" tests/fuzz/corpus
    else
        echo "FAIL fuzz-replay-$prec: build failed"; cat "$OUT/fuzz-replay-$prec.build.log"
        failed=$((failed + 1))
    fi
    if $CC0 -std=c99 $WARN -O2 $def -o "$OUT/stability-$prec" tests/stability.c -lm \
        >"$OUT/stability-$prec.build.log" 2>&1; then
        run stability-$prec "$OUT/stability-$prec" 20000
    else
        echo "FAIL stability-$prec: build failed"; cat "$OUT/stability-$prec.build.log"
        failed=$((failed + 1))
    fi
done

# every example builds without a warning and runs to a zero exit (with argument 3: examples that
# repeat an experiment do 3 trials instead of their default)
for ex in examples/*.c; do
    [ -f "$ex" ] || continue
    n=$(basename "$ex" .c)
    if $CC0 -std=c99 $WARN -O2 -o "$OUT/ex-$n" "$ex" -lm >"$OUT/ex-$n.build.log" 2>&1 &&
        "$OUT/ex-$n" 3 >"$OUT/ex-$n.log" 2>&1; then
        echo "ok   example $n"
        passed=$((passed + 1))
    else
        echo "FAIL example $n"; tail -n 20 "$OUT/ex-$n.build.log" "$OUT/ex-$n.log"
        failed=$((failed + 1))
    fi
done

# the quick-start programs in README.md and in ik.h's top comment compile as written and run
extract_readme() { awk '/^```c$/{b=""; f=1; next} /^```$/{if (f && b ~ /int main/) printf "%s", b; f=0} f{b=b $0 "\n"}' README.md; }
extract_header() { sed -n '/^   QUICK START/,/^   CONVENTIONS/p' ik.h | grep '^           ' | sed 's/^           //'; }
for src in readme header; do
    extract_$src >"$OUT/snippet-$src.c"
    if [ -s "$OUT/snippet-$src.c" ] && $CC0 -std=c99 $WARN -I. -o "$OUT/snippet-$src" \
        "$OUT/snippet-$src.c" -lm >"$OUT/snippet-$src.build.log" 2>&1 &&
        "$OUT/snippet-$src" >"$OUT/snippet-$src.log" 2>&1; then
        echo "ok   $src quick start compiles and runs"
        passed=$((passed + 1))
    else
        echo "FAIL $src quick start"; cat "$OUT/snippet-$src.c" "$OUT/snippet-$src.build.log"
        failed=$((failed + 1))
    fi
done

# every public function is listed in docs/api.md
missing=""
for f in $(grep -oE '^(IKDEF|IK_INLINE) [a-z_ *0-9]*[ *](ik_[a-z0-9_]+)\(' ik.h | grep -oE 'ik_[a-z0-9_]+\($' | tr -d '('); do
    grep -q "\b$f\b" docs/api.md || missing="$missing $f"
done
if [ -z "$missing" ]; then
    echo "ok   docs/api.md lists every public function"; passed=$((passed + 1))
else
    echo "FAIL docs/api.md misses:$missing"; failed=$((failed + 1))
fi

[ -n "$skipped" ] && echo "skipped (tool missing):$skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
