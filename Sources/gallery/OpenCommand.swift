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

    func run() throws {
        let gallery = try GalleryDocument(contentsOf: document.url).gallery
        if output.json {
            Output.json(DocumentJSON.value(path: document.url, gallery: gallery))
            return
        }
        let cached = gallery.images.count { $0.isCached }
        print("\(gallery.title.isEmpty ? "(untitled)" : gallery.title) — \(Output.name(document.url))")
        print("\(Output.count(gallery.images.count, "image")), \(cached) cached, \(gallery.columns) per row · modified \(Output.date(gallery.modified))")
        guard !gallery.images.isEmpty else { return }
        var rows = [["#", "SIZE", "RATIO", "STATUS", "CACHED", "CAPTION", "URL"]]
        for (offset, image) in gallery.images.enumerated() {
            let size = image.width.flatMap { width in image.height.map { "\(width)×\($0)" } } ?? "-"
            let status = image.hasFailed ? "failed: \(image.error ?? "")" : "ok"
            rows.append([
                "\(offset + 1)", size, Output.decimal(image.aspectRatio, places: 3), status,
                image.isCached ? "yes" : "no", image.caption ?? "", image.url.isFileURL ? image.url.pathForDisplay : image.url.absoluteString,
            ])
        }
        Output.table(rows, rightAligned: [0, 2])
    }
}

/// `open --json`: the document as a program sees it. Every key is always present (`null` when
/// empty); keys sorted, pretty-printed.
enum DocumentJSON {
    static func value(path: URL, gallery: Gallery) -> JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        func optional(_ number: Int?) -> JSONValue { number.map { .integer(Int64($0)) } ?? .null }
        let images = gallery.images.enumerated().map { offset, image -> JSONValue in
            .object([
                "index": .integer(Int64(offset + 1)), "id": .string(image.id.uuidString.lowercased()),
                "url": .string(image.url.absoluteString), "aspectRatio": .number(image.aspectRatio),
                "width": optional(image.width), "height": optional(image.height),
                "status": .string(image.status.rawValue), "error": optional(image.error),
                "cached": .bool(image.isCached), "sha256": optional(image.cached?.sha256), "caption": optional(image.caption),
            ])
        }
        return .object([
            "path": .string(path.pathForDisplay), "title": .string(gallery.title),
            "id": .string(gallery.id.uuidString.lowercased()),
            "created": .string(gallery.created.formatted(.iso8601)), "modified": .string(gallery.modified.formatted(.iso8601)),
            "columns": .integer(Int64(gallery.columns)), "images": .array(images),
        ])
    }
}
