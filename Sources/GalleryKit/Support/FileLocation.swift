import Foundation

/// System calls on file URLs, made with the path's exact bytes.
///
/// A path is bytes on Linux, not text. A name that is not valid UTF-8 (`bad\xff.jpg`) does not
/// survive `url.path` or even `withUnsafeFileSystemRepresentation` (Foundation on Linux turns
/// the byte into U+FFFD, or gives an empty path), but it does survive percent-encoded in the URL
/// (`file:///…/bad%FF.jpg`, spec §11). So the bytes are taken from the percent-encoded path.
package enum FileLocation {
    /// The path's bytes, percent-decoded from the URL.
    static func bytes(of url: URL) -> [UInt8] {
        EscapedBytes.decoded(Array(url.absoluteURL.path(percentEncoded: true).utf8), escape: UInt8(ascii: "%"), digits: 2, radix: 16)
    }

    /// Calls `body` with the path as a C string (`nil` for an empty or NUL-holding path).
    static func withPath<T>(of url: URL, _ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
        try withPath(bytes(of: url), body)
    }

    /// Calls `body` with a path given as its bytes as a C string (`nil` for an empty or
    /// NUL-holding path).
    static func withPath<T>(_ path: some Collection<UInt8>, _ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
        // Copied first, then looked at in the copy: `contains` on a `Data` went byte by byte
        // through its iterator, for every document a listing opens.
        var terminated: [UInt8] = []
        terminated.reserveCapacity(path.count + 1)
        terminated.append(contentsOf: path)
        guard !terminated.isEmpty, !terminated.contains(0) else { return try body(nil) }
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress) }
        }
    }

    /// A file URL for a path given as bytes, percent-encoding every byte that is not an
    /// unreserved URL character or `/`.
    static func url(forPath path: [UInt8]) -> URL {
        var encoded = "file://"
        for byte in path {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return URL(string: encoded) ?? URL(fileURLWithPath: String(decoding: path, as: UTF8.self))
    }

    /// A file URL for `path`, made by Foundation's `URL(filePath:)` when the path is UTF-8 (parsing
    /// a percent-encoded string instead took 9 ms of a listing of 2,000 documents, this 2), and by
    /// `URL(fileSystemPath:)`, which keeps every byte, when it is not.
    static func fileURL(forPath path: Data) -> URL {
        guard let text = utf8Text(of: path), !text.utf8.contains(0) else { return URL(fileSystemPath: Array(path)) }
        return URL(filePath: text, directoryHint: .notDirectory)
    }

    /// The bytes as text if they are UTF-8; nil if not. Validated in place where they are
    /// contiguous (a `Data`'s): through a collection's iterator it cost a listing a microsecond
    /// a document.
    static func utf8Text(of bytes: some Collection<UInt8>) -> String? {
        bytes.withContiguousStorageIfAvailable { String(validating: $0, as: UTF8.self) } ?? String(validating: bytes, as: UTF8.self)
    }

    /// The path for messages and listings, as `displayText(of:)` gives its bytes.
    static func displayPath(of url: URL) -> String {
        guard url.isFileURL else { return url.path }
        return displayText(of: bytes(of: url))
    }

    /// A name or path as text: exact when it is UTF-8; otherwise as `ls -b` shows it, each byte
    /// that is not part of UTF-8 as a backslash and three octal digits (`caf\351.gallery`), and
    /// each backslash doubled so the escapes cannot be mistaken for the name's own text.
    /// (U+FFFD in their place, Foundation's repair, would make two names look the same.)
    static func displayText(of bytes: some Collection<UInt8>) -> String {
        if let text = utf8Text(of: bytes) { return text }
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var rest = bytes[...]
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                text += scalar == "\\" ? "\\\\" : String(scalar)
                rest = rest.dropFirst(encoded.count)
            case .error(let length):
                for byte in rest.prefix(length) {
                    let octal = String(byte, radix: 8)
                    text += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
                rest = rest.dropFirst(length)
            case .emptyInput:
                break loop
            }
        }
        return text
    }

    static func open(_ url: URL, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        open(path: bytes(of: url), flags, mode: mode)
    }

    /// `open(_:_:mode:)` of a path given as its bytes.
    static func open(path: some Collection<UInt8>, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        withPath(path) { path in
            guard let path else { return failing(ENOENT) }
            return Foundation.open(path, flags, mode)
        }
    }

    /// The status of the file `url` names, following symbolic links; `nil` if there is none.
    static func status(of url: URL) -> stat? {
        withPath(of: url) { path in
            var status = stat()
            guard let path, stat(path, &status) == 0 else { return nil }
            return status
        }
    }

    static func rename(_ source: URL, to destination: URL) throws(SystemError) {
        try SystemError.check(withPaths(of: source, destination) { Foundation.rename($0, $1) })
    }

    static func link(_ source: URL, to destination: URL) throws(SystemError) {
        try SystemError.check(withPaths(of: source, destination) { Foundation.link($0, $1) })
    }

    /// Calls a system call on two paths; -1 with `ENOENT` when one cannot be one (a NUL byte).
    private static func withPaths(of first: URL, _ second: URL, _ call: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32) -> Int32 {
        withPath(of: first) { first in
            withPath(of: second) { second in
                guard let first, let second else { return failing(ENOENT) }
                return call(first, second)
            }
        }
    }

    /// `makeDirectory`, where something already at `url` is no failure (the caller checks what).
    static func makeDirectoryUnlessPresent(_ url: URL, mode: mode_t) throws(SystemError) {
        do {
            try makeDirectory(url, mode: mode)
        } catch  where error != .exists {
            throw error
        } catch {}
    }

    static func makeDirectory(_ url: URL, mode: mode_t) throws(SystemError) {
        try SystemError.check(
            withPath(of: url) { path in
                guard let path else { return failing(ENOENT) }
                return mkdir(path, mode)
            })
    }

    /// Writes all of `bytes` to `descriptor`, again after a short write or `EINTR`; false, with
    /// `errno` set, if a write fails. The one loop that writes a whole buffer, the command
    /// line's standard output's too.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Creates the file `url` (it must not exist) holding `bytes`; on failure no file is left.
    static func createFile(_ url: URL, contents bytes: Data, mode: mode_t) throws(SystemError) {
        let descriptor = open(url, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
        guard descriptor >= 0 else { throw .current }
        let written = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        let failure = SystemError.current
        close(descriptor)
        guard written else {
            unlink(url)
            throw failure
        }
    }

    static func unlink(_ url: URL) {
        withPath(of: url) { path in
            if let path { _ = Foundation.unlink(path) }
        }
    }

    /// The file that `url` finally names once every symbolic link is followed (`realpath`), or
    /// `url` itself if it does not exist yet.
    ///
    /// Saving replaces a file by renaming a new one over it; done on a link, that would replace
    /// the link and leave the real document unedited. Saves, locks and temporary files therefore
    /// use the target, as the Files app and text editors do.
    static func target(of url: URL) -> URL {
        withPath(of: url) { path in
            guard let path, let resolved = realpath(path, nil) else { return url }
            defer { free(resolved) }
            return Self.url(
                forPath: Array(
                    UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved))))
        }
    }

    private static func failing(_ number: Int32) -> Int32 {
        errno = number
        return -1
    }
}

extension URL {
    /// A file URL for an absolute path given as the system's bytes, which need not be UTF-8:
    /// bytes that are not unreserved URL characters are percent-encoded (`bad%FF.jpg`), and
    /// GalleryKit opens such URLs with exactly those bytes.
    public init(fileSystemPath bytes: [UInt8]) {
        self = FileLocation.url(forPath: bytes)
    }

    /// A file URL's path for people to read: exact when it is UTF-8; otherwise with each byte
    /// that is not UTF-8 as `ls -b` shows it (`caf\351.gallery`) and backslashes doubled.
    public var pathForDisplay: String { FileLocation.displayPath(of: self) }

    /// Whether a file URL's path is valid UTF-8, so that `pathForDisplay` is exactly it.
    public var hasUTF8Path: Bool { !isFileURL || String(validating: FileLocation.bytes(of: self), as: UTF8.self) != nil }
}
