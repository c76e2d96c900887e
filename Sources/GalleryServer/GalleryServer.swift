import Foundation
import GalleryKit
import Hummingbird
import Logging
import NIOCore

/// The web app of `gallery serve`: a folder's documents in a browser — the document browser, and
/// each gallery with drag and drop — over the same `GalleryDocument` calls the CLI makes.
///
/// Every request must carry the start's token (in the first URL, then in an HttpOnly cookie),
/// name an allowed host, and for a change come from the app's own origin. Names in URLs resolve
/// only to documents directly in the folder.
public struct GalleryServer: Sendable {
    /// What a server serves, where it listens, and what it accepts.
    public struct Configuration: Sendable {
        /// The folder whose documents are served; nothing outside it is read or written.
        public var folder: URL
        /// The address to listen on: loopback unless asked otherwise.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        public var port = 0
        /// Where the Trash, recent documents and the search index live.
        public var directories = BaseDirectories()
        /// The largest image file accepted from the desktop, in bytes.
        public var maximumUploadBytes = 64 << 20
        /// The most images one drop may add.
        public var maximumDroppedImages = 100
        /// How web images dropped in are fetched (size cap, time-outs).
        public var fetching = ImageFetcher.Configuration()
        /// The most bytes the shared image cache (`ImageCache`, in the cache folder of
        /// `directories`) may hold; 0 turns it off.
        public var imageCacheCapacity = ImageCache.defaultCapacity
        /// How often documents being watched are checked for changes on disk.
        public var pollInterval: Duration = .milliseconds(250)

        /// A configuration serving `folder` on a free loopback port.
        public init(folder: URL) {
            self.folder = folder
        }

        /// Whether the server can be reached from other machines.
        public var isLoopbackOnly: Bool { ["127.0.0.1", "::1", "localhost"].contains(host) }
    }

    public let configuration: Configuration
    /// The secret of this start: whoever has it may use the app.
    let token: String
    let folder: DocumentFolder
    let site: Site

    /// A server for `configuration`; nothing listens until `run`.
    /// - Throws: `.fileNotFound` if the folder does not exist or is not a folder.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        self.folder = try DocumentFolder(configuration.folder)
        self.site = try Site()
        self.token = Self.randomHex(byteCount: 32)
    }

    /// Listens until SIGINT or SIGTERM, then finishes the requests in progress and returns.
    /// - Parameter started: called once listening, with the URL to open (it carries the token).
    /// - Throws: `.ioFailure` if the address cannot be listened on (the port is taken).
    public func run(started: @escaping @Sendable (URL) -> Void) async throws {
        let services = Services(configuration: configuration, folder: folder)
        // libvips loads as the server starts, not on the first image the page asks for. Not on
        // another thread: a process ending (a port taken) while libvips started beside it
        // crashed with a double free.
        Rendition.loadImageLibrary()
        let application = makeApplication(services: services) { port in started(address(port: port)) }
        do {
            try await application.runService()
        } catch {
            await services.shutdown()
            throw explained(error)
        }
        await services.shutdown()
    }

    /// A failure to listen as one line naming the address; GalleryKit's errors as they are.
    private func explained(_ error: any Error) -> any Error {
        if error is GalleryError { return error }
        let address =
            configuration.host.contains(":")
            ? "[\(configuration.host)]:\(configuration.port)" : "\(configuration.host):\(configuration.port)"
        guard let error = error as? IOError else {
            return GalleryError(.ioFailure, path: address, "cannot listen: \(error)")
        }
        let advice = error.errnoCode == EADDRINUSE ? "; choose another --port, or leave it out for a free one" : ""
        return GalleryError(.ioFailure, path: address, "cannot listen: \(String(cString: strerror(error.errnoCode)))\(advice)")
    }

    /// The application: the router, and the poller of change events beside it.
    func makeApplication(services: Services, started: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        var application = Application(
            router: makeRouter(services: services),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                guard let port = channel.localAddress?.port else { return }
                started(port)
            },
            logger: Self.quietLogger
        )
        application.addServices(services.events)
        return application
    }

    /// The URL that opens the app on this machine, token included: on the loopback address
    /// when the server listens on every address (a browser cannot go to 0.0.0.0 elsewhere).
    func address(port: Int) -> URL {
        let host = ["0.0.0.0": "127.0.0.1", "::": "::1"][configuration.host] ?? configuration.host
        return url(host: host, port: port)
    }

    /// The URLs other machines (a phone on the same network) open the app with, when the server
    /// listens on every address: one per address of this machine's interfaces, loopback and
    /// link-local ones aside; none otherwise.
    public func addressesForOtherMachines(port: Int) -> [URL] {
        guard Self.wildcardHosts.contains(configuration.host) else { return [] }
        return Self.interfaceAddresses()
            .filter { address in
                let lowered = address.lowercased()
                guard configuration.host == "::" || !address.contains(":") else { return false }
                return !address.hasPrefix("127.") && lowered != "::1" && !lowered.hasPrefix("fe80:")
            }
            .map { url(host: $0, port: port) }
    }

    private func url(host: String, port: Int) -> URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/?token=\(token)")!
    }

    private static let wildcardHosts: Set<String> = ["0.0.0.0", "::"]

    /// The app's routes behind its guard.
    func makeRouter(services: Services) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessGuard(token: token, allowedHosts: allowedHosts))
        SiteRoutes(site: site, folder: folder, openedDocuments: services.openedDocuments).register(on: router)
        BrowserRoutes(services: services).register(on: router)
        GalleryRoutes(services: services).register(on: router)
        return router
    }

    /// The names the `Host` header may give (with any port): loopback names, and the address
    /// asked for with `--host`. Any other name is a page of another site that has pointed its
    /// name at this machine (DNS rebinding), and is refused.
    var allowedHosts: Set<String> {
        var hosts: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        var named = [configuration.host]
        // Listening on every address: other machines name this one by one of its addresses.
        if Self.wildcardHosts.contains(configuration.host) { named += Self.interfaceAddresses() + [ProcessInfo.processInfo.hostName] }
        for host in named {
            hosts.insert(host.contains(":") ? "[\(host.lowercased())]" : host.lowercased())
        }
        return hosts
    }

    /// This machine's IPv4 and IPv6 addresses, as text (an IPv6 one without its zone).
    static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        var next = first
        while let interface = next {
            defer { next = interface.pointee.ifa_next }
            guard let address = interface.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            addresses.append(String(name.split(separator: "%").first ?? Substring(name)))
        }
        return addresses
    }

    /// The server's own log says only what went wrong: the CLI prints what the person needs.
    static var quietLogger: Logger {
        var logger = Logger(label: "gallery-serve")
        logger.logLevel = .error
        return logger
    }

    static func randomHex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
