import Foundation

/// The end of a ZIP archive: its end-of-central-directory record, which closes the file.
///
/// A file cut short (an interrupted copy or download) keeps the start of a ZIP, so a reader
/// that streams from the start lists it as healthy and libarchive's seeking reader calls it an
/// "Unrecognized archive format". Its end is one read away, so the damage can be called by its
/// name.
enum ZipEnd {
    /// A local file header's signature, "PK\3\4": how every ZIP GalleryKit writes starts.
    private static let startSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    /// The end record's signature, "PK\5\6".
    private static let endSignature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
    /// The end record's size without its comment, and the most a comment can add.
    private static let recordSize = 22
    private static let longestComment = 0xFFFF

    /// Checks that the file open as `descriptor` is one a ZIP reader can be given: not a folder,
    /// and, when it starts as a ZIP, ending with the end record. Anything else (not a ZIP at all,
    /// an unreadable file) is left to the reader to describe.
    /// - Throws: `.invalidArgument` for a folder; `.damagedDocument` for a truncated archive.
    static func check(_ descriptor: Int32) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw GalleryError(.invalidArgument, "is a folder, not a gallery document")
        }
        let size = Int(status.st_size)
        guard status.st_mode & S_IFMT == S_IFREG, size >= startSignature.count,
            read(descriptor, at: 0, count: startSignature.count) == startSignature
        else { return }
        // GalleryKit writes no comment: the record is the last 22 bytes. Another writer's comment
        // means a search back through at most 64 KiB.
        let tail = read(descriptor, at: max(0, size - recordSize), count: min(size, recordSize))
        if tail.starts(with: endSignature)
            || hasEndRecord(
                in: read(descriptor, at: max(0, size - recordSize - longestComment), count: min(size, recordSize + longestComment)))
        {
            return
        }
        throw GalleryError(
            .damagedDocument,
            "is truncated: the file was cut short (its end is missing, as after an interrupted copy or download); copy it again from where it came"
        )
    }

    /// Whether `tail` (the last bytes of a file) ends with an end record and its whole comment.
    private static func hasEndRecord(in tail: [UInt8]) -> Bool {
        var start = tail.count - recordSize
        while start >= 0 {
            if tail[start..<start + 4].elementsEqual(endSignature) {
                let commentLength = Int(tail[start + 20]) | Int(tail[start + 21]) << 8
                if start + recordSize + commentLength == tail.count { return true }
            }
            start -= 1
        }
        return false
    }

    /// Up to `count` bytes from `offset`, fewer if the file ends or cannot be read.
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return Array(bytes.prefix(max(0, got)))
    }
}
