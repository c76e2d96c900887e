import Foundation

/// One trash folder of the freedesktop.org Trash specification 1.0: the home trash
/// (`$XDG_DATA_HOME/Trash`) or a volume's (`$topdir/.Trash/$uid` or `$topdir/.Trash-$uid`),
/// each holding `files/` (the trashed files) and `info/` (a `NAME.trashinfo` for each).
struct TrashFolder: Sendable, Equatable {
    /// The folder itself.
    var url: URL
    /// The volume's top directory, which `Path` keys of a volume's trash are relative to;
    /// `nil` for the home trash, whose paths are absolute.
    var topDirectory: URL?

    var files: URL { FileLocation.url(of: Array("files".utf8), in: url) }
    var info: URL { FileLocation.url(of: Array("info".utf8), in: url) }

    func file(named name: [UInt8]) -> URL { FileLocation.url(of: name, in: files) }
    func infoFile(named name: [UInt8]) -> URL { FileLocation.url(of: name + Array(".trashinfo".utf8), in: info) }

    /// Creates the folder, `files/` and `info/` where missing, readable by the user alone.
    /// - Throws: `.cannotCreate` naming the folder that could not be made.
    func prepare() throws {
        // The home trash's parent ($XDG_DATA_HOME) may not exist yet on a new account.
        let parent = URL(fileSystemPath: FileLocation.parentPath(of: FileLocation.bytes(of: url)))
        if FileLocation.status(of: parent) == nil {
            try? FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        for folder in [url, files, info] {
            try GalleryError.system("cannot create the trash folder", url: folder) { () throws(SystemError) in
                try FileLocation.makeDirectoryUnlessPresent(folder, mode: 0o700)
            }
            guard let status = FileLocation.linkStatus(of: folder), status.st_mode & S_IFMT == S_IFDIR else {
                throw GalleryError(.cannotCreate, url: folder, "is not a folder; cannot use it as the Trash")
            }
        }
    }

    /// The `Path` value for a file at the absolute path `path`: relative to the top directory
    /// in a volume's trash (the specification's advice, so the volume can be mounted elsewhere),
    /// absolute in the home trash.
    func infoPath(for path: [UInt8]) -> [UInt8] {
        guard let topDirectory else { return path }
        var top = FileLocation.bytes(of: topDirectory)
        if top.last != UInt8(ascii: "/") { top.append(UInt8(ascii: "/")) }
        return path.starts(with: top) ? Array(path.dropFirst(top.count)) : path
    }

    /// The absolute location a `Path` value names; `nil` for a relative path with a `..`
    /// component, which the specification forbids (it could name a file outside the volume).
    func originalURL(forInfoPath path: [UInt8]) -> URL? {
        if path.first == UInt8(ascii: "/") { return URL(fileSystemPath: path) }
        let components = path.split(separator: UInt8(ascii: "/"))
        guard !components.contains(where: { $0.elementsEqual("..".utf8) }) else { return nil }
        // A relative path in the home trash is relative to the folder holding it ($XDG_DATA_HOME).
        let base = topDirectory.map(FileLocation.bytes(of:)) ?? FileLocation.parentPath(of: FileLocation.bytes(of: url))
        return FileLocation.url(of: path, in: URL(fileSystemPath: base))
    }
}
