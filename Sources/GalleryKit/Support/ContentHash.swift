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
    /// - Returns: the digest and the identity of the file that was hashed, which a later copy
    ///   compares instead of hashing again.
    static func ofFile(at url: URL) throws -> (sha256: String, identity: FileIdentity) {
        var hash = ContentHash()
        let identity = try FileChunks.read(url) { hash.update($0) }
        return (hash.finalize(), identity)
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

    /// Reads the whole file at `url`.
    /// - Parameter expected: the identity the file must still have (same inode, size and
    ///   modification time), e.g. the one it had when it was hashed.
    /// - Returns: the file's identity, unchanged from start to end of the read.
    /// - Throws: `.ioFailure` if the file changed before or during the read.
    @discardableResult
    static func read(
        _ url: URL,
        expecting expected: FileIdentity? = nil,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> FileIdentity {
        let descriptor = FileLocation.open(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GalleryError.system("cannot open", url: url) }
        defer { close(descriptor) }
        let identity = try FileIdentity(fileDescriptor: descriptor, url: url)
        if let expected, identity != expected { throw changed(url) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw GalleryError.system("cannot read", url: url)
            }
            if count == 0 { break }
            total += Int64(count)
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        guard total == identity.size, try FileIdentity(fileDescriptor: descriptor, url: url) == identity else {
            throw changed(url)
        }
        return identity
    }

    private static func changed(_ url: URL) -> GalleryError {
        GalleryError(.ioFailure, url: url, "changed while it was being read; try again")
    }
}
