#!/bin/sh
# CI smoke run: builds the fuzz binary and runs each target for a few thousand executions
# (FUZZ_SMOKE_RUNS, default 10000) with the usual limits; fails on any crash, leak, hang or
# limit overrun. Writes nothing in the repository but .build-fuzz/.
set -eu
cd "$(dirname "$0")/../.."
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# AddressSanitizer keeps 256 MB of freed memory by default to catch uses after free; with the
# corpus that came to 510 of the 512 MB every input may use (manifest target, stop 17), so the
# limit measured the sanitizer's bookkeeping, not the reader. 64 MB still spans many inputs.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64}"
runs=${FUZZ_SMOKE_RUNS:-10000}
start=$(date +%s)
binary=$(Tests/Fuzz/build.sh)
echo "fuzz smoke: instrumented build took $(($(date +%s) - start)) s (including any wait for the build lock)"
for target in open listing verify manifest wrapper; do
    work=.build-fuzz/smoke/$target
    rm -rf "$work" && mkdir -p "$work"
    log=.build-fuzz/smoke/$target.log
    seeds=$(Tests/Fuzz/seeds.sh "$target")
    # shellcheck disable=SC2086
    if ! GALLERY_FUZZ_TARGET=$target "$binary" -runs="$runs" -rss_limit_mb=512 -timeout=5 \
        -dict=Tests/Fuzz/gallery.dict -artifact_prefix="$work/" -print_final_stats=1 \
        "$work" $seeds >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz smoke: $target FAILED (log: $log, input: $work/)" >&2
        exit 1
    fi
    echo "fuzz smoke: $target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') executions, $(grep -o 'cov: [0-9]*' "$log" | tail -n 1)"
done
echo "fuzz smoke: passed"
