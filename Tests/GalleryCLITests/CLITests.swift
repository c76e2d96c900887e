import Foundation
import GalleryTestSupport
import Testing

/// The `gallery` binary end to end: output, exit statuses, and what is left on disk. This file:
/// making, opening and editing documents; failures and outputs are in `CLITests+…`.
@Suite struct CLITests {
    let folder = TemporaryFolder()

    func gallery(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try Command.gallery(arguments, in: folder.url, environment: environment)
    }

    /// A document made of `count` distinct copies of a sample JPEG.
    func makeDocument(_ name: String = "Trip.gallery", images count: Int = 3, cache: Bool = true) throws {
        let files = try folder.distinctImages(count, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let result = try Command.gallery(["create", name, "--title", "Trip"] + (cache ? ["--cache"] : []) + files, in: folder.url)
        try #require(result.status == 0, "\(result)")
    }

    func openJSON(_ name: String = "Trip.gallery") throws -> [String: Any] {
        let result = try gallery("open", name, "--json")
        try #require(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    func images(_ name: String = "Trip.gallery") throws -> [[String: Any]] {
        try openJSON(name)["images"] as? [[String: Any]] ?? []
    }

    @Test func createsAndOpensADocument() throws {
        try makeDocument()
        let json = try openJSON()
        #expect(json["title"] as? String == "Trip")
        #expect(json["columns"] as? Int == 3)
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.count == 3)
        #expect(images.map { $0["index"] as? Int } == [1, 2, 3])
        #expect(images.allSatisfy { $0["cached"] as? Bool == true && ($0["sha256"] as? String)?.count == 64 })
        for key in ["path", "id", "created", "modified"] { #expect(json[key] != nil, "\(key)") }
        for key in ["id", "url", "aspectRatio", "width", "height", "status", "error", "caption"] {
            #expect(images[0].keys.contains(key), "\(key)")
        }

        let table = try gallery("open", "Trip.gallery")
        #expect(table.status == 0)
        #expect(table.output.contains("Trip"))
        #expect(table.output.contains("image-2.jpg"))
    }

    /// Images are encoded in blocks on several threads: every one must come out once, in order,
    /// with its own fields, across the blocks' boundaries.
    @Test func listsAManyThousandImageDocumentInOrder() throws {
        let count = 5_000
        let written = (0..<count).map { index in
            var image = TestManifest.image(index: index)
            if index % 1000 == 999 { image["caption"] = "line \(index)\n\"quoted\" ☀" }
            return image
        }
        try RawZip.write(TestManifest.entries(TestManifest.object(title: "Many", images: written)), to: folder.path("Many.gallery"))
        let listed = try images("Many.gallery")
        #expect(listed.count == count)
        #expect(listed.map { $0["index"] as? Int } == Array(1...count))
        #expect(listed.map { $0["id"] as? String } == written.map { $0["id"] as? String })
        #expect(listed.map { $0["url"] as? String } == written.map { $0["url"] as? String })
        #expect(listed[1999]["caption"] as? String == "line 1999\n\"quoted\" ☀")
        #expect(listed[2000]["caption"] is NSNull)
    }

    @Test func showsTheDisplayedSizeOfARotatedPhoto() throws {
        let sideways = Repository.sampleImage("exif6")
        let result = try gallery("create", "Rotated.gallery", sideways.path)
        try #require(result.status == 0, "\(result)")
        let image = try #require(try images("Rotated.gallery").first)
        let width = try #require(image["width"] as? Int)
        let height = try #require(image["height"] as? Int)
        #expect(width < height)
        #expect(abs((image["aspectRatio"] as? Double ?? 0) - Double(width) / Double(height)) < 1e-9)
    }

    @Test func editsWithOneBasedIndicesAndUndoes() throws {
        try makeDocument(images: 4)
        let original = try images().map { $0["id"] as! String }
        #expect(try gallery("edit", "Trip.gallery", "move", "3", "4", "--to", "1").status == 0)
        #expect(try images().map { $0["id"] as! String } == [original[2], original[3], original[0], original[1]])
        #expect(try gallery("edit", "Trip.gallery", "swap", "1", "4").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "remove", "2").status == 0)
        #expect(try images().count == 3)
        #expect(try gallery("edit", "Trip.gallery", "caption", "1", "Dawn").status == 0)
        #expect(try images().first?["caption"] as? String == "Dawn")
        #expect(try gallery("edit", "Trip.gallery", "title", "Renamed").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "columns", "5").status == 0)
        #expect(try openJSON()["columns"] as? Int == 5)
        for _ in 0..<6 { #expect(try gallery("edit", "Trip.gallery", "undo").status == 0) }
        #expect(try images().map { $0["id"] as! String } == original)
        #expect(try gallery("edit", "Trip.gallery", "redo").status == 0)
        #expect(try images().map { $0["id"] as! String } == [original[2], original[3], original[0], original[1]])
    }

    @Test func addsAtAPositionAndCachesAndUncaches() throws {
        try makeDocument(images: 2, cache: false)
        let extra = try folder.distinctImages(1, from: Repository.sampleImage(".png")).first!
        let renamed = folder.path("extra.png")
        try FileManager.default.moveItem(at: extra, to: renamed)
        #expect(try gallery("edit", "Trip.gallery", "add", "extra.png", "--at", "1", "--cache").status == 0)
        var list = try images()
        #expect((list.first?["url"] as? String)?.hasSuffix("extra.png") == true)
        #expect(list.map { $0["cached"] as? Bool } == [true, false, false])
        #expect(try gallery("edit", "Trip.gallery", "cache").status == 0)
        list = try images()
        #expect(list.allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("edit", "Trip.gallery", "uncache", "2", "3").status == 0)
        #expect(try images().map { $0["cached"] as? Bool } == [true, false, false])
        #expect(try gallery("verify", "Trip.gallery").status == 0)
    }

    @Test func copiesAndMovesBetweenDocuments() throws {
        try makeDocument("A.gallery", images: 3)
        try makeDocument("B.gallery", images: 1)
        let a = try images("A.gallery")
        #expect(try gallery("copy", "A.gallery", "1", "3", "B.gallery", "--at", "1").status == 0)
        let b = try images("B.gallery")
        #expect(b.count == 3)
        #expect(b.prefix(2).map { $0["sha256"] as? String } == [a[0]["sha256"] as? String, a[2]["sha256"] as? String])
        #expect(try gallery("verify", "B.gallery").status == 0)
        #expect(try gallery("copy", "A.gallery", "2", "B.gallery", "--move").status == 0)
        #expect(try images("A.gallery").count == 2)
        #expect(try images("B.gallery").count == 4)
    }

    /// Every file in the folder with its bytes' size and modification time.
    func snapshot() throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for name in folder.listing() {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(name).path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[name] = [attributes[.size] as? Int ?? 0, Int(modified * 1000)]
        }
        return result
    }
}
