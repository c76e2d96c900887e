import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

@testable import GalleryServer

/// The documents the server keeps read: the same file gives the same reading, a saved one a new one.
@Suite struct OpenedDocumentsTests {
    let folder = TemporaryFolder()

    func makeDocument() throws -> URL {
        let url = folder.path("Trip.gallery")
        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Trip"))
        try document.insertImages(fromFiles: Array(Repository.sampleImageFiles().prefix(1)), cache: true)
        try document.save()
        return url
    }

    @Test func aDocumentSavedSinceIsReadAgain() async throws {
        let url = try makeDocument()
        let opened = OpenedDocuments(capacity: 2)
        let (first, version) = try await opened.current(url)
        #expect(first.gallery.title == "Trip")
        #expect(try await opened.current(url).version == version)

        try GalleryDocument.modify(at: url) { try $0.edit { $0.title = "Lisbon" } }
        let (second, newVersion) = try await opened.current(url)
        #expect(newVersion != version)
        #expect(second.gallery.title == "Lisbon")
    }

    @Test func aFileThatCannotBeReadIsTriedAgain() async throws {
        let trip = try makeDocument()
        let url = folder.path("Late.gallery")
        let opened = OpenedDocuments()
        await #expect(throws: (any Error).self) { try await opened.current(url) }
        try FileManager.default.copyItem(at: trip, to: url)
        #expect(try await opened.current(url).document.gallery.title == "Trip")
    }
}
