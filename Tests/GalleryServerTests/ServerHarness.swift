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

/// A client of a server-sent event stream over a plain socket (the test client reads whole
/// responses, and an event stream never ends): sends the request, then reads events one by one.
final class EventStreamReader: @unchecked Sendable {
    private let descriptor: Int32
    private var received = ""

    init(port: Int, path: String, cookie: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit { close(descriptor) }

    /// The data of the next `change` event, as JSON; fails after 5 s without one.
    func nextEvent() async throws -> [String: Any] {
        let line: String = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.readDataLine() })
            }
        }
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The next event whose version is not `version`; fails after 5 s without one.
    func nextEvent(otherThan version: String?) async throws -> [String: Any] {
        while true {
            let event = try await nextEvent()
            if event["version"] as? String != version { return event }
        }
    }

    private func readDataLine() throws -> String {
        while true {
            if let start = received.range(of: "data: "), let end = received[start.upperBound...].range(of: "\n\n") {
                let line = String(received[start.upperBound..<end.lowerBound])
                received = String(received[end.upperBound...])
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else {
                throw CocoaError(
                    .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no event within 5 s; got \(received.debugDescription)"])
            }
            received += String(decoding: chunk[0..<count], as: UTF8.self)
        }
    }
}
