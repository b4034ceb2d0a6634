# ik.h: make test | make examples | make bench | make format | make check-format
#       make fuzz [FUZZ_SECONDS=600] | make fuzz-replay | make coverage | make valgrind | make stability
CC      ?= cc
CFLAGS  ?= -O2
WARN     = -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow
BUILD    = build
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
FORMAT_FILES = ik.h $(wildcard tests/*.c tests/*.h tests/fuzz/*.c tests/fuzz/*.h examples/*.c \
               bench/*.c)
TEST_SRCS = tests/test_main.c tests/test_math.c tests/test_chain.c tests/test_svd.c \
            tests/test_limb.c tests/test_ccd.c tests/test_jacobian.c tests/test_robust.c
FUZZ_TARGETS = chain rotation svd limb ccd jacobian
FUZZ_SECONDS ?= 600

.PHONY: all test test-quick examples run-examples bench callgrind format check-format clean \
        fuzz fuzz-replay coverage valgrind stability

all: $(BUILD)/test/ik_test $(EXAMPLES) $(BUILD)/bench/bench

# every compiler x language x precision, sanitizers, IK_STATIC copies, examples
test:
	@sh tests/matrix.sh

# one variant (gcc, C99, double) for a fast edit-test loop
test-quick:
	@sh tests/matrix.sh quick

$(BUILD)/test/ik_test: ik.h tests/*.c tests/*.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -o $@ $(TEST_SRCS) -lm

examples: $(EXAMPLES)
run-examples: $(EXAMPLES)
	@for e in $(EXAMPLES); do echo "== $$e"; ./$$e || exit 1; done

$(BUILD)/examples/%: examples/%.c ik.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -o $@ $< -lm

$(BUILD)/bench/bench: bench/bench.c ik.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) -O2 -o $@ bench/bench.c -lm

bench: $(BUILD)/bench/bench
	./$(BUILD)/bench/bench

# instruction counts, repeatable on a noisy machine (needs valgrind)
callgrind: $(BUILD)/bench/bench
	valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/callgrind.out \
	    ./$(BUILD)/bench/bench --runs=3 2>&1 | grep -E 'refs|Collected'

# libFuzzer (clang) runs each target for FUZZ_SECONDS from the committed seed corpus; new inputs
# go to build/fuzz/corpus-<target>, findings to build/fuzz/<target>-crash-*. The last line of
# each target's log gives its execution count (stat::number_of_executed_units).
FUZZ_FLAGS = -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
             -DIK_FUZZ_LIBFUZZER -DIK_IMPLEMENTATION
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h ik.h
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -o $@ $< -lm

fuzz: $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(BUILD)/fuzz/corpus-$$t; \
	    echo "== fuzz_$$t, $(FUZZ_SECONDS) s"; \
	    ./$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        -artifact_prefix=$(BUILD)/fuzz/$$t- $(BUILD)/fuzz/corpus-$$t tests/fuzz/corpus/$$t \
	        >$(BUILD)/fuzz/$$t.log 2>&1; rc=$$?; \
	    grep -E 'stat::number_of_executed_units|^Done|ERROR|SUMMARY|check failed' \
	        $(BUILD)/fuzz/$$t.log; \
	    [ $$rc -eq 0 ] || { echo "fuzz_$$t failed: see $(BUILD)/fuzz/$$t.log"; exit 1; }; \
	done

# the committed seed corpora through every harness without libFuzzer (gcc, ASan + UBSan)
SAN = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(BUILD)/fuzz/replay: tests/fuzz/*.c tests/fuzz/*.h ik.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(SAN) -o $@ tests/fuzz/replay.c $(patsubst %,tests/fuzz/fuzz_%.c, \
	    $(FUZZ_TARGETS)) -lm
fuzz-replay: $(BUILD)/fuzz/replay
	./$(BUILD)/fuzz/replay tests/fuzz/corpus

# line and branch coverage of ik.h by the test program (gcc --coverage, gcov)
coverage:
	@rm -rf $(BUILD)/coverage && mkdir -p $(BUILD)/coverage
	gcc -std=c99 -O0 --coverage -o $(BUILD)/coverage/ik_test $(abspath $(TEST_SRCS)) -lm
	@./$(BUILD)/coverage/ik_test | tail -n 1
	@cd $(BUILD)/coverage && gcov -b ik_test-test_main.gcda >gcov.txt 2>&1; \
	    awk '/^File .*ik\.h/{f=1; print "ik.h:"; next} /^File |^$$/{f=0} f && /Lines|Branches|Taken/' \
	        gcov.txt; \
	    echo "annotated source: $(BUILD)/coverage/ik.h.gcov (#####: a line never run)"

# memcheck on the test program (no sanitizer in the build; takes a few minutes)
valgrind:
	@mkdir -p $(BUILD)/valgrind
	gcc -std=c99 $(WARN) -O1 -g -o $(BUILD)/valgrind/ik_test $(TEST_SRCS) -lm
	valgrind --tool=memcheck --error-exitcode=1 --leak-check=full --track-origins=yes \
	    ./$(BUILD)/valgrind/ik_test | tail -n 1

# 10^6 tracking solves per case, double and float (make test runs a shortened version)
stability:
	@mkdir -p $(BUILD)/stability
	$(CC) -std=c99 $(WARN) -O2 -o $(BUILD)/stability/double tests/stability.c -lm
	$(CC) -std=c99 $(WARN) -O2 -DIK_USE_FLOAT -o $(BUILD)/stability/float tests/stability.c -lm
	./$(BUILD)/stability/double 1000000
	./$(BUILD)/stability/float 1000000

format:
	clang-format -i $(FORMAT_FILES)

check-format:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
