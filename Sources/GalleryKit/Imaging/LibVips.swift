internal import CVipsShim
import Foundation

/// The one place libvips is called from Swift: start-up, error buffer, image ownership.
enum LibVips {
    /// Starts libvips once per process, from whichever thread gets here first (swift_once).
    static let start: Result<Void, GalleryError> = {
        guard gallerykit_vips_start() == 0 else {
            return .failure(GalleryError(.ioFailure, "libvips could not start: \(takeError())"))
        }
        return .success(())
    }()

    /// The message libvips recorded last, with the buffer cleared for the next call.
    static func takeError() -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        gallerykit_vips_take_error(&buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let message = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown libvips error" : message.replacingOccurrences(of: "\n", with: "; ")
    }
}

/// A libvips image, released exactly once. Not `Sendable`.
final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Opens `url` for header access only: no pixels are decoded for JPEG, PNG or WebP.
    init(headerOf url: URL) throws {
        try LibVips.start.get()
        guard let pointer = gallerykit_vips_open_header(url.path) else {
            throw GalleryError(.notAnImage, url: url, "not an image libvips can read (\(LibVips.takeError()))")
        }
        self.pointer = pointer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    /// Whether EXIF orientation turns the image by 90° or 270° for display.
    var swapsWidthAndHeight: Bool { vips_image_get_orientation_swap(pointer) != 0 }

    /// The loader libvips picked, e.g. `jpegload`.
    var loader: String? {
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, "vips-loader", &value) == 0, let value else { return nil }
        return String(cString: value)
    }
}

extension LibVips {
    /// Copies a buffer libvips allocated into `Data` and frees it.
    static func takeBuffer(_ buffer: UnsafeMutableRawPointer?, length: Int) -> Data {
        defer { gallerykit_vips_free(buffer) }
        guard let buffer else { return Data() }
        return Data(bytes: buffer, count: length)
    }
}
