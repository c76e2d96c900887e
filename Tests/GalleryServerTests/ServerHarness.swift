import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GalleryServer

/// A served folder with one document, `Trip.gallery` (sample images, cached, with thumbnails),
/// the Trash, recents and index in the folder's own state directory, and requests that carry
/// the token's cookie and the app's origin unless a test says otherwise.
final class ServerHarness: Sendable {
    let temporary = TemporaryFolder()
    let folder: URL
    let server: GalleryServer
    let services: Services

    init(images: Int = 4, configure: (inout GalleryServer.Configuration) -> Void = { _ in }) throws {
        folder = temporary.path("Galleries")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var document = GalleryDocument(creating: folder.appendingPathComponent("Trip.gallery"), gallery: Gallery(title: "Trip"))
        try document.insertImages(fromFiles: Array(Repository.sampleImageFiles().prefix(images)), cache: true)
        try document.save()
        var configuration = GalleryServer.Configuration(folder: folder)
        let state = temporary.path("state")
        configuration.directories = BaseDirectories(environment: [
            "HOME": state.path, "XDG_DATA_HOME": state.appendingPathComponent("data").path,
            "XDG_STATE_HOME": state.appendingPathComponent("state").path, "XDG_CACHE_HOME": state.appendingPathComponent("cache").path,
        ])
        configuration.pollInterval = .milliseconds(50)
        configure(&configuration)
        server = try GalleryServer(configuration: configuration)
        services = Services(configuration: configuration, folder: server.folder)
    }

    var cookie: String { "gallery-\(server.token.prefix(8))=\(server.token)" }

    /// The headers of a request from the app's own page.
    var headers: HTTPFields { [.cookie: cookie, .origin: "http://localhost"] }

    /// Runs `body` against the router (no sockets), then lets go of the services.
    func test(_ setup: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        do {
            try await server.makeApplication(services: services).test(setup, body)
        } catch {
            await services.shutdown()
            throw error
        }
        await services.shutdown()
    }

    /// The document as it is on disk now.
    func document(_ name: String = "Trip.gallery") throws -> GalleryDocument {
        try GalleryDocument(contentsOf: folder.appendingPathComponent(name))
    }
}

extension TestClientProtocol {
    /// A request with a JSON body (or none), returning the status and the parsed JSON answer.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, headers: HTTPFields
    ) async throws -> (status: HTTPResponse.Status, json: Any?, response: TestResponse) {
        var headers = headers
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        }
        let response = try await execute(uri: uri, method: method, headers: headers, body: body)
        let parsed = try? JSONSerialization.jsonObject(with: Data(buffer: response.body), options: [.fragmentsAllowed])
        return (response.status, parsed, response)
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        var buffer = buffer
        self = Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
    }
}

/// The parts of a gallery state the tests read.
struct StateView {
    let json: [String: Any]

    init(_ json: Any?) throws {
        self.json = try #require(json as? [String: Any], "not a gallery state: \(String(describing: json))")
    }

    var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
    var ids: [String] { items.compactMap { $0["id"] as? String } }
    var frames: [[Double]] { (json["layout"] as? [String: Any])?["frames"] as? [[Double]] ?? [] }
    var columns: Int? { json["columns"] as? Int }
}

extension GalleryDocument {
    var ids: [String] { gallery.images.map { $0.id.uuidString.lowercased() } }
}
