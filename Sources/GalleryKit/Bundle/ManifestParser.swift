import Foundation

/// Parses a manifest's JSON in one pass over the bytes (with `JSONReader`): into a `JSONValue`
/// tree, or (for `Manifest.decode`) into the top level's and each image's members.
///
/// This is where an untrusted manifest's shape is bounded (spec §8.2): nesting depth and the
/// number of values (the reader's), and the number of images, counted while the `images` array
/// is read, not after; and where a newer format version is found wherever it is (§6.2).
struct ManifestParser {
    struct Limits {
        var maximumImages: Int
        /// Values of any kind in the whole manifest, so that a manifest within the size limit
        /// cannot make millions of tiny values (`[0,0,0,…]`) and exhaust memory.
        var maximumValues: Int
        var maximumDepth = 64
        /// An `images` array with at least this many bytes after its `[` is read in `pieces`
        /// pieces on several threads (`imageElementsInPieces`). Not limits: any values give the
        /// same result or the same error.
        var bytesWorthSplitting = 1 << 19
        var pieces = 2 * ProcessorCount.active
    }

    /// Makes an image object's members into an image as soon as they are read, or returns nil
    /// when they are not a valid image (checked again, for its error, when the manifest is).
    typealias ImageMaker = @Sendable (ObjectMembers<ImageMember>) -> GalleryImage?

    private var reader: JSONReader
    private let limits: Limits
    private let makeImage: ImageMaker?
    /// Images beyond the limit are read (to find `formatVersion` wherever it is) but not kept.
    private var imagesOverLimit = 0

    /// Starts a worker thread for a manifest of `size` bytes that will be read in pieces, while
    /// it is still being inflated: the first pieces otherwise wait 1–2 ms for a second thread.
    static func prepareWorkers(forManifestOf size: Int64, limits: Limits) {
        guard size >= limits.bytesWorthSplitting, limits.pieces > 1 else { return }
        DispatchQueue.global().async {}
    }

    /// Parses `data`, which must hold exactly one JSON object (a UTF-8 byte-order mark is skipped).
    /// - Throws: `.damagedDocument` naming the byte offset of the first error; `.limitExceeded`
    ///   for too many images or values; `.unsupportedVersion` for a `formatVersion` of 2.0 or later
    ///   (checked as soon as it is read, before the image count).
    static func parse(_ data: Data, limits: Limits) throws -> JSONValue {
        try parse(data, limits: limits) { parser in try parser.value(isTopLevel: true) }
    }

    /// A manifest's top-level members and images as read, each object's members in fixed places.
    struct Members: Sendable {
        var topLevel: ObjectMembers<TopLevelMember>
        /// The elements of `images` when it is an array (the first `images` member, as any other),
        /// in the pieces they were read in: one, or one per worker for a big array, to be checked
        /// a piece per worker too.
        var images: [[Image]]?

        enum Image: Sendable {
            /// An object the `ImageMaker` made into an image.
            case checked(GalleryImage)
            /// Boxed: an image's members in place take half as much room again as the image,
            /// in every element of a big array.
            indirect case object(ObjectMembers<ImageMember>)
            /// Not an object: reported as such when the manifest is checked.
            case other(JSONValue)
        }
    }

    /// Parses `data` as `parse` does, with the same errors and limits, for `Manifest.decode`: the
    /// top level and each image as `ObjectMembers` instead of a dictionary, or made into an image
    /// by `makeImage` as soon as it is read (by the worker that read it, while its members are
    /// fresh; none of them stays in memory). `nil` if the JSON is valid but not an object.
    static func parseMembers(_ data: Data, limits: Limits, makingImagesWith makeImage: ImageMaker? = nil) throws -> Members? {
        try parse(data, limits: limits, makeImage: makeImage) { parser in try parser.manifestMembers() }
    }

    private static func parse<Result>(
        _ data: Data, limits: Limits, makeImage: ImageMaker? = nil, _ body: (inout ManifestParser) throws -> Result
    ) throws -> Result {
        try data.withUnsafeBytes { raw in
            var parser = ManifestParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits, makeImage: makeImage)
            let result = try body(&parser)
            try parser.reader.end("unexpected data after the JSON object")
            // Spec §6.2: reported only now, so that a newer version wins wherever it appears.
            if parser.imagesOverLimit > 0 {
                let count = limits.maximumImages + parser.imagesOverLimit
                throw GalleryError(.limitExceeded, "manifest.json lists \(count) images; the limit is \(limits.maximumImages)")
            }
            return result
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, makeImage: ImageMaker?) {
        reader = JSONReader(
            bytes: bytes, name: BundleLayout.manifestName, maximumValues: limits.maximumValues, maximumDepth: limits.maximumDepth)
        self.limits = limits
        self.makeImage = makeImage
    }

    /// A value; the top-level object's `images` array holds at most `maximumImages` (those past
    /// the limit are read and counted, not kept), and its `formatVersion` is checked at once.
    private mutating func value(isTopLevel: Bool = false) throws -> JSONValue {
        guard isTopLevel, reader.nextByte() == UInt8(ascii: "{") else { return try reader.value() }
        _ = try reader.startValue()
        var fields = [String: JSONValue](minimumCapacity: 12)
        guard try reader.beginObject() else { return .object(fields) }
        repeat {
            let key = try reader.memberName().text
            let member = try key == "images" && reader.nextByte() == UInt8(ascii: "[") ? images() : reader.value()
            // Spec §6.2: a newer major version is reported as such, whatever else follows.
            if key == "formatVersion", case .string(let version) = member {
                try Manifest.checkVersion(version)
            }
            if fields[key] == nil { fields[key] = member }  // duplicate members: the first wins
        } while try reader.endOfMember()
        return .object(fields)
    }

    /// The top-level `images` array as a tree, at most `maximumImages` of it kept.
    private mutating func images() throws -> JSONValue {
        _ = try reader.startValue()
        var elements: [JSONValue] = []
        guard try reader.beginArray() else { return .array(elements) }
        repeat {
            if elements.count == limits.maximumImages {
                try skipImageOverLimit()
            } else {
                elements.append(try reader.value())
            }
        } while try reader.endOfElement()
        return .array(elements)
    }

    /// Reads an image past the limit, to find `formatVersion` wherever it is, without keeping it.
    private mutating func skipImageOverLimit() throws {
        let kept = reader.values
        _ = try reader.value()
        reader.values = kept
        imagesOverLimit += 1
    }

    // MARK: The manifest's own shape

    private mutating func manifestMembers() throws -> Members? {
        guard reader.nextByte() == UInt8(ascii: "{") else {
            _ = try reader.value()
            return nil
        }
        _ = try reader.startValue()
        var manifest = Members(topLevel: ObjectMembers(), images: nil)
        guard try reader.beginObject() else { return manifest }
        repeat {
            let name = try reader.memberName()
            let position = name.position(in: TopLevelMember.spellings)
            if position == TopLevelMember.images.rawValue, reader.nextByte() == UInt8(ascii: "[") {
                _ = try reader.startValue()
                let images = try imageElements()
                if manifest.topLevel[.images] == nil {
                    manifest.topLevel.add(.array([]), at: TopLevelMember.images.rawValue)  // its elements are in `images`
                    manifest.images = images
                }
                continue
            }
            let member = try reader.value()
            if position == TopLevelMember.formatVersion.rawValue, case .string(let version) = member {
                try Manifest.checkVersion(version)
            }
            if let position { manifest.topLevel.add(member, at: position) } else { manifest.topLevel.add(member, unknownName: name.text) }
        } while try reader.endOfMember()
        return manifest
    }

    /// The elements of the `images` array, its `[` counted as a value already, in pieces.
    private mutating func imageElements() throws -> [[Members.Image]] {
        if reader.bytes.count - reader.index >= limits.bytesWorthSplitting, let pieces = imageElementsInPieces() { return pieces }
        var images: [Members.Image] = []
        guard try reader.beginArray() else { return [images] }
        repeat {
            if images.count == limits.maximumImages {
                try skipImageOverLimit()
            } else {
                images.append(try imageElement())
            }
        } while try reader.endOfElement()
        return [images]
    }

    /// An element of the `images` array.
    private mutating func imageElement() throws -> Members.Image {
        guard reader.nextByte() == UInt8(ascii: "{") else { return .other(try reader.value()) }
        if makeImage != nil, let image = imageInWritersForm() { return .checked(image) }
        _ = try reader.startValue()
        let members = try imageMembers()
        if let makeImage, let image = makeImage(members) { return .checked(image) }
        return .object(members)
    }

    private mutating func imageMembers() throws -> ObjectMembers<ImageMember> {
        var members = ObjectMembers<ImageMember>()
        guard try reader.beginObject() else { return members }
        repeat {
            let name = try reader.memberName()
            let member = try reader.value()
            if let position = name.position(in: ImageMember.spellings) {
                members.add(member, at: position)
            } else {
                members.add(member, unknownName: name.text)
            }
        } while try reader.endOfMember()
        return members
    }

    // MARK: Images in the form writers give them

    /// An image object in the form writers give it, made into an image as it is read: every
    /// member known and there once (`cached` too), `id` and `added` in their written form, numbers
    /// plain. Nil, with the parser back where it was, for any other object: the `ImageMaker`
    /// then reads it member by member, by the rules of `Manifest` that this follows.
    ///
    /// Reading members into `ObjectMembers` first (a value, and a string for every text, each
    /// checked again) took half of opening a big gallery; this reads each value once, where it
    /// is. Any value it does not take is left to the general reading, errors included.
    private mutating func imageInWritersForm() -> GalleryImage? {
        let start = reader
        if let image = try? readImageInWritersForm() { return image }
        reader = start
        return nil
    }

    private mutating func readImageInWritersForm() throws -> GalleryImage? {
        _ = try reader.startValue()
        guard try reader.beginObject() else { return nil }
        var seen: UInt16 = 0
        var id: UUID?, url: URL?, aspectRatio: Double?, status: GalleryImage.Status?, added: Date?
        var width: Int?, height: Int?, error: String?, cached: CachedImage?, thumbnail: String?, caption: String?
        repeat {
            guard let member = try memberInWritersForm(ImageMember.self, seen: &seen) else { return nil }
            let first = try reader.startValue()
            let isNull = first == UInt8(ascii: "n")
            if isNull { try reader.literal("null") }
            switch member {
            case .id:
                guard first == UInt8(ascii: "\""), let text = try reader.plainString() else { return nil }
                id = UUID(utf8: text)
            case .added:
                guard first == UInt8(ascii: "\""), let text = try reader.plainString() else { return nil }
                added = RFC3339.dateInWrittenForm(text)
            case .url:
                guard let text = try text(startingWith: first) else { return nil }
                url = ImageRules.url(text)
            case .status:
                guard first == UInt8(ascii: "\""), let text = try reader.plainString() else { return nil }
                status = ImageRules.status(utf8: text)
            case .aspectRatio:
                guard first == UInt8(ascii: "-") || JSONReader.digitBytes.contains(first) else { return nil }
                switch try reader.number() {
                case .integer(let value): aspectRatio = Double(value)
                case .number(let value): aspectRatio = value
                default: return nil
                }
                guard let ratio = aspectRatio, ImageRules.isAspectRatio(ratio) else { return nil }
            case .width, .height:
                guard !isNull else { continue }
                guard JSONReader.digitBytes.contains(first), case .integer(let value) = try reader.number(),
                    let size = ImageRules.size(value)
                else { return nil }
                if member == .width { width = size } else { height = size }
            case .error, .thumbnail, .caption:
                guard !isNull else { continue }
                guard let text = try text(startingWith: first) else { return nil }
                switch member {
                case .error: error = text
                case .thumbnail: thumbnail = text
                default: caption = text
                }
            case .attribution:
                // Rare; read member by member by the general rules.
                guard isNull else { return nil }
            case .cached:
                guard !isNull else { continue }
                guard first == UInt8(ascii: "{"), let record = try readCachedImageInWritersForm() else { return nil }
                cached = record
            }
        } while try reader.endOfMember()
        guard let id, let url, let aspectRatio, let status, let added else { return nil }
        return GalleryImage(
            id: id, url: url, aspectRatio: aspectRatio, width: width, height: height, status: status,
            error: error, cached: cached, thumbnail: thumbnail, caption: caption, added: added
        )
    }

    /// The next member's name as writers give it: a known one, not `seen` before (it is marked
    /// seen now); nil for any other.
    private mutating func memberInWritersForm<Name: MemberName>(_: Name.Type, seen: inout UInt16) throws -> Name? {
        guard let position = try reader.memberName().position(in: Name.spellings), seen & 1 << position == 0 else { return nil }
        seen |= 1 << position
        return Name(rawValue: position)
    }

    /// The text of a string whose first byte, `first`, is read already; nil if it is not a string.
    private mutating func text(startingWith first: UInt8) throws -> String? {
        guard first == UInt8(ascii: "\"") else { return nil }
        return try reader.stringToken().text
    }

    /// An image's `cached` record in the form writers give it (its `{` next, counted already):
    /// its four members, each there once and valid, and no other. Nil for any other record.
    private mutating func readCachedImageInWritersForm() throws -> CachedImage? {
        guard try reader.beginObject() else { return nil }
        var seen: UInt16 = 0
        var path: String?, sha256: String?, bytes: Int64?, mediaType: String?
        repeat {
            guard let member = try memberInWritersForm(CachedImageMember.self, seen: &seen) else { return nil }
            let first = try reader.startValue()
            if member == .bytes {
                guard JSONReader.digitBytes.contains(first), case .integer(let value) = try reader.number(), value >= 0 else { return nil }
                bytes = value
                continue
            }
            guard let text = try text(startingWith: first) else { return nil }
            switch member {
            case .path: path = text
            case .sha256: sha256 = text
            default: mediaType = text
            }
        } while try reader.endOfMember()
        guard let path, let sha256, let bytes, let mediaType, ImageRules.isSHA256(utf8: sha256.utf8), ImageRules.isCachedPath(path)
        else { return nil }
        return CachedImage(path: path, sha256: sha256, bytes: bytes, mediaType: mediaType)
    }

    // MARK: Big image arrays, in pieces

    /// Elements of the `images` array read by one worker, and where it stopped.
    private struct Piece: Sendable {
        var images: [Members.Image] = []
        var values = 0
        var end = 0
    }

    /// Reads a big `images` array (its `[` next, counted already) in pieces on several threads:
    /// tokenizing it was the largest part of opening a big gallery that ran on one core only.
    ///
    /// A piece after the first starts at a `{` that follows `},` near an even share of the bytes,
    /// a guess; it is kept only if the piece before it parsed and ended exactly there, after a
    /// `,` of the array. The first piece starts where the serial reading does, so by induction
    /// every kept piece starts at an element, and the pieces together are what the serial reading
    /// gives. If a guess was wrong (a `},{` inside a string or a nested array), a piece failed,
    /// or the pieces together pass a limit, this returns nil with the parser unmoved, and the
    /// serial reading then gives its result or its exact error.
    private mutating func imageElementsInPieces() -> [[Members.Image]]? {
        var opened = self
        guard limits.pieces > 1, (try? opened.reader.beginArray()) == true else { return nil }
        let first = opened.reader.index
        let share = (reader.bytes.count - first) / limits.pieces
        var starts = [first]
        for piece in 1..<limits.pieces {
            guard let start = Self.elementStart(near: first + piece * share, in: reader.bytes) else { break }
            if start > starts[starts.count - 1] { starts.append(start) }
        }
        guard starts.count > 1 else { return nil }
        let pieceStarts = starts
        // Each piece may hold twice its share of the values and images left: all together, at
        // most twice what the serial reading holds before it stops at a limit.
        var perPiece = limits
        perPiece.maximumValues = 2 * max(0, limits.maximumValues - opened.reader.values) / starts.count + 1
        let maximumImages = 2 * limits.maximumImages / starts.count + 1
        let pieces = ResultSlots<Piece>(count: starts.count)
        // Only read, and alive until `concurrentPerform` returns: the manifest's bytes.
        nonisolated(unsafe) let template = opened
        let pieceLimits = perPiece
        DispatchQueue.concurrentPerform(iterations: pieceStarts.count) { number in
            var parser = ManifestParser(bytes: template.reader.bytes, limits: pieceLimits, makeImage: template.makeImage)
            parser.reader.index = pieceStarts[number]
            parser.reader.depth = template.reader.depth
            let end = number + 1 < pieceStarts.count ? pieceStarts[number + 1] : nil
            pieces[number] = Result { try parser.piece(endingAt: end, maximumImages: maximumImages) }
        }
        guard let read = try? pieces.values() else { return nil }
        let values = read.reduce(opened.reader.values) { $0 + $1.values }
        let count = read.reduce(0) { $0 + $1.images.count }
        guard values <= limits.maximumValues, count <= limits.maximumImages else { return nil }
        reader.index = read[read.count - 1].end
        reader.values = values
        return read.map(\.images)
    }

    /// Reads elements of the `images` array up to `end`, where the next piece starts (reached
    /// right after a `,`), or with `end` nil up to and including the closing `]`.
    private mutating func piece(endingAt end: Int?, maximumImages: Int) throws -> Piece {
        var piece = Piece()
        let start = reader.index
        while true {
            guard piece.images.count < maximumImages else { throw GalleryError(.limitExceeded, "a piece holds too many images") }
            piece.images.append(try imageElement())
            if piece.images.count == 1 {
                piece.images.reserveCapacity(expectedCount(endingAt: end, firstElementBytes: reader.index - start, maximumImages))
                HugePages.advise(capacityOf: &piece.images)
            }
            let isFollowed = try reader.endOfElement()
            if let end {
                guard isFollowed else { throw reader.invalid("the array ends before the next piece") }
                reader.skipWhitespace()
                guard reader.index < end else { break }
            } else if !isFollowed {
                break
            }
        }
        guard end == nil || reader.index == end else { throw reader.invalid("a piece runs past the next one") }
        piece.values = reader.values
        piece.end = reader.index
        return piece
    }

    /// Room for the elements of a big piece whose first element took `firstElementBytes` bytes,
    /// as if the others were as long, and a quarter more: growing the array step by step copied
    /// it several times and touched twice the memory. Only an estimate, at most `maximumImages`;
    /// a piece under 128 KiB, or a first element of under 32 bytes (no image has so few), grows
    /// as it goes.
    private func expectedCount(endingAt end: Int?, firstElementBytes: Int, _ maximumImages: Int) -> Int {
        let remaining = (end ?? reader.bytes.count) - reader.index
        guard remaining >= 1 << 17, firstElementBytes >= 32 else { return 0 }
        return min(maximumImages, 1 + remaining / firstElementBytes * 5 / 4)
    }

    /// The offset of the first `{` at or after `offset` that follows `}` and `,` (with JSON
    /// whitespace around them): likely, not surely, the start of an element of the array.
    private static func elementStart(near offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = offset
        while index < bytes.count {
            guard let found = memchr(bytes.baseAddress! + index, Int32(UInt8(ascii: "}")), bytes.count - index) else { return nil }
            index = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            var next = index
            func skipWhitespace() {
                while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x0D || bytes[next] == 0x09 {
                    next += 1
                }
            }
            skipWhitespace()
            guard next < bytes.count, bytes[next] == UInt8(ascii: ",") else { continue }
            next += 1
            skipWhitespace()
            if next < bytes.count, bytes[next] == UInt8(ascii: "{") { return next }
        }
        return nil
    }
}

extension JSONReader.StringToken {
    /// The member's place in `spellings`, from the bytes when they need no decoding.
    func position(in spellings: MemberSpellings) -> Int? {
        if let decoded { return spellings.position(of: decoded) }
        return spellings.position(of: bytes)
    }
}
