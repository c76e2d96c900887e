import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// What a save must never do: write a document its own reader rejects, widen its permissions,
/// replace a link instead of the document, or hide why it failed.
@Suite struct SafeSaveTests {
    let folder = TemporaryFolder()

    func makeDocument(_ name: String = "Trip.gallery", limits: BundleLimits = .standard) throws -> URL {
        let url = folder.path(name)
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "T"), limits: limits)
        try document.save()
        return url
    }

    /// Limits whose manifest cap is the size of the document's manifest after setting `title`,
    /// plus `slack` bytes.
    func limits(fittingTitle title: String, of url: URL, slack: Int64) throws -> BundleLimits {
        var probe = try GalleryDocument(contentsOf: url).gallery
        probe.title = title
        probe.modified = Date.now.wholeSeconds
        probe.generator = GalleryKitVersion.generator
        var limits = BundleLimits.standard
        limits.maximumManifestBytes = Int64(try Manifest.encode(probe).count) + slack
        return limits
    }

    @Test(arguments: [0, -1])
    func aSaveAtTheManifestLimitWorksAndOneByteOverChangesNothing(slack: Int64) throws {
        let url = try makeDocument()
        let title = String(repeating: "t", count: 3000)
        let limits = try limits(fittingTitle: title, of: url, slack: slack)
        let before = try Data(contentsOf: url)
        let save = {
            try GalleryDocument.modify(at: url, limits: limits) { try $0.edit { $0.title = title } }
        }
        if slack >= 0 {
            try save()
            #expect(try GalleryDocument(contentsOf: url, limits: limits).gallery.title == title)
        } else {
            let error = #expect(throws: GalleryError.self) { try save() }
            #expect(error?.code == .limitExceeded)
            #expect(
                error?.description.hasPrefix(url.path + ": cannot save: manifest.json would be") == true, "\(String(describing: error))")
            #expect(error?.description.hasSuffix("the document is unchanged") == true)
            #expect(try Data(contentsOf: url) == before)
            #expect(folder.listing() == ["Trip.gallery"])
            // Still opens, with its history.
            #expect(try GalleryDocument(contentsOf: url, limits: limits).gallery.title == "T")
        }
    }

    @Test func aSaveOverTheImageLimitChangesNothing() throws {
        var limits = BundleLimits.standard
        limits.maximumImages = 2
        let url = try makeDocument(limits: limits)
        let images = (0..<3).map { GalleryImage(url: URL(string: "https://example.com/\($0).jpg")!, aspectRatio: 1) }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: GalleryError.self) {
            try GalleryDocument.modify(at: url, limits: limits) { try $0.edit { try $0.insert(contentsOf: images, at: 0) } }
        }
        #expect(error?.code == .limitExceeded)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anUndoRevisionOverTheLimitIsNotWritten() throws {
        // Another writer's manifest that leaves out the optional members GalleryKit writes as
        // null. Removing every image makes the manifest tiny, but the undo step must hold every
        // image, null members and patch operations included: more than the whole manifest was.
        let url = folder.path("Foreign.gallery")
        let images = (0..<20).map { index in
            TestManifest.image(index: index).filter { !($0.value is NSNull) }
        }
        let manifest = TestManifest.data(TestManifest.object(images: images))
        try RawZip.write([TestManifest.mimetype, RawZip.Entry("manifest.json", manifest, deflated: true)], to: url)
        var limits = BundleLimits.standard
        limits.maximumManifestBytes = Int64(manifest.count)
        let before = try Data(contentsOf: url)
        let error = #expect(throws: GalleryError.self) {
            try GalleryDocument.modify(at: url, limits: limits) { try $0.edit { _ = try $0.remove(atOffsets: 0..<20) } }
        }
        #expect(error?.reason.hasPrefix("cannot save: an undo revision would be") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test(arguments: [0o600, 0o640, 0o604])
    func aSaveKeepsThePermissionBits(mode: Int) throws {
        let url = try makeDocument()
        #expect(chmod(url.path, mode_t(mode)) == 0)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Private" } }
        var status = stat()
        #expect(stat(url.path, &status) == 0)
        #expect(Int(status.st_mode & 0o7777) == mode)
    }

    @Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
    func aSaveKeepsTheOwnerAndGroup() throws {
        let url = try makeDocument()
        #expect(chown(url.path, 4321, 8765) == 0)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Theirs" } }
        var status = stat()
        #expect(stat(url.path, &status) == 0)
        #expect(status.st_uid == 4321 && status.st_gid == 8765)
    }

    @Test func editingThroughASymbolicLinkEditsItsTarget() throws {
        let real = try makeDocument()
        let other = folder.path("links")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let link = other.appendingPathComponent("Shortcut.gallery")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../Trip.gallery")
        try GalleryDocument.modify(at: link) { try $0.edit { $0.title = "Through the link" } }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "../Trip.gallery")
        #expect(try GalleryDocument(contentsOf: real).gallery.title == "Through the link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["Shortcut.gallery"])
        // Undo through the link too.
        try GalleryDocument.modify(at: link) { try $0.undo() }
        #expect(try GalleryDocument(contentsOf: real).gallery.title == "T")
    }

    @Test func aFullDiskIsReportedAsSuch() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let error = #expect(throws: GalleryError.self) {
            let writer = try ArchiveWriter(fileDescriptor: descriptor)
            try writer.writeEntry(named: "images/a.jpg", data: Data(count: 2 << 20), modified: .now, compression: .stored)
            try writer.finish()
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.reason.contains("no space left on device") == true, "\(String(describing: error))")
    }

    @Test func pathsThatAreNotUTF8AreReadWithTheirBytes() throws {
        var name = Array(folder.url.path.utf8) + Array("/bad".utf8)
        name += [0xFF] + Array(".jpg".utf8)
        let image = URL(fileSystemPath: name)
        #expect(image.absoluteString.hasSuffix("/bad%FF.jpg"))
        let data = try Data(contentsOf: Repository.sampleImage(".jpg"))
        let descriptor = FileLocation.open(image, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        try #require(descriptor >= 0)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let url = folder.path("Bytes.gallery")
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Bytes"))
        try document.insertImages(fromFiles: [image], cache: true)
        try document.save()
        let saved = try GalleryDocument(contentsOf: url).gallery.images[0]
        #expect(saved.url.absoluteString == image.absoluteString)
        #expect(saved.cached?.bytes == Int64(data.count))
        #expect(saved.url.pathForDisplay.hasSuffix("/bad\\377.jpg"), "shown as ls -b shows it")
    }

    /// Paths as `ls -b` shows them: UTF-8 exactly (a backslash included); otherwise each byte
    /// that is not UTF-8 as three octal digits after a backslash, and backslashes doubled.
    @Test(arguments: [
        ("caf%C3%A9.gallery", "café.gallery", true),
        ("a%5Cb.gallery", "a\\b.gallery", true),
        ("caf%E9.gallery", "caf\\351.gallery", false),
        ("caf%E9%5C%C3%A9%F0%9F%8C%85.gallery", "caf\\351\\\\é🌅.gallery", false),
        ("%C3.gallery", "\\303.gallery", false),
        ("%F0%9F%8C.gallery", "\\360\\237\\214.gallery", false),
        ("%ED%A0%80.gallery", "\\355\\240\\200.gallery", false),
    ])
    func pathsAreShownAsLsShowsThem(encoded: String, shown: String, isUTF8: Bool) throws {
        let url = try #require(URL(string: "file:///tmp/" + encoded))
        #expect(url.pathForDisplay == "/tmp/" + shown)
        #expect(url.hasUTF8Path == isUTF8)
    }
}
