import ArgumentParser
import Foundation
import GalleryKit

/// A `.gallery` path on the command line.
struct DocumentPath: ExpressibleByArgument {
    var url: URL
    /// The argument as given, for a message that repeats the command.
    var argument: String

    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        url = RawArguments.fileURL(for: argument)
        self.argument = argument
    }
}

/// The bytes of arguments that are not valid UTF-8.
///
/// A file name is bytes on Linux; `CommandLine.arguments` turns the bytes that are not UTF-8
/// into U+FFFD, and a path so repaired names no file. The parser still sees the repaired text;
/// when it hands back an argument as a path, this table gives the original bytes.
enum RawArguments {
    /// Repaired text → original bytes, for arguments whose repair is unambiguous.
    static let bytesByText: [String: [UInt8]] = {
        var table: [String: [UInt8]?] = [:]
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(
                UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            // Two different arguments with the same repair: neither can be told apart.
            table[text] = table[text] == nil ? .some(bytes) : .some(nil)
        }
        return table.compactMapValues { $0 }
    }()

    /// The file URL for a path argument, relative to the current directory, bytes kept.
    static func fileURL(for argument: String) -> URL {
        guard var bytes = bytesByText[argument] else { return URL(fileURLWithPath: argument).standardizedFileURL }
        if bytes.first != UInt8(ascii: "/") {
            bytes = Array(FileManager.default.currentDirectoryPath.utf8) + [UInt8(ascii: "/")] + bytes
        }
        return URL(fileSystemPath: bytes)
    }
}

/// A 1-based image index on the command line, kept 0-based inside.
struct ImageIndex: ExpressibleByArgument {
    var offset: Int

    init?(argument: String) {
        guard let number = Int(argument), number >= 1 else { return nil }
        offset = number - 1
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A position given with `--at` or `--to` (1-based), taken as any number and checked where the
/// document is known, so that `copy`'s error names its document as `edit`'s does.
struct Position: ExpressibleByArgument {
    var number: Int

    init?(argument: String) {
        guard let number = Int(argument) else { return nil }
        self.number = number
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// The 0-based offset, or `.invalidArgument` naming `document` when the number is below 1.
    func offset(option: String, in document: URL) throws -> Int {
        guard number >= 1 else {
            throw GalleryError(.invalidArgument, url: document, "\(option) \(number): positions start at 1, the first image")
        }
        return number - 1
    }
}

extension Array where Element == ImageIndex {
    var offsets: [Int] { map(\.offset) }
}

/// `--verbose`: with an error or an image left out, also what the library underneath said
/// (libvips', libarchive's own message: `GalleryError.detail`), on a line of its own.
struct VerboseOption: ParsableArguments {
    @Flag(help: "With an error or an image left out, also print what the image or archive library said.")
    var verbose = false

    /// Runs `body`; with `--verbose`, an error it throws that has a detail is reported with it.
    func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GalleryError where verbose && error.detail != nil {
            throw DetailedError(error: error)
        }
    }

    /// `reporting(_:)` of an asynchronous body.
    func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GalleryError where verbose && error.detail != nil {
            throw DetailedError(error: error)
        }
    }
}

/// An error to report with its detail (`--verbose`).
struct DetailedError: Error {
    var error: GalleryError
}

/// `--json`, shared by the commands that can print for programs.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON instead of a table.")
    var json = false
}

/// Images given on the command line: paths (relative to the current directory), file:// URLs,
/// or http(s) URLs, which are fetched (search-engine result links are unwrapped first), and
/// folders, which stand for the files in them.
struct ImageArguments: Sendable {
    /// The images, in the order given, a folder's files in its place.
    var sources: [ImageSource] = []
    /// The folder each of a folder's files came from, by position in `sources`.
    var folders: [Int: URL] = [:]

    /// Images already known (a document's own, fetched again), none from a folder.
    init(sources: [ImageSource]) {
        self.sources = sources
    }

    init(_ arguments: [String]) throws {
        for argument in arguments {
            // "C:" or a bare word is a path; a scheme of two letters or more is a URL.
            if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1 {
                do {
                    sources.append(try ImageSource(url))
                } catch let error as GalleryError {
                    throw ValidationError("\(argument): \(error.reason)")
                }
                continue
            }
            let url = RawArguments.fileURL(for: argument)
            guard let files = try Self.files(inFolder: url) else {
                sources.append(.file(url))
                continue
            }
            for file in files {
                folders[sources.count] = url
                sources.append(.file(file))
            }
        }
    }

    /// The files of the folder at `url` (not its subfolders, nor hidden files), in name order as
    /// a file manager sorts them ("2.jpg" before "10.jpg"); `nil` if `url` is no folder.
    private static func files(inFolder url: URL) throws -> [URL]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw GalleryError(.ioFailure, url: url, "cannot list the folder (\((error as NSError).localizedDescription))")
        }
        return names.filter { !$0.hasPrefix(".") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            .map { url.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }
}

/// `--title` of `create` and `new`: GalleryKit's limit on a title, as a usage error.
enum TitleOption {
    static func check(_ title: String?) throws {
        guard let title else { return }
        do {
            try Gallery.checkLength(of: title, naming: "title")
        } catch let error as GalleryError {
            throw ValidationError("--title: \(error.reason)")
        }
    }
}

/// `--columns` and `columns N`: the range is GalleryKit's (`Gallery.columnRange`), not restated.
enum ColumnsOption {
    /// "1 to 12", for help texts and errors.
    static let range = "\(Gallery.columnRange.lowerBound) to \(Gallery.columnRange.upperBound)"
}
