import Foundation

extension UUID {
    /// The UUID as manifests write it: 36 characters, lowercase hex (`8a7c4e0e-0d3b-…`).
    ///
    /// Foundation on Linux formats with `snprintf` and parses with `sscanf`, which cost more
    /// than the rest of reading an image's entry; a gallery of 100,000 images does each 100,000
    /// times. Neither direction allocates anything but the text itself.
    public var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            writeLowercasedText(to: UnsafeMutableBufferPointer(rebasing: buffer[0..<36]))
            return 36
        }
    }

    /// Appends `lowercasedText`'s 36 bytes to `output`, without making a string.
    package func appendLowercasedText(to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: 36))
        output.withUnsafeMutableBufferPointer { writeLowercasedText(to: UnsafeMutableBufferPointer(rebasing: $0[start..<start + 36])) }
    }

    private func writeLowercasedText(to buffer: UnsafeMutableBufferPointer<UInt8>) {
        withUnsafeBytes(of: uuid) { bytes in
            var index = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    buffer[index] = UInt8(ascii: "-")
                    index += 1
                }
                buffer[index] = HexDigit.lowercase(byte >> 4)
                buffer[index + 1] = HexDigit.lowercase(byte & 0xF)
                index += 2
            }
        }
    }

    /// Parses the 8-4-4-4-12 hex form, either case, as `init(uuidString:)` does.
    init?(text: String) {
        var text = text
        guard let uuid = text.withUTF8({ Self(utf8: $0) }) else { return nil }
        self = uuid
    }

    /// Parses the 8-4-4-4-12 hex form from its UTF-8 bytes, as `init(text:)` does.
    init?(utf8 characters: UnsafeBufferPointer<UInt8>) {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        guard withUnsafeMutableBytes(of: &uuid, { Self.parse(characters, into: $0) }) else { return nil }
        self.init(uuid: uuid)
    }

    private static func parse(_ characters: UnsafeBufferPointer<UInt8>, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
        guard characters.count == 36 else { return false }
        var index = 0
        for position in 0..<16 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard characters[index] == UInt8(ascii: "-") else { return false }
                index += 1
            }
            guard let high = HexDigit.value(of: characters[index]), let low = HexDigit.value(of: characters[index + 1]) else {
                return false
            }
            bytes[position] = high << 4 | low
            index += 2
        }
        return true
    }
}
