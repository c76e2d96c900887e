/// The rules for a document's file name, written once for the command line, the library and the
/// served folder.
///
/// A document's name is one file name ending in `.gallery` (in any case) with a stem that is not
/// blank: no `/` or `\` (a name never leads into another folder, also once the file is shared
/// with a system that reads `\` as one), no control characters, no leading `.` (a hidden
/// document is one the Files app and `gallery browse` never show), and at most 255 bytes, the
/// file system's limit.
public enum DocumentName {
    /// How every document's name ends.
    public static let fileExtension = ".gallery"

    /// `name` as a document's file name: `.gallery` added when it does not end with it already.
    public static func withExtension(_ name: String) -> String {
        FreeName.hasDocumentExtension(Array(name.utf8)) ? name : name + fileExtension
    }

    /// Why `fileName` cannot name a document, in words for a person, or `nil` when it can.
    public static func problem(with fileName: String) -> String? {
        let bytes = Array(fileName.utf8)
        if fileName.contains("/") || fileName.contains("\\") {
            return "a name cannot contain '/' or '\\' (a document stays in its folder)"
        }
        if fileName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a name cannot contain control characters"
        }
        guard FreeName.hasDocumentExtension(bytes) else { return "a document's name ends in \(fileExtension)" }
        if String(decoding: FreeName.stem(of: bytes), as: UTF8.self).allSatisfy(\.isWhitespace) {
            return "the name is empty"
        }
        if fileName.hasPrefix(".") { return "a name starting with '.' is hidden (or leads out of the folder)" }
        if bytes.count > 255 { return "the name is longer than 255 bytes" }
        return nil
    }
}
