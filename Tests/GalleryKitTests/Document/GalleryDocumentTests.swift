import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

@Suite struct GalleryDocumentTests {
    let folder = TemporaryFolder()

    /// A saved document with `count` distinct cached images.
    func makeDocument(_ name: String = "Trip.gallery", images count: Int = 3, cache: Bool = true) throws -> URL {
        let url = folder.path(name)
        let files = try folder.distinctImages(count, from: Repository.sampleImage(".jpg"))
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Trip"))
        try document.insertImages(fromFiles: files, cache: cache)
        document.clearHistory()
        try document.save()
        return url
    }

    func entryNames(_ url: URL) throws -> [String] {
        try BundleReader.open(url).contents.names
    }

    @Test func savesAndOpensWithTheSpecsEntryOrder() throws {
        let url = try makeDocument()
        let document = try GalleryDocument(contentsOf: url)
        #expect(document.gallery.title == "Trip")
        #expect(document.gallery.images.count == 3)
        #expect(document.gallery.images.allSatisfy { $0.isCached })
        let names = try entryNames(url)
        #expect(Array(names.prefix(3)) == ["mimetype", "manifest.json", "preview.jpg"])
        let rest = names.dropFirst(3).map { $0.split(separator: "/").first.map(String.init) ?? "" }
        #expect(rest == Array(repeating: "images", count: 3) + Array(repeating: "thumbnails", count: 3))
        #expect(try BundleVerifier.verify(url).cachedImages == 3)
    }

    @Test func refusesToCreateOverAnExistingFile() throws {
        let url = try makeDocument()
        let before = try Data(contentsOf: url)
        var second = GalleryDocument(creating: url, gallery: Gallery(title: "Other"))
        let error = #expect(throws: GalleryError.self) { try second.save() }
        #expect(error?.code == .alreadyExists)
        #expect(try Data(contentsOf: url) == before)
        #expect(folder.listing().filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// A save after an edit writes the gallery as it is in memory, with this save's date and
    /// generator (the manifest tree the edit built is reused for them, not rebuilt).
    @Test func aSavedEditReadsBackAsTheGalleryInMemory() throws {
        let url = folder.path("Written elsewhere.gallery")
        try RawZip.write(
            TestManifest.entries(TestManifest.object(images: [TestManifest.image(index: 1), TestManifest.image(index: 2)])), to: url)
        var document = try GalleryDocument(contentsOf: url)
        #expect(document.gallery.generator == "tests")
        try document.edit { try $0.move(fromOffsets: [1], toOffset: 0) }
        try document.save()
        let reopened = try GalleryDocument(contentsOf: url).gallery
        #expect(reopened == document.gallery)
        #expect(reopened.generator == GalleryKitVersion.generator)
        #expect(abs(reopened.modified.timeIntervalSinceNow) < 60)
    }

    @Test func undoAndRedoSurviveReopening() throws {
        let url = try makeDocument()
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "One" } }
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Two" } }
        try GalleryDocument.modify(at: url) { try $0.undo() }
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "One")
        try GalleryDocument.modify(at: url) { try $0.undo() }
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "Trip")
        try GalleryDocument.modify(at: url) { try $0.redo() }
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "One")
        // A new edit clears the redo side.
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Three" } }
        let document = try GalleryDocument(contentsOf: url)
        #expect(!document.canRedo)
        #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.redo() } }
    }

    @Test func undoingARemovalBringsTheCachedBytesBack() throws {
        let url = try makeDocument(images: 2)
        let removed = try GalleryDocument(contentsOf: url).gallery.images[0]
        try GalleryDocument.modify(at: url) { try $0.edit { try $0.remove(atOffsets: [0]) } }
        try GalleryDocument.modify(at: url) { try $0.undo() }
        let restored = try GalleryDocument(contentsOf: url).gallery.images[0]
        #expect(restored == removed)
        #expect(try BundleVerifier.verify(url).cachedImages == 2)
    }

    @Test func keepsABoundedHistoryAndDropsBytesNoRevisionNeeds() throws {
        let url = try makeDocument(images: 2)
        let dropped = try #require(try GalleryDocument(contentsOf: url).gallery.images[0].cached?.path)
        try GalleryDocument.modify(at: url) { try $0.edit { try $0.remove(atOffsets: [0]) } }
        #expect(try entryNames(url).contains(dropped))
        for number in 1...BundleLimits.standard.maximumRevisions {
            try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Edit \(number)" } }
        }
        let names = try entryNames(url)
        #expect(names.filter { $0.hasPrefix("history/undo/") }.count == BundleLimits.standard.maximumRevisions)
        #expect(!names.contains(dropped))
        #expect(try BundleVerifier.verify(url).revisions == BundleLimits.standard.maximumRevisions)
    }

    @Test func entryTimestampsAreTheManifestsModifiedDate() throws {
        let url = try makeDocument()
        let modified = try GalleryDocument(contentsOf: url).gallery.modified
        // The DOS time of the first local header (offsets 10 and 12), read in UTC.
        let bytes = [UInt8](try Data(contentsOf: url).prefix(14))
        let time = Int(bytes[10]) | Int(bytes[11]) << 8
        let date = Int(bytes[12]) | Int(bytes[13]) << 8
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: modified)
        #expect(date >> 9 + 1980 == parts.year)
        #expect((date >> 5) & 0xF == parts.month)
        #expect(date & 0x1F == parts.day)
        #expect(time >> 11 == parts.hour)
        #expect((time >> 5) & 0x3F == parts.minute)
        #expect((time & 0x1F) * 2 == parts.second! / 2 * 2)
    }

    @Test func refusesToOverwriteADocumentChangedSinceItWasOpened() throws {
        let url = try makeDocument()
        var stale = try GalleryDocument(contentsOf: url)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Saved elsewhere" } }
        try stale.edit { $0.title = "Stale" }
        let error = #expect(throws: GalleryError.self) { try stale.save() }
        #expect(error?.code == .documentChanged)
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "Saved elsewhere")
    }

    /// Another program rewrote the file in place with the same size and set its modification
    /// time back: only the status-change time tells. The save refuses rather than lose that
    /// program's bytes, and the version tag moves.
    @Test func refusesToOverwriteASameSizeRewriteWhoseModificationTimeWasRestored() throws {
        let url = try makeDocument()
        var stale = try GalleryDocument(contentsOf: url)
        let tag = GalleryDocument.versionTag(ofFileAt: url)
        let before = try #require(FileLocation.status(of: url))
        let rewritten = try Data(contentsOf: url)
        // Rewritten until the file system's clock has moved past the save's status-change time
        // (its ticks are a few milliseconds): the same bytes, the modification time restored.
        var after = before
        while after.changedNanoseconds == before.changedNanoseconds {
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: rewritten)
            try handle.close()
            try #require(utimensat(AT_FDCWD, url.path, before.accessAndModificationTimes, 0) == 0)
            after = try #require(FileLocation.status(of: url))
        }
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.modifiedNanoseconds == before.modifiedNanoseconds)

        #expect(GalleryDocument.versionTag(ofFileAt: url) != tag)
        try stale.edit { $0.title = "Stale" }
        let error = #expect(throws: GalleryError.self) { try stale.save() }
        #expect(error?.code == .documentChanged)
    }

    /// A document's own save leaves it savable again: the identity it keeps is the file's after
    /// the rename, which changes the status-change time.
    @Test func savesTwiceWithoutReopening() throws {
        let url = try makeDocument()
        var document = try GalleryDocument(contentsOf: url)
        try document.edit { $0.title = "Once" }
        try document.save()
        try document.edit { $0.title = "Twice" }
        try document.save()
        #expect(try GalleryDocument(contentsOf: url).gallery.title == "Twice")
        #expect(GalleryDocument.versionTag(ofFileAt: url).hasSuffix("-\(try #require(FileLocation.status(of: url)).changedNanoseconds)"))
    }
    @Test func waitsForTheLockThenFailsAsBusy() throws {
        let url = try makeDocument()
        var lock: FileLock? = try FileLock(forDocumentAt: url, timeout: .seconds(1))
        let error = #expect(throws: GalleryError.self) {
            try GalleryDocument.modify(at: url, lockTimeout: .milliseconds(200)) { try $0.edit { $0.title = "x" } }
        }
        #expect(error?.code == .busy)
        #expect(lock != nil)
        lock = nil
        try GalleryDocument.modify(at: url, lockTimeout: .milliseconds(200)) { try $0.edit { $0.title = "x" } }
    }

    @Test func concurrentEditorsInOneProcessKeepEveryEdit() throws {
        let url = try makeDocument(images: 0)
        let files = try folder.distinctImages(16, from: Repository.sampleImage(".jpg"))
        let failures = NSLock()
        nonisolated(unsafe) var errors: [any Error] = []
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            do {
                try GalleryDocument.modify(at: url, lockTimeout: .seconds(30)) { try $0.insertImages(fromFiles: [files[index]]) }
            } catch {
                failures.withLock { errors.append(error) }
            }
        }
        #expect(errors.isEmpty)
        let urls = Set(try GalleryDocument(contentsOf: url).gallery.images.map(\.url))
        #expect(urls == Set(files.map(\.standardizedFileURL)))
    }

    @Test func refusesToStoreAFileThatChangedAfterItWasHashed() throws {
        let url = try makeDocument(images: 1)
        let before = try Data(contentsOf: url)
        let file = try #require(try folder.distinctImages(2, from: Repository.sampleImage(".jpg")).last)
        var document = try GalleryDocument(contentsOf: url)
        try document.insertImages(fromFiles: [file], cache: true)
        var changed = try Data(contentsOf: file)
        changed[changed.count - 1] ^= 0xFF
        try changed.write(to: file)

        let error = #expect(throws: GalleryError.self) { try document.save() }
        #expect(error?.code == .ioFailure)
        #expect(error?.path == file.path)
        #expect(try Data(contentsOf: url) == before)
        #expect(!folder.listing().contains { $0.contains(".tmp-") })
    }

    @Test func removesTemporaryFilesAKilledWriterLeft() throws {
        let url = try makeDocument()
        let stale = folder.path(".Trip.gallery.tmp-killedwriter")
        try Data("half a zip".utf8).write(to: stale)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Next" } }
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    @Test func copiesImagesWithTheirBytesBetweenDocuments() throws {
        let source = try makeDocument("Source.gallery", images: 3)
        let destination = try makeDocument("Destination.gallery", images: 1)
        let originals = try GalleryDocument(contentsOf: source).gallery.images
        try GalleryDocument.transferImages(atOffsets: [0, 2], from: source, to: destination, at: 0)
        let copied = try GalleryDocument(contentsOf: destination).gallery.images
        #expect(copied.count == 3)
        #expect(copied.prefix(2).map(\.cached) == [originals[0].cached, originals[2].cached])
        #expect(Set(copied.map(\.id)).isDisjoint(with: originals.map(\.id)))
        // Both documents were made from the same numbered files: equal bytes are stored once.
        let digests = Set(copied.compactMap(\.cached?.sha256))
        #expect(digests.count == 2)
        #expect(try BundleVerifier.verify(destination).cachedImages == digests.count)
        #expect(try GalleryDocument(contentsOf: source).gallery.images.count == 3)

        try GalleryDocument.transferImages(atOffsets: [1], from: source, to: destination, removingFromSource: true)
        #expect(try GalleryDocument(contentsOf: source).gallery.images.map(\.id) == [originals[0].id, originals[2].id])
        #expect(try GalleryDocument(contentsOf: destination).gallery.images.last?.cached == originals[1].cached)
    }

    @Test func cachesAndUncachesLocalImages() throws {
        let url = try makeDocument(images: 2, cache: false)
        #expect(try entryNames(url).filter { $0.hasPrefix("images/") }.isEmpty)
        try GalleryDocument.modify(at: url) { try $0.cacheImages(atOffsets: [1]) }
        let document = try GalleryDocument(contentsOf: url)
        #expect(document.gallery.images.map(\.isCached) == [false, true])
        try GalleryDocument.modify(at: url) { try $0.uncacheImages(atOffsets: [1]) }
        #expect(try GalleryDocument(contentsOf: url).gallery.images.map(\.isCached) == [false, false])
        // The bytes stay while the undo history still refers to them.
        #expect(try entryNames(url).contains { $0.hasPrefix("images/") })
    }

    @Test func addingAFileThatIsNotAnImageChangesNothing() throws {
        let url = try makeDocument()
        let before = try Data(contentsOf: url)
        let text = folder.path("notes.jpg")
        try Data("hello".utf8).write(to: text)
        let error = #expect(throws: GalleryError.self) { try GalleryDocument.modify(at: url) { try $0.insertImages(fromFiles: [text]) } }
        #expect(error?.code == .notAnImage)
        #expect(error?.path == text.path)
        #expect(try Data(contentsOf: url) == before)
    }
}
