import Foundation

/// A IIIF Presentation manifest (3.0, or 2.1) read as a gallery: what museums publish their
/// images with (`gallery create DOC --iiif MANIFEST`).
///
/// - The title is the manifest's `label`; each canvas's `painting` image, in order, is an image,
///   its canvas `label` the caption. A canvas without one (Cookbook 0283, "missing images in a
///   sequence") gives none; a `thumbnail`, `start` or `behavior` changes nothing.
/// - An image body with an image service is asked for whole through the service
///   (`{id}/full/max/0/default.jpg` for Image API 3, `{id}/full/full/0/default.jpg` for 2),
///   its size from the service's `info.json` (a museum's whole image can be hundreds of
///   megabytes); a body without one by its own `id`.
/// - Credits (spec §5.8): `rights` (2.1 `license`) is the licence; a `requiredStatement` (2.1
///   `attribution`) is the credit line, or the copyright notice when it is labelled so;
///   `metadata` gives the creator (and a copyright, licence or source); a `homepage` (or the
///   manifest's `provider`'s) is the source. The manifest's are the gallery's, a canvas's or
///   image body's its image's own.
/// - Language maps give their `en` text, else `none`, else the first; HTML is reduced to text.
public struct IIIFManifest: Sendable, Equatable {
    /// One image of the manifest.
    public struct Image: Sendable, Equatable {
        /// Where the whole image is.
        public var url: URL
        /// The image service's description (`{id}/info.json`), which gives the image's size
        /// without its pixels; `nil` for an image without a service.
        public var serviceInfo: URL?
        /// The canvas's label.
        public var caption: String?
        /// The canvas's and the body's own credit, where it differs from the manifest's.
        public var attribution: Attribution?
    }

    /// The manifest's label.
    public var title: String
    /// The images, in the canvases' order.
    public var images: [Image]
    /// The manifest's credit: the gallery's.
    public var attribution: Attribution?

    /// The most bytes a manifest may have (a 5,000-page book is about 10 MB).
    public static let maximumBytes: Int64 = 64 << 20

    /// Reads the manifest in `data`, found at `source` (named in errors).
    /// - Throws: `.damagedDocument` for JSON that is not a IIIF manifest, `.invalidArgument` for
    ///   a Collection (naming its manifests, to import one at a time).
    public init(_ data: Data, source: String) throws {
        guard case .object(let root)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw GalleryError(.damagedDocument, path: source, "is not a IIIF manifest (not a JSON object)")
        }
        let type = Self.text(root["type"] ?? root["@type"]) ?? ""
        if type == "Collection" || type == "sc:Collection" {
            let members = Self.array(root["items"]) + Self.array(root["manifests"]) + Self.array(root["members"])
            let ids = members.compactMap { member -> String? in
                guard case .object(let fields) = member else { return nil }
                return Self.text(fields["id"] ?? fields["@id"])
            }
            throw GalleryError(
                .invalidArgument, path: source,
                "is a IIIF Collection of \(ids.count) manifest\(ids.count == 1 ? "" : "s"); make a gallery of each: "
                    + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : ""))
        }
        guard type == "Manifest" || type == "sc:Manifest" else {
            throw GalleryError(
                .damagedDocument, path: source, "is not a IIIF manifest (its type is \(type.isEmpty ? "missing" : "“\(type)”"))")
        }
        title = Self.label(root["label"]) ?? ""
        attribution = Self.attribution(of: root, isManifest: true)
        let canvases =
            root["items"] != nil
            ? Self.array(root["items"])
            : Self.array(Self.array(root["sequences"]).first.flatMap { Self.object($0)?["canvases"] })
        images = canvases.compactMap(Self.object).flatMap { canvas in
            Self.paintedBodies(of: canvas).compactMap { body -> Image? in
                guard let (url, service) = Self.imageURL(of: body) else { return nil }
                var own = Self.attribution(of: canvas, isManifest: false) ?? Attribution()
                own = Self.attribution(of: body, isManifest: false)?.resolved(over: own) ?? own
                return Image(
                    url: url, serviceInfo: service.flatMap { URL(string: $0.absoluteString + "/info.json") },
                    caption: Self.label(canvas["label"]), attribution: own.isEmpty ? nil : own)
            }
        }
    }

    /// The bodies of a canvas's `painting` annotations that are images (3.0 `items`, 2.1
    /// `images[].resource`), a `Choice` giving its first.
    private static func paintedBodies(of canvas: [String: JSONValue]) -> [[String: JSONValue]] {
        if let images = canvas["images"] {
            return array(images).compactMap { object($0).flatMap { object($0["resource"]) } }
        }
        let annotations = array(canvas["items"]).compactMap(object).flatMap { array($0["items"]).compactMap(object) }
        return annotations.compactMap { annotation in
            guard text(annotation["motivation"]) ?? "painting" == "painting", var body = object(annotation["body"]) else { return nil }
            if text(body["type"]) == "Choice", let first = array(body["items"]).first.flatMap(object) { body = first }
            let kind = text(body["type"] ?? body["@type"]) ?? "Image"
            return kind == "Image" || kind == "dctypes:Image" ? body : nil
        }
    }

    /// The whole image: through its image service if it has one (given too), else the body's
    /// own id.
    private static func imageURL(of body: [String: JSONValue]) -> (URL, service: URL?)? {
        let services = (body["service"].map { array($0).isEmpty ? [$0] : array($0) } ?? []).compactMap(object)
        for service in services {
            guard let id = text(service["id"] ?? service["@id"]), let base = URL(string: id.hasSuffix("/") ? String(id.dropLast()) : id)
            else { continue }
            let kind = text(service["type"] ?? service["@type"]) ?? ""
            let context = text(service["@context"]) ?? ""
            let profile = text(service["profile"]) ?? array(service["profile"]).compactMap(text).first ?? ""
            if kind == "ImageService3" || context.contains("image/3") {
                return URL(string: base.absoluteString + "/full/max/0/default.jpg").map { ($0, base) }
            }
            if kind == "ImageService2" || kind == "ImageService1" || context.contains("image/2") || profile.contains("image/2") {
                return URL(string: base.absoluteString + "/full/full/0/default.jpg").map { ($0, base) }
            }
        }
        return text(body["id"] ?? body["@id"]).flatMap(URL.init(string:)).map { ($0, nil) }
    }

    /// The credit a resource states of itself.
    private static func attribution(of resource: [String: JSONValue], isManifest: Bool) -> Attribution? {
        var found = Attribution()
        for entry in array(resource["metadata"]).compactMap(object) {
            guard let name = label(entry["label"])?.lowercased(), let value = label(entry["value"]) else { continue }
            switch name {
            case "creator", "artist", "author", "maker", "photographer": found.creator = found.creator ?? value
            case "copyright", "rights": found.copyright = found.copyright ?? value
            case "license", "licence": found.license = found.license ?? value
            case "source": found.source = found.source ?? value
            default: break
            }
        }
        if let statement = object(resource["requiredStatement"]), let value = label(statement["value"]) {
            let name = label(statement["label"])?.lowercased() ?? ""
            if name.contains("copyright") || name == "rights" { found.copyright = value } else { found.credit = value }
        } else if let credit = label(resource["attribution"]) {
            found.credit = credit
        }
        if let rights = text(resource["rights"]) ?? text(resource["license"]) ?? array(resource["license"]).compactMap(text).first {
            found.license = rights
        }
        let homepages =
            array(resource["homepage"])
            + (isManifest ? array(resource["provider"]).compactMap(object).flatMap { array($0["homepage"]) } : [])
        if let homepage = homepages.compactMap(object).compactMap({ text($0["id"]) }).first { found.source = found.source ?? homepage }
        return found.isEmpty ? nil : found
    }

    /// A label's text: a language map's `en` values, else `none`'s, else the first language's;
    /// 2.1's plain string or `@value` list; HTML reduced to its text.
    static func label(_ value: JSONValue?) -> String? {
        let texts: [String]
        switch value {
        case .string(let text)?: texts = [text]
        case .object(let map)?:
            if let plain = text(map["@value"]) {
                texts = [plain]
            } else {
                let language = map["en"] != nil ? "en" : map["none"] != nil ? "none" : map.keys.sorted().first
                texts = language.map { array(map[$0]).compactMap(text) } ?? []
            }
        case .array(let items)?:
            let values = items.compactMap(object)
            let english = values.first { text($0["@language"])?.hasPrefix("en") == true } ?? values.first
            texts = english.flatMap { text($0["@value"]) }.map { [$0] } ?? items.compactMap(text)
        default: texts = []
        }
        return texts.map(plainText).joined(separator: "; ").nilIfEmpty
    }

    /// Text of IIIF's HTML subset: tags dropped, entities decoded, spaces folded.
    static func plainText(_ html: String) -> String {
        guard html.contains("<") || html.contains("&") else { return html.trimmingCharacters(in: .whitespacesAndNewlines) }
        let withoutTags = html.replacing(/<[^>]*>/, with: "")
        return XMPPacket.decodingEntities(withoutTags).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    private static func object(_ value: JSONValue?) -> [String: JSONValue]? {
        if case .object(let fields)? = value { return fields }
        return nil
    }
}
