import Foundation

/// Reads and writes `manifest.json` (spec §manifest), keeping every field it does not know.
///
/// The JSON is first read — the top level and each image member by member (`ObjectMembers`), a
/// revision's state as a `JSONValue` tree — and then checked field by field by the same rules, so
/// an error can say exactly which field is wrong (`images[3].aspectRatio must be a number > 0`).
enum Manifest {
    static let format = "gallery"
    /// The version this writer writes; any 1.x is read.
    static let formatVersion = "1.1"
    static let supportedMajorVersion = 1

    /// Decodes a manifest.
    /// - Throws: `.damagedDocument` for JSON that is not a valid manifest, `.unsupportedVersion`
    ///   for format version 2 and later, `.limitExceeded` for too many images.
    /// - Complexity: O(size of the JSON).
    static func decode(_ data: Data, limits: BundleLimits = .standard) throws -> Gallery {
        try decode(data, limits: limits, parsing: limits.parsing)
    }

    /// `decode` with the parser's settings given: tests and the fuzz target have small manifests
    /// read in pieces, as only big ones are otherwise.
    static func decode(_ data: Data, limits: BundleLimits, parsing: ManifestParser.Limits) throws -> Gallery {
        // Images are made as they are read, by the worker that read them; one that is not valid
        // is checked again later, in the manifest's order, for its error.
        let members = try ManifestParser.parseMembers(data, limits: parsing) { members in try? image(Fields(members, at: .image(0))) }
        guard let members else { throw notAnObject }
        return try gallery(from: members, limits: limits)
    }

    /// The gallery a manifest's JSON tree describes (a revision's state), checked field by field.
    static func gallery(from root: JSONValue, limits: BundleLimits = .standard) throws -> Gallery {
        guard case .object(let values) = root else { throw notAnObject }
        var members = ManifestParser.Members(topLevel: ObjectMembers(values), images: nil)
        if case .array(let images)? = values["images"] {
            members.images = [
                images.map { image in
                    guard case .object(let values) = image else { return .other(image) }
                    return .object(ObjectMembers(values))
                }
            ]
        }
        return try gallery(from: members, limits: limits)
    }

    private static let notAnObject = GalleryError(.damagedDocument, "manifest.json: manifest.json must be an object")

    private static func gallery(from manifest: consuming ManifestParser.Members, limits: BundleLimits) throws -> Gallery {
        let object = Fields(manifest.topLevel, at: .manifest)
        guard try object.string(.format) == format else {
            throw GalleryError(.damagedDocument, "manifest.json: format must be \"gallery\"")
        }
        try checkVersion(try object.string(.formatVersion))

        _ = try object.array(.images)
        var gallery = Gallery(id: try object.uuid(.id))
        gallery.title = try object.string(.title)
        gallery.created = try object.date(.created).wholeSeconds
        gallery.modified = try object.date(.modified).wholeSeconds
        gallery.generator = try object.string(.generator)
        gallery.columns = try object.optionalInteger(.columns) ?? Gallery.defaultColumns
        guard Gallery.columnRange.contains(gallery.columns) else {
            throw object.invalid(.columns, "must be from \(Gallery.columnRange.lowerBound) to \(Gallery.columnRange.upperBound)")
        }
        gallery.attribution = try object.optionalObject(.attribution, of: AttributionMember.self).map(attribution)
        gallery.images = try images(from: manifest.images.take() ?? [])
        if let offset = firstRepeatedID(in: gallery.images) {
            throw GalleryError(.damagedDocument, "manifest.json: images[\(offset)].id repeats an earlier image's id")
        }
        gallery.unknownFields = object.unknownFields
        return gallery
    }

    /// The offset of the first image whose id an earlier image has, if any.
    ///
    /// Each worker keeps the ids whose first bits fall to it (random in generated ids; at worst
    /// all in one worker, as if serial), so equal ids meet in one worker, and the first repeat
    /// is the earliest any worker finds.
    /// - Complexity: O(n), reading only the ids (an image copied to read its id would be retained
    ///   and released: most of this check's time).
    private static func firstRepeatedID(in images: [GalleryImage]) -> Int? {
        guard images.count > 1 else { return nil }
        // A small gallery, every listed one, is checked here: a worker pool costs more than its ids.
        if images.count < 4096 {
            var seen = Set<UInt128>(minimumCapacity: images.count)
            return images.indices.first { !seen.insert(images[$0].id.bits).inserted }
        }
        let workers = ProcessorCount.active
        let repeats = ResultSlots<Int?>(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var seen = Set<UInt128>(minimumCapacity: images.count / workers + 16)
            for offset in images.indices {
                let bits = images[offset].id.bits
                guard (Int(truncatingIfNeeded: bits >> 64) & Int.max) % workers == worker else { continue }
                guard seen.insert(bits).inserted else {
                    repeats[worker] = .success(offset)
                    return
                }
            }
            repeats[worker] = .success(nil)
        }
        return (try? repeats.values())?.compactMap { $0 }.min()
    }

    /// Encodes a manifest: sorted keys, compact (spec §5.7), so equal galleries give equal bytes.
    static func encode(_ gallery: Gallery) throws -> Data {
        try serialize(json(of: gallery))
    }

    /// A gallery's manifest as a JSON tree, unknown members included.
    static func json(of gallery: Gallery) -> JSONValue {
        var fields = gallery.unknownFields
        fields["format"] = .string(format)
        fields["formatVersion"] = .string(formatVersion)
        fields["id"] = .string(gallery.id.lowercasedText)
        fields["title"] = .string(gallery.title)
        fields["created"] = .string(RFC3339.string(from: gallery.created))
        fields["modified"] = .string(RFC3339.string(from: gallery.modified))
        fields["generator"] = .string(gallery.generator)
        fields["columns"] = .integer(Int64(gallery.columns))
        fields["images"] = .array(gallery.images.map(encode))
        if let attribution = gallery.attribution, !attribution.isEmpty { fields["attribution"] = attribution.json }
        return .object(fields)
    }

    /// `json(of: gallery)` made from `tree`, the manifest of the same gallery before a save gave
    /// it a new `modified` and `generator`: without building every image's object again.
    /// `nil` if `tree` is not an object.
    static func json(of gallery: Gallery, restamping tree: JSONValue) -> JSONValue? {
        guard case .object(var fields) = tree else { return nil }
        fields["modified"] = .string(RFC3339.string(from: gallery.modified))
        fields["generator"] = .string(gallery.generator)
        return .object(fields)
    }

    /// JSON bytes in the form of spec §5.7: sorted keys, compact, `/` not escaped.
    static func serialize(_ value: JSONValue) throws -> Data {
        value.serialized(.compact)
    }

    /// Spec §compatibility: any 1.x is read; 2.x and later changed something a 1.x reader would get wrong.
    static func checkVersion(_ version: String) throws {
        // The version this writer writes, nearly every document's: no need to take it apart.
        if version == formatVersion { return }
        let parts = version.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // Plain decimal numbers only: "1.0", "1.12"; not "01.0", "+1.0" or "1.-1".
        func isNumber(_ part: Substring.UTF8View.SubSequence) -> Bool {
            !part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) } && (part.count == 1 || part.first != UInt8(ascii: "0"))
        }
        guard parts.count == 2, parts.allSatisfy(isNumber), let major = Int(Substring(parts[0])), major >= 1 else {
            throw GalleryError(.damagedDocument, "manifest.json: formatVersion \(version.debugDescription) is not MAJOR.MINOR")
        }
        guard major == supportedMajorVersion else {
            throw GalleryError(
                .unsupportedVersion,
                "uses format version \(version); this version of GalleryKit reads 1.x — update GalleryKit to open it"
            )
        }
    }

    /// The images, checked and made on several threads when there are many: a piece per worker
    /// when the array was read in pieces (each worker then also frees the members it read), else
    /// a chunk per core from 4,096 images on. In a big gallery, parsing URLs, UUIDs and dates is
    /// most of decoding, and no image's depends on another's.
    /// - Throws: the first image's error, in the images' order.
    private static func images(from pieces: consuming [[ManifestParser.Members.Image]]) throws -> [GalleryImage] {
        if pieces.allSatisfy({ $0.allSatisfy(\.isChecked) }) { return movingImages(outOf: &pieces) }
        guard pieces.count > 1 else { return try images(from: pieces.first ?? []) }
        let count = pieces.count
        let offsets = firstOffsets(of: pieces)
        let unchecked = ResultSlots<[ManifestParser.Members.Image]>(count: count)
        for number in pieces.indices { unchecked[number] = .success(pieces[number]) }
        pieces.removeAll()
        let slots = ResultSlots<[GalleryImage]>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { number in
            let elements = (try? unchecked[number]?.get()) ?? []
            unchecked[number] = nil  // the worker's `elements` is now their last reference
            slots[number] = Result { try elements.indices.map { try image(at: $0, of: elements, offsetInGallery: offsets[number] + $0) } }
        }
        return try slots.values().flatMap { $0 }
    }

    /// The images of pieces that the parser made into images, every one, moved into one array a
    /// piece per worker: a copy would retain each image's strings and URL, and release them again
    /// when the pieces are freed (a tenth of opening 100,000 images).
    private static func movingImages(outOf pieces: inout [[ManifestParser.Members.Image]]) -> [GalleryImage] {
        let offsets = firstOffsets(of: pieces)
        let total = pieces.reduce(0) { $0 + $1.count }
        // An array made with no capacity is the one empty array every thread shares, and making
        // it writes its count (0): threads listing documents without images at once raced there
        // (ThreadSanitizer).
        guard total > 0 else { return [] }
        return pieces.withUnsafeMutableBufferPointer { pieces in
            // Each worker touches only its own piece and its own part of `images`.
            nonisolated(unsafe) let pieces = pieces
            return Array(unsafeUninitializedCapacity: total) { images, count in
                if let base = images.baseAddress { HugePages.advise(base, count: total * MemoryLayout<GalleryImage>.stride) }
                nonisolated(unsafe) let images = images
                @Sendable func move(_ number: Int) {
                    pieces[number].withUnsafeMutableBufferPointer { elements in
                        for index in elements.indices {
                            let element = (elements.baseAddress! + index).move()
                            (elements.baseAddress! + index).initialize(to: .other(.null))  // holds nothing to release
                            guard case .checked(let image) = consume element else { preconditionFailure("every element is checked") }
                            (images.baseAddress! + offsets[number] + index).initialize(to: image)
                        }
                    }
                    pieces[number] = []
                }
                if pieces.count == 1 { move(0) } else { DispatchQueue.concurrentPerform(iterations: pieces.count, execute: move) }
                count = total
            }
        }
    }

    /// Where each piece's first element stands in the whole array.
    private static func firstOffsets(of pieces: [[ManifestParser.Members.Image]]) -> [Int] {
        var offsets: [Int] = []
        var next = 0
        for piece in pieces {
            offsets.append(next)
            next += piece.count
        }
        return offsets
    }

    private static func images(from elements: [ManifestParser.Members.Image]) throws -> [GalleryImage] {
        let chunks = elements.count < 4096 ? 1 : ProcessorCount.active
        guard chunks > 1 else { return try elements.indices.map { try image(at: $0, of: elements) } }
        let chunkSize = (elements.count + chunks - 1) / chunks
        let slots = ResultSlots<[GalleryImage]>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let offsets = chunk * chunkSize..<min(elements.count, (chunk + 1) * chunkSize)
            slots[chunk] = Result { try offsets.map { try image(at: $0, of: elements) } }
        }
        return try slots.values().flatMap { $0 }
    }

    private static func image(
        at index: Int, of elements: [ManifestParser.Members.Image], offsetInGallery offset: Int? = nil
    ) throws -> GalleryImage {
        let offset = offset ?? index
        switch elements[index] {
        case .checked(let image): return image
        case .object(let members): return try image(Fields(members, at: .image(offset)))
        case .other: throw GalleryError(.damagedDocument, "manifest.json: images[\(offset)] must be an object")
        }
    }

    private static func image(_ object: Fields<ImageMember>) throws -> GalleryImage {
        guard let url = ImageRules.url(try object.string(.url)) else {
            throw object.invalid(.url, "must be an absolute URL")
        }
        let aspectRatio = try object.number(.aspectRatio)
        guard ImageRules.isAspectRatio(aspectRatio) else { throw object.invalid(.aspectRatio, "must be a finite number > 0") }
        guard let status = ImageRules.status(utf8: try object.string(.status).utf8) else {
            throw object.invalid(.status, "must be \"ok\" or \"failed\"")
        }
        var image = GalleryImage(
            id: try object.uuid(.id),
            url: url,
            aspectRatio: aspectRatio,
            width: try object.optionalPositiveInteger(.width),
            height: try object.optionalPositiveInteger(.height),
            status: status,
            error: try object.optionalString(.error),
            cached: try object.optionalObject(.cached, of: CachedImageMember.self).map(cached),
            thumbnail: try object.optionalString(.thumbnail),
            caption: try object.optionalString(.caption),
            added: try object.date(.added)
        )
        image.attribution = try object.optionalObject(.attribution, of: AttributionMember.self).map(attribution)
        image.unknownFields = object.unknownFields
        return image
    }

    /// Spec §5.6: every member a string or null; the URIs are not checked (a person's text).
    private static func attribution(_ object: Fields<AttributionMember>) throws -> Attribution {
        var attribution = Attribution(
            creator: try object.optionalString(.creator), copyright: try object.optionalString(.copyright),
            credit: try object.optionalString(.credit), license: try object.optionalString(.license),
            source: try object.optionalString(.source))
        attribution.unknownFields = object.unknownFields
        return attribution
    }

    private static func cached(_ object: Fields<CachedImageMember>) throws -> CachedImage {
        let sha256 = try object.string(.sha256)
        guard ImageRules.isSHA256(utf8: sha256.utf8) else { throw object.invalid(.sha256, "must be 64 lowercase hex digits") }
        let path = try object.string(.path)
        guard path.hasPrefix(BundleLayout.imagesFolder) else { throw object.invalid(.path, "must name an entry under images/") }
        try BundleLayout.checkName(path)
        let bytes = try object.integer(.bytes)
        guard bytes >= 0 else { throw object.invalid(.bytes, "must be ≥ 0") }
        var cached = CachedImage(path: path, sha256: sha256, bytes: Int64(bytes), mediaType: try object.string(.mediaType))
        cached.unknownFields = object.unknownFields
        return cached
    }

    private static func encode(_ image: GalleryImage) -> JSONValue {
        var fields = image.unknownFields
        fields.reserveCapacity(fields.count + 11)  // grown once, not three times
        fields["id"] = .string(image.id.lowercasedText)
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
        if let attribution = image.attribution, !attribution.isEmpty { fields["attribution"] = attribution.json }
        return .object(fields)
    }

    private static func encode(_ cached: CachedImage) -> JSONValue {
        var fields = cached.unknownFields
        fields.reserveCapacity(fields.count + 4)
        fields["path"] = .string(cached.path)
        fields["sha256"] = .string(cached.sha256)
        fields["bytes"] = .integer(cached.bytes)
        fields["mediaType"] = .string(cached.mediaType)
        return .object(fields)
    }
}

/// Where an object of the manifest is, for messages; made into text only for one.
private indirect enum ObjectPlace {
    case manifest
    case image(Int)
    /// An object member of another object (an image's `cached`).
    case member(of: ObjectPlace, named: String)

    var text: String {
        switch self {
        case .manifest: "manifest.json"
        case .image(let offset): "images[\(offset)]"
        case .member(of: .manifest, named: let name): name
        case .member(of: let parent, named: let name): "\(parent.text).\(name)"
        }
    }
}

/// One JSON object of the manifest, read field by field with errors that name the field.
private struct Fields<Name: MemberName> {
    let members: ObjectMembers<Name>
    let place: ObjectPlace

    init(_ members: ObjectMembers<Name>, at place: ObjectPlace) {
        self.members = members
        self.place = place
    }

    func invalid(_ name: Name, _ problem: String) -> GalleryError {
        let field = ObjectPlace.member(of: place, named: Name.spellings.name(of: name))
        return GalleryError(.damagedDocument, "manifest.json: \(field.text) \(problem)")
    }

    private func required(_ name: Name) throws -> JSONValue {
        guard let value = members[name] else { throw invalid(name, "is missing") }
        return value
    }

    func string(_ name: Name) throws -> String {
        guard case .string(let value) = try required(name) else { throw invalid(name, "must be a string") }
        return value
    }

    func optionalString(_ name: Name) throws -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw invalid(name, "must be a string or null")
        }
    }

    func integer(_ name: Name) throws -> Int {
        switch try required(name) {
        case .integer(let value) where Int(exactly: value) != nil: return Int(value)
        case .number(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
        default: throw invalid(name, "must be an integer")
        }
    }

    /// An integer that may be left out (but not null).
    func optionalInteger(_ name: Name) throws -> Int? {
        members[name] == nil ? nil : try integer(name)
    }

    func optionalPositiveInteger(_ name: Name) throws -> Int? {
        guard let value = members[name], value != .null else { return nil }
        guard let size = ImageRules.size(Int64(try integer(name))) else { throw invalid(name, "must be > 0 or null") }
        return size
    }

    func number(_ name: Name) throws -> Double {
        switch try required(name) {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: throw invalid(name, "must be a number")
        }
    }

    func array(_ name: Name) throws -> [JSONValue] {
        guard case .array(let value) = try required(name) else { throw invalid(name, "must be an array") }
        return value
    }

    /// The object at `name` (an image's `cached` record), if not null.
    func optionalObject<Inner>(_ name: Name, of _: Inner.Type) throws -> Fields<Inner>? {
        guard let value = members[name], value != .null else { return nil }
        guard case .object(let values) = value else { throw invalid(name, "must be an object or null") }
        return Fields<Inner>(ObjectMembers(values), at: .member(of: place, named: Name.spellings.name(of: name)))
    }

    func uuid(_ name: Name) throws -> UUID {
        guard let value = UUID(text: try string(name)) else { throw invalid(name, "must be a UUID") }
        return value
    }

    func date(_ name: Name) throws -> Date {
        guard let value = RFC3339.date(from: try string(name)) else { throw invalid(name, "must be an RFC 3339 date-time") }
        return value
    }

    /// Members this version does not know, kept as read.
    var unknownFields: [String: JSONValue] { members.unknown }
}

private extension ManifestParser.Members.Image {
    var isChecked: Bool {
        if case .checked = self { true } else { false }
    }
}

private extension UUID {
    /// The 128 bits, to hash as two words instead of 16 bytes one by one.
    var bits: UInt128 { withUnsafeBytes(of: uuid) { $0.loadUnaligned(as: UInt128.self) } }
}
