#!/usr/bin/env bash
# Runs every fuzz target for a fixed time from the committed seeds (fuzz/corpus/<target>, read
# only; new finds go to fuzz/target/found-<target>). TAPETE_FUZZ_SECONDS sets the time per target
# (default 30: the CI run; e.g. 3600 for a long run). Needs a nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`); a crash stops the run with libFuzzer's report and a reproducer
# in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${TAPETE_FUZZ_SECONDS:-30}"
for target in notation state_from_json setup actions; do
    found="fuzz/target/found-$target"
    mkdir -p "$found"
    echo "== fuzz $target (${seconds} s)"
    status=0
    cargo +nightly fuzz run -O "$target" "$found" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 >"$found.log" 2>&1 || status=$?
    grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec))' "$found.log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$found.log"
        exit "$status"
    fi
done
