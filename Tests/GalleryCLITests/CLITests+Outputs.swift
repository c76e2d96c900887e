import Foundation
import GalleryTestSupport
import Testing

/// What the commands write and print: exports, listings, help, zips other tools read, thumbnails.
extension CLITests {
    @Test func exportsABundleAndAFolder() throws {
        try makeDocument(cache: false)
        #expect(try gallery("edit", "Trip.gallery", "title", "Shared").status == 0)
        #expect(try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "Share.gallery").status == 0)
        let shared = try images("Share.gallery")
        #expect(shared.allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("edit", "Share.gallery", "undo").status == 64)
        #expect(try gallery("export", "Trip.gallery", "--format", "folder", "--output", "Images").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("Images").path).sorted()
        #expect(names == ["001-image-0.jpg", "002-image-1.jpg", "003-image-2.jpg"])
    }

    @Test func browsesAFolder() throws {
        try makeDocument("Trip.gallery", images: 2)
        try makeDocument("Zoo.gallery", images: 1)
        try Data("broken".utf8).write(to: folder.path("Broken.gallery"))
        let result = try gallery("browse", "--json", "--sort", "images", "--reverse")
        try #require(result.status == 0, "\(result)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Trip", "Zoo", "Broken"])
        #expect(rows[0]["images"] as? Int == 2)
        #expect(rows[0]["cached"] as? Int == 2)
        #expect(rows[2]["error"] is String)
        for key in ["path", "name", "title", "images", "cached", "bytes", "modified", "created", "error"] {
            #expect(rows[0].keys.contains(key), "\(key)")
        }
        let table = try gallery("browse")
        #expect(table.status == 0)
        #expect(table.output.contains("Broken.gallery"))
        #expect(try gallery("browse", "--search", "zoo", "--json").output.contains("Zoo.gallery"))
    }

    @Test func everyCommandHasHelpWithAnExampleAndThereIsAVersion() throws {
        for command in ["create", "open", "edit", "copy", "export", "browse", "verify"] {
            let result = try gallery(command, "--help")
            #expect(result.status == 0, "\(command)")
            #expect(result.output.contains("Example"), "\(command)")
        }
        let action = try gallery("edit", "Trip.gallery", "move", "--help")
        #expect(action.status == 0)
        #expect(action.output.contains("--to"))
        let version = try gallery("--version")
        #expect(version.status == 0)
        #expect(version.output.contains("."))
    }

    @Test func writesZipsThatOtherToolsRead() throws {
        try makeDocument(images: 2)
        #expect(try gallery("edit", "Trip.gallery", "title", "Edited").status == 0)
        let python = try #require(Command.which("python3"), "python3 is needed")
        let check = try Command.run(
            python,
            ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); r=z.testzip(); print(r); sys.exit(r is not None)", "Trip.gallery"],
            in: folder.url)
        #expect(check.status == 0, "\(check)")
        let bsdtar = try #require(Command.which("bsdtar"), "bsdtar (libarchive-tools) is needed")
        let listing = try Command.run(bsdtar, ["-tf", "Trip.gallery"], in: folder.url)
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.output.split(separator: "\n").prefix(2) == ["mimetype", "manifest.json"])
    }

    @Test func cachesWithOrWithoutThumbnails() throws {
        let files = try folder.distinctImages(2, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let made = try Command.gallery(["create", "With.gallery", "--cache"] + files, in: folder.url)
        #expect(made.status == 0, "\(made)")
        let madeWithout = try Command.gallery(["create", "Without.gallery", "--cache", "--no-thumbnails"] + files, in: folder.url)
        #expect(madeWithout.status == 0, "\(madeWithout)")
        let bsdtar = try #require(Command.which("bsdtar"))
        let with = try Command.run(bsdtar, ["-tf", "With.gallery"], in: folder.url).output
        let without = try Command.run(bsdtar, ["-tf", "Without.gallery"], in: folder.url).output
        #expect(with.contains("preview.jpg") && with.components(separatedBy: "thumbnails/").count == 3, "\(with)")
        #expect(!without.contains("preview.jpg") && !without.contains("thumbnails/"), "\(without)")

        // `edit cache` gives the images cached without thumbnails theirs, unless told not to.
        try FileManager.default.copyItem(at: folder.path("Without.gallery"), to: folder.path("Kept.gallery"))
        #expect(try gallery("edit", "Kept.gallery", "cache", "--no-thumbnails").status == 0)
        #expect(!(try Command.run(bsdtar, ["-tf", "Kept.gallery"], in: folder.url).output.contains("thumbnails/")))
        #expect(try gallery("edit", "Without.gallery", "cache").status == 0)
        let filled = try Command.run(bsdtar, ["-tf", "Without.gallery"], in: folder.url).output
        #expect(filled.contains("preview.jpg") && filled.components(separatedBy: "thumbnails/").count == 3, "\(filled)")
    }

    @Test func exportIsByteIdenticalInAnyTimeZone() throws {
        try makeDocument(images: 2)
        #expect(
            try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "utc.gallery", environment: ["TZ": "UTC"]).status == 0)
        #expect(
            try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "tokyo.gallery", environment: ["TZ": "Asia/Tokyo"])
                .status == 0)
        #expect(try Data(contentsOf: folder.path("utc.gallery")) == Data(contentsOf: folder.path("tokyo.gallery")))
    }

    /// A document cut short is listed as damaged, called truncated, and not with an image
    /// count (it was listed as healthy: the streaming read of its start found nothing wrong).
    @Test func aTruncatedDocumentIsListedAsDamaged() throws {
        try makeDocument("Trip.gallery", images: 3)
        let whole = try Data(contentsOf: folder.path("Trip.gallery"))
        try whole.prefix(whole.count / 2).write(to: folder.path("Half.gallery"))
        try whole.prefix(2048).write(to: folder.path("Head.gallery"))
        let result = try gallery("browse", "--json")
        try #require(result.status == 0, "\(result)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        for name in ["Half", "Head"] {
            let row = try #require(rows.first { $0["name"] as? String == name })
            #expect((row["error"] as? String)?.contains("is truncated") == true, "\(row)")
            #expect(row["images"] == nil || row["images"] is NSNull, "\(row)")
        }
        #expect(
            rows.first { $0["name"] as? String == "Trip" }?["error"] == nil
                || rows.first { $0["name"] as? String == "Trip" }?["error"] is NSNull)
    }

    /// Undo and redo say what they stepped over; an add into a document whose images are all
    /// stored stores the new one too, and says so.
    @Test func undoSaysWhatWasUndoneAndAddFollowsTheDocument() throws {
        try makeDocument(images: 4)
        #expect(try gallery("edit", "Trip.gallery", "remove", "2", "3").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "undo").output.hasSuffix("Trip.gallery: undid “removed 2 images” (4 images now)\n"))
        #expect(try gallery("edit", "Trip.gallery", "swap", "1", "3").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "undo").output.contains("undid “moved 2 images”"))
        #expect(try gallery("edit", "Trip.gallery", "redo").output.hasSuffix("Trip.gallery: redid “moved 2 images” (4 images now)\n"))
        #expect(try gallery("edit", "Trip.gallery", "move", "2", "--to", "1").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "title", "Summer").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "undo").output.contains("undid “title “Trip” → “Summer””"))
        #expect(try gallery("edit", "Trip.gallery", "undo").output.contains("undid “moved 1 image”"))

        let extra = try folder.distinctImages(6, from: Repository.sampleImage(".jpg")).suffix(2).map(\.lastPathComponent)
        let added = try gallery("edit", "Trip.gallery", "add", extra[0])
        #expect(added.output.contains("added 1 image, stored like the others"), "\(added)")
        #expect(try images().last?["cached"] as? Bool == true)
        #expect(try gallery("edit", "Trip.gallery", "add", extra[1], "--no-cache").status == 0)
        #expect(try images().last?["cached"] as? Bool == false)
    }

    /// The document and the action swapped: the error shows the command meant.
    @Test func theActionBeforeTheDocumentShowsTheRightOrder() throws {
        try makeDocument(images: 3)
        let before = try snapshot()
        let result = try gallery("edit", "move", "Trip.gallery", "1", "--to", "3")
        #expect(result.status == 64)
        #expect(
            result.errorOutput
                == "gallery: error: \(folder.path("Trip.gallery").path): the document comes before the action: gallery edit Trip.gallery move 1 --to 3\n"
        )
        #expect(try snapshot() == before)
    }

    /// On a terminal 80 columns wide, `open`'s table fits: long reasons, captions and URLs are
    /// cut with "…" (a failed image's reason made it about 190 columns); piped, nothing is cut.
    @Test func openFitsItsTableToTheTerminal() throws {
        try makeDocument(images: 2)
        let long = String(repeating: "A long caption that goes on ", count: 6)
        #expect(try gallery("edit", "Trip.gallery", "caption", "1", long).status == 0)
        let fitted = try Command.gallery(["open", "Trip.gallery"], in: folder.url, environment: ["COLUMNS": "80"])
        let tableLines = fitted.output.split(separator: "\n").dropFirst(2)
        #expect(tableLines.count == 3 && tableLines.allSatisfy { $0.count <= 80 }, "\(fitted)")
        #expect(tableLines.contains { $0.contains("…") })
        #expect(try gallery("open", "Trip.gallery").output.contains(long), "piped: whole")
    }
}
