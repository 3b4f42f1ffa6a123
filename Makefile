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

ENGINE_SRC := $(shell find csrc -name '*.c' -not -path 'csrc/tests/*')
ENGINE_HDR := $(shell find csrc -name '*.h')
PY_SRC     := $(shell find gpunp -name '*.py')
C_TESTS    := $(patsubst csrc/tests/%.c,$(BUILD)/%,$(wildcard csrc/tests/test_*.c))

.PHONY: all demo test test-c test-py check-nvrtc check-hiprtc rocm-runtime wheel test-abi3 test-gpu bench \
        array-api-tests coverage clean

all: $(VENV)/.installed

# A virtual environment with gpunp built from this tree and its test tools.
$(VENV)/.installed: pyproject.toml build_ffi.py hatch_build.py $(ENGINE_SRC) $(ENGINE_HDR) $(PY_SRC)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q numpy cffi pytest pytest-xdist hypothesis scipy
	$(PY) -m pip install -q --force-reinstall --no-deps .
	touch $@

demo: $(VENV)/.installed
	$(PY) examples/seed.py

test: test-c test-py check-nvrtc check-hiprtc

# C unit tests of the core, linked against the engine's sources; the kernels
# they generate are kept in $(CLOG) (among them the split reductions' stages,
# which the Python suite on the host backend never plans).
$(BUILD)/preludes.c: $(wildcard csrc/kernels/prelude/*.h) build_ffi.py
	mkdir -p $(BUILD)
	$(PYTHON) build_ffi.py --preludes $@

$(BUILD)/test_%: csrc/tests/test_%.c $(ENGINE_SRC) $(ENGINE_HDR) $(BUILD)/preludes.c
	$(CC) -std=c11 -g -O1 -Wall -Wextra -Werror=implicit-function-declaration -Wno-unused-parameter -Wno-missing-field-initializers \
	  -pthread -Icsrc/include -o $@ $< $(ENGINE_SRC) $(BUILD)/preludes.c -lm -ldl

test-c: $(C_TESTS)
	rm -rf $(CLOG)
	@for t in $(C_TESTS); do echo "== $$t"; GPUNP_KERNEL_LOG=$(CURDIR)/$(CLOG) GPUNP_BACKEND=host $$t || exit 1; done

# The Python suite, a pytest-xdist worker per core (on a 2-core machine
# 1055 s, against 1691 s in one process); every kernel source it generates
# is kept in $(KLOG).
test-py: $(VENV)/.installed rocm-runtime
	rm -rf $(KLOG)
	GPUNP_KERNEL_LOG=$(CURDIR)/$(KLOG) $(VENV)/bin/pytest -q -n auto tests

# Every kernel the test runs generated must compile with NVRTC for sm_90,
# and with hiprtc for a CDNA (wavefronts of 64) and an RDNA (32) target.
check-nvrtc: $(VENV)/.installed
	$(PY) tools/check_kernels.py --arch sm_90 $(KLOG) $(CLOG)

check-hiprtc: $(VENV)/.installed rocm-runtime
	$(PY) tools/check_kernels.py --arch gfx90a $(KLOG) $(CLOG)
	$(PY) tools/check_kernels.py --arch gfx1030 $(KLOG) $(CLOG)

# ROCm 5.2's HIP runtime and hiprtc, from Debian: enough to compile for AMD
# targets on a machine without an AMD GPU.
ROCM_DEBS := libamdhip64-5 libhiprtc-builtins5 libamd-comgr2 rocm-device-libs
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
rocm-runtime:
	@dpkg -s $(ROCM_DEBS) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(ROCM_DEBS); }

# PACK_ARCHS="sm_80 sm_90": the wheel ships a kernel pack for those CUDA
# architectures (tools/kernel_pack.py), compiled from this tree's kernels
PACK_ARCHS ?=
wheel: $(if $(PACK_ARCHS),$(VENV)/.installed)
	rm -rf dist $(BUILD)/kernel-pack
	$(if $(PACK_ARCHS),$(PY) tools/kernel_pack.py $(foreach a,$(PACK_ARCHS),--arch $(a)) $(BUILD)/kernel-pack)
	$(if $(PACK_ARCHS),GPUNP_BUILD_PACK=$(BUILD)/kernel-pack) $(PYTHON) -m pip wheel --no-deps -w dist .

# The one abi3 wheel, installed into a fresh venv of each Python and tested.
test-abi3: wheel
	@for v in $(PYTHONS); do \
	  py=$$(ls -d $(PYENV_ROOT)/versions/$$v.*/bin/python3 | tail -1); \
	  echo "== Python $$v ($$py)"; \
	  rm -rf $(BUILD)/venv-$$v && $$py -m venv $(BUILD)/venv-$$v && \
	  $(BUILD)/venv-$$v/bin/pip install -q numpy cffi pytest hypothesis scipy dist/*.whl && \
	  $(BUILD)/venv-$$v/bin/pytest -q tests || exit 1; \
	done

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
