#!/bin/sh
# Minimises a target's corpus (libFuzzer -merge=1) into Tests/Fuzz/corpus/TARGET: the fewest
# inputs that keep all the coverage of the committed corpus and of .build-fuzz/corpus/TARGET,
# leaving out what the conformance vectors and regression inputs (always seeds) already cover.
#   Tests/Fuzz/merge.sh TARGET
set -eu
cd "$(dirname "$0")/../.."
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# AddressSanitizer keeps 256 MB of freed memory by default to catch uses after free; with the
# corpus that came to 510 of the 512 MB every input may use (manifest target, stop 17), so the
# limit measured the sanitizer's bookkeeping, not the reader. 64 MB still spans many inputs.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64}"
target=${1:?usage: Tests/Fuzz/merge.sh TARGET}
binary=${GALLERY_FUZZ_BINARY:-$(Tests/Fuzz/build.sh)}
merged=.build-fuzz/merged/$target
rm -rf "$merged" && mkdir -p "$merged"
# Inputs already in the output folder count as covered: start it with the fixed seeds, remove
# them afterwards, so that only inputs adding coverage beyond them are kept.
fixed=""
for folder in "Tests/Fuzz/regressions/$target" $(case $target in open|listing|verify) echo Specs/Examples/valid Specs/Examples/invalid ;; esac); do
    [ -d "$folder" ] || continue
    for file in "$folder"/*; do
        [ -f "$file" ] || continue
        name=fixed-$(basename "$folder")-$(basename "$file")
        cp "$file" "$merged/$name"
        fixed="$fixed $name"
    done
done
GALLERY_FUZZ_TARGET=$target "$binary" -merge=1 -rss_limit_mb=512 -timeout=5 \
    "$merged" "Tests/Fuzz/corpus/$target" ".build-fuzz/corpus/$target"
for name in $fixed; do rm -f "$merged/$name"; done
rm -rf "Tests/Fuzz/corpus/$target"
mv "$merged" "Tests/Fuzz/corpus/$target"
echo "Tests/Fuzz/corpus/$target: $(ls "Tests/Fuzz/corpus/$target" | wc -l) files, $(cat "Tests/Fuzz/corpus/$target"/* | wc -c) bytes"
