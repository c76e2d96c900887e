#!/bin/sh
# Builds the libFuzzer binary and prints its path. Usage: Tests/Fuzz/build.sh
#
# GALLERYKIT_FUZZING=1 makes Package.swift instrument GalleryKit and the fuzz targets
# (-sanitize=fuzzer,address) and nothing else, in the usual build folder: the dependencies the
# plain build compiled are reused. FUZZ_CONFIGURATION=release (default: debug) for long
# campaigns, optimised. The next plain build recompiles GalleryKit.
set -eu
cd "$(dirname "$0")/../.."
configuration=${FUZZ_CONFIGURATION:-debug}
# One Swift build at a time on this machine (2 cores): wait for any other build to finish.
lock=${SWIFT_BUILD_LOCK:-/tmp/swift-build.lock}
GALLERYKIT_FUZZING=1 flock "$lock" swift build -c "$configuration" --product gallery-fuzz >&2
echo "$(GALLERYKIT_FUZZING=1 swift build -c "$configuration" --show-bin-path)/gallery-fuzz"
