import Foundation

/// Where an image comes from: a local file, or a URL on the web (what a drop from a browser gives).
public enum ImageSource: Sendable, Hashable, CustomStringConvertible {
    /// A local file, by its `file:` URL.
    case file(URL)
    /// An `http:` or `https:` URL, already unwrapped.
    case web(URL)

    /// Classifies `url`: `file:` URLs are files; `http:` and `https:` URLs are fetched, after
    /// search-engine wrappers are removed (`WrapperURL`).
    /// - Throws: `.invalidArgument` for any other scheme, and for an upload's URL (spec §5.3),
    ///   which names no file to read.
    public init(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "file"? where url.fragment == "upload":
            throw GalleryError(
                .invalidArgument, path: url.absoluteString, "was uploaded from a browser and its bytes are not stored in the document")
        case "file"?: self = .file(url.standardizedFileURL)
        case "http"?, "https"?:
            let image = WrapperURL.unwrap(url)
            guard image.host?.isEmpty == false else {
                throw GalleryError(.invalidArgument, path: url.absoluteString, "has no host name")
            }
            self = .web(image)
        default:
            throw GalleryError(.invalidArgument, path: url.absoluteString, "is not a file, http or https URL")
        }
    }

    /// The URL the gallery records for the image.
    public var url: URL {
        switch self {
        case .file(let url), .web(let url): return url
        }
    }

    /// The file path or the URL, as a person would write it.
    public var description: String {
        switch self {
        case .file(let url): return url.path
        case .web(let url): return url.absoluteString
        }
    }
}
