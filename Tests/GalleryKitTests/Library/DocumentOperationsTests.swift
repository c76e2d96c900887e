import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// New, duplicate and rename: the names they pick and the rules they keep.
@Suite struct DocumentOperationsTests {
    let folder = TemporaryFolder()

    func names() -> [String] { folder.listing().filter { !$0.hasPrefix(".") } }

    @Test(arguments: [
        ("Trip", "Trip copy"), ("Trip copy", "Trip copy"), ("Trip copy 3", "Trip copy"), ("Trip 3", "Trip 3 copy"),
        (" copy", " copy copy"), ("copy", "copy copy"), ("Trip copy x", "Trip copy x copy"), ("Été", "Été copy"),
    ])
    func copiesAreNamedAsFinderNamesThem(_ stem: String, _ expected: String) {
        #expect(String(decoding: FreeName.copyStem(of: Array(stem.utf8)), as: UTF8.self) == expected)
    }

    @Test(arguments: [
        ("Summer trip", "Summer trip"), ("a/b", "a-b"), (".hidden", "hidden"), ("", "Untitled"), ("  ", "Untitled"),
        ("...", "Untitled"), ("tab\there", "tabhere"),
    ])
    func titlesBecomeSafeStems(_ title: String, _ expected: String) {
        #expect(String(decoding: FreeName.stem(forTitle: title), as: UTF8.self) == expected)
    }

    @Test func longTitlesAreCutAtACharacterBoundary() {
        let stem = FreeName.stem(forTitle: String(repeating: "日", count: 100))  // 300 bytes of UTF-8
        #expect(stem.count <= FreeName.maximumStemBytes)
        #expect(String(validating: stem, as: UTF8.self) == String(repeating: "日", count: 66))
    }

    @Test func extensionIsRecognisedInAnyCase() {
        #expect(FreeName.hasDocumentExtension(Array("a.gallery".utf8)))
        #expect(FreeName.hasDocumentExtension(Array("a.GALLERY".utf8)))
        #expect(!FreeName.hasDocumentExtension(Array(".gallery".utf8)))
        #expect(!FreeName.hasDocumentExtension(Array("a.gallery.txt".utf8)))
    }

    @Test func newDocumentsTakeTheFirstFreeNumber() throws {
        var made: [String] = []
        for _ in 0..<3 { made.append(try GalleryDocument.createDocument(in: folder.url).url.lastPathComponent) }
        #expect(made == ["Untitled.gallery", "Untitled 2.gallery", "Untitled 3.gallery"])
        // A gap is filled; a dangling link or a folder also takes a name.
        try FileManager.default.removeItem(at: folder.path("Untitled 2.gallery"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("Untitled 2.gallery").path, withDestinationPath: "missing")
        try FileManager.default.createDirectory(at: folder.path("Untitled 4.gallery"), withIntermediateDirectories: false)
        #expect(try GalleryDocument.createDocument(in: folder.url).url.lastPathComponent == "Untitled 5.gallery")
        let opened = try GalleryDocument(contentsOf: folder.path("Untitled 5.gallery"))
        #expect(opened.gallery.title == "Untitled 5")
        #expect(opened.gallery.images.isEmpty)
    }

    @Test func aTitleNamesTheFileAndKeepsItsText() throws {
        let first = try GalleryDocument.createDocument(in: folder.url, title: "Rome/Naples")
        let second = try GalleryDocument.createDocument(in: folder.url, title: "Rome/Naples")
        #expect([first.url.lastPathComponent, second.url.lastPathComponent] == ["Rome-Naples.gallery", "Rome-Naples 2.gallery"])
        #expect(try GalleryDocument(contentsOf: second.url).gallery.title == "Rome/Naples")
    }

    @Test func aMissingFolderOrAFileIsCannotCreate() throws {
        try Data().write(to: folder.path("notes.txt"))
        for target in [folder.path("missing"), folder.path("notes.txt")] {
            #expect(galleryErrorCode { try GalleryDocument.createDocument(in: target) } == .cannotCreate)
        }
    }

    @Test func theCopyIsANewDocumentWithTheSameImages() throws {
        let files = try folder.distinctImages(2, from: Repository.sampleImage(".jpg"))
        var original = GalleryDocument(creating: folder.path("Trip.gallery"), gallery: Gallery(title: "Trip"))
        try original.insertImages(fromFiles: files, cache: true)
        try original.save()
        try original.edit { $0.title = "Trip!" }
        try original.save()
        #expect(original.canUndo)

        let copy = try GalleryDocument.duplicateDocument(at: original.url)
        #expect(copy.lastPathComponent == "Trip copy.gallery")
        let opened = try GalleryDocument(contentsOf: copy)
        #expect(opened.gallery.id != original.gallery.id)
        #expect(opened.gallery.title == "Trip!")
        #expect(opened.gallery.images == original.gallery.images)
        #expect(!opened.canUndo, "the copy starts with no history")
        #expect(try BundleVerifier.verify(copy).cachedImages == 2)

        #expect(try GalleryDocument.duplicateDocument(at: original.url).lastPathComponent == "Trip copy 2.gallery")
        #expect(try GalleryDocument.duplicateDocument(at: copy).lastPathComponent == "Trip copy 3.gallery")
        // The original is untouched.
        #expect(try GalleryDocument(contentsOf: original.url).gallery.id == original.gallery.id)
    }

    @Test func renameKeepsTheFolderAndTheExtension() throws {
        let document = try GalleryDocument.createDocument(in: folder.url, title: "Trip")
        let renamed = try GalleryDocument.renameDocument(at: document.url, to: "Summer")
        #expect(renamed.lastPathComponent == "Summer.gallery")
        #expect(renamed.deletingLastPathComponent().path == folder.url.path)
        #expect(try GalleryDocument.renameDocument(at: renamed, to: "Été 2024.gallery").lastPathComponent == "Été 2024.gallery")
        #expect(names() == ["Été 2024.gallery"])
        // Renaming to its own name changes nothing.
        let same = folder.path("Été 2024.gallery")
        #expect(try GalleryDocument.renameDocument(at: same, to: "Été 2024").lastPathComponent == "Été 2024.gallery")
    }

    @Test(arguments: [
        "a/b", "/abs", #"a\b"#, "", "   ", ".", "..", ".gallery", ".hidden", "tab\tname", "nul\u{0}",
        String(repeating: "x", count: 250),
    ])
    func renameRefusesNamesThatAreNotAFileInTheFolder(_ name: String) throws {
        let document = try GalleryDocument.createDocument(in: folder.url, title: "Trip")
        #expect(galleryErrorCode { try GalleryDocument.renameDocument(at: document.url, to: name) } == .invalidArgument)
        #expect(names() == ["Trip.gallery"])
    }

    @Test func renameNeverReplacesAFile() throws {
        let trip = try GalleryDocument.createDocument(in: folder.url, title: "Trip")
        let other = try GalleryDocument.createDocument(in: folder.url, title: "Other")
        let before = try Data(contentsOf: other.url)
        #expect(galleryErrorCode { try GalleryDocument.renameDocument(at: trip.url, to: "Other") } == .alreadyExists)
        #expect(try Data(contentsOf: other.url) == before)
        #expect(names() == ["Other.gallery", "Trip.gallery"])
        #expect(galleryErrorCode { try GalleryDocument.renameDocument(at: folder.path("Gone.gallery"), to: "X") } == .fileNotFound)
    }

    /// The library keeps its own text limit on a new document's title, whoever calls it: the
    /// error says so and nothing is created.
    @Test func aNewDocumentsTitleIsHeldToTheTextLimit() throws {
        let title = String(repeating: "a", count: Gallery.maximumTextLength + 1)
        let error = #expect(throws: GalleryError.self) { try GalleryDocument.createDocument(in: folder.url, title: title) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason.contains("at most \(Gallery.maximumTextLength)") == true, "\(String(describing: error))")
        #expect(names().isEmpty)
        let longest = String(repeating: "a", count: Gallery.maximumTextLength)
        #expect(try GalleryDocument.createDocument(in: folder.url, title: longest).gallery.title == longest)
    }

    /// In a folder whose name is not UTF-8, duplicating and copying between documents lock that
    /// folder by its exact bytes: another holder of its lock makes them fail as busy, and without
    /// one they work. (They locked a look-alike made from `url.path`, which does not exist.)
    @Test(arguments: [false, true])
    func duplicateAndCopyLockAFolderWhoseNameIsNotUTF8(whileLocked isLocked: Bool) throws {
        let bad = URL(fileSystemPath: Array(folder.url.path.utf8) + Array("/caf".utf8) + [0xE9])
        try FileLocation.makeDirectory(bad, mode: 0o755)
        let trip = bad.appendingPathComponent("Trip.gallery"), other = bad.appendingPathComponent("Other.gallery")
        var document = GalleryDocument(creating: trip, gallery: Gallery(title: "Trip"))
        try document.insertImages(fromFiles: try folder.distinctImages(1, from: Repository.sampleImage(".jpg")), cache: true)
        try document.save()
        var empty = GalleryDocument(creating: other, gallery: Gallery(title: "Other"))
        try empty.save()

        let lock = isLocked ? try FileLock(folder: bad, naming: trip, timeout: .seconds(1)) : nil
        let timeout: Duration = .milliseconds(50)
        let duplicated = galleryErrorCode { try GalleryDocument.duplicateDocument(at: trip, lockTimeout: timeout) }
        let copied = galleryErrorCode {
            try GalleryDocument.transferImages(atOffsets: [0], from: trip, to: other, lockTimeout: timeout)
        }
        #expect(duplicated == (isLocked ? .busy : nil))
        #expect(copied == (isLocked ? .busy : nil))
        #expect(try GalleryDocument(contentsOf: other).gallery.images.count == (isLocked ? 0 : 1))
        withExtendedLifetime(lock) {}
    }

    @Test func renamingWithoutReplacingFailsWithEEXIST() throws {
        try Data("a".utf8).write(to: folder.path("a"))
        try Data("b".utf8).write(to: folder.path("b"))
        #expect(throws: SystemError.exists) { try FileLocation.renameWithoutReplacing(folder.path("a"), to: folder.path("b")) }
        #expect(try String(contentsOf: folder.path("b"), encoding: .utf8) == "b")
        try FileLocation.renameWithoutReplacing(folder.path("a"), to: folder.path("c"))
        #expect(folder.listing() == ["b", "c"])
    }
}

/// The code of the `GalleryError` that `body` throws; `nil` if it throws none.
func galleryErrorCode(_ body: () throws -> some Any) -> GalleryError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? GalleryError)?.code
    }
}
