import Foundation
import GalleryTestSupport
import Testing

/// The desktop knows the type: `file(1)` with `Specs/mime/gallery.magic`, and shared-mime-info
/// (through GLib's `gio`) after `gallery install-desktop-files --user` — on documents written by
/// GalleryKit (mimetype text at byte 62), Python's zipfile (38) and bsdtar (70), never on a plain
/// zip or another zip-based type.
@Suite struct DesktopFilesCLITests {
    let folder = TemporaryFolder()

    /// A GalleryKit document, two written by other zip writers, and zips that are not galleries.
    func samples() throws -> (galleries: [URL], others: [URL]) {
        let created = try Command.gallery(["new", "--title", "Written"], in: folder.url)
        try #require(created.status == 0, "\(created)")
        let python = try #require(Command.which("python3"), "python3 is needed (.ci/install)")
        let script = """
            import zipfile
            with zipfile.ZipFile('plain.zip', 'w') as z:
                z.writestr('a.txt', 'hello')
            with zipfile.ZipFile('book.zip', 'w') as z:
                z.writestr('mimetype', 'application/epub+zip')
            """
        let made = try Command.run(python, ["-c", script], in: folder.url)
        try #require(made.status == 0, "\(made)")
        let examples = Repository.examples.appendingPathComponent("valid")
        return (
            [
                folder.path("Written.gallery"), examples.appendingPathComponent("cached-python-zipfile.gallery"),
                examples.appendingPathComponent("cached-bsdtar.gallery"),
            ],
            [folder.path("plain.zip"), folder.path("book.zip")]
        )
    }

    @Test func fileRecognisesDocumentsWithTheMagicRule() throws {
        let file = try #require(Command.which("file"), "file(1) is needed (.ci/install installs it)")
        let magic = Repository.root.appendingPathComponent("Specs/mime/gallery.magic").path
        let (galleries, others) = try samples()
        for url in galleries {
            let described = try Command.run(file, ["--brief", "--magic-file", magic, url.path], in: folder.url)
            #expect(described.output == "GalleryKit gallery document\n", "\(url.lastPathComponent): \(described)")
            let type = try Command.run(file, ["--brief", "--mime-type", "--magic-file", magic, url.path], in: folder.url)
            #expect(type.output == "application/vnd.gallery+zip\n", "\(url.lastPathComponent): \(type)")
        }
        for url in others {
            let described = try Command.run(file, ["--brief", "--magic-file", magic, url.path], in: folder.url)
            #expect(described.status == 0 && !described.output.lowercased().contains("gallery"), "\(url.lastPathComponent): \(described)")
        }
    }

    @Test func installDesktopFilesRegistersTheTypeForTheUser() throws {
        let data = folder.path("data")
        let environment = ["HOME": folder.url.path, "XDG_DATA_HOME": data.path]
        let result = try Command.gallery(["install-desktop-files", "--user"], in: folder.url, environment: environment)
        #expect(result.status == 0, "\(result)")
        let package = data.appendingPathComponent("mime/packages/gallerykit.xml")
        #expect(result.output.hasPrefix("Installed \(package.path).\n"), "\(result)")
        #expect(try Data(contentsOf: package) == Data(contentsOf: Repository.root.appendingPathComponent("Specs/mime/gallery.xml")))

        try #require(Command.which("update-mime-database") != nil, "update-mime-database is needed (Debian shared-mime-info, .ci/install)")
        #expect(result.output.contains("Updated the MIME database"), "\(result)")
        let globs = try String(contentsOf: data.appendingPathComponent("mime/globs2"), encoding: .utf8)
        #expect(globs.contains("application/vnd.gallery+zip:*.gallery"), "\(globs)")
        // Again: the package is replaced, not duplicated.
        #expect(try Command.gallery(["install-desktop-files", "--user"], in: folder.url, environment: environment).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: package.deletingLastPathComponent().path) == ["gallerykit.xml"])

        // What a file manager sees, by content alone (no extension), through GLib.
        let gio = try #require(Command.which("gio"), "gio is needed (Debian libglib2.0-bin, .ci/install)")
        let (galleries, others) = try samples()
        for (url, expected) in galleries.map({ ($0, "application/vnd.gallery+zip") }) + others.map({ ($0, "not a gallery") }) {
            let renamed = folder.path("sniffed-\(url.lastPathComponent.replacingOccurrences(of: ".", with: "-"))")
            try FileManager.default.copyItem(at: url, to: renamed)
            let info = try Command.run(
                gio, ["info", "--attributes=standard::content-type", renamed.path], in: folder.url, environment: environment)
            let type = info.output.split(separator: "\n").first { $0.contains("standard::content-type:") }?.split(separator: " ").last.map(
                String.init)
            if expected == "not a gallery" {
                #expect(type != nil && type != "application/vnd.gallery+zip", "\(url.lastPathComponent): \(info)")
            } else {
                #expect(type == expected, "\(url.lastPathComponent): \(info)")
            }
        }
    }
}
