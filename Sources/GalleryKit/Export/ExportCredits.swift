import Foundation

/// The credits of the images (spec §5.8) in the forms the folder and comic-book exports carry
/// them: a `CREDITS.txt` beside the files, and ComicInfo.xml's fields (the Anansi Project's
/// schema 2.0, which comic readers show).
enum ExportCredits {
    /// The name of the text file of credits.
    static let fileName = "CREDITS.txt"

    /// One line per credited image, `name: credit line · licence · source`, after the gallery's
    /// title; `nil` when no image has any credit.
    static func text(title: String, files: [(name: String, item: ExportItem)]) -> String? {
        let lines = files.compactMap { name, item in item.attribution.map { "\(name): \(line(for: $0))" } }
        guard !lines.isEmpty else { return nil }
        return "Credits for “\(title)”\n\n" + lines.joined(separator: "\n") + "\n"
    }

    /// A credit in words with its addresses whole, as plain text keeps them.
    static func line(for attribution: Attribution) -> String {
        var parts: [String] = []
        if let line = attribution.creditLine { parts.append(line) }
        if let license = attribution.license { parts.append("licence \(license)") }
        if let source = attribution.source { parts.append("source \(source)") }
        return parts.joined(separator: " · ")
    }

    /// ComicInfo.xml for a comic-book archive whose pages are `items`, in order; `nil` when no
    /// page has any credit. The makers are its `Penciller`s, each page's credit in `Notes`.
    static func comicInfo(title: String, items: [ExportItem]) -> String? {
        let credited = items.enumerated().compactMap { page, item in item.attribution.map { (page + 1, $0) } }
        guard !credited.isEmpty else { return nil }
        var makers: [String] = []
        for (_, attribution) in credited {
            if let creator = attribution.creator, !makers.contains(creator) { makers.append(creator) }
        }
        let notes = credited.map { page, attribution in "Page \(page): \(line(for: attribution))" }.joined(separator: "\n")
        var fields = ["  <Title>\(HTMLText.escaped(title))</Title>"]
        if !makers.isEmpty { fields.append("  <Penciller>\(HTMLText.escaped(makers.joined(separator: ", ")))</Penciller>") }
        fields.append("  <Notes>\(HTMLText.escaped(notes))</Notes>")
        fields.append("  <PageCount>\(items.count)</PageCount>")
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            \(fields.joined(separator: "\n"))
            </ComicInfo>

            """
    }
}
