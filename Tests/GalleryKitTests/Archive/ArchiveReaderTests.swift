import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// A streaming reader reads its file's blocks itself (no `archive_read_open_fd`).
@Suite struct ArchiveReaderTests {
    let folder = TemporaryFolder()

    /// A manifest of many blocks (300 images with their own captions: over 4 KiB deflated)
    /// is read whole, block after block, from the start of the file.
    @Test func streamsAManifestOfManyBlocks() throws {
        let images = (0..<300).map { index in
            GalleryImage(
                url: URL(string: "https://images.example.org/\(index)/\(UUID()).jpg")!, aspectRatio: 1.5,
                caption: "Caption \(index) \(UUID())")
        }
        let url = folder.path("many.gallery")
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Many", images: images))
        try document.save()
        // Nothing but the mimetype and the manifest, deflated: several blocks of 4 KiB.
        #expect(try #require(FileLocation.status(of: url)).st_size > 3 * 4096)
        let reader = try ArchiveReader(fileDescriptor: open(url.path, O_RDONLY), access: .streaming)
        #expect(try reader.nextEntry()?.name == "mimetype")
        #expect(try reader.nextEntry()?.name == "manifest.json")
        let manifest = try reader.readData(maximumBytes: 1 << 24, inflation: BundleLimits.standard.inflation)
        #expect(manifest.count > 40_000)
        #expect(try BundleReader.summary(of: url).images.map(\.caption) == images.map(\.caption))
    }

    /// A file that cannot be read is reported with the system's reason.
    @Test func reportsWhyItCouldNotReadTheFile() throws {
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0)
        let error = try #require(throws: GalleryError.self) { try ArchiveReader(fileDescriptor: descriptor, access: .streaming) }
        #expect(error.code == .ioFailure)
        #expect(error.reason == "not a readable zip archive: is a directory")
    }
}
