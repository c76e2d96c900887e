import Foundation
import GalleryTestSupport
import Testing

/// Every command's errors about a document name it: a sweep over the commands that take a
/// document, each given a missing document, a file that is not a gallery, and (where it takes
/// images) an index past the end, checks that stderr is one line `gallery: error: PATH: …`
/// naming the document the error is about, with a failing status and nothing changed on disk.
@Suite struct ErrorSweepTests {
    let folder = TemporaryFolder()

    /// A command that fails, and the document its error must name.
    struct Failing: Sendable, CustomStringConvertible {
        var arguments: [String]
        var names: String
        var description: String {
            arguments.map { $0.count > 40 ? "\($0.prefix(8))… (\($0.count) characters)" : $0 }.joined(separator: " ")
        }
    }

    /// Commands with `DOC` where the document goes; each takes it as given.
    static let commandsOnADocument: [[String]] = [
        ["open", "DOC"], ["open", "DOC", "--json"], ["verify", "DOC"],
        ["edit", "DOC", "remove", "1"], ["edit", "DOC", "move", "1", "--to", "2"], ["edit", "DOC", "swap", "1", "2"],
        ["edit", "DOC", "caption", "1", "x"], ["edit", "DOC", "title", "x"], ["edit", "DOC", "columns", "2"],
        ["edit", "DOC", "cache"], ["edit", "DOC", "uncache"], ["edit", "DOC", "retry"], ["edit", "DOC", "undo"],
        ["edit", "DOC", "redo"], ["edit", "DOC", "add", "a.jpg"],
        ["copy", "DOC", "1", "Two.gallery"], ["copy", "Four.gallery", "1", "DOC"], ["copy", "DOC", "1", "DOC", "--move"],
        ["export", "DOC", "--format", "folder", "--output", "Out"], ["export", "DOC", "--format", "bundle", "--output", "Out.gallery"],
        ["duplicate", "DOC"],
    ]

    /// Commands on the 4-image `Four.gallery` with an index past its end, and the document the
    /// bad index is about.
    static let badIndices: [Failing] = [
        Failing(arguments: ["edit", "Four.gallery", "remove", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "move", "9", "--to", "1"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "move", "1", "--to", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "swap", "1", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "caption", "9", "x"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "cache", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "uncache", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "retry", "9"], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "add", "a.jpg", "--at", "9"], names: "Four.gallery"),
        Failing(arguments: ["copy", "Four.gallery", "5", "Two.gallery"], names: "Four.gallery"),
        Failing(arguments: ["copy", "Four.gallery", "1", "9", "Two.gallery", "--move"], names: "Four.gallery"),
        Failing(arguments: ["copy", "Four.gallery", "1", "Two.gallery", "--at", "9"], names: "Two.gallery"),
        Failing(arguments: ["copy", "Four.gallery", "1", "Four.gallery", "--at", "9"], names: "Four.gallery"),
        Failing(arguments: ["copy", "Four.gallery", "7", "Four.gallery", "--move"], names: "Four.gallery"),
        // A title or caption over GalleryKit's limit, as the server refuses it too.
        Failing(arguments: ["edit", "Four.gallery", "title", String(repeating: "t", count: 10_001)], names: "Four.gallery"),
        Failing(arguments: ["edit", "Four.gallery", "caption", "1", String(repeating: "c", count: 10_001)], names: "Four.gallery"),
        // An image whose URL no fetcher takes (a manifest may hold any scheme), named.
        Failing(arguments: ["edit", "Ftp.gallery", "cache", "1"], names: "Ftp.gallery"),
        Failing(arguments: ["edit", "Ftp.gallery", "retry", "2"], names: "Ftp.gallery"),
    ]

    static var cases: [Failing] {
        let onDocuments = commandsOnADocument.flatMap { command in
            ["Missing.gallery", "Junk.gallery"].map { document in
                Failing(arguments: command.map { $0 == "DOC" ? document : $0 }, names: document)
            }
        }
        let fileOperations = [["rename", "Missing.gallery", "New"], ["trash", "Missing.gallery"]]
            .map { Failing(arguments: $0, names: "Missing.gallery") }
        return onDocuments + fileOperations + badIndices
    }

    @Test(arguments: cases)
    func theErrorIsOneLineNamingTheDocument(_ failing: Failing) throws {
        try makeDocuments()
        let before = try snapshot()
        let result = try Command.gallery(failing.arguments, in: folder.url)
        #expect(result.status != 0 && result.status != 2, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.errorOutput.hasSuffix("\n") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: \(folder.path(failing.names).path): "), "names \(failing.names): \(result)")
        #expect(try snapshot() == before, "nothing changed on disk")
    }

    /// A write that fails part way (here the file-size limit, as a full disk would) names the
    /// file being written: an export's output (not its hidden staging folder), a copy's
    /// destination and a duplicate's new file (not the document they read from).
    @Test(arguments: [
        (["export", "Four.gallery", "--format", "folder", "--output", "Out"], "Out"),
        (["export", "Four.gallery", "--format", "bundle", "--output", "Out.gallery"], "Out.gallery"),
        (["copy", "Four.gallery", "1", "2", "Two.gallery"], "Two.gallery"),
        (["duplicate", "Four.gallery"], "Four copy.gallery"),
    ])
    func aFailedWriteNamesTheFileWritten(arguments: [String], names: String) throws {
        try makeDocuments()
        let before = try snapshot()
        // 16 blocks of 512 bytes: less than one sample image. SIGXFSZ ignored, so write fails (EFBIG).
        let script = #"trap '' XFSZ; ulimit -f 16; exec "$@""#
        let result = try Command.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", Command.gallery.path] + arguments, in: folder.url)
        #expect(result.status == 74 || result.status == 73, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: \(folder.path(names).path): "), "names \(names): \(result)")
        #expect(result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(try snapshot() == before, "nothing changed on disk")
    }

    /// `Four.gallery` (four cached images), `Two.gallery` (two), `Junk.gallery` (text) and `a.jpg`.
    func makeDocuments() throws {
        let image = folder.path("a.jpg")
        try FileManager.default.copyItem(at: Repository.sampleImage("01-dawn"), to: image)
        for (name, count) in [("Four.gallery", 4), ("Two.gallery", 2)] {
            let made = try Command.gallery(["create", name, "--cache"] + Array(repeating: "a.jpg", count: count), in: folder.url)
            try #require(made.status == 0, "\(made)")
        }
        try Data("not a gallery\n".utf8).write(to: folder.path("Junk.gallery"))
        var ftp = TestManifest.image(index: 0)
        ftp["url"] = "ftp://example.org/a.jpg"
        var failed = TestManifest.image(index: 1)
        failed["url"] = "ftp://example.org/b.jpg"
        failed["status"] = "failed"
        failed["error"] = "not fetched"
        try RawZip.write(TestManifest.entries(TestManifest.object(images: [ftp, failed])), to: folder.path("Ftp.gallery"))
    }

    /// Among "all", an image no fetcher takes is passed over instead of failing the others.
    @Test func cachingAllPassesOverAnImageThatCannotBeFetched() throws {
        try makeDocuments()
        for action in ["cache", "retry"] {
            let result = try Command.gallery(["edit", "Ftp.gallery", action], in: folder.url)
            #expect(result.status == 0, "\(action): \(result)")
        }
    }

    /// Every file in the folder with its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in folder.listing() {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.path(name).path, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: folder.path(name))
        }
        return files
    }
}
