import Foundation

/// A text file shipped with GalleryKit (`Export/Templates/…`) with `{{name}}` placeholders.
///
/// Filling is one pass over the template: a value is never scanned again, so a caption that
/// happens to contain `{{items}}` stays text. Values must already be escaped for where their
/// placeholder stands (`HTMLText.escaped`, `HTMLText.scriptJSON`).
struct ExportTemplate {
    let name: String
    let text: String

    /// The template `Templates/<name>`.
    /// - Throws: `.fileNotFound` if GalleryKit has no such template.
    init(named name: String) throws(GalleryError) {
        self.name = name
        text = String(decoding: try Self.data(named: name), as: UTF8.self)
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

    /// The bytes of `Templates/<name>`, a template or a resource copied as it is (a style sheet,
    /// a script).
    /// - Throws: `.fileNotFound` if GalleryKit has no such file.
    static func data(named name: String) throws(GalleryError) -> Data {
        guard let bytes = embedded[name] else {
            throw GalleryError(.fileNotFound, path: name, "GalleryKit has no such export template")
        }
        return Data(bytes)
    }

    /// The templates, inside the program (SwiftPM's `embedInCode` resources, `Package.swift`):
    /// nothing is looked up beside the program, so a copy of it alone exports as the build does.
    private static let embedded: [String: [UInt8]] = [
        "html/index.html": PackageResources.index_html,
        "html/item.html": PackageResources.item_html,
        "html/failed-item.html": PackageResources.failed_item_html,
        "html/gallery.css": PackageResources.gallery_css,
        "html/gallery.js": PackageResources.gallery_js,
        "html/viewer.css": PackageResources.viewer_css,
        "html/frames.js": PackageResources.frames_js,
        "html/grid.js": PackageResources.grid_js,
        "html/image-requests.js": PackageResources.image_requests_js,
        "html/image-sizes.js": PackageResources.image_sizes_js,
        "html/viewer-layout.js": PackageResources.viewer_layout_js,
        "html/viewer-ui.js": PackageResources.viewer_ui_js,
        "html/viewer-strip.js": PackageResources.viewer_strip_js,
        "html/viewer-zoom.js": PackageResources.viewer_zoom_js,
        "html/viewer-pager.js": PackageResources.viewer_pager_js,
        "html/viewer.js": PackageResources.viewer_js,
    ]
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
