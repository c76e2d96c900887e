import Foundation
import GalleryKit

/// `open --json`: the document as a program sees it. Every key is always present (`null` when
/// empty); keys sorted, pretty-printed.
enum DocumentJSON {
    /// Images encoded together by one worker at most: a round of blocks (four per worker, held
    /// until written) stays a few megabytes.
    private static let imagesPerBlock = 2048

    /// Prints the JSON text. The images — nearly all of it — are written straight from the gallery,
    /// their keys in sorted order by hand, a block of images per core, and go to standard output
    /// in order as each round of blocks is done: for 100,000 images (36 MB of text) encoding them
    /// one after another took a quarter of `open --json`.
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
            write(output)
            return
        }
        write(output[..<split.lowerBound])
        write("\"images\" : [".utf8)
        let images = gallery.images
        // Four blocks a worker, so that they end together also when a gallery fills few blocks.
        let blocksPerRound = max(1, ProcessInfo.processInfo.activeProcessorCount) * 4
        let blockSize = max(64, min(imagesPerBlock, (images.count + blocksPerRound - 1) / blocksPerRound))
        let blocks = (images.count + blockSize - 1) / blockSize
        for round in stride(from: 0, to: blocks, by: blocksPerRound) {
            let count = min(blocksPerRound, blocks - round)
            let texts = ResultSlots<[UInt8]>(count: count)
            DispatchQueue.concurrentPerform(iterations: count) { block in
                let start = (round + block) * blockSize
                texts[block] = .success(text(of: images[start..<min(start + blockSize, images.count)]))
            }
            for text in texts.results() { write((try? text.get()) ?? []) }
        }
        write("\n  ]".utf8)
        output.removeSubrange(..<split.upperBound)
        output.append(0x0A)
        write(output)
    }

    /// Images as elements of the `images` array, their slice's indices being their offsets in
    /// the gallery; each but the gallery's first is preceded by a comma.
    static func text(of images: ArraySlice<GalleryImage>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(images.count * 400)
        for offset in images.indices {
            let image = images[offset]
            func member(_ key: StaticString, _ value: JSONValue, last: Bool = false) {
                output.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
                value.write(to: &output)
                if !last { output.append(UInt8(ascii: ",")) }
                output.append(0x0A)
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
        }
        return output
    }

    /// Writes `bytes` to standard output. Straight to the descriptor: nothing else is printed,
    /// before or after.
    private static func write(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ write($0) }) == nil { write(Array(bytes)) }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            guard written >= 0 || errno == EINTR else { return }  // a closed pipe: nobody reads on
            offset += max(written, 0)
        }
    }
}
