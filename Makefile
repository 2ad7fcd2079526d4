# Thin wrapper around CMake. `make run`: install deps, build, run the default scenario.
# `make test`: install deps, build (normal + ASan/UBSan), run the whole suite with ctest, check the work tree is clean.
DEBS := libsimgrid-dev libcjson-dev pybind11-dev python3-dev python3-simgrid libfast-float-dev zlib1g-dev libbz2-dev libsqlite3-dev libgtest-dev cmake g++ make pkg-config clang-format python3 python3-pandas python3-matplotlib python3-tabulate python3-plotly python3-flask python3-waitress python3-markdown chromium chromium-driver python3-selenium help2man groff-base slurm-wlm munge pajeng
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: deps build build-asan run test test-asan format-check bench bench-campaign clean install fuzz data

deps:
	@missing=""; for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIOSIM_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build build -j $(JOBS)

build-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DIOSIM_WERROR=ON -DIOSIM_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build build-asan -j $(JOBS)

run: build
	./build/iosim

PREFIX ?= /usr/local
install: build  # the iosim command and its files, libiosim (.so, .a), include/iosim, iosim.pc, the CMake package, the Python module (docs/library.md)
	cmake --install build --prefix $(PREFIX)

format-check: deps
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h' '*.cpp' 2>/dev/null || find src policies test -name '*.[ch]' -o -name '*.cpp')

# ... and then checks that the suite left the work tree clean: `git status --porcelain` empty (test/tree_check.sh).
test: format-check build build-asan
	test/tree_check.sh record build/tree-before.txt
	cd build && ctest --output-on-failure -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) -LE slow
	test/tree_check.sh check build/tree-before.txt

# `make bench` is minutes; campaigns at scale (100,000 runs in one database against the fork floor of bare
# `iosim run`, then `iosim report` on it: 75 min on 2 free cores, twice that with the shards) are `make bench-campaign`
# (RUNS=2000 for a quick check; analysis/bench_campaign.py, docs/campaigns.md "Campaigns at scale").
bench: build
	IOSIM_CROSSCHECK_DIR=$${IOSIM_CROSSCHECK_DIR:-../shared/crosscheck/rr9502} analysis/bench_rr9502.py
	IOSIM_CROSSCHECK_DIR=$${IOSIM_CROSSCHECK_DIR:-../shared/crosscheck/rr9502} analysis/bench_flows.py
	IOSIM_DATA_DIR=$${IOSIM_DATA_DIR:-../shared/datasets} analysis/bench_site_year.py --repeat 3
	analysis/bench.sh
	analysis/bench_sweep.sh
	build/iosim_bench_mckp
	build/iosim_bench_storalloc
	analysis/bench_storalloc_sim.sh
	IOSIM_CROSSCHECK_DIR=../shared/crosscheck/rr9502 analysis/bench_bne.sh
	/usr/bin/python3 analysis/bench_lab.py

bench-campaign: build
	nice -n 10 /usr/bin/python3 analysis/bench_campaign.py --runs $${RUNS:-100000} --shards $${SHARDS:-4}

# `make fuzz`: libFuzzer (clang, ASan/UBSan) on every input reader for FUZZ_SECONDS each after replaying the seed
# corpora and the crashers (docs/fuzzing.md); FUZZ_TARGETS picks some (scenario set sample forge workload_json campaign).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_DEBS := clang libclang-rt-14-dev
fuzz: deps
	@missing=""; for p in $(FUZZ_DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DIOSIM_SANITIZE=ON -DIOSIM_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target iosim_fuzz
	cd build-fuzz && ctest --output-on-failure -L fuzz
	test/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# `make data`: the public datasets at their pinned versions into traces/datasets, every SHA-256 checked (traces/README.md;
# the same step as `iosim data fetch`). DATA_MIRROR=DIR|URL copies them from a mirror instead of their upstream
# repositories (e.g. DATA_MIRROR=../shared/datasets); DATA_FLAGS passes more options (--dataset NAME, --force, -o DIR).
DATA_MIRROR ?=
DATA_FLAGS ?=
data:
	python3 traces/datasets.py fetch $(if $(DATA_MIRROR),--mirror $(DATA_MIRROR)) $(DATA_FLAGS)

clean:
	rm -rf build build-asan
