import Foundation
import GalleryKit

/// The served folder, and the only way a name from a URL becomes a path.
///
/// A name is one document file name (`DocumentName`'s rules: no `/`, no `..`, no NUL, no hidden
/// file), directly in the folder. A symbolic link in the folder is followed only if it leads to a file inside
/// the folder. Names arrive percent-encoded and are decoded once, here, before these checks.
struct DocumentFolder: Sendable {
    /// The folder, with symbolic links resolved.
    let url: URL
    init(_ folder: URL) throws {
        let resolved = Self.realPath(of: folder.standardizedFileURL) ?? folder.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) else {
            throw GalleryError(.fileNotFound, url: folder, "no such folder")
        }
        guard isDirectory.boolValue else {
            throw GalleryError(.fileNotFound, url: folder, "not a folder; serve the folder that holds the documents")
        }
        url = resolved
    }

    /// The document `encodedName` names, which must exist.
    /// - Throws: `APIError` 400 for a name that is not a plain document name, 404 for a name
    ///   with no document, 403 for a link that leads out of the folder.
    func document(named encodedName: String) throws -> URL {
        let name = try Self.plainName(encodedName)
        let candidate = url.appendingPathComponent(name, isDirectory: false)
        var status = stat()
        guard lstat(candidate.path, &status) == 0 else { throw APIError(.notFound, "\(name): no such document in this folder") }
        if status.st_mode & S_IFMT == S_IFLNK {
            guard let target = Self.realPath(of: candidate), stat(target.path, &status) == 0 else {
                throw APIError(.notFound, "\(name): a link to nothing")
            }
            guard contains(target) else { throw APIError(.forbidden, "\(name): a link to a file outside the served folder") }
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw APIError(.notFound, "\(name): not a document") }
        return candidate
    }

    /// Where a document given the name `name` (as typed, not encoded) would go: it may exist,
    /// and the library refuses to overwrite. `.gallery` is added when missing.
    func newDocument(named name: String) throws -> URL {
        url.appendingPathComponent(try Self.checked(DocumentName.withExtension(name)), isDirectory: false)
    }

    /// Whether `file` (links resolved) lies inside the folder.
    func contains(_ file: URL) -> Bool {
        file.standardizedFileURL.path.hasPrefix(url.path.hasSuffix("/") ? url.path : url.path + "/")
    }

    /// Whether `file` is directly in the folder.
    func holds(_ file: URL) -> Bool {
        let parent = file.deletingLastPathComponent().standardizedFileURL
        return (Self.realPath(of: parent) ?? parent).path == url.path
    }

    /// The path with every link resolved (relative ones against their own folder), or `nil`
    /// if something on the way does not exist.
    static func realPath(of url: URL) -> URL? {
        guard let resolved = realpath(url.path, nil) else { return nil }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved))
    }

    /// `encoded`, percent-decoded once and checked to be a plain document file name.
    static func plainName(_ encoded: String) throws -> String {
        guard let name = encoded.removingPercentEncoding else { throw APIError(.badRequest, "the name is not valid percent-encoding") }
        return try checked(name)
    }

    /// `name`, checked to be a plain document file name by the library's rules (`DocumentName`).
    static func checked(_ name: String) throws -> String {
        if let problem = DocumentName.problem(with: name) {
            throw APIError(.badRequest, "'\(name)' is not a document name: \(problem)")
        }
        return name
    }
}
