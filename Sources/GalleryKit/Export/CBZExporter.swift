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
        let file = staging.appendingPathComponent(name)
        let descriptor = FileLocation.open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create", url: contents.output) }
        defer { close(descriptor) }
        try GalleryError.attributing(to: contents.output) {
            let writer = try ArchiveWriter(fileDescriptor: descriptor)
            for (offset, page) in pages.enumerated() {
                let source = staging.appendingPathComponent(page)
                let entry = "\(ExportStaging.numbered(offset + 1, digits: digits)).\((page as NSString).pathExtension)"
                guard let size = FileLocation.status(of: source)?.st_size else { throw GalleryError.system("cannot read", url: source) }
                // Images are compressed already: stored, as comic readers expect.
                try writer.writeEntry(named: entry, size: Int64(size), modified: contents.gallery.modified, compression: .stored) { write in
                    try FileChunks.read(source, write)
                }
            }
            try writer.finish()
        }
        guard fsync(descriptor) == 0 else { throw GalleryError.system("cannot write", url: contents.output) }
        return .file(name)
    }
}
