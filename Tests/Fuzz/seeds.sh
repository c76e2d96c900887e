#!/bin/sh
# Prints the read-only seed folders of a fuzz target: its committed corpus, the inputs it once
# failed on, and for the archive targets the conformance vectors (Specs/Examples, valid and
# invalid), copied to .build-fuzz/seeds/examples. Vectors over 32 KiB are left out there: they
# inflate to 64 MiB, and mutants of them would take most of the fuzzing time; the tests replay them.
set -eu
cd "$(dirname "$0")/../.."
target=$1
for folder in "Tests/Fuzz/corpus/$target" "Tests/Fuzz/regressions/$target"; do
    [ -d "$folder" ] && echo "$folder"
done
case $target in
    open|listing|verify)
        examples=.build-fuzz/seeds/examples
        rm -rf "$examples" && mkdir -p "$examples"
        find Specs/Examples/valid Specs/Examples/invalid -name '*.gallery' -size -32k \
            -exec sh -c 'for f; do cp "$f" "$0/$(basename "$(dirname "$f")")-$(basename "$f")"; done' "$examples" {} +
        echo "$examples"
        ;;
esac
