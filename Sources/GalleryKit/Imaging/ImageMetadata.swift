internal import CVipsShim
import Foundation

/// What an image file says of itself: who made it and under what terms, its title and
/// description, and the photo's basics (when it was taken, the camera, the exposure).
///
/// Read from the header alone, through libvips: XMP (`xmp-data`), IPTC (`iptc-data`) and EXIF
/// (`exif-ifd0-*`, `exif-ifd2-*`). For each value XMP comes before IPTC, and IPTC before EXIF,
/// as the IPTC Photo Metadata Standard and the Metadata Working Group ask of a reader.
public struct ImageMetadata: Sendable, Equatable {
    /// Creator, copyright, credit and licence, as the file gives them (no `source`: a file does
    /// not know where it was found).
    public var attribution = Attribution()
    /// The image's title (XMP `dc:title`, IPTC Object Name).
    public var title: String?
    /// The image's description (XMP `dc:description`, IPTC Caption-Abstract, EXIF
    /// ImageDescription): a caption, for an image that has none.
    public var description: String?
    /// When the photo was taken, as EXIF writes it (`2026:07:14 18:03:11`).
    public var taken: String?
    /// The camera: make and model ("FUJIFILM X-T5").
    public var camera: String?
    /// The exposure, as libexif shows it ("1/250 sec. · f/8.0 · ISO 200 · 35.0 mm").
    public var exposure: String?

    /// Metadata with nothing in it.
    public init() {}

    /// The metadata of the image file at `url`.
    /// - Throws: `.notAnImage` if libvips cannot read the file.
    public static func read(fromFileAt url: URL) throws -> ImageMetadata {
        try GalleryError.attributing(to: url) {
            try fields { names, values, lengths in
                FileLocation.withPath(of: url) { path in
                    gallerykit_vips_metadata(path, nil, 0, names, Int32(fieldNames.count), values, lengths)
                }
            }
        }
    }

    /// The metadata of an image held in memory.
    /// - Throws: `.notAnImage` if libvips cannot read the bytes.
    public static func read(from image: Data) throws -> ImageMetadata {
        try image.withUnsafeBytes { bytes in
            try fields { names, values, lengths in
                gallerykit_vips_metadata(nil, bytes.baseAddress, bytes.count, names, Int32(fieldNames.count), values, lengths)
            }
        }
    }

    /// The fields asked of libvips, in the order `init(fields:)` reads them.
    private static let fieldNames = [
        "xmp-data", "iptc-data", "exif-ifd0-Artist", "exif-ifd0-Copyright", "exif-ifd0-ImageDescription",
        "exif-ifd0-Make", "exif-ifd0-Model", "exif-ifd2-DateTimeOriginal", "exif-ifd2-ExposureTime", "exif-ifd2-FNumber",
        "exif-ifd2-ISOSpeedRatings", "exif-ifd2-FocalLength",
    ]

    private static func fields(
        _ call: (UnsafePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws -> ImageMetadata {
        try LibVips.start.get()
        let names = fieldNames.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let found: [String: Data]
        do {
            found = try LibVips.run { () -> [String: Data]? in
                var values = [UnsafeMutableRawPointer?](repeating: nil, count: fieldNames.count)
                var lengths = [Int](repeating: 0, count: fieldNames.count)
                let status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in call(names.baseAddress!, &values, &lengths)
                }
                guard status == 0 else { return nil }
                var found: [String: Data] = [:]
                for (index, value) in values.enumerated() where value != nil {
                    found[fieldNames[index]] = LibVips.takeBuffer(value, length: lengths[index])
                }
                return found
            }
        } catch {
            throw GalleryError(.notAnImage, "is not an image this program can read", detail: error.message)
        }
        return ImageMetadata(fields: found)
    }

    /// The metadata in libvips' fields, by name.
    init(fields: [String: Data]) {
        let xmp = fields["xmp-data"].map { XMPPacket(String(decoding: $0, as: UTF8.self)) }
        let iptc = fields["iptc-data"].map(IPTCRecord.init) ?? IPTCRecord(Data())
        func exif(_ name: String) -> String? { fields[name].flatMap { EXIFText.value(of: String(decoding: $0, as: UTF8.self)) } }
        func shown(_ name: String) -> String? { fields[name].flatMap { EXIFText.shown(String(decoding: $0, as: UTF8.self)) } }
        attribution.creator = xmp?.first("dc:creator") ?? iptc[.byline] ?? exif("exif-ifd0-Artist")
        attribution.copyright = xmp?.first("dc:rights") ?? iptc[.copyrightNotice] ?? exif("exif-ifd0-Copyright")
        attribution.credit = xmp?.first("photoshop:Credit") ?? iptc[.credit]
        attribution.license = xmp?.first("xmpRights:WebStatement")
        title = xmp?.first("dc:title") ?? iptc[.objectName]
        description = xmp?.first("dc:description") ?? iptc[.caption] ?? exif("exif-ifd0-ImageDescription")
        taken = exif("exif-ifd2-DateTimeOriginal")
        let make = exif("exif-ifd0-Make"), model = exif("exif-ifd0-Model")
        // Most models repeat the make ("Canon" "Canon EOS R6"): said once.
        if let make, let model, model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make) {
            camera = model
        } else {
            camera = [make, model].compactMap { $0 }.joined(separator: " ").nilIfEmpty
        }
        let parts = [
            shown("exif-ifd2-ExposureTime"), shown("exif-ifd2-FNumber"), exif("exif-ifd2-ISOSpeedRatings").map { "ISO \($0)" },
            shown("exif-ifd2-FocalLength"),
        ]
        exposure = parts.compactMap { $0 }.joined(separator: " · ").nilIfEmpty
    }
}

extension ImageMetadata {
    /// The caption the image brings: its description, unless that is a camera's own filler
    /// ("OLYMPUS DIGITAL CAMERA", "SONY DSC"), cut to a caption's length.
    public var caption: String? {
        guard let description else { return nil }
        let upper = description.uppercased()
        if upper == description, upper.hasSuffix("CAMERA") || upper.hasSuffix(" DSC") || upper == "DSC" { return nil }
        return String(description.prefix(Gallery.maximumTextLength))
    }
}

extension Attribution {
    /// This attribution with each text cut to `Gallery.maximumTextLength` characters, as a
    /// person's edit is held to; `nil` when it is empty.
    var limited: Attribution? {
        guard !isEmpty else { return nil }
        func cut(_ text: String?) -> String? { text.map { String($0.prefix(Gallery.maximumTextLength)) } }
        return Attribution(
            creator: cut(creator), copyright: cut(copyright), credit: cut(credit), license: cut(license), source: cut(source))
    }
}

extension String {
    /// `nil` for an empty string, or one of spaces alone.
    var nilIfEmpty: String? { trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : self }
}

/// The value in libvips' text for an EXIF field, which it writes as the raw value, then libexif's
/// way of showing it and the field's format in parentheses:
/// `1/250 (1/250 sec., Rational, 1 components, 8 bytes)`, and for a copyright
/// `© Ana (© Ana (Photographer) - [None] (Editor), ASCII, 6 components, 6 bytes)`.
enum EXIFText {
    /// The raw value: `Ana Lima`, `1/250`.
    static func value(of text: String) -> String? { parts(of: text).raw }

    /// libexif's way of showing it: `1/250 sec.`, `f/8.0`, `35.0 mm`.
    static func shown(_ text: String) -> String? { parts(of: text).shown }

    private static func parts(of text: String) -> (raw: String?, shown: String?) {
        guard let suffix = text.firstMatch(of: /, [A-Za-z ]+, \d+ components?, \d+ bytes?\)$/) else {
            return (clean(text[...]), clean(text[...]))
        }
        let inner = text[..<suffix.range.lowerBound]
        // The raw value may hold " (" itself ("Studio (Berlin)"): the split is the first after
        // which the shown value starts with the raw one, else the first.
        let splits = inner.ranges(of: " (")
        let split = splits.first { inner[$0.upperBound...].hasPrefix(inner[..<$0.lowerBound]) } ?? splits.first
        guard let split else { return (clean(inner), clean(inner)) }
        return (clean(inner[..<split.lowerBound]), clean(inner[split.upperBound...]))
    }

    private static func clean(_ text: Substring) -> String? {
        text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))).nilIfEmpty
    }
}
