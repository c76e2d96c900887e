import ArgumentParser
import Foundation
import GalleryKit

struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new gallery document from image files.",
        discussion: """
            Reads each image's size from its header (EXIF orientation applied). With --cache the \
            images' bytes are stored in the document, so it travels without the original files.

            Examples:
              gallery create Trip.gallery --title "Summer trip" photos/*.jpg
              gallery create Refs.gallery --columns 4 --cache a.png b.webp
            """
    )

    @Argument(help: "The document to create (PATH.gallery).")
    var document: DocumentPath

    @Argument(help: "Image files (paths or file:// URLs), in display order.")
    var images: [String] = []

    @Option(help: "The gallery's title (default: the file name).")
    var title: String?

    @Option(help: "Images per row, 1 to 12.")
    var columns: Int = Gallery.defaultColumns

    @Flag(help: "Store the images' bytes in the document.")
    var cache = false

    @Flag(help: "Replace the document if it exists.")
    var force = false

    func validate() throws {
        guard Gallery.columnRange.contains(columns) else { throw ValidationError("--columns must be from 1 to 12") }
    }

    func run() throws {
        let url = document.url
        var document = GalleryDocument(
            creating: url,
            gallery: Gallery(title: title ?? url.deletingPathExtension().lastPathComponent, columns: columns)
        )
        if !force, FileManager.default.fileExists(atPath: url.path) {
            throw GalleryError(.alreadyExists, url: url, "already exists (use --force to replace it)")
        }
        try document.insertImages(fromFiles: try imageFiles(images), cache: cache)
        // A new document starts with nothing to undo.
        document.clearHistory()
        try document.save(replacingExisting: force)
        let cached = document.gallery.images.count { $0.isCached }
        print("Created \(Output.name(url)) with \(Output.count(document.gallery.images.count, "image")) (\(cached) cached).")
    }
}
