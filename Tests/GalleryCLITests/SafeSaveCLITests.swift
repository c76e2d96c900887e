import Foundation
import GalleryTestSupport
import Testing

/// Saves through the real binary: never a document the reader rejects, never wider permissions,
/// links followed, a full disk named, file names that are bytes.
@Suite struct SafeSaveCLITests {
    let folder = TemporaryFolder()

    func gallery(_ arguments: String..., in directory: URL? = nil) throws -> CommandResult {
        try Command.gallery(arguments, in: directory ?? folder.url)
    }

    func manifestSize(_ url: URL) throws -> Int {
        let python = try #require(Command.which("python3"))
        let script = "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).getinfo('manifest.json').file_size)"
        let result = try Command.run(python, ["-c", script, url.path], in: folder.url)
        try #require(result.status == 0, "\(result)")
        return try #require(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func anEditThatWouldPassTheManifestLimitFailsAndChangesNothing() throws {
        let limit = 64 * 1024 * 1024
        let url = folder.path("Big.gallery")
        var manifest = TestManifest.object(title: "T")
        manifest["padding"] = String(repeating: "p", count: limit - 2000)  // an extension member, kept on save
        try RawZip.write(TestManifest.entries(manifest), to: url)
        // One edit to have the manifest in GalleryKit's own form; then its size is known exactly.
        try #require(try gallery("edit", "Big.gallery", "title", "U").status == 0)
        let room = limit - (try manifestSize(url))
        try #require(room > 1 && room < 10_000)

        let atTheLimit = try gallery("edit", "Big.gallery", "title", "U" + String(repeating: "x", count: room))
        #expect(atTheLimit.status == 0, "\(atTheLimit)")
        #expect(try manifestSize(url) == limit)

        let before = try Data(contentsOf: url)
        let over = try gallery("edit", "Big.gallery", "title", "U" + String(repeating: "x", count: room + 1))
        #expect(over.status == 65)
        #expect(
            over.errorOutput.hasPrefix(
                "gallery: error: \(url.path): cannot save: manifest.json would be 67108865 bytes, over the 64 MiB limit"))
        #expect(over.errorOutput.components(separatedBy: "\n").count == 2)
        #expect(try Data(contentsOf: url) == before)
        #expect(folder.listing() == ["Big.gallery"])
        // The document still opens, and its undo history is there.
        #expect(try gallery("edit", "Big.gallery", "undo").status == 0)
        let open = try gallery("open", "Big.gallery", "--json")
        #expect(open.status == 0)
        #expect(open.output.contains("\"title\" : \"U\""))
    }

    @Test func anEditKeepsAPrivateDocumentPrivate() throws {
        try #require(try gallery("create", "Private.gallery", Repository.sampleImage(".jpg").path).status == 0)
        let url = folder.path("Private.gallery")
        #expect(chmod(url.path, 0o600) == 0)
        for edit in [["title", "Mine"], ["columns", "4"], ["undo"]] {
            let result = try Command.gallery(["edit", "Private.gallery"] + edit, in: folder.url)
            try #require(result.status == 0, "\(result)")
            var status = stat()
            #expect(stat(url.path, &status) == 0)
            #expect(status.st_mode & 0o7777 == 0o600, "after \(edit)")
        }
    }

    @Test func anEditThroughASymbolicLinkEditsTheDocument() throws {
        try #require(try gallery("create", "Real.gallery", Repository.sampleImage(".jpg").path).status == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Link.gallery").path, withDestinationPath: "Real.gallery")
        let result = try gallery("edit", "Link.gallery", "title", "Edited")
        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("Link.gallery").path) == "Real.gallery")
        #expect(try gallery("open", "Real.gallery", "--json").output.contains("\"title\" : \"Edited\""))
        #expect(folder.listing() == ["Link.gallery", "Real.gallery"])
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small file system needs root"))
    func aFullDiskNamesTheDocumentAndChangesNothing() throws {
        let small = folder.path("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mount = try Command.run(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path], in: folder.url)
        try #require(mount.status == 0, "\(mount)")
        defer { _ = try? Command.run(URL(fileURLWithPath: "/bin/umount"), [small.path], in: folder.url) }

        let sample = Repository.sampleImage(".jpg")
        try #require(try gallery("create", "Full.gallery", "--cache", sample.path, in: small).status == 0)
        let big = try folder.distinctImages(1, padding: 2 << 20, from: sample)[0]
        let document = small.appendingPathComponent("Full.gallery")
        let before = try Data(contentsOf: document)

        let result = try gallery("edit", "Full.gallery", "add", big.path, "--cache", in: small)
        #expect(result.status == 74, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: \(document.path): cannot save"), "\(result)")
        #expect(result.errorOutput.contains("no space left on device"), "\(result)")
        #expect(try Data(contentsOf: document) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["Full.gallery"])
    }

    @Test func anImageWhoseNameIsNotUTF8IsReadAndItsURLKeepsTheBytes() throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let script = #"name="$(printf 'bad\377.jpg')" && cp "$2" "$name" && "$1" create Bytes.gallery --cache "$name""#
        let result = try Command.run(
            shell, ["-c", script, "sh", Command.gallery.path, Repository.sampleImage(".jpg").path], in: folder.url)
        #expect(result.status == 0, "\(result)")
        let open = try gallery("open", "Bytes.gallery", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(open.output.utf8)) as? [String: Any])
        let image = try #require((json["images"] as? [[String: Any]])?.first)
        #expect((image["url"] as? String)?.hasSuffix("/bad%FF.jpg") == true, "\(image)")
        #expect(image["status"] as? String == "ok")
        #expect(image["cached"] as? Bool == true)
        #expect(try gallery("open", "Bytes.gallery").output.contains("bad\\377.jpg"), "shown as ls -b shows it")
        #expect(try gallery("verify", "Bytes.gallery").status == 0)
    }
}
