import Foundation

/// EXIF metadata written into test JPEGs, as cameras write it, and looked for in outputs.
public enum EXIF {
    /// `jpeg` with an APP1 Exif segment right after its start: an orientation and a GPS location
    /// (a latitude, north, in degrees, minutes, seconds), as a phone's camera writes them.
    public static func adding(orientation: UInt16, latitude: [UInt32], to jpeg: Data) -> Data {
        precondition(jpeg.prefix(2) == Data([0xFF, 0xD8]) && latitude.count == 3)
        var tiff = Data("MM".utf8) + bigEndian(UInt16(42)) + bigEndian(UInt32(8))
        // IFD0 at 8: Orientation, and the GPS IFD's offset (8 + 2 + 2 × 12 + 4 = 38).
        tiff += bigEndian(UInt16(2))
        tiff += entry(tag: 0x0112, type: 3, count: 1, value: bigEndian(orientation) + Data([0, 0]))
        tiff += entry(tag: 0x8825, type: 4, count: 1, value: bigEndian(UInt32(38)))
        tiff += bigEndian(UInt32(0))
        // The GPS IFD at 38: GPSLatitudeRef "N", GPSLatitude (three rationals at 38 + 30 = 68).
        tiff += bigEndian(UInt16(2))
        tiff += entry(tag: 0x0001, type: 2, count: 2, value: Data("N".utf8) + Data([0, 0, 0]))
        tiff += entry(tag: 0x0002, type: 5, count: 3, value: bigEndian(UInt32(68)))
        tiff += bigEndian(UInt32(0))
        for part in latitude { tiff += bigEndian(part) + bigEndian(UInt32(1)) }
        let payload = Data("Exif".utf8) + Data([0, 0]) + tiff
        return jpeg.prefix(2) + Data([0xFF, 0xE1]) + bigEndian(UInt16(payload.count + 2)) + payload + jpeg.dropFirst(2)
    }

    /// Whether the JPEG has an APP1 segment of EXIF (or XMP) before its image data: where a
    /// camera keeps a photo's location.
    public static func hasMetadataSegment(_ jpeg: Data) -> Bool {
        let bytes = [UInt8](jpeg)
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xDA { return false }  // start of scan: no more segments
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xE1 { return true }
            at += 2 + length
        }
        return false
    }

    private static func entry(tag: UInt16, type: UInt16, count: UInt32, value: Data) -> Data {
        bigEndian(tag) + bigEndian(type) + bigEndian(count) + value
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
