#!/bin/sh
# Runs one fuzz target with the limits every run uses.
#   Tests/Fuzz/run.sh TARGET [SECONDS | -runs=N] [more libFuzzer flags…]
# TARGET is open, listing, verify, manifest or wrapper; the budget defaults to 60 seconds.
# New inputs go to .build-fuzz/corpus/TARGET (kept between runs; Tests/Fuzz/merge.sh minimises
# them into the committed corpus), findings to .build-fuzz/artifacts/TARGET/.
# Set GALLERY_FUZZ_BINARY to skip the build step.
set -eu
cd "$(dirname "$0")/../.."
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# AddressSanitizer keeps 256 MB of freed memory by default to catch uses after free; with the
# corpus that came to 510 of the 512 MB every input may use (manifest target, stop 17), so the
# limit measured the sanitizer's bookkeeping, not the reader. 64 MB still spans many inputs.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64}"
target=${1:?usage: Tests/Fuzz/run.sh open|listing|verify|manifest|wrapper [SECONDS|-runs=N] [flags…]}
shift
budget=${1:-60}
[ $# -gt 0 ] && shift
case $budget in
    -*) limit=$budget ;;
    *) limit=-max_total_time=$budget ;;
esac
binary=${GALLERY_FUZZ_BINARY:-$(Tests/Fuzz/build.sh)}
work=.build-fuzz/corpus/$target
artifacts=.build-fuzz/artifacts/$target
mkdir -p "$work" "$artifacts"
seeds=$(Tests/Fuzz/seeds.sh "$target")
# shellcheck disable=SC2086
GALLERY_FUZZ_TARGET=$target exec "$binary" "$limit" -rss_limit_mb=512 -timeout=5 \
    -dict=Tests/Fuzz/gallery.dict -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" \
    "$work" $seeds
