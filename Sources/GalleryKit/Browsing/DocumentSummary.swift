import Foundation

/// One document in a folder listing: what its manifest says, or why it could not be read.
public struct DocumentSummary: Sendable, Equatable {
    public var url: URL
    /// The file name without `.gallery`.
    public var name: String
    public var title: String?
    public var imageCount: Int?
    public var cachedImageCount: Int?
    /// The file's size on disk.
    public var bytes: Int64
    public var modified: Date?
    public var created: Date?
    /// Why the document could not be read; the other fields are then `nil`.
    public var error: GalleryError?

    /// The orders a listing can be sorted in.
    public enum SortKey: String, Sendable, CaseIterable {
        case name, modified, created, size, images
    }

    /// Whether `text` occurs (ignoring case and accents) in the name, title or an image's caption or URL.
    func matches(_ text: String, in gallery: Gallery?) -> Bool {
        let fields = [name, title ?? ""] + (gallery?.images.flatMap { [$0.caption ?? "", $0.url.absoluteString] } ?? [])
        return fields.contains { $0.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }
}

extension [DocumentSummary] {
    /// Sorted by `key`, ties broken by name; documents that could not be read sort last.
    public func sorted(by key: DocumentSummary.SortKey, reverse: Bool = false) -> [DocumentSummary] {
        sorted { first, second in
            if (first.error == nil) != (second.error == nil) { return first.error == nil }
            let order: Bool? = switch key {
            case .name: nil
            case .modified: first.modified == second.modified ? nil : (first.modified ?? .distantPast) < (second.modified ?? .distantPast)
            case .created: first.created == second.created ? nil : (first.created ?? .distantPast) < (second.created ?? .distantPast)
            case .size: first.bytes == second.bytes ? nil : first.bytes < second.bytes
            case .images: first.imageCount == second.imageCount ? nil : (first.imageCount ?? 0) < (second.imageCount ?? 0)
            }
            let byName = first.name.localizedStandardCompare(second.name) == .orderedAscending
                || (first.name == second.name && first.url.path < second.url.path)
            return (order ?? byName) != reverse
        }
    }
}
