import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import GalleryServer

/// The document browser's routes: the listing, previews, recents, and the file operations.
@Suite struct BrowserAPITests {
    @Test func theListingShowsEachDocumentAndADamagedOneWithItsError() async throws {
        let harness = try ServerHarness()
        try Data("not a zip".utf8).write(to: harness.folder.appendingPathComponent("Broken.gallery"))
        try Data("x".utf8).write(to: harness.folder.appendingPathComponent("notes.txt"))
        let whole = try Data(contentsOf: harness.folder.appendingPathComponent("Trip.gallery"))
        try whole.prefix(whole.count / 2).write(to: harness.folder.appendingPathComponent("Cut.gallery"))
        try await harness.test { client in
            let answer = try await client.call(.get, "/api/documents", headers: harness.headers)
            #expect(answer.status == .ok)
            let listed = try #require(answer.json as? [[String: Any]])
            #expect(Set(listed.compactMap { $0["name"] as? String }) == ["Broken.gallery", "Cut.gallery", "Trip.gallery"])
            let trip = try #require(listed.first { $0["name"] as? String == "Trip.gallery" })
            let broken = try #require(listed.first { $0["name"] as? String == "Broken.gallery" })
            #expect(trip["title"] as? String == "Trip" && trip["images"] as? Int == 4 && trip["cached"] as? Int == 4)
            // The reason alone: the tile names the document (the whole path filled it on a phone).
            let error = try #require(broken["error"] as? String)
            #expect(error.hasPrefix("not a gallery document") && !error.contains(harness.folder.path), "\(error)")
            let cut = try #require(listed.first { $0["name"] as? String == "Cut.gallery" })
            #expect((cut["error"] as? String)?.hasPrefix("is truncated") == true && cut["images"] == nil, "\(cut)")
        }
    }

    @Test func theListingSortsAndSearchesThroughTheIndex() async throws {
        let harness = try ServerHarness(images: 1)
        for title in ["Zebra harbour", "Apple orchard"] {
            var document = GalleryDocument(
                creating: harness.folder.appendingPathComponent("\(title).gallery"), gallery: Gallery(title: title))
            try document.save()
        }
        try await harness.test { client in
            func names(_ query: String) async throws -> [String] {
                let answer = try await client.call(.get, "/api/documents?\(query)", headers: harness.headers)
                #expect(answer.status == .ok, "\(query)")
                return (answer.json as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            }
            let byName = try await names("sort=name"), byImages = try await names("sort=images&reverse=1")
            let found = try await names("search=harb"), none = try await names("search=nothing%20like%20it")
            #expect(byName == ["Apple orchard.gallery", "Trip.gallery", "Zebra harbour.gallery"])
            #expect(byImages.first == "Trip.gallery")
            #expect(found == ["Zebra harbour.gallery"])
            #expect(none == [])
            let wrongSort = try await client.call(.get, "/api/documents?sort=colour", headers: harness.headers)
            #expect(wrongSort.status == .badRequest)
        }
        let index = harness.server.configuration.directories.cache
        #expect(
            FileManager.default.fileExists(atPath: index.appendingPathComponent("gallery/browse-index.sqlite").path),
            "the search went through the index")
    }

    @Test func thePreviewIsTheDocumentsOwnAndAnImageOnly() async throws {
        let harness = try ServerHarness()
        var empty = GalleryDocument(creating: harness.folder.appendingPathComponent("Empty.gallery"), gallery: Gallery(title: "Empty"))
        try empty.save()
        try await harness.test { client in
            let preview = try await client.execute(uri: "/api/documents/Trip.gallery/preview", method: .get, headers: harness.headers)
            #expect(preview.status == .ok && preview.headers[.contentType] == "image/jpeg")
            #expect(Array(Data(buffer: preview.body).prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(preview.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
            #expect(try await client.call(.get, "/api/documents/Empty.gallery/preview", headers: harness.headers).status == .notFound)
        }
    }

    @Test func newDuplicateRenameTrashAndRestore() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let created = try await client.call(.post, "/api/documents", json: ["title": "Summer <b>2026</b>"], headers: harness.headers)
            #expect(created.status == .created)
            let createdName = try #require((created.json as? [String: Any])?["name"] as? String)
            #expect(try harness.document(createdName).gallery.title == "Summer <b>2026</b>")

            let duplicated = try await client.call(.post, "/api/documents/Trip.gallery/duplicate", headers: harness.headers)
            #expect(duplicated.status == .created)
            let copy = try #require((duplicated.json as? [String: Any])?["name"] as? String)
            #expect(copy != "Trip.gallery")
            #expect(try harness.document(copy).gallery.images.map(\.url) == harness.document().gallery.images.map(\.url))

            let renamed = try await client.call(
                .post, "/api/documents/\(copy.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!)/rename",
                json: ["name": "Harbour"], headers: harness.headers)
            #expect(renamed.status == .ok && (renamed.json as? [String: Any])?["name"] as? String == "Harbour.gallery")
            let taken = try await client.call(
                .post, "/api/documents/Harbour.gallery/rename", json: ["name": "Trip"], headers: harness.headers)
            #expect(taken.status == .conflict, "a rename never replaces another document")

            let trashed = try await client.call(.post, "/api/documents/Harbour.gallery/trash", headers: harness.headers)
            #expect(trashed.status == .ok)
            #expect(!FileManager.default.fileExists(atPath: harness.folder.appendingPathComponent("Harbour.gallery").path))
            let listed = try #require(try await client.call(.get, "/api/trash", headers: harness.headers).json as? [[String: Any]])
            #expect(listed.map { $0["originalName"] as? String } == ["Harbour.gallery"])
            let trashName = try #require(listed.first?["name"] as? String)

            let restored = try await client.call(.post, "/api/trash/\(trashName)/restore", headers: harness.headers)
            #expect(restored.status == .ok && (restored.json as? [String: Any])?["name"] as? String == "Harbour.gallery")
            #expect(try harness.document("Harbour.gallery").gallery.images.count == 4)

            let recents = try #require(try await client.call(.get, "/api/recents", headers: harness.headers).json as? [[String: Any]])
            #expect(Set(recents.compactMap { $0["name"] as? String }).isSuperset(of: ["Harbour.gallery", createdName]))
        }
    }

    @Test func theSitesFilesAreServedWithTheirTypes() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            for (uri, type) in [
                ("/", "text/html"), ("/gallery/Trip.gallery", "text/html"), ("/assets/app.css", "text/css"),
                ("/assets/common.js", "text/javascript"), ("/assets/browser.js", "text/javascript"),
                ("/assets/gallery.js", "text/javascript"),
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: harness.headers)
                #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix(type) == true, "\(uri)")
            }
            #expect(try await client.execute(uri: "/assets/browser.html", method: .get, headers: harness.headers).status == .notFound)
            #expect(try await client.execute(uri: "/favicon.ico", method: .get, headers: harness.headers).status == .noContent)
        }
    }

    /// Every style sheet and script the pages list is served, style sheets with their breakpoint
    /// filled in (`PageAssets.styleSheet`): a script missing from `Site` would leave the page
    /// without a part.
    @Test(arguments: ["/", "/gallery/Trip.gallery"])
    func everyFileAPageListsIsServed(page: String) async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let answer = try await client.execute(uri: page, method: .get, headers: harness.headers)
            let html = String(decoding: Data(buffer: answer.body), as: UTF8.self)
            let listed = try NSRegularExpression(pattern: #"(?:src|href)="(/assets/[^"]+)""#)
                .matches(in: html, range: NSRange(html.startIndex..., in: html))
                .map { String(html[Range($0.range(at: 1), in: html)!]) }
            #expect(listed.count >= 3, "\(listed)")
            for uri in listed {
                let response = try await client.execute(uri: uri, method: .get, headers: harness.headers)
                #expect(response.status == .ok, "\(uri)")
                #expect(!String(decoding: Data(buffer: response.body), as: UTF8.self).contains("{{"), "\(uri) has a placeholder left")
            }
        }
    }

    /// One viewer for the app and the export: the page's viewer files are the ones the HTML
    /// export writes, byte for byte.
    @Test(arguments: PageAssets.names)
    func theViewerIsTheExportsOwn(name: String) async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let response = try await client.execute(uri: "/assets/\(name)", method: .get, headers: harness.headers)
            #expect(response.status == .ok)
            #expect(Data(buffer: response.body) == (try PageAssets.data(named: name)))
        }
    }
}
