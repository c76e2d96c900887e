import Foundation

/// The images in order in a comic-book archive (`.cbz`): a zip of stored entries named `001.jpg`,
/// `002.png`, … in reading order, for the e-readers and comic viewers of every platform.
/// Failed images are left out. When images have credits, the archive ends with a ComicInfo.xml
/// naming their makers, and each page's credit in its notes.
public struct CBZExporter: DocumentExporter {
    /// An exporter to a `.cbz` file.
    public init() {}

    /// The images' bytes, which the archive stores as they are.
    public var materials: ExportMaterials { .images }

    /// Writes the archive as a file in `staging`, which becomes the output.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let name = "export.cbz"
        let shown = contents.items.filter { $0.imagePath != nil }
        let pages = shown.compactMap(\.imagePath)
        let digits = max(3, String(pages.count).count)
        var members = pages.enumerated().map { offset, page in
            (entry: "\(ExportStaging.numbered(offset + 1, digits: digits)).\((page as NSString).pathExtension)", path: page)
        }
        if let info = ExportCredits.comicInfo(title: contents.gallery.title, items: shown) {
            try ExportStaging.createFile(at: staging.appendingPathComponent("ComicInfo.xml"), contents: Data(info.utf8))
            members.append((entry: "ComicInfo.xml", path: "ComicInfo.xml"))
        }
        try ExportStaging.writeStoredZip(
            members, at: staging.appendingPathComponent(name), modified: contents.gallery.modified, reportingAs: contents.output)
        return .file(name)
    }
}
