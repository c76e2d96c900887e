import Foundation

/// Images fetched from the web (or read from local files) kept for the next time, shared by
/// every GalleryKit program of the user: `gallery serve` shows images that are not stored in
/// their document through it, and `create`, `edit add` and `export` fetch through it, so an
/// image seen once is not downloaded again.
///
/// The folder (`$XDG_CACHE_HOME/gallery/images` by default) holds two kinds of files:
/// - `objects/<ab>/<sha256>`: bytes, named by their SHA-256 and checked against it on every
///   read, so a damaged file is removed and missed, never served;
/// - `keys/<ab>/<sha256 of the key>`: one line, `<sha256 of the object> <media type>`, for a
///   key: an image's URL, or the image a thumbnail or rendition was made of.
///
/// Every file appears whole (written beside its name, then renamed), so programs sharing the
/// folder never read half a file; two writing the same object write the same bytes. A read
/// sets the file's modification time to now; when the folder grows past `capacity`, the least
/// recently used files are removed until it is under nine tenths of it, by one program at a
/// time (a lock file), the others carrying on.
public final class ImageCache: Sendable {
    /// An object found for a key.
    public struct Hit: Sendable, Equatable {
        /// The object's bytes; checked against its name.
        public var bytes: Data
        /// The lowercase hex SHA-256 of `bytes`, which is also the object's file name.
        public var sha256: String
        /// The media type recorded with the key (`image/jpeg`).
        public var mediaType: String
    }

    /// The default capacity: 1 GiB.
    public static let defaultCapacity: Int64 = 1 << 30

    /// The folder holding the cached objects (`$XDG_CACHE_HOME/gallery/images` by default).
    public let folder: URL
    /// The most bytes (disk blocks) the folder may hold.
    public let capacity: Int64
    private let growth = GrowthCounter()

    /// A cache in `folder` (created when first written) holding at most `capacity` bytes.
    public init(folder: URL, capacity: Int64 = ImageCache.defaultCapacity) {
        self.folder = folder
        self.capacity = max(capacity, 0)
    }

    /// The user's cache: `gallery/images` in the XDG cache folder.
    public convenience init(directories: BaseDirectories, capacity: Int64 = ImageCache.defaultCapacity) {
        self.init(
            folder: BaseDirectories.gallery(in: directories.cache).appendingPathComponent("images", isDirectory: true), capacity: capacity)
    }

    /// The key of the image at `url`.
    public static func key(forImageAt url: URL) -> String { "url \(url.absoluteString)" }

    /// The key of the thumbnail of the image whose bytes have `sha256`.
    public static func key(forThumbnailOf sha256: String) -> String { "thumbnail \(sha256)" }

    /// The key of the rendition (`Rendition`) with this long edge of the image whose bytes have `sha256`.
    public static func key(forRenditionOf sha256: String, longEdge: Int) -> String { "rendition \(longEdge) \(sha256)" }

    /// The object stored for `key`, checked; `nil` when there is none or it was damaged (then
    /// it is removed).
    public func object(forKey key: String) -> Hit? {
        let record = recordURL(forKey: key)
        guard let line = try? String(contentsOf: record, encoding: .utf8) else { return nil }
        let parts = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 2, Self.isDigest(parts[0]) else {
            FileLocation.unlink(record)
            return nil
        }
        let object = objectURL(sha256: parts[0])
        guard let bytes = try? Data(contentsOf: object), ContentHash.of(bytes) == parts[0] else {
            FileLocation.unlink(object)
            FileLocation.unlink(record)
            return nil
        }
        Self.touch(record)
        Self.touch(object)
        return Hit(bytes: bytes, sha256: parts[0], mediaType: parts[1])
    }

    /// Stores `bytes` (of `mediaType`) for `key`, then removes the least recently used files if
    /// the folder has grown past its capacity. A cache that cannot be written is simply not
    /// used: nothing here throws.
    /// - Returns: the bytes' SHA-256.
    @discardableResult
    public func store(_ bytes: Data, mediaType: String, forKey key: String) -> String {
        let sha256 = ContentHash.of(bytes)
        store(Hit(bytes: bytes, sha256: sha256, mediaType: mediaType), forKey: key)
        return sha256
    }

    /// Stores an image whose SHA-256 is known (not computed again) for `key`.
    public func store(_ image: Hit, forKey key: String) {
        let (bytes, sha256, mediaType) = (image.bytes, image.sha256, image.mediaType)
        guard capacity > 0, Int64(bytes.count) <= capacity / 2 else { return }
        let object = objectURL(sha256: sha256)
        if FileLocation.status(of: object) == nil {
            guard write(bytes, to: object) else { return }
            growth.add(Int64(bytes.count))
        } else {
            Self.touch(object)
        }
        guard write(Data("\(sha256) \(mediaType)\n".utf8), to: recordURL(forKey: key)) else { return }
        growth.add(4096)
        if growth.total > capacity / 10 || growth.needsFirstLook { evictIfNeeded() }
    }

    /// Removes `key`'s record (the object stays for other keys until evicted).
    public func removeObject(forKey key: String) {
        FileLocation.unlink(recordURL(forKey: key))
    }

    /// The disk space the folder's files take, in bytes.
    public func size() -> Int64 {
        files().reduce(0) { $0 + $1.size }
    }

    /// Removes least recently used files until the folder holds at most nine tenths of the
    /// capacity, if it holds more than the capacity. Skipped while another program does it.
    public func evictIfNeeded() {
        guard
            let lock = try? FileLock(
                folder.appendingPathComponent("lock"), opening: O_RDWR | O_CREAT, mode: 0o600, .exclusive, within: .zero)
        else { return }
        defer { withExtendedLifetime(lock) {} }
        var files = files()
        var total = files.reduce(0) { $0 + $1.size }
        growth.reset()
        guard total > capacity else { return }
        files.sort { $0.used < $1.used }
        let target = capacity / 10 * 9
        for file in files where total > target {
            FileLocation.unlink(file.url)
            total -= file.size
        }
    }

    // MARK: Files

    private func objectURL(sha256: String) -> URL {
        folder.appendingPathComponent("objects/\(sha256.prefix(2))/\(sha256)")
    }

    private func recordURL(forKey key: String) -> URL {
        let sha256 = ContentHash.of(Data(key.utf8))
        return folder.appendingPathComponent("keys/\(sha256.prefix(2))/\(sha256)")
    }

    /// Writes `bytes` to `url` through `AtomicFile`, so readers see the whole file or none. Not
    /// synced: a cache may lose what it was given last in a power cut, and reads check every
    /// object's SHA-256.
    private func write(_ bytes: Data, to url: URL) -> Bool {
        let parent = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let written = try? AtomicFile.write(to: url, mode: .replace, newFileMode: 0o600, syncing: false) { descriptor in
            guard bytes.withUnsafeBytes({ FileLocation.writeAll($0, to: descriptor) }) else {
                throw GalleryError.system("cannot write", url: url)
            }
        }
        return written != nil
    }

    /// Marks `url` as just used.
    private static func touch(_ url: URL) {
        FileLocation.withPath(of: url) { path in
            if let path { _ = utimensat(AT_FDCWD, path, nil, 0) }
        }
    }

    private struct File {
        var url: URL
        var size: Int64
        var used: Int64
    }

    /// Every file of the cache with its disk space and last use; temporary files a killed
    /// program left count as used when written, so they go with the oldest.
    private func files() -> [File] {
        var found: [File] = []
        for kind in ["objects", "keys"] {
            let top = folder.appendingPathComponent(kind)
            for bucket in (try? FileManager.default.contentsOfDirectory(atPath: top.path)) ?? [] {
                let bucketURL = top.appendingPathComponent(bucket)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: bucketURL.path)) ?? [] {
                    let url = bucketURL.appendingPathComponent(name)
                    guard let status = FileLocation.status(of: url), status.st_mode & S_IFMT == S_IFREG else { continue }
                    found.append(File(url: url, size: Int64(status.st_blocks) * 512, used: status.modifiedNanoseconds))
                }
            }
        }
        return found
    }

    private static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { HexDigit.value(of: $0) != nil }
    }
}

/// Bytes written since the folder was last measured, shared by the cache's callers.
private final class GrowthCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: Int64 = 0
    private var measured = false

    func add(_ count: Int64) { lock.withLock { bytes += count } }

    var total: Int64 { lock.withLock { bytes } }

    /// Whether the folder has not been measured yet by this program (another may have filled it).
    var needsFirstLook: Bool { lock.withLock { !measured } }

    func reset() {
        lock.withLock {
            bytes = 0
            measured = true
        }
    }
}
