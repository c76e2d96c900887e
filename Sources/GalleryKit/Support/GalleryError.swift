import Foundation

/// The one error GalleryKit throws.
///
/// Its description is a single line a person can act on, naming the file it concerns:
/// `Trip.gallery: not a gallery document (manifest.json is missing)`.
public struct GalleryError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is; stable, so a front end can map it to an exit status or a UI state.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Value: String, Sendable {
            case invalidArgument
            case damagedDocument
            case unsafeArchive
            case limitExceeded
            case unsupportedVersion
            case notAnImage
            case fileNotFound
            case alreadyExists
            case cannotCreate
            case ioFailure
            case busy
            case documentChanged
        }

        let value: Value

        /// A request that cannot be carried out as given: an index out of range, a bad column count.
        public static let invalidArgument = Code(value: .invalidArgument)
        /// The document or data is damaged or does not follow the format.
        public static let damagedDocument = Code(value: .damagedDocument)
        /// The archive holds something a reader must never act on: an unsafe name, a link, an encrypted entry.
        public static let unsafeArchive = Code(value: .unsafeArchive)
        /// The archive is over one of the format's limits (manifest size, image count, inflation ratio).
        public static let limitExceeded = Code(value: .limitExceeded)
        /// The document was written in a newer major version of the format.
        public static let unsupportedVersion = Code(value: .unsupportedVersion)
        /// A file given as an image is not one libvips can read.
        public static let notAnImage = Code(value: .notAnImage)
        /// An input file does not exist.
        public static let fileNotFound = Code(value: .fileNotFound)
        /// The output exists already and would be overwritten.
        public static let alreadyExists = Code(value: .alreadyExists)
        /// The output cannot be created (permissions, missing folder).
        public static let cannotCreate = Code(value: .cannotCreate)
        /// Reading or writing failed part way.
        public static let ioFailure = Code(value: .ioFailure)
        /// Another process holds the document's lock.
        public static let busy = Code(value: .busy)
        /// The document changed on disk since it was opened.
        public static let documentChanged = Code(value: .documentChanged)

        /// The code's name, as used in the conformance vectors of `Specs/Examples`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The file the error concerns, if any.
    public let path: String?
    /// Why it failed, in words for a person.
    public let reason: String
    /// What the library underneath said (libvips', libarchive's own message), for a front end's
    /// verbose or machine-readable output; never part of `description`, which is for people.
    public let detail: String?

    /// Creates an error about the file at `path`.
    public init(_ code: Code, path: String? = nil, _ reason: String, detail: String? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
        self.detail = detail
    }

    /// Creates an error about the file at `url`.
    public init(_ code: Code, url: URL, _ reason: String, detail: String? = nil) {
        self.init(code, path: FileLocation.displayPath(of: url), reason, detail: detail)
    }

    /// Errors are the same when they say the same to a person: the detail underneath may vary
    /// with the library's version.
    public static func == (left: GalleryError, right: GalleryError) -> Bool {
        left.code == right.code && left.path == right.path && left.reason == right.reason
    }

    /// The one line for a person: the path, then the reason (`Trip.gallery: no such document`).
    public var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }

    /// The same error, about another file, unless it already names one.
    func about(_ path: String) -> GalleryError {
        self.path == nil ? GalleryError(code, path: path, reason, detail: detail) : self
    }

    /// The same error, about `url`, unless it already names a file.
    func about(_ url: URL) -> GalleryError { about(FileLocation.displayPath(of: url)) }
}

extension GalleryError {
    /// Runs `body`, attributing any `GalleryError` it throws without a file to `url`.
    static func attributing<T>(to url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GalleryError {
            throw error.about(url)
        }
    }

    /// `system(_:url:errno:)` for a `FileLocation` call's failure.
    static func system(_ operation: String, url: URL, _ error: SystemError) -> GalleryError {
        system(operation, url: url, errno: error.code)
    }

    /// Runs a `FileLocation` call; its failure is the error saying what could not be done to
    /// `url` — with `existing` as the reason of an `.alreadyExists`, if given, when something has
    /// the name already.
    static func system<T>(
        _ operation: String, url: URL, ifExists existing: String? = nil, _ call: () throws(SystemError) -> T
    ) throws(GalleryError) -> T {
        do {
            return try call()
        } catch {
            if error == .exists, let existing { throw GalleryError(.alreadyExists, url: url, existing) }
            throw system(operation, url: url, error)
        }
    }

    /// An error from a failed system call, with errno turned into words and the right code.
    static func system(_ operation: String, url: URL, errno number: Int32 = errno) -> GalleryError {
        let message = String(cString: strerror(number))
        switch number {
        case ENOENT:
            return GalleryError(.fileNotFound, url: url, "\(operation): \(message)")
        case EACCES, EPERM, EROFS, ENOTDIR, EISDIR:
            return GalleryError(.cannotCreate, url: url, "\(operation): \(message)")
        case EEXIST:
            return GalleryError(.alreadyExists, url: url, "\(operation): \(message)")
        default:
            return GalleryError(.ioFailure, url: url, "\(operation): \(message)")
        }
    }
}
