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
    /// `cached`, `created`, `error`, `images`, `modified`, `name`, `path` and `title` (nulls
    /// included), byte for byte what `Output.json` (JSONEncoder: pretty, sorted keys, ISO 8601
    /// dates) printed for them; and `fileURL` for a path that is not UTF-8 (its `name` and `path`
    /// are then escaped as `ls -b` does, and the URL, percent-encoded, keeps the exact bytes).
    /// Written directly: JSONEncoder took 60 ms for 2,000 documents, this about 3. A 64 KiB
    /// piece at a time, so that a long listing is never held twice more in memory as text.
    static func writeJSON(_ documents: [DocumentSummary]) {
        guard !documents.isEmpty else { return Output.writeToStandardOutput("[\n\n]\n".utf8) }
        var json: [UInt8] = []
        json.reserveCapacity(1 << 16 + 1024)
        func key(_ bytes: [UInt8]) { json.append(contentsOf: bytes) }
        func null() { json.append(contentsOf: "null".utf8) }
        func number(_ value: Int64?) {
            if let value { json.append(contentsOf: String(value).utf8) } else { null() }
        }
        func text(_ value: String?) {
            if let value { JSONValue.append(value, to: &json) } else { null() }
        }
        func date(_ value: Date?) {
            if let value { Output.appendJSONDate(value, to: &json) } else { null() }
        }
        json.append(contentsOf: "[\n".utf8)
        for (position, summary) in documents.enumerated() {
            json.append(contentsOf: JSONKey.objectStart)
            key(JSONKey.bytes)
            number(summary.bytes)
            key(JSONKey.cached)
            number(summary.cachedImageCount.map(Int64.init))
            key(JSONKey.created)
            date(summary.created)
            key(JSONKey.error)
            text(summary.error?.reason)
            key(JSONKey.images)
            number(summary.imageCount.map(Int64.init))
            key(JSONKey.modified)
            date(summary.modified)
            key(JSONKey.name)
            text(summary.name)
            let path = summary.url.pathForDisplay
            key(JSONKey.path)
            text(path)
            // Only an escaped path has a backslash in its display form: the bytes are read again
            // for those alone, not for every row.
            if path.utf8.contains(UInt8(ascii: "\\")), !summary.url.hasUTF8Path {
                key(JSONKey.fileURL)
                text(summary.url.absoluteString)
            }
            key(JSONKey.title)
            text(summary.title)
            json.append(contentsOf: position == documents.count - 1 ? JSONKey.lastObjectEnd : JSONKey.objectEnd)
            if json.count >= 1 << 16 {
                Output.writeToStandardOutput(json)
                json.removeAll(keepingCapacity: true)
            }
        }
        json.append(contentsOf: "]\n".utf8)
        Output.writeToStandardOutput(json)
    }

    func run() throws {
        let url = RawArguments.fileURL(for: folder ?? ".").standardizedFileURL
        let browser = DocumentBrowser(index: noIndex ? nil : DocumentIndex())
        let documents = try browser.documents(in: url, recursive: recursive, search: search)
            .sorted(by: sort, reverse: reverse)
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
            let name = recursive ? Output.name(summary.url) : (summary.url.pathForDisplay as NSString).lastPathComponent
            if let error = summary.error {
                rows.append([name, "damaged: \(error.reason)", "-", "-", Output.bytes(summary.bytes), "-"])
            } else {
                rows.append([
                    name, summary.title ?? "", "\(summary.imageCount ?? 0)", "\(summary.cachedImageCount ?? 0)",
                    Output.bytes(summary.bytes), Output.date(summary.modified),
                ])
            }
        }
        Output.table(rows, rightAligned: [2, 3, 4])
    }
}

extension DocumentSummary.SortKey: ExpressibleByArgument {}

/// The bytes around each value of `BrowseCommand.writeJSON`'s objects, made once: the first key
/// begins its line, the others end the previous value's (appending them took a third of
/// writing 2,000 documents when each was made from its name).
private enum JSONKey {
    static let objectStart = Array("  {\n".utf8)
    static let objectEnd = Array("\n  },\n".utf8)
    static let lastObjectEnd = Array("\n  }\n".utf8)
    static let bytes = Array("    \"bytes\" : ".utf8)
    static let cached = following("cached")
    static let created = following("created")
    static let error = following("error")
    static let images = following("images")
    static let modified = following("modified")
    static let name = following("name")
    static let path = following("path")
    static let fileURL = following("fileURL")
    static let title = following("title")

    private static func following(_ name: String) -> [UInt8] { Array(",\n    \"\(name)\" : ".utf8) }
}
