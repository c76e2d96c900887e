import ArgumentParser
import Foundation
import GalleryKit

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Show a gallery document's title, layout and images.",
        discussion: """
            Reads only the archive's directory and the manifest, however large the document.

            Examples:
              gallery open Trip.gallery
              gallery open Trip.gallery --json | jq '.images[].url'
            """
    )

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    @OptionGroup var output: JSONOption

    @OptionGroup var verbosity: VerboseOption

    func run() throws {
        let gallery = try verbosity.reporting { try GalleryDocument(contentsOf: document.url).gallery }
        ProcessExit.keep(gallery)
        RecentDocuments().record(document.url, .opened)
        if output.json {
            DocumentJSON.print(path: document.url, gallery: gallery)
            return
        }
        let cached = gallery.images.count { $0.isCached }
        print("\(gallery.title.isEmpty ? "(untitled)" : gallery.title) — \(Output.name(document.url))")
        print(
            "\(Output.count(gallery.images.count, "image")), \(cached) cached, \(gallery.columns) per row · modified \(Output.date(gallery.modified))"
        )
        guard !gallery.images.isEmpty else { return }
        var rows = [["#", "SIZE", "RATIO", "STATUS", "CACHED", "CAPTION", "URL"]]
        for (offset, image) in gallery.images.enumerated() {
            let size = image.width.flatMap { width in image.height.map { "\(width)×\($0)" } } ?? "-"
            let status = image.hasFailed ? "failed: \(image.error ?? "")" : "ok"
            rows.append([
                "\(offset + 1)", size, Output.decimal(image.aspectRatio, places: 3), status,
                image.isCached ? "yes" : "no", image.caption ?? "",
                image.url.isFileURL ? image.url.pathForDisplay : image.url.absoluteString,
            ])
        }
        Output.table(rows, rightAligned: [0, 2], shortenable: [3, 5, 6])
    }
}
