import Foundation

/// The credits of an exported site (spec §5.8): a list at the foot of the page, and schema.org
/// JSON-LD (`ImageGallery` of `ImageObject`s with `creator`, `creditText`, `copyrightNotice`,
/// `license`) so that search engines show each image's maker and licence.
enum HTMLCredits {
    /// The page's Credits section; empty when no image has any credit. Images that all share
    /// one credit are one line, "All images: …".
    static func section(for items: [ExportItem]) -> String {
        let credited = items.filter { $0.failure == nil && $0.attribution != nil }
        guard !credited.isEmpty else { return "" }
        let lines: [(label: String, attribution: Attribution)]
        if credited.count == items.count, Set(credited.map(\.attribution)).count == 1 {
            lines = [("All images", credited[0].attribution!)]
        } else {
            lines = credited.map { ("\($0.number). \(HTMLExporter.alternativeText(of: $0))", $0.attribution!) }
        }
        let entries = lines.map { label, attribution in
            "    <li><span class=\"credit-image\">\(HTMLText.escaped(label))</span> \(describe(attribution))</li>"
        }
        return "<footer class=\"credits\">\n  <h2>Credits</h2>\n  <ul>\n\(entries.joined(separator: "\n"))\n  </ul>\n</footer>"
    }

    /// One credit in words, its links live: "Photo: Ana Lima · © 2026 Ana Lima · CC BY 4.0 ·
    /// source".
    private static func describe(_ attribution: Attribution) -> String {
        var parts: [String] = []
        if let line = attribution.displayLine { parts.append(HTMLText.escaped(line)) }
        if let copyright = attribution.copyright, attribution.displayLine?.contains(copyright) != true {
            parts.append(HTMLText.escaped(copyright))
        }
        if let license = attribution.license {
            parts.append(link(license, text: attribution.licenseName ?? license, relation: "license"))
        }
        if let source = attribution.source { parts.append(link(source, text: "source", relation: nil)) }
        return parts.joined(separator: " · ")
    }

    /// A link to an http(s) address; any other text is shown, not linked.
    private static func link(_ address: String, text: String, relation: String?) -> String {
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return HTMLText.escaped(text)
        }
        let rel = relation.map { " rel=\"\($0)\"" } ?? ""
        return "<a href=\"\(HTMLText.escaped(address))\"\(rel)>\(HTMLText.escaped(text))</a>"
    }

    /// The page's JSON-LD, in a `<script type="application/ld+json">` (data, never run: the page's
    /// policy allows no inline script); empty when no image has any credit.
    static func structuredData(title: String, items: [ExportItem]) -> String {
        guard items.contains(where: { $0.attribution != nil }) else { return "" }
        let images: [JSONValue] = items.compactMap { item in
            guard item.failure == nil, let path = item.largestPath else { return nil }
            var object: [String: JSONValue] = [
                "@type": .string("ImageObject"), "contentUrl": .string(path), "name": .string(HTMLExporter.alternativeText(of: item)),
            ]
            if let caption = item.image.caption { object["caption"] = .string(caption) }
            if let attribution = item.attribution {
                if let creator = attribution.creator {
                    object["creator"] = .object(["@type": .string("Person"), "name": .string(creator)])
                }
                if let credit = attribution.displayLine { object["creditText"] = .string(credit) }
                if let copyright = attribution.copyright { object["copyrightNotice"] = .string(copyright) }
                if let license = attribution.license { object["license"] = .string(license) }
                if let source = attribution.source { object["acquireLicensePage"] = .string(source) }
            }
            return .object(object)
        }
        let gallery: JSONValue = .object([
            "@context": .string("https://schema.org"), "@type": .string("ImageGallery"), "name": .string(title),
            "associatedMedia": .array(images),
        ])
        return "<script type=\"application/ld+json\">\(HTMLText.scriptJSON(gallery))</script>"
    }
}
