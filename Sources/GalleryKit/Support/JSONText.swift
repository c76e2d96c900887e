/// JSON text written straight into a byte buffer: the one writer of JSON's tokens in the package.
///
/// `JSONValue.serialized(_:)` writes a tree of values with it; the server's gallery state and the
/// command line's listings (`open --json`, `browse --json`) write their fixed shapes with it,
/// keys and punctuation as literal text between the values, because `JSONEncoder` took seconds
/// for a gallery of 100,000 images (every value through the `Encodable` machinery).
extension [UInt8] {
    /// Appends text as it is: punctuation, keys, indentation, `null`.
    package mutating func appendJSON(literal text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `,"name":` (no comma for the `first` member of an object), compact.
    package mutating func appendJSONMember(_ name: StaticString, first: Bool = false) {
        if !first { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        appendJSON(literal: name)
        append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Appends `true` or `false`.
    package mutating func appendJSON(_ value: Bool) {
        value ? appendJSON(literal: "true") : appendJSON(literal: "false")
    }

    /// Appends an integer, or `null`: its digits written from the last into a buffer, not a
    /// string made first.
    package mutating func appendJSON(_ number: Int?) {
        guard let number else { return appendJSON(literal: "null") }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = buffer.count
            var rest = number.magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if number < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            append(contentsOf: buffer[start...])
        }
    }

    /// Appends `value` rounded to `places` decimals (at most 6), without trailing zeros (`12`,
    /// `12.5`, `12.25`); `0` for a value that is not finite, which JSON cannot hold.
    package mutating func appendJSON(_ value: Double, places: Int) {
        guard value.isFinite else { return appendJSON(literal: "0") }
        var unit: UInt64 = 1
        for _ in 0..<places { unit *= 10 }
        let scaled = Int64((value * Double(unit)).rounded())
        if scaled < 0 { append(UInt8(ascii: "-")) }
        let magnitude = scaled.magnitude
        appendJSON(Int(magnitude / unit))
        var fraction = magnitude % unit
        guard fraction != 0 else { return }
        append(UInt8(ascii: "."))
        while fraction != 0 {
            unit /= 10
            append(UInt8(ascii: "0") + UInt8(fraction / unit))
            fraction %= unit
        }
    }

    /// Appends a string, escaped (`/` is not; non-ASCII is written as UTF-8), or `null`.
    package mutating func appendJSON(_ string: String?) {
        guard let string else { return appendJSON(literal: "null") }
        append(UInt8(ascii: "\""))
        // Nearly every string needs no escape: checked on its contiguous bytes and copied whole.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            append(contentsOf: bytes)
            append(UInt8(ascii: "\""))
            return true
        }
        if copied == true { return }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), HexDigit.lowercase(byte >> 4),
                    HexDigit.lowercase(byte & 0xF),
                ])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
