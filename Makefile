# ik.h: make test | make examples | make bench | make format | make check-format
CC      ?= cc
CFLAGS  ?= -O2
WARN     = -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow
BUILD    = build
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
FORMAT_FILES = ik.h $(wildcard tests/*.c tests/*.h examples/*.c bench/*.c bench/*.h bench/*.cpp)

.PHONY: all test test-quick examples run-examples bench bench-kdl arm-tools callgrind format check-format \
        clean

all: $(BUILD)/test/ik_test $(EXAMPLES) $(BUILD)/bench/bench $(ARM_TOOLS)

# every compiler x language x precision, sanitizers, IK_STATIC copies, examples
test:
	@sh tests/matrix.sh

# one variant (gcc, C99, double) for a fast edit-test loop
test-quick:
	@sh tests/matrix.sh quick

$(BUILD)/test/ik_test: ik.h tests/*.c tests/*.h bench/arms.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -o $@ tests/test_main.c tests/test_math.c \
	    tests/test_chain.c tests/test_svd.c tests/test_limb.c tests/test_ccd.c tests/test_jacobian.c tests/test_arm.c -lm

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

# the CLI tools of the arm benchmark: problem generator, solver, checker (bench/arm_csv.h)
ARM_TOOLS = $(BUILD)/arm/ik_problems $(BUILD)/arm/ik_solve $(BUILD)/arm/arm_report
arm-tools: $(ARM_TOOLS)
$(BUILD)/arm/%: bench/%.c ik.h bench/arm_csv.h bench/arm_chain.h bench/arms.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) -O2 -o $@ $< -lm

# ik.h against Orocos KDL on the arm protocol, one table (installs liborocos-kdl-dev if missing;
# not part of make test). PROBLEMS=10000 for the record.
PROBLEMS ?= 1000
bench-kdl:
	sh bench/arm_kdl.sh --problems $(PROBLEMS)

# instruction counts, repeatable on a noisy machine (needs valgrind)
callgrind: $(BUILD)/bench/bench
	valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/callgrind.out \
	    ./$(BUILD)/bench/bench --runs=3 2>&1 | grep -E 'refs|Collected'

format:
	clang-format -i $(FORMAT_FILES)

check-format:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
