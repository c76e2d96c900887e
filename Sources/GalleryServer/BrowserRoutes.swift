import Foundation
import GalleryKit
import Hummingbird

/// The document browser's API: the folder's documents (sorted, searched through the browse
/// index), their previews, recents, and the Files app's operations — new, duplicate, rename,
/// move to Trash, and restore from it.
struct BrowserRoutes {
    let services: Services
    var folder: DocumentFolder { services.folder }

    struct Listed: Encodable {
        var name: String
        var title: String?
        var images: Int?
        var cached: Int?
        var bytes: Int64
        var modified: Date?
        var created: Date?
        var error: String?
    }

    struct Trashed: Encodable {
        /// The name in the Trash, which restores it.
        var name: String
        /// The name it had in the folder.
        var originalName: String
        var deleted: Date?
    }

    struct Recent: Encodable {
        var name: String
        var event: String
        var date: Date
    }

    struct Named: Codable {
        var name: String
    }

    struct NewDocument: Decodable {
        var title: String?
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api")
        api.get("documents") { request, _ in
            try await list(request)
        }
        api.get("documents/:name/preview") { _, context in
            let url = try folder.document(named: context.parameters.require("name"))
            let version = DocumentVersion.of(url)
            if let jpeg = try await offloaded({ try GalleryDocument.previewBytes(ofDocumentAt: url) }) {
                return ImageBody.response(jpeg, mediaType: "image/jpeg", tag: version)
            }
            guard let made = try await viewedPreview(of: url) else { throw APIError(.notFound, "\(url.lastPathComponent) has no preview") }
            return ImageBody.response(made, mediaType: "image/jpeg", tag: version + "-viewed")
        }
        api.post("documents") { request, _ in
            let title = try await JSONBody.decode(NewDocument.self, from: request).title
            let folder = folder.url
            let created = try await offloaded { try GalleryDocument.createDocument(in: folder, title: title).url }
            return record(created, .created, status: .created)
        }
        api.post("documents/:name/duplicate") { _, context in
            let url = try folder.document(named: context.parameters.require("name"))
            return record(try await offloaded { try GalleryDocument.duplicateDocument(at: url) }, .duplicated, status: .created)
        }
        api.post("documents/:name/rename") { request, context in
            let url = try folder.document(named: context.parameters.require("name"))
            let wanted = try await JSONBody.decode(Named.self, from: request).name
            let destination = try folder.newDocument(named: wanted)
            return record(try await offloaded { try GalleryDocument.renameDocument(at: url, to: destination.lastPathComponent) }, .renamed)
        }
        api.post("documents/:name/trash") { _, context in
            let url = try folder.document(named: context.parameters.require("name"))
            let trash = services.trash
            let trashed = try await offloaded { try trash.moveToTrash(url) }
            return JSONBody.response(Named(name: trashed.name))
        }
        api.get("trash") { _, _ in
            let trash = services.trash
            let documents = try await offloaded { trash.documents() }
            let here = documents.filter { $0.originalURL.map(folder.holds) == true }
            return JSONBody.response(
                here.map { Trashed(name: $0.name, originalName: $0.originalURL?.lastPathComponent ?? $0.name, deleted: $0.deletionDate) })
        }
        api.post("trash/:name/restore") { _, context in
            let name = try context.parameters.require("name").removingPercentEncoding ?? ""
            let trash = services.trash
            let documents = try await offloaded { trash.documents() }
            // Only documents trashed from this folder: a restore writes where the document
            // was, and nothing outside the folder is ever written.
            guard let trashed = documents.first(where: { $0.name == name && $0.originalURL.map(folder.holds) == true }) else {
                throw APIError(.notFound, "\(name): no document of this folder by that name in the Trash")
            }
            return record(try await offloaded { try trash.restore(trashed) }, .restored)
        }
        api.get("recents") { _, _ in
            let recents = services.recents
            let documents = try await offloaded { recents.documents() }
            let here = documents.filter { folder.holds($0.url) && FileManager.default.fileExists(atPath: $0.url.path) }
            return JSONBody.response(here.map { Recent(name: $0.url.lastPathComponent, event: $0.event.rawValue, date: $0.date) })
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let sort =
            try query["sort"].map { raw in
                guard let key = DocumentSummary.SortKey(rawValue: String(raw)) else {
                    throw APIError(
                        .badRequest, "sort must be one of \(DocumentSummary.SortKey.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return key
            } ?? .name
        let reverse = query["reverse"] == "1" || query["reverse"] == "true"
        let search = query["search"].map(String.init).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let browser = services.browser, folder = folder.url
        let documents = try await offloaded { try browser.documents(in: folder, search: search) }
        return JSONBody.response(
            documents.sorted(by: sort, reverse: reverse).map { summary in
                Listed(
                    name: summary.url.lastPathComponent, title: summary.title, images: summary.imageCount, cached: summary.cachedImageCount,
                    bytes: summary.bytes, modified: summary.modified, created: summary.created, error: summary.error?.reason
                )
            })
    }

    private func record(_ url: URL, _ event: RecentDocument.Event, status: HTTPResponse.Status = .ok) -> Response {
        _ = services.recents.record(url, event)
        return JSONBody.response(Named(name: url.lastPathComponent), status: status)
    }
}

/// Image bytes from a document, served so that they can never act as a page: their type from
/// the document only among image types, and a sandbox on top of the app's policy.
extension BrowserRoutes {
    /// A preview for a document that stores none (a gallery of links): its first images'
    /// thumbnails, fetched on view as its page shows them, drawn as a stored preview is. The
    /// document is not changed. `nil` when none of those images can be had.
    func viewedPreview(of url: URL) async throws -> Data? {
        let document = try await services.openedDocuments.current(url).document
        let shown = document.gallery.images.lazy.filter { !$0.hasFailed }.prefix(PageStyle.previewCount)
        let remote = services.remoteImages
        let thumbnails = await withTaskGroup(of: (Int, Data?).self) { group in
            for (position, image) in shown.enumerated() {
                group.addTask {
                    if let stored = try? await offloaded({ try document.thumbnailBytes(of: image) }) { return (position, stored) }
                    guard let source = try? ImageSource(image.url), case .success(let thumbnail) = await remote.image(source, .thumbnail)
                    else {
                        return (position, nil)
                    }
                    return (position, thumbnail.bytes)
                }
            }
            var found: [(Int, Data)] = []
            for await (position, bytes) in group { if let bytes { found.append((position, bytes)) } }
            return found.sorted { $0.0 < $1.0 }.map(\.1)
        }
        guard !thumbnails.isEmpty else { return nil }
        return try? await offloaded { try Thumbnailer.previewJPEG(of: thumbnails) }
    }
}

enum ImageBody {
    static let imageTypes: Set<String> = [
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/heif", "image/tiff", "image/bmp",
    ]

    static func response(_ bytes: Data, mediaType: String, tag: String) -> Response {
        let type = imageTypes.contains(mediaType.lowercased()) ? mediaType : "application/octet-stream"
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "private, max-age=3600", .eTag: "\"\(tag)\"",
                .contentSecurityPolicy: "default-src 'none'; sandbox",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
