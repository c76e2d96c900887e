import Foundation

/// The rules an image's members (and its `cached` record's) must meet (spec §5.3), in one place for both readers of them:
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

    /// `cached.sha256`: 64 lowercase hex digits.
    @inline(__always)
    static func isSHA256(utf8 text: some Collection<UInt8>) -> Bool {
        // On the bytes, in place when they are contiguous (a native string's are): Character's
        // isHexDigit and isUppercase cost about 10% of a listing, and String's UTF-8 view's
        // iterator 2,300 instructions for the 64 digits.
        text.count == 64
            && (text.withContiguousStorageIfAvailable { $0.allSatisfy(isLowercaseHexDigit) }
                ?? text.allSatisfy(isLowercaseHexDigit))
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `cached.path`: a valid entry name (`BundleLayout.checkName`) under `images/`.
    static func isCachedPath(_ path: String) -> Bool {
        path.hasPrefix(BundleLayout.imagesFolder) && (try? BundleLayout.checkName(path)) != nil
    }
}
