import Foundation

/// The IPTC-IIM datasets GalleryKit reads (By-line, Credit, Copyright Notice…), from the bytes
/// libvips gives as `iptc-data`: a JPEG's APP13 segment (Photoshop's image resources, the IIM in
/// resource 0x0404), or the IIM itself.
struct IPTCRecord {
    /// Datasets of record 2, the application record, by number.
    enum Dataset: UInt8 {
        case objectName = 5
        case byline = 80
        case credit = 110
        case copyrightNotice = 116
        case caption = 120
    }

    /// The first value of each dataset of record 2, as read.
    private var values: [UInt8: Data] = [:]
    /// Whether the record says its text is UTF-8 (dataset 1:90, `ESC % G`); otherwise text that
    /// is not valid UTF-8 is read as Latin-1, the usual older encoding.
    private var isUTF8 = false

    init(_ data: Data) {
        let bytes = [UInt8](data)
        let iim = Self.photoshopResource(0x0404, in: bytes) ?? (bytes.first == 0x1C ? bytes[...] : [])
        var offset = iim.startIndex
        // A dataset: 0x1C, record, number, a 16-bit big-endian length (an extended length, its
        // top bit set, is not used by these text datasets: reading stops there).
        while offset + 5 <= iim.endIndex, iim[offset] == 0x1C {
            let record = iim[offset + 1], number = iim[offset + 2]
            let length = Int(iim[offset + 3]) << 8 | Int(iim[offset + 4])
            guard length & 0x8000 == 0, offset + 5 + length <= iim.endIndex else { break }
            let value = Data(iim[(offset + 5)..<(offset + 5 + length)])
            if record == 1 && number == 90 { isUTF8 = value == Data([0x1B, 0x25, 0x47]) }
            if record == 2, values[number] == nil { values[number] = value }
            offset += 5 + length
        }
    }

    /// The text of a dataset, spaces trimmed; `nil` if absent or empty.
    subscript(dataset: Dataset) -> String? {
        guard let value = values[dataset.rawValue] else { return nil }
        let latin1 = { String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) })) }
        let text = String(validating: value, as: UTF8.self) ?? (isUTF8 ? nil : latin1())
        return text?.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).nilIfEmpty
    }

    /// The data of Photoshop image resource `id` in an APP13 segment ("Photoshop 3.0\0", then
    /// resources: "8BIM", a 16-bit id, a padded Pascal name, a 32-bit size, the padded data).
    private static func photoshopResource(_ id: UInt16, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 0
        let header = Array("Photoshop 3.0\0".utf8)
        if bytes.starts(with: header) { offset = header.count }
        while offset + 12 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("8BIM".utf8) {
            let resource = UInt16(bytes[offset + 4]) << 8 | UInt16(bytes[offset + 5])
            let nameLength = Int(bytes[offset + 6])
            // The name's length byte and the name, padded to an even count.
            var position = offset + 6 + (nameLength + 1 + 1) / 2 * 2
            guard position + 4 <= bytes.count else { return nil }
            let size = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            position += 4
            guard size >= 0, position + size <= bytes.count else { return nil }
            if resource == id { return bytes[position..<(position + size)] }
            offset = position + (size + 1) / 2 * 2
        }
        return nil
    }
}
