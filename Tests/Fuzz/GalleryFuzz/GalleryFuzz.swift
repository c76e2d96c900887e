import Foundation
import GalleryKit

// libFuzzer targets for GalleryKit's readers (see Tests/Fuzz/README.md).
//
// One executable, five targets, chosen with GALLERY_FUZZ_TARGET=open|listing|verify|manifest|wrapper.
// Built by Tests/Fuzz/build.sh with -sanitize=fuzzer,address and -DFUZZING, `main` hands over to
// libFuzzer's driver; built plainly (as `swift test` does), it replays the files and folders given
// as arguments through the target once each — the test suite uses that to replay the corpus and
// every regression input without instrumentation.

/// What one fuzz target feeds its input to.
enum FuzzTarget: String, CaseIterable {
    /// `BundleReader.open`: container rules for every entry, then the manifest.
    case open
    /// `BundleReader.summary(of:)`: the streaming listing read (falls back to `open`).
    case listing
    /// `BundleVerifier.verify`: every byte of every entry, CRCs, SHA-256, undo revisions.
    case verify
    /// `Manifest.decode` alone.
    case manifest
    /// `WrapperURL.unwrap` on the input read as a URL string.
    case wrapper

    /// The target named by `GALLERY_FUZZ_TARGET`, or `nil` (with a message) if there is none.
    static let selected: FuzzTarget? = {
        let name = ProcessInfo.processInfo.environment["GALLERY_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("gallery-fuzz: set GALLERY_FUZZ_TARGET=\(names)\n".utf8))
            return nil
        }
        return target
    }()

    /// Runs the target on one input. A rejected input is fine; anything else traps, which is what
    /// libFuzzer (and the replaying test) report.
    func run(_ data: Data) {
        do {
            switch self {
            case .open:
                try FuzzingEntryPoints.openDocument(at: ScratchFile.holding(data))
            case .listing:
                try FuzzingEntryPoints.readSummary(of: ScratchFile.holding(data))
            case .verify:
                _ = try BundleVerifier.verify(ScratchFile.holding(data))
            case .manifest:
                if try !FuzzingEntryPoints.decodeManifest(data) {
                    fatalError("manifest: saving the gallery and reading it back changes it")
                }
            case .wrapper:
                guard let url = URL(string: String(decoding: data, as: UTF8.self)) else { return }
                let unwrapped = WrapperURL.unwrap(url)
                if unwrapped != url, !["http", "https"].contains(unwrapped.scheme?.lowercased()) || unwrapped.host == nil {
                    fatalError("wrapper: \(url) unwrapped to \(unwrapped), not an http(s) URL with a host")
                }
            }
        } catch is GalleryError {
            // Rejecting a bad input is the expected outcome; the readers promise only GalleryError.
        } catch {
            fatalError("\(self): threw \(type(of: error)), not GalleryError: \(error)")
        }
    }
}

/// The readers work on files, so each input is written to one per-process file (in /dev/shm,
/// memory-backed, when there is one), removed at exit.
enum ScratchFile {
    static let url: URL = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: folder).appendingPathComponent("gallery-fuzz-\(getpid()).gallery")
        atexit { unlink(ScratchFile.url.path) }
        return url
    }()

    static func holding(_ data: Data) -> URL {
        do {
            try data.write(to: url)
        } catch {
            fatalError("gallery-fuzz: cannot write \(url.path): \(error)")
        }
        return url
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        guard let target = FuzzTarget.selected else { exit(2) }
        target.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    /// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`.
    private typealias FuzzerDriver =
        @convention(c) (
            UnsafeMutablePointer<CInt>,
            UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
            @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
        ) -> CInt
#endif

@main
enum GalleryFuzz {
    static func main() {
        #if FUZZING
            guard FuzzTarget.selected != nil else { exit(2) }
            // SwiftPM renames every executable's entry point and aliases `main` to it, so libFuzzer's
            // own `main` never runs: hand over to its driver instead. build.sh exports the symbol.
            guard let symbol = dlsym(nil, "LLVMFuzzerRunDriver") else {
                FileHandle.standardError.write(Data("gallery-fuzz: LLVMFuzzerRunDriver not found; build with Tests/Fuzz/build.sh\n".utf8))
                exit(2)
            }
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(unsafeBitCast(symbol, to: FuzzerDriver.self)(&argc, &argv, testOneInput))
        #else
            guard let target = FuzzTarget.selected else { exit(2) }
            var count = 0
            for path in CommandLine.arguments.dropFirst() {
                for file in inputs(at: URL(fileURLWithPath: path)) {
                    guard let data = FileManager.default.contents(atPath: file.path) else {
                        FileHandle.standardError.write(Data("gallery-fuzz: cannot read \(file.path)\n".utf8))
                        exit(1)
                    }
                    target.run(data)
                    count += 1
                }
            }
            print("gallery-fuzz: \(target.rawValue): \(count) inputs replayed, no failure")
        #endif
    }

    /// `url` itself, or the regular files directly inside it if it is a folder, sorted.
    static func inputs(at url: URL) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { url.appendingPathComponent($0) }.filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }
}
