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

/// Files given as images: paths relative to the current directory, or file:// URLs.
func imageFiles(_ arguments: [String]) throws -> [URL] {
    try arguments.map { argument in
        if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1 {
            guard url.isFileURL else {
                throw ValidationError("\(argument): only local files and file:// URLs are supported for now")
            }
            return url.standardizedFileURL
        }
        return URL(fileURLWithPath: argument).standardizedFileURL
    }
}
