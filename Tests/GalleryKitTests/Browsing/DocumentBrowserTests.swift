import Foundation
import GalleryTestSupport
import PropertyBased
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
        // Damage everything after the manifest but the archive's last 22 bytes (its end record,
        // which tells a document cut short): a listing must not notice.
        let url = folder.path("doc.gallery")
        var bytes = try Data(contentsOf: url)
        let images = try #require(bytes.range(of: Data("images/".utf8)))
        let end = bytes.count - 22
        bytes.replaceSubrange(images.lowerBound..<end, with: Data(repeating: 0xEE, count: end - images.lowerBound))
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

    /// Sorting in place (following the order's cycles) keeps every summary once, in the order
    /// each key sets: damaged ones last, then by the key, equal keys by name.
    @Test func sortingInPlaceKeepsEverySummaryInOrder() async {
        let names = ["a", "A", "b", "Trip 2", "trip 2", "Trip 10", "Élan"]
        let summary = zip(Gen.int(in: 0..<names.count), Gen.int(in: 0...3), Gen.int(in: 0...5), Gen.int(in: 0...999))
            .map { nameIndex, size, images, serial -> DocumentSummary in
                var summary = DocumentSummary(
                    url: URL(filePath: "/g/\(serial)/\(names[nameIndex]).gallery"), name: names[nameIndex], bytes: Int64(size))
                summary.imageCount = images
                summary.modified = Date(timeIntervalSince1970: Double(size * 1000))
                if images == 5 { summary.error = GalleryError(.damagedDocument, "damaged") }
                return summary
            }
        await propertyCheck(count: 200, input: summary.array(of: 0...40), Gen.bool) { summaries, reverse in
            for key in DocumentSummary.SortKey.allCases {
                var sorted = summaries
                sorted.sort(by: key, reverse: reverse)
                #expect(sorted.map(\.url.path).sorted() == summaries.map(\.url.path).sorted())
                for (first, second) in zip(sorted, sorted.dropFirst()) {
                    if first.error != nil { #expect(second.error != nil) }
                    guard (first.error == nil) == (second.error == nil) else { continue }
                    let values = [first, second].map { summary -> Double in
                        switch key {
                        case .name: 0
                        case .modified, .created:
                            (key == .modified ? summary.modified : summary.created)?.timeIntervalSinceReferenceDate ?? -.infinity
                        case .size: Double(summary.bytes)
                        case .images: Double(summary.imageCount ?? 0)
                        }
                    }
                    if values[0] != values[1] { #expect((values[0] < values[1]) != reverse) }
                }
            }
        }
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
