import Foundation

/// Reads and writes `manifest.json` (spec §manifest), keeping every field it does not know.
///
/// The JSON is first read as a `JSONValue` tree and then checked field by field, so an error can
/// say exactly which field is wrong (`images[3].aspectRatio must be a number > 0`).
enum Manifest {
    static let format = "gallery"
    /// The version this writer writes; any 1.x is read.
    static let formatVersion = "1.0"
    static let supportedMajorVersion = 1

    /// Decodes a manifest.
    /// - Throws: `.damagedDocument` for JSON that is not a valid manifest, `.unsupportedVersion`
    ///   for format version 2 and later, `.limitExceeded` for too many images.
    /// - Complexity: O(size of the JSON).
    static func decode(_ data: Data, limits: BundleLimits = .standard) throws -> Gallery {
        let root: JSONValue
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[TopLevel.maximumImages] = limits.maximumImages
            root = try decoder.decode(TopLevel.self, from: data).value
        } catch let error as GalleryError {
            throw error
        } catch {
            throw GalleryError(.damagedDocument, "manifest.json is not valid JSON")
        }
        let object = try Fields(root, at: "manifest.json")
        guard try object.string("format") == format else {
            throw GalleryError(.damagedDocument, "manifest.json: format must be \"gallery\"")
        }
        try checkVersion(try object.string("formatVersion"))

        let imageValues = try object.array("images")
        var gallery = Gallery(id: try object.uuid("id"))
        gallery.title = try object.string("title")
        gallery.created = try object.date("created").wholeSeconds
        gallery.modified = try object.date("modified").wholeSeconds
        gallery.generator = try object.string("generator")
        gallery.columns = try object.optionalInteger("columns") ?? Gallery.defaultColumns
        guard Gallery.columnRange.contains(gallery.columns) else {
            throw object.invalid("columns", "must be from \(Gallery.columnRange.lowerBound) to \(Gallery.columnRange.upperBound)")
        }
        gallery.images = try imageValues.enumerated().map { offset, value in
            try image(Fields(value, at: "images[\(offset)]"))
        }
        var seen = Set<UUID>()
        for (offset, image) in gallery.images.enumerated() where !seen.insert(image.id).inserted {
            throw GalleryError(.damagedDocument, "manifest.json: images[\(offset)].id repeats an earlier image's id")
        }
        gallery.unknownFields = object.unknownFields(known: topLevelKeys)
        return gallery
    }

    /// Encodes a manifest: sorted keys, compact (spec §5.7), so equal galleries give equal bytes.
    static func encode(_ gallery: Gallery) throws -> Data {
        var fields = gallery.unknownFields
        fields["format"] = .string(format)
        fields["formatVersion"] = .string(formatVersion)
        fields["id"] = .string(gallery.id.uuidString.lowercased())
        fields["title"] = .string(gallery.title)
        fields["created"] = .string(RFC3339.string(from: gallery.created))
        fields["modified"] = .string(RFC3339.string(from: gallery.modified))
        fields["generator"] = .string(gallery.generator)
        fields["columns"] = .integer(Int64(gallery.columns))
        fields["images"] = .array(gallery.images.map(encode))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(JSONValue.object(fields))
        } catch {
            throw GalleryError(.invalidArgument, "the gallery cannot be written as JSON: \(error)")
        }
    }

    private static let topLevelKeys: Set = ["format", "formatVersion", "id", "title", "created", "modified", "generator", "columns", "images"]
    private static let imageKeys: Set = ["id", "url", "aspectRatio", "width", "height", "status", "error", "cached", "thumbnail", "caption", "added"]
    private static let cachedKeys: Set = ["path", "sha256", "bytes", "mediaType"]

    /// Spec §compatibility: any 1.x is read; 2.x and later changed something a 1.x reader would get wrong.
    static func checkVersion(_ version: String) throws {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        // Plain decimal numbers only: "1.0", "1.12"; not "01.0", "+1.0" or "1.-1".
        func isNumber(_ part: Substring) -> Bool {
            !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } && (part == "0" || part.first != "0")
        }
        guard parts.count == 2, parts.allSatisfy(isNumber), let major = Int(parts[0]), major >= 1 else {
            throw GalleryError(.damagedDocument, "manifest.json: formatVersion \(version.debugDescription) is not MAJOR.MINOR")
        }
        guard major == supportedMajorVersion else {
            throw GalleryError(
                .unsupportedVersion,
                "uses format version \(version); this version of GalleryKit reads 1.x — update GalleryKit to open it"
            )
        }
    }

    private static func image(_ object: Fields) throws -> GalleryImage {
        guard let url = URL(string: try object.string("url")), url.scheme != nil else {
            throw object.invalid("url", "must be an absolute URL")
        }
        let aspectRatio = try object.number("aspectRatio")
        guard aspectRatio.isFinite, aspectRatio > 0 else { throw object.invalid("aspectRatio", "must be a finite number > 0") }
        guard let status = GalleryImage.Status(rawValue: try object.string("status")) else {
            throw object.invalid("status", "must be \"ok\" or \"failed\"")
        }
        var image = GalleryImage(
            id: try object.uuid("id"),
            url: url,
            aspectRatio: aspectRatio,
            width: try object.optionalPositiveInteger("width"),
            height: try object.optionalPositiveInteger("height"),
            status: status,
            error: try object.optionalString("error"),
            cached: try object.optionalObject("cached").map(cached),
            thumbnail: try object.optionalString("thumbnail"),
            caption: try object.optionalString("caption"),
            added: try object.date("added")
        )
        image.unknownFields = object.unknownFields(known: imageKeys)
        return image
    }

    private static func cached(_ object: Fields) throws -> CachedImage {
        let sha256 = try object.string("sha256")
        guard sha256.count == 64, sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw object.invalid("sha256", "must be 64 lowercase hex digits")
        }
        let path = try object.string("path")
        guard path.hasPrefix(BundleLayout.imagesFolder) else { throw object.invalid("path", "must name an entry under images/") }
        try BundleLayout.checkName(path)
        let bytes = try object.integer("bytes")
        guard bytes >= 0 else { throw object.invalid("bytes", "must be ≥ 0") }
        var cached = CachedImage(path: path, sha256: sha256, bytes: Int64(bytes), mediaType: try object.string("mediaType"))
        cached.unknownFields = object.unknownFields(known: cachedKeys)
        return cached
    }

    private static func encode(_ image: GalleryImage) -> JSONValue {
        var fields = image.unknownFields
        fields["id"] = .string(image.id.uuidString.lowercased())
        fields["url"] = .string(image.url.absoluteString)
        fields["aspectRatio"] = .number(image.aspectRatio)
        fields["width"] = image.width.map { .integer(Int64($0)) } ?? .null
        fields["height"] = image.height.map { .integer(Int64($0)) } ?? .null
        fields["status"] = .string(image.status.rawValue)
        fields["error"] = image.error.map(JSONValue.string) ?? .null
        fields["cached"] = image.cached.map(encode) ?? .null
        fields["thumbnail"] = image.thumbnail.map(JSONValue.string) ?? .null
        fields["caption"] = image.caption.map(JSONValue.string) ?? .null
        fields["added"] = .string(RFC3339.string(from: image.added))
        return .object(fields)
    }

    private static func encode(_ cached: CachedImage) -> JSONValue {
        var fields = cached.unknownFields
        fields["path"] = .string(cached.path)
        fields["sha256"] = .string(cached.sha256)
        fields["bytes"] = .integer(cached.bytes)
        fields["mediaType"] = .string(cached.mediaType)
        return .object(fields)
    }
}

/// The manifest's JSON, with an over-long `images` array refused before any of it is decoded
/// (spec §limits): decoding is the expensive part, so the count comes first.
private struct TopLevel: Decodable {
    static let maximumImages = CodingUserInfoKey(rawValue: "GalleryKit.maximumImages")!

    let value: JSONValue

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            value = try JSONValue(from: decoder)  // not an object: the field checks say so
            return
        }
        let limit = decoder.userInfo[Self.maximumImages] as? Int ?? .max
        // A newer major version is reported as such, whatever else it breaks.
        if let version = try? container.decode(String.self, forKey: Key(stringValue: "formatVersion")) {
            try Manifest.checkVersion(version)
        }
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys {
            if key.stringValue == "images", let count = try? container.nestedUnkeyedContainer(forKey: key).count, count > limit {
                throw GalleryError(.limitExceeded, "manifest.json lists \(count) images; the limit is \(limit)")
            }
            fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        value = .object(fields)
    }
}

/// One JSON object of the manifest, read field by field with errors that name the field.
private struct Fields {
    let values: [String: JSONValue]
    let location: String

    init(_ value: JSONValue, at location: String) throws {
        guard case .object(let values) = value else {
            throw GalleryError(.damagedDocument, "manifest.json: \(location) must be an object")
        }
        self.values = values
        self.location = location
    }

    func invalid(_ key: String, _ problem: String) -> GalleryError {
        let place = location == "manifest.json" ? key : "\(location).\(key)"
        return GalleryError(.damagedDocument, "manifest.json: \(place) \(problem)")
    }

    private func required(_ key: String) throws -> JSONValue {
        guard let value = values[key] else { throw invalid(key, "is missing") }
        return value
    }

    func string(_ key: String) throws -> String {
        guard case .string(let value) = try required(key) else { throw invalid(key, "must be a string") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw invalid(key, "must be a string or null")
        }
    }

    func integer(_ key: String) throws -> Int {
        switch try required(key) {
        case .integer(let value) where Int(exactly: value) != nil: return Int(value)
        case .number(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
        default: throw invalid(key, "must be an integer")
        }
    }

    /// An integer that may be left out (but not null).
    func optionalInteger(_ key: String) throws -> Int? {
        values[key] == nil ? nil : try integer(key)
    }

    func optionalPositiveInteger(_ key: String) throws -> Int? {
        guard let value = values[key], value != .null else { return nil }
        let integer = try integer(key)
        guard integer > 0 else { throw invalid(key, "must be > 0 or null") }
        return integer
    }

    func number(_ key: String) throws -> Double {
        switch try required(key) {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: throw invalid(key, "must be a number")
        }
    }

    func array(_ key: String) throws -> [JSONValue] {
        guard case .array(let value) = try required(key) else { throw invalid(key, "must be an array") }
        return value
    }

    func optionalObject(_ key: String) throws -> Fields? {
        guard let value = values[key], value != .null else { return nil }
        guard case .object = value else { throw invalid(key, "must be an object or null") }
        return try Fields(value, at: location == "manifest.json" ? key : "\(location).\(key)")
    }

    func uuid(_ key: String) throws -> UUID {
        guard let value = UUID(uuidString: try string(key)) else { throw invalid(key, "must be a UUID") }
        return value
    }

    func date(_ key: String) throws -> Date {
        guard let value = RFC3339.date(from: try string(key)) else { throw invalid(key, "must be an RFC 3339 date-time") }
        return value
    }

    func unknownFields(known: Set<String>) -> [String: JSONValue] {
        values.filter { !known.contains($0.key) }
    }
}

/// RFC 3339 timestamps: written in UTC with whole seconds, read with fractions and offsets.
enum RFC3339 {
    static func string(from date: Date) -> String {
        Date.ISO8601FormatStyle().format(date)
    }

    static func date(from string: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(string) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string)
    }
}
