internal import CVipsShim
import Foundation

/// The one place libvips is called from Swift: start-up, error buffer, headers, buffers.
///
/// libvips is loaded (`dlopen`) the first time an image is probed or thumbnailed — not linked —
/// so commands that decode no image (open, browse, verify, most edits) never pay for its
/// shared libraries (about 25 ms at every start).
enum LibVips {
    /// Loads and starts libvips once per process, from whichever thread gets here first (swift_once).
    static let start: Result<Void, GalleryError> = {
        guard gallerykit_vips_start() == 0 else {
            return .failure(GalleryError(.ioFailure, "libvips could not start: \(takeError())"))
        }
        return .success(())
    }()

    /// Whether libvips is loaded in this process.
    static var isLoaded: Bool { gallerykit_vips_is_loaded() != 0 }

    /// Whether libvips runs run-time generated vector code (liborc), which start-up turns off:
    /// thumbnails made on several threads at once crashed in it.
    static var runsVectorCode: Bool { gallerykit_vips_vector_is_enabled() != 0 }

    /// Why an image whose header was read could not be decoded, in a person's words; libvips'
    /// own message ("VipsJpeg: Premature end of JPEG file") goes in the error's detail.
    static let undecodable = "its data could not be decoded (the file may be damaged or cut short)"

    /// Why a libvips call failed, in libvips' words.
    struct Failure: Error {
        var message: String
    }

    /// Runs `call`, a shim call that gives `nil` when it fails, and gives its result or throws
    /// libvips' message for that call alone.
    ///
    /// libvips keeps one error buffer for the whole process: a message taken after a failure
    /// could be another thread's, or gone, taken and cleared by it (thumbnails and contact sheet
    /// cells are made on several threads, and `gallery serve` serves several requests at once).
    /// So calls run at once, sharing `errorBufferLock`; a call that fails runs again holding it
    /// alone, from an empty buffer, and what that run recorded is its message and nobody else's.
    /// Failures are rare (a file that is not an image) and then cheap; a success pays only for
    /// the shared lock.
    static func run<T>(_ call: () -> T?) throws(Failure) -> T {
        if let result = errorBufferLock.withShared(call) { return result }
        return try errorBufferLock.withExclusive { () throws(Failure) -> T in
            gallerykit_vips_take_error(nil, 0)
            if let result = call() { return result }
            throw Failure(message: takeError())
        }
    }

    private static let errorBufferLock = SharedLock()

    /// The message libvips recorded, with the buffer cleared: only where no other call can run
    /// (start-up, or holding `errorBufferLock` alone).
    private static func takeError() -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        gallerykit_vips_take_error(&buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let message = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown libvips error" : message.replacingOccurrences(of: "\n", with: "; ")
    }

    /// What the header of an image file says, as libvips stores it (before EXIF orientation).
    struct Header {
        var width: Int
        var height: Int
        /// Whether EXIF orientation turns the image by 90° or 270° for display.
        var swapsWidthAndHeight: Bool
        /// The loader libvips picked, e.g. `jpegload_source`.
        var loader: String
    }

    /// Reads the header of `url` only: no pixels are decoded for JPEG, PNG or WebP.
    static func header(of url: URL) throws -> Header {
        try GalleryError.attributing(to: url) { try start.get() }
        do {
            return try run {
                FileLocation.withPath(of: url) { path in readHeader { gallerykit_vips_header(path, nil, 0, $0, $1, $2, $3, $4) } }
            }
        } catch {
            throw GalleryError(.notAnImage, url: url, ImageProbe.whyNotAnImage(fileAt: url), detail: error.message)
        }
    }

    /// Reads the header of an image held in memory (a thumbnail entry of a document).
    static func header(of image: Data) throws -> Header {
        try start.get()
        do {
            return try run {
                image.withUnsafeBytes { bytes in
                    readHeader { gallerykit_vips_header(nil, bytes.baseAddress, bytes.count, $0, $1, $2, $3, $4) }
                }
            }
        } catch {
            throw GalleryError(.notAnImage, ImageProbe.whyNotAnImage(image.prefix(ImageProbe.sniffedBytes)), detail: error.message)
        }
    }

    /// Runs a shim call that reads a header into the given width, height, swap flag and loader
    /// buffer (and its capacity); `nil` if it fails.
    private static func readHeader(
        _ call: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>, Int) ->
            Int32
    ) -> Header? {
        var width: Int32 = 0, height: Int32 = 0, swaps: Int32 = 0
        var loader = [CChar](repeating: 0, count: 64)
        guard call(&width, &height, &swaps, &loader, loader.count) == 0 else { return nil }
        let name = String(decoding: loader.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Header(width: Int(width), height: Int(height), swapsWidthAndHeight: swaps != 0, loader: name)
    }

    /// Runs a shim call that makes a buffer (an encoded image) with libvips, and takes the buffer.
    static func buffer(_ call: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) throws(Failure) -> Data
    {
        try run { () -> Data? in
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            guard call(&buffer, &length) == 0 else { return nil }
            return takeBuffer(buffer, length: length)
        }
    }

    /// Copies a buffer libvips allocated into `Data` and frees it.
    static func takeBuffer(_ buffer: UnsafeMutableRawPointer?, length: Int) -> Data {
        defer { gallerykit_vips_free(buffer) }
        guard let buffer else { return Data() }
        return Data(bytes: buffer, count: length)
    }
}
