import Foundation

/// The rules an image's members must meet (spec §5.3), in one place for both readers of them:
/// `Manifest.image`, which checks any image member by member and says what is wrong, and the
/// manifest parser's fast path for images in the form writers give them
/// (`ManifestParser.readImageInWritersForm`), which takes an image only when every rule holds.
enum ImageRules {
    /// `url`: an absolute URL (one with a scheme).
    @inline(__always)
    static func url(_ text: String) -> URL? {
        URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }
    }

    /// `aspectRatio`: a finite number greater than 0.
    @inline(__always)
    static func isAspectRatio(_ value: Double) -> Bool {
        value.isFinite && value > 0
    }

    /// `status`: `ok` or `failed`, from the string's bytes.
    @inline(__always)
    static func status(utf8 text: some Sequence<UInt8>) -> GalleryImage.Status? {
        text.elementsEqual("ok".utf8) ? .ok : text.elementsEqual("failed".utf8) ? .failed : nil
    }

    /// `width` and `height`: an integer greater than 0.
    @inline(__always)
    static func size(_ value: Int64) -> Int? {
        value > 0 ? Int(exactly: value) : nil
    }
}
