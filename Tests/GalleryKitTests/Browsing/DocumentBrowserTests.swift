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

    /// Names in the order people expect: numbers by value, case ignored, digits anywhere.
    static let naturalOrders: [[String]] = [
        ["Trip 2", "Trip 10"],
        ["trip 3", "Trip 20"],
        ["Trip 3", "trip 20"],
        ["IMG2a", "img10a"],
        ["day 1 evening 2", "Day 1 morning", "Day 9", "Day 10 evening"],
        ["a", "B", "c"],
        ["Trip 2 part 9", "Trip 2 part 10", "Trip 10 part 1"],
        ["File 007", "File 8", "File 10"],
        ["Élan", "Zoo"],
    ]

    @Test(arguments: naturalOrders)
    func sortsNamesNaturally(expected: [String]) throws {
        let summaries = expected.reversed().map { DocumentSummary(url: folder.path("\($0).gallery"), name: $0, bytes: 0) }
        #expect(summaries.sorted(by: .name).map(\.name) == expected)
        #expect(summaries.shuffled().sorted(by: .name).map(\.name) == expected)
        #expect(summaries.sorted(by: .name, reverse: true).map(\.name) == expected.reversed())
    }

    @Test func sortsNamesNaturallyInAListing() throws {
        for name in ["Trip 10", "trip 3", "Trip 2", "Trip 20"] {
            try RawZip.write(TestManifest.entries(TestManifest.object(title: name)), to: folder.path("\(name).gallery"))
        }
        #expect(
            try DocumentBrowser().documents(in: folder.url).sorted(by: .name).map(\.name) == ["Trip 2", "trip 3", "Trip 10", "Trip 20"])
    }

    @Test func listsWithoutAnIndexUnlessGivenOne() throws {
        try save("a.gallery", title: "Alpha", images: 1)
        let listing = try DocumentBrowser().listing(in: folder.url, recursive: false, search: nil)
        #expect(!listing.isIndexed)
        #expect(listing.readCount == 1)
        #expect(try DocumentBrowser().listing(in: folder.url, recursive: false, search: nil).readCount == 1)
    }

    @Test func aMissingFolderIsAnError() throws {
        let error = #expect(throws: GalleryError.self) { try DocumentBrowser().documents(in: folder.path("nope")) }
        #expect(error?.code == .fileNotFound)
    }
}
