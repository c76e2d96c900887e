import Foundation
import GalleryTestSupport
import Testing

/// `gallery export`, run as a user runs it: web images fetched on export (from a server on
/// 127.0.0.1 the tests start), damaged documents refused with nothing written, every format's
/// output read by other programs, and the HTML site loaded in headless Chromium.
@Suite struct ExportCLITests: GalleryCommandSuite {
    let folder = TemporaryFolder()
    let server: ImageServer

    init() throws {
        server = try ImageServer()
    }

    func url(_ path: String) -> String { server.url(path).absoluteString }

    /// A document of three web images, not cached; the second can be fetched only once (when
    /// the document is made, with the image cache off so that it is not kept there either), so
    /// the export finds it gone.
    func webDocument() throws -> String {
        let created = try gallery(
            "create", "Web.gallery", "--image-cache-size", "0",
            url("/image/01-dawn.jpg"), url("/once/a/02-forest.jpg"), url("/image/05-leaf.webp"))
        try #require(created.status == 0, "\(created)")
        return "Web.gallery"
    }

    @Test func webImagesAreFetchedOnExportAndTheUnreachableReported() throws {
        let document = try webDocument()
        for (format, output) in [("html", "Site"), ("folder", "Images"), ("cbz", "Web.cbz"), ("bundle", "Share.gallery")] {
            let result = try gallery("export", document, "--format", format, "--output", output)
            #expect(result.status == 2, "\(format): \(result)")
            let lines = result.errorOutput.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("/once/a/02-forest.jpg") && lines[0].contains("410"), "\(format): \(result)")
            #expect(result.output.contains("Exported 2 images (1 failed)"), "\(format): \(result)")
        }
        let site = try String(contentsOf: folder.path("Site/index.html"), encoding: .utf8)
        #expect(
            !site.contains("410") && site.contains("This image could not be loaded."), "the error tile says so, not the server's status")
        #expect(FileManager.default.fileExists(atPath: folder.path("Site/renditions/003-480.jpg").path), "a fetched image's display size")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path("Images").path).sorted() == [
                "001-01-dawn.jpg", "003-05-leaf.webp",
            ])
        let bundle = try gallery("open", "Share.gallery", "--json")
        let images = (try JSONSerialization.jsonObject(with: Data(bundle.output.utf8)) as? [String: Any])?["images"] as? [[String: Any]]
        #expect(images?.map { $0["cached"] as? Bool } == [true, false, true], "bundle caches what it fetched")
        #expect(images?.map { $0["status"] as? String } == ["ok", "failed", "ok"])
    }

    @Test(arguments: ["html", "folder", "cbz", "bundle", "contact-sheet", "iiif"])
    func aDamagedDocumentIsRefusedAndNothingIsWritten(format: String) throws {
        try FileManager.default.copyItem(
            at: Repository.examples.appendingPathComponent("invalid/image-crc-mismatch.gallery"), to: folder.path("Bad.gallery"))
        let before = folder.listing()
        let output = format == "contact-sheet" ? "Out.jpg" : "Out"
        var arguments = ["export", "Bad.gallery", "--format", format, "--output", output]
        if format == "iiif" { arguments += ["--base-url", "https://example.org/"] }
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 65, "\(result)")
        #expect(result.errorOutput.split(separator: "\n").count == 1 && result.errorOutput.hasPrefix("gallery: error: "), "\(result)")
        #expect(result.errorOutput.contains("Bad.gallery"), "names the document: \(result)")
        #expect(folder.listing() == before, "nothing written")
    }

    /// Spec §7: an export's bytes depend on its content alone, whatever the time zone. The zip
    /// entries' DOS times are the manifest's `modified` in UTC, set by GalleryKit after libarchive
    /// wrote them in local time (which it computes with `localtime_r`), never by changing `TZ`.
    @Test func bundleAndComicExportsAreTheSameBytesInEveryTimeZone() throws {
        let created = try gallery(
            "create", "Trip.gallery", "--cache", Repository.sampleImage("01-dawn").path, Repository.sampleImage("02").path)
        try #require(created.status == 0, "\(created)")
        for (format, suffix) in [("bundle", "gallery"), ("cbz", "cbz")] {
            var outputs: [Data] = []
            for zone in ["UTC", "Pacific/Kiritimati", "America/New_York"] {
                let output = "\(zone.replacingOccurrences(of: "/", with: "-")).\(suffix)"
                let result = try Command.gallery(
                    ["export", "Trip.gallery", "--format", format, "--output", output], in: folder.url, environment: ["TZ": zone])
                #expect(result.status == 0, "\(format) in \(zone): \(result)")
                outputs.append(try Data(contentsOf: folder.path(output)))
            }
            #expect(Set(outputs).count == 1, "\(format): the time zone changed the bytes")
        }
    }

    @Test func anExistingOutputIsRefusedUnlessForced() throws {
        let created = try gallery("create", "Trip.gallery", "--cache", Repository.sampleImage("01-dawn").path)
        try #require(created.status == 0, "\(created)")
        try Data("mine".utf8).write(to: folder.path("Trip.cbz"))
        let refused = try gallery("export", "Trip.gallery", "--format", "cbz", "--output", "Trip.cbz")
        #expect(refused.status == 73, "\(refused)")
        #expect(try Data(contentsOf: folder.path("Trip.cbz")) == Data("mine".utf8))
        let forced = try gallery("export", "Trip.gallery", "--format", "cbz", "--output", "Trip.cbz", "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(try Data(contentsOf: folder.path("Trip.cbz")).prefix(2) == Data("PK".utf8))
    }

    /// The manifest loads in iiif-prezi3, the IIIF community's Presentation 3 models (generated
    /// from the specification's JSON Schema): required properties, types, language maps.
    @Test func iiifManifestPassesTheIIIFModels() throws {
        let images = Repository.sampleImageFiles().map(\.path)
        let created = try Command.gallery(["create", "All.gallery", "--cache"] + images, in: folder.url)
        try #require(created.status == 0, "\(created)")
        _ = try gallery("edit", "All.gallery", "caption", "1", "Dawn")
        let result = try gallery(
            "export", "All.gallery", "--format", "iiif", "--output", "All.json", "--base-url", "https://example.org/galleries")
        #expect(result.status == 0, "\(result)")
        let script = """
            import json, sys, iiif_prezi3
            manifest = iiif_prezi3.Manifest(**json.load(open(sys.argv[1])))
            print(len(manifest.items), manifest.items[0].summary)
            """
        let python = try Command.run(try #require(Command.which("python3")), ["-c", script, "All.json"], in: folder.url)
        #expect(python.status == 0, "\(python)")
        #expect(python.output.hasPrefix("7 "), "\(python)")
    }

    @Test func iiifNeedsABaseURL() throws {
        let created = try gallery("create", "Trip.gallery", "--cache", Repository.sampleImage("01-dawn").path)
        try #require(created.status == 0, "\(created)")
        let result = try gallery("export", "Trip.gallery", "--format", "iiif", "--output", "Trip.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.errorOutput.contains("--base-url"), "\(result)")
        #expect(!folder.listing().contains("Trip.json"))
    }

    /// `--originals` is the HTML site's: elsewhere it is refused before anything is written, and
    /// its help says that originals keep their location.
    @Test func originalsAreOnlyForTheHTMLSiteAndTheHelpSaysTheyKeepTheirLocation() throws {
        let created = try gallery("create", "Trip.gallery", "--cache", Repository.sampleImage("01-dawn").path)
        try #require(created.status == 0, "\(created)")
        let refused = try gallery("export", "Trip.gallery", "--format", "cbz", "--output", "Trip.cbz", "--originals")
        #expect(refused.status == 64 && refused.errorOutput.contains("--originals is only for --format html"), "\(refused)")
        #expect(!folder.listing().contains("Trip.cbz"))
        let help = try gallery("export", "--help").output.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(help.contains("--originals") && help.contains("location"), "\(help)")
        let site = try gallery("export", "Trip.gallery", "--format", "html", "--output", "Site", "--originals")
        #expect(site.status == 0, "\(site)")
        #expect(FileManager.default.fileExists(atPath: folder.path("Site/album.zip").path))
    }

    @Test func cbzIsReadByBsdtarAndPythonInOrder() throws {
        let images = Repository.sampleImageFiles().map(\.path)
        let created = try Command.gallery(["create", "All.gallery", "--cache"] + images, in: folder.url)
        try #require(created.status == 0, "\(created)")
        let result = try gallery("export", "All.gallery", "--format", "cbz", "--output", "All.cbz")
        #expect(result.status == 0, "\(result)")
        let expected = ["001.jpg", "002.jpg", "003.jpg", "004.png", "005.webp", "006.gif", "007.tiff"]
        let listed = try Command.run(try #require(Command.which("bsdtar")), ["-tf", "All.cbz"], in: folder.url)
        #expect(listed.status == 0 && listed.output.split(separator: "\n").map(String.init) == expected, "\(listed)")
        let script = "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(' '.join(z.namelist()))"
        let python = try Command.run(try #require(Command.which("python3")), ["-c", script, "All.cbz"], in: folder.url)
        #expect(
            python.status == 0 && python.output.trimmingCharacters(in: .whitespacesAndNewlines) == expected.joined(separator: " "),
            "\(python)")
    }

    /// The exported site in headless Chromium (Debian's, driven by Playwright): every image
    /// decodes, no request leaves the folder, the viewer pages and keeps its filmstrip in sync.
    @Test func htmlSiteWorksInHeadlessChromium() throws {
        let images = Repository.sampleImageFiles().map(\.path)
        let created = try Command.gallery(
            ["create", "All.gallery", "--cache", "--title", "Samples <b>&</b>"] + images + [url("/status/404")], in: folder.url)
        try #require(created.status == 2, "\(created)")
        _ = try gallery("edit", "All.gallery", "caption", "2", "<img src=x onerror=\"document.title='pwned'\">")
        let exported = try gallery("export", "All.gallery", "--format", "html", "--output", "Site")
        try #require(exported.status == 2, "the failed image is reported: \(exported)")
        let checker = Repository.root.appendingPathComponent("Tests/Browser/check_html_export.py")
        let python = try #require(Command.which("python3"))
        let result = try Command.run(python, [checker.path, folder.path("Site").path], in: folder.url)
        #expect(result.status == 0, "\(result)")
    }

    /// A gallery beyond the tiles the page's markup holds: the script draws the others only near
    /// the view (checked after a jump to the end and halfway), each as the markup would, and the
    /// viewer's filmstrip holds a window of thumbnails.
    @Test func largeHTMLSiteDrawsOnlyTheTilesNearTheView() throws {
        let images = try folder.distinctImages(1_000, from: Repository.sampleImage("05-leaf")).map(\.path)
        let created = try Command.gallery(["create", "Large.gallery", "--cache", "--quiet"] + images, in: folder.url)
        try #require(created.status == 0, "\(created)")
        let exported = try gallery("export", "Large.gallery", "--format", "html", "--output", "Site")
        try #require(exported.status == 0, "\(exported)")
        let page = try String(contentsOf: folder.path("Site/index.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "class=\"tile\"").count - 1 == 300, "the markup holds the first 300 tiles")
        let checker = Repository.root.appendingPathComponent("Tests/Browser/check_html_export.py")
        let python = try #require(Command.which("python3"))
        let result = try Command.run(python, [checker.path, folder.path("Site").path], in: folder.url)
        #expect(result.status == 0, "\(result)")
    }
}
