import ArgumentParser
import Foundation
import GalleryKit

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the gallery documents in a folder.",
        discussion: """
            Reads only each document's manifest, so it stays fast for large documents, and \
            remembers what it read in an index ($XDG_CACHE_HOME/gallery/browse-index.sqlite, by \
            default ~/.cache/gallery/): a document is read again only when its file changed. The \
            index is only a cache; delete it at any time. A damaged document is listed with its \
            error and does not stop the listing. A file name that is not UTF-8 is shown as \
            'ls -b' shows it (caf\\351.gallery); with --json such a document also has \
            "fileURL", its file URL with the name's exact bytes percent-encoded.

            Examples:
              gallery browse ~/Galleries --sort modified --reverse
              gallery browse . --recursive --search harbour --json
            """
    )

    @Argument(help: "The folder to list (default: the current folder).")
    var folder: String?

    @Option(help: "Sort by name, modified, created, size or images.")
    var sort: DocumentSummary.SortKey = .name

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Flag(help: "Include subfolders.")
    var recursive = false

    @Option(
        help: ArgumentHelp(
            "Only documents with words in their name, title, captions or image URLs that start with each word of this text.",
            discussion: "Case and accents are ignored (cafe finds Café); Chinese, Japanese, Korean or Thai text need only occur."
        ))
    var search: String?

    @Flag(help: "Read every document instead of using the index.")
    var noIndex = false

    @OptionGroup var output: JSONOption

    /// Writes the listing as JSON to standard output: an array of objects with the keys `bytes`,
    /// `cached`, `created`, `detail`, `error`, `images`, `modified`, `name`, `path` and `title` (nulls
    /// included; `detail` is what the library underneath said of a damaged document, if anything), byte for byte what `Output.json` (JSONEncoder: pretty, sorted keys, ISO 8601
    /// dates) printed for them; and `fileURL` for a path that is not UTF-8 (its `name` and `path`
    /// are then escaped as `ls -b` does, and the URL, percent-encoded, keeps the exact bytes).
    /// Written directly (JSONEncoder took 60 ms for 2,000 documents), on every core, a few
    /// hundred documents at a time.
    static func writeJSON(_ documents: [DocumentSummary]) {
        guard !documents.isEmpty else { return Output.writeToStandardOutput("[\n\n]\n".utf8) }
        Output.writeToStandardOutput("[".utf8)
        Output.writeInBlocks(of: documents.count, maximumBlockSize: 256) { range, output in
            append(documents[range], to: &output)
        }
        Output.writeToStandardOutput("\n]\n".utf8)
    }

    /// Appends the documents' objects, their slice's indices being their places in the listing;
    /// each but the first is preceded by a comma.
    private static func append(_ documents: ArraySlice<DocumentSummary>, to output: inout [UInt8]) {
        output.reserveCapacity(documents.count * 400)
        func key(_ text: StaticString) { output.appendJSON(literal: text) }
        for position in documents.indices {
            let summary = documents[position]
            key(position == 0 ? "\n  {\n    \"bytes\" : " : ",\n  {\n    \"bytes\" : ")
            output.appendJSON(Int(summary.bytes))
            key(",\n    \"cached\" : ")
            output.appendJSON(summary.cachedImageCount)
            key(",\n    \"created\" : ")
            output.appendJSON(summary.created)
            key(",\n    \"detail\" : ")
            output.appendJSON(summary.error?.detail)
            key(",\n    \"error\" : ")
            output.appendJSON(summary.error?.reason)
            key(",\n    \"images\" : ")
            output.appendJSON(summary.imageCount)
            key(",\n    \"modified\" : ")
            output.appendJSON(summary.modified)
            key(",\n    \"name\" : ")
            output.appendJSON(summary.name)
            let path = summary.pathForDisplay
            key(",\n    \"path\" : ")
            output.appendJSON(path)
            // Only an escaped path has a backslash in its display form: the bytes are read again
            // for those alone, not for every row. Searched in place: through the UTF-8 view's
            // iterator, 1,700 instructions a row.
            let backslash = UInt8(ascii: "\\")
            let hasBackslash =
                path.utf8.withContiguousStorageIfAvailable { $0.contains(backslash) } ?? path.utf8.contains(backslash)
            if hasBackslash, !summary.hasUTF8Path {
                key(",\n    \"fileURL\" : ")
                output.appendJSON(summary.url.absoluteString)
            }
            key(",\n    \"title\" : ")
            output.appendJSON(summary.title)
            key("\n  }")
        }
    }

    func run() throws {
        let url = RawArguments.fileURL(for: folder ?? ".").standardizedFileURL
        let browser = DocumentBrowser(index: noIndex ? nil : DocumentIndex())
        try Output.holdingBackBrokenPipe {
            try browser.withDocuments(in: url, recursive: recursive, search: search, sortedBy: sort, reverse: reverse) { documents in
                show(documents, of: url)
            }
        }
    }

    private func show(_ documents: [DocumentSummary], of url: URL) {
        if output.json {
            Self.writeJSON(documents)
            return
        }
        guard !documents.isEmpty else {
            print("No gallery documents in \(Output.name(url))\(search.map { " matching \($0.debugDescription)" } ?? "").")
            return
        }
        var rows = [["NAME", "TITLE", "IMAGES", "CACHED", "SIZE", "MODIFIED"]]
        for summary in documents {
            let name = recursive ? Output.name(summary.url) : (summary.pathForDisplay as NSString).lastPathComponent
            if let error = summary.error {
                rows.append([name, "damaged: \(error.reason)", "-", "-", Output.bytes(summary.bytes), "-"])
            } else {
                rows.append([
                    name, summary.title ?? "", "\(summary.imageCount ?? 0)", "\(summary.cachedImageCount ?? 0)",
                    Output.bytes(summary.bytes), Output.date(summary.modified),
                ])
            }
        }
        Output.table(rows, rightAligned: [2, 3, 4], shortenable: [1])
    }
}

extension DocumentSummary.SortKey: ExpressibleByArgument {}
