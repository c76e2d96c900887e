import Foundation
import GalleryKit

/// The documented exit statuses (sysexits.h), in one place.
enum ExitStatus {
    /// The document was saved, but some web images could not be fetched (each is listed on stderr).
    static let someImagesFailed: Int32 = 2
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let busy: Int32 = 75

    static func status(for code: GalleryError.Code) -> Int32 {
        switch code {
        case .invalidArgument: usage
        case .fileNotFound: noInput
        case .alreadyExists, .cannotCreate: cannotCreate
        case .ioFailure: ioError
        case .busy, .documentChanged: busy
        default: dataError
        }
    }

    /// Prints `gallery: error: <file>: <reason>` on stderr and exits with the error's status.
    static func fail(with error: GalleryError) -> Never {
        FileHandle.standardError.write(Data("gallery: error: \(error)\n".utf8))
        exit(status(for: error.code))
    }
}
