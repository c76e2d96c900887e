import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A local HTTP server for the fetching tests, on 127.0.0.1 and a free port: sample images with
/// delays, errors, redirects, a server that never answers, bodies that trickle or are too big.
/// No test touches the internet. Stopped when the value goes away.
///
/// Routes (NAME is a file of `Specs/Examples/images`):
/// - `/image/NAME?delay=MS&tag=T` — the image, after MS milliseconds; `tag` makes the bytes unique
/// - `/status/CODE` — an empty response with that status
/// - `/text` — a `text/plain` page
/// - `/redirect/N/NAME` — N redirects, then the image; `/loop/a` — redirects that loop
/// - `/hang` — never answers; `/trickle` — a header, then one byte a second, forever
/// - `/big?bytes=N` (with Content-Length) and `/big-unannounced?bytes=N` (without)
/// - `/flaky/KEY/NAME` — 503 the first time KEY is asked for, the image after that
/// - `/gated/KEY/NAME` — the image once `/open/KEY` has been asked for (at most 2 minutes)
/// - `/iiif-fixtures/…` — the manifests of `Specs/Examples/iiif` as its README says (`{{base}}`
///   is `/iiif-fixtures/`), their images and the two Image API forms of their services
public final class ImageServer: @unchecked Sendable {
    public let port: Int
    private let process: Process

    public init() throws {
        process = Process()
        process.executableURL = Command.which("python3")
        process.arguments = ["-u", Self.script.path, Repository.sampleImages.path]
        let output = Pipe()
        process.standardOutput = output
        // Not the test's stderr: a pipe reader would otherwise wait for the server to exit too.
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the test image server did not start"])
        }
        self.port = port
    }

    deinit {
        // No waitUntilExit: Foundation's on Linux spins on its run loop. The server's
        // connection threads are daemons, so SIGTERM ends it at once.
        process.terminate()
    }

    /// The server itself, a Python script beside this file.
    static let script = Repository.root.appendingPathComponent("Tests/GalleryTestSupport/image_server.py")

    /// `http://127.0.0.1:PORT` + `path`.
    /// Lets the images held at `/gated/KEY/…` go.
    public func openGate(_ key: String) async throws {
        _ = try await URLSession.shared.data(from: url("/open/\(key)"))
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}
