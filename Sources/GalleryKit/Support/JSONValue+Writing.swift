import Foundation

extension JSONValue {
    /// How `serialized(_:)` lays out the text.
    public enum Layout: Sendable {
        /// No whitespace between tokens (spec §5.7: manifests and revisions).
        case compact
        /// Two-space indentation and `"name" : value`, as `JSONEncoder`'s `.prettyPrinted`.
        case pretty
    }

    /// The value as JSON text: members sorted by name (`String`'s `<`: code point order for
    /// names in NFC), `/` not escaped, non-ASCII written as UTF-8, numbers in their shortest
    /// form (`1.5`; an integral double as `2.0`, an integer as `2`).
    ///
    /// Written directly rather than through `JSONEncoder`, which takes several times longer on
    /// a gallery of 10,000 images (every value goes through the `Encodable` machinery).
    /// - Complexity: O(size of the output) plus sorting each object's member names.
    public func serialized(_ layout: Layout = .compact) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(into: &output, layout: layout, indent: 0)
        return Data(output)
    }

    /// Appends the value as JSON text to `output`, as `serialized(_:)` writes it, indented
    /// `indent` levels when pretty.
    public func write(to output: inout [UInt8], layout: Layout = .compact, indent: Int = 0) {
        write(into: &output, layout: layout, indent: indent)
    }

    private func write(into output: inout [UInt8], layout: Layout, indent: Int) {
        switch self {
        case .null: output.appendJSON(literal: "null")
        case .bool(let value): output.appendJSON(value)
        case .integer(let value): output.appendJSON(Int(value))
        case .number(let value): output.append(contentsOf: Self.text(of: value).utf8)
        case .string(let value): output.appendJSON(value)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, layout: layout, indent: indent + 1)
                element.write(into: &output, layout: layout, indent: indent + 1)
            }
            if !elements.isEmpty { Self.newline(into: &output, layout: layout, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            // `<` is code point order for the NFC names writers produce, and fast for ASCII.
            // Members sorted with their values: no second lookup per name.
            let members = fields.sorted { $0.key < $1.key }
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, layout: layout, indent: indent + 1)
                output.appendJSON(member.key)
                if layout == .pretty { output.append(UInt8(ascii: " ")) }
                output.append(UInt8(ascii: ":"))
                if layout == .pretty { output.append(UInt8(ascii: " ")) }
                member.value.write(into: &output, layout: layout, indent: indent + 1)
            }
            if !members.isEmpty { Self.newline(into: &output, layout: layout, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into output: inout [UInt8], layout: Layout, indent: Int) {
        guard layout == .pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// The shortest text that reads back as `value`, and as a number with a fraction: an
    /// integral double is written `2.0`, so that it is read back as `.number`, not `.integer`
    /// (a member a newer writer added must survive a save exactly).
    static func text(of value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return value.description
    }
}
