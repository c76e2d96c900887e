import Foundation

/// Parses a manifest's JSON (RFC 8259) in one pass over the bytes: into a `JSONValue` tree, or
/// (for `Manifest.decode`) into the top level's and each image's members.
///
/// Foundation's `JSONDecoder` would need a `Decodable` that guesses each value's kind by trying
/// them in turn (a thrown error per wrong guess): about 5 errors an image, the largest part of
/// opening a big gallery. This parser knows the kind from the first byte. It is also where an
/// untrusted manifest's shape is bounded (spec §8.2): nesting depth, the number of values, and
/// the number of images, counted while the `images` array is read, not after.
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

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: Limits
    private let makeImage: ImageMaker?
    private var index = 0
    private var values = 0
    private var depth = 0
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
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
            let result = try body(&parser)
            parser.skipWhitespace()
            guard parser.index == parser.bytes.count else { throw parser.invalid("unexpected data after the JSON object") }
            // Spec §6.2: reported only now, so that a newer version wins wherever it appears.
            if parser.imagesOverLimit > 0 {
                let count = limits.maximumImages + parser.imagesOverLimit
                throw GalleryError(.limitExceeded, "manifest.json lists \(count) images; the limit is \(limits.maximumImages)")
            }
            return result
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, makeImage: ImageMaker?) {
        self.bytes = bytes
        self.limits = limits
        self.makeImage = makeImage
    }

    private func invalid(_ problem: String) -> GalleryError {
        GalleryError(.damagedDocument, "manifest.json is not valid JSON (\(problem) at byte \(index))")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The first byte of the next value, if any, without counting it.
    private mutating func nextByte() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Moves to the next value and counts it; returns its first byte.
    private mutating func startValue() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        values += 1
        guard values <= limits.maximumValues else {
            throw GalleryError(.limitExceeded, "manifest.json holds more than \(limits.maximumValues) JSON values")
        }
        return bytes[index]
    }

    private mutating func value(isTopLevel: Bool = false, isImages: Bool = false) throws -> JSONValue {
        switch try startValue() {
        case UInt8(ascii: "{"): return try object(isTopLevel: isTopLevel)
        case UInt8(ascii: "["): return try array(isImages: isImages)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw invalid("unexpected character")
        }
    }

    private mutating func nest() throws {
        depth += 1
        guard depth <= limits.maximumDepth else { throw invalid("nested more than \(limits.maximumDepth) levels deep") }
    }

    private mutating func object(isTopLevel: Bool) throws -> JSONValue {
        // Room for an image's 11 members without growing the table three times.
        var fields = [String: JSONValue](minimumCapacity: 12)
        guard try beginObject() else { return .object(fields) }
        repeat {
            let key = try memberName().text
            let member = try value(isImages: isTopLevel && key == "images")
            // Spec §6.2: a newer major version is reported as such, whatever else follows.
            if isTopLevel, key == "formatVersion", case .string(let version) = member {
                try Manifest.checkVersion(version)
            }
            if fields[key] == nil { fields[key] = member }  // duplicate members: the first wins
        } while try endOfMember()
        return .object(fields)
    }

    private mutating func array(isImages: Bool) throws -> JSONValue {
        var elements: [JSONValue] = []
        guard try beginArray() else { return .array(elements) }
        repeat {
            if isImages, elements.count == limits.maximumImages {
                try skipImageOverLimit()
            } else {
                elements.append(try value())
            }
        } while try endOfElement()
        return .array(elements)
    }

    /// Reads an image past the limit, to find `formatVersion` wherever it is, without keeping it.
    private mutating func skipImageOverLimit() throws {
        let kept = values
        _ = try value()
        values = kept
        imagesOverLimit += 1
    }

    // MARK: The manifest's own shape

    private mutating func manifestMembers() throws -> Members? {
        guard nextByte() == UInt8(ascii: "{") else {
            _ = try value()
            return nil
        }
        _ = try startValue()
        var manifest = Members(topLevel: ObjectMembers(), images: nil)
        guard try beginObject() else { return manifest }
        repeat {
            let name = try memberName()
            let position = name.position(in: TopLevelMember.spellings)
            if position == TopLevelMember.images.rawValue, nextByte() == UInt8(ascii: "[") {
                _ = try startValue()
                let images = try imageElements()
                if manifest.topLevel[.images] == nil {
                    manifest.topLevel.add(.array([]), at: TopLevelMember.images.rawValue)  // its elements are in `images`
                    manifest.images = images
                }
                continue
            }
            let member = try value(isImages: position == TopLevelMember.images.rawValue)
            if position == TopLevelMember.formatVersion.rawValue, case .string(let version) = member {
                try Manifest.checkVersion(version)
            }
            if let position { manifest.topLevel.add(member, at: position) } else { manifest.topLevel.add(member, unknownName: name.text) }
        } while try endOfMember()
        return manifest
    }

    /// The elements of the `images` array, its `[` counted as a value already, in pieces.
    private mutating func imageElements() throws -> [[Members.Image]] {
        if bytes.count - index >= limits.bytesWorthSplitting, let pieces = imageElementsInPieces() { return pieces }
        var images: [Members.Image] = []
        guard try beginArray() else { return [images] }
        repeat {
            if images.count == limits.maximumImages {
                try skipImageOverLimit()
            } else {
                images.append(try imageElement())
            }
        } while try endOfElement()
        return [images]
    }

    /// An element of the `images` array.
    private mutating func imageElement() throws -> Members.Image {
        guard nextByte() == UInt8(ascii: "{") else { return .other(try value()) }
        if makeImage != nil, let image = imageInWritersForm() { return .checked(image) }
        _ = try startValue()
        let members = try imageMembers()
        if let makeImage, let image = makeImage(members) { return .checked(image) }
        return .object(members)
    }

    private mutating func imageMembers() throws -> ObjectMembers<ImageMember> {
        var members = ObjectMembers<ImageMember>()
        guard try beginObject() else { return members }
        repeat {
            let name = try memberName()
            let member = try value()
            if let position = name.position(in: ImageMember.spellings) {
                members.add(member, at: position)
            } else {
                members.add(member, unknownName: name.text)
            }
        } while try endOfMember()
        return members
    }

    // MARK: Images in the form writers give them

    /// An image object in the form writers give it, made into an image as it is read: every
    /// member known and there once, `cached` null, `id` and `added` in their written form, numbers
    /// plain. Nil, with the parser back where it was, for any other object: the `ImageMaker`
    /// then reads it member by member, by the rules of `Manifest` that this follows.
    ///
    /// Reading members into `ObjectMembers` first (a value, and a string for every text, each
    /// checked again) took half of opening a big gallery; this reads each value once, where it
    /// is. Any value it does not take is left to the general reading, errors included.
    private mutating func imageInWritersForm() -> GalleryImage? {
        let start = (index, values, depth)
        if let image = try? readImageInWritersForm() { return image }
        (index, values, depth) = start
        return nil
    }

    private mutating func readImageInWritersForm() throws -> GalleryImage? {
        _ = try startValue()
        guard try beginObject() else { return nil }
        var seen: UInt16 = 0
        var id: UUID?, url: URL?, aspectRatio: Double?, status: GalleryImage.Status?, added: Date?
        var width: Int?, height: Int?, error: String?, thumbnail: String?, caption: String?
        repeat {
            guard let position = try memberName().position(in: ImageMember.spellings), seen & 1 << position == 0,
                let member = ImageMember(rawValue: position)
            else { return nil }
            seen |= 1 << position
            let first = try startValue()
            let isNull = first == UInt8(ascii: "n")
            if isNull { try literal("null") }
            switch member {
            case .id:
                guard first == UInt8(ascii: "\""), let text = try plainString() else { return nil }
                id = UUID(utf8: text)
            case .added:
                guard first == UInt8(ascii: "\""), let text = try plainString() else { return nil }
                added = RFC3339.dateInWrittenForm(text)
            case .url:
                guard first == UInt8(ascii: "\"") else { return nil }
                url = URL(string: try stringToken().text).flatMap { $0.scheme == nil ? nil : $0 }
            case .status:
                guard first == UInt8(ascii: "\""), let text = try plainString() else { return nil }
                status = text.elementsEqual("ok".utf8) ? .ok : text.elementsEqual("failed".utf8) ? .failed : nil
            case .aspectRatio:
                guard first == UInt8(ascii: "-") || Self.digitBytes.contains(first) else { return nil }
                switch try number() {
                case .integer(let value): aspectRatio = Double(value)
                case .number(let value): aspectRatio = value
                default: return nil
                }
                guard let ratio = aspectRatio, ratio.isFinite, ratio > 0 else { return nil }
            case .width, .height:
                guard !isNull else { continue }
                guard Self.digitBytes.contains(first), case .integer(let value) = try number(),
                    value > 0, let size = Int(exactly: value)
                else { return nil }
                if member == .width { width = size } else { height = size }
            case .error, .thumbnail, .caption:
                guard !isNull else { continue }
                guard first == UInt8(ascii: "\"") else { return nil }
                let text = try stringToken().text
                switch member {
                case .error: error = text
                case .thumbnail: thumbnail = text
                default: caption = text
                }
            case .cached:
                guard isNull else { return nil }
            }
        } while try endOfMember()
        guard let id, let url, let aspectRatio, let status, let added else { return nil }
        return GalleryImage(
            id: id, url: url, aspectRatio: aspectRatio, width: width, height: height, status: status,
            error: error, thumbnail: thumbnail, caption: caption, added: added
        )
    }

    /// The bytes of a string with no escapes, all ASCII (its opening quote next); nil otherwise.
    private mutating func plainString() throws -> UnsafeBufferPointer<UInt8>? {
        let token = try stringToken()
        return token.decoded == nil ? token.bytes : nil
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
        guard limits.pieces > 1, (try? opened.beginArray()) == true else { return nil }
        let first = opened.index
        let share = (bytes.count - first) / limits.pieces
        var starts = [first]
        for piece in 1..<limits.pieces {
            guard let start = Self.elementStart(near: first + piece * share, in: bytes) else { break }
            if start > starts[starts.count - 1] { starts.append(start) }
        }
        guard starts.count > 1 else { return nil }
        let pieceStarts = starts
        // Each piece may hold twice its share of the values and images left: all together, at
        // most twice what the serial reading holds before it stops at a limit.
        var perPiece = limits
        perPiece.maximumValues = 2 * max(0, limits.maximumValues - opened.values) / starts.count + 1
        let maximumImages = 2 * limits.maximumImages / starts.count + 1
        let pieces = ResultSlots<Piece>(count: starts.count)
        // Only read, and alive until `concurrentPerform` returns: the manifest's bytes.
        nonisolated(unsafe) let template = opened
        let pieceLimits = perPiece
        DispatchQueue.concurrentPerform(iterations: pieceStarts.count) { number in
            var parser = ManifestParser(bytes: template.bytes, limits: pieceLimits, makeImage: template.makeImage)
            parser.index = pieceStarts[number]
            parser.depth = template.depth
            let end = number + 1 < pieceStarts.count ? pieceStarts[number + 1] : nil
            pieces[number] = Result { try parser.piece(endingAt: end, maximumImages: maximumImages) }
        }
        guard let read = try? pieces.values() else { return nil }
        let values = read.reduce(opened.values) { $0 + $1.values }
        let count = read.reduce(0) { $0 + $1.images.count }
        guard values <= limits.maximumValues, count <= limits.maximumImages else { return nil }
        self.index = read[read.count - 1].end
        self.values = values
        return read.map(\.images)
    }

    /// Reads elements of the `images` array up to `end`, where the next piece starts (reached
    /// right after a `,`), or with `end` nil up to and including the closing `]`.
    private mutating func piece(endingAt end: Int?, maximumImages: Int) throws -> Piece {
        var piece = Piece()
        let start = index
        while true {
            guard piece.images.count < maximumImages else { throw GalleryError(.limitExceeded, "a piece holds too many images") }
            piece.images.append(try imageElement())
            if piece.images.count == 1 {
                piece.images.reserveCapacity(expectedCount(endingAt: end, firstElementBytes: index - start, maximumImages))
                HugePages.advise(capacityOf: &piece.images)
            }
            let isFollowed = try endOfElement()
            if let end {
                guard isFollowed else { throw invalid("the array ends before the next piece") }
                skipWhitespace()
                guard index < end else { break }
            } else if !isFollowed {
                break
            }
        }
        guard end == nil || index == end else { throw invalid("a piece runs past the next one") }
        piece.values = values
        piece.end = index
        return piece
    }

    /// Room for the elements of a big piece whose first element took `firstElementBytes` bytes,
    /// as if the others were as long, and a quarter more: growing the array step by step copied
    /// it several times and touched twice the memory. Only an estimate, at most `maximumImages`;
    /// a piece under 128 KiB, or a first element of under 32 bytes (no image has so few), grows
    /// as it goes.
    private func expectedCount(endingAt end: Int?, firstElementBytes: Int, _ maximumImages: Int) -> Int {
        let remaining = (end ?? bytes.count) - index
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

    // MARK: Objects and arrays, step by step

    /// Reads `{`; returns whether a member follows (not `}` at once).
    private mutating func beginObject() throws -> Bool {
        try begin(closing: UInt8(ascii: "}"))
    }

    /// Reads the opening bracket; returns whether an item follows (not `closing` at once).
    private mutating func begin(closing: UInt8) throws -> Bool {
        try nest()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Reads a member's name and the `:` after it.
    private mutating func memberName() throws -> StringToken {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
        let name = try stringToken()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("expected ':'") }
        index += 1
        return name
    }

    /// Reads what follows a member: `,` (returns true: another member) or `}`.
    private mutating func endOfMember() throws -> Bool {
        try endOfItem(closing: UInt8(ascii: "}"), "expected ',' or '}'")
    }

    /// Reads `[`; returns whether an element follows (not `]` at once).
    private mutating func beginArray() throws -> Bool {
        try begin(closing: UInt8(ascii: "]"))
    }

    /// Reads what follows an element: `,` (returns true: another element) or `]`.
    private mutating func endOfElement() throws -> Bool {
        try endOfItem(closing: UInt8(ascii: "]"), "expected ',' or ']'")
    }

    private mutating func endOfItem(closing: UInt8, _ problem: String) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == closing else { throw invalid(problem) }
        index += 1
        depth -= 1
        return false
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
        else { throw invalid("unexpected character") }
        index += count
    }

    /// A string as read: the bytes between its quotes when they are ASCII with no escapes (nearly
    /// always), else its text.
    private struct StringToken {
        let bytes: UnsafeBufferPointer<UInt8>
        let decoded: String?

        var text: String { decoded ?? String(decoding: bytes, as: UTF8.self) }

        func position(in spellings: MemberSpellings) -> Int? {
            if let decoded { return spellings.position(of: decoded) }
            return spellings.position(of: bytes)
        }
    }

    private mutating func string() throws -> String {
        try stringToken().text
    }

    private mutating func stringToken() throws -> StringToken {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes — the bytes between the quotes, checked as UTF-8 unless all ASCII.
        // Eight bytes at a time while none of them needs a look (most of a manifest's bytes are
        // in strings: URLs, ids, dates).
        while index + 8 <= bytes.count, !Self.needsALook(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
            index += 8
        }
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(start: bytes.baseAddress! + start, count: index - start)
                index += 1
                if isASCII { return StringToken(bytes: slice, decoded: nil) }
                guard let text = String(validating: slice, as: UTF8.self) else { throw invalid("a string is not valid UTF-8") }
                return StringToken(bytes: slice, decoded: text)
            }
            isASCII = isASCII && byte < 0x80
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw invalid("a control character in a string") }
            index += 1
        }
        var text = Array(bytes[start..<min(index, bytes.count)])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let result = String(validating: text, as: UTF8.self) else { throw invalid("a string is not valid UTF-8") }
                return StringToken(bytes: UnsafeBufferPointer(start: nil, count: 0), decoded: result)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw invalid("unexpected end") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"): text.append(contentsOf: try unicodeEscape())
                default: throw invalid("an unknown escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw invalid("a control character in a string") }
                text.append(byte)
                index += 1
            }
        }
        throw invalid("unexpected end")
    }

    /// The value of `digits.digits` (no exponent) when its digits without the point make an
    /// integer below 2^53 and there are at most 22 after it: then that integer and the power of
    /// ten are exact doubles and one division rounds correctly, as `strtod` does (Clinger's fast
    /// path). Nil for any other number. Aspect ratios are such numbers; `strtod` took 2% of
    /// opening a big gallery.
    private static func shortDecimal(_ text: Slice<UnsafeBufferPointer<UInt8>>, isNegative: Bool) -> Double? {
        var mantissa: UInt64 = 0
        var fractionDigits = -1
        for byte in text {
            if byte == UInt8(ascii: ".") {
                fractionDigits = 0
                continue
            }
            guard digitBytes.contains(byte) else { return nil }
            mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
            guard mantissa < 1 << 53 else { return nil }
            if fractionDigits >= 0 { fractionDigits += 1 }
        }
        guard (1...22).contains(fractionDigits) else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return isNegative ? -value : value
    }

    private static let digitBytes = UInt8(ascii: "0")...UInt8(ascii: "9")

    /// 10^0 to 10^22, every one an exact double.
    private static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

    /// Whether any of the eight bytes in `word` ends a string, starts an escape, is a control
    /// character or is not ASCII: `"`, `\`, below 0x20 or from 0x80 on (the usual SWAR tests).
    private static func needsALook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        return word & highBits != 0  // not ASCII
            || (word &- ones &* 0x20) & ~word & highBits != 0  // a byte below 0x20
            || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
            || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    }

    /// `\uXXXX` (after the `u`), with a surrogate pair read as one scalar; returns its UTF-8.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw invalid("an unpaired surrogate in a string")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw invalid("an unpaired surrogate in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw invalid("an unpaired surrogate in a string") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw invalid("unexpected end") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(of: bytes[index]) else { throw invalid("a bad \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// RFC 8259's number grammar; an integer that fits Int64 stays exact, anything else is a Double.
    private mutating func number() throws -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw invalid("a bad number") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw invalid("a number with a leading zero") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw invalid("a bad number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw invalid("a bad number") }
        }
        // Up to 18 digits always fit Int64: read here, without text (widths, heights, sizes).
        if isInteger, integerDigits <= 18 {
            var value: Int64 = 0
            for offset in integerStart..<integerStart + integerDigits { value = value * 10 + Int64(bytes[offset] &- UInt8(ascii: "0")) }
            return .integer(integerStart > start ? -value : value)
        }
        if let value = Self.shortDecimal(bytes[integerStart..<index], isNegative: integerStart > start) { return .number(value) }
        let text = String(decoding: UnsafeBufferPointer(start: bytes.baseAddress! + start, count: index - start), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw invalid("a number out of range") }
        return .number(double)
    }
}
