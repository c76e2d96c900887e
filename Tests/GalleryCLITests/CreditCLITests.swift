import Foundation
import GalleryTestSupport
import Testing

/// Credits on the command line: read from the photos by `create` and `edit … add`, shown by
/// `open --json`, set with `edit … credit`.
@Suite struct CreditCLITests {
    let folder = TemporaryFolder()
    let licence = "http://creativecommons.org/licenses/by/4.0/"

    func gallery(_ arguments: String...) throws -> CommandResult {
        try Command.gallery(arguments, in: folder.url)
    }

    func json(_ document: String) throws -> [String: Any] {
        let result = try gallery("open", document, "--json")
        try #require(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    func images(_ document: String) throws -> [[String: Any]] {
        try #require(try json(document)["images"] as? [[String: Any]])
    }

    /// A photo carrying Artist, Copyright, photoshop:Credit and xmpRights:WebStatement (written
    /// with exiftool) gets them as its attribution, and its description as its caption.
    @Test func aPhotosOwnCreditBecomesItsAttribution() throws {
        let exiftool = try #require(Command.which("exiftool"), "exiftool is installed by .ci/install")
        try FileManager.default.copyItem(at: Repository.sampleImage("01-dawn"), to: folder.path("dawn.jpg"))
        try FileManager.default.copyItem(at: Repository.sampleImage("02-forest"), to: folder.path("forest.jpg"))
        let written = try Command.run(
            exiftool,
            [
                "-q", "-overwrite_original", "-Artist=Ana Lima", "-Copyright=© 2026 Ana Lima",
                "-XMP-photoshop:Credit=Photo: Ana Lima", "-XMP-xmpRights:WebStatement=\(licence)",
                "-ImageDescription=Dawn over the bay", "dawn.jpg",
            ], in: folder.url)
        try #require(written.status == 0, "\(written)")
        #expect(try gallery("create", "Trip.gallery", "dawn.jpg", "forest.jpg").status == 0)
        let listed = try images("Trip.gallery")
        #expect(
            listed[0]["attribution"] as? [String: String] == [
                "creator": "Ana Lima", "copyright": "© 2026 Ana Lima", "credit": "Photo: Ana Lima", "license": licence,
            ])
        #expect(listed[0]["caption"] as? String == "Dawn over the bay")
        #expect(listed[1]["attribution"] == nil, "absent when empty")
        #expect(try json("Trip.gallery")["attribution"] == nil)

        // A person's credit wins over the photo's, which fills the rest; the gallery's is the default.
        #expect(
            try gallery("edit", "Trip.gallery", "credit", "1", "--creator", "A. Lima").output == "Trip.gallery: credit of image 1 set\n")
        let edited = try gallery("edit", "Trip.gallery", "credit", "--source", "https://example.org/trip", "--creator", "Studio Lima")
        #expect(edited.output == "Trip.gallery: the gallery's credit set\n", "\(edited)")
        let after = try images("Trip.gallery")
        #expect((after[0]["attribution"] as? [String: String])?["creator"] == "A. Lima")
        #expect((after[0]["attribution"] as? [String: String])?["source"] == "https://example.org/trip")
        #expect(after[1]["attribution"] as? [String: String] == ["creator": "Studio Lima", "source": "https://example.org/trip"])
        #expect(
            try json("Trip.gallery")["attribution"] as? [String: String] == [
                "creator": "Studio Lima", "source": "https://example.org/trip",
            ])
        let undone = try gallery("edit", "Trip.gallery", "undo")
        #expect(undone.output.contains("undid “changed the gallery's credit”"), "\(undone)")
    }

    @Test(arguments: [
        (["credit", "1"], "give --creator, --copyright, --credit, --license or --source (an empty text clears one)"),
        (["credit", "--license", "CC BY"], "--license \"CC BY\": not an http or https address"),
        (["credit", "9", "--creator", "x"], "image 9"),
    ])
    func aCreditEditThatCannotBeMadeChangesNothing(_ arguments: [String], _ message: String) throws {
        #expect(try gallery("create", "Trip.gallery", Repository.sampleImage("01-dawn").path).status == 0)
        let before = try Data(contentsOf: folder.path("Trip.gallery"))
        let result = try Command.gallery(["edit", "Trip.gallery"] + arguments, in: folder.url)
        #expect(result.status == 64, "\(result)")
        #expect(result.errorOutput.contains(message) && result.errorOutput.split(separator: "\n").count == 1, "\(result)")
        #expect(try Data(contentsOf: folder.path("Trip.gallery")) == before)
    }
}
