import Foundation

/// The images of a document as plain files in a new folder, numbered in gallery order
/// (`001-harbour.jpg`, `002-tower.png`, …). Failed images are left out.
public struct FolderExporter: DocumentExporter {
    /// An exporter to a folder of numbered files.
    public init() {}

    /// The images' bytes, copied as they are.
    public var materials: ExportMaterials { .images }

    /// Whether `name` is a numbered file as this format names them (`001-…`).
    public func writes(topLevelName name: String) -> Bool {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 3 && name.dropFirst(digits.count).hasPrefix("-")
    }

    /// Names the staged images in gallery order; the staging folder becomes the output folder.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let digits = max(3, String(contents.items.count).count)
        for item in contents.items {
            guard let path = item.imagePath else { continue }
            let name =
                "\(ExportStaging.numbered(item.number, digits: digits))-\(Self.stem(of: item.image.url)).\((path as NSString).pathExtension)"
            let renamed = staging.appendingPathComponent(name)
            try GalleryError.system("cannot create", url: renamed) { () throws(SystemError) in
                try FileLocation.rename(staging.appendingPathComponent(path), to: renamed)
            }
        }
        try? FileManager.default.removeItem(at: staging.appendingPathComponent("images"))
        return .folder
    }

    /// The image's own name, made safe for any file system: letters, digits, `-` and `_`, at most 60.
    static func stem(of url: URL) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        let safe = String(stem.map { $0.isLetter || $0.isNumber || "-_".contains($0) ? $0 : "-" }.prefix(60))
        return safe.isEmpty ? "image" : safe
    }
}
