import Foundation

/// A IIIF Presentation API 3.0 Manifest of the gallery, with its images, for IIIF viewers
/// (Mirador, Universal Viewer) and the collections that use them.
///
/// One Canvas per image, in gallery order, with the image's pixel size, its thumbnail, and an
/// AnnotationPage holding one `painting` Annotation whose body is the image. Captions become
/// each Canvas's `summary` (and `label`). Failed images are left out. Credits (spec §5.8) become
/// `rights`, `requiredStatement` and `metadata` of the Manifest and of each Canvas, and the
/// document's creator its `provider` (`IIIFAttribution`).
///
/// The output is a folder (`manifest.json`, `images/`, `thumbnails/`), or a manifest file such as
/// `Trip.json` with those folders in `Trip/` beside it. Every `id` is an absolute URL made from
/// `baseURL`: where the output folder — or, for a manifest file, the folder holding it — will be
/// served (IIIF requires HTTP(S) ids, so the manifest is valid only once served there).
public struct IIIFExporter: DocumentExporter {
    /// Where the export will be served, ending in `/`.
    public let baseURL: URL

    /// An exporter whose ids are made from `baseURL`, where the output will be served (a `/` is
    /// added if it has none).
    ///
    /// - Throws: `.invalidArgument` unless `baseURL` is an http(s) URL with a host, and no query or fragment.
    public init(baseURL: URL) throws {
        guard ["http", "https"].contains(baseURL.scheme?.lowercased() ?? ""), baseURL.host?.isEmpty == false,
            baseURL.query == nil, baseURL.fragment == nil
        else {
            throw GalleryError(
                .invalidArgument, path: baseURL.absoluteString,
                "is not an http(s) URL to serve the IIIF export from (e.g. https://example.org/trip/)")
        }
        let text = baseURL.absoluteString
        self.baseURL = URL(string: text.hasSuffix("/") ? text : text + "/") ?? baseURL
    }

    /// The images and their thumbnails, which the manifest names by URL.
    public var materials: ExportMaterials { [.images, .thumbnails] }

    /// Whether `name` is something this format writes (`manifest.json`, `images`, `thumbnails`).
    public func writes(topLevelName name: String) -> Bool {
        ["manifest.json", "images", "thumbnails"].contains(name)
    }

    /// The IIIF Presentation 3 JSON-LD context.
    static let context = "http://iiif.io/api/presentation/3/context.json"

    /// Writes the manifest beside the staged images and thumbnails.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let isFile = contents.output.pathExtension.lowercased() == "json"
        // Resources inside the staging folder are served from here.
        let folderURL =
            isFile
            ? baseURL.appendingPathComponent(ExportStaging.companionFolder(of: contents.output).lastPathComponent, isDirectory: true)
            : baseURL
        let manifestURL =
            isFile ? baseURL.appendingPathComponent(contents.output.lastPathComponent) : baseURL.appendingPathComponent("manifest.json")
        let canvases = contents.items.compactMap { canvas(for: $0, in: folderURL, manifest: manifestURL) }
        var manifest: [String: JSONValue] = [
            "@context": .string(Self.context),
            "id": .string(manifestURL.absoluteString),
            "type": .string("Manifest"),
            "label": Self.languageMap(
                contents.gallery.title.isEmpty ? contents.output.deletingPathExtension().lastPathComponent : contents.gallery.title),
            "items": .array(canvases),
        ]
        manifest.merge(IIIFAttribution.members(of: contents.gallery.attribution)) { current, _ in current }
        if let provider = IIIFAttribution.provider(of: contents.gallery.attribution, manifest: manifestURL) {
            manifest["provider"] = provider
        }
        if let first = contents.items.first(where: { $0.thumbnailPath != nil }), let thumbnail = thumbnail(of: first, in: folderURL) {
            manifest["thumbnail"] = .array([thumbnail])
        }
        let data = JSONValue.object(manifest).serialized(.pretty)
        try ExportStaging.createFile(at: staging.appendingPathComponent("manifest.json"), contents: data)
        return isFile ? .fileBesideFolder("manifest.json") : .folder
    }

    private func canvas(for item: ExportItem, in folder: URL, manifest: URL) -> JSONValue? {
        guard let path = item.imagePath, let cached = item.image.cached else { return nil }
        let size = item.pixelSize ?? (1000, max(1, Int((1000 / item.image.aspectRatio).rounded())))
        let canvasID = manifest.absoluteString + "/canvas/\(item.number)"
        let body: JSONValue = .object([
            "id": .string(Self.resource(path, in: folder)),
            "type": .string("Image"),
            "format": .string(cached.mediaType),
            "width": .integer(Int64(size.width)),
            "height": .integer(Int64(size.height)),
        ])
        let annotation: JSONValue = .object([
            "id": .string(canvasID + "/page/1/annotation/1"),
            "type": .string("Annotation"),
            "motivation": .string("painting"),
            "body": body,
            "target": .string(canvasID),
        ])
        var canvas: [String: JSONValue] = [
            "id": .string(canvasID),
            "type": .string("Canvas"),
            "label": Self.languageMap(item.image.caption ?? "Image \(item.number)"),
            "width": .integer(Int64(size.width)),
            "height": .integer(Int64(size.height)),
            "items": .array([
                .object([
                    "id": .string(canvasID + "/page/1"),
                    "type": .string("AnnotationPage"),
                    "items": .array([annotation]),
                ])
            ]),
        ]
        if let caption = item.image.caption, !caption.isEmpty { canvas["summary"] = Self.languageMap(caption) }
        // Each canvas says its own credit: the resolved one, so that a canvas shown alone keeps it.
        canvas.merge(IIIFAttribution.members(of: item.attribution)) { current, _ in current }
        if let thumbnail = thumbnail(of: item, in: folder) { canvas["thumbnail"] = .array([thumbnail]) }
        return .object(canvas)
    }

    private func thumbnail(of item: ExportItem, in folder: URL) -> JSONValue? {
        guard let path = item.thumbnailPath else { return nil }
        var thumbnail: [String: JSONValue] = [
            "id": .string(Self.resource(path, in: folder)),
            "type": .string("Image"),
            "format": .string("image/jpeg"),
        ]
        if let size = item.thumbnailSize {
            thumbnail["width"] = .integer(Int64(size.width))
            thumbnail["height"] = .integer(Int64(size.height))
        }
        return .object(thumbnail)
    }

    /// A IIIF language map for text whose language is not known.
    private static func languageMap(_ text: String) -> JSONValue {
        .object(["none": .array([.string(text)])])
    }

    /// The URL of a staged file (`images/001.jpg`; names are the export's own, plain ASCII).
    private static func resource(_ path: String, in folder: URL) -> String {
        folder.appendingPathComponent(path).absoluteString
    }
}
