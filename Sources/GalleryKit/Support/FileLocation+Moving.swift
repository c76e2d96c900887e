import Foundation

/// The system calls the document operations need beyond `FileLocation`'s: renaming without
/// replacing, `lstat`, and reading a folder's names as bytes.
extension FileLocation {
    /// Renames `source` to `destination`, failing with `EEXIST` rather than replacing a file
    /// that is there — also one created an instant before (`renameat2(RENAME_NOREPLACE)`).
    ///
    /// Glibc declares `renameat2` only for `_GNU_SOURCE`, which Swift's Glibc module does not
    /// see, and `syscall` is variadic (unavailable in Swift), so the function is looked up at
    /// run time. Where it is missing or the file system does not support the flag (`EINVAL`),
    /// `link` then `unlink` gives the same guarantee for files; where hard links are not
    /// supported either (FAT), a check then `rename` is the last resort.
    /// - Throws: `SystemError.exists` if `destination` exists, or another failure.
    static func renameWithoutReplacing(_ source: URL, to destination: URL) throws(SystemError) {
        try SystemError.check(renamingWithoutReplacing(source, to: destination))
    }

    /// `renameWithoutReplacing`'s work: 0, or -1 with `errno` set.
    private static func renamingWithoutReplacing(_ source: URL, to destination: URL) -> Int32 {
        withPath(of: source) { from in
            withPath(of: destination) { to in
                guard let from, let to else { errno = ENOENT; return -1 }
                if let renameat2 = NoReplaceRename.function {
                    let result = renameat2(AT_FDCWD, from, AT_FDCWD, to, NoReplaceRename.flag)
                    if result == 0 { return 0 }
                    let failure = errno
                    guard failure == EINVAL || failure == ENOSYS || failure == EOPNOTSUPP else { return -1 }
                }
                if Foundation.link(from, to) == 0 {
                    Foundation.unlink(from)
                    return 0
                }
                let failure = errno
                guard failure == EPERM || failure == EOPNOTSUPP || failure == EMLINK else { return -1 }
                var status = stat()
                if lstat(to, &status) == 0 { errno = EEXIST; return -1 }
                return Foundation.rename(from, to)
            }
        }
    }

    /// The status of `url` itself, not following a final symbolic link (`lstat`); `nil` if
    /// nothing has that name.
    static func linkStatus(of url: URL) -> stat? {
        withPath(of: url) { path in
            var status = stat()
            guard let path, lstat(path, &status) == 0 else { return nil }
            return status
        }
    }

    /// The names in the folder `url`, as bytes (`.` and `..` left out); `nil` if it cannot be read.
    /// - Complexity: O(names).
    static func names(in url: URL) -> [[UInt8]]? {
        withPath(of: url) { path -> [[UInt8]]? in
            guard let path, let directory = opendir(path) else { return nil }
            defer { closedir(directory) }
            var names: [[UInt8]] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                if name != [UInt8(ascii: ".")], name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
            }
            return names
        }
    }

    /// The URL of `name` (bytes, no `/`) inside `folder`.
    static func url(of name: [UInt8], in folder: URL) -> URL {
        var path = bytes(of: folder)
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        return URL(fileSystemPath: path + name)
    }

    /// The last component of `url`'s path, as bytes.
    static func name(of url: URL) -> [UInt8] {
        var path = bytes(of: url)
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return Array(path[(slash + 1)...])
    }

    /// The folder holding the absolute path `path` (`/` for `/` itself), without a final `/`.
    static func parentPath(of path: [UInt8]) -> [UInt8] {
        var path = path
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
    }

    /// Reads a whole small file (also `/proc` files, whose size shows as 0), up to `limit` bytes.
    static func contents(of url: URL, limit: Int) -> [UInt8]? {
        let descriptor = open(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while data.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            data += buffer[..<count]
        }
        return Array(data.prefix(limit))
    }

    /// Removes the file `url`.
    static func removeFile(_ url: URL) throws(SystemError) {
        try SystemError.check(
            withPath(of: url) { path in
                guard let path else { errno = ENOENT; return -1 }
                return Foundation.unlink(path)
            })
    }
}

/// `renameat2`, found at run time.
private enum NoReplaceRename {
    typealias Function = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    /// `RENAME_NOREPLACE` from `<linux/fs.h>`.
    static let flag: UInt32 = 1

    /// Glibc's `renameat2` (2.28 and later), or `nil`.
    static let function: Function? = {
        // RTLD_DEFAULT is the null handle on glibc: search every loaded object.
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
