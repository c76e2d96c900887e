#!/bin/sh
# Builds the libFuzzer binary (all Swift code instrumented: -sanitize=fuzzer,address) into
# .build-fuzz, never .build, and prints its path. Usage: Tests/Fuzz/build.sh
set -eu
cd "$(dirname "$0")/../.."
# One Swift build at a time on this machine (2 cores): wait for any other build to finish.
lock=${SWIFT_BUILD_LOCK:-/tmp/swift-build.lock}
# The binary's main hands over to libFuzzer's driver (SwiftPM's renamed entry point stands in for
# libFuzzer's own main), looking it up with dlsym: hence the exported symbol.
flock "$lock" swift build -c release --scratch-path .build-fuzz --product gallery-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver >&2
echo "$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/gallery-fuzz"
