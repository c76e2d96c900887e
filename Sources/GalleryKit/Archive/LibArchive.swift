internal import CArchive
import Foundation

/// The one place where libarchive's return codes become Swift errors.
///
/// The archive layer knows nothing of galleries: its errors carry no file name; the bundle
/// layer above attributes them to the document.
enum LibArchive {
    /// Throws unless `status` is `ARCHIVE_OK`.
    ///
    /// Warnings are failures here: libarchive reports size and CRC mismatches of a damaged zip
    /// only as `ARCHIVE_WARN`, and a reader that carries on would trust corrupt bytes.
    static func check(_ status: Int32, _ archive: OpaquePointer, _ operation: String) throws {
        guard status != ARCHIVE_OK else { return }
        throw error(archive, operation)
    }

    /// The error libarchive last recorded for `archive`.
    static func error(_ archive: OpaquePointer, _ operation: String) -> GalleryError {
        let message = archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
        return GalleryError(.damagedDocument, "\(operation): \(message)", detail: message)
    }

    /// A failed write: the system's reason when there is one ("no space left on device"), which
    /// says more than libarchive's own "Write error".
    static func writeError(_ archive: OpaquePointer, _ operation: String) -> GalleryError {
        let number = archive_errno(archive)
        guard number > 0, number != EINVAL, number != EILSEQ else {
            return GalleryError(.ioFailure, error(archive, operation).reason)
        }
        return systemError(number, operation)
    }

    /// A failed read or write of the archive's file (`errno` `number`), as the system words it
    /// ("input/output error").
    static func systemError(_ number: Int32, _ operation: String) -> GalleryError {
        GalleryError(.ioFailure, "\(operation): \(String(cString: strerror(number)).lowercased())")
    }
}
