import Foundation

/// An attribution (spec §5.8) as IIIF Presentation 3 says it: `rights`, `requiredStatement`,
/// `metadata` and, for the document, `provider`.
///
/// The IIIF validator accepts as `rights` only a Creative Commons or RightsStatements.org URI, in
/// the `http://` form those organisations publish; any other licence is listed in `metadata`.
enum IIIFAttribution {
    /// The members of a Manifest's or a Canvas's object that carry `attribution`.
    static func members(of attribution: Attribution?) -> [String: JSONValue] {
        guard let attribution, !attribution.isEmpty else { return [:] }
        var members: [String: JSONValue] = [:]
        var metadata: [JSONValue] = []
        if let creator = attribution.creator { metadata.append(entry("Creator", creator)) }
        if let copyright = attribution.copyright { metadata.append(entry("Copyright", copyright)) }
        if let license = attribution.license {
            if let rights = rights(license) { members["rights"] = .string(rights) } else { metadata.append(entry("License", license)) }
        }
        if let source = attribution.source { metadata.append(entry("Source", source)) }
        if !metadata.isEmpty { members["metadata"] = .array(metadata) }
        if let line = attribution.displayLine ?? attribution.copyright {
            members["requiredStatement"] = entry("Attribution", line)
        }
        return members
    }

    /// The document's maker as a IIIF Agent, for the Manifest's `provider`; `nil` without a
    /// creator. Its `id` is the source page when there is one, else one under the manifest's.
    static func provider(of attribution: Attribution?, manifest: URL) -> JSONValue? {
        guard let attribution, let creator = attribution.creator else { return nil }
        var agent: [String: JSONValue] = [
            "id": .string(attribution.source.flatMap(httpURL) ?? manifest.absoluteString + "/provider"),
            "type": .string("Agent"),
            "label": languageMap(creator),
        ]
        if let source = attribution.source.flatMap(httpURL) {
            agent["homepage"] = .array([
                .object([
                    "id": .string(source), "type": .string("Text"), "label": languageMap(creator), "format": .string("text/html"),
                ])
            ])
        }
        return .array([.object(agent)])
    }

    /// `license` in the form IIIF's `rights` takes, `nil` if it is neither a Creative Commons nor a
    /// RightsStatements.org URI: `http://`, `www.` dropped, a trailing `/` (Creative Commons'
    /// canonical form).
    static func rights(_ license: String) -> String? {
        guard var components = URLComponents(string: license.trimmingCharacters(in: .whitespaces)),
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""), var host = components.host?.lowercased()
        else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        guard ["creativecommons.org", "rightsstatements.org"].contains(host), components.path.count > 1 else { return nil }
        components.scheme = "http"
        components.host = host
        components.query = nil
        components.fragment = nil
        if !components.path.hasSuffix("/") { components.path += "/" }
        return components.string
    }

    private static func httpURL(_ text: String) -> String? {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else { return nil }
        return url.absoluteString
    }

    /// A label (our own words, in English) and a value (of no known language).
    private static func entry(_ label: String, _ value: String) -> JSONValue {
        .object(["label": .object(["en": .array([.string(label)])]), "value": languageMap(value)])
    }

    private static func languageMap(_ text: String) -> JSONValue {
        .object(["none": .array([.string(text)])])
    }
}
