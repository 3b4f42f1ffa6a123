# gpunp: `make demo` and `make test` set everything up from scratch.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BUILD  := build
KLOG   := $(BUILD)/kernel-sources
CLOG   := $(BUILD)/kernel-sources-c
CC     ?= cc
PYTHONS ?= 3.10 3.11 3.12 3.13
PYENV_ROOT ?= $(HOME)/.pyenv

ENGINE_SRC := $(shell find csrc -name '*.c' -not -path 'csrc/tests/*' -not -path 'csrc/fuzz/*')
ENGINE_HDR := $(shell find csrc -name '*.h')
PY_SRC     := $(shell find gpunp -name '*.py')
C_TESTS    := $(patsubst csrc/tests/%.c,$(BUILD)/%,$(wildcard csrc/tests/test_*.c))

.PHONY: all demo test test-c test-py sanitize sanitize-c sanitize-py sanitize-gpu fuzz check-layers check-nvrtc check-hiprtc rocm-runtime wheel test-abi3 test-gpu bench \
        array-api-tests coverage clean

all: $(VENV)/.installed

# The wheel of this tree, built once: the development venv and the abi3
# checks' venvs install the same file.
WHEEL_DIR := $(BUILD)/wheel
# tools/check_wheel.py checks its manylinux tag and its extras (0.2 s of CPU).
$(WHEEL_DIR)/.built: pyproject.toml build_ffi.py hatch_build.py tools/check_wheel.py $(ENGINE_SRC) $(ENGINE_HDR) $(PY_SRC)
	rm -rf $(WHEEL_DIR)
	$(PYTHON) -m pip wheel -q --no-deps -w $(WHEEL_DIR) .
	$(PYTHON) tools/check_wheel.py $(WHEEL_DIR)/gpunp-*.whl
	touch $@

# A virtual environment with that wheel and the test tools. Its engine is
# also copied beside the sources (gpunp/_engine.abi3.so, ignored by git), so
# that Python started in the repository root, where the source tree shadows
# the installed package, imports a working gpunp of the same tree.
$(VENV)/.installed: $(WHEEL_DIR)/.built
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# ml_dtypes: bfloat16 (tests/test_bfloat16.py; gpunp runs without it)
	$(PY) -m pip install -q numpy cffi pytest pytest-xdist hypothesis "scipy<1.18" "ml_dtypes>=0.7"
	# gpunp.dask's tests (tests/test_dask*.py; the GPU machine and the abi3 venvs go without)
	$(PY) -m pip install -q "dask[array]>=2025.1" "distributed>=2025.1" "xarray>=2025.1" "zarr>=3"
	$(PY) -m pip install -q --force-reinstall --no-deps $(WHEEL_DIR)/gpunp-*.whl
	cp "$$(cd / && $(abspath $(PY)) -c 'import gpunp._engine as e; print(e.__file__)')" gpunp/
	touch $@

demo: $(VENV)/.installed
	$(PY) examples/seed.py

# Every check, one stage after another, with a table of where the time went
# at the end (tools/stages.py). The set-up makes the abi3 stages' venvs too,
# beside the development one (pip waits on the network more than on the
# cores); those stages run the first test of each file and every
# ABI3_ONE_IN-th after it, from the kernel cache the Python suite filled, as
# does the sanitize stage's slice of the suite. Every twelfth test still
# reaches each file's code under the oldest and newest Python and NumPy;
# every sixth cost CI 80 s a stage.
ABI3_PYTHONS := 3.10 3.13
ABI3_ONE_IN ?= 12
test:
	@$(PYTHON) tools/stages.py \
	  "set-up=all rocm-runtime $(foreach v,$(ABI3_PYTHONS),$(BUILD)/venv-$(v)/.installed)" \
	  "layers=check-layers" "C tests=test-c" "Python suite=test-py" "sanitize=sanitize" "fuzz=fuzz" \
	  "NVRTC sm_90=check-nvrtc" "hiprtc gfx90a=check-hiprtc-gfx90a" "hiprtc gfx1030=check-hiprtc-gfx1030" \
	  $(foreach v,$(ABI3_PYTHONS),"abi3 Python $(v)=abi3-$(v) ONE_IN=$(ABI3_ONE_IN)")

# No include, and no symbol of the engine's objects, reaches up the layer
# map of docs/architecture.md; gpunp/scipy/ imports gpunp's public API only.
check-layers: $(BUILD)/libengine.a
	$(PYTHON) tools/layers.py --objects $(BUILD)/obj

# C unit tests of the core, linked against the engine's sources; the kernels
# they generate are kept in $(CLOG) (among them the split reductions' stages,
# which the Python suite on the host backend never plans).
$(BUILD)/preludes.c: $(wildcard csrc/prelude/*.h) build_ffi.py
	mkdir -p $(BUILD)
	$(PYTHON) build_ffi.py --preludes $@

# The engine is compiled once, a object per source, into a static library
# that every C test program links (each used to compile all of it again).
C_FLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror=implicit-function-declaration -Wno-unused-parameter \
           -Wno-missing-field-initializers -pthread -Icsrc/include
ENGINE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(ENGINE_SRC)) $(BUILD)/obj/preludes.o
$(BUILD)/obj/%.o: %.c $(ENGINE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(C_FLAGS) -c -o $@ $<
$(BUILD)/obj/preludes.o: $(BUILD)/preludes.c
	$(CC) $(C_FLAGS) -c -o $@ $<
$(BUILD)/libengine.a: $(ENGINE_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/test_%: csrc/tests/test_%.c csrc/tests/*.h $(BUILD)/libengine.a
	$(CC) $(C_FLAGS) -o $@ $< -Wl,--whole-archive $(BUILD)/libengine.a -Wl,--no-whole-archive -lm -ldl

test-c: $(C_TESTS)
	rm -rf $(CLOG)
	@for t in $(C_TESTS); do echo "== $$t"; GPUNP_KERNEL_LOG=$(CURDIR)/$(CLOG) GPUNP_BACKEND=host $$t || exit 1; done

# The Python suite, a pytest-xdist worker per core (on the 2-core CI
# machine with an empty kernel cache, 736 s, about half of it compiling
# kernels); every kernel source it generates is kept in $(KLOG).
test-py: $(VENV)/.installed rocm-runtime
	rm -rf $(KLOG)
	GPUNP_KERNEL_LOG=$(CURDIR)/$(KLOG) $(VENV)/bin/pytest -q -n auto tests

# ---- make sanitize: AddressSanitizer and UndefinedBehaviorSanitizer ------
# The engine, its C tests and the extension built apart (build/sanitize/)
# with both sanitizers; any finding stops the program (UBSan's too, which
# would otherwise only print). The C tests also run LeakSanitizer. Python
# runs a slice of its suite (creation, ufuncs, reductions, indexing,
# sorting, views) on the sanitized extension: Python itself is not built
# with ASan, so its runtime is preloaded and its own leaks are not ours to
# report. The slice reads the kernels the Python suite's stage compiled.
SAN       := $(BUILD)/sanitize
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
# position-independent, so that the extension links the C tests' objects
SAN_CFLAGS := $(C_FLAGS) $(SAN_FLAGS) -fPIC
SAN_OBJ   := $(patsubst %.c,$(SAN)/obj/%.o,$(ENGINE_SRC)) $(SAN)/obj/preludes.o
SAN_TESTS := $(patsubst csrc/tests/%.c,$(SAN)/%,$(wildcard csrc/tests/test_*.c))
SAN_ENV   := GPUNP_BACKEND=host UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_ASAN  := detect_stack_use_after_return=1
SAN_PY    := tests/test_creation.py tests/test_ndarray.py tests/test_reduction_layouts.py \
             tests/test_scans.py tests/property/test_ufuncs.py tests/property/test_reductions.py \
             tests/property/test_indexing.py tests/property/test_sorting.py \
             tests/property/test_stride_tricks.py
SAN_ONE_IN ?= 8

$(SAN)/obj/%.o: %.c $(ENGINE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -c -o $@ $<
$(SAN)/obj/preludes.o: $(BUILD)/preludes.c
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -c -o $@ $<
$(SAN)/libengine.a: $(SAN_OBJ)
	rm -f $@ && ar rcs $@ $^
$(SAN)/test_%: csrc/tests/test_%.c csrc/tests/*.h $(SAN)/libengine.a
	$(CC) $(SAN_CFLAGS) -o $@ $< -Wl,--whole-archive $(SAN)/libengine.a \
	  -Wl,--no-whole-archive -lm -ldl

# The extension, and a copy of the package to import it from.
$(SAN)/site/.built: $(SAN)/libengine.a $(PY_SRC) build_ffi.py $(VENV)/.installed
	rm -rf $(SAN)/site && mkdir -p $(SAN)/site
	cp -r gpunp $(SAN)/site/ && rm -f $(SAN)/site/gpunp/*.so
	GPUNP_CFLAGS="$(SAN_FLAGS)" $(PY) build_ffi.py --out $(SAN)/ext \
	  --engine-lib $(SAN)/libengine.a >/dev/null
	cp $(SAN)/ext/_engine.abi3.so $(SAN)/site/gpunp/
	touch $@

# Everything is built first (make -j builds in parallel), then the C tests
# and the Python slice run one after the other.
sanitize: $(SAN_TESTS) $(SAN)/site/.built $(SAN)/bin/cc
	@$(MAKE) --no-print-directory sanitize-c
	@$(MAKE) --no-print-directory sanitize-py

sanitize-c: $(SAN_TESTS)
	@for t in $(SAN_TESTS); do echo "== $$t"; $(SAN_ENV) ASAN_OPTIONS=$(SAN_ASAN) $$t || exit 1; done

# The engine compiles kernels with `cc` (GPUNP_CC and CC unset), found on
# PATH: there a `cc` that drops ASan's runtime before it runs the real one,
# which with the runtime preloaded took six times as long. Its name and
# version, the kernel cache's key, are the real one's.
$(SAN)/bin/cc:
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s "$$@"\n' "$$(command -v cc)" > $@ && chmod +x $@

sanitize-py: $(SAN)/site/.built $(SAN)/bin/cc
	$(SAN_ENV) ASAN_OPTIONS=$(SAN_ASAN):detect_leaks=0 LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) \
	  PATH=$(abspath $(SAN)/bin):$$PATH PYTHONPATH=$(abspath $(SAN)/site) \
	  $(VENV)/bin/pytest -q -n auto -p no:cacheprovider \
	  --hypothesis-profile=ci --one-in=$(SAN_ONE_IN) $(SAN_PY)

# ---- make fuzz: a libFuzzer harness for the C ABI (csrc/fuzz/) ------------
# The engine built by clang with the fuzzer's coverage and both sanitizers;
# the kernels it compiles get AddressSanitizer too, so a view that reaches
# outside its buffer is caught where a kernel touches it. FUZZ_SECONDS of
# fuzzing from the corpus in the tree (csrc/fuzz/corpus/, which the run
# does not change: what a run finds new goes to build/fuzz/corpus/, emptied
# first), with libFuzzer's final statistics; a crash leaves its input in
# build/fuzz/ (run `build/fuzz/fuzz_abi FILE` with the same variables to
# see it again). The kernels it compiles are cached in
# GPUNP_CACHE_DIR when that is set (CI's), else in build/fuzz/kernel-cache.
FUZZ         := $(BUILD)/fuzz
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ)/obj/%.o,$(ENGINE_SRC)) $(FUZZ)/obj/preludes.o
FUZZ_SECONDS ?= 60

$(FUZZ)/obj/%.o: %.c $(ENGINE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(C_FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(FUZZ)/obj/preludes.o: $(BUILD)/preludes.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(C_FLAGS) $(FUZZ_FLAGS) -c -o $@ $<
$(FUZZ)/fuzz_abi: csrc/fuzz/fuzz_abi.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(C_FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ -lm -ldl

# (libFuzzer's line for each input it keeps is left out of the log.)
fuzz: $(FUZZ)/fuzz_abi
	@rm -rf $(FUZZ)/corpus && mkdir -p $(FUZZ)/corpus $(FUZZ)/kernel-cache
	GPUNP_BACKEND=host GPUNP_CACHE_DIR=$${GPUNP_CACHE_DIR:-$(abspath $(FUZZ))/kernel-cache} \
	  GPUNP_CC="$(FUZZ_CC) -fsanitize=address" \
	  ASAN_OPTIONS=allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  bash -o pipefail -c '$(FUZZ)/fuzz_abi -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ)/ $(FUZZ)/corpus csrc/fuzz/corpus 2>&1 | \
	  grep -Ev "^#[0-9]+[[:space:]]+(NEW|REDUCE) "'

# ---- make sanitize-gpu: compute-sanitizer on a GPU machine ---------------
# memcheck over tests/gpu (bad accesses in every kernel those tests launch,
# but test_device_fault.py's, whose kernel reads an illegal address on
# purpose) and racecheck over the block reductions and scans (shared-memory hazards);
# a finding fails the target. The driver errors the tests provoke on purpose
# (out of memory, a missing symbol, a host pointer's attributes) are not
# reported (--report-api-errors no). tools/device_run.sh's sanitize stage runs the
# same on the lent GPU machine, which has no make or cffi.
SANITIZER ?= compute-sanitizer
sanitize-gpu: $(VENV)/.installed
	GPUNP_BACKEND=cuda $(SANITIZER) --tool memcheck --target-processes all --report-api-errors no \
	  --error-exitcode 3 \
	  $(PY) -m pytest -q -p no:cacheprovider -n 8 tests/gpu --ignore=tests/gpu/test_device_fault.py
	GPUNP_BACKEND=cuda $(SANITIZER) --tool racecheck --target-processes all --report-api-errors no \
	  --error-exitcode 3 \
	  $(PY) -m pytest -q -p no:cacheprovider -n 8 tests/gpu/test_reduction_stages.py tests/test_scans.py

# Every kernel the test runs generated must compile with NVRTC for sm_90,
# and with hiprtc for a CDNA (wavefronts of 64) and an RDNA (32) target.
check-nvrtc: $(VENV)/.installed
	$(PY) tools/check_kernels.py --arch sm_90 $(KLOG) $(CLOG)

check-hiprtc: check-hiprtc-gfx90a check-hiprtc-gfx1030

# The two AMD targets (wavefronts of 64 and of 32) each compile every source
# compiled alone and half of the batched ones, the other half from the other
# (tools/check_kernels.py --part): each alone took 300 s of CI, both 526 s.
HIP_PART_gfx90a := 0/2
HIP_PART_gfx1030 := 1/2
check-hiprtc-%: $(VENV)/.installed rocm-runtime
	$(PY) tools/check_kernels.py --arch $* --part $(or $(HIP_PART_$*),0/1) $(KLOG) $(CLOG)

# ROCm 5.2's HIP runtime and hiprtc, from Debian: enough to compile for AMD
# targets on a machine without an AMD GPU.
ROCM_DEBS := libamdhip64-5 libhiprtc-builtins5 libamd-comgr2 rocm-device-libs
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
rocm-runtime:
	@dpkg -s $(ROCM_DEBS) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(ROCM_DEBS); }

# The wheel for PyPI in dist/: tagged manylinux_X_Y by the build hook
# (X.Y: the newest glibc symbol version the engine uses; docs/install.md),
# then checked by tools/check_wheel.py, which prints auditwheel's report
# and fails unless auditwheel finds the same tag. auditwheel lives in a venv
# of its own, made once. PACK_ARCHS="sm_80 sm_90": the wheel ships a kernel
# pack for those CUDA architectures (tools/kernel_pack.py), compiled from
# this tree's kernels.
PACK_ARCHS ?=
WHEEL_TOOLS := $(BUILD)/wheel-tools
$(WHEEL_TOOLS)/.installed:
	rm -rf $(WHEEL_TOOLS) && $(PYTHON) -m venv $(WHEEL_TOOLS)
	$(WHEEL_TOOLS)/bin/pip install -q auditwheel
	touch $@

wheel: $(WHEEL_TOOLS)/.installed $(if $(PACK_ARCHS),$(VENV)/.installed)
	rm -rf dist $(BUILD)/kernel-pack
	$(if $(PACK_ARCHS),$(PY) tools/kernel_pack.py $(foreach a,$(PACK_ARCHS),--arch $(a)) $(BUILD)/kernel-pack)
	$(if $(PACK_ARCHS),GPUNP_BUILD_PACK=$(BUILD)/kernel-pack) $(PYTHON) -m pip wheel --no-deps -w dist .
	$(PYTHON) tools/check_wheel.py --auditwheel $(WHEEL_TOOLS)/bin/auditwheel dist/gpunp-*.whl

# The abi3 wheel in a fresh venv of each Python (pyenv's), with the newest
# NumPy that pip finds for it and SciPy up to 1.17 (gpunp.scipy follows 1.18
# in part only: docs/differences.md), running the suite (ONE_IN=K: the first
# test of each file and every K-th after it).
test-abi3: $(foreach v,$(PYTHONS),abi3-$(v))
.PRECIOUS: $(BUILD)/venv-%/.installed

abi3-%: $(BUILD)/venv-%/.installed
	$(BUILD)/venv-$*/bin/pytest -q -n auto $(if $(ONE_IN),--one-in=$(ONE_IN)) tests

$(BUILD)/venv-%/.installed: $(WHEEL_DIR)/.built
	@py=$$(ls -d $(PYENV_ROOT)/versions/$*.*/bin/python3 2>/dev/null | sort -V | tail -1); \
	if [ -z "$$py" ] && command -v pyenv >/dev/null; then \
	  pyenv install -s $* && py=$$(ls -d $(PYENV_ROOT)/versions/$*.*/bin/python3 | sort -V | tail -1); fi; \
	test -n "$$py" || { echo "no Python $* in $(PYENV_ROOT)/versions: install it (pyenv install $*)"; exit 1; }; \
	rm -rf $(BUILD)/venv-$* && $$py -m venv $(BUILD)/venv-$* && \
	$(BUILD)/venv-$*/bin/pip install -q numpy cffi pytest pytest-xdist hypothesis "scipy<1.18" "ml_dtypes>=0.7" \
	  $(WHEEL_DIR)/gpunp-*.whl && \
	(cd / && $(abspath $(BUILD))/venv-$*/bin/python -c "import sys, numpy, scipy, gpunp; \
	  print('Python', sys.version.split()[0], 'NumPy', numpy.__version__, 'SciPy', scipy.__version__, \
	        'gpunp from', gpunp.__file__)") && touch $@

# The whole suite on a CUDA GPU (run it where one is present).
test-gpu: $(VENV)/.installed
	GPUNP_BACKEND=cuda $(VENV)/bin/pytest -q tests

# The benchmarks (bench/) with the installed gpunp, results in build/bench/results;
# BENCH=--quick for the reduced sizes. From the repository root, `python -m
# bench` would import the source tree's gpunp, which has no built engine.
bench: $(VENV)/.installed
	mkdir -p $(BUILD)
	cd $(BUILD) && $(CURDIR)/$(PY) -c "import runpy, sys; sys.path.append('$(CURDIR)'); \
	  runpy.run_module('bench', run_name='__main__', alter_sys=True)" $(BENCH)

# The array API standard's test suite (data-apis/array-api-tests) on the host
# backend, from a checkout given as AAT= (with its array-api submodule); not
# part of `make test`: CI has no checkout. Results: docs/array-api.md.
AAT ?= /tmp/aat
AAT_EXAMPLES ?= 10
array-api-tests: $(VENV)/.installed
	@test -d $(AAT)/array_api_tests || { echo "no array-api-tests checkout at AAT=$(AAT)"; exit 1; }
	$(PY) -m pip install -q ndindex pytest-json-report
	cd $(AAT) && ARRAY_API_TESTS_MODULE=gpunp GPUNP_BACKEND=host nice -n 10 $(CURDIR)/$(PY) -m pytest \
	  array_api_tests -q -p no:cacheprovider --max-examples=$(AAT_EXAMPLES) --disable-deadline \
	  -rf $(AAT_ARGS)

# docs/coverage.md from the NumPy and gpunp that are installed
coverage: $(VENV)/.installed
	$(PY) tools/coverage.py

clean:
	rm -rf $(BUILD) dist $(VENV) gpunp/*.so
