import Foundation
import GalleryTestSupport
import Testing

/// A web image whose server cannot be reached ends at once with a reason naming the failure —
/// an unresolvable host, a closed port, a reset connection, a failed TLS handshake — in every
/// command that fetches; only a server that accepts the connection and then stalls is given the
/// whole `--timeout`. (The HTTP client's pool used to retry the connection until the deadline:
/// 10 s for a host that does not exist.)
@Suite struct ConnectionFailureTests {
    let folder = TemporaryFolder()

    enum Target: String, CaseIterable, Sendable {
        case unresolvableHost, closedPort, resettingServer, plainServerOverTLS
    }

    enum Fetching: String, CaseIterable, Sendable {
        case create, editAdd, editRetry, export
    }

    /// Runs `fetching` on an image at `target` with a timeout of 30 s: the failure's own reason,
    /// not the timeout's, shows that it ended at once (no wall-clock ceiling, which a loaded
    /// machine could pass).
    @Test(arguments: Fetching.allCases, Target.allCases)
    func anUnreachableImageFailsAtOnceWithItsReason(fetching: Fetching, target: Target) throws {
        let listener = try TCPListener(.resetting)
        let imageServer = target == .plainServerOverTLS ? try ImageServer() : nil
        let url: String =
            switch target {
            case .unresolvableHost: "https://no-such-host.invalid/a.jpg"
            case .closedPort: "http://127.0.0.1:\(try TCPListener.closedPort())/a.jpg"
            case .resettingServer: listener.url("/a.jpg").absoluteString
            case .plainServerOverTLS: "https://127.0.0.1:\(imageServer!.port)/image/01-dawn.jpg"
            }
        let arguments = try prepare(fetching, url: url) + ["--timeout", "30"]
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(!result.errorOutput.contains("took longer than") && !result.errorOutput.contains("sent nothing"), "\(result)")
        let line = result.errorOutput.split(separator: "\n").first { $0.contains(url) }.map(String.init) ?? ""
        #expect(line.hasPrefix("gallery: "), "\(result)")
        let reason =
            switch target {
            case .unresolvableHost: "cannot resolve host no-such-host.invalid"
            case .closedPort: "connection refused"
            case .resettingServer: "the server"  // "reset the connection" or "closed the connection"
            case .plainServerOverTLS: "the TLS handshake failed"
            }
        #expect(line.contains(reason), "\(result)")
    }

    /// A server that accepts and never answers is waited for until `--timeout`: one cause, one
    /// message, whichever of the client's timers (read, deadline) fires first.
    @Test(arguments: Fetching.allCases)
    func aStalledServerEndsAtTheTimeout(fetching: Fetching) throws {
        let listener = try TCPListener(.silent)
        let url = listener.url("/a.jpg").absoluteString
        let arguments = try prepare(fetching, url: url) + ["--timeout", "1.5"]
        let started = Date()
        let result = try Command.gallery(arguments, in: folder.url)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 2, "\(result)")
        #expect(seconds >= 1.5, "\(fetching) took \(seconds) s")
        #expect(result.errorOutput.contains("took longer than the 1.5 s limit"), "\(result)")
    }

    /// Makes what `fetching` needs and returns its arguments (the options last can be added to).
    private func prepare(_ fetching: Fetching, url: String) throws -> [String] {
        switch fetching {
        case .create:
            return ["create", "Web.gallery", url]
        case .editAdd:
            try require(Command.gallery(["create", "Web.gallery"], in: folder.url), status: 0)
            return ["edit", "Web.gallery", "add", url]
        case .editRetry:
            // Made failed by a refused connection; the retry then meets the target itself.
            var image = TestManifest.image(index: 0)
            image["url"] = url
            image["status"] = "failed"
            image["error"] = "HTTP 503 Service Unavailable"
            try RawZip.write(TestManifest.entries(TestManifest.object(images: [image])), to: folder.path("Web.gallery"))
            return ["edit", "Web.gallery", "retry"]
        case .export:
            var image = TestManifest.image(index: 0)
            image["url"] = url
            try RawZip.write(TestManifest.entries(TestManifest.object(images: [image])), to: folder.path("Web.gallery"))
            return ["export", "Web.gallery", "--format", "folder", "--output", "Out"]
        }
    }

    private func require(_ result: CommandResult, status: Int32) throws {
        try #require(result.status == status, "\(result)")
    }
}
