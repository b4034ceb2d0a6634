#!/bin/sh
# Builds and runs the test program in every variant: {gcc, clang} x {C99, C++11} x {double,
# float}, -Wall -Wextra -Wpedantic -Werror, then AddressSanitizer + UndefinedBehaviorSanitizer,
# the general code (IK_NO_FAST_PATHS) and the fast paths against it, -Ofast (-ffast-math),
# floating-point traps, more warnings on the implementation, units of both ik_reals that must
# not link, two IK_STATIC copies in one program, the examples (and their pictures, rendered by
# rsvg-convert), every C snippet of the documentation (and the output a program's text claims),
# docs/api.md's coverage, one version everywhere, every command that README.md and docs/
# name in a short run, and the page in the browser (make test-web). A variant whose compiler,
# sanitizer runtime or tool is missing is skipped with a notice. The last line sums the counts.
# Usage: tests/matrix.sh [quick]   (quick: gcc C99 double only)
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=build/test
mkdir -p "$OUT"
WARN="-Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow"
SRCS="tests/test_main.c tests/test_math.c tests/test_limits.c tests/test_skeleton.c tests/test_chain.c tests/test_svd.c tests/test_limb.c tests/test_ccd.c tests/test_jacobian.c tests/test_arm.c tests/test_robust.c tests/test_fabrik.c tests/test_closed.c tests/test_srs.c"
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

# variant_bg NAME COMPILER LANG FLAGS...: variant() in the background, JOBS at a time (the
# processors; IK_TEST_JOBS overrides), its lines and counts held until variants_join prints
# and adds them in the order they were started.
JOBS=${IK_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
pending=""
running=0
variant_bg() {
    (
        passed=0 failed=0 skipped=""
        variant "$@"
        echo "$passed $failed $skipped" >"$OUT/$1.counts"
    ) >"$OUT/$1.out" 2>&1 &
    pending="$pending $1"
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait
        running=0
    fi
}
variants_join() {
    wait
    running=0
    for name in $pending; do
        cat "$OUT/$name.out"
        read -r p f s <"$OUT/$name.counts" || { p=0 f=1 s=""; }
        passed=$((passed + p))
        failed=$((failed + f))
        [ -n "$s" ] && skipped="$skipped $s"
    done
    pending=""
}

# sanitizers need their runtime: probe with a one-line program first
san_ok() {
    printf 'int main(void){return 0;}\n' >"$OUT/probe.c"
    $1 -fsanitize=address,undefined -o "$OUT/probe" "$OUT/probe.c" >/dev/null 2>&1 && "$OUT/probe"
}

variant gcc-c99-double "$CC0" c -O2
[ "${1:-}" = quick ] && { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
variant_bg gcc-c99-float gcc c -O2 -DIK_USE_FLOAT
variant_bg clang-c99-double clang c -O2
variant_bg clang-c99-float clang c -O2 -DIK_USE_FLOAT
variant_bg gxx-cxx11-double g++ cxx -O2
variant_bg gxx-cxx11-float g++ cxx -O2 -DIK_USE_FLOAT
variant_bg clangxx-cxx11-double clang++ cxx -O2
variant_bg clangxx-cxx11-float clang++ cxx -O2 -DIK_USE_FLOAT
# the general code alone (IK_NO_FAST_PATHS; the whole suite in double: in float the transpose
# method's 99% on 7-DOF poses holds by a trial or two either way), and the fast paths' answers
# against it in both precisions: a build with them writes its answers to random problems, one
# without solves again and compares
variant_bg gcc-c99-double-nofast "$CC0" c -O2 -DIK_NO_FAST_PATHS
for prec in double float; do
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    if $CC0 -std=c99 $WARN $def -O2 -o "$OUT/fastpaths-$prec" tests/fastpaths.c -lm \
        >"$OUT/fastpaths-$prec.build.log" 2>&1 &&
        $CC0 -std=c99 $WARN $def -DIK_NO_FAST_PATHS -O2 -o "$OUT/fastpaths-$prec-general" \
            tests/fastpaths.c -lm >>"$OUT/fastpaths-$prec.build.log" 2>&1; then
        run fastpaths-written-$prec "$OUT/fastpaths-$prec" write "$OUT/fastpaths-$prec.txt"
        run fastpaths-against-general-$prec "$OUT/fastpaths-$prec-general" compare \
            "$OUT/fastpaths-$prec.txt"
    else
        echo "FAIL fastpaths-$prec: build failed"; cat "$OUT/fastpaths-$prec.build.log"
        failed=$((failed + 1))
    fi
done
SAN="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
for cc in gcc clang; do
    if have $cc && san_ok $cc; then
        variant_bg $cc-asan-ubsan-double $cc c $SAN
        variant_bg $cc-asan-ubsan-float $cc c $SAN -DIK_USE_FLOAT
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
FUZZ_SRCS="tests/fuzz/replay.c $(ls tests/fuzz/fuzz_*.c | tr "\n" " ")"
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

# ---- compiler options: -ffast-math, -O3, floating-point traps, more warnings, mixed ik_real ----
# (docs/robustness.md, "Compiler options")
# trap_sites LOG PROGRAM: the functions of the instructions that trapped (addr2line)
trap_sites() {
    have addr2line || return 0
    grep -E 'trapped \(.*\) at offset 0x' "$1" | while read -r line; do
        t=${line#FAIL }
        t=${t%%:*}
        off=${line##* }
        echo "     $t: $(addr2line -f -e "$2" "$off" | head -n 1)"
    done
}
# -Ofast (-O3 -ffast-math): bad input must get the same
# error codes, answers stay within the tests' tolerances, and the optimizer's flow analysis
# finds nothing to warn about. gcc, double: the whole test program; clang, float: the maths,
# the chain model, CCD and the robustness tables (the float tests of the limb, the Jacobian
# solver, the arm and the SVD assert rounding-level answers at singular states, such as one
# iteration to full stretch, that fast-math's regrouping and approximate square roots do not
# give: docs/robustness.md). Then the fuzz corpora under -ffast-math.
variant_bg gcc-ofast-double gcc c -Ofast
# and -O3 without fast-math, as release builds use it: the whole suite, gcc float, clang double
variant_bg gcc-o3-float gcc c -O3 -DIK_USE_FLOAT
variant_bg clang-o3-double clang c -O3
variants_join
build clang-ofast-float clang c -Ofast -DIK_USE_FLOAT &&
    run clang-ofast-float "$OUT/clang-ofast-float" math main chain ccd robust
for v in gcc:double clang:float; do
    cc=${v%%:*}
    prec=${v#*:}
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    have $cc || { echo "skip fuzz-replay-fastmath-$prec: $cc not found"; skipped="$skipped fuzz-replay-fastmath-$prec"; continue; }
    if $cc -std=c99 $WARN -O2 -ffast-math $def -o "$OUT/fuzz-replay-fastmath-$prec" $FUZZ_SRCS -lm \
        >"$OUT/fuzz-replay-fastmath-$prec.build.log" 2>&1; then
        run fuzz-replay-fastmath-$prec "$OUT/fuzz-replay-fastmath-$prec" tests/fuzz/corpus
    else
        echo "FAIL fuzz-replay-fastmath-$prec: build failed"; cat "$OUT/fuzz-replay-fastmath-$prec.build.log"
        failed=$((failed + 1))
    fi
done
# FE_INVALID, FE_DIVBYZERO and FE_OVERFLOW trapped (glibc's feenableexcept): the gcc builds
# above again, every group (clang may compute both sides of a branch, so its builds would need
# -ffp-exception-behavior=maytrap). A trap fails its test; the instruction's function follows.
for prec in double float; do
    bin="$OUT/gcc-c99-$prec"
    if [ "$CC0" != gcc ] || [ ! -x "$bin" ]; then
        echo "skip trap-fe-$prec: no gcc build"; skipped="$skipped trap-fe-$prec"; continue
    fi
    if "$bin" --trap-fe math 2>&1 | grep -q 'no feenableexcept'; then
        echo "skip trap-fe-$prec: no feenableexcept (glibc only)"; skipped="$skipped trap-fe-$prec"; continue
    fi
    before=$failed
    run trap-fe-$prec "$bin" --trap-fe
    [ "$failed" -ne "$before" ] && trap_sites "$OUT/trap-fe-$prec.log" "$bin"
done
# the implementation unit alone under more warnings: -Wfloat-equal (off inside the
# implementation only: a unit's own == after the #include must still warn), -Wconversion,
# -Wsign-conversion, -Wcast-align (gcc: =strict, or it is silent on x86)
printf '#define IK_IMPLEMENTATION\n#include "ik.h"\n' >"$OUT/impl.c"
printf '#define IK_IMPLEMENTATION\n#include "ik.h"\nint eq(ik_real a, ik_real b);\nint eq(ik_real a, ik_real b) { return a == b; }\n' >"$OUT/impl-eq.c"
MORE="-Wfloat-equal -Wconversion -Wsign-conversion"
before=$failed
for v in gcc:c:double gcc:c:float clang++:cxx:double clang++:cxx:float; do
    cc=${v%%:*}
    rest=${v#*:}
    lang=${rest%%:*}
    prec=${rest#*:}
    have $cc || { echo "skip warnings-$cc-$prec: $cc not found"; skipped="$skipped warnings-$cc"; continue; }
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    align=-Wcast-align
    [ $cc = gcc ] && align=-Wcast-align=strict
    if [ "$lang" = c ]; then std="-x c -std=c99"; else std="-x c++ -std=c++11"; fi
    if $cc $std $WARN $MORE $align $def -O0 -I. -c -o "$OUT/impl.o" "$OUT/impl.c" \
        >"$OUT/warnings-$cc-$prec.log" 2>&1; then
        passed=$((passed + 1))
    else
        echo "FAIL warnings $cc $lang $prec:"; head -n 20 "$OUT/warnings-$cc-$prec.log"; failed=$((failed + 1))
    fi
done
if $CC0 -std=c99 $WARN -Wfloat-equal -O0 -I. -c -o "$OUT/impl-eq.o" "$OUT/impl-eq.c" \
    >"$OUT/warnings-leak.log" 2>&1 || ! grep -q 'float-equal' "$OUT/warnings-leak.log"; then
    echo "FAIL -Wfloat-equal is off after the implementation too"; failed=$((failed + 1))
else
    passed=$((passed + 1))
fi
[ "$failed" -eq "$before" ] &&
    echo "ok   the implementation compiles clean under $MORE -Wcast-align (gcc, clang++; both ik_reals)"
# units that disagree on IK_USE_FLOAT must not link, and the linker must name the mismatch;
# units that agree link and run (tests/mix_impl.c, tests/mix_user.c)
before=$failed
for prec in double float; do
    def=""
    [ $prec = float ] && def=-DIK_USE_FLOAT
    for f in mix_impl mix_user; do
        $CC0 -std=c99 $WARN -O0 $def -c -o "$OUT/$f-$prec.o" tests/$f.c >"$OUT/$f-$prec.log" 2>&1 ||
            { echo "FAIL $f ($prec): build failed"; cat "$OUT/$f-$prec.log"; failed=$((failed + 1)); }
    done
done
for v in double:double float:float double:float float:double; do
    i=${v%%:*}
    u=${v#*:}
    if $CC0 -o "$OUT/mix-$i-$u" "$OUT/mix_impl-$i.o" "$OUT/mix_user-$u.o" -lm >"$OUT/mix-$i-$u.log" 2>&1; then
        if [ "$i" = "$u" ] && "$OUT/mix-$i-$u" >>"$OUT/mix-$i-$u.log" 2>&1; then
            passed=$((passed + 1))
        else
            echo "FAIL mixed ik_real: implementation $i, unit $u linked or did not run"
            cat "$OUT/mix-$i-$u.log"; failed=$((failed + 1))
        fi
    elif [ "$i" != "$u" ] &&
        grep -q "ik_link_error_IK_USE_FLOAT_mismatch_ik_real_is_${u}_here" "$OUT/mix-$i-$u.log"; then
        passed=$((passed + 1))
    else
        echo "FAIL mixed ik_real: implementation $i, unit $u:"; cat "$OUT/mix-$i-$u.log"; failed=$((failed + 1))
    fi
done
[ "$failed" -eq "$before" ] &&
    echo "ok   a float unit linked with a double implementation fails to link, naming the mismatch (both ways)"

# every example builds without a warning and runs to a zero exit (with argument 3: examples that
# repeat an experiment do 3 trials instead of their default), writing its pictures to $FIG
FIG="$OUT/figures"
rm -rf "$FIG"
mkdir -p "$FIG"
for ex in examples/*.c; do
    [ -f "$ex" ] || continue
    n=$(basename "$ex" .c)
    if $CC0 -std=c99 $WARN -O2 -o "$OUT/ex-$n" "$ex" -lm >"$OUT/ex-$n.build.log" 2>&1 &&
        "$OUT/ex-$n" 3 -o "$FIG" >"$OUT/ex-$n.log" 2>&1; then
        echo "ok   example $n"
        passed=$((passed + 1))
    else
        echo "FAIL example $n"; tail -n 20 "$OUT/ex-$n.build.log" "$OUT/ex-$n.log"
        failed=$((failed + 1))
    fi
done

# every figure committed under docs/figures/ is one an example writes (make figures regenerates
# them); a committed figure that differs from the fresh one is only noted: the last digit of a
# coordinate may differ between machines
stale=""
for f in docs/figures/*.svg; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    if [ ! -f "$FIG/$b" ]; then
        echo "FAIL $f: no example writes it"; failed=$((failed + 1))
    elif ! cmp -s "$f" "$FIG/$b"; then
        stale="$stale $b"
    fi
done
[ -n "$stale" ] && echo "note: differ from the examples' output (run make figures):$stale"

# a real SVG renderer (librsvg's rsvg-convert) turns the committed and the fresh figures into
# PNG images: exit status 0, the PNG signature, a plausible size
if have rsvg-convert; then
    before=$failed
    for f in docs/figures/*.svg "$FIG"/*.svg; do
        [ -f "$f" ] || continue
        png="$OUT/render-$(basename "$f" .svg).png"
        rm -f "$png"
        if rsvg-convert -o "$png" "$f" >"$png.log" 2>&1 &&
            [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
            [ "$(wc -c <"$png")" -gt 2000 ]; then
            passed=$((passed + 1))
        else
            echo "FAIL rsvg-convert $f"; cat "$png.log"; failed=$((failed + 1))
        fi
    done
    [ "$failed" -eq "$before" ] && echo "ok   rsvg-convert renders every figure as a PNG image"
else
    echo "skip SVG rendering: rsvg-convert not found (Debian: apt-get install librsvg2-bin)"
    skipped="$skipped rsvg-convert"
fi

# every C snippet in README.md, docs/*.md (```c blocks) and ik.h's top comment (blocks indented
# by 11 spaces) compiles as C99 and as C++11: a snippet with `int main` is a program (built and
# run), one with an #include a translation unit (compiled), any other a function body (compiled
# inside `void f(void) { ... }` after #include "ik.h" and <stdio.h>). A program whose block is
# followed by a line "It prints `...`" must print exactly that.
SNIP="$OUT/snippets"
rm -rf "$SNIP"
mkdir -p "$SNIP"
before=$failed
for md in README.md docs/*.md; do
    awk -v out="$SNIP/$(basename "$md" .md)" '/^```c[ \t]*$/{k++; f=1; next} /^```/{a=f; f=0; next}
        f{print > (out "-" k ".c"); next} a && /^[ \t]*$/{next}
        a && match($0, /^It prints `[^`]*`/){print substr($0, 12, RLENGTH - 12) > (out "-" k ".expect")} {a=0}' "$md"
done
awk -v out="$SNIP/ik.h" 'NR > 1 && /^\*\//{exit} /^           [^ ]/ && !f{k++; f=1} f && !/^           /{f=0} f{sub(/^           /, ""); print > (out "-" k ".c")}' ik.h
for src in "$SNIP"/*.c; do
    [ -f "$src" ] || continue
    n=$(basename "$src" .c)
    if grep -q 'int main' "$src"; then kind=program
    elif grep -q '^#include' "$src"; then kind=unit
    else
        kind=body
        { printf '#include "ik.h"\n#include <stdio.h>\nvoid f(void);\nvoid f(void)\n{\n'; cat "$src"; printf '}\n'; } >"$src.tmp"
        mv "$src.tmp" "$src"
    fi
    ok=1
    for lang in c cxx; do
        if [ $lang = c ]; then cc=$CC0; std="-x c -std=c99"; else cc=g++; std="-x c++ -std=c++11"; fi
        have $cc || continue
        if [ $kind = program ]; then
            $cc $std $WARN -I. -o "$SNIP/$n-$lang" "$src" -lm >"$SNIP/$n-$lang.log" 2>&1 &&
                "$SNIP/$n-$lang" >"$SNIP/$n-$lang.out" 2>>"$SNIP/$n-$lang.log" || ok=0
            cat "$SNIP/$n-$lang.out" >>"$SNIP/$n-$lang.log" 2>/dev/null
            if [ $ok = 1 ] && [ -f "$SNIP/$n.expect" ] &&
                [ "$(cat "$SNIP/$n-$lang.out")" != "$(cat "$SNIP/$n.expect")" ]; then
                ok=0
                echo "prints: $(cat "$SNIP/$n-$lang.out")" >>"$SNIP/$n-$lang.log"
                echo "the docs: $(cat "$SNIP/$n.expect")" >>"$SNIP/$n-$lang.log"
            fi
        elif [ -f "$SNIP/$n.expect" ]; then
            ok=0
            echo "an \"It prints\" line follows a snippet that is not a program" >"$SNIP/$n-$lang.log"
        else
            $cc $std $WARN -Wno-unused -I. -c -o "$SNIP/$n-$lang.o" "$src" >"$SNIP/$n-$lang.log" 2>&1 || ok=0
        fi
        [ $ok = 1 ] || { echo "FAIL snippet $n ($kind, $lang):"; cat -n "$src"; cat "$SNIP/$n-$lang.log"; break; }
    done
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
[ "$failed" -eq "$before" ] &&
    echo "ok   all $(ls "$SNIP"/*.c | wc -l) C snippets of README.md, docs/*.md and ik.h compile"

# every public function, type and macro is listed in docs/api.md
missing=""
api=$(sed -n '/^#ifndef IK_H_INCLUDED/,/^#endif \/\/ IK_H_INCLUDED/p' ik.h)
for f in $(echo "$api" | grep -oE '^(IKDEF|IK_INLINE) [a-z_ *0-9]*[ *](ik_[a-z0-9_]+)\(' | grep -oE 'ik_[a-z0-9_]+\($' | tr -d '(') \
    $(echo "$api" | grep -oE '^(typedef (struct|enum) ik_[a-z_0-9]+|} ik_[a-z_0-9]+;)' | grep -oE 'ik_[a-z_0-9]+' | sort -u) \
    $(echo "$api" | grep -oE '^#define IK_[A-Z][A-Z_0-9]*' | sed 's/#define //' | grep -v '^IK_H_INCLUDED$' | sort -u); do
    grep -q "\b$f\b" docs/api.md || missing="$missing $f"
done
if [ -z "$missing" ]; then
    echo "ok   docs/api.md lists every public function, type and macro"; passed=$((passed + 1))
else
    echo "FAIL docs/api.md misses:$missing"; failed=$((failed + 1))
fi

# one version everywhere: ik.h's first line, IK_VERSION_STRING, IK_VERSION_MAJOR/MINOR/PATCH,
# docs/api.md (its first paragraph and its table of macros), README.md's status line
ver=$(sed -n 's/^#define IK_VERSION_STRING "\(.*\)"$/\1/p' ik.h)
nums=$(sed -nE 's/^#define IK_VERSION_(MAJOR|MINOR|PATCH) +([0-9]+)$/\2/p' ik.h | paste -s -d . -)
wrong=""
[ -n "$ver" ] || wrong="$wrong IK_VERSION_STRING(none)"
[ "$nums" = "$ver" ] || wrong="$wrong IK_VERSION_MAJOR.MINOR.PATCH($nums)"
head -n 1 ik.h | grep -qF "ik.h v$ver " || wrong="$wrong ik.h-line-1($(head -n 1 ik.h | cut -c1-16))"
grep -qF "\`ik.h\` $ver," docs/api.md || wrong="$wrong docs/api.md-intro"
grep -qF "| $(echo "$nums" | sed 's/\./, /g'), \"$ver\" |" docs/api.md || wrong="$wrong docs/api.md-macros"
if grep -q '^\*\*Status (' README.md; then
    grep -qF "**Status ($ver):**" README.md || wrong="$wrong README.md-status"
fi
if [ -z "$wrong" ]; then
    echo "ok   version $ver in ik.h, docs/api.md and README.md"; passed=$((passed + 1))
else
    echo "FAIL version: IK_VERSION_STRING is \"$ver\"; these disagree:$wrong"; failed=$((failed + 1))
fi

# every command that README.md and docs/ name, once in a short form: it exits 0 and prints its
# tables (a header line of each). make's commands build into $SMOKE, not build/, the examples at
# -O0 (quick to compile). Not run: make bench-kdl and bench-kdl-tree (they install Orocos KDL),
# and the long ones or those that write to the repository (coverage, valgrind, fuzz, stability,
# figures, format); make bench-kdl-closed only where KDL is installed.
SMOKE="$OUT/smoke"
MK="make -s CC=$CC0 BUILD=$SMOKE"
# smoke NAME WANT CMD...: runs CMD; passes if it exits 0 and its output holds every line of WANT
# (fixed strings; WANT empty: any output)
smoke() {
    name=$1
    want=$2
    shift 2
    log="$OUT/smoke-$name.log"
    "$@" >"$log" 2>&1
    rc=$?
    missing=$(printf '%s\n' "$want" | while IFS= read -r p; do
        [ -z "$p" ] || grep -qF -- "$p" "$log" || echo "    $p"; done)
    if [ "$rc" -eq 0 ] && [ -z "$missing" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $name (exit $rc): $*"
        [ -n "$missing" ] && printf 'missing lines:\n%s\n' "$missing"
        tail -n 20 "$log"
        failed=$((failed + 1))
    fi
}
# the arm tools in a short pipeline: problems (and the chain files, which must equal the
# committed ones), a solve, the report
arm_pipeline() {
    d="$SMOKE/arm"
    rm -rf "$d" && mkdir -p "$d" && $MK arm-tools &&
        "$SMOKE/arm/ik_problems" --problems 20 --chains "$d" --out "$d" || return 1
    for c in bench/chains/*.csv; do
        cmp "$c" "$d/$(basename "$c")" ||
            { echo "$c: not what bench/ik_problems writes from bench/arms.h"; return 1; }
    done
    "$SMOKE/arm/ik_solve" "$d/iiwa14.csv" "$d/iiwa14_random.csv" --budget-ms 1 >"$d/res.csv" &&
        "$SMOKE/arm/arm_report" --header ik.h &&
        "$SMOKE/arm/arm_report" "iiwa14 | random" "$d/iiwa14.csv" "$d/iiwa14_random.csv" \
            ik.h="$d/res.csv"
}
if have make; then
    before=$failed
    t0=$(date +%s)
    rm -rf "$SMOKE"
    smoke make-bench "| chain          | dof | FK ns
| analytic limb, ns/solve
| Jacobian IK (ik_jacobian_solve), ns per iteration
| Jacobian IK, ns per further iteration
| Jacobian IK, ns per solve (iterations)
| CCD (ik_ccd_solve), ns per joint per sweep
| CCD, sweeps alone
| CCD, one sweep per call
| SVD (ik_svd)
| DLS, pose, " $MK bench BENCH_ARGS=--runs=1
    smoke bench-limits "| SVD (ik_svd)
| DLS, pose, " "$SMOKE/bench/bench" --limits --runs=1
    smoke bench-ccd-weights "| CCD position weight" "$SMOKE/bench/bench" --ccd-weights
    smoke bench-ccd-split "| CCD, revolute position, ns per joint per solve" \
        "$SMOKE/bench/bench" --ccd-split
    smoke bench-damping-range "| arm    | states |" "$SMOKE/bench/bench" --damping-range
    smoke bench-further "| a further iteration, 100 starts |" "$SMOKE/bench/bench" --further
    smoke bench-ball-limits "| ball-joint limit, ns per call
| 7 ball joints" "$SMOKE/bench/bench" --ball-limits --runs=1
    smoke bench-skeleton "| humanoid, 5 effectors, 1000 frames
| humanoid, 5 effectors, targets from random states
| humanoid, DLS, ns
| skeleton, 4 position effectors" "$SMOKE/bench/bench" --skeleton --runs=1
    smoke bench-fabrik "| chain            | ns per joint per iteration
| chain            | solver | 1e-2" "$SMOKE/bench/bench" --fabrik --runs=1
    smoke fabrik-iiwa "position target:" sh -c "$CC0 -std=c99 $WARN -O2 -o $SMOKE/fabrik_iiwa \
        web/fabrik_iiwa.c -lm && $SMOKE/fabrik_iiwa"
    if have node && have npm; then
        smoke bench-three-ik "| links | ik.h solved to 1e-5 in 100 iterations | THREE.IK solved" \
            env THREE_IK_OUT="$SMOKE/three-ik" CC="$CC0" sh bench/three_ik.sh 20
    else
        echo "skip make bench-three-ik: node or npm not found"
        skipped="$skipped three-ik"
    fi
    smoke bench-limb-calls "" "$SMOKE/bench/bench" --limb-calls=2,2,100
    smoke bench-ccd-calls "" "$SMOKE/bench/bench" --ccd-calls=7,100,5,3
    smoke bench-jac-calls "" "$SMOKE/bench/bench" --jac-calls=0,2,100,3
    smoke bench-pin-calls "" "$SMOKE/bench/bench" --pin-calls=1,2,20,3
    if have valgrind; then
        smoke make-callgrind "Collected" $MK callgrind CALLGRIND_ARGS=--limb-calls=0,0,100
    else
        echo "skip make callgrind: valgrind not found"
        skipped="$skipped valgrind"
    fi
    smoke make-demo "== examples/07_robot_arm_poses.c
pictures: $SMOKE/figures/" $MK CFLAGS=-O0 demo
    smoke arm-tools "| chain | start | ik.h solved |
| iiwa14 | random | " arm_pipeline
    # make bench-kdl-closed's program where KDL is installed (nothing installed here), the
    # instruction counts left out
    if [ -f /usr/include/kdl/chainiksolverpos_nr_jl.hpp ] && have g++; then
        smoke bench-kdl-closed "| arm | solver | zero start: ns
| KUKA KR 6 R900 |
| KUKA LBR iiwa 14 | " env CXX=g++ KDL_CLOSED_OUT="$SMOKE/kdl" sh bench/kdl_closed.sh --problems 20 \
            --no-instructions
    else
        echo "skip make bench-kdl-closed: Orocos KDL's headers or g++ not found"
        skipped="$skipped kdl"
    fi
    [ "$failed" -eq "$before" ] && echo "ok   the commands of README.md and docs/ in short runs:" \
        "make bench, each bench mode, make bench-three-ik, web/fabrik_iiwa.c, make callgrind, make demo, the arm tools ($(($(date +%s) - t0)) s)"
    echo "note: make bench-kdl and bench-kdl-tree not run (they install Orocos KDL; run by hand)," \
        "make bench-kdl-closed only where KDL is installed"
else
    echo "skip the commands of README.md and docs/: make not found"
    skipped="$skipped make"
fi

# the page in the browser (make test-web): ik.h compiled to WebAssembly, driven in headless
# Chromium; needs Emscripten, Chromium, Node.js and npm (.ci/run installs them)
if have emcc && have chromium && have node && have npm; then
    run web-page make -s test-web
else
    echo "skip the page in the browser (make test-web): needs emcc, chromium, node and npm"
    skipped="$skipped web"
fi

[ -n "$skipped" ] && echo "skipped (tool missing):$skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
