import Foundation

/// Reads JSON (RFC 8259) in one pass over its bytes, bounding what an untrusted text can make:
/// the number of values and the nesting depth, counted as it reads.
///
/// Foundation's `JSONDecoder` would need a `Decodable` that guesses each value's kind by trying
/// them in turn (a thrown error per wrong guess); this knows the kind from the first byte. The
/// manifest's reader (`ManifestParser`) reads its own shape with these steps; other small files
/// (the recent documents list) are read whole with `value(of:named:maximumValues:maximumDepth:)`.
struct JSONReader {
    /// The text's name in errors, e.g. `manifest.json`.
    let name: String
    let bytes: UnsafeBufferPointer<UInt8>
    /// The most values of any kind, so that a text within its size limit cannot make millions of
    /// tiny values (`[0,0,0,…]`) and exhaust memory.
    let maximumValues: Int
    let maximumDepth: Int
    /// Where the next byte is read.
    var index = 0
    /// Values read so far.
    var values = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, name: String, maximumValues: Int, maximumDepth: Int) {
        self.bytes = bytes
        self.name = name
        self.maximumValues = maximumValues
        self.maximumDepth = maximumDepth
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte-order mark
    }

    /// The one JSON value `data` holds (nothing but whitespace may follow it).
    /// - Throws: `.damagedDocument` naming `name` and the byte offset of the first error;
    ///   `.limitExceeded` for too many values.
    static func value(of data: Data, named name: String, maximumValues: Int, maximumDepth: Int = 64) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var reader = JSONReader(
                bytes: raw.bindMemory(to: UInt8.self), name: name, maximumValues: maximumValues, maximumDepth: maximumDepth)
            let value = try reader.value()
            try reader.end()
            return value
        }
    }

    /// Checks that nothing but whitespace follows; else `problem` is the error.
    mutating func end(_ problem: String = "unexpected data after the JSON value") throws {
        skipWhitespace()
        guard index == bytes.count else { throw invalid(problem) }
    }

    /// The next value, whatever it is.
    mutating func value() throws -> JSONValue {
        switch try startValue() {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw invalid("unexpected character")
        }
    }

    /// An object, its `{` counted already; a member given twice keeps its first value.
    mutating func object() throws -> JSONValue {
        // Room for an image's 11 members without growing the table three times.
        var fields = [String: JSONValue](minimumCapacity: 12)
        guard try beginObject() else { return .object(fields) }
        repeat {
            let key = try memberName().text
            let member = try value()
            if fields[key] == nil { fields[key] = member }
        } while try endOfMember()
        return .object(fields)
    }

    /// An array, its `[` counted already.
    mutating func array() throws -> JSONValue {
        var elements: [JSONValue] = []
        guard try beginArray() else { return .array(elements) }
        repeat {
            elements.append(try value())
        } while try endOfElement()
        return .array(elements)
    }

    func invalid(_ problem: String) -> GalleryError {
        GalleryError(.damagedDocument, "\(name) is not valid JSON (\(problem) at byte \(index))")
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The first byte of the next value, if any, without counting it.
    @inline(__always)
    mutating func nextByte() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Moves to the next value and counts it; returns its first byte.
    @inline(__always)
    mutating func startValue() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw invalid("unexpected end") }
        values += 1
        guard values <= maximumValues else {
            throw GalleryError(.limitExceeded, "\(name) holds more than \(maximumValues) JSON values")
        }
        return bytes[index]
    }

    @inline(__always)
    mutating func nest() throws {
        depth += 1
        guard depth <= maximumDepth else { throw invalid("nested more than \(maximumDepth) levels deep") }
    }

    /// The bytes of a string with no escapes, all ASCII (its opening quote next); nil otherwise.
    @inline(__always)
    mutating func plainString() throws -> UnsafeBufferPointer<UInt8>? {
        let token = try stringToken()
        return token.decoded == nil ? token.bytes : nil
    }

    // MARK: Objects and arrays, step by step

    /// Reads `{`; returns whether a member follows (not `}` at once).
    @inline(__always)
    mutating func beginObject() throws -> Bool {
        try begin(closing: UInt8(ascii: "}"))
    }

    /// Reads the opening bracket; returns whether an item follows (not `closing` at once).
    @inline(__always)
    mutating func begin(closing: UInt8) throws -> Bool {
        try nest()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Reads a member's name and the `:` after it.
    @inline(__always)
    mutating func memberName() throws -> StringToken {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
        let name = try stringToken()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw invalid("expected ':'") }
        index += 1
        return name
    }

    /// Reads what follows a member: `,` (returns true: another member) or `}`.
    @inline(__always)
    mutating func endOfMember() throws -> Bool {
        try endOfItem(closing: UInt8(ascii: "}"), "expected ',' or '}'")
    }

    /// Reads `[`; returns whether an element follows (not `]` at once).
    @inline(__always)
    mutating func beginArray() throws -> Bool {
        try begin(closing: UInt8(ascii: "]"))
    }

    /// Reads what follows an element: `,` (returns true: another element) or `]`.
    @inline(__always)
    mutating func endOfElement() throws -> Bool {
        try endOfItem(closing: UInt8(ascii: "]"), "expected ',' or ']'")
    }

    @inline(__always)
    mutating func endOfItem(closing: UInt8, _ problem: String) throws -> Bool {
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

    @inline(__always)
    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
        else { throw invalid("unexpected character") }
        index += count
    }

    /// A string as read: the bytes between its quotes when they are ASCII with no escapes (nearly
    /// always), else its text.
    struct StringToken {
        let bytes: UnsafeBufferPointer<UInt8>
        let decoded: String?

        var text: String { decoded ?? String(decoding: bytes, as: UTF8.self) }
    }

    mutating func string() throws -> String {
        try stringToken().text
    }

    mutating func stringToken() throws -> StringToken {
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

    static let digitBytes = UInt8(ascii: "0")...UInt8(ascii: "9")

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
    mutating func unicodeEscape() throws -> [UInt8] {
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

    mutating func hexQuad() throws -> UInt32 {
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
    mutating func number() throws -> JSONValue {
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
