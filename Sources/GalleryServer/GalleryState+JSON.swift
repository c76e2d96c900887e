import Foundation
import GalleryKit

/// The state as JSON text, written directly: `JSONEncoder` took seconds for a gallery of
/// 100,000 images (every value through the `Encodable` machinery), this takes a fraction.
extension GalleryState {
    /// The JSON the page reads; strings through GalleryKit's writer, frames in hundredths of a
    /// pixel, members that are absent left out.
    func json() -> [UInt8] {
        var out = JSONText()
        out.raw("{")
        out.member("name", first: true)
        out.string(name)
        out.member("title")
        out.string(title)
        out.member("columns")
        out.integer(columns)
        out.member("columnRange")
        out.raw("[\(columnRange[0]),\(columnRange[1])]")
        out.member("strip")
        out.raw("{\"cell\":")
        out.hundredths(strip["cell"] ?? 0)
        out.raw(",\"spacing\":")
        out.hundredths(strip["spacing"] ?? 0)
        out.raw("}")
        out.member("canUndo")
        out.boolean(canUndo)
        out.member("canRedo")
        out.boolean(canRedo)
        out.member("version")
        out.string(version)
        out.member("count")
        out.integer(count)
        if let arrivalFailure {
            out.member("arrivalFailure")
            out.string(arrivalFailure)
        }
        out.member("items")
        out.raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { out.raw(",") }
            item.write(to: &out)
        }
        out.raw("]")
        out.member("layout")
        out.raw("{\"style\":")
        out.string(layout.style.rawValue)
        out.raw(",\"width\":")
        out.hundredths(layout.width)
        out.raw(",\"height\":")
        out.hundredths(layout.height)
        out.raw(",\"frames\":[")
        for (index, frame) in layout.frames.enumerated() {
            out.raw(index > 0 ? ",[" : "[")
            for (part, value) in frame.enumerated() {
                if part > 0 { out.raw(",") }
                out.hundredths(value)
            }
            out.raw("]")
        }
        out.raw("]}}")
        return out.bytes
    }
}

extension GalleryState.Item {
    fileprivate func write(to out: inout JSONText) {
        out.raw("{")
        out.member("id", first: true)
        out.string(id)
        out.member("status")
        out.string(status)
        out.member("url")
        out.string(url)
        if let caption {
            out.member("caption")
            out.string(caption)
        }
        if let error {
            out.member("error")
            out.string(error)
        }
        out.member("alt")
        out.string(alt)
        out.member("isCached")
        out.boolean(isCached)
        out.member("isPlaceholder")
        out.boolean(isPlaceholder)
        out.member("ratio")
        out.decimal(ratio, places: 4)
        out.raw("}")
    }
}

/// JSON text being written, a byte at a time.
private struct JSONText {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func member(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    mutating func string(_ text: String) {
        JSONValue.append(text, to: &bytes)
    }

    mutating func integer(_ value: Int) {
        raw(String(value))
    }

    mutating func boolean(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// `value` to two decimals, without trailing zeros (`12`, `12.5`, `12.25`).
    mutating func hundredths(_ value: Double) {
        decimal(value, places: 2)
    }

    /// `value` to `places` decimals (at most 6), without trailing zeros.
    mutating func decimal(_ value: Double, places: Int) {
        guard value.isFinite else { return raw("0") }
        var unit: UInt64 = 1
        for _ in 0..<places { unit *= 10 }
        let scaled = Int64((value * Double(unit)).rounded())
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = scaled.magnitude
        raw(String(magnitude / unit))
        var fraction = magnitude % unit
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        while fraction != 0 {
            unit /= 10
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / unit))
            fraction %= unit
        }
    }
}
