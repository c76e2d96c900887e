import Foundation

/// The few XMP properties GalleryKit reads (`dc:creator`, `dc:rights`, `photoshop:Credit`…),
/// found in a packet's text without an XML parser.
///
/// A property is written either as an attribute of an `rdf:Description`
/// (`photoshop:Credit="Ana Lima"`) or as an element, whose value is its text or, for the arrays
/// of `dc:creator` (`rdf:Seq`) and `dc:rights` (`rdf:Alt`), its first `rdf:li`, the `x-default`
/// one of an `rdf:Alt`. Prefixes are the ones every writer uses for these namespaces (exiftool,
/// Adobe, darktable): the packet's own `xmlns` declarations are not followed.
struct XMPPacket {
    private let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The first value of `property` (a prefixed name), entities decoded and spaces trimmed;
    /// `nil` if the packet does not have it or it is empty.
    func first(_ property: String) -> String? {
        if let value = attribute(property) ?? element(property) {
            return Self.decodingEntities(value).trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        }
        return nil
    }

    private func attribute(_ property: String) -> String? {
        for quote in ["\"", "'"] {
            var searched = text[...]
            while let found = searched.range(of: "\(property)=\(quote)") {
                // A whole name: `xmp:Credit=` must not match inside `photoshop:Credit=`.
                let before = found.lowerBound == text.startIndex ? " " : text[text.index(before: found.lowerBound)]
                searched = text[found.upperBound...]
                guard before.isWhitespace else { continue }
                guard let end = searched.firstIndex(of: Character(quote)) else { return nil }
                return String(searched[..<end])
            }
        }
        return nil
    }

    private func element(_ property: String) -> String? {
        guard let open = text.range(of: "<\(property)"), let openEnd = text[open.upperBound...].firstIndex(of: ">") else { return nil }
        let next = text[open.upperBound]
        guard next == ">" || next.isWhitespace || next == "/" else { return nil }
        // `<dc:rights/>`: present, and empty.
        if text[text.index(before: openEnd)] == "/" { return nil }
        let contentStart = text.index(after: openEnd)
        guard let close = text[contentStart...].range(of: "</\(property)>") else { return nil }
        let content = text[contentStart..<close.lowerBound]
        guard content.contains("<rdf:li") else { return String(content) }
        let items = Self.items(in: content)
        return (items.first { $0.isDefault } ?? items.first)?.value
    }

    /// The `rdf:li` items of an array, with whether each is the `x-default` language.
    private static func items(in content: Substring) -> [(value: String, isDefault: Bool)] {
        var items: [(value: String, isDefault: Bool)] = []
        var rest = content
        while let open = rest.range(of: "<rdf:li"), let openEnd = rest[open.upperBound...].firstIndex(of: ">") {
            let attributes = rest[open.upperBound..<openEnd]
            let start = rest.index(after: openEnd)
            guard let close = rest[start...].range(of: "</rdf:li>") else { break }
            items.append((String(rest[start..<close.lowerBound]), attributes.contains("x-default")))
            rest = rest[close.upperBound...]
        }
        return items
    }

    /// XML's five entities and numeric references, decoded.
    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";"), rest.distance(from: ampersand, to: semicolon) <= 10 else {
                result += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
            let numeric: String? =
                name.hasPrefix("#x") || name.hasPrefix("#X")
                ? UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                : name.hasPrefix("#") ? UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) } : nil
            if let decoded = named ?? numeric {
                result += decoded
            } else {
                result += rest[ampersand...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
