import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Spec §reading: each rule, on an archive built here to break it. Every rejection must name the
/// file, carry the right code, and leave the folder exactly as it was.
@Suite struct HostileArchiveTests {
    static let sha = String(repeating: "c", count: 64)

    static let cases: [(String, [RawZip.Entry], GalleryError.Code)] = [
        ("dot-dot name", TestManifest.entries(more: [RawZip.Entry("../evil.txt", "x")]), .unsafeArchive),
        ("nested dot-dot", TestManifest.entries(more: [RawZip.Entry("images/../../evil.txt", "x")]), .unsafeArchive),
        ("absolute name", TestManifest.entries(more: [RawZip.Entry("/etc/evil", "x")]), .unsafeArchive),
        // libarchive hands back `\` as `/`, so a backslashed climb is caught as a `..` segment.
        ("backslash climb", TestManifest.entries(more: [RawZip.Entry("..\\..\\evil.txt", "x")]), .unsafeArchive),
        ("drive letter", TestManifest.entries(more: [RawZip.Entry("C:/evil.txt", "x")]), .unsafeArchive),
        ("empty segment", TestManifest.entries(more: [RawZip.Entry("images//x.jpg", "x")]), .unsafeArchive),
        ("symbolic link", TestManifest.entries(more: [RawZip.Entry("images/link", kind: .symbolicLink("/etc/passwd"))]), .unsafeArchive),
        ("character device", TestManifest.entries(more: [RawZip.Entry("dev", kind: .characterDevice)]), .unsafeArchive),
        // (A fifo needs no case: libarchive's zip reader reads one as an empty regular file.)
        ("socket", TestManifest.entries(more: [RawZip.Entry("socket", kind: .socket)]), .unsafeArchive),
        ("duplicate name", TestManifest.entries(more: [RawZip.Entry("notes.txt", "a"), RawZip.Entry("notes.txt", "b")]), .unsafeArchive),
        ("duplicate manifest", TestManifest.entries(more: [RawZip.Entry("manifest.json", "{}")]), .unsafeArchive),
        ("no mimetype", [RawZip.Entry("manifest.json", TestManifest.data(TestManifest.object()), deflated: true)], .damagedDocument),
        (
            "wrong mimetype",
            [
                RawZip.Entry("mimetype", "application/zip", deflated: false),
                RawZip.Entry("manifest.json", TestManifest.data(TestManifest.object()), deflated: true),
            ], .damagedDocument
        ),
        (
            "mimetype second",
            [RawZip.Entry("manifest.json", TestManifest.data(TestManifest.object()), deflated: true), TestManifest.mimetype],
            .damagedDocument
        ),
        ("no manifest", [TestManifest.mimetype], .damagedDocument),
        ("manifest not JSON", [TestManifest.mimetype, RawZip.Entry("manifest.json", "{ not json")], .damagedDocument),
        (
            "manifest wrongly typed",
            [TestManifest.mimetype, RawZip.Entry("manifest.json", #"{"format":"gallery","formatVersion":"1.0","images":"none"}"#)],
            .damagedDocument
        ),
        (
            "format version 2",
            {
                var object = TestManifest.object()
                object["formatVersion"] = "2.0"
                return TestManifest.entries(object)
            }(), .unsupportedVersion
        ),
        (
            "cached path missing",
            TestManifest.entries(
                TestManifest.object(images: [
                    TestManifest.image(cached: TestManifest.cached(sha256: sha, bytes: 4))
                ])), .damagedDocument
        ),
        (
            "cached size differs",
            TestManifest.entries(
                TestManifest.object(images: [
                    TestManifest.image(cached: TestManifest.cached(sha256: sha, bytes: 4))
                ]), more: [RawZip.Entry("images/\(sha).jpg", Data([1, 2, 3]))]), .damagedDocument
        ),
        (
            "manifest over 64 MiB",
            [
                TestManifest.mimetype,
                RawZip.Entry(
                    "manifest.json", TestManifest.data(TestManifest.object()) + Data(repeating: 0x20, count: 64 * 1024 * 1024),
                    deflated: true
                ),
            ], .limitExceeded
        ),
        (
            "more than 100,000 images",
            [TestManifest.mimetype, RawZip.Entry("manifest.json", manyImagesManifest(100_001), deflated: true)], .limitExceeded
        ),
    ]

    @Test(arguments: cases.map { $0.0 })
    func rejectsOnOpen(scenario: String) throws {
        let (_, entries, code) = try #require(Self.cases.first { $0.0 == scenario })
        let folder = TemporaryFolder()
        let url = folder.path("hostile.gallery")
        try RawZip.write(entries, to: url)
        let before = try Data(contentsOf: url)

        let error = #expect(throws: GalleryError.self) { try GalleryDocument(contentsOf: url) }
        #expect(error?.code == code)
        #expect(error?.path == url.path)
        #expect(error?.description.contains("\n") == false)
        // Editing is refused the same way, and nothing on disk changes.
        #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "x" } } }
        #expect(folder.listing() == ["hostile.gallery"])
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func refusesToUndoToARevisionWhoseBytesAreWrong() throws {
        let folder = TemporaryFolder()
        let url = folder.path("history.gallery")
        let bytes = Data("image bytes".utf8)
        let sha = ContentHash.of(bytes)
        let current = TestManifest.object(images: [
            TestManifest.image(cached: TestManifest.cached(sha256: sha, bytes: bytes.count))
        ])
        let earlier = TestManifest.object(images: [
            TestManifest.image(index: 1, cached: TestManifest.cached(sha256: sha, bytes: bytes.count + 1))
        ])
        try RawZip.write(
            TestManifest.entries(
                current,
                more: [
                    RawZip.Entry("images/\(sha).jpg", bytes),
                    RawZip.Entry("history/undo/01.json", TestManifest.data(earlier), deflated: true),
                ]), to: url)
        let before = try Data(contentsOf: url)
        _ = try GalleryDocument(contentsOf: url)
        let error = #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.undo() } }
        #expect(error?.code == .damagedDocument)
        #expect(error?.reason.contains("history/undo/01.json") == true, "\(error?.reason ?? "")")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func rejectsEncryptedEntries() throws {
        let folder = TemporaryFolder()
        let url = folder.path("encrypted.gallery")
        try RawZip.write(TestManifest.entries(), to: url, passphrase: "secret")
        let error = #expect(throws: GalleryError.self) { try GalleryDocument(contentsOf: url) }
        #expect(error?.code == .unsafeArchive)
        #expect(error?.reason.contains("encrypted") == true)
    }

    @Test(arguments: ["truncated", "corrupt central directory", "not a zip", "empty file"])
    func rejectsDamagedArchives(damage: String) throws {
        let folder = TemporaryFolder()
        let url = folder.path("damaged.gallery")
        try RawZip.write(TestManifest.entries(more: [RawZip.Entry("notes.txt", String(repeating: "notes ", count: 500))]), to: url)
        var bytes = try Data(contentsOf: url)
        switch damage {
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "corrupt central directory":
            let signature = Data([0x50, 0x4B, 0x01, 0x02])
            while let range = bytes.range(of: signature) { bytes.replaceSubrange(range, with: Data([0x00, 0x00, 0x00, 0x00])) }
        case "not a zip": bytes = Data("just some text, not a gallery".utf8)
        default: bytes = Data()
        }
        try bytes.write(to: url)
        let error = #expect(throws: GalleryError.self) { try GalleryDocument(contentsOf: url) }
        #expect(error?.code == .damagedDocument)
        #expect(folder.listing() == ["damaged.gallery"])
    }

    @Test func verifyStopsAZipBomb() throws {
        let folder = TemporaryFolder()
        let url = folder.path("bomb.gallery")
        let zeros = Data(count: 80 * 1024 * 1024)
        let sha = ContentHash.of(zeros)
        let image = TestManifest.image(cached: TestManifest.cached(sha256: sha, bytes: zeros.count, extension: "png"))
        try RawZip.write(
            TestManifest.entries(TestManifest.object(images: [image]), more: [RawZip.Entry("images/\(sha).png", zeros, deflated: true)]),
            to: url)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size < 1_000_000)

        let error = #expect(throws: GalleryError.self) { try BundleVerifier.verify(url) }
        #expect(error?.code == .limitExceeded)
        // Copying the entry through an edit stops the same way, before writing anything.
        let editError = #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "x" } } }
        #expect(editError?.code == .limitExceeded)
        #expect(folder.listing() == ["bomb.gallery"])
    }

    @Test func verifyCatchesBytesThatDoNotMatchTheirDigest() throws {
        let folder = TemporaryFolder()
        let url = folder.path("mismatch.gallery")
        let bytes = Data("not what the name says".utf8)
        let image = TestManifest.image(cached: TestManifest.cached(sha256: Self.sha, bytes: bytes.count))
        try RawZip.write(
            TestManifest.entries(TestManifest.object(images: [image]), more: [RawZip.Entry("images/\(Self.sha).jpg", bytes)]), to: url)
        _ = try GalleryDocument(contentsOf: url)
        let error = #expect(throws: GalleryError.self) { try BundleVerifier.verify(url) }
        #expect(error?.code == .damagedDocument)
    }

    @Test func verifyCatchesABadCRC() throws {
        let folder = TemporaryFolder()
        let url = folder.path("crc.gallery")
        let bytes = Data("original image bytes here".utf8)
        let sha = ContentHash.of(bytes)
        let image = TestManifest.image(cached: TestManifest.cached(sha256: sha, bytes: bytes.count))
        try RawZip.write(
            TestManifest.entries(TestManifest.object(images: [image]), more: [RawZip.Entry("images/\(sha).jpg", bytes)]), to: url)
        var archive = try Data(contentsOf: url)
        let range = try #require(archive.range(of: bytes))
        archive.replaceSubrange(range, with: Data("ORIGINAL image bytes here".utf8))
        try archive.write(to: url)
        let error = #expect(throws: GalleryError.self) { try BundleVerifier.verify(url) }
        #expect(error?.code == .damagedDocument)
    }

    @Test func ignoresDirectoryEntriesAndKeepsUnknownOnes() throws {
        let folder = TemporaryFolder()
        let url = folder.path("foreign.gallery")
        try RawZip.write(
            TestManifest.entries(more: [
                RawZip.Entry("extensions/", kind: .directory), RawZip.Entry("extensions/notes.txt", "keep me"),
            ]), to: url)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Edited" } }
        let kept = try BundleReader.readEntries(named: ["extensions/notes.txt"], of: url, maximumBytes: 1024)
        #expect(kept["extensions/notes.txt"] == Data("keep me".utf8))
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "Edited")
    }

    /// The smallest manifest that lists `count` images.
    static func manyImagesManifest(_ count: Int) -> Data {
        let head =
            #"{"format":"gallery","formatVersion":"1.0","id":"8a7c4e0e-0d3b-4d51-9a7e-3c1e2b9f0a11","title":"","created":"2026-01-02T03:04:05Z","modified":"2026-01-02T03:04:05Z","generator":"t","columns":3,"images":["#
        let images = (0..<count).map { index in
            let number = String(index)
            let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - number.count) + number
            return #"{"id":""# + id + #"","url":"a:b","aspectRatio":1,"status":"ok","added":"2026-01-02T03:04:05Z"}"#
        }
        return Data((head + images.joined(separator: ",") + "]}").utf8)
    }
}
