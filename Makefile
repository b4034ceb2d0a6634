# ik.h: make demo | make test | make examples | make figures | make bench | make format
CC      ?= cc
CFLAGS  ?= -O2
WARN     = -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow
BUILD    = build
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
FORMAT_FILES = ik.h $(wildcard tests/*.c tests/*.h examples/*.c examples/*.h bench/*.c bench/*.h \
                 bench/*.cpp)
FIGURES  = $(BUILD)/figures

.PHONY: all demo test test-quick examples run-examples figures bench bench-kdl arm-tools callgrind \
        format check-format clean

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

# the solvers at work: a few examples' reports, and their pictures in build/figures/
demo: $(EXAMPLES)
	@mkdir -p $(FIGURES)
	@for e in 02_ccd_2d_convergence 04_ccd_vs_jacobian_transpose 05_arm_pole_path \
	    06_orientation_interpolation 07_robot_arm_poses; do \
	    echo; echo "== examples/$$e.c"; ./$(BUILD)/examples/$$e 3 -o $(FIGURES) || exit 1; done
	@echo; echo "pictures: $(FIGURES)/*.svg (open them in a web browser)"

examples: $(EXAMPLES)
run-examples: $(EXAMPLES)
	@mkdir -p $(FIGURES)
	@for e in $(EXAMPLES); do echo "== $$e"; ./$$e -o $(FIGURES) || exit 1; done

# regenerates the pictures committed under docs/figures/ (with the examples' short runs, as
# make test runs them, so that make test can compare)
figures: $(EXAMPLES)
	@mkdir -p docs/figures
	@for e in $(EXAMPLES); do \
	    out=$$(./$$e 3 -o docs/figures) || { echo "$$out"; exit 1; }; \
	    echo "$$out" | grep '^picture:' || true; done

$(BUILD)/examples/%: examples/%.c examples/svg.h ik.h
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
