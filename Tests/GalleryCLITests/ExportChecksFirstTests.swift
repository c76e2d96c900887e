import Foundation
import GalleryTestSupport
import Testing

/// A damaged document is refused before anything is fetched or written (README, "A damaged
/// document is refused before anything is fetched or written"): each export format, given a
/// document whose cached image is damaged and which also holds a web image that is not cached,
/// exits 65 at once with one line naming the document, and the web image's server is never
/// contacted.
@Suite struct ExportChecksFirstTests {
    let folder = TemporaryFolder()

    enum Damage: String, CaseIterable, Sendable {
        /// One byte of the stored image flipped: its CRC-32 no longer matches.
        case crc
        /// Bytes whose SHA-256 is not the one their name and the manifest give (CRC intact).
        case sha256
        /// An entry that inflates more than 100× past 64 MiB.
        case zipBomb
    }

    static let formats = ["html", "folder", "cbz", "bundle", "contact-sheet", "iiif"]

    @Test(arguments: formats, Damage.allCases)
    func aDamagedDocumentIsRefusedBeforeAnyRequest(format: String, damage: Damage) throws {
        let listener = try TCPListener(.silent)
        try makeDocument("Bad.gallery", damage: damage, webImage: listener.url("/web.jpg"))
        let before = folder.listing()
        let output = format == "contact-sheet" ? "Out.jpg" : "Out"
        var arguments = ["export", "Bad.gallery", "--format", format, "--output", output, "--timeout", "5"]
        if format == "iiif" { arguments += ["--base-url", "https://example.org/"] }
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 65, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: ") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(result.errorOutput.contains("Bad.gallery: "), "names the document: \(result)")
        #expect(!listener.hasBeenContacted, "no request for a document that is refused")
        #expect(folder.listing() == before, "nothing written")
    }

    /// The same document undamaged exports, and its web image is asked for: the check above
    /// would pass for an export that never fetches.
    @Test func theSameDocumentUndamagedFetchesItsWebImage() throws {
        let server = try ImageServer()
        try makeDocument("Good.gallery", damage: nil, webImage: server.url("/image/05-leaf.webp"))
        let result = try Command.gallery(["export", "Good.gallery", "--format", "folder", "--output", "Out"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path("Out").path).count == 2, "the cached image and the fetched one")
    }

    /// A document of two images: a cached JPEG (damaged as asked) and a web image, not cached.
    func makeDocument(_ name: String, damage: Damage?, webImage: URL) throws {
        var bytes = try Data(contentsOf: Repository.sampleImage("01-dawn"))
        var deflated = false
        if damage == .zipBomb {
            bytes = Data(count: 80 << 20)
            deflated = true
        }
        let sha256 = TestDigest.sha256(bytes)
        let path = "images/\(sha256).jpg"
        if damage == .sha256 { bytes[bytes.count / 2] ^= 0xFF }
        let cached = TestManifest.cached(sha256: sha256, bytes: bytes.count)
        var web = TestManifest.image(index: 1)
        web["url"] = webImage.absoluteString
        let manifest = TestManifest.object(images: [TestManifest.image(index: 0, cached: cached), web])
        let url = folder.path(name)
        try RawZip.write(TestManifest.entries(manifest, more: [RawZip.Entry(path, bytes, deflated: deflated)]), to: url)
        if damage == .crc { try RawZip.flipByte(of: bytes, in: url) }
    }
}
