import Foundation
import GalleryKit
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// A gallery's API: its state laid out for the page, edits, drops of web images, uploads of
/// image files, retries, the stored images and thumbnails, and a stream of change events.
///
/// Routes that change the document answer with its new state for the width and layout style in
/// the query (`?width=1200&style=justified`), so the page redraws from one answer. `GET` with
/// `&first=N` answers with the first N items only (and `count`, the whole number): a page opening
/// a gallery of 100,000 images shows its first screen before the whole state (megabytes) comes;
/// with `&columns=N`, laid out N images per row, the document unchanged (a pinch in progress).
struct GalleryRoutes {
    let services: Services
    var folder: DocumentFolder { services.folder }

    struct Drop: Decodable {
        /// URLs as dropped: `text/uri-list` lines or links; search-engine wrappers are unwrapped.
        var urls: [String]
        var before: UUID?
    }

    struct Retry: Decodable {
        var id: UUID
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api/galleries")
        api.get(":name") { request, context in
            try await currentState(of: document(context), for: request, status: .ok)
        }
        api.post(":name/edits") { request, context in
            let url = try document(context)
            let edit = try GalleryEdit(await JSONBody.decode(GalleryEdit.Request.self, from: request))
            let change: EditQueue.Edit
            if let plain = edit.change { change = plain } else { change = try await keeping(edit, in: url) }
            let outcome = try await services.edits.apply(change, to: url)
            _ = services.recents.record(url, .edited)
            await services.events.documentChanged(url)
            return JSONBody.response(await state(of: url, outcome, for: request))
        }
        api.post(":name/drops") { request, context in
            let url = try document(context)
            let drop = try await JSONBody.decode(Drop.self, from: request)
            let sources = try webSources(drop.urls)
            _ = try await services.arrivals.receive(sources, before: drop.before, into: url, services: services)
            return try await currentState(of: url, for: request, status: .accepted)
        }
        api.post(":name/uploads") { request, context in
            let url = try document(context)
            let (file, name) = try await storeUpload(request)
            let before = request.uri.queryParameters["before"].flatMap { UUID(uuidString: String($0)) }
            _ = try await services.arrivals.receive(
                [name], before: before, into: url, services: services, discarding: file.deletingLastPathComponent()
            ) { try PreparedImages(upload: file, named: name) }
            return try await currentState(of: url, for: request, status: .accepted)
        }
        api.post(":name/retries") { request, context in
            let url = try document(context)
            let id = try await JSONBody.decode(Retry.self, from: request).id
            let opened = try await services.openedDocuments.current(url).document
            guard let image = opened.gallery.images.first(where: { $0.id == id }) else { throw APIError(Gallery.imageGone) }
            guard case .web = try ImageSource(image.url) else {
                throw APIError(.badRequest, "\(url.lastPathComponent): only web images are fetched again here; this one is a local file")
            }
            try await services.arrivals.retry(image, in: url, services: services)
            return try await currentState(of: url, for: request, status: .accepted)
        }
        api.get(":name/images/:id") { request, context in
            try await image(request, context, .original)
        }
        api.get(":name/images/:id/info") { request, context in
            try await information(request, context)
        }
        api.get(":name/thumbnails/:id") { request, context in
            try await image(request, context, .thumbnail)
        }
        api.get(":name/renditions/:id/:edge") { request, context in
            guard let edge = Int(try context.parameters.require("edge")), Rendition.ladder.contains(edge) else {
                throw APIError(.notFound, "no such size: sizes are \(Rendition.ladder.map(String.init).joined(separator: ", ")) pixels")
            }
            return try await image(request, context, .rendition(edge))
        }
        api.get(":name/events") { _, context in
            let url = try document(context)
            let events = await services.events.subscribe(to: url)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    // Shutting down waits for every response to end: this one ends then.
                    for await event in events.cancelOnGracefulShutdown() {
                        let data = #"{"version":"\#(event.version)","arriving":\#(event.arriving)}"#
                        try await writer.write(ByteBuffer(string: "event: change\ndata: \(data)\n\n"))
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    private func document(_ context: BasicRequestContext) throws -> URL {
        try folder.document(named: context.parameters.require("name"))
    }

    /// The edit that stores the bytes of the images `keep` names — those not stored yet — in
    /// the document, fetched first (from the cache when they were viewed). All or nothing: if
    /// one cannot be had, none is kept and the answer says which and why.
    private func keeping(_ edit: GalleryEdit, in url: URL) async throws -> EditQueue.Edit {
        guard case .keep(let ids) = edit else { throw APIError(.badRequest, "not a keep") }
        let opened = try await services.openedDocuments.current(url).document
        let wanted = Set(ids)
        let images = opened.gallery.images.filter { wanted.contains($0.id) && $0.needsFetching }
        guard !images.isEmpty else {
            throw APIError(.badRequest, "\(url.lastPathComponent): those images are stored in it already (or failed, or are gone)")
        }
        let fetcher = services.fetcher
        let refresh: ImageRefresh
        do {
            refresh = try await ImageRefresh.fetching(images) {
                try await PreparedImages.prepare($0, cache: true, thumbnails: true, fetcher: fetcher)
            }
        } catch { throw APIError.from(error) }
        if let failure = refresh.prepared.failures.first {
            let count = refresh.prepared.failures.count
            throw APIError(
                .badGateway,
                "\(count == 1 ? "an image" : "\(count) images") could not be fetched, so none was kept: \(failure.source): \(failure.reason)"
            )
        }
        return { document in try refresh.apply(to: &document, keepingStatusOfFailures: true) }
    }

    /// The document as it is on disk. Its version is read before the file: a save landing in
    /// between makes the answer look older than it is (the page loads again at the next event),
    /// never newer (the page would keep showing the older content).
    private func currentState(of url: URL, for request: Request, status: HTTPResponse.Status) async throws -> Response {
        let (opened, version) = try await services.openedDocuments.current(url)
        let snapshot = EditQueue.Outcome(gallery: opened.gallery, canUndo: opened.canUndo, canRedo: opened.canRedo, version: version)
        return JSONBody.response(await state(of: url, snapshot, for: request), status: status)
    }

    private func state(of url: URL, _ snapshot: EditQueue.Outcome, for request: Request) async -> GalleryState {
        let query = request.uri.queryParameters
        let width = query["width"].flatMap { Double(String($0)) }.map { min(max($0, 100), 10_000) } ?? 1200
        let arrangement = query["style"].flatMap { PageStyle.Arrangement(rawValue: String($0)) } ?? .justified
        // `columns=N`: laid out with N images per row without changing the document (a pinch in
        // progress shows it; the pinch's end is a `columns` edit).
        var gallery = snapshot.gallery
        if let columns = query["columns"].flatMap({ Int(String($0)) }) {
            gallery.columns = min(max(columns, Gallery.columnRange.lowerBound), Gallery.columnRange.upperBound)
        }
        return GalleryState(
            name: url.lastPathComponent, gallery: gallery, canUndo: snapshot.canUndo, canRedo: snapshot.canRedo,
            version: snapshot.version,
            placeholders: await services.arrivals.placeholders(in: url), retrying: await services.arrivals.isRetrying(in: url),
            arrivalFailure: await services.arrivals.lastFailure(in: url),
            arrangement: arrangement, width: width,
            // `first=N`: the first N items only (the page's first answer for a large gallery).
            limit: query["first"].flatMap { Int(String($0)) }.map { max($0, 0) } ?? .max
        )
    }

    /// The dropped URLs as web images: at most the configured number, http and https only (a
    /// page cannot make the server read a local file).
    private func webSources(_ urls: [String]) throws -> [ImageSource] {
        let lines = urls.flatMap { $0.split(whereSeparator: \.isNewline) }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }  // text/uri-list comments
        guard !lines.isEmpty else { throw APIError(.badRequest, "the drop holds no URL") }
        guard lines.count <= services.configuration.maximumDroppedImages else {
            throw APIError(
                .contentTooLarge, "\(lines.count) images dropped at once; at most \(services.configuration.maximumDroppedImages) are taken")
        }
        return try lines.map { line in
            guard let url = URL(string: line), let source = try? ImageSource(url), case .web = source else {
                throw APIError(.badRequest, "\(line): not an http or https URL")
            }
            return source
        }
    }

    /// Stores an uploaded file (at most the configured size) in a folder of its own and checks
    /// by reading its header, not its name, that it is an image.
    /// - Returns: the file, and the name the browser gave it (one plain component).
    private func storeUpload(_ request: Request) async throws -> (file: URL, name: String) {
        let bytes = try await JSONBody.bytes(of: request, maximumBytes: services.configuration.maximumUploadBytes)
        guard !bytes.isEmpty else { throw APIError(.badRequest, "the upload is empty") }
        // The name is only a label (the image's upload URL is made of it): one plain component.
        let given = (request.headers[.fileName].flatMap { $0.removingPercentEncoding } ?? "upload")
            .unicodeScalars.filter { $0.value >= 0x20 && $0 != "\u{7F}" }.map(String.init).joined()
        let name = given.split(separator: "/").last.map(String.init).flatMap { $0.hasPrefix(".") || $0.isEmpty ? nil : $0 } ?? "upload"
        let folder = services.uploads.appendingPathComponent(UUID().uuidString)
        let file = folder.appendingPathComponent(String(name.prefix(200)))
        try await offloaded {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try bytes.write(to: file)
            do {
                _ = try ImageProbe.info(forFileAt: file)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw APIError(.unsupportedMediaType, "\(name): not an image this app can read")
            }
        }
        return (file, String(name.prefix(200)))
    }

    /// An image in the size `shown` asks for: made from the bytes stored in the document, or
    /// else fetched on view (`RemoteImages`), the document unchanged. Thumbnails and renditions
    /// are made once and kept in the image cache. A failure to fetch answers 502 with the
    /// reason; `?retry=…` fetches again after one.
    private func image(_ request: Request, _ context: BasicRequestContext, _ shown: ImageSize) async throws -> Response {
        let url = try document(context)
        guard let id = UUID(uuidString: try context.parameters.require("id")) else { throw APIError(.badRequest, "not an image id") }
        let document = try await services.openedDocuments.current(url).document
        guard let image = document.gallery.images.first(where: { $0.id == id }) else {
            throw APIError(.notFound, "\(url.lastPathComponent): no such image")
        }
        if let (bytes, type) = try await storedImage(image, shown, in: document) {
            return ImageBody.response(bytes, mediaType: type, tag: "\(id)-\(shown.tag)-\(bytes.count)")
        }
        guard !image.hasFailed else { throw APIError(.notFound, "\(url.lastPathComponent): the image failed to load when added") }
        let source: ImageSource
        do { source = try ImageSource(image.url) } catch let error as GalleryError { throw APIError(.notFound, error.reason) }
        let retrying = request.uri.queryParameters["retry"] != nil
        switch await services.remoteImages.image(source, shown, retrying: retrying) {
        case .success(let (bytes, type)):
            return ImageBody.response(bytes, mediaType: type, tag: "\(id)-r\(shown.tag)-\(bytes.count)")
        case .failure(let failure):
            throw APIError(.badGateway, failure.reason)
        }
    }

    /// What the viewer's info panel shows of an image: its own credit and the gallery's (which
    /// fills what it leaves out), and the photo's basics read from its bytes (stored, in the
    /// image cache, or its file; none for a failed image).
    private func information(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let url = try document(context)
        guard let id = UUID(uuidString: try context.parameters.require("id")) else { throw APIError(.badRequest, "not an image id") }
        let document = try await services.openedDocuments.current(url).document
        guard let offset = document.gallery.images.firstIndex(where: { $0.id == id }) else {
            throw APIError(.notFound, "\(url.lastPathComponent): no such image")
        }
        let image = document.gallery.images[offset]
        var bytes = try await storedImage(image, .original, in: document)?.0
        if bytes == nil, !image.hasFailed, let source = try? ImageSource(image.url),
            case .success(let (fetched, _)) = await services.remoteImages.image(source, .original, retrying: false)
        {
            bytes = fetched
        }
        let found = bytes
        let metadata = try await offloaded { try found.map { try ImageMetadata.read(from: $0) } } ?? ImageMetadata()
        var info: [String: JSONValue] = [
            "own": (image.attribution ?? Attribution()).json,
            "gallery": (document.gallery.attribution ?? Attribution()).json,
        ]
        let basics: [(String, String?)] = [
            ("taken", metadata.taken), ("camera", metadata.camera), ("exposure", metadata.exposure),
            ("size", image.width.flatMap { width in image.height.map { "\(width) × \($0)" } }),
        ]
        for case (let name, let value?) in basics { info[name] = .string(value) }
        return JSONBody.response(JSONValue.object(info))
    }

    /// `image` in the size `shown` asks for, from the bytes stored in `document`, with its media
    /// type; `nil` if the document does not store them. The image itself when libvips cannot
    /// shrink it.
    private func storedImage(_ image: GalleryImage, _ shown: ImageSize, in document: GalleryDocument) async throws -> (Data, String)? {
        guard let cached = image.cached else { return nil }
        let original: @Sendable () async throws -> Data? = { try await offloaded { try document.cachedBytes(of: image) } }
        if shown.isSmaller(thanImageOfType: cached.mediaType) {
            let smaller: Data? =
                switch shown {
                case .thumbnail: try await offloaded { try document.thumbnailBytes(of: image) }
                case .rendition(let edge):
                    await services.renditions.rendition(longEdge: edge, ofImageWithSHA256: cached.sha256) { try? await original() }
                case .original: nil
                }
            if let smaller { return (smaller, "image/jpeg") }
        }
        return try await original().map { ($0, cached.mediaType) }
    }
}

extension HTTPField.Name {
    /// The uploaded file's name, percent-encoded (the body is the file itself).
    static let fileName = HTTPField.Name("X-File-Name")!
}
