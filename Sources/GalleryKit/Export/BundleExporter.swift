import Foundation

/// A self-contained copy of a document to share: every image cached (web images fetched for it),
/// no undo history.
///
/// The copy keeps the document's `modified` date, so exporting the same document twice gives
/// byte-identical files.
public struct BundleExporter: DocumentExporter {
    /// An exporter to a self-contained `.gallery`.
    public init() {}

    /// The copy is written straight from the document; nothing is staged, but its entries are
    /// checked before any web image is fetched for it.
    public var materials: ExportMaterials { .documentEntries }

    /// Writes the copy as a file in `staging`, which becomes the output.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let name = "export.gallery"
        _ = try GalleryError.attributing(to: contents.output) {
            try contents.document.write(
                contents.gallery, to: staging.appendingPathComponent(name), naming: contents.output, mode: .createNew,
                includingHistory: false)
        }
        return .file(name)
    }
}
