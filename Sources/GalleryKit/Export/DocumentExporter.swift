import Foundation

/// Writes a document out in some other shape. Every exporter refuses to overwrite its output and
/// leaves nothing behind when it fails.
public protocol DocumentExporter: Sendable {
    /// Exports `document` to `output`, which must not exist yet.
    /// - Throws: `.alreadyExists` if `output` exists; `.fileNotFound` if an image's file is gone.
    func export(_ document: GalleryDocument, to output: URL) throws
}
