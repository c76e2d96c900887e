import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

@Suite struct ExportTests {
    let folder = TemporaryFolder()

    func document(cache: Bool) throws -> GalleryDocument {
        let files = try folder.distinctImages(3, from: Repository.sampleImage(".jpg"))
        var document = GalleryDocument(creating: folder.path("Trip.gallery"), gallery: Gallery(title: "Trip"))
        try document.insertImages(fromFiles: files, cache: cache)
        try document.save()
        try document.edit { $0.title = "Trip, edited" }
        try document.save()
        return document
    }

    @Test func bundleIsSelfContainedWithoutHistory() throws {
        let source = try document(cache: false)
        let output = folder.path("Share.gallery")
        try BundleExporter().export(source, to: output)
        let exported = try GalleryDocument(contentsOf: output)
        #expect(exported.gallery.images.allSatisfy { $0.isCached })
        #expect(!exported.canUndo)
        #expect(exported.gallery.title == "Trip, edited")
        #expect(try BundleVerifier.verify(output).cachedImages == 3)
        #expect(try BundleReader.open(output).contents.names.allSatisfy { !$0.hasPrefix("history/") })
    }

    @Test func folderHoldsTheImagesInOrder() throws {
        let source = try document(cache: true)
        let output = folder.path("Images")
        try FolderExporter().export(source, to: output)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(names == ["001-image-0.jpg", "002-image-1.jpg", "003-image-2.jpg"])
        for (name, image) in zip(names, source.gallery.images) {
            #expect(try ContentHash.ofFile(at: output.appendingPathComponent(name)).sha256 == image.cached?.sha256)
        }
    }

    @Test(arguments: ["bundle", "folder"])
    func refusesAnExistingOutputAndLeavesNothingOnFailure(format: String) throws {
        let source = try document(cache: false)
        let exporter: any DocumentExporter = format == "bundle" ? BundleExporter() : FolderExporter()
        let existing = folder.path("exists")
        try Data("mine".utf8).write(to: existing)
        let error = #expect(throws: GalleryError.self) { try exporter.export(source, to: existing) }
        #expect(error?.code == .alreadyExists)
        #expect(try Data(contentsOf: existing) == Data("mine".utf8))

        // An uncached image whose file is gone: the export fails and leaves nothing behind.
        try FileManager.default.removeItem(at: source.gallery.images[1].url)
        let before = folder.listing()
        #expect(throws: GalleryError.self) { try exporter.export(source, to: folder.path("out")) }
        #expect(folder.listing() == before)
    }
}
