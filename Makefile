# ik.h: make demo | make test | make examples | make figures | make bench | make format
#       make fuzz [FUZZ_SECONDS=600] | make fuzz-replay | make coverage | make valgrind | make stability
#       make web | make test-web | make serve-web
CC      ?= cc
CFLAGS  ?= -O2
WARN     = -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -Wshadow
BUILD    = build
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
FORMAT_FILES = ik.h $(wildcard tests/*.c tests/*.h tests/fuzz/*.c tests/fuzz/*.h examples/*.c \
                 examples/*.h bench/*.c bench/*.h bench/*.cpp web/*.c)
FIGURES  = $(BUILD)/figures
TEST_SRCS = tests/test_main.c tests/test_math.c tests/test_limits.c tests/test_skeleton.c tests/test_chain.c tests/test_svd.c \
            tests/test_limb.c tests/test_ccd.c tests/test_jacobian.c tests/test_arm.c \
            tests/test_robust.c tests/test_fabrik.c tests/test_closed.c tests/test_srs.c
FUZZ_TARGETS = chain rotation svd limb ccd jacobian arm skeleton closed
FUZZ_SECONDS ?= 600

.PHONY: all demo test test-quick examples run-examples figures bench bench-instructions bench-kdl bench-kdl-tree bench-kdl-closed bench-three-ik arm-tools callgrind \
        format check-format clean fuzz fuzz-replay coverage valgrind stability web test-web serve-web

all: $(BUILD)/test/ik_test $(EXAMPLES) $(BUILD)/bench/bench $(ARM_TOOLS)

# every compiler x language x precision, sanitizers, IK_STATIC copies, examples
test:
	@sh tests/matrix.sh

# one variant (gcc, C99, double) for a fast edit-test loop
test-quick:
	@sh tests/matrix.sh quick

$(BUILD)/test/ik_test: ik.h tests/*.c tests/*.h bench/arms.h bench/industrial.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -o $@ $(TEST_SRCS) -lm

# the solvers at work: a few examples' reports, and their pictures in build/figures/
demo: $(EXAMPLES)
	@mkdir -p $(FIGURES)
	@for e in 02_ccd_2d_convergence 04_ccd_vs_jacobian_transpose 05_arm_pole_path \
	    06_orientation_interpolation 07_robot_arm_poses 09_humanoid 10_fabrik; do \
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
$(BUILD)/examples/09_humanoid: bench/humanoid.h
$(BUILD)/examples/12_iiwa_swivel: bench/arms.h

$(BUILD)/bench/bench: bench/bench.c ik.h bench/arms.h bench/industrial.h bench/humanoid.h bench/skeleton_cases.h
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) -O2 -o $@ bench/bench.c -lm

# BENCH_ARGS: e.g. --runs=1 (make test's short run) or --limits
bench: $(BUILD)/bench/bench
	./$(BUILD)/bench/bench $(BENCH_ARGS)

# every make bench figure as instructions, 0.9.0's ik.h against this one (needs valgrind; a
# minute; BENCH_ARGS as for bench, BASE=rev for another ik.h to compare with)
bench-instructions:
	sh bench/instructions.sh $(if $(BASE),--base $(BASE)) $(BENCH_ARGS)

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

# ik.h's skeleton solve against KDL's tree solver on bench/humanoid.h (installs liborocos-kdl-dev
# if missing; not part of make test). PROBLEMS=10000 for the record.
bench-kdl-tree:
	sh bench/kdl_tree.sh --problems $(PROBLEMS)

# every solution in closed form (and ik_arm_solve) against KDL's NR_JL and LMA on the arms of
# bench/industrial.h, one run, with callgrind's instructions of ik.h's side where valgrind is
# installed (installs liborocos-kdl-dev if missing; not part of make test)
bench-kdl-closed:
	sh bench/kdl_closed.sh --problems $(PROBLEMS)

# ik.h's FABRIK against THREE.IK (npm three-ik, headless in Node; bench/three-ik/package-lock.json
# pins it) on the same chains and targets in one run; not part of make test
bench-three-ik:
	sh bench/three_ik.sh $(PROBLEMS)

# instruction counts, repeatable on a noisy machine (needs valgrind); fails if the bench does
CALLGRIND_ARGS ?= --runs=3
callgrind: $(BUILD)/bench/bench
	@valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/callgrind.out \
	    ./$(BUILD)/bench/bench $(CALLGRIND_ARGS) >$(BUILD)/callgrind.log 2>&1; rc=$$?; \
	    grep -E 'refs|Collected' $(BUILD)/callgrind.log; exit $$rc

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

# the page in the browser (docs/web.md): ik.h compiled to WebAssembly by Debian's Emscripten
# (its node needs Debian's acorn: NODE_PATH), three.js from web/node_modules (npm ci, pinned by
# web/package-lock.json); $(BUILD)/web is the whole site, for any static host
EMCC ?= emcc
WEB   = $(BUILD)/web
NPM_STAMP = web/node_modules/.package-lock.json
WEB_FILES = $(WEB)/ik_web.wasm $(WEB)/index.html $(WEB)/main.js $(WEB)/three.module.js \
            $(WEB)/three.core.js $(WEB)/addons/controls/OrbitControls.js
web: $(WEB_FILES)

$(WEB)/ik_web.wasm: web/ik_web.c ik.h bench/arms.h bench/humanoid.h bench/industrial.h
	@mkdir -p $(dir $@)
	NODE_PATH=/usr/share/nodejs $(EMCC) -std=c99 $(WARN) -O2 --no-entry -o $@ web/ik_web.c
$(WEB)/index.html $(WEB)/main.js: $(WEB)/%: web/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB)/three.%.js: $(NPM_STAMP)
	@mkdir -p $(dir $@)
	cp web/node_modules/three/build/three.$*.js $@
$(WEB)/addons/%.js: $(NPM_STAMP)
	@mkdir -p $(dir $@)
	cp web/node_modules/three/examples/jsm/$*.js $@
$(NPM_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund

# builds the page, serves it on 127.0.0.1 and drives Debian's chromium headless through it
# (web/test.mjs): drags, convergence, pixels, load and solve times; screenshots in
# $(BUILD)/web-shots/
test-web: web $(NPM_STAMP)
	node web/test.mjs --dir $(WEB) --shots $(BUILD)/web-shots

# serves the page at http://127.0.0.1:8000/ until interrupted
serve-web: web
	node web/serve.mjs --dir $(WEB) --port 8000

format:
	clang-format -i $(FORMAT_FILES)

check-format:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
