import Foundation

/// A text file shipped with GalleryKit (`Export/Templates/…`) with `{{name}}` placeholders.
///
/// Filling is one pass over the template: a value is never scanned again, so a caption that
/// happens to contain `{{items}}` stays text. Values must already be escaped for where their
/// placeholder stands (`HTMLText.escaped`, `HTMLText.scriptJSON`).
struct ExportTemplate {
    let name: String
    let text: String

    /// Loads `Templates/<name>` from GalleryKit's resources.
    /// - Throws: `.fileNotFound` if the resources are not installed beside the program.
    init(named name: String) throws {
        let url = try Self.folder().appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw GalleryError(.fileNotFound, url: url, "GalleryKit's export template is missing; reinstall gallery with its resources")
        }
        self.name = name
        text = String(decoding: data, as: UTF8.self)
    }

    /// The template with every placeholder replaced by its value.
    /// - Throws: `.ioFailure` naming a placeholder that has no value (a broken template).
    func filled(_ values: [String: String]) throws -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + values.values.reduce(0) { $0 + $1.utf8.count })
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let key = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[key] else {
                throw GalleryError(.ioFailure, path: name, "the template has a placeholder {{\(key)}} with no value")
            }
            output += value
            rest = rest[close.upperBound...]
        }
        output += rest
        return output
    }

    /// The bytes of a resource copied as it is (a style sheet, a script).
    static func data(named name: String) throws(GalleryError) -> Data {
        let url = try folder().appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw GalleryError(.fileNotFound, url: url, "GalleryKit's export resource is missing; reinstall gallery with its resources")
        }
        return data
    }

    /// Where the templates are: SwiftPM's resource bundle beside the program (or the test
    /// runner). Looked up here rather than through `Bundle.module`, whose accessor stops the
    /// process when the bundle is missing — a missing resource must be an error, not a crash.
    private static func folder() throws(GalleryError) -> URL {
        let bundleName = "GalleryKit_GalleryKit.resources"
        var candidates = [Bundle.main.bundleURL.appendingPathComponent(bundleName)]
        if let resources = Bundle.main.resourceURL {
            candidates.append(resources.appendingPathComponent("\(bundleName)/Contents/Resources"))
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(executable.appendingPathComponent(bundleName))
        for bundle in candidates {
            let templates = bundle.appendingPathComponent("Templates")
            if FileLocation.status(of: templates) != nil { return templates }
        }
        throw GalleryError(
            .fileNotFound, url: candidates[candidates.count - 1],
            "GalleryKit's export templates are missing; install them beside the gallery program")
    }
}

/// Text made safe for HTML.
enum HTMLText {
    /// `text` for HTML text or a quoted attribute value: `& < > " '` as character references.
    static func escaped(_ text: String) -> String {
        replacing(text) { character in
            switch character {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// JSON text to put inside a `<script type="application/json">` element: no `<`, `>` or `&`
    /// (so no `</script>` or `<!--` can end or change the element) and no U+2028/U+2029.
    /// Those characters can only stand inside JSON strings, where `\uXXXX` means the same.
    static func scriptJSON(_ value: JSONValue) -> String {
        replacing(String(decoding: value.serialized(.compact), as: UTF8.self)) { character in
            switch character {
            case "<", ">", "&", "\u{2028}", "\u{2029}": "\\u" + String(character.value, radix: 16).leftPadded(to: 4)
            default: nil
            }
        }
    }

    /// `text` with each character that `replacement` maps replaced by its text.
    private static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            if let replaced = replacement(character) {
                output += replaced
            } else {
                output.unicodeScalars.append(character)
            }
        }
        return output
    }
}
