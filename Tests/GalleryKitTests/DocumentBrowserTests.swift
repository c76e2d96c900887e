import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

@Suite struct DocumentBrowserTests {
    let folder = TemporaryFolder()

    func save(_ name: String, title: String, images: Int, in subfolder: String? = nil) throws {
        var location = folder.url
        if let subfolder {
            location = location.appendingPathComponent(subfolder)
            try FileManager.default.createDirectory(at: location, withIntermediateDirectories: true)
        }
        let files = try folder.distinctImages(images, from: Repository.sampleImage(".jpg"))
        var document = GalleryDocument(creating: location.appendingPathComponent(name), gallery: Gallery(title: title))
        try document.insertImages(fromFiles: files, cache: true)
        try document.save()
    }

    @Test func listsDocumentsAndDamagedOnesWithTheirError() throws {
        try save("b.gallery", title: "Harbour walk", images: 2)
        try save("a.gallery", title: "Zoo", images: 1)
        try Data("garbage".utf8).write(to: folder.path("broken.gallery"))
        try Data("ignored".utf8).write(to: folder.path("notes.txt"))

        let listing = try DocumentBrowser().documents(in: folder.url).sorted(by: .name)
        #expect(listing.map(\.name) == ["a", "b", "broken"])
        #expect(listing[1].title == "Harbour walk")
        #expect(listing[1].imageCount == 2)
        #expect(listing[1].cachedImageCount == 2)
        #expect(listing[2].error?.code == .damagedDocument)
        #expect(listing[2].title == nil)
    }

    @Test func sortsSearchesAndRecurses() throws {
        try save("small.gallery", title: "Small", images: 1)
        try save("large.gallery", title: "Large harbour", images: 3)
        try save("deep.gallery", title: "Deep", images: 2, in: "nested")

        let browser = DocumentBrowser()
        #expect(try browser.documents(in: folder.url).sorted(by: .images, reverse: true).map(\.name) == ["large", "small"])
        #expect(try browser.documents(in: folder.url, recursive: true).sorted(by: .images).map(\.name) == ["small", "deep", "large"])
        #expect(try browser.documents(in: folder.url, search: "HARBOUR").map(\.name) == ["large"])
        #expect(try browser.documents(in: folder.url, search: "nothing like it").isEmpty)
    }

    @Test func readsOnlyTheFirstTwoEntries() throws {
        try save("doc.gallery", title: "Doc", images: 1)
        // Damage everything after the manifest: a listing must not notice.
        let url = folder.path("doc.gallery")
        var bytes = try Data(contentsOf: url)
        let images = try #require(bytes.range(of: Data("images/".utf8)))
        bytes.replaceSubrange(images.lowerBound..<bytes.count, with: Data(repeating: 0xEE, count: bytes.count - images.lowerBound))
        try bytes.write(to: url)
        let listing = try DocumentBrowser().documents(in: folder.url)
        #expect(listing.first?.title == "Doc")
        #expect(listing.first?.error == nil)
        #expect(throws: GalleryError.self) { try GalleryDocument(contentsOf: url) }
    }

    @Test func aMissingFolderIsAnError() throws {
        let error = #expect(throws: GalleryError.self) { try DocumentBrowser().documents(in: folder.path("nope")) }
        #expect(error?.code == .fileNotFound)
    }
}
