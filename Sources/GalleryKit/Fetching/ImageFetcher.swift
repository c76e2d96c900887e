import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Downloads images over http(s) with explicit limits: several at once, connect and read
/// timeouts, an overall deadline per image, few redirects, and a size cap enforced while the
/// bytes arrive. Results keep the order of the request, whatever order downloads finish in.
///
/// With an `ImageCache`, an image in the cache is taken from it instead of downloaded, and each
/// image downloaded (and found to be one by its bytes) is put in it.
///
/// Owns an `HTTPClient`; call `shutdown()` when done.
public final class ImageFetcher: Sendable {
    /// Limits and parallelism of a fetcher; the defaults are the CLI's.
    public struct Configuration: Sendable {
        /// Downloads running at once.
        public var concurrency = 8
        /// Time allowed for each image, from the first connection attempt to the last byte.
        public var deadline: Duration = .seconds(60)
        /// Time allowed to establish a connection.
        public var connectTimeout: Duration = .seconds(10)
        /// Time allowed without receiving anything.
        public var readTimeout: Duration = .seconds(20)
        /// The largest image accepted.
        public var maximumBytes: Int64 = 64 * 1024 * 1024
        /// Redirects followed (cycles are refused).
        public var maximumRedirects = 5

        /// The defaults: 8 at once, 60 s per image, 64 MiB, 5 redirects.
        public init() {}
    }

    /// What a download produced.
    public enum Outcome: Sendable {
        /// The body, in a file of the spool.
        case downloaded(URL, bytes: Int64)
        /// Why there is no image, in words for a person ("HTTP 404 Not Found").
        case failed(String)
    }

    /// Progress over a batch: called after each image.
    public struct Progress: Sendable {
        /// Images done so far, fetched or failed.
        public var finished: Int
        /// Images in the batch.
        public var total: Int
        /// Bytes downloaded so far.
        public var bytes: Int64
        /// Images that could not be fetched so far.
        public var failures: Int
    }

    /// The limits this fetcher downloads within: parallel jobs, timeout, size, redirects.
    public let configuration: Configuration
    /// Where images are looked for before downloading and kept after; `nil` for none.
    public let cache: ImageCache?
    private let client: HTTPClient

    /// Creates a fetcher with its own HTTP client, configured from `configuration`.
    public init(configuration: Configuration = Configuration(), cache: ImageCache? = nil) {
        self.configuration = configuration
        self.cache = cache
        // Set explicitly: the shared client's defaults are a browser's (20 redirects, no read timeout).
        var settings = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: configuration.maximumRedirects, allowCycles: false),
            timeout: .init(connect: .init(configuration.connectTimeout), read: .init(configuration.readTimeout)),
            decompression: .disabled
        )
        settings.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(configuration.concurrency, 1)
        // By default the pool retries a failed connection with backoff until the deadline: an
        // unresolvable host, a refused connection or a failed TLS handshake then took the whole
        // 60 s. A connection that cannot be made ends the image at once (a server that accepts
        // and then stalls is still given the read timeout and the deadline).
        settings.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    }

    /// Closes the HTTP client's connections; call once, when no download is running.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Downloads `urls` into `spool`, `configuration.concurrency` at a time.
    /// - Returns: one outcome per URL, in the order of `urls`.
    public func download(
        _ urls: [URL],
        into spool: DownloadSpool,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: urls.count)
        var state = Progress(finished: 0, total: urls.count, bytes: 0, failures: 0)
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await self.download(urls[index], to: spool.newFile())) }
            }
            for _ in 0..<max(configuration.concurrency, 1) { startNext() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                state.finished += 1
                switch outcome {
                case .downloaded(_, let bytes): state.bytes += bytes
                case .failed: state.failures += 1
                }
                progress?(state)
                startNext()
            }
        }
        return outcomes.map { $0! }
    }

    /// Puts the image at `url` in `file`: from the cache if it is there, else downloaded
    /// (and then cached if its bytes are an image's).
    func download(_ url: URL, to file: URL) async -> Outcome {
        let key = ImageCache.key(forImageAt: url)
        if let hit = cache?.object(forKey: key) {
            do throws(SystemError) {
                try FileLocation.createFile(file, contents: hit.bytes, mode: 0o600)
                return .downloaded(file, bytes: Int64(hit.bytes.count))
            } catch {
                return .failed(describe(GalleryError.system("cannot create", url: file, error)))
            }
        }
        let outcome = await downloadNow(url, to: file)
        if let cache, case .downloaded(let file, _) = outcome,
            case .success(let image) = Self.image(inFile: file, maximumBytes: configuration.maximumBytes)
        {
            cache.store(image, forKey: key)
        }
        return outcome
    }

    /// Downloads one URL to `file`, within the deadline.
    func downloadNow(_ url: URL, to file: URL) async -> Outcome {
        let deadline = configuration.deadline
        do {
            // The client's deadline covers the request; the race also covers a body that trickles.
            return try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask { try await self.receive(url, to: file) }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return .failed(self.deadlineReason)
                }
                let first = try await group.next()!
                group.cancelAll()
                if case .failed = first { try? FileManager.default.removeItem(at: file) }
                return first
            }
        } catch {
            try? FileManager.default.removeItem(at: file)
            return .failed(describe(error))
        }
    }

    /// The bytes of a document that is not an image (a IIIF manifest) at `url`, within the
    /// fetcher's deadline, timeouts and redirects, at most `maximumBytes`.
    /// - Throws: `.ioFailure` naming the URL, with the reason in a person's words.
    public func document(at url: URL, maximumBytes: Int64) async throws -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "GalleryKit/\(GalleryKitVersion.version)")
        request.headers.add(name: "Accept", value: "application/ld+json, application/json;q=0.9, */*;q=0.1")
        do {
            let response = try await client.execute(request, deadline: .now() + .init(configuration.deadline))
            guard (200..<300).contains(response.status.code) else {
                throw GalleryError(.ioFailure, path: url.absoluteString, "HTTP \(response.status.code) \(response.status.reasonPhrase)")
            }
            var body = Data()
            for try await buffer in response.body {
                body.append(contentsOf: buffer.readableBytesView)
                guard body.count <= maximumBytes else {
                    throw GalleryError(.limitExceeded, path: url.absoluteString, "larger than the \(Self.size(maximumBytes)) limit")
                }
            }
            return body
        } catch let error as GalleryError {
            throw error
        } catch {
            throw GalleryError(.ioFailure, path: url.absoluteString, describe(error))
        }
    }

    private func receive(_ url: URL, to file: URL) async throws -> Outcome {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "GalleryKit/\(GalleryKitVersion.version)")
        request.headers.add(name: "Accept", value: "image/*")
        let response = try await client.execute(request, deadline: .now() + .init(configuration.deadline))
        guard (200..<300).contains(response.status.code) else {
            return .failed("HTTP \(response.status.code) \(response.status.reasonPhrase)")
        }
        if let type = response.headers.first(name: "Content-Type")?.lowercased(),
            type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/xml")
        {
            let mediaType = type.split(separator: ";").first.map(String.init) ?? type
            return .failed(
                mediaType == "text/html" ? "the server sent a web page, not an image" : "the server sent \(mediaType), not an image")
        }
        let limit = configuration.maximumBytes
        if let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }), length > limit {
            return .failed("larger than the \(Self.size(limit)) limit (\(Self.size(length)))")
        }
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create", url: file) }
        defer { close(descriptor) }
        var received: Int64 = 0
        for try await buffer in response.body {
            received += Int64(buffer.readableBytes)
            // Stop at the cap while receiving: never more than `limit` bytes on disk.
            guard received <= limit else { return .failed("larger than the \(Self.size(limit)) limit") }
            try buffer.withUnsafeReadableBytes { bytes in
                guard FileLocation.writeAll(bytes, to: descriptor) else { throw GalleryError.system("cannot write", url: file) }
            }
        }
        guard received > 0 else { return .failed("the server sent no data") }
        return .downloaded(file, bytes: received)
    }

    private func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError:
            switch error {
            // A timer as long as the deadline has the deadline's cause, whichever of them fired first.
            case .connectTimeout where configuration.connectTimeout < configuration.deadline:
                return "could not connect within \(Self.seconds(configuration.connectTimeout))"
            case .readTimeout where configuration.readTimeout < configuration.deadline:
                return "the server sent nothing for \(Self.seconds(configuration.readTimeout))"
            case .connectTimeout, .readTimeout, .deadlineExceeded: return deadlineReason
            case .redirectLimitReached: return "more than \(configuration.maximumRedirects) redirects"
            case .redirectCycleDetected: return "redirects in a loop"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "HTTP error: \(error)"
            }
        case let error as GalleryError: return error.reason
        case is CancellationError: return "cancelled"
        default: return ConnectionFailure(error).description
        }
    }

    /// Why an image that ran out of time failed.
    private var deadlineReason: String { "took longer than the \(Self.seconds(configuration.deadline)) limit" }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}

private extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
