import Foundation
import GalleryTestSupport
import Testing

/// The fuzz targets (Tests/Fuzz) replayed without instrumentation over their committed corpus,
/// every input a fuzzer once failed on, and the conformance vectors: an input that crashed a
/// reader once fails the normal test suite if it ever crashes it again.
@Suite struct FuzzCorpusTests {
    static let targets = ["open", "listing", "verify", "manifest", "wrapper"]

    /// The plain `gallery-fuzz` replayer, built beside `gallery`.
    static var replayer: URL {
        Command.gallery.deletingLastPathComponent().appendingPathComponent("gallery-fuzz")
    }

    static func folders(for target: String) -> [URL] {
        ["Tests/Fuzz/corpus/\(target)", "Tests/Fuzz/regressions/\(target)", "Specs/Examples/valid", "Specs/Examples/invalid"]
            .map { Repository.root.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    @Test(arguments: targets) func replaysEveryInputWithoutFailure(target: String) throws {
        let folders = Self.folders(for: target)
        let count = folders.reduce(0) { sum, folder in
            sum + ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).count
        }
        let result = try Command.run(Self.replayer, folders.map(\.path), in: Repository.root, environment: ["GALLERY_FUZZ_TARGET": target])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("\(target): \(count) inputs replayed"), "\(result)")
    }

    @Test func refusesAnUnknownTarget() throws {
        let result = try Command.run(Self.replayer, [], in: Repository.root, environment: ["GALLERY_FUZZ_TARGET": "nothing"])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("GALLERY_FUZZ_TARGET=open|listing|verify|manifest|wrapper"))
    }
}
