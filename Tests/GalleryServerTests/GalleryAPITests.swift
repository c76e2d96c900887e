import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import GalleryServer

/// A gallery's routes: its state and layout, edits, stored images, drops, uploads and retries.
@Suite struct GalleryAPITests {
    @Test(arguments: [("justified", 800.0), ("grid", 800.0), ("justified", 390.0), ("grid", 1600.0)])
    func theStateCarriesTheLibrarysLayoutForThePagesWidth(style: String, width: Double) async throws {
        let harness = try ServerHarness()
        let gallery = try harness.document().gallery
        try await harness.test { client in
            let answer = try await client.call(
                .get, "/api/galleries/Trip.gallery?width=\(Int(width))&style=\(style)", headers: harness.headers)
            #expect(answer.status == .ok)
            let state = try StateView(answer.json)
            #expect(state.ids == gallery.images.map { $0.id.uuidString.lowercased() })
            #expect(state.json["title"] as? String == "Trip")
            // The frames are the library's page style, not the page's own arithmetic.
            let ratios = gallery.images.map(\.aspectRatio)
            let layout = GalleryState.Layout(
                .screen(width: width, columns: gallery.columns, arrangement: PageStyle.Arrangement(rawValue: style)!), aspectRatios: ratios)
            let spacing = width < 600 ? 4.0 : 6.0
            let library =
                style == "grid"
                ? GalleryLayout.grid(aspectRatios: ratios, columns: gallery.columns, width: width, spacing: spacing)
                : GalleryLayout.justified(
                    aspectRatios: ratios, width: width,
                    rowHeight: (width - Double(gallery.columns - 1) * spacing) / Double(gallery.columns), spacing: spacing)
            #expect(state.frames == layout.frames)
            // The viewer's filmstrip and the column range are the library's too.
            #expect(state.json["strip"] as? [String: Double] == ["cell": 56, "spacing": 4])
            #expect(state.json["columnRange"] as? [Int] == [1, 12])
            #expect(state.json["renditions"] as? [Int] == Rendition.ladder, "the sizes the page may ask for")
            #expect(state.json["thumbnailEdge"] as? Int == Thumbnailer.longEdge)
            for (item, image) in zip(state.items, gallery.images) {
                // Only what the page's scripts read (the viewer widens a strip cell from the ratio;
                // no rendition is asked for larger than the image's long edge).
                let read: Set = ["id", "status", "url", "caption", "error", "alt", "isCached", "isPlaceholder", "ratio", "edge"]
                #expect(Set(item.keys).isSubset(of: read), "\(item.keys)")
                #expect(item["edge"] as? Int == max(image.width ?? 0, image.height ?? 0))
                // The ratio the viewer's strip widens it towards: the layout's, to 4 decimals.
                let ratio = try #require(item["ratio"] as? Double)
                #expect(abs(ratio - image.aspectRatio) <= 0.00005)
            }
            for (frame, expected) in zip(state.frames, library.frames) {
                #expect(
                    abs(frame[0] - expected.x) <= 0.005 && abs(frame[2] - expected.width) <= 0.005
                        && abs(frame[3] - expected.height) <= 0.005)
                #expect(frame[0] + frame[2] <= width + 0.01)
            }
        }
    }

    /// `first=N`: the first N items and frames of the whole state, its height and count unchanged.
    @Test func theFirstItemsAloneAreTheStartOfTheWholeState() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let whole = try StateView(try await client.call(.get, "/api/galleries/Trip.gallery?width=800", headers: harness.headers).json)
            let first = try StateView(
                try await client.call(.get, "/api/galleries/Trip.gallery?width=800&first=2", headers: harness.headers).json)
            #expect(whole.ids.count == 4 && whole.json["count"] as? Int == 4)
            #expect(first.ids == Array(whole.ids.prefix(2)) && first.frames == Array(whole.frames.prefix(2)))
            #expect(first.json["count"] as? Int == 4)
            let height = { (state: StateView) in (state.json["layout"] as? [String: Any])?["height"] as? Double }
            #expect(height(first) != nil && height(first) == height(whole))
        }
    }

    /// `columns=N` lays the state out N per row (clamped to the range) and leaves the document alone.
    @Test func aLayoutWithOtherColumnsIsShownWithoutAnEdit() async throws {
        let harness = try ServerHarness()
        let before = try Data(contentsOf: harness.folder.appendingPathComponent("Trip.gallery"))
        try await harness.test { client in
            for (asked, shown) in [(1, 1), (5, 5), (40, 12)] {
                let state = try StateView(
                    try await client.call(
                        .get, "/api/galleries/Trip.gallery?width=800&style=grid&columns=\(asked)", headers: harness.headers
                    )
                    .json)
                #expect(state.columns == shown)
                let ratios = try harness.document().gallery.images.map(\.aspectRatio)
                let layout = GalleryState.Layout(.screen(width: 800, columns: shown, arrangement: .grid), aspectRatios: ratios)
                #expect(state.frames == layout.frames)
            }
        }
        #expect(try Data(contentsOf: harness.folder.appendingPathComponent("Trip.gallery")) == before)
    }

    @Test func eachEditActionChangesTheDocumentAsTheCLIWould() async throws {
        let harness = try ServerHarness()
        let ids = try harness.document().ids
        try await harness.test { client in
            func edit(_ json: [String: Any]) async throws -> StateView {
                let answer = try await client.call(
                    .post, "/api/galleries/Trip.gallery/edits?width=600", json: json, headers: harness.headers)
                #expect(answer.status == .ok, "\(json): \(String(describing: answer.json))")
                return try StateView(answer.json)
            }
            var state = try await edit(["action": "move", "ids": [ids[3], ids[1]], "before": ids[0]])
            #expect(state.ids == [ids[1], ids[3], ids[0], ids[2]])
            #expect(try harness.document().ids == state.ids)
            state = try await edit(["action": "move", "ids": [ids[1]], "before": NSNull()])
            #expect(try harness.document().ids == [ids[3], ids[0], ids[2], ids[1]])
            state = try await edit(["action": "remove", "ids": [ids[0], ids[2]]])
            #expect(try harness.document().ids == [ids[3], ids[1]])
            #expect(state.ids == [ids[3], ids[1]])
            state = try await edit(["action": "columns", "count": 7])
            #expect(try harness.document().gallery.columns == 7)
            #expect(state.columns == 7)
            _ = try await edit(["action": "caption", "id": ids[1], "text": "The harbour <script>"])
            #expect(try harness.document().gallery.images[1].caption == "The harbour <script>")
            _ = try await edit(["action": "title", "text": "Trip 2026"])
            #expect(try harness.document().gallery.title == "Trip 2026")
            for _ in 0..<4 { _ = try await edit(["action": "undo"]) }
            #expect(try harness.document().ids == [ids[3], ids[0], ids[2], ids[1]], "four undos bring the removed images back")
            state = try await edit(["action": "redo"])
            #expect(try harness.document().ids == [ids[3], ids[1]])
            #expect(state.json["canRedo"] as? Bool == true)
        }
    }

    @Test(arguments: [
        (#"{"action": "move"}"#, 400),
        (#"{"action": "spin"}"#, 400),
        (#"{"action": "columns", "count": 13}"#, 400),
        (#"{"action": "columns", "count": "three"}"#, 400),
        (#"{"action": "remove", "ids": ["not-a-uuid"]}"#, 400),
        (#"{"action": "remove", "ids": ["\#(UUID().uuidString)"]}"#, 409),
        (#"{"action": "redo"}"#, 400),
        (#"{"action": "title", "text": "\#(String(repeating: "x", count: 10_001))"}"#, 400),
        (#"{"action": "caption", "text": "x"}"#, 400),
        ("not json", 400),
    ])
    func aWrongEditIsRefusedWithOneLineAndChangesNothing(body: String, statusCode: Int) async throws {
        let status = HTTPResponse.Status(code: statusCode)
        let harness = try ServerHarness()
        let before = try Data(contentsOf: harness.folder.appendingPathComponent("Trip.gallery"))
        try await harness.test { client in
            var headers = harness.headers
            headers[.contentType] = "application/json"
            let response = try await client.execute(
                uri: "/api/galleries/Trip.gallery/edits", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(response.status == status, "\(body)")
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
            let message = try #require((answer as? [String: Any])?["error"] as? String)
            #expect(!message.isEmpty && !message.contains("\n"))
        }
        #expect(try Data(contentsOf: harness.folder.appendingPathComponent("Trip.gallery")) == before, "nothing was written")
    }

    @Test func storedImagesAndThumbnailsAreServedFromTheDocument() async throws {
        let harness = try ServerHarness()
        let document = try harness.document()
        let image = document.gallery.images[0]
        try await harness.test { client in
            let original = try await client.execute(
                uri: "/api/galleries/Trip.gallery/images/\(image.id)", method: .get, headers: harness.headers)
            let cached = try document.cachedBytes(of: image)
            #expect(original.status == .ok && Data(buffer: original.body) == cached)
            #expect(original.headers[.contentType] == image.cached?.mediaType)
            let thumbnail = try await client.execute(
                uri: "/api/galleries/Trip.gallery/thumbnails/\(image.id)", method: .get, headers: harness.headers)
            let stored = try document.thumbnailBytes(of: image)
            #expect(thumbnail.status == .ok && Data(buffer: thumbnail.body) == stored)
            #expect(
                try await client.call(.get, "/api/galleries/Trip.gallery/images/\(UUID())", headers: harness.headers).status == .notFound)
            #expect(try await client.call(.get, "/api/galleries/Trip.gallery/images/x", headers: harness.headers).status == .badRequest)
        }
    }

    /// Display sizes: made from the stored bytes the first time (upright, never enlarged) and kept
    /// in the image cache; a GIF is served as it is; a size not on the ladder is not found.
    @Test func renditionsAreMadeFromTheStoredBytesAndKeptInTheCache() async throws {
        let harness = try ServerHarness(images: 6)
        let document = try harness.document()
        let cache = ImageCache(directories: harness.services.configuration.directories)
        try await harness.test { client in
            for (image, expected) in zip(document.gallery.images, [512, 512, 300, 400, 480]) {
                let answer = try await client.execute(
                    uri: "/api/galleries/Trip.gallery/renditions/\(image.id)/512", method: .get, headers: harness.headers)
                #expect(answer.status == .ok && answer.headers[.contentType] == "image/jpeg")
                let jpeg = Data(buffer: answer.body)
                let size = try ImageProbe.info(forFileAt: try harness.temporary.write(jpeg, to: "\(image.id).jpg"))
                #expect(max(size.width, size.height) == expected, "\(image.url.lastPathComponent)")
                #expect(abs(size.aspectRatio - image.aspectRatio) < 0.02, "upright: \(image.url.lastPathComponent)")
                let kept = cache.object(forKey: ImageCache.key(forRenditionOf: image.cached!.sha256, longEdge: 512))
                #expect(kept?.bytes == jpeg, "kept in the cache")
            }
            let gif = document.gallery.images[5]
            let animated = try await client.execute(
                uri: "/api/galleries/Trip.gallery/renditions/\(gif.id)/1024", method: .get, headers: harness.headers)
            let stored = try document.cachedBytes(of: gif)
            #expect(animated.headers[.contentType] == "image/gif" && Data(buffer: animated.body) == stored)
            let id = document.gallery.images[0].id
            for path in ["renditions/\(id)/500", "renditions/\(id)/x", "renditions/\(UUID())/512"] {
                #expect(
                    try await client.call(.get, "/api/galleries/Trip.gallery/\(path)", headers: harness.headers).status == .notFound,
                    "\(path)")
            }
        }
    }

    /// A tile's size asked for, the image's larger sizes (the viewer's) are made ahead and kept,
    /// so that a tap finds them made; smaller sizes are not.
    @Test func theLargerSizesOfATileAreMadeAhead() async throws {
        let harness = try ServerHarness(images: 2)
        let document = try harness.document()
        let cache = ImageCache(directories: harness.services.configuration.directories)
        let image = document.gallery.images[0]
        let sha256 = try #require(image.cached?.sha256)
        @Sendable func kept(_ edge: Int) -> Data? { cache.object(forKey: ImageCache.key(forRenditionOf: sha256, longEdge: edge))?.bytes }
        try await harness.test { client in
            let tile = try await client.execute(
                uri: "/api/galleries/Trip.gallery/renditions/\(image.id)/1024", method: .get, headers: harness.headers)
            #expect(tile.status == .ok)
            await harness.services.renditions.aheadIsDone()
            let viewer = try #require(kept(2048), "the viewer's size, made ahead")
            #expect(kept(512) == nil, "no smaller size")
            let asked = try await client.execute(
                uri: "/api/galleries/Trip.gallery/renditions/\(image.id)/2048", method: .get, headers: harness.headers)
            #expect(Data(buffer: asked.body) == viewer, "answered with the size made ahead")
        }
    }

    @Test func droppedURLsArePlaceholdersAtOnceThenImagesInDropOrder() async throws {
        let images = try ImageServer()
        let harness = try ServerHarness()
        let ids = try harness.document().ids
        // Held by the image server until the test lets them go: nothing here waits on a clock.
        let (slowKey, fastKey) = (UUID().uuidString, UUID().uuidString)
        let slow = images.url("/gated/\(slowKey)/01-dawn.jpg").absoluteString
        let fast = images.url("/gated/\(fastKey)/02-forest.jpg").absoluteString
        let wrapped =
            "https://www.google.com/url?q=" + images.url("/image/03-portrait-exif6.jpg?tag=wrapped").absoluteString.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
        try await harness.test { client in
            let first = try await client.call(
                .post, "/api/galleries/Trip.gallery/drops", json: ["urls": [slow + "\r\n" + fast], "before": ids[1]],
                headers: harness.headers)
            #expect(first.status == .accepted)
            let state = try StateView(first.json)
            #expect(state.items.map { $0["status"] as? String } == ["ok", "loading", "loading", "ok", "ok", "ok"])
            #expect(state.items[1]["url"] as? String == slow && state.items[2]["url"] as? String == fast)
            #expect(try harness.document().ids == ids, "nothing is inserted before it arrives")
            // A second drop at the same place lands after the first, though it arrives sooner.
            let second = try await client.call(
                .post, "/api/galleries/Trip.gallery/drops", json: ["urls": [wrapped], "before": ids[1]], headers: harness.headers)
            #expect(second.status == .accepted)
            try await images.openGate(fastKey)
            try await images.openGate(slowKey)
            await harness.services.arrivals.waitForAll()
            let gallery = try harness.document().gallery
            #expect(
                gallery.images.map(\.url.absoluteString)[1...3] == [
                    slow, fast, images.url("/image/03-portrait-exif6.jpg?tag=wrapped").absoluteString,
                ])
            #expect(gallery.images[1...3].allSatisfy { $0.isCached && $0.thumbnail != nil && !$0.hasFailed })
            #expect(
                try await StateView(client.call(.get, "/api/galleries/Trip.gallery", headers: harness.headers).json).items.allSatisfy {
                    $0["status"] as? String == "ok"
                })
        }
    }

    /// Three links dropped at once: each goes in as soon as it has come, in the drop's order
    /// (they all waited for the slowest, here one held until the test lets it go).
    @Test func eachImageOfADropGoesInWhenItHasCome() async throws {
        let images = try ImageServer()
        let harness = try ServerHarness()
        let ids = try harness.document().ids
        let key = UUID().uuidString
        let held = images.url("/gated/\(key)/01-dawn.jpg").absoluteString
        let fast = ["02-forest.jpg", "05-leaf.webp"].map { images.url("/image/\($0)?tag=\(key)").absoluteString }
        try await harness.test { client in
            _ = try await client.call(
                .post, "/api/galleries/Trip.gallery/drops", json: ["urls": [([held] + fast).joined(separator: "\n")], "before": ids[1]],
                headers: harness.headers)
            var urls: [String] = []
            for _ in 0..<600 where urls.count < ids.count + 2 {
                try await Task.sleep(for: .milliseconds(100))
                urls = try harness.document().gallery.images.map(\.url.absoluteString)
            }
            #expect(Array(urls[1...2]) == fast, "the two that came are in, in order, while the first is held: \(urls)")
            let state = try StateView(try await client.call(.get, "/api/galleries/Trip.gallery", headers: harness.headers).json)
            #expect(
                state.items[1]["url"] as? String == held && state.items[1]["status"] as? String == "loading", "its placeholder stands first"
            )
            try await images.openGate(key)
            await harness.services.arrivals.waitForAll()
            #expect(Array(try harness.document().gallery.images.map(\.url.absoluteString)[1...3]) == [held] + fast)
        }
    }

    @Test func aFailedDropIsAnErrorTileThatCanBeRetried() async throws {
        let images = try ImageServer()
        let harness = try ServerHarness(images: 1)
        let flaky = images.url("/flaky/\(UUID())/04-diagram.png").absoluteString
        try await harness.test { client in
            _ = try await client.call(.post, "/api/galleries/Trip.gallery/drops", json: ["urls": [flaky]], headers: harness.headers)
            await harness.services.arrivals.waitForAll()
            let failed = try #require(try harness.document().gallery.images.last)
            #expect(failed.hasFailed && failed.aspectRatio == 1)
            let retry = try await client.call(
                .post, "/api/galleries/Trip.gallery/retries", json: ["id": failed.id.uuidString], headers: harness.headers)
            #expect(retry.status == .accepted)
            #expect(try StateView(retry.json).items.last?["status"] as? String == "loading")
            await harness.services.arrivals.waitForAll()
            let retried = try #require(try harness.document().gallery.images.last)
            #expect(retried.id == failed.id && !retried.hasFailed && retried.isCached)
            let again = try await client.call(
                .post, "/api/galleries/Trip.gallery/retries", json: ["id": failed.id.uuidString], headers: harness.headers)
            #expect(again.status == .badRequest, "only a failed image is retried")
        }
    }

    @Test(arguments: [
        (["file:///etc/passwd"], HTTPResponse.Status.badRequest),
        (["javascript:alert(1)"], .badRequest),
        ([""], .badRequest),
        (Array(repeating: "http://127.0.0.1:9/x.jpg", count: 101), .contentTooLarge),
    ])
    func dropsOfNonWebURLsOrTooManyAreRefused(urls: [String], status: HTTPResponse.Status) async throws {
        let harness = try ServerHarness(images: 1)
        try await harness.test { client in
            let answer = try await client.call(.post, "/api/galleries/Trip.gallery/drops", json: ["urls": urls], headers: harness.headers)
            #expect(answer.status == status)
        }
        #expect(try harness.document().gallery.images.count == 1)
    }

    @Test func anUploadedImageIsCheckedByItsBytesAndInserted() async throws {
        let harness = try ServerHarness(images: 2) { $0.maximumUploadBytes = 200_000 }
        let ids = try harness.document().ids
        let file = try Data(contentsOf: Repository.sampleImage("05"))
        try #require(file.count < 200_000)
        try await harness.test { client in
            var headers = harness.headers
            headers[.fileName] = "beach%20photo.txt"  // the name says nothing; the bytes are an image
            let uploaded = try await client.execute(
                uri: "/api/galleries/Trip.gallery/uploads?before=\(ids[0])", method: .post, headers: headers, body: ByteBuffer(bytes: file))
            #expect(uploaded.status == .accepted)
            await harness.services.arrivals.waitForAll()
            let gallery = try harness.document().gallery
            #expect(gallery.images.count == 3 && gallery.images[0].isCached)
            // Where it came from (spec §5.3), not the server's temporary copy.
            #expect(gallery.images[0].url.absoluteString == "file:///beach%20photo.txt#upload")
            #expect(gallery.images[0].isUpload)
            #expect(try harness.document().cachedBytes(of: gallery.images[0]) == file)

            headers[.fileName] = "..%2F..%2Fevil%00.jpg"  // a label only: never a path
            let again = try await client.execute(
                uri: "/api/galleries/Trip.gallery/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: file))
            #expect(again.status == .accepted)
            await harness.services.arrivals.waitForAll()
            #expect(try harness.document().gallery.images.last?.url.absoluteString == "file:///evil.jpg#upload")

            headers[.fileName] = "photo.jpg"
            let text = try await client.call(.post, "/api/galleries/Trip.gallery/uploads", json: ["not": "an image"], headers: headers)
            #expect(text.status == .unsupportedMediaType)
            let big = try await client.execute(
                uri: "/api/galleries/Trip.gallery/uploads", method: .post, headers: headers,
                body: ByteBuffer(repeating: 0xFF, count: 200_001))
            #expect(big.status == .contentTooLarge)
        }
        #expect(try harness.document().gallery.images.count == 4)
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: harness.services.uploads.path))?.isEmpty ?? true,
            "no upload is left behind")
    }

    /// An upload keeps the photo's own credit; the viewer's info panel reads it with the photo's
    /// basics, and its edit sets the image's credit (or, without an id, the gallery's).
    @Test func anUploadKeepsItsCreditAndTheInfoPanelReadsAndSetsIt() async throws {
        let exiftool = try #require(Command.which("exiftool"), "exiftool is installed by .ci/install")
        let harness = try ServerHarness(images: 1)
        let folder = TemporaryFolder()
        let photo = folder.path("photo.jpg")
        try FileManager.default.copyItem(at: Repository.sampleImage("01-dawn"), to: photo)
        let written = try Command.run(
            exiftool, ["-q", "-overwrite_original", "-Artist=Ana Lima", "-Model=X-T5", "-Make=FUJIFILM", "photo.jpg"], in: folder.url)
        try #require(written.status == 0, "\(written)")
        try await harness.test { client in
            var headers = harness.headers
            headers[.fileName] = "photo.jpg"
            let uploaded = try await client.execute(
                uri: "/api/galleries/Trip.gallery/uploads", method: .post, headers: headers,
                body: ByteBuffer(bytes: try Data(contentsOf: photo)))
            #expect(uploaded.status == .accepted)
            await harness.services.arrivals.waitForAll()
            let id = try #require(try harness.document().gallery.images.last?.id)
            #expect(try harness.document().gallery.images.last?.attribution == Attribution(creator: "Ana Lima"))

            let info = try await client.call(.get, "/api/galleries/Trip.gallery/images/\(id.uuidString)/info", headers: harness.headers)
            #expect(info.status == .ok)
            let fields = try #require(info.json as? [String: Any])
            #expect(fields["camera"] as? String == "FUJIFILM X-T5")
            #expect(fields["size"] as? String == "640 × 427")
            #expect(fields["own"] as? [String: String] == ["creator": "Ana Lima"])

            let edited = try await client.call(
                .post, "/api/galleries/Trip.gallery/edits",
                json: ["action": "credit", "id": id.uuidString, "license": "http://creativecommons.org/licenses/by/4.0/"],
                headers: harness.headers)
            #expect(edited.status == .ok)
            let gallery = try await client.call(
                .post, "/api/galleries/Trip.gallery/edits", json: ["action": "credit", "source": "https://example.org/trip"],
                headers: harness.headers)
            #expect(gallery.status == .ok)
            let items = try #require((gallery.json as? [String: Any])?["items"] as? [[String: Any]])
            #expect(items.last?["credit"] as? String == "Ana Lima · CC BY 4.0", "\(items)")
            let empty = try await client.call(
                .post, "/api/galleries/Trip.gallery/edits", json: ["action": "credit"], headers: harness.headers)
            #expect(empty.status == .badRequest)
        }
        let document = try harness.document().gallery
        #expect(
            document.images.last?.attribution == Attribution(creator: "Ana Lima", license: "http://creativecommons.org/licenses/by/4.0/"))
        #expect(document.attribution == Attribution(source: "https://example.org/trip"))
    }
}
