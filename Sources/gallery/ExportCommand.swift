import ArgumentParser
import Foundation
import GalleryKit

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a gallery document to share it.",
        discussion: """
            Formats:
              bundle   a self-contained .gallery copy: every image cached, no undo history
              folder   a new folder with the images in order, numbered (001-name.jpg, …)

            The output must not exist yet.

            Examples:
              gallery export Trip.gallery --format bundle --output Trip-share.gallery
              gallery export Trip.gallery --format folder --output Trip-images
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case bundle, folder
    }

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    @Option(help: "What to export: bundle or folder.")
    var format: Format

    @Option(help: "Where to write the export; must not exist.")
    var output: DocumentPath

    func run() throws {
        let opened = try GalleryDocument(contentsOf: document.url)
        let exporter: any DocumentExporter = switch format {
        case .bundle: BundleExporter()
        case .folder: FolderExporter()
        }
        try exporter.export(opened, to: output.url)
        print("Exported \(Output.count(opened.gallery.images.count, "image")) from \(Output.name(document.url)) to \(Output.name(output.url)).")
    }
}
