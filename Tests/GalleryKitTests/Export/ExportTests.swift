import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

@Suite struct ExportTests {
    let folder = TemporaryFolder()

    func document(cache: Bool, thumbnails: Bool = true, named name: String = "Trip.gallery") throws -> GalleryDocument {
        let files = try folder.distinctImages(3, from: Repository.sampleImage(".jpg"))
        var document = GalleryDocument(creating: folder.path(name), gallery: Gallery(title: "Trip"))
        try document.insert(PreparedImages(files: files, cache: cache, thumbnails: thumbnails))
        try document.save()
        try document.edit { $0.title = "Trip, edited" }
        try document.save()
        return document
    }

    /// A saved document with one more image, failed, at the end.
    func documentWithFailedImage(caption: String? = nil) throws -> GalleryDocument {
        var document = try document(cache: true)
        try document.edit { gallery in
            if let caption { gallery.images[0].caption = caption }
            gallery.images.append(
                GalleryImage(
                    url: URL(string: "https://example.org/gone.jpg")!, aspectRatio: 1, status: .failed, error: "HTTP 404 Not Found"))
        }
        try document.save()
        return document
    }

    func files(in url: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).map { $0.path.replacingOccurrences(of: url.path + "/", with: "") }.sorted()
    }

    @Test func bundleIsSelfContainedWithoutHistory() async throws {
        let source = try document(cache: false)
        let output = folder.path("Share.gallery")
        let report = try await BundleExporter().export(source, to: output)
        #expect(report.exported == 3 && report.failures.isEmpty)
        let exported = try GalleryDocument(contentsOf: output)
        #expect(exported.gallery.images.allSatisfy { $0.isCached })
        #expect(!exported.canUndo)
        #expect(exported.gallery.title == "Trip, edited")
        #expect(try BundleVerifier.verify(output).cachedImages == 3)
        #expect(try BundleReader.open(output).contents.names.allSatisfy { !$0.hasPrefix("history/") })
        #expect(folder.listing().allSatisfy { !$0.hasPrefix(".") }, "no staging left: \(folder.listing())")
    }

    /// What a killed export left beside its output (a staging folder with files in it, an old
    /// output moved aside) is removed by the next export there; a staging folder another export
    /// is still using (its lock held) is left alone.
    @Test func anExportRemovesWhatKilledExportsLeftButNotALiveStaging() async throws {
        let source = try document(cache: true)
        let output = folder.path("Images")
        let prefix = AtomicFile.temporaryPrefix(for: output)
        for name in ["\(prefix)killed00000a", "\(prefix)old-0000000b", "\(prefix)inuse000000c"] {
            try FileManager.default.createDirectory(
                at: folder.path(name).appendingPathComponent("images"), withIntermediateDirectories: true)
            try Data("partial".utf8).write(to: folder.path(name).appendingPathComponent("images/001.jpg"))
        }
        let live = try FileLock(folder: folder.path("\(prefix)inuse000000c"), naming: output, timeout: .zero)
        _ = try await FolderExporter().export(source, to: output)
        #expect(folder.listing().filter { $0.hasPrefix(".") } == ["\(prefix)inuse000000c"])
        withExtendedLifetime(live) {}
    }

    @Test func folderHoldsTheImagesInOrder() async throws {
        let source = try document(cache: true)
        let output = folder.path("Images")
        _ = try await FolderExporter().export(source, to: output)
        let names = try files(in: output)
        #expect(names == ["001-image-0.jpg", "002-image-1.jpg", "003-image-2.jpg"])
        for (name, image) in zip(names, source.gallery.images) {
            #expect(try ContentHash.ofFile(at: output.appendingPathComponent(name)).sha256 == image.cached?.sha256)
        }
    }

    @Test func cbzHoldsTheImagesInOrderStoredAndNumbered() async throws {
        let source = try documentWithFailedImage()
        let output = folder.path("Trip.cbz")
        let report = try await CBZExporter().export(source, to: output)
        #expect(report.exported == 3 && report.failed == 1)
        let reader = try ArchiveReader(contentsOf: output, access: .seekable)
        var names: [String] = []
        while let entry = try reader.nextEntry() {
            names.append(entry.name)
            #expect(entry.compression == "uncompressed", "comic readers expect stored pages")
            let data = try reader.readData(maximumBytes: 1 << 24, inflation: BundleLimits.standard.inflation)
            #expect(ContentHash.of(data) == source.gallery.images[names.count - 1].cached?.sha256)
        }
        #expect(names == ["001.jpg", "002.jpg", "003.jpg"])
    }

    @Test func iiifManifestHasTheRequiredFieldsAndTypes() async throws {
        let source = try documentWithFailedImage(caption: "Harbour at dawn")
        let output = folder.path("Trip.json")
        _ = try await IIIFExporter(baseURL: URL(string: "https://example.org/g")!).export(source, to: output)
        #expect(folder.listing().contains("Trip") && folder.listing().contains("Trip.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(manifest["@context"] as? String == "http://iiif.io/api/presentation/3/context.json")
        #expect(manifest["id"] as? String == "https://example.org/g/Trip.json")
        #expect(manifest["type"] as? String == "Manifest")
        #expect((manifest["label"] as? [String: [String]])?["none"] == ["Trip, edited"])
        let canvases = try #require(manifest["items"] as? [[String: Any]])
        #expect(canvases.count == 3, "the failed image is left out")
        for (offset, canvas) in canvases.enumerated() {
            let id = try #require(canvas["id"] as? String)
            #expect(canvas["type"] as? String == "Canvas")
            #expect((canvas["width"] as? Int ?? 0) > 0 && (canvas["height"] as? Int ?? 0) > 0)
            let pages = try #require(canvas["items"] as? [[String: Any]])
            #expect(pages.count == 1 && pages[0]["type"] as? String == "AnnotationPage")
            let annotations = try #require(pages[0]["items"] as? [[String: Any]])
            #expect(annotations.count == 1)
            #expect(annotations[0]["type"] as? String == "Annotation")
            #expect(annotations[0]["motivation"] as? String == "painting")
            #expect(annotations[0]["target"] as? String == id)
            let body = try #require(annotations[0]["body"] as? [String: Any])
            #expect(body["type"] as? String == "Image" && body["format"] as? String == "image/jpeg")
            #expect(body["width"] as? Int == canvas["width"] as? Int && body["height"] as? Int == canvas["height"] as? Int)
            let image = try #require(body["id"] as? String)
            #expect(image == "https://example.org/g/Trip/images/00\(offset + 1).jpg")
            #expect(FileManager.default.fileExists(atPath: folder.path(String(image.dropFirst("https://example.org/g/".count))).path))
            let thumbnail = try #require((canvas["thumbnail"] as? [[String: Any]])?.first)
            #expect(thumbnail["type"] as? String == "Image")
            let thumbnailPath = String((thumbnail["id"] as? String ?? "").dropFirst("https://example.org/g/".count))
            #expect(FileManager.default.fileExists(atPath: folder.path(thumbnailPath).path))
        }
        #expect((canvases[0]["summary"] as? [String: [String]])?["none"] == ["Harbour at dawn"])
        #expect((canvases[0]["label"] as? [String: [String]])?["none"] == ["Harbour at dawn"])
        #expect((canvases[1]["label"] as? [String: [String]])?["none"] == ["Image 2"])
    }

    @Test func iiifIntoAFolderAndOnlyWithAnHTTPBase() async throws {
        let source = try document(cache: true)
        #expect(throws: GalleryError.self) { try IIIFExporter(baseURL: URL(string: "file:///tmp/x")!) }
        let output = folder.path("Site")
        _ = try await IIIFExporter(baseURL: URL(string: "https://example.org/trip/")!).export(source, to: output)
        #expect(try files(in: output).filter { !$0.contains("/") } == ["images", "manifest.json", "thumbnails"])
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect(manifest?["id"] as? String == "https://example.org/trip/manifest.json")
    }

    @Test func htmlEscapesEveryTextFromTheDocument() async throws {
        let hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)> & \"'{{items}}"
        var source = try documentWithFailedImage(caption: hostile)
        try source.edit { $0.title = hostile }
        try source.save()
        let output = folder.path("Site")
        let report = try await HTMLExporter().export(source, to: output)
        #expect(report.exported == 3 && report.failed == 1)
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!page.contains("<script>alert"), "no script from the document")
        #expect(!page.contains("<img src=x"), "no markup from the document")
        #expect(!page.contains("</script><script>"))
        #expect(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)"), "the title is shown as text")
        #expect(page.contains("{{items}}"), "a placeholder inside a caption stays text, filled once")
        // The shared scripts (PageAssets) and the export's own gallery.js.
        let scripts = PageAssets.names.filter { $0.hasSuffix(".js") }.count + 1
        #expect(page.components(separatedBy: "<script").count - 1 == 1 + scripts, "only the page's own data and its scripts")
        #expect(page.contains("This image could not be loaded."), "the failed item's error tile")
        #expect(!page.contains("HTTP 404"), "a shared site never shows the reason recorded for the gallery's maker")
    }

    /// The exported page lays the document out as `gallery serve` does at its two widths: the
    /// document's images per row, the app's gaps (PageStyle), not rows of its own.
    @Test(arguments: [1, 2, 6])
    func htmlLaysOutTheDocumentsColumnsAsTheAppDoes(columns: Int) async throws {
        var source = try documentWithFailedImage()
        try source.edit { try $0.setColumns(columns) }
        try source.save()
        let output = folder.path("Site-\(columns)")
        _ = try await HTMLExporter().export(source, to: output)
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let ratios = source.gallery.images.map { $0.hasFailed ? 1 : $0.aspectRatio }
        for (width, prefix) in [(1200.0, ""), (390.0, "p")] {
            let app = PageStyle.screen(width: width, columns: columns).layout(aspectRatios: ratios)
            if columns == 1 { #expect(app.frames.allSatisfy { $0.x == 0 }, "one image a row") }
            if columns == 6 { #expect(app.frames.allSatisfy { $0.y == 0 }, "all four on one row") }
            let pattern = try NSRegularExpression(
                pattern: "--\(prefix)x:([0-9.]+)%;--\(prefix)y:([0-9.]+)%;--\(prefix)w:([0-9.]+)%;--\(prefix)h:([0-9.]+)%")
            let exported = pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).map { match in
                (1...4).map { Double(page[Range(match.range(at: $0), in: page)!])! }
            }
            try #require(exported.count == app.frames.count)
            for (percent, frame) in zip(exported, app.frames) {
                // Percent of the width (x, w) and of the content's height (y, h), four decimals.
                #expect(abs(percent[0] / 100 * width - frame.x) < 0.01 && abs(percent[2] / 100 * width - frame.width) < 0.01)
                #expect(
                    abs(percent[1] / 100 * app.contentHeight - frame.y) < 0.01
                        && abs(percent[3] / 100 * app.contentHeight - frame.height) < 0.01)
            }
        }
    }

    @Test func htmlRefersOnlyToFilesInTheOutput() async throws {
        let source = try documentWithFailedImage()
        let output = folder.path("Site")
        _ = try await HTMLExporter().export(source, to: output)
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let references = try NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
            .matches(in: page, range: NSRange(page.startIndex..., in: page))
            .map { String(page[Range($0.range(at: 1), in: page)!]) }
        #expect(references.count >= 3 * 2 + 2, "\(references)")
        for reference in references {
            #expect(!reference.contains(":") && !reference.hasPrefix("/") && !reference.contains(".."), "relative: \(reference)")
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(reference).path), "exists: \(reference)")
        }
        let files = try files(in: output)
        #expect(files.contains("thumbnails/001.jpg") && files.contains("renditions/003-512.jpg") && files.contains("assets/gallery.js"))
        #expect(!files.contains { $0.hasPrefix("images") || $0 == HTMLExporter.albumName }, "no originals unless asked for")
        #expect(!files.contains { $0.contains("/004") }, "nothing for the failed image")
        // The viewer is GalleryKit's one viewer (gallery serve's too), and nothing else is asked for.
        for name in PageAssets.names {
            let written = try Data(contentsOf: output.appendingPathComponent("assets/\(name)"))
            #expect(written == (try PageAssets.data(named: name)), "\(name)")
        }
        #expect(throws: GalleryError.self) { try PageAssets.data(named: "../index.html") }
    }

    /// A shared site carries display sizes, not the originals: no file of it has the photos'
    /// metadata (their location), and every tile offers its sizes to the browser (`srcset`).
    @Test func htmlCarriesRenditionsWithoutTheOriginalsOrTheirLocation() async throws {
        let photo = try folder.write(
            EXIF.adding(orientation: 1, latitude: [48, 51, 24], to: try Data(contentsOf: Repository.sampleImage("01-dawn"))),
            to: "located.jpg")
        var source = GalleryDocument(creating: folder.path("Located.gallery"), gallery: Gallery(title: "Located"))
        try source.insert(PreparedImages(files: [photo, Repository.sampleImage("06-rings")], cache: true, thumbnails: true))
        try source.save()
        let output = folder.path("Site")
        _ = try await HTMLExporter().export(source, to: output)
        let files = try files(in: output)
        #expect(files.filter { $0.hasPrefix("renditions/") } == ["renditions/001-512.jpg", "renditions/001-640.jpg"])
        #expect(files.filter { $0.hasPrefix("images/") } == ["images/002.gif"], "a GIF stays itself, animation and all")
        for name in files where name.hasSuffix(".jpg") {
            #expect(!EXIF.hasMetadataSegment(try Data(contentsOf: output.appendingPathComponent(name))), "\(name) carries metadata")
        }
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains(#"srcset="thumbnails/001.jpg 256w, renditions/001-512.jpg 512w, renditions/001-640.jpg 640w""#))
        #expect(page.contains(#"href="renditions/001-640.jpg""#), "without scripts a tile opens the largest size")
        #expect(!page.contains("album.zip"))
    }

    /// The tiles' `sizes` reckon with the page's width and margins as the style sheet sets them.
    @Test func theTilesSizesKnowThePagesMargins() throws {
        let css = String(decoding: try PageAssets.asset(named: "gallery.css"), as: UTF8.self)
        let (maximum, margin, phoneMargin) = HTMLExporter.pageLayout
        #expect(css.contains(".page-header, main { max-width: \(maximum)px; margin: 0 auto; padding: 0 \(margin)px; }"))
        #expect(css.contains(".page-header, main { padding-left: \(phoneMargin)px; padding-right: \(phoneMargin)px; }"))
    }

    /// With the originals: byte for byte, and an album of them all, stored, linked from the page.
    @Test func htmlWithOriginalsAddsThemAndAnAlbumOfThem() async throws {
        let source = try documentWithFailedImage()
        let output = folder.path("Site")
        _ = try await HTMLExporter(includesOriginals: true).export(source, to: output)
        let files = try files(in: output)
        #expect(files.contains("images/001.jpg") && files.contains("renditions/001-512.jpg") && files.contains(HTMLExporter.albumName))
        let page = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains(#"<a class="download" href="album.zip" download>Download all (3 originals, "#))
        let reader = try ArchiveReader(contentsOf: output.appendingPathComponent(HTMLExporter.albumName), access: .seekable)
        var members: [String: Data] = [:]
        while let entry = try reader.nextEntry() {
            #expect(entry.compression == "uncompressed", "stored: photos are compressed already")
            members[entry.name] = try reader.readData(maximumBytes: 1 << 24, inflation: BundleLimits.standard.inflation)
        }
        #expect(members.keys.sorted() == ["001-image-0.jpg", "002-image-1.jpg", "003-image-2.jpg"])
        for (offset, image) in source.gallery.images.prefix(3).enumerated() {
            let name = "00\(offset + 1)-image-\(offset).jpg"
            #expect(members[name] == (try source.cachedBytes(of: image)), "\(name): the original, byte for byte")
        }
    }

    @Test func htmlReusesTheDocumentsThumbnailsAndMakesMissingOnes() async throws {
        let withThumbnails = try document(cache: true)
        let thumbnail = try #require(withThumbnails.gallery.images[0].thumbnail)
        let stored = try BundleReader.readEntries(named: [thumbnail], of: withThumbnails.url, maximumBytes: 1 << 20)[thumbnail]
        _ = try await HTMLExporter().export(withThumbnails, to: folder.path("A"))
        #expect(try Data(contentsOf: folder.path("A/thumbnails/001.jpg")) == stored, "the document's own thumbnail, byte for byte")

        let without = try document(cache: true, thumbnails: false, named: "Plain.gallery")
        #expect(without.gallery.images.allSatisfy { $0.thumbnail == nil })
        _ = try await HTMLExporter().export(without, to: folder.path("B"))
        let made = try ImageProbe.info(forFileAt: folder.path("B/thumbnails/002.jpg"))
        #expect(max(made.width, made.height) <= Thumbnailer.longEdge)
    }

    @Test(arguments: ["bundle", "folder", "html", "cbz"])
    func refusesAnExistingOutputAndLeavesNothingOnFailure(format: String) async throws {
        let source = try document(cache: false)
        let exporter: any DocumentExporter =
            switch format {
            case "bundle": BundleExporter()
            case "html": HTMLExporter()
            case "cbz": CBZExporter()
            default: FolderExporter()
            }
        let existing = folder.path("exists")
        try Data("mine".utf8).write(to: existing)
        let error = await #expect(throws: GalleryError.self) { try await exporter.export(source, to: existing) }
        #expect(error?.code == .alreadyExists)
        #expect(try Data(contentsOf: existing) == Data("mine".utf8))

        // A document whose cached bytes are damaged: refused, and nothing is left behind.
        let damaged = try GalleryDocument(contentsOf: Repository.examples.appendingPathComponent("invalid/image-crc-mismatch.gallery"))
        let before = folder.listing()
        let refused = await #expect(throws: GalleryError.self) { try await exporter.export(damaged, to: folder.path("out")) }
        #expect(refused?.code == .damagedDocument, "\(String(describing: refused))")
        #expect(folder.listing() == before)
    }

    @Test func forceReplacesAPreviousExportButNeverAFolderOfOtherFiles() async throws {
        let source = try document(cache: true)
        let output = folder.path("Site")
        _ = try await HTMLExporter().export(source, to: output)
        _ = try await HTMLExporter().export(source, to: output, options: ExportOptions(replacingExisting: true))
        #expect(try files(in: output).contains("index.html"))

        let personal = folder.path("Documents")
        try FileManager.default.createDirectory(at: personal, withIntermediateDirectories: false)
        try Data("thesis".utf8).write(to: personal.appendingPathComponent("thesis.txt"))
        let error = await #expect(throws: GalleryError.self) {
            try await HTMLExporter().export(source, to: personal, options: ExportOptions(replacingExisting: true))
        }
        #expect(error?.code == .alreadyExists)
        #expect(try files(in: personal) == ["thesis.txt"])
    }

    @Test func localImagesThatAreGoneBecomeFailuresNotErrors() async throws {
        let source = try document(cache: false)
        try FileManager.default.removeItem(at: source.gallery.images[1].url)
        let report = try await FolderExporter().export(source, to: folder.path("out"))
        #expect(report.exported == 2 && report.failed == 1)
        #expect(report.failures.map(\.position) == [1])
        #expect(try files(in: folder.path("out")) == ["001-image-0.jpg", "003-image-2.jpg"])
    }
}
