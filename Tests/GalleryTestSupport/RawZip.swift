import CArchive
import Foundation

/// Writes zip archives entry by entry with libarchive directly, with none of GalleryKit's rules:
/// the tests' way to build hostile documents (links, devices, bad names, encryption…).
public enum RawZip {
    public enum Kind: Sendable {
        case file
        case directory
        case symbolicLink(String)
        /// A regular file whose central-directory record then claims this Unix file type
        /// (libarchive's zip writer refuses to write devices and fifos itself).
        case unixFileType(UInt32)

        public static let characterDevice = Kind.unixFileType(0o020000)
        public static let socket = Kind.unixFileType(0o140000)
    }

    public struct Entry: Sendable {
        public var name: String
        public var data: Data
        public var kind: Kind
        public var isDeflated: Bool

        public init(_ name: String, _ data: Data = Data(), kind: Kind = .file, deflated: Bool = false) {
            self.name = name
            self.data = data
            self.kind = kind
            self.isDeflated = deflated
        }

        public init(_ name: String, _ text: String, deflated: Bool = true) {
            self.init(name, Data(text.utf8), deflated: deflated)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `entries` in order to `url`; with `passphrase`, every entry is encrypted.
    public static func write(_ entries: [Entry], to url: URL, passphrase: String? = nil) throws {
        guard let archive = archive_write_new() else { throw Failure(description: "no writer") }
        defer { archive_write_free(archive) }
        archive_write_set_format_zip(archive)
        if let passphrase {
            archive_write_set_options(archive, "zip:encryption=zipcrypt")
            archive_write_set_passphrase(archive, passphrase)
        }
        guard archive_write_open_filename(archive, url.path) == ARCHIVE_OK else {
            throw Failure(description: String(cString: archive_error_string(archive)))
        }
        for item in entries {
            let entry = archive_entry_new()
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, item.name)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_mtime(entry, 1_767_225_600, 0)
            var size = Int64(item.data.count)
            switch item.kind {
            case .file: archive_entry_set_filetype(entry, CArchiveFileTypeRegular)
            case .directory: archive_entry_set_filetype(entry, CArchiveFileTypeDirectory); size = 0
            case .symbolicLink(let target):
                archive_entry_set_filetype(entry, CArchiveFileTypeSymbolicLink)
                archive_entry_set_symlink(entry, target)
                size = 0
            case .unixFileType: archive_entry_set_filetype(entry, CArchiveFileTypeRegular)
            }
            archive_entry_set_size(entry, size)
            if item.isDeflated {
                archive_write_zip_set_compression_deflate(archive)
            } else {
                archive_write_zip_set_compression_store(archive)
            }
            guard archive_write_header(archive, entry) >= ARCHIVE_WARN else {
                throw Failure(description: String(cString: archive_error_string(archive)))
            }
            if size > 0 {
                _ = item.data.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            }
        }
        guard archive_write_close(archive) == ARCHIVE_OK else {
            throw Failure(description: String(cString: archive_error_string(archive)))
        }
        for item in entries {
            if case .unixFileType(let type) = item.kind { try setFileType(type | 0o644, of: item.name, in: url) }
        }
    }

    /// Rewrites the external attributes (Unix mode in the high 16 bits) of `name`'s central-directory record.
    static func setFileType(_ mode: UInt32, of name: String, in url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        var offset = 0
        while offset + 46 <= bytes.count {
            if bytes[offset] == 0x50, bytes[offset + 1] == 0x4B, bytes[offset + 2] == 0x01, bytes[offset + 3] == 0x02 {
                let nameLength = Int(bytes[offset + 28]) | Int(bytes[offset + 29]) << 8
                let recordName = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
                if recordName == name {
                    let attributes = mode << 16
                    for index in 0..<4 { bytes[offset + 38 + index] = UInt8((attributes >> (8 * UInt32(index))) & 0xFF) }
                    try Data(bytes).write(to: url)
                    return
                }
            }
            offset += 1
        }
        throw Failure(description: "no central directory record for \(name)")
    }
}

extension RawZip {
    /// Flips one byte in the middle of `stored`, an entry's bytes stored (not deflated) in the
    /// archive at `url`: the entry then fails its CRC-32 while every header stays intact.
    public static func flipByte(of stored: Data, in url: URL) throws {
        var archive = try Data(contentsOf: url)
        guard let range = archive.range(of: stored) else { throw Failure(description: "the bytes are not stored in \(url.path)") }
        archive[range.lowerBound + stored.count / 2] ^= 0xFF
        try archive.write(to: url)
    }
}

/// Manifests for test documents, as JSON objects the tests can break on purpose.
public enum TestManifest {
    public static let mimetype = RawZip.Entry("mimetype", Data("application/vnd.gallery+zip".utf8))

    /// A valid manifest object with the given images.
    public static func object(title: String = "Test", images: [[String: Any]] = []) -> [String: Any] {
        [
            "format": "gallery", "formatVersion": "1.0", "id": "8a7c4e0e-0d3b-4d51-9a7e-3c1e2b9f0a11",
            "title": title, "created": "2026-01-02T03:04:05Z", "modified": "2026-01-02T03:04:05Z",
            "generator": "tests", "columns": 3, "images": images,
        ]
    }

    /// A valid image object.
    public static func image(index: Int = 0, cached: [String: Any]? = nil) -> [String: Any] {
        var image: [String: Any] = [
            "id": String(format: "00000000-0000-4000-8000-%012x", index), "url": "https://example.com/\(index).jpg",
            "aspectRatio": 1.5, "width": 300, "height": 200, "status": "ok", "error": NSNull(),
            "cached": NSNull(), "thumbnail": NSNull(), "caption": NSNull(), "added": "2026-01-02T03:04:05Z",
        ]
        if let cached { image["cached"] = cached }
        return image
    }

    /// An image's `cached` object: its bytes stored as `images/<sha256>.<ext>`, `bytes` long.
    public static func cached(sha256: String, bytes: Int, extension ext: String = "jpg") -> [String: Any] {
        ["path": "images/\(sha256).\(ext)", "sha256": sha256, "bytes": bytes, "mediaType": ext == "png" ? "image/png" : "image/jpeg"]
    }

    public static func data(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// `mimetype` and `manifest.json`, then `more`.
    public static func entries(_ object: [String: Any] = object(), more: [RawZip.Entry] = []) -> [RawZip.Entry] {
        [mimetype, RawZip.Entry("manifest.json", data(object), deflated: true)] + more
    }
}
