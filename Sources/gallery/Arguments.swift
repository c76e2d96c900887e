import ArgumentParser
import Foundation
import GalleryKit

/// A `.gallery` path on the command line.
struct DocumentPath: ExpressibleByArgument {
    var url: URL

    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        url = URL(fileURLWithPath: argument).standardizedFileURL
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

extension Array where Element == ImageIndex {
    var offsets: [Int] { map(\.offset) }
}

/// `--json`, shared by the commands that can print for programs.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON instead of a table.")
    var json = false
}

/// Images given on the command line: paths (relative to the current directory), file:// URLs,
/// or http(s) URLs, which are fetched (search-engine result links are unwrapped first).
func imageSources(_ arguments: [String]) throws -> [ImageSource] {
    try arguments.map { argument in
        // "C:" or a bare word is a path; a scheme of two letters or more is a URL.
        if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1 {
            do {
                return try ImageSource(url)
            } catch let error as GalleryError {
                throw ValidationError("\(argument): \(error.reason)")
            }
        }
        return .file(URL(fileURLWithPath: argument).standardizedFileURL)
    }
}
