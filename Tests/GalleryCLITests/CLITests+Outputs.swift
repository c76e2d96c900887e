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
}
