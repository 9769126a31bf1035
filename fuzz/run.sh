#!/usr/bin/env bash
# Runs every fuzz target for a fixed time from the committed seeds (fuzz/corpus/<target>, read
# only; new finds go to fuzz/target/found-<target>). TAPETE_FUZZ_SECONDS sets the time per target
# (default 30; CI runs 10; e.g. 3600 for a long run). Needs cargo-fuzz (`cargo install cargo-fuzz`);
# with a nightly toolchain the targets run under AddressSanitizer, on stable without a sanitizer
# (Rust's own checks still catch panics and overflows). A crash stops the run with libFuzzer's
# report and a reproducer in fuzz/artifacts/<target>/. `fuzz/run.sh build` only builds the targets
# (CI builds them while other stages run, and runs them later).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${TAPETE_FUZZ_SECONDS:-30}"
if rustup toolchain list | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    toolchain=(+stable --sanitizer none)
fi
if [ "${1:-}" = build ]; then
    exec cargo "${toolchain[0]}" fuzz build "${toolchain[@]:1}" -O
fi
for target in notation state_from_json setup actions; do
    found="fuzz/target/found-$target"
    mkdir -p "$found"
    echo "== fuzz $target (${seconds} s)"
    status=0
    cargo "${toolchain[0]}" fuzz run "${toolchain[@]:1}" -O "$target" "$found" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 >"$found.log" 2>&1 || status=$?
    grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec))' "$found.log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$found.log"
        exit "$status"
    fi
done
