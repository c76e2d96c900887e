import Foundation

// Placeholder until the contact-sheet helper replaces this file.
public struct ContactSheetExporter: DocumentExporter {
    public init(for output: URL, width: Int = 2048, showsTitle: Bool = true) throws {}
    public var materials: ExportMaterials { .thumbnails }
    public func writes(topLevelName name: String) -> Bool { false }
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        throw GalleryError(.ioFailure, "not yet")
    }
}
