import Foundation
import GalleryTestSupport
import Testing

/// Credits carried into every export: the site's viewer, credits list and JSON-LD; IIIF's
/// rights, requiredStatement, metadata and provider; the folder's CREDITS.txt; the comic
/// book's ComicInfo.xml. And a IIIF manifest that goes through a gallery comes out the same.
@Suite struct CreditExportCLITests {
    let folder = TemporaryFolder()
    let licence = "http://creativecommons.org/licenses/by/4.0/"

    func gallery(_ arguments: String...) throws -> CommandResult {
        try Command.gallery(arguments, in: folder.url)
    }

    /// Trip.gallery: a photo whose credit exiftool wrote (Artist, Copyright, photoshop:Credit,
    /// xmpRights:WebStatement, in its https form), and one credited by the gallery's default.
    func makeCreditedDocument() throws {
        let exiftool = try #require(Command.which("exiftool"), "exiftool is installed by .ci/install")
        try FileManager.default.copyItem(at: Repository.sampleImage("01-dawn"), to: folder.path("dawn.jpg"))
        let written = try Command.run(
            exiftool,
            [
                "-q", "-overwrite_original", "-Artist=Ana Lima", "-Copyright=© 2026 Ana Lima", "-XMP-photoshop:Credit=Photo: Ana Lima",
                "-XMP-xmpRights:WebStatement=https://creativecommons.org/licenses/by/4.0", "dawn.jpg",
            ], in: folder.url)
        try #require(written.status == 0, "\(written)")
        try #require(
            try gallery("create", "Trip.gallery", "--cache", "--title", "Trip", "dawn.jpg", Repository.sampleImage("02-forest").path).status
                == 0)
        try #require(
            try gallery("edit", "Trip.gallery", "credit", "--creator", "Studio Lima", "--source", "https://example.org/trip").status == 0)
    }

    @Test func theSiteShowsTheCreditAndCarriesJSONLD() throws {
        try makeCreditedDocument()
        let result = try gallery("export", "Trip.gallery", "--format", "html", "--output", "Site")
        #expect(result.status == 0, "\(result)")
        let page = try String(contentsOf: folder.path("Site/index.html"), encoding: .utf8)
        #expect(page.contains(#"<footer class="credits">"#))
        #expect(
            page.contains(
                "Photo: Ana Lima · © 2026 Ana Lima · <a href=\"https://creativecommons.org/licenses/by/4.0\" rel=\"license\">CC BY 4.0</a>"),
            "\(page)")
        #expect(page.contains(#"<span class="credit-image">2. Image 2</span> Studio Lima · <a href="https://example.org/trip">source</a>"#))
        // The viewer's line, in the page's data.
        #expect(page.contains(#""credit":"Photo: Ana Lima · © 2026 Ana Lima · CC BY 4.0""#))
        let ldStart = try #require(page.range(of: #"<script type="application/ld+json">"#))
        let ldEnd = try #require(page[ldStart.upperBound...].range(of: "</script>"))
        let ld = try #require(
            try JSONSerialization.jsonObject(with: Data(page[ldStart.upperBound..<ldEnd.lowerBound].utf8)) as? [String: Any])
        #expect(ld["@type"] as? String == "ImageGallery")
        let media = try #require(ld["associatedMedia"] as? [[String: Any]])
        #expect(media.count == 2)
        #expect(media[0]["creditText"] as? String == "Photo: Ana Lima")
        #expect(media[0]["copyrightNotice"] as? String == "© 2026 Ana Lima")
        #expect(media[0]["license"] as? String == "https://creativecommons.org/licenses/by/4.0")
        #expect((media[0]["creator"] as? [String: String])?["name"] == "Ana Lima")
        #expect(media[1]["acquireLicensePage"] as? String == "https://example.org/trip")
        #expect(FileManager.default.fileExists(atPath: folder.path("Site/\(media[0]["contentUrl"] as? String ?? "-")").path))
    }

    /// `rights` in the http:// form the IIIF validator requires, a requiredStatement with the
    /// credit, the document's maker as provider; iiif-prezi3 loads it.
    @Test func theIIIFManifestCarriesRightsAndRequiredStatements() throws {
        try makeCreditedDocument()
        let result = try gallery(
            "export", "Trip.gallery", "--format", "iiif", "--output", "Trip.json", "--base-url", "https://example.org/g/")
        #expect(result.status == 0, "\(result)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.path("Trip.json"))) as? [String: Any])
        let canvases = try #require(manifest["items"] as? [[String: Any]])
        #expect(canvases[0]["rights"] as? String == licence)
        let statement = try #require(canvases[0]["requiredStatement"] as? [String: Any])
        #expect((statement["value"] as? [String: [String]])?["none"] == ["Photo: Ana Lima"])
        #expect((statement["label"] as? [String: [String]])?["en"] == ["Attribution"])
        #expect(((manifest["provider"] as? [[String: Any]])?.first?["label"] as? [String: [String]])?["none"] == ["Studio Lima"])
        #expect(((canvases[1]["requiredStatement"] as? [String: Any])?["value"] as? [String: [String]])?["none"] == ["Studio Lima"])
        // iiif-prezi3's models, and the validator's rules they do not hold: absolute http(s) ids,
        // language maps for every label and value, no Presentation 2 keys.
        let script = """
            import json, sys, iiif_prezi3
            data = json.load(open(sys.argv[1]))
            manifest = iiif_prezi3.Manifest(**data)
            def walk(node, key=None):
                if isinstance(node, dict):
                    for name, value in node.items():
                        assert not name.startswith("@") or name == "@context", name
                        if name == "id": assert value.startswith(("http://", "https://")), value
                        if name in ("label", "summary", "value"):
                            assert isinstance(value, dict) and all(isinstance(v, list) for v in value.values()), (name, value)
                        walk(value, name)
                elif isinstance(node, list):
                    for value in node: walk(value, key)
            walk(data)
            print(manifest.items[0].rights, manifest.provider[0].label)
            """
        let python = try Command.run(try #require(Command.which("python3")), ["-c", script, "Trip.json"], in: folder.url)
        #expect(python.status == 0 && python.output.hasPrefix(licence), "\(python)")
    }

    @Test func theFolderAndTheComicBookCarryTheCredits() throws {
        try makeCreditedDocument()
        #expect(try gallery("export", "Trip.gallery", "--format", "folder", "--output", "Files").status == 0)
        let credits = try String(contentsOf: folder.path("Files/CREDITS.txt"), encoding: .utf8)
        #expect(credits.hasPrefix("Credits for “Trip”\n\n001-dawn.jpg: Photo: Ana Lima · © 2026 Ana Lima · CC BY 4.0"), "\(credits)")
        #expect(credits.contains("002-02-forest.jpg: Studio Lima · source https://example.org/trip"), "\(credits)")
        #expect(try gallery("export", "Trip.gallery", "--format", "folder", "--output", "Files", "--force").status == 0)

        #expect(try gallery("export", "Trip.gallery", "--format", "cbz", "--output", "Trip.cbz").status == 0)
        let bsdtar = try #require(Command.which("bsdtar"))
        let listing = try Command.run(bsdtar, ["-tf", "Trip.cbz"], in: folder.url)
        #expect(listing.output == "001.jpg\n002.jpg\nComicInfo.xml\n", "\(listing)")
        let info = try Command.run(bsdtar, ["-xOf", "Trip.cbz", "ComicInfo.xml"], in: folder.url).output
        #expect(info.contains("<Title>Trip</Title>") && info.contains("<Penciller>Ana Lima, Studio Lima</Penciller>"), "\(info)")
        #expect(info.contains("Page 1: Photo: Ana Lima · © 2026 Ana Lima · CC BY 4.0"), "\(info)")
    }

    /// IIIF → gallery → IIIF keeps the title, the captions, the order and the rights.
    @Test func aIIIFManifestComesBackThroughAGallery() throws {
        let server = try ImageServer()
        let source = server.url("/iiif-fixtures/manifests/0008-rights.json")
        #expect(try gallery("create", "Museum.gallery", "--iiif", source.absoluteString, "--cache").status == 0)
        let result = try gallery(
            "export", "Museum.gallery", "--format", "iiif", "--output", "Out.json", "--base-url", "https://example.org/m/")
        #expect(result.status == 0, "\(result)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.path("Out.json"))) as? [String: Any])
        #expect((out["label"] as? [String: [String]])?["none"] == ["Leaf and rings, with rights"])
        #expect(out["rights"] as? String == licence)
        let canvases = try #require(out["items"] as? [[String: Any]])
        #expect(canvases.map { ($0["label"] as? [String: [String]])?["none"]?.first } == ["Leaf", "Rings"])
        #expect(canvases.map { $0["rights"] as? String } == [licence, "http://rightsstatements.org/vocab/InC/1.0/"])
    }
}
