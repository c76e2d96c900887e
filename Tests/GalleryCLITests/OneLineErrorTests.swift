import Foundation
import GalleryTestSupport
import Testing

/// Every error is one line on stderr, `gallery: error: …`, naming the document when there is one —
/// argument errors inside `gallery edit` actions and top-level parse errors included — while
/// `--help` and `--version` still print in full.
@Suite struct OneLineErrorTests {
    let folder = TemporaryFolder()

    /// A bad invocation and what its one line must mention besides the prefix.
    struct BadInvocation: Sendable, CustomStringConvertible {
        var arguments: [String]
        /// The document the line must name, if the invocation gives one the parser got to.
        var document: String?
        /// Other words the line must contain: the action, the culprit, the help hint.
        var mentions: [String]

        init(_ arguments: String..., document: String? = nil, mentions: [String] = []) {
            self.arguments = arguments
            self.document = document
            self.mentions = mentions
        }

        var description: String { arguments.joined(separator: " ") }
    }

    static let badInvocations: [BadInvocation] = [
        // Inside `edit`: the document and the action are named, and the action's own help.
        BadInvocation(
            "edit", "Trip.gallery", "remove", "0", document: "Trip.gallery",
            mentions: ["remove: ", "'0'", "'gallery edit <document> remove --help'"]),
        BadInvocation("edit", "Trip.gallery", "move", document: "Trip.gallery", mentions: ["move: ", "missing"]),
        BadInvocation("edit", "Trip.gallery", "move", "1", document: "Trip.gallery", mentions: ["move: ", "--to"]),
        BadInvocation("edit", "Trip.gallery", "move", "1", "--to", document: "Trip.gallery", mentions: ["move: ", "--to"]),
        BadInvocation("edit", "Trip.gallery", "swap", "1", document: "Trip.gallery", mentions: ["swap: "]),
        BadInvocation("edit", "Trip.gallery", "title", document: "Trip.gallery", mentions: ["title: ", "<text>"]),
        BadInvocation("edit", "Trip.gallery", "columns", "many", document: "Trip.gallery", mentions: ["columns: ", "'many'"]),
        BadInvocation("edit", "Trip.gallery", "caption", "1", "x", "--bold", document: "Trip.gallery", mentions: ["caption: ", "--bold"]),
        BadInvocation("edit", "Trip.gallery", "add", "a.jpg", "--jobs", "0", document: "Trip.gallery", mentions: ["add: ", "--jobs"]),
        BadInvocation(
            "edit", "Trip.gallery", "add", "ftp://example.org/a.jpg", document: "Trip.gallery",
            mentions: ["add: ", "ftp://example.org/a.jpg"]),
        BadInvocation(
            "edit", "Trip.gallery", "frobnicate", document: "Trip.gallery",
            mentions: ["unknown action 'frobnicate'", "expected one of: add,"]),
        BadInvocation("edit", "Trip.gallery", document: "Trip.gallery", mentions: ["no action given", "expected one of: add,"]),
        // Top level: ArgumentParser's message and a hint naming the subcommand's help.
        BadInvocation("create", mentions: ["missing expected argument '<document>'", "(see 'gallery create --help')"]),
        BadInvocation("create", "New.gallery", "--bogus", mentions: ["unknown option '--bogus'", "(see 'gallery create --help')"]),
        BadInvocation("create", "New.gallery", "--columns", "40", mentions: ["--columns", "(see 'gallery create --help')"]),
        BadInvocation("open", mentions: ["<document>", "(see 'gallery open --help')"]),
        BadInvocation("verify", "Trip.gallery", "--bogus", mentions: ["'--bogus'", "(see 'gallery verify --help')"]),
        BadInvocation("edit", mentions: ["<document>", "(see 'gallery edit --help')"]),
        BadInvocation("frobnicate", mentions: ["'frobnicate'", "(see 'gallery --help')"]),
        BadInvocation("--bogus", mentions: ["'--bogus'"]),
    ]

    @Test(arguments: badInvocations)
    func badArgumentsAreOneLineWithStatus64(_ invocation: BadInvocation) throws {
        let document = try makeDocument()
        let before = try Data(contentsOf: document)
        let listing = folder.listing()
        let result = try Command.gallery(invocation.arguments, in: folder.url)
        #expect(result.status == 64, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.errorOutput.hasSuffix("\n") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: "), "\(result)")
        if let name = invocation.document { #expect(result.errorOutput.contains("\(name): "), "\(result)") }
        for word in invocation.mentions { #expect(result.errorOutput.contains(word), "\(word) in \(result)") }
        #expect(try Data(contentsOf: document) == before)
        #expect(folder.listing() == listing)
    }

    @Test(arguments: [
        ["--help"], ["edit", "--help"], ["edit", "Trip.gallery", "--help"], ["edit", "Trip.gallery", "move", "--help"],
        ["create", "--help"], ["help", "edit"],
    ])
    func helpIsStillFullOnStdout(_ arguments: [String]) throws {
        let document = try makeDocument()
        let before = try Data(contentsOf: document)
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
        #expect(result.output.split(separator: "\n").count > 5, "\(result)")
        #expect(result.output.contains("USAGE:"), "\(result)")
        #expect(try Data(contentsOf: document) == before)
    }

    @Test func versionStillPrints() throws {
        let result = try Command.gallery(["--version"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.errorOutput.isEmpty && result.output.contains("."), "\(result)")
    }

    /// `verify` reports what only a writer rule breaks — with 65 and the rule's spec section —
    /// where `open` accepts the document.
    @Test(arguments: [
        ("mimetype-deflated", "mimetype is deflated; spec §3.2 requires it stored (uncompressed)"),
        (
            "manifest-not-second",
            "manifest.json is regular entry 4 of 4; spec §3.3 requires it to be the second entry, right after mimetype"
        ),
    ])
    func verifyReportsABrokenWriterRule(vector: String, message: String) throws {
        let name = "\(vector).gallery"
        try FileManager.default.copyItem(at: Repository.examples.appendingPathComponent("valid/\(name)"), to: folder.path(name))
        let before = try Data(contentsOf: folder.path(name))
        let opened = try Command.gallery(["open", name], in: folder.url)
        #expect(opened.status == 0 && opened.errorOutput.isEmpty, "\(opened)")
        let result = try Command.gallery(["verify", name], in: folder.url)
        #expect(result.status == 65, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: "), "\(result)")
        #expect(result.errorOutput.hasSuffix("\(name): \(message)\n") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(try Data(contentsOf: folder.path(name)) == before)
    }

    /// What only verification finds is one line naming the document too (a damaged revision's
    /// message once left the document out).
    @Test(arguments: ["image-crc-mismatch", "image-sha256-mismatch", "revision-missing-image", "zip-bomb"])
    func verifyNamesTheDocument(vector: String) throws {
        let name = "\(vector).gallery"
        try FileManager.default.copyItem(at: Repository.examples.appendingPathComponent("invalid/\(name)"), to: folder.path(name))
        let result = try Command.gallery(["verify", name], in: folder.url)
        #expect(result.status == 65, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: ") && result.errorOutput.contains("\(name): "), "\(result)")
        #expect(result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    /// `Trip.gallery`, three images, none cached.
    func makeDocument() throws -> URL {
        let files = try folder.distinctImages(3, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let result = try Command.gallery(["create", "Trip.gallery", "--title", "Trip"] + files, in: folder.url)
        try #require(result.status == 0, "\(result)")
        return folder.path("Trip.gallery")
    }
}
