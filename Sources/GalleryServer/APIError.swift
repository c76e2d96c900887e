import Foundation
import GalleryKit
import HTTPTypes
import Hummingbird
import NIOCore

/// A failed request as the app's pages read it: a status and `{"error": "one line for a person"}`.
struct APIError: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The one place `GalleryError` codes become HTTP statuses (as `ExitStatus` makes them exit
    /// statuses in the CLI). The message is the error's own line, which names the document.
    init(_ error: GalleryError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .invalidArgument: .badRequest
            case .fileNotFound: .notFound
            case .alreadyExists, .documentChanged: .conflict
            case .busy: .serviceUnavailable
            case .notAnImage: .unsupportedMediaType
            case .limitExceeded: .contentTooLarge
            case .damagedDocument, .unsafeArchive, .unsupportedVersion: .unprocessableContent
            default: .internalServerError
            }
        self.init(status, error.description)
    }

    /// Any error a route can meet, as an `APIError`.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: error
        case let error as GalleryError: APIError(error)
        default: APIError(.internalServerError, "\(error)")
        }
    }

    var response: Response {
        var response = JSONBody.response(["error": message])
        response.status = status
        return response
    }
}

/// Encodes JSON responses and decodes JSON requests.
enum JSONBody {
    /// A gallery's state, written by its own writer (`GalleryState.json()`).
    static func response(_ state: GalleryState, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: state.json()))
        )
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"the answer could not be encoded"}"#.utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The request's body as `T`, at most `maximumBytes` long.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, maximumBytes: Int = 1 << 20) async throws -> T {
        let data = try await bytes(of: request, maximumBytes: maximumBytes)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw APIError(.badRequest, "the request is not the JSON this route takes (\(Self.reason(error)))")
        }
    }

    /// The request's body, refused with 413 beyond `maximumBytes`.
    static func bytes(of request: Request, maximumBytes: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBytes {
            throw APIError(.contentTooLarge, "the request is \(length) bytes; at most \(maximumBytes) are accepted")
        }
        do {
            var buffer = try await request.body.collect(upTo: maximumBytes)
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the request is over \(maximumBytes) bytes, the most accepted")
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
