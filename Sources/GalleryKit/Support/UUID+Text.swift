import Foundation

extension UUID {
    /// The UUID as manifests write it: 36 characters, lowercase hex (`8a7c4e0e-0d3b-…`).
    ///
    /// Foundation on Linux formats with `snprintf` and parses with `sscanf`, which cost more
    /// than the rest of reading an image's entry; a gallery of 100,000 images does each 100,000
    /// times.
    public var lowercasedText: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var index = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = digits[Int(byte >> 4)]
                    buffer[index + 1] = digits[Int(byte & 0xF)]
                    index += 2
                }
                return index
            }
        }
    }

    /// Parses the 8-4-4-4-12 hex form, either case, as `init(uuidString:)` does.
    init?(text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { characters -> uuid_t? in
            guard characters.count == 36 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            var position = 0
            for (offset, character) in characters.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard character == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
                default: return nil
                }
                bytes[position / 2] |= position % 2 == 0 ? value << 4 : value
                position += 1
            }
            return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }
}
