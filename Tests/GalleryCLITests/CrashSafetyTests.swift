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

    /// Kills `gallery edit` at random moments, 100 times: the document is always the old or the
    /// new version and verifies, and the next save clears whatever temporary file a kill left.
    @Test func killingASaveNeverBreaksTheDocument() throws {
        // Eight 2 MB images, so each save writes 16 MB and takes long enough to be hit.
        let files = try folder.distinctImages(8, padding: 2 << 20, from: Repository.sampleImage(".jpg"))
        let created = try Command.gallery(["create", "Trip.gallery", "--title", "T0", "--cache"] + files.map(\.lastPathComponent), in: folder.url)
        try #require(created.status == 0, "\(created)")

        var current = "T0"
        var killedMidSave = 0
        var completed = 0
        for iteration in 1...100 {
            let next = "T\(iteration)"
            let process = Process()
            process.executableURL = Command.gallery
            process.arguments = ["edit", "Trip.gallery", "title", next]
            process.environment = Command.environment
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...150_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal, !temporaryFiles().isEmpty { killedMidSave += 1 }

            let title = try #require(try title(), "iteration \(iteration): the document does not open")
            #expect(title == current || title == next, "iteration \(iteration): title \(title)")
            if title == next { completed += 1 }
            current = title
            let verified = try Command.gallery(["verify", "Trip.gallery"], in: folder.url)
            #expect(verified.status == 0, "iteration \(iteration): \(verified)")
        }
        // The loop must really have hit saves in progress, and let some finish.
        #expect(killedMidSave >= 5, "only \(killedMidSave) kills landed during a save")
        #expect(completed >= 1)

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
        let urls = (json["images"] as? [[String: Any]] ?? []).compactMap { ($0["url"] as? String).flatMap(URL.init(string:))?.lastPathComponent }
        #expect(Set(urls) == Set(files))
        #expect(urls.count == 20)
    }
}
