import ArgumentParser
import Foundation
import GalleryKit

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a gallery document to share it.",
        discussion: """
            Formats:
              html           a static web site in a folder: justified rows of images,
                             each opening in a viewer (←/→, swipe, Esc) with a
                             filmstrip; works from file:// with no network. It holds
                             display sizes (512, 1024 and 2048 px JPEGs, without the
                             photos' metadata, so without their location), not the
                             originals; --originals adds them and a "Download all"
                             album.zip
              iiif           a IIIF Presentation 3.0 manifest and its images, for IIIF
                             viewers (Mirador, Universal Viewer); needs --base-url.
                             --output is a folder (manifest.json inside) or a file
                             such as Trip.json (its images in Trip/ beside it)
              contact-sheet  one JPEG or PNG (by --output's extension) of the whole
                             gallery, --width pixels wide, from the thumbnails
              cbz            a comic-book archive of the images in order
              bundle         a self-contained .gallery: every image cached, no history
              folder         the images in order as numbered files (001-name.jpg, …)

            Web images that are not cached are fetched during the export. An image that \
            cannot be had is shown as an error tile (html, contact-sheet), left out (folder, \
            cbz, iiif) or kept as failed (bundle); each is one line on stderr and the exit \
            status is 2.

            The document is checked before anything is fetched or written: a damaged document \
            is refused (exit 65) and nothing is written. The output appears only when complete. \
            It must not exist, unless --force, which replaces a file, or a folder holding only \
            what this format writes.

            Examples:
              gallery export Trip.gallery --format html --output Trip-site
              gallery export Trip.gallery --format html --output Trip-site --originals
              gallery export Trip.gallery --format iiif --output Trip.json \\
                  --base-url https://example.org/galleries/
              gallery export Trip.gallery --format contact-sheet --output Trip.jpg
              gallery export Trip.gallery --format cbz --output Trip.cbz
              gallery export Trip.gallery --format bundle --output Trip-share.gallery
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, iiif, contactSheet = "contact-sheet", cbz, bundle, folder
    }

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    @Option(help: "What to export: html, iiif, contact-sheet, cbz, bundle or folder.")
    var format: Format

    @Option(help: "Where to write the export; must not exist (unless --force).")
    var output: DocumentPath

    @Flag(help: "Replace an existing output.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "iiif: the http(s) URL the output folder (or the folder holding the manifest file) will be served from.", valueName: "url"))
    var baseURL: String?

    @Option(help: "contact-sheet: the width in pixels, 256 to 16384.")
    var width = 2048

    @Flag(help: "contact-sheet: no title above the images.")
    var noTitle = false

    @Flag(
        help: ArgumentHelp(
            "html: add the original images and album.zip of them all (linked as \"Download all\"). The originals keep their own metadata, the location where a photo was taken included."
        ))
    var originals = false

    @OptionGroup(title: "Fetching web images") var downloads: DownloadOptions

    func validate() throws {
        if format == .iiif, baseURL == nil {
            throw ValidationError("--format iiif needs --base-url: the http(s) URL the export will be served from")
        }
        if format != .iiif, baseURL != nil { throw ValidationError("--base-url is only for --format iiif") }
        if format != .html, originals { throw ValidationError("--originals is only for --format html") }
        if let baseURL, URL(string: baseURL) == nil || baseURL.isEmpty {
            throw ValidationError("--base-url '\(baseURL)' is not a URL")
        }
        guard (256...16384).contains(width) else { throw ValidationError("--width must be from 256 to 16384") }
    }

    func run() async throws {
        let exporter = try makeExporter()
        let opened = try GalleryDocument(contentsOf: document.url)
        let needsFetcher = opened.gallery.images.contains { $0.needsFetching && $0.origin == .web }
        let report = try await downloads.withFetcher(needed: needsFetcher) { fetcher, progress in
            try await exporter.export(
                opened, to: output.url, options: ExportOptions(replacingExisting: force, fetcher: fetcher, progress: progress))
        }
        RecentDocuments().record(document.url, .exported)
        let failed = report.failed > 0 ? " (\(report.failed) failed)" : ""
        print(
            "Exported \(Output.count(report.exported, "image"))\(failed) from \(Output.name(document.url)) to \(Output.name(output.url)).")
        try FetchReport.finish(report.failures, skipped: false, verb: "failed")
    }

    private func makeExporter() throws -> any DocumentExporter {
        switch format {
        case .html: return HTMLExporter(includesOriginals: originals)
        case .iiif:
            guard let baseURL, let url = URL(string: baseURL) else {
                throw GalleryError(.invalidArgument, path: baseURL, "is not a URL")
            }
            return try IIIFExporter(baseURL: url)
        case .contactSheet: return try ContactSheetExporter(for: output.url, width: width, showsTitle: !noTitle)
        case .cbz: return CBZExporter()
        case .bundle: return BundleExporter()
        case .folder: return FolderExporter()
        }
    }
}
