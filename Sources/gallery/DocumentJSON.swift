import Foundation
import GalleryKit

/// `open --json`: the document as a program sees it. Every key is always present (`null` when
/// empty) but `attribution`, which is there only when there is some: the document's, and each
/// image's own with the document's for what it leaves out. Keys sorted, pretty-printed.
enum DocumentJSON {
    /// Images encoded together by one worker at most: a round of blocks (four per worker, held
    /// until written) stays a few megabytes.
    private static let imagesPerBlock = 2048

    /// Prints the JSON text. The images — nearly all of it — are written straight from the gallery,
    /// their keys in sorted order by hand, a block of images per core, and go to standard output
    /// in order as each round of blocks is done: for 100,000 images (36 MB of text) encoding them
    /// one after another took a quarter of `open --json`.
    static func print(path: URL, gallery: Gallery) {
        var members: [String: JSONValue] = [
            "path": .string(path.pathForDisplay), "title": .string(gallery.title),
            "id": .string(gallery.id.lowercasedText),
            "created": .string(Output.timestamp(gallery.created)), "modified": .string(Output.timestamp(gallery.modified)),
            "columns": .integer(Int64(gallery.columns)), "images": .array([]),
        ]
        if let attribution = gallery.attribution, !attribution.isEmpty { members["attribution"] = attribution.json }
        let header = JSONValue.object(members)
        var output = Array(header.serialized(.pretty))
        let emptyImages = Array("\"images\" : []".utf8)
        guard !gallery.images.isEmpty, let split = output.firstRange(of: emptyImages) else {
            output.append(0x0A)
            Output.writeToStandardOutput(output)
            return
        }
        Output.writeToStandardOutput(output[..<split.lowerBound])
        Output.writeToStandardOutput("\"images\" : [".utf8)
        let images = gallery.images, defaults = gallery.attribution
        Output.writeInBlocks(of: images.count, maximumBlockSize: imagesPerBlock) { range, output in
            append(images[range], attributedOver: defaults, to: &output)
        }
        Output.writeToStandardOutput("\n  ]".utf8)
        output.removeSubrange(..<split.upperBound)
        output.append(0x0A)
        Output.writeToStandardOutput(output)
    }

    /// Appends images as elements of the `images` array, their slice's indices being their
    /// offsets in the gallery; each but the gallery's first is preceded by a comma. Bytes written directly
    /// in the fixed shape (a `JSONValue` per member took half of this time).
    static func append(_ images: ArraySlice<GalleryImage>, attributedOver defaults: Attribution?, to output: inout [UInt8]) {
        output.reserveCapacity(images.count * 400)
        func key(_ text: StaticString) { output.appendJSON(literal: text) }
        for offset in images.indices {
            key(offset == 0 ? "\n    {\n      \"aspectRatio\" : " : ",\n    {\n      \"aspectRatio\" : ")
            JSONValue.number(images[offset].aspectRatio).write(to: &output)
            if images[offset].attribution != nil || defaults != nil {
                let attribution = (images[offset].attribution ?? Attribution()).resolved(over: defaults)
                if !attribution.isEmpty {
                    key(",\n      \"attribution\" : ")
                    // Pretty at the image's depth: each line after the first indented by it.
                    for byte in attribution.json.serialized(.pretty) {
                        output.append(byte)
                        if byte == 0x0A { output.append(contentsOf: "      ".utf8) }
                    }
                }
            }
            key(images[offset].isCached ? ",\n      \"cached\" : true" : ",\n      \"cached\" : false")
            key(",\n      \"caption\" : ")
            output.appendJSON(images[offset].caption)
            key(",\n      \"error\" : ")
            output.appendJSON(images[offset].error)
            key(",\n      \"height\" : ")
            output.appendJSON(images[offset].height)
            key(",\n      \"id\" : \"")
            images[offset].id.appendLowercasedText(to: &output)
            key("\",\n      \"index\" : ")
            output.appendJSON(offset + 1)
            key(",\n      \"sha256\" : ")
            output.appendJSON(images[offset].cached?.sha256)
            key(",\n      \"status\" : ")
            output.appendJSON(images[offset].status.rawValue)
            key(",\n      \"url\" : ")
            output.appendJSON(images[offset].url.absoluteString)
            key(",\n      \"width\" : ")
            output.appendJSON(images[offset].width)
            key("\n    }")
        }
    }
}
