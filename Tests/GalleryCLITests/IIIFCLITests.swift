import Foundation
import GalleryTestSupport
import Testing

/// `gallery create DOC --iiif MANIFEST`: a museum's IIIF manifest, served from a local server,
/// becomes a gallery of its images, captions and credits.
@Suite struct IIIFCLITests {
    let folder = TemporaryFolder()

    func opened(_ document: String) throws -> (gallery: [String: Any], images: [[String: Any]]) {
        let result = try Command.gallery(["open", document, "--json"], in: folder.url)
        try #require(result.status == 0, "\(result)")
        let gallery = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (gallery, try #require(gallery["images"] as? [[String: Any]]))
    }

    /// A static image, one through an Image API 3 service, and one that is missing (404): the
    /// missing one is added as failed (exit 2), or left out with --skip-failed.
    @Test func aManifestsImagesComeInOrderTheMissingOneFailed() async throws {
        let server = try ImageServer()
        let manifest = server.url("/iiif-fixtures/manifests/0283-missing-image.json").absoluteString
        let created = try Command.gallery(["create", "Notebook.gallery", "--iiif", manifest, "--cache"], in: folder.url)
        #expect(created.status == 2, "\(created)")
        #expect(created.output == "Created Notebook.gallery with 3 images (2 cached, 1 failed).\n")
        #expect(created.errorOutput.hasSuffix("/iiif-fixtures/images/missing.jpg: HTTP 404 Not Found\n"), "\(created)")
        let (gallery, images) = try opened("Notebook.gallery")
        #expect(gallery["title"] as? String == "Field notebook with a lost leaf")
        #expect(images.map { $0["caption"] as? String } == ["f. 1r", "f. 2r", "f. 2v"])
        #expect(images.map { $0["status"] as? String } == ["ok", "failed", "ok"])
        #expect((images[0]["url"] as? String)?.hasSuffix("/iiif/3/01-dawn/full/max/0/default.jpg") == true)
        #expect(images[0]["width"] as? Int == 640 && images[2]["height"] as? Int == 640)

        // Not stored, the service's image is sized by its info.json, never downloaded (a museum's
        // whole image can be hundreds of megabytes): only the static image is in the image cache.
        let cache = folder.path("cache")
        let skipped = try Command.gallery(
            ["create", "Skipped.gallery", "--iiif", manifest, "--skip-failed", "--title", "Mine"], in: folder.url,
            environment: ["XDG_CACHE_HOME": cache.path])
        #expect(skipped.status == 2, "\(skipped)")
        let kept = try opened("Skipped.gallery")
        #expect(kept.gallery["title"] as? String == "Mine")
        #expect(kept.images.map { $0["caption"] as? String } == ["f. 1r", "f. 2v"])
        #expect(kept.images.map { $0["width"] as? Int } == [640, 427])
        let objects = FileManager.default.enumerator(atPath: cache.appendingPathComponent("gallery/images/objects").path)?
            .compactMap { $0 as? String }.filter { $0.count > 3 }
        #expect(objects?.count == 1, "\(objects ?? [])")
    }

    /// Rights and required statement become the credit: the manifest's the gallery's, a canvas's
    /// its image's, and every image's resolved over the gallery's.
    @Test func rightsAndRequiredStatementsBecomeCredits() async throws {
        let server = try ImageServer()
        let manifest = server.url("/iiif-fixtures/manifests/0008-rights.json").absoluteString
        let created = try Command.gallery(["create", "Rights.gallery", "--iiif", manifest], in: folder.url)
        #expect(created.status == 0, "\(created)")
        let (gallery, images) = try opened("Rights.gallery")
        #expect(gallery["title"] as? String == "Leaf and rings, with rights")
        let credit = "Ana Lima for the Example Museum. CC BY 4.0"
        #expect(
            gallery["attribution"] as? [String: String] == [
                "creator": "Ana Lima", "credit": credit, "license": "http://creativecommons.org/licenses/by/4.0/",
                "source": "https://example.org/",
            ])
        #expect((images[0]["attribution"] as? [String: String])?["credit"] == credit)
        #expect(
            images[1]["attribution"] as? [String: String] == [
                "creator": "Bruno Costa", "copyright": "© 2024 Bruno Costa. All rights reserved.", "credit": credit,
                "license": "http://rightsstatements.org/vocab/InC/1.0/", "source": "https://example.org/",
            ])
    }

    @Test func aCollectionOrAManifestThatIsNotThereIsOneLineAndNothingIsMade() async throws {
        let server = try ImageServer()
        for (path, status, reason) in [
            ("/iiif-fixtures/manifests/collection.json", Int32(64), "is a IIIF Collection of 2 manifests; make a gallery of each: "),
            ("/iiif-fixtures/manifests/nothing.json", Int32(74), "HTTP 404 Not Found"),
        ] {
            let result = try Command.gallery(["create", "X.gallery", "--iiif", server.url(path).absoluteString], in: folder.url)
            #expect(result.status == status, "\(result)")
            #expect(result.errorOutput.contains(reason) && result.errorOutput.split(separator: "\n").count == 1, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("X.gallery").path))
        }
        let both = try Command.gallery(["create", "X.gallery", "a.jpg", "--iiif", "m.json"], in: folder.url)
        #expect(both.status == 64 && both.errorOutput.contains("give images or --iiif, not both"), "\(both)")
    }
}
