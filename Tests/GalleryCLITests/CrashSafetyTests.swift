import Foundation
import GalleryTestSupport
import Testing

/// Saving is atomic and editors do not lose each other's edits, with real processes.
@Suite struct CrashSafetyTests {
    let folder = TemporaryFolder()

    func temporaryFiles() -> [String] {
        folder.listing().filter { $0.hasPrefix(".Trip.gallery.tmp-") }
    }

    func title() throws -> String? {
        let result = try Command.gallery(["open", "Trip.gallery", "--json"], in: folder.url)
        guard result.status == 0 else { return nil }
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return json?["title"] as? String
    }

    /// Stops `gallery edit` at each named moment of its save (GalleryKit's `SavePoint` test
    /// hook: the process signals that it is there and waits) and kills it there. Killed before
    /// the rename, the document is the old version with a temporary file beside it; after, the
    /// new one. It always verifies, and the next save clears what a kill left. No timing: the
    /// kill lands where it is meant to, every time.
    @Test(arguments: ["temporary-created", "temporary-written", "renamed"])
    func killingASaveAtEachPointNeverBreaksTheDocument(point: String) throws {
        let files = try folder.distinctImages(2, from: Repository.sampleImage(".jpg"))
        let created = try Command.gallery(
            ["create", "Trip.gallery", "--title", "T0", "--cache"] + files.map(\.lastPathComponent), in: folder.url)
        try #require(created.status == 0, "\(created)")
        var current = "T0"
        for iteration in 1...3 {
            let next = "T\(iteration)"
            let paused = try Command.killGallery(["edit", "Trip.gallery", "title", next], atSavePoint: point, in: folder.url)
            try #require(paused, "iteration \(iteration): the save never reached \(point)")

            let expected = point == "renamed" ? next : current
            #expect(try title() == expected, "iteration \(iteration)")
            #expect(temporaryFiles().isEmpty == (point == "renamed"), "iteration \(iteration): \(folder.listing())")
            let verified = try Command.gallery(["verify", "Trip.gallery"], in: folder.url)
            #expect(verified.status == 0, "iteration \(iteration): \(verified)")
            current = expected
        }
        let final = try Command.gallery(["edit", "Trip.gallery", "title", "Final"], in: folder.url)
        #expect(final.status == 0, "\(final)")
        #expect(temporaryFiles().isEmpty)
        #expect(try title() == "Final")
    }

    /// Two processes adding images at the same time: every image of both ends up in the document.
    @Test func concurrentEditorsKeepEveryEdit() throws {
        let files = try folder.distinctImages(20, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let created = try Command.gallery(["create", "Trip.gallery"], in: folder.url)
        try #require(created.status == 0, "\(created)")
        let editors = [Array(files[0..<10]), Array(files[10..<20])].map { batch in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let loop = batch.map { "\"$GALLERY\" edit Trip.gallery add \($0) || exit 1" }.joined(separator: "\n")
            process.arguments = ["-c", loop]
            process.environment = Command.environment.merging(["GALLERY": Command.gallery.path]) { $1 }
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for editor in editors { try editor.run() }
        for editor in editors {
            editor.waitUntilExit()
            #expect(editor.terminationStatus == 0)
        }
        let result = try Command.gallery(["open", "Trip.gallery", "--json"], in: folder.url)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let urls = (json["images"] as? [[String: Any]] ?? []).compactMap {
            ($0["url"] as? String).flatMap(URL.init(string:))?.lastPathComponent
        }
        #expect(Set(urls) == Set(files))
        #expect(urls.count == 20)
    }
}
