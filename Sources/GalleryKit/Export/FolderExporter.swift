import Foundation

/// The images of a document as plain files in a new folder, numbered in gallery order
/// (`001-harbour.jpg`, `002-tower.png`, …). Failed images are left out. Their credits, if any,
/// are in `CREDITS.txt` beside them.
public struct FolderExporter: DocumentExporter {
    /// An exporter to a folder of numbered files.
    public init() {}

    /// The images' bytes, copied as they are.
    public var materials: ExportMaterials { .images }

    /// Whether `name` is a numbered file as this format names them (`001-…`), or its credits.
    public func writes(topLevelName name: String) -> Bool {
        if name == ExportCredits.fileName { return true }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 3 && name.dropFirst(digits.count).hasPrefix("-")
    }

    /// Names the staged images in gallery order; the staging folder becomes the output folder.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let digits = max(3, String(contents.items.count).count)
        var files: [(name: String, item: ExportItem)] = []
        for item in contents.items {
            guard let path = item.imagePath else { continue }
            let name =
                "\(ExportStaging.numbered(item.number, digits: digits))-\(Self.stem(of: item.image.url)).\((path as NSString).pathExtension)"
            files.append((name, item))
            let renamed = staging.appendingPathComponent(name)
            try GalleryError.system("cannot create", url: renamed) { () throws(SystemError) in
                try FileLocation.rename(staging.appendingPathComponent(path), to: renamed)
            }
        }
        try? FileManager.default.removeItem(at: staging.appendingPathComponent("images"))
        if let credits = ExportCredits.text(title: contents.gallery.title, files: files) {
            try ExportStaging.createFile(at: staging.appendingPathComponent(ExportCredits.fileName), contents: Data(credits.utf8))
        }
        return .folder
    }

    /// The image's own name, made safe for any file system: letters, digits, `-` and `_`, at most 60.
    static func stem(of url: URL) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        let safe = String(stem.map { $0.isLetter || $0.isNumber || "-_".contains($0) ? $0 : "-" }.prefix(60))
        return safe.isEmpty ? "image" : safe
    }
}
