import Crypto
import Foundation

/// SHA-256 of content, as the lowercase hex the manifest stores (swift-crypto does the hashing).
struct ContentHash {
    private var hasher = SHA256()
    private(set) var byteCount: Int64 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
        byteCount += Int64(bytes.count)
    }

    /// The digest in lowercase hex.
    func finalize() -> String {
        hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Hashes a file in 1 MiB chunks, so a large file never sits in memory whole.
    static func ofFile(at url: URL) throws -> (sha256: String, bytes: Int64) {
        var hash = ContentHash()
        try FileChunks.read(url) { hash.update($0) }
        return (hash.finalize(), hash.byteCount)
    }

    static func of(_ data: Data) -> String {
        var hash = ContentHash()
        data.withUnsafeBytes { hash.update($0) }
        return hash.finalize()
    }
}

/// Reads a file sequentially in fixed-size chunks.
enum FileChunks {
    static let chunkSize = 1 << 20

    static func read(_ url: URL, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GalleryError.system("cannot open", url: url) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw GalleryError.system("cannot read", url: url)
            }
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
