import Foundation

/// The images in order in a comic-book archive (`.cbz`): a zip of stored entries named `001.jpg`,
/// `002.png`, … in reading order, for the e-readers and comic viewers of every platform.
/// Failed images are left out.
public struct CBZExporter: DocumentExporter {
    /// An exporter to a `.cbz` file.
    public init() {}

    /// The images' bytes, which the archive stores as they are.
    public var materials: ExportMaterials { .images }

    /// Writes the archive as a file in `staging`, which becomes the output.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let name = "export.cbz"
        let pages = contents.items.compactMap(\.imagePath)
        let digits = max(3, String(pages.count).count)
        let members = pages.enumerated().map { offset, page in
            (entry: "\(ExportStaging.numbered(offset + 1, digits: digits)).\((page as NSString).pathExtension)", path: page)
        }
        try ExportStaging.writeStoredZip(
            members, at: staging.appendingPathComponent(name), modified: contents.gallery.modified, reportingAs: contents.output)
        return .file(name)
    }
}
