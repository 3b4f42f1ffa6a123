# The project's runs on a lent GPU machine (the H200 of docs/performance.md),
# which has no network and no cffi: everything comes in .whl/ (git-ignored
# through .git/info/exclude), prepared here as
#
#   pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --implementation cp --platform manylinux2014_x86_64 -d .whl \
#       cffi pycparser ndindex pytest-json-report pytest-metadata pytest-timeout \
#       dask distributed cloudpickle fsspec partd locket toolz click jinja2 \
#       markupsafe msgpack psutil pyyaml sortedcontainers tblib tornado zict \
#       importlib_metadata zipp packaging lazy_importer \
#       zarr donfig google-crc32c msgspec numcodecs typing_extensions
#   pip download ... --platform manylinux_2_28_x86_64 -d .whl "ml_dtypes>=0.7"
#   # (the GPU machine has its own NumPy: no numpy wheel goes in .whl; its
#   # ml_dtypes, 0.6, is older than gpunp's bfloat16 needs)
#   rm -f .whl/gpunp-*.whl; pip wheel --no-deps -w .whl .; git rev-parse HEAD > .whl/COMMIT
#   # (with a kernel pack for the device: `make wheel PACK_ARCHS=sm_90`, then
#   # dist/gpunp-*.whl into .whl)
#   # optional: .whl/aat, a checkout of data-apis/array-api-tests with its
#   # array-api submodule; .whl/cupycache.*, CuPy's kernel cache saved by
#   # `save`; .whl/kcache/cache.*, a kernel cache saved by `save`
#   # or made here without a GPU from a host run's kernel log (`make test-py`):
#   #   GPUNP_CACHE_DIR=/tmp/kc python tools/check_kernels.py --arch sm_90 \
#   #       --into-cache build/kernel-sources
#   #   tar -C /tmp/kc -cf - . | xz -T0 -6 | split -b 15m - .whl/kcache/cache.
#   # (its entries hold for the NVRTC major.minor that made them: when the
#   # one gpunp finds there differs, /usr/local/cuda's is tried instead)
#
# and run there from the repository root, with .whl carried, as
#
#   STAGES="suite aat bench save" SUITE_S=540 bash tools/device_run.sh
#
# Stages: suite (the whole test suite, 16 workers, Hypothesis profile
# `device`), aat (the array API test suite), bench (python -m bench), first
# (the bench's first-call and import rows alone), profile (NVRTC's phases
# and -X importtime: where the first call's and the import's time go), tune
# (python -m bench.tune $TUNE), pack (how many of tools/kernel_pack.py's
# workload's kernels the wheel's kernel pack serves here), ncu
# (Nsight Compute counters of bench/profile.py's workloads, NCU="a|b" to
# pick them by name prefix), save
# (the kernel cache, compressed, into $OUT: carried back as .whl/kcache, it
# spares the next run most of NVRTC's time, which is most of a cold suite
# run), sanitize (compute-sanitizer's memcheck over tests/gpu and racecheck
# over the reductions and scans: make sanitize-gpu's checks), scatter
# (bench/scatter_check.py: the checked scatter's cost). Each stage stops at its time limit (SIGINT first, so pytest still
# reports); logs, junit XML and the bench's results go to $OUT, packed into
# logs.tar as each stage ends (the machine brings back a few files only).
# SUITE_ARGS and BENCH_ARGS are split at spaces and passed on as they are:
# BENCH_ARGS='--only random(|cumsum' (quotes inside would reach the bench
# as part of the text, and then no workload's name contains it).
set -u
ROOT=$(pwd)
# with the modules' bytecode compiled, as a user's pip install leaves them:
# without it an interpreter that may not write bytecode compiles gpunp's
# sources at every import (77 ms against 11 on the development machine)
python3 -m pip install -q --no-index --no-deps --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site GPUNP_BACKEND=cuda PYTHONUNBUFFERED=1 PYTHONSAFEPATH=1
# a crashed process (a worker, a test's child) leaves its Python stack in its log
export PYTHONFAULTHANDLER=1
echo "commit $(cat .whl/COMMIT)"
export BENCH_COMMIT=$(cat .whl/COMMIT)  # the commit the bench's results record
C=${HOME:-/root}/.cache/gpunp
compiler() { python3 -c "from gpunp import _config; print(_config.config('compiler'))"; }
# only a carried cache is checked: a machine kept warm from an earlier call
# also holds the suite's host-backend entries (made by gcc), which would send
# every later stage to /usr/local/cuda's NVRTC
if ls .whl/kcache/cache.* >/dev/null 2>&1; then
  mkdir -p "$C" && cat .whl/kcache/cache.* | xz -d -T16 | tar -x -C "$C" && echo "restored the kernel cache"
  # a CUDA entry's (a saved cache also holds the host backend's, made by gcc)
  entry=$(find "$C" -path '*/cuda-*' -name '*.gpk' 2>/dev/null | head -1)
  # an entry's identity text starts 32 bytes in, with the compiler's line
  made_by=$(tail -c +33 "$entry" | head -1)
  if [ "$(compiler)" != "$made_by" ] && [ -d /usr/local/cuda/lib64 ]; then
    echo "the cache was made by '$made_by', gpunp found '$(compiler)': trying /usr/local/cuda"
    export GPUNP_CUDA_PATH=/usr/local/cuda
  fi
  echo "cache made by: $made_by; compiler: $(compiler)"
fi
# CuPy's own kernel cache (the bench's comparison compiles its kernels on
# first use, minutes of a fresh machine's time), saved by `save` beside ours
CUPY_CACHE=${CUPY_CACHE_DIR:-${HOME:-/root}/.cupy/kernel_cache}
if ls .whl/cupycache.* >/dev/null 2>&1; then
  mkdir -p "$CUPY_CACHE" && cat .whl/cupycache.* | xz -d -T16 | tar -x -C "$CUPY_CACHE" && \
    echo "restored CuPy's kernel cache"
fi
python3 -c "import sys, gpunp, numpy, hypothesis, scipy; print('gpunp', gpunp.__file__, 'numpy', \
numpy.__version__, 'hypothesis', hypothesis.__version__, 'scipy', scipy.__version__, \
'dont_write_bytecode', sys.flags.dont_write_bytecode)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,memory.used --format=csv,noheader
for s in ${STAGES:-suite}; do
  t0=$(date +%s)
  case $s in
  suite)
    timeout -s INT -k 20 "${SUITE_S:-450}" python3 -m pytest -v --timeout="${TEST_S:-150}" \
      -o timeout_method=thread -n "${NPROC:-16}" -p no:cacheprovider --import-mode=importlib \
      --hypothesis-profile=device --junitxml="$OUT/junit.xml" -rfE --durations=25 \
      ${SUITE_ARGS:-tests} > "$OUT/suite.log" 2>&1
    echo "suite rc=$? $(( $(date +%s) - t0 )) s"
    grep -E "^(FAILED|ERROR)" "$OUT/suite.log" | cut -c1-300 | head -80; tail -3 "$OUT/suite.log" ;;
  aat)
    (cd .whl/aat && ARRAY_API_TESTS_MODULE=gpunp timeout "${AAT_S:-150}" python3 -m pytest \
      array_api_tests -q -n "${NPROC:-16}" -p no:cacheprovider \
      --max-examples="${AAT_EXAMPLES:-100}" --disable-deadline -rf > "$OUT/aat.log" 2>&1)
    echo "aat rc=$? $(( $(date +%s) - t0 )) s"
    grep -E "^FAILED" "$OUT/aat.log" | cut -c1-250 | head -60; tail -2 "$OUT/aat.log" ;;
  bench)
    mkdir -p /tmp/b && (cd /tmp/b && timeout "${BENCH_S:-300}" python3 -c "import runpy, sys; \
sys.path.append('$ROOT'); runpy.run_module('bench', run_name='__main__', alter_sys=True)" \
      --out "$OUT/bench" ${BENCH_ARGS:-} > "$OUT/bench.log" 2>&1)
    echo "bench rc=$? $(( $(date +%s) - t0 )) s"; tail -5 "$OUT/bench.log"
    cat "$OUT/bench/results.md" 2>/dev/null ;;
  tune)
    (cd /tmp && timeout "${TUNE_S:-240}" python3 -c "import runpy, sys; sys.path.append('$ROOT'); \
runpy.run_module('bench.tune', run_name='__main__', alter_sys=True)" ${TUNE:-} > "$OUT/tune.log" 2>&1)
    echo "tune rc=$? $(( $(date +%s) - t0 )) s"; tail -60 "$OUT/tune.log" ;;
  ncu)
    export PATH="$PATH:/usr/local/cuda/bin"
    # one Nsight Compute run per workload of bench/profile.py (gpunp's call,
    # then CuPy's), counters only: time, DRAM and SM throughput per kernel
    i=0
    IFS='|' read -r -a names <<< "${NCU:-cumsum|sum(axis=0)|exp(a)|sort|unique|median|a[a > 0.5]|take|fft complex64|fft2|standard_normal}"
    for n in "${names[@]}"; do
      i=$((i + 1))
      timeout "${NCU_EACH_S:-90}" ncu --clock-control none --profile-from-start off --csv \
        --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
        python3 -c "import runpy, sys; sys.path.append('$ROOT'); runpy.run_module('bench.profile', \
run_name='__main__', alter_sys=True)" "$n" > "$OUT/ncu_$i.csv" 2> "$OUT/ncu_$i.err"
      echo "ncu $n rc=$? $(grep -c '^"' "$OUT/ncu_$i.csv") rows"
    done
    echo "ncu $(( $(date +%s) - t0 )) s" ;;
  first)
    # the bench's first-call and import rows alone, on a machine left idle
    (cd /tmp && python3 -c "import sys; sys.path.append('$ROOT'); from bench import workloads as W; \
print('first call cold/warm/compiler/NVRTC floor ms', W.first_call_ms({})); \
print('import gpunp ms', W.import_ms('gpunp'), 'after numpy', W.import_ms('gpunp', after='numpy'), \
'numpy', W.import_ms('numpy'))" 2>&1 | tail -3) ;;
  pack)
    (cd /tmp && timeout 300 python3 "$ROOT/tools/kernel_pack.py" --coverage 2>&1 | tail -3) ;;
  profile)
    # where a cold first call's and an import's time go on this host: NVRTC's
    # phases (bench/nvrtc_probe.py, the driver's cache off) and -X importtime
    (cd /tmp && CUDA_CACHE_DISABLE=1 timeout 120 python3 -c "import runpy, sys; \
sys.path.append('$ROOT'); runpy.run_module('bench.nvrtc_probe', run_name='__main__', alter_sys=True)" \
      > "$OUT/nvrtc_probe.log" 2>&1; echo "nvrtc_probe rc=$?"; cat "$OUT/nvrtc_probe.log"
     python3 -X importtime -c "import gpunp" 2> "$OUT/importtime.log"
     echo "importtime (us, cumulative): $(grep -E '\| +(numpy|gpunp|site)$' "$OUT/importtime.log" | tr -s ' ' | tr '\n' ';')"
     # the same with the bytecode a user's installation has (the bench's
     # import rows are timed so too): NumPy's here has none and may not
     # write it beside its sources, so it goes under a prefix, written by a
     # first import with PYTHONDONTWRITEBYTECODE (set on that machine) unset
     export PYTHONPYCACHEPREFIX=/tmp/pyc
     env -u PYTHONDONTWRITEBYTECODE python3 -c "import gpunp"
     echo "bytecode files under the prefix: $(find /tmp/pyc -name '*.pyc' | wc -l)"
     python3 -X importtime -c "import gpunp" 2> "$OUT/importtime_bytecode.log"
     echo "with bytecode, importtime (us, cumulative): $(grep -E '\| +(numpy|gpunp|site)$' "$OUT/importtime_bytecode.log" | tr -s ' ' | tr '\n' ';')") ;;
  sanitize)
    # make sanitize-gpu's checks (compute-sanitizer memcheck over tests/gpu,
    # racecheck over the block reductions and scans), with this machine's
    # python; SANITIZE_TOOLS picks the tools, SANITIZE_TESTS narrows memcheck's run (test_device_fault.py's
    # kernel reads an illegal address on purpose: memcheck leaves it out; the
    # driver errors the tests provoke on purpose, out of memory, a missing
    # symbol, a host pointer's attributes, are not reported: the tools look
    # for bad accesses and hazards). SANITIZE_S is each tool's limit: memcheck
    # over tests/gpu was 87% done at 340 s on the H100 (run it alone:
    # SANITIZE_TOOLS=memcheck). -v names each test as it ends, so a run
    # stopped by its limit still says which passed and which failed
    export PATH="$PATH:/usr/local/cuda/bin"
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
      tests=${SANITIZE_TESTS:-tests/gpu}
      [ $tool = racecheck ] && tests="tests/gpu/test_reduction_stages.py tests/test_scans.py"
      timeout -s INT -k 20 "${SANITIZE_S:-540}" compute-sanitizer --tool $tool \
        --target-processes all --report-api-errors no --error-exitcode 3 --print-limit 20 \
        python3 -m pytest -v -rfE -p no:cacheprovider --import-mode=importlib -n "${SANITIZE_NPROC:-8}" \
        $tests --ignore=tests/gpu/test_device_fault.py > "$OUT/sanitize_$tool.log" 2>&1
      echo "$tool rc=$? $(( $(date +%s) - t0 )) s"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|passed|failed" "$OUT/sanitize_$tool.log" | \
        grep -vE " (PASSED|SKIPPED) " | sort | uniq -c | head -20
      echo "$(grep -c " PASSED " "$OUT/sanitize_$tool.log") passed; failed:"
      grep -E " (FAILED|ERROR) " "$OUT/sanitize_$tool.log" | cut -c1-200 | head -20
    done ;;
  scatter)
    (cd /tmp && timeout 120 python3 "$ROOT/bench/scatter_check.py" 2>&1 | tail -6) ;;
  save)
    tar -C "$C" -cf - . | xz -T16 -6 | split -b 15m - "$OUT/cache."
    echo "saved $(du -sh "$C" | cut -f1) of kernels as $(cat "$OUT"/cache.* | wc -c) bytes"
    if [ -d "$CUPY_CACHE" ]; then
      tar -C "$CUPY_CACHE" -cf - . | xz -T16 -6 | split -b 15m - "$OUT/cupycache."
      echo "saved $(du -sh "$CUPY_CACHE" | cut -f1) of CuPy's kernels as $(cat "$OUT"/cupycache.* | wc -c) bytes"
    fi ;;
  esac
  # the lent machine brings back a few files only: each stage's go into one
  # archive as the stage ends, so a run cut short still brings them back
  (cd "$OUT" && files=$(ls | grep -v -e '^cache\.' -e '^cupycache\.' -e '^logs\.tar$') && [ -n "$files" ] && \
    tar -rf logs.tar $files && rm -rf $files)
done
