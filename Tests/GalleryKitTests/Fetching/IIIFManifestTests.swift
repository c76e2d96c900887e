import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// IIIF manifests in the shapes of the Cookbook's recipes (`Specs/Examples/iiif`) read as
/// galleries: titles, images in order through their image services, captions and credits.
@Suite struct IIIFManifestTests {
    static let base = "http://127.0.0.1:1/"

    static func manifest(_ name: String) throws -> IIIFManifest {
        let url = Repository.examples.appendingPathComponent("iiif/\(name).json")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "{{base}}", with: base)
        return try IIIFManifest(Data(text.utf8), source: name)
    }

    static func urls(_ manifest: IIIFManifest) -> [String] {
        manifest.images.map { $0.url.absoluteString.replacingOccurrences(of: base, with: "") }
    }

    @Test(
        arguments: [
            ("0001-single-image", "Dawn over the ridge", ["images/01-dawn.jpg"], [nil]),
            ("0004-canvas-size", "Forest path, low-resolution stand-in", ["images/02-forest.jpg"], [nil]),
            (
                "0005-image-service", "Dawn and forest, from a IIIF image service",
                ["iiif/3/01-dawn/full/max/0/default.jpg", "iiif/2/02-forest/full/full/0/default.jpg"],
                ["Dawn, through an Image API 3 service", "Forest, through an Image API 2 service"]
            ),
            (
                "0009-book", "A sketchbook in five views",
                [
                    "iiif/3/01-dawn/full/max/0/default.jpg", "images/03-portrait-exif6.jpg", "images/04-diagram.png", "images/07-scan.tif",
                    "iiif/3/02-forest/full/max/0/default.jpg",
                ],
                ["Front cover", "f. 1r", "f. 1v", "f. 2r", "Back cover"]
            ),
            ("0117-manifest-thumbnail", "Dawn, with a manifest thumbnail", ["iiif/3/01-dawn/full/max/0/default.jpg"], ["Dawn, full view"]),
            (
                "0202-start-canvas", "Rings, scan, diagram", ["images/06-rings.gif", "images/07-scan.tif", "images/04-diagram.png"],
                ["Rings", "Scan", "Diagram"]
            ),
            (
                "0283-missing-image", "Field notebook with a lost leaf",
                ["iiif/3/01-dawn/full/max/0/default.jpg", "images/missing.jpg", "images/02-forest.jpg"], ["f. 1r", "f. 2r", "f. 2v"]
            ),
            (
                "v2-simple", "Dawn, leaf and diagram (Presentation 2.1)",
                ["iiif/2/01-dawn/full/full/0/default.jpg", "images/05-leaf.webp", "images/04-diagram.png"], ["Dawn", "Leaf", "Diagram"]
            ),
        ] as [(String, String, [String], [String?])])
    func readsTitleImagesInOrderAndCaptions(_ name: String, _ title: String, _ urls: [String], _ captions: [String?]) throws {
        let manifest = try Self.manifest(name)
        #expect(manifest.title == title)
        #expect(Self.urls(manifest) == urls)
        #expect(manifest.images.map(\.caption) == captions)
    }

    /// Rights, required statements, metadata and the provider's homepage: the manifest's are the
    /// gallery's, a canvas's its image's own, resolved member by member (spec §5.8).
    @Test func readsCredits() throws {
        let rights = try Self.manifest("0008-rights")
        #expect(
            rights.attribution
                == Attribution(
                    creator: "Ana Lima", credit: "Ana Lima for the Example Museum. CC BY 4.0",
                    license: "http://creativecommons.org/licenses/by/4.0/", source: "https://example.org/"))
        #expect(rights.images.map(\.caption) == ["Leaf", "Rings"])
        #expect(rights.images[0].attribution == nil)
        #expect(
            rights.images[1].attribution
                == Attribution(
                    creator: "Bruno Costa", copyright: "© 2024 Bruno Costa. All rights reserved.",
                    license: "http://rightsstatements.org/vocab/InC/1.0/"))

        let version2 = try Self.manifest("v2-simple")
        #expect(
            version2.attribution
                == Attribution(
                    creator: "Ana Lima", credit: "Provided by the Example Museum", license: "http://creativecommons.org/licenses/by/4.0/"))
        #expect(version2.images[2].attribution?.credit == "© 2024 Bruno Costa")
        #expect(version2.images[2].attribution?.license == "http://rightsstatements.org/vocab/InC/1.0/")
    }

    @Test func aCollectionIsRefusedNamingItsManifests() throws {
        let error = #expect(throws: GalleryError.self) { try Self.manifest("collection") }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.reason.hasPrefix("is a IIIF Collection of 2 manifests; make a gallery of each: http://127.0.0.1:1/manifests/") == true,
            "\(error?.description ?? "")")
    }

    @Test(arguments: ["not json", "[]", #"{"type":"Canvas"}"#, #"{"@type":"sc:Range"}"#])
    func whatIsNotAManifestIsSaidSo(_ text: String) {
        let error = #expect(throws: GalleryError.self) { try IIIFManifest(Data(text.utf8), source: "x.json") }
        #expect(error?.code == .damagedDocument && error?.reason.hasPrefix("is not a IIIF manifest") == true)
    }

    @Test func htmlIsReducedToText() {
        #expect(IIIFManifest.plainText("<p>Photo: <a href=\"x\">Ana &amp; Bruno</a>\n  Lima</p>") == "Photo: Ana & Bruno Lima")
    }
}
