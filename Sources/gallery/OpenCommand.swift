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
            try Output.json(DocumentJSON(path: document.url, gallery: gallery))
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
                "\(offset + 1)", size, String(format: "%.3f", image.aspectRatio), status,
                image.isCached ? "yes" : "no", image.caption ?? "", image.url.isFileURL ? image.url.pathForDisplay : image.url.absoluteString,
            ])
        }
        Output.table(rows, rightAligned: [0, 2])
    }
}

/// `open --json`: the document as a program sees it.
struct DocumentJSON: Encodable {
    struct Image: Encodable {
        var index: Int
        var id: String
        var url: String
        var aspectRatio: Double
        var width: Int?
        var height: Int?
        var status: String
        var error: String?
        var cached: Bool
        var sha256: String?
        var caption: String?

        func encode(to encoder: any Encoder) throws {
            // Write nulls explicitly: every key is always present.
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(id, forKey: .id)
            try container.encode(url, forKey: .url)
            try container.encode(aspectRatio, forKey: .aspectRatio)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(status, forKey: .status)
            try container.encode(error, forKey: .error)
            try container.encode(cached, forKey: .cached)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(caption, forKey: .caption)
        }

        enum CodingKeys: String, CodingKey {
            case index, id, url, aspectRatio, width, height, status, error, cached, sha256, caption
        }
    }

    var path: String
    var title: String
    var id: String
    var created: Date
    var modified: Date
    var columns: Int
    var images: [Image]

    init(path: URL, gallery: Gallery) {
        self.path = path.pathForDisplay
        title = gallery.title
        id = gallery.id.uuidString.lowercased()
        created = gallery.created
        modified = gallery.modified
        columns = gallery.columns
        images = gallery.images.enumerated().map { offset, image in
            Image(
                index: offset + 1, id: image.id.uuidString.lowercased(), url: image.url.absoluteString,
                aspectRatio: image.aspectRatio, width: image.width, height: image.height,
                status: image.status.rawValue, error: image.error, cached: image.isCached,
                sha256: image.cached?.sha256, caption: image.caption
            )
        }
    }
}
