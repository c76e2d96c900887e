import ArgumentParser
import Foundation
import GalleryKit

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the gallery documents in a folder.",
        discussion: """
            Reads only each document's manifest, so it stays fast for large documents. A damaged \
            document is listed with its error and does not stop the listing.

            Examples:
              gallery browse ~/Galleries --sort modified --reverse
              gallery browse . --recursive --search harbour --json
            """
    )

    @Argument(help: "The folder to list (default: the current folder).")
    var folder: String = "."

    @Option(help: "Sort by name, modified, created, size or images.")
    var sort: DocumentSummary.SortKey = .name

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Flag(help: "Include subfolders.")
    var recursive = false

    @Option(help: "Only documents whose name, title, captions or image URLs contain this text.")
    var search: String?

    @OptionGroup var output: JSONOption

    struct SummaryJSON: Encodable {
        var path: String
        var name: String
        var title: String?
        var images: Int?
        var cached: Int?
        var bytes: Int64
        var modified: Date?
        var created: Date?
        var error: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(name, forKey: .name)
            try container.encode(title, forKey: .title)
            try container.encode(images, forKey: .images)
            try container.encode(cached, forKey: .cached)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(modified, forKey: .modified)
            try container.encode(created, forKey: .created)
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case path, name, title, images, cached, bytes, modified, created, error }
    }

    func run() throws {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        let documents = try DocumentBrowser().documents(in: url, recursive: recursive, search: search)
            .sorted(by: sort, reverse: reverse)
        if output.json {
            try Output.json(documents.map { summary in
                SummaryJSON(
                    path: summary.url.pathForDisplay, name: summary.name, title: summary.title, images: summary.imageCount,
                    cached: summary.cachedImageCount, bytes: summary.bytes, modified: summary.modified,
                    created: summary.created, error: summary.error?.reason
                )
            })
            return
        }
        guard !documents.isEmpty else {
            print("No gallery documents in \(Output.name(url))\(search.map { " matching \($0.debugDescription)" } ?? "").")
            return
        }
        var rows = [["NAME", "TITLE", "IMAGES", "CACHED", "SIZE", "MODIFIED"]]
        for summary in documents {
            let name = recursive ? Output.name(summary.url) : summary.url.lastPathComponent
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
