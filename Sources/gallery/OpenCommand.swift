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
        RecentDocuments().record(document.url, .opened)
        if output.json {
            DocumentJSON.print(path: document.url, gallery: gallery)
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
    /// Prints the JSON text. The images — nearly all of it — are written straight from the gallery,
    /// their keys in sorted order by hand, into a buffer that goes to standard output every 64 KiB:
    /// for 10,000 images, a tree of dictionaries took longer than reading the document, and the
    /// whole text as one string was copied and checked as UTF-8 twice more.
    static func print(path: URL, gallery: Gallery) {
        let header: JSONValue = .object([
            "path": .string(path.pathForDisplay), "title": .string(gallery.title),
            "id": .string(gallery.id.lowercasedText),
            "created": .string(Output.timestamp(gallery.created)), "modified": .string(Output.timestamp(gallery.modified)),
            "columns": .integer(Int64(gallery.columns)), "images": .array([]),
        ])
        var output = Array(header.serialized(.pretty))
        let emptyImages = Array("\"images\" : []".utf8)
        guard !gallery.images.isEmpty, let split = output.firstRange(of: emptyImages) else {
            output.append(0x0A)
            write(&output)
            return
        }
        let rest = Array(output[split.upperBound...])
        output.removeSubrange(split.lowerBound...)
        output.reserveCapacity(1 << 17)
        output.append(contentsOf: "\"images\" : [".utf8)
        for (offset, image) in gallery.images.enumerated() {
            func member(_ key: StaticString, _ value: JSONValue, last: Bool = false) {
                output.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
                value.write(to: &output)
                output.append(contentsOf: last ? [0x0A] : [UInt8(ascii: ","), 0x0A])
            }
            output.append(contentsOf: (offset == 0 ? "\n    {\n" : ",\n    {\n").utf8)
            member("      \"aspectRatio\" : ", .number(image.aspectRatio))
            member("      \"cached\" : ", .bool(image.isCached))
            member("      \"caption\" : ", image.caption.map(JSONValue.string) ?? .null)
            member("      \"error\" : ", image.error.map(JSONValue.string) ?? .null)
            member("      \"height\" : ", image.height.map { .integer(Int64($0)) } ?? .null)
            member("      \"id\" : ", .string(image.id.lowercasedText))
            member("      \"index\" : ", .integer(Int64(offset + 1)))
            member("      \"sha256\" : ", image.cached.map { .string($0.sha256) } ?? .null)
            member("      \"status\" : ", .string(image.status.rawValue))
            member("      \"url\" : ", .string(image.url.absoluteString))
            member("      \"width\" : ", image.width.map { .integer(Int64($0)) } ?? .null, last: true)
            output.append(contentsOf: "    }".utf8)
            if output.count >= 1 << 16 { write(&output) }
        }
        output.append(contentsOf: "\n  ]".utf8)
        output.append(contentsOf: rest)
        output.append(0x0A)
        write(&output)
    }

    /// Writes `output` to standard output and empties it. Straight to the descriptor: nothing
    /// else is printed, before or after.
    private static func write(_ output: inout [UInt8]) {
        output.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                guard written >= 0 || errno == EINTR else { return }  // a closed pipe: nobody reads on
                offset += max(written, 0)
            }
        }
        output.removeAll(keepingCapacity: true)
    }
}
