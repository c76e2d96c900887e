import Foundation

/// A socket on 127.0.0.1 and a free port that is no web server, for the tests of what happens
/// before or instead of an answer: whether anything connected at all, a server that takes the
/// connection and then says nothing, and one that resets every connection.
public final class TCPListener: @unchecked Sendable {
    public enum Behaviour: Sendable {
        /// Connections complete (the kernel accepts them into the backlog) and nothing is ever
        /// read or answered: a stalled server.
        case silent
        /// Each connection is accepted, the request read, and the connection reset (RST).
        case resetting
    }

    public let port: Int
    private let descriptor: Int32

    public init(_ behaviour: Behaviour) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else { close(descriptor); throw Self.failure("bind") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        if behaviour == .resetting {
            let listening = descriptor
            Thread.detachNewThread {
                while true {
                    let connection = accept(listening, nil, nil)
                    guard connection >= 0 else { return }  // the listener was closed
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    _ = read(connection, &buffer, buffer.count)
                    // A zero linger time makes close send RST instead of FIN.
                    var linger = linger(l_onoff: 1, l_linger: 0)
                    setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                    close(connection)
                }
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Whether a connection is waiting to be accepted: for a `.silent` listener, whether anyone
    /// ever connected.
    public var hasBeenContacted: Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLIN) != 0
    }

    /// A port on 127.0.0.1 where nothing listens: connections to it are refused.
    public static func closedPort() throws -> Int {
        let listener = try TCPListener(.silent)
        return listener.port  // closed when `listener` goes away, here
    }

    private static func failure(_ call: String) -> Error {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(call): \(String(cString: strerror(errno)))"])
    }
}
