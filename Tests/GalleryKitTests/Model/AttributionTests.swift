import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Attribution (format 1.1, spec §5.8): the document's is its images' default, edits set some
/// members and keep the others, and the manifest keeps it, its unknown members included.
@Suite struct AttributionTests {
    let licence = "http://creativecommons.org/licenses/by/4.0/"

    @Test func anImageShowsItsOwnValuesAndTheGallerysForTheRest() throws {
        var gallery = Gallery(title: "Trip", images: [GalleryImage(url: URL(string: "https://a.example/1.jpg")!, aspectRatio: 1)])
        gallery.images.append(GalleryImage(url: URL(string: "https://a.example/2.jpg")!, aspectRatio: 1))
        #expect(gallery.attribution(ofImageAt: 0) == nil)
        try gallery.updateAttribution(Attribution(creator: "Ana Lima", license: licence))
        try gallery.updateAttribution(Attribution(creator: "Ben Okafor", credit: "Photo: Ben Okafor"), ofImageAt: 1)
        #expect(gallery.attribution(ofImageAt: 0) == Attribution(creator: "Ana Lima", license: licence))
        #expect(gallery.attribution(ofImageAt: 1) == Attribution(creator: "Ben Okafor", credit: "Photo: Ben Okafor", license: licence))
        #expect(gallery.attribution(ofImageAt: 1)?.displayLine == "Photo: Ben Okafor")
        #expect(gallery.attribution(ofImageAt: 0)?.displayLine == "Ana Lima")
    }

    @Test func anEditSetsSomeMembersKeepsTheOthersAndAnEmptyTextClears() throws {
        var gallery = Gallery(title: "Trip", images: [GalleryImage(url: URL(string: "https://a.example/1.jpg")!, aspectRatio: 1)])
        try gallery.updateAttribution(Attribution(creator: "Ana", source: "https://a.example/page"), ofImageAt: 0)
        try gallery.updateAttribution(Attribution(copyright: "© Ana"), ofImageAt: 0)
        #expect(gallery.images[0].attribution == Attribution(creator: "Ana", copyright: "© Ana", source: "https://a.example/page"))
        try gallery.updateAttribution(Attribution(creator: "", copyright: "", source: ""), ofImageAt: 0)
        #expect(gallery.images[0].attribution == nil)
        #expect(throws: GalleryError.self) { try gallery.updateAttribution(Attribution(creator: "x"), ofImageAt: 1) }
        let long = String(repeating: "a", count: Gallery.maximumTextLength + 1)
        #expect(throws: GalleryError.self) { try gallery.updateAttribution(Attribution(credit: long)) }
        #expect(gallery.attribution == nil)
    }

    @Test func undoSaysWhichCreditsChanged() throws {
        var gallery = Gallery(title: "Trip", images: [GalleryImage(url: URL(string: "https://a.example/1.jpg")!, aspectRatio: 1)])
        let before = gallery
        try gallery.updateAttribution(Attribution(creator: "Ana"), ofImageAt: 0)
        #expect(gallery.changes(from: before) == "changed the credit of 1 image")
        let imageCredited = gallery
        try gallery.updateAttribution(Attribution(license: licence))
        #expect(gallery.changes(from: imageCredited) == "changed the gallery's credit")
    }

    /// Written only when it has a member; read back whole, unknown members kept; a 1.1 document
    /// says so.
    @Test func theManifestKeepsItAndWritesVersion1_1() throws {
        var gallery = Gallery(title: "Trip", images: [GalleryImage(url: URL(string: "https://a.example/1.jpg")!, aspectRatio: 1)])
        let plain = String(decoding: try Manifest.encode(gallery), as: UTF8.self)
        #expect(!plain.contains("attribution") && plain.contains(#""formatVersion":"1.1""#))
        var credit = Attribution(creator: "Ana", license: licence)
        credit.unknownFields["contact"] = .string("ana@example.org")
        gallery.attribution = credit
        gallery.images[0].attribution = Attribution(credit: "Photo: Ana")
        let encoded = try Manifest.encode(gallery)
        #expect(try Manifest.decode(encoded) == gallery)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""attribution":{"contact":"ana@example.org","creator":"Ana","license""#))
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""attribution":{"credit":"Photo: Ana"}"#))
    }

    /// A copy into another document carries the credit its source showed: the source gallery's
    /// default does not stay behind.
    @Test func aCopyCarriesTheCreditItHad() throws {
        let folder = TemporaryFolder()
        var source = GalleryDocument(creating: folder.path("A.gallery"), gallery: Gallery(title: "A"))
        try source.edit {
            try $0.insert(contentsOf: [GalleryImage(url: URL(string: "https://a.example/1.jpg")!, aspectRatio: 1)], at: 0)
            try $0.updateAttribution(Attribution(creator: "Ana", license: licence))
        }
        try source.save()
        var target = GalleryDocument(creating: folder.path("B.gallery"), gallery: Gallery(title: "B"))
        try target.insertCopies(ofImagesAt: [0], from: source)
        #expect(target.gallery.images[0].attribution == Attribution(creator: "Ana", license: licence))
        #expect(target.gallery.attribution == nil)
    }
}
