/// The escapes paths are written with, decoded: `%FF` in URLs and `.trashinfo` files, `\377` in
/// `/proc/self/mounts`.
enum EscapedBytes {
    /// `encoded` with each `escape` followed by `digits` digits of `radix` replaced by the byte
    /// they give; an escape that is cut short, has other characters or gives more than 255 is
    /// kept as it is.
    /// - Complexity: O(`encoded.count`).
    static func decoded(_ encoded: [UInt8], escape: UInt8, digits: Int, radix: UInt8) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = 0
        while index < encoded.count {
            if encoded[index] == escape, index + digits < encoded.count,
                let byte = value(of: encoded[(index + 1)...(index + digits)], radix: radix)
            {
                bytes.append(byte)
                index += digits + 1
            } else {
                bytes.append(encoded[index])
                index += 1
            }
        }
        return bytes
    }

    /// The byte `digits` write in `radix` (at most 16); `nil` if one is not a digit of it or
    /// the value passes 255.
    private static func value(of digits: ArraySlice<UInt8>, radix: UInt8) -> UInt8? {
        var value = 0
        for character in digits {
            guard let digit = HexDigit.value(of: character), digit < radix else { return nil }
            value = value * Int(radix) + Int(digit)
        }
        return value <= 255 ? UInt8(value) : nil
    }
}
