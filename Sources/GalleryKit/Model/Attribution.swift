import Foundation

/// Who made an image and under what terms it may be shared (spec §5.6, format 1.1): what a
/// gallery must keep of an image collected from the web or a museum, and pass on in every export.
///
/// A document's attribution is the default of its images': each member an image leaves out is
/// the document's (`resolved(over:)`).
public struct Attribution: Sendable, Equatable, Hashable {
    /// Who made the image: a person's or an organisation's name (XMP `dc:creator`, IPTC By-line,
    /// EXIF Artist).
    public var creator: String?
    /// The copyright notice, as written: "© 2026 Ana Lima" (`dc:rights`, IPTC CopyrightNotice,
    /// EXIF Copyright).
    public var copyright: String?
    /// The line to show beside the image (IPTC Credit, `photoshop:Credit`, schema.org
    /// `creditText`): "Photo: Ana Lima / CC BY 4.0".
    public var credit: String?
    /// The licence, as a URI (`xmpRights:WebStatement`, IIIF `rights`):
    /// `http://creativecommons.org/licenses/by/4.0/`.
    public var license: String?
    /// The page the image came from, as a URI: where to find its maker and terms.
    public var source: String?
    /// Members this version does not know; written back unchanged.
    public var unknownFields: [String: JSONValue]

    /// Creates an attribution; every member may be left out.
    public init(
        creator: String? = nil, copyright: String? = nil, credit: String? = nil, license: String? = nil, source: String? = nil
    ) {
        self.creator = creator
        self.copyright = copyright
        self.credit = credit
        self.license = license
        self.source = source
        self.unknownFields = [:]
    }

    /// Whether no member has a value (such an attribution is not written).
    public var isEmpty: Bool {
        creator == nil && copyright == nil && credit == nil && license == nil && source == nil && unknownFields.isEmpty
    }

    /// This attribution, each member it leaves out taken from `defaults` (the document's).
    public func resolved(over defaults: Attribution?) -> Attribution {
        guard let defaults else { return self }
        var resolved = self
        resolved.creator = creator ?? defaults.creator
        resolved.copyright = copyright ?? defaults.copyright
        resolved.credit = credit ?? defaults.credit
        resolved.license = license ?? defaults.license
        resolved.source = source ?? defaults.source
        return resolved
    }

    /// The manifest's object (spec §5.6): the members with a value, and those this version does
    /// not know.
    public var json: JSONValue {
        var fields = unknownFields
        let members: [(String, String?)] = [
            ("creator", creator), ("copyright", copyright), ("credit", credit), ("license", license), ("source", source),
        ]
        for case (let name, let value?) in members { fields[name] = .string(value) }
        return .object(fields)
    }

    /// The line to show for the image: its credit, else its creator; `nil` when it has neither.
    public var displayLine: String? { credit ?? creator }

    /// This attribution with `other`'s members where `other` has them (an edit that sets some
    /// members and leaves the others); an empty string clears a member.
    public func updated(with other: Attribution) -> Attribution {
        func pick(_ new: String?, _ old: String?) -> String? {
            guard let new else { return old }
            return new.isEmpty ? nil : new
        }
        var updated = self
        updated.creator = pick(other.creator, creator)
        updated.copyright = pick(other.copyright, copyright)
        updated.credit = pick(other.credit, credit)
        updated.license = pick(other.license, license)
        updated.source = pick(other.source, source)
        return updated
    }
}

extension Attribution {
    /// The credit to print under the image, as a museum label does: the credit (or creator), the
    /// copyright notice unless the credit says it already, and the licence's short name:
    /// "Photo: Ana Lima · © 2026 Ana Lima · CC BY 4.0". `nil` when there is nothing to say.
    public var creditLine: String? {
        var parts: [String] = []
        if let line = displayLine { parts.append(line) }
        if let copyright, !parts.contains(where: { $0.contains(copyright) }) { parts.append(copyright) }
        if let name = licenseName { parts.append(name) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The licence's short name for a Creative Commons or RightsStatements.org URI ("CC BY-SA
    /// 4.0", "CC0 1.0", "In Copyright"); `nil` for any other.
    public var licenseName: String? {
        guard let license, let url = URL(string: license), let host = url.host?.lowercased() else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        switch host.hasPrefix("www.") ? String(host.dropFirst(4)) : host {
        case "creativecommons.org":
            guard parts.count >= 3 else { return nil }
            switch (parts[0], parts[1]) {
            case ("licenses", let terms): return "CC \(terms.uppercased()) \(parts[2])"
            case ("publicdomain", "zero"): return "CC0 \(parts[2])"
            case ("publicdomain", "mark"): return "Public Domain Mark \(parts[2])"
            default: return nil
            }
        case "rightsstatements.org":
            guard parts.count >= 2, parts[0] == "vocab" else { return nil }
            return Self.rightsStatements[parts[1]]
        default:
            return nil
        }
    }

    /// RightsStatements.org's statements by code, with their published names.
    private static let rightsStatements = [
        "InC": "In Copyright", "InC-OW-EU": "In Copyright – EU Orphan Work", "InC-EDU": "In Copyright – Educational Use Permitted",
        "InC-NC": "In Copyright – Non-Commercial Use Permitted", "InC-RUU": "In Copyright – Rights-holder(s) Unlocatable or Unidentifiable",
        "NoC-CR": "No Copyright – Contractual Restrictions", "NoC-NC": "No Copyright – Non-Commercial Use Only",
        "NoC-OKLR": "No Copyright – Other Known Legal Restrictions", "NoC-US": "No Copyright – United States",
        "CNE": "Copyright Not Evaluated", "UND": "Copyright Undetermined", "NKC": "No Known Copyright",
    ]
}
