import Crypto
import Foundation

/// Digests the tests compare with what documents record.
public enum TestDigest {
    /// SHA-256 in lowercase hex, as a manifest's `sha256`.
    public static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
