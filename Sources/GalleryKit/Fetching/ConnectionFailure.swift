import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Why a connection to a web server failed, as one line for a person: "cannot resolve host
/// example.invalid", "cannot connect to 127.0.0.1 port 8080 (connection refused)".
///
/// The errors come from SwiftNIO's resolver and sockets and from its TLS layer, whose own
/// descriptions ("DNS error: …", "NIOSSLError.handshakeFailed(…)") say what broke in its terms.
struct ConnectionFailure: CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        switch error {
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first {
                description = "cannot connect to \(error.host) port \(error.port) (\(Self.reason(failure.error)))"
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                description = "cannot resolve host \(error.host)"
            } else {
                description = "cannot connect to \(error.host) port \(error.port)"
            }
        case is NIOSSLError, is BoringSSLError:
            description = "the TLS handshake failed (\(Self.tlsReason(error)))"
        case let error as IOError where error.errnoCode == ECONNRESET:
            description = "the server reset the connection"
        case let error as IOError:
            description = "cannot connect (\(Self.reason(error)))"
        default:
            description = "could not download: \(error)"
        }
    }

    /// A socket error in words: `strerror`'s, lowercased ("connection refused").
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        return String(cString: strerror(error.errnoCode)).lowercased()
    }

    /// BoringSSL's reason code in words (`…:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at …` →
    /// "certificate verify failed"); its whole text, with build paths, is no line for a person.
    private static func tlsReason(_ error: any Error) -> String {
        let text = String(describing: error)
        guard let marker = text.range(of: "OPENSSL_internal:") else { return text }
        let code = text[marker.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
        return code.isEmpty ? text : code.replacingOccurrences(of: "_", with: " ").lowercased()
    }
}
