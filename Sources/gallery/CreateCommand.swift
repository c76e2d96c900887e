import ArgumentParser
import Foundation
import GalleryKit

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new gallery document from image files and web images.",
        discussion: """
            Reads each image's size from its header (EXIF orientation applied). Web images are \
            downloaded, several at once, and keep the order given; links copied from image \
            search results (Google, Bing, DuckDuckGo, Yandex) are cleaned to the image's own URL. \
            A web image that cannot be fetched is added as "failed" (a square error tile) unless \
            --skip-failed is given. With --cache the images' bytes are stored in the document, \
            so it travels without the original files.

            A folder stands for the images in it, in name order as a file manager shows them \
            (2.jpg before 10.jpg): its other files (notes, SVGs, sidecars) are left out, named \
            in one line, and its subfolders and hidden files are not read.

            The document's name ends in .gallery: "gallery create Trip photos/*.jpg" writes \
            Trip.gallery. Only a gallery document is ever replaced (with --force): a photo \
            named first by mistake is left as it is, and the error shows the command meant.

            Exit status: 0 when every image was added; 2 when the document was created but some \
            web images failed (each is listed on stderr).

            With --iiif, the gallery is a museum's IIIF manifest: its images, captions and \
            credits (a Collection is refused, naming its manifests).

            Examples:
              gallery create Trip.gallery --title "Summer trip" photos/*.jpg
              gallery create Holiday.gallery ~/Pictures/Holiday
              gallery create Book.gallery --iiif https://example.org/iiif/book/manifest.json
              gallery create Refs.gallery --cache a.png https://example.org/b.webp
            """
    )

    @Argument(help: "The document to create (PATH.gallery).")
    var document: DocumentPath

    @Argument(help: "Images: paths, folders, file:// URLs or http(s) URLs, in display order.")
    var images: [String] = []

    @Option(help: "The gallery's title (default: the file name, or the IIIF manifest's label).")
    var title: String?

    @Option(
        name: .customLong("iiif"),
        help: ArgumentHelp(
            "A IIIF Presentation manifest (3.0 or 2.1; a file or an http(s) URL) whose images make the gallery.",
            discussion:
                "Its label is the title; each canvas's image comes in order, through its image service if it has one, with the canvas's label as caption; its rights and required statement are the images' credit.",
            valueName: "manifest"))
    var iiif: String?

    @Option(help: "Images per row, \(ColumnsOption.range).")
    var columns: Int = Gallery.defaultColumns

    @Flag(help: "Store the images' bytes in the document.")
    var cache = false

    @Flag(help: "With --cache, store no thumbnails (thumbnails/<sha256>.jpg, preview.jpg).")
    var noThumbnails = false

    @Flag(help: "Replace the document if it exists.")
    var force = false

    @OptionGroup(title: "Fetching web images") var fetching: FetchOptions

    func validate() throws {
        guard iiif == nil || images.isEmpty else { throw ValidationError("give images or --iiif, not both") }
        guard Gallery.columnRange.contains(columns) else { throw ValidationError("--columns must be from \(ColumnsOption.range)") }
        try TitleOption.check(title)
    }

    func run() async throws {
        let url = try documentToCreate()
        var document = GalleryDocument(
            creating: url,
            gallery: Gallery(
                title: title ?? ((url.pathForDisplay as NSString).lastPathComponent as NSString).deletingPathExtension, columns: columns)
        )
        if !force, FileManager.default.fileExists(atPath: url.path) {
            throw GalleryError(.alreadyExists, url: url, "already exists (use --force to replace it)")
        }
        let sources = try ImageArguments(images)
        let prepared: PreparedImages
        if let iiif {
            let manifest = try await fetching.manifest(at: iiif)
            if title == nil, !manifest.title.isEmpty {
                try document.edit { try $0.setTitle(String(manifest.title.prefix(Gallery.maximumTextLength))) }
            }
            if let credit = manifest.attribution { try document.edit { try $0.updateAttribution(credit) } }
            prepared = try await fetching.prepare(manifest, cache: cache, thumbnails: !noThumbnails)
        } else {
            prepared = try await fetching.prepare(sources, cache: cache, thumbnails: !noThumbnails)
        }
        try document.insert(prepared)
        // A new document starts with nothing to undo.
        document.clearHistory()
        try document.save(replacingExisting: force)
        RecentDocuments().record(url, .created)
        let images = document.gallery.images
        let failed = images.count { $0.hasFailed }
        let cached = images.count { $0.isCached }
        print(
            "Created \(Output.name(url)) with \(Output.count(images.count, "image")) (\(cached) cached\(failed > 0 ? ", \(failed) failed" : ""))."
        )
        try fetching.finish(prepared.failures, of: sources, skipped: fetching.skipFailed)
    }

    /// The document to write: the path given, with `.gallery` added when it has no extension.
    /// A file that is not a gallery document is never replaced, and a name with another
    /// extension is refused: either is most likely an image given first.
    private func documentToCreate() throws -> URL {
        var url = document.url
        if url.pathExtension.isEmpty { url.appendPathExtension(String(DocumentName.fileExtension.dropFirst())) }
        if FileManager.default.fileExists(atPath: url.path), !GalleryDocument.startsLikeADocument(url) {
            throw GalleryError(.alreadyExists, url: url, "is not a gallery document, so it is never replaced\(commandMeant)")
        }
        guard
            DocumentName.fileExtension.dropFirst().caseInsensitiveCompare(url.pathExtension) == .orderedSame
                || FileManager.default.fileExists(atPath: url.path)
        else {
            throw GalleryError(.invalidArgument, url: url, "a gallery document's name ends in \(DocumentName.fileExtension)\(commandMeant)")
        }
        return url
    }

    /// "; the document to create comes first: gallery create NAME.gallery a.jpg b.jpg", the
    /// command meant when the document's place holds what reads as the first image.
    private var commandMeant: String {
        guard !images.isEmpty else { return "" }
        let arguments = ([document.argument] + images).map { $0.contains(" ") ? "'\($0)'" : $0 }
        return "; the document to create comes first: gallery create NAME.gallery \(arguments.joined(separator: " "))"
    }
}
