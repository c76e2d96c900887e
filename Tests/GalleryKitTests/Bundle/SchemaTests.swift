import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// `Specs/manifest.schema.json` stays true: what GalleryKit writes and what the valid vectors hold
/// validates; what the reader rejects does not. Checked with Python's `jsonschema`
/// (Debian `python3-jsonschema`, installed by `.ci/install`).
@Suite struct SchemaTests {
    static let schema = Repository.root.appendingPathComponent("Specs/manifest.schema.json")

    /// Validates each file; returns the names that do not validate.
    func invalidFiles(_ files: [URL]) throws -> Set<String> {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
            for path in sys.argv[2:]:
                if not validator.is_valid(json.load(open(path))):
                    print(path)
            """
        // Debian's python3 has the Debian jsonschema; a python3 earlier on PATH may not.
        let python =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? URL(fileURLWithPath: "/usr/bin/python3") : try #require(Command.which("python3"))
        let result = try Command.run(python, ["-c", script, Self.schema.path] + files.map(\.path), in: Repository.root)
        try #require(result.status == 0, "python3 with jsonschema is needed: \(result)")
        return Set(result.output.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent })
    }

    func richGallery() -> Gallery {
        var gallery = Gallery(title: "Everything")
        let sha = String(repeating: "ab", count: 32)
        gallery.images = [
            GalleryImage(
                url: URL(string: "file:///tmp/dawn.jpg")!, aspectRatio: 1.5, width: 640, height: 427,
                cached: CachedImage(path: "images/\(sha).jpg", sha256: sha, bytes: 12, mediaType: "image/jpeg"),
                thumbnail: "thumbnails/\(sha).jpg", caption: "Dawn"),
            GalleryImage(url: URL(string: "https://example.org/missing.png")!, aspectRatio: 1, status: .failed, error: "HTTP 404"),
        ]
        gallery.images[0].unknownFields = ["rating": .integer(5)]
        gallery.unknownFields = ["tags": .array([.string("trip")])]
        return gallery
    }

    @Test func whatGalleryKitWritesAndTheValidVectorsHoldValidate() throws {
        let folder = TemporaryFolder()
        var files = [folder.path("written.json")]
        try Manifest.encode(richGallery()).write(to: files[0])
        try Manifest.encode(Gallery(title: "")).write(to: folder.path("empty.json"))
        files.append(folder.path("empty.json"))
        for name in ConformanceTests.vectors("valid") {
            let url = Repository.examples.appendingPathComponent("valid/\(name)")
            let entries = try BundleReader.readEntries(
                named: ["manifest.json"], of: url, maximumBytes: BundleLimits.standard.maximumManifestBytes)
            let file = folder.path("\(name).json")
            try #require(entries["manifest.json"]).write(to: file)
            files.append(file)
        }
        let invalid = try invalidFiles(files)
        #expect(invalid.isEmpty, "\(invalid)")
    }

    @Test func whatTheReaderRejectsDoesNotValidate() throws {
        let folder = TemporaryFolder()
        let good = try JSONSerialization.jsonObject(with: Manifest.encode(richGallery())) as! [String: Any]
        let breakages: [String: (inout [String: Any]) -> Void] = [
            "columns-string": { $0["columns"] = "3" },
            "columns-13": { $0["columns"] = 13 },
            "version-2": { $0["formatVersion"] = "2.0" },
            "version-leading-zero": { $0["formatVersion"] = "01.0" },
            "missing-id": { $0["id"] = nil },
            "images-object": { $0["images"] = [String: Any]() },
            "zero-aspect-ratio": { $0["images"] = [Self.changing(good, "aspectRatio", to: 0)] },
            "bad-status": { $0["images"] = [Self.changing(good, "status", to: "broken")] },
            "uppercase-sha": { manifest in
                var image = (good["images"] as! [[String: Any]])[0]
                var cached = image["cached"] as! [String: Any]
                cached["sha256"] = (cached["sha256"] as! String).uppercased()
                image["cached"] = cached
                manifest["images"] = [image]
            },
        ]
        var files: [URL] = []
        for (name, breakage) in breakages {
            var manifest = good
            breakage(&manifest)
            let file = folder.path("\(name).json")
            try JSONSerialization.data(withJSONObject: manifest).write(to: file)
            // The reader refuses each one too: the schema is no stricter than GalleryKit here.
            #expect(throws: GalleryError.self, "\(name)") { try Manifest.decode(Data(contentsOf: file)) }
            files.append(file)
        }
        #expect(try invalidFiles(files) == Set(files.map(\.lastPathComponent)))
    }

    static func changing(_ manifest: [String: Any], _ key: String, to value: Any) -> [String: Any] {
        var image = (manifest["images"] as! [[String: Any]])[0]
        image[key] = value
        return image
    }
}
