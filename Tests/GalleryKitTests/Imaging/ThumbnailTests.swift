import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Spec §3.4–3.6: a thumbnail for every cached image, and a preview of the first ones that is
/// made again only when they change.
@Suite struct ThumbnailTests {
    let folder = TemporaryFolder()

    func entry(_ name: String, of url: URL) throws -> Data? {
        try BundleReader.readEntries(named: [name], of: url, maximumBytes: 1 << 24)[name]
    }

    func size(of jpeg: Data) throws -> ImageInfo {
        let file = folder.path("probe-\(UUID().uuidString).jpg")
        try jpeg.write(to: file)
        return try ImageProbe.info(forFileAt: file)
    }

    func makeDocument(_ files: [URL]) throws -> URL {
        let url = folder.path("Thumbs.gallery")
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Thumbs"))
        try document.insertImages(fromFiles: files, cache: true)
        try document.save()
        return url
    }

    /// libvips' generated vector code stays off once thumbnails are made: with it, thumbnails
    /// made on several threads crashed the process about once in 200 `create --cache` runs.
    @Test func thumbnailsRunWithoutGeneratedVectorCode() throws {
        _ = try Thumbnailer.jpeg(forFileAt: Repository.sampleImage("01-dawn"))
        #expect(LibVips.isLoaded)
        #expect(!LibVips.runsVectorCode)
    }

    @Test func everyCachedImageGetsAThumbnailWithALongEdgeOf256() throws {
        let files = Repository.sampleImageFiles()
        let url = try makeDocument(files)
        let gallery = try GalleryDocument(contentsOf: url).gallery
        for (file, image) in zip(files, gallery.images) {
            let name = try #require(image.thumbnail, "\(file.lastPathComponent)")
            #expect(name == "thumbnails/\(image.cached!.sha256).jpg")
            let thumbnail = try size(of: try #require(try entry(name, of: url)))
            let original = try ImageProbe.info(forFileAt: file)
            let expectedLongEdge = min(256, max(original.width, original.height))
            #expect(max(thumbnail.width, thumbnail.height) == expectedLongEdge, "\(file.lastPathComponent)")
            // Same shape as the image as displayed: EXIF orientation applied.
            #expect(abs(thumbnail.aspectRatio - original.aspectRatio) < 0.02, "\(file.lastPathComponent)")
        }
        let report = try BundleVerifier.verify(url)
        // mimetype, manifest, preview, each image and its thumbnail, and the insertion's undo step.
        #expect(report.entries == 2 + 1 + 2 * files.count + 1, "\(report)")
    }

    /// Spec §3.4's layout, drawn by the contact sheet's code: 2 cells of 128 a row, each
    /// thumbnail shrunk to fit (never enlarged) and centred; 256×128 for 1 or 2, 256×256 for 3 or 4.
    @Test func thePreviewLaysOutTwoSquareCellsARowWithThumbnailsFittedAndCentred() throws {
        let one = Thumbnailer.previewPlan(thumbnailSizes: [(256, 171)])
        #expect(one.width == 256 && one.height == 128)
        // 128 × 85.5 centred in the first cell: top 21.25, bottom 106.75, each edge rounded.
        #expect(one.cells == [ContactSheet.Rect(x: 0, y: 21, width: 128, height: 86)])
        let four = Thumbnailer.previewPlan(thumbnailSizes: [(171, 256), (256, 256), (64, 32), (256, 171)])
        #expect(four.width == 256 && four.height == 256)
        #expect(
            four.cells == [
                ContactSheet.Rect(x: 21, y: 0, width: 86, height: 128),
                ContactSheet.Rect(x: 128, y: 0, width: 128, height: 128),
                ContactSheet.Rect(x: 32, y: 176, width: 64, height: 32),  // not enlarged
                ContactSheet.Rect(x: 128, y: 149, width: 128, height: 86),
            ])
        let url = try makeDocument([Repository.sampleImage("01-dawn")])
        let preview = try size(of: try #require(try entry("preview.jpg", of: url)))
        #expect(preview.width == 256 && preview.height == 128)
    }

    @Test func thePreviewIsAContactSheetRefreshedWhenTheFirstImagesChange() throws {
        let url = try makeDocument(Array(Repository.sampleImageFiles().prefix(5)))
        let first = try #require(try entry("preview.jpg", of: url))
        let sheet = try size(of: first)
        #expect(sheet.width == 256 && sheet.height == 256)

        // A change that leaves the first four alone keeps the preview's bytes.
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Renamed" } }
        #expect(try entry("preview.jpg", of: url) == first)
        try GalleryDocument.modify(at: url) { try $0.edit { try $0.remove(atOffsets: [4]) } }
        #expect(try entry("preview.jpg", of: url) == first)

        // Moving another image to the front makes a new one; undoing brings the old one back.
        try GalleryDocument.modify(at: url) { try $0.edit { try $0.move(fromOffsets: [3], toOffset: 0) } }
        let moved = try #require(try entry("preview.jpg", of: url))
        #expect(moved != first)
        try GalleryDocument.modify(at: url) { try $0.undo() }
        #expect(try entry("preview.jpg", of: url) == first)
    }

    @Test func cachingMakesTheThumbnailsAnOlderWriterLeftOut() throws {
        // Written by Python's zipfile: two cached images, no thumbnails, no preview.
        let url = folder.path("old.gallery")
        try FileManager.default.copyItem(at: Repository.examples.appendingPathComponent("valid/cached-python-zipfile.gallery"), to: url)
        try GalleryDocument.modify(at: url) { document in
            try document.cacheImages(atOffsets: Array(document.gallery.images.indices))
        }
        let document = try GalleryDocument(contentsOf: url)
        for image in document.gallery.images {
            let name = try #require(image.thumbnail)
            let thumbnail = try size(of: try #require(try entry(name, of: url)))
            #expect(max(thumbnail.width, thumbnail.height) == 256)
        }
        #expect(try entry("preview.jpg", of: url) != nil)
        #expect(try BundleVerifier.verify(url).revisions == 1)
    }

    @Test func noThumbnailsMeansNoPreview() throws {
        let url = folder.path("Plain.gallery")
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Plain"))
        try document.insertImages(fromFiles: Array(Repository.sampleImageFiles().prefix(2)), cache: false)
        try document.save()
        #expect(try !BundleReader.open(url).contents.contains("preview.jpg"))
        #expect(try GalleryDocument(contentsOf: url).gallery.images.allSatisfy { $0.thumbnail == nil })
    }

    @Test func thumbnailsTravelWithCopiedImages() throws {
        let source = try makeDocument(Array(Repository.sampleImageFiles().prefix(2)))
        let destination = folder.path("Copy.gallery")
        var empty = GalleryDocument(creating: destination, gallery: Gallery(title: "Copy"))
        try empty.save()
        try GalleryDocument.transferImages(atOffsets: [1], from: source, to: destination)
        let copied = try #require(try GalleryDocument(contentsOf: destination).gallery.images.first)
        let name = try #require(copied.thumbnail)
        #expect(try entry(name, of: destination) == entry(name, of: source))
        #expect(try entry("preview.jpg", of: destination) != nil)
    }
}
