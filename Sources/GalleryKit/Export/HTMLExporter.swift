import Foundation

/// A static web site of the gallery in a folder, working from `file://` with no network:
/// `index.html` with the images in justified rows, each opening in a viewer like the Photos app
/// (the large image paged with ←/→ and swipe, a filmstrip in sync below it, Esc back to the grid).
///
/// Every tile and the viewer show the smallest display size (`Rendition`) at least as large as
/// the device pixels they fill (`srcset`, or the script choosing from the frame), over the
/// thumbnail (the document's own); the layout of `PageStyle` is written as explicit positions —
/// one for wide windows, one for phones, each with the document's images per row as `gallery
/// serve` shows them — so nothing moves while images load. Failed images are square error tiles
/// with their error. Every text from the document is escaped; none becomes markup or script.
///
/// By default the site carries renditions, not the originals: a fraction of their bytes, and no
/// metadata (no photo's location). `includesOriginals` adds the originals, byte for byte, and
/// `album.zip` of them all (stored, not compressed again), linked from the page as "Download
/// all"; originals keep their own metadata, location included.
///
/// A gallery may hold 100,000 images: the page holds the first `tilesInMarkup` tiles (all of a
/// gallery of ordinary size, and the first screens of any, with no script), and the script
/// draws the others from the same data when they come near the view, and only those.
public struct HTMLExporter: DocumentExporter {
    /// What a shared site says of an image that failed: readers are not told the library's or
    /// the server's reasons ("HTTP 404", libvips' messages), which were for the person who made
    /// the gallery.
    static let failureForReaders = "This image could not be loaded."

    /// Whether the site carries the original images too, and `album.zip` of them.
    public var includesOriginals: Bool

    /// An exporter to a static web site; with `includesOriginals`, the original images and an
    /// album of them are in it too.
    public init(includesOriginals: Bool = false) {
        self.includesOriginals = includesOriginals
    }

    /// The name of the album of originals, at the top of the site.
    static let albumName = "album.zip"

    /// How many tiles the page's markup holds; the script draws the rest near the view.
    static let tilesInMarkup = 300

    /// Renditions, which the grid and the viewer show; thumbnails, which the filmstrip shows and
    /// stand in while the larger sizes load; and with `includesOriginals`, the originals.
    public var materials: ExportMaterials { includesOriginals ? [.images, .thumbnails, .renditions] : [.thumbnails, .renditions] }

    /// Whether `name` is one of the site's own files or folders (`index.html`, `assets`, `images`,
    /// `renditions`, `thumbnails`, `album.zip`).
    public func writes(topLevelName name: String) -> Bool {
        ["index.html", "assets", "images", "renditions", "thumbnails", Self.albumName].contains(name)
    }

    /// Writes the page, its data and its assets; the staging folder becomes the output folder.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        let items = contents.items
        let ratios = items.map { $0.failure == nil ? $0.image.aspectRatio : 1 }
        let (desktopStyle, phoneStyle) = Self.pageStyles(columns: contents.gallery.columns)
        let desktop = desktopStyle.layout(aspectRatios: ratios)
        let phone = phoneStyle.layout(aspectRatios: ratios)
        let itemTemplate = try ExportTemplate(named: "html/item.html")
        let failedTemplate = try ExportTemplate(named: "html/failed-item.html")

        var markup = ""
        for (index, item) in items.enumerated().prefix(Self.tilesInMarkup) {
            let frame = Self.frameStyle(desktop: desktop, phone: phone, index: index)
            let alt = HTMLText.escaped(Self.alternativeText(of: item))
            var values = ["index": String(index), "number": String(item.number), "alt": alt, "frame": frame]
            if let link = item.largestPath, item.failure == nil {
                let size =
                    item.thumbnailSize
                    ?? Thumbnailer.size(ofImageWidth: item.pixelSize?.width ?? 256, height: item.pixelSize?.height ?? 256)
                values["image"] = HTMLText.escaped(link)
                values["thumbnail"] = HTMLText.escaped(item.thumbnailPath ?? link)
                values["thumbnailWidth"] = String(size.width)
                values["thumbnailHeight"] = String(size.height)
                values["srcset"] = HTMLText.escaped(Self.sourceSet(of: item))
                values["sizes"] = Self.slotSizes(desktop: desktop, phone: phone, index: index, ratio: ratios[index])
                values["caption"] = HTMLText.escaped(item.image.caption ?? "")
                markup += try itemTemplate.filled(values)
            } else {
                values["error"] = HTMLText.escaped(Self.failureForReaders)
                values["url"] = HTMLText.escaped(item.source)
                markup += try failedTemplate.filled(values)
            }
        }

        let title = contents.gallery.title.isEmpty ? contents.output.deletingPathExtension().lastPathComponent : contents.gallery.title
        let failed = items.count { $0.failure != nil }
        let summary = "\(items.count) image\(items.count == 1 ? "" : "s")" + (failed > 0 ? " · \(failed) failed" : "")
        let download = includesOriginals ? try Self.writeAlbum(of: contents, into: staging) : ""
        let page = try ExportTemplate(named: "html/index.html").filled([
            "title": HTMLText.escaped(title),
            "summary": HTMLText.escaped(summary),
            "download": download,
            "items": markup,
            "data": HTMLText.scriptJSON(Self.pageData(title: title, items: items, ratios: ratios, desktop: desktop, phone: phone)),
            "desktopHeight": Self.percent(desktop.contentHeight, of: desktopStyle.width),
            "phoneHeight": Self.percent(phone.contentHeight, of: phoneStyle.width),
            "generator": HTMLText.escaped(GalleryKitVersion.generator),
            "credits": HTMLCredits.section(for: items),
            "structuredData": HTMLCredits.structuredData(title: title, items: items),
        ])
        try ExportStaging.createFile(at: staging.appendingPathComponent("index.html"), contents: Data(page.utf8))
        let assets = staging.appendingPathComponent("assets")
        try GalleryError.system("cannot create", url: assets) { () throws(SystemError) in
            try FileLocation.makeDirectory(assets, mode: 0o755)
        }
        for name in ["gallery.css"] + PageAssets.names + ["gallery.js"] {
            try ExportStaging.createFile(at: assets.appendingPathComponent(name), contents: try PageAssets.asset(named: name))
        }
        return .folder
    }

    /// The `srcset` of a tile: its thumbnail and display sizes by their widths.
    static func sourceSet(of item: ExportItem) -> String {
        var candidates: [String] = []
        if let thumbnail = item.thumbnailPath, let size = item.thumbnailSize { candidates.append("\(thumbnail) \(size.width)w") }
        candidates += displaySizes(of: item).map { "\($0.path) \($0.width)w" }
        return candidates.joined(separator: ", ")
    }

    /// What the page may show of an item, smallest first: its renditions; or, for an image that
    /// has none (a GIF, shown as it is), the image itself.
    static func displaySizes(of item: ExportItem) -> [ExportRendition] {
        if !item.renditions.isEmpty { return item.renditions }
        guard let path = item.imagePath, let size = item.pixelSize else { return [] }
        return [ExportRendition(path: path, width: size.width, height: size.height)]
    }

    /// The page's widest content and its side margins on wide windows and on phones, in CSS
    /// pixels, as `gallery.css` sets them (a test holds the two together).
    static let pageLayout = (maximumWidth: 1400, margin: 32, phoneMargin: 12)

    /// The `sizes` of tile `index`: the width in CSS pixels its image is drawn at to cover its
    /// frame (cropped), in each layout, as a share of the grid's width (the page's width less
    /// its margins).
    static func slotSizes(desktop: GalleryLayout, phone: GalleryLayout, index: Int, ratio: Double) -> String {
        func share(_ layout: GalleryLayout, width: Double) -> String {
            let frame = layout.frames[index]
            return String(format: "%.4f", max(frame.width, frame.height * ratio) / width)
        }
        let widths = PageStyle.exportedWidths
        let (maximum, margin, phoneMargin) = pageLayout
        return
            "(max-width: \(String(format: "%g", PageStyle.phoneWidth))px) calc((100vw - \(2 * phoneMargin)px) * \(share(phone, width: widths.phone))), "
            + "calc((min(100vw, \(maximum)px) - \(2 * margin)px) * \(share(desktop, width: widths.desktop)))"
    }

    /// Writes `album.zip` of the originals (numbered in gallery order, with their own names where
    /// they have plain ones), and gives the header's link to it.
    static func writeAlbum(of contents: ExportContents, into staging: URL) throws -> String {
        let originals = contents.items.filter { $0.failure == nil && $0.imagePath != nil }
        guard !originals.isEmpty else { return "" }
        let digits = max(3, String(contents.items.count).count)
        let members = originals.map { item in
            (entry: ExportStaging.numbered(item.number, digits: digits) + "-" + albumName(of: item), path: item.imagePath!)
        }
        let bytes = try ExportStaging.writeStoredZip(
            members, at: staging.appendingPathComponent(albumName), modified: contents.gallery.modified, reportingAs: contents.output)
        let label = "Download all (\(originals.count) original\(originals.count == 1 ? "" : "s"), \(ImageFetcher.size(bytes)))"
        return "<a class=\"download\" href=\"\(albumName)\" download>\(HTMLText.escaped(label))</a>"
    }

    /// An original's name in the album: the last part of its address if it is a plain file name,
    /// else `image` with its extension.
    static func albumName(of item: ExportItem) -> String {
        let ext = ((item.imagePath ?? "") as NSString).pathExtension
        let last = item.image.url.lastPathComponent
        let isPlain =
            !last.isEmpty && last.count <= 100 && !last.hasPrefix(".")
            && last.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_. ".unicodeScalars.contains($0)
            }
        let stem = isPlain ? (last as NSString).deletingPathExtension : "image"
        return stem.isEmpty ? "image.\(ext)" : "\(stem).\(ext)"
    }

    /// What a screen reader says for the image: its caption, or its number.
    static func alternativeText(of item: ExportItem) -> String {
        if let caption = item.image.caption, !caption.isEmpty { return caption }
        return "Image \(item.number)"
    }

    /// The page's two layouts, as `gallery serve` lays the document out at those widths.
    static func pageStyles(columns: Int) -> (desktop: PageStyle, phone: PageStyle) {
        (
            .screen(width: PageStyle.exportedWidths.desktop, columns: columns),
            .screen(width: PageStyle.exportedWidths.phone, columns: columns)
        )
    }

    /// The item's frame in both layouts as CSS custom properties: x and width in percent of the
    /// content's width, y and height in percent of its height.
    static func frameStyle(desktop: GalleryLayout, phone: GalleryLayout, index: Int) -> String {
        func declarations(_ layout: GalleryLayout, width: Double, prefix: String) -> String {
            let frame = layout.frames[index]
            let height = max(layout.contentHeight, 1)
            return "--\(prefix)x:\(percent(frame.x, of: width))%;--\(prefix)y:\(percent(frame.y, of: height))%;"
                + "--\(prefix)w:\(percent(frame.width, of: width))%;--\(prefix)h:\(percent(frame.height, of: height))%"
        }
        let widths = PageStyle.exportedWidths
        return declarations(desktop, width: widths.desktop, prefix: "") + ";" + declarations(phone, width: widths.phone, prefix: "p")
    }

    /// `part` as a percentage of `whole`, with four decimals (a hundredth of a pixel at 10,000 px).
    static func percent(_ part: Double, of whole: Double) -> String {
        String(format: "%.4f", percentage(part, of: whole))
    }

    /// `part` as a percentage of `whole`, rounded to four decimals (the script's frames).
    static func percentage(_ part: Double, of whole: Double) -> Double {
        let value = whole > 0 ? part / whole * 100 : 0
        return value.isFinite ? (value * 10_000).rounded() / 10_000 : 0
    }

    /// The data the scripts read: each item in the viewer's shape (described at the top of
    /// `viewer.js`: its files, texts and aspect ratio, no more), and the frames of the tiles not in
    /// the markup (`drawn`), as `frameStyle` gives them.
    static func pageData(title: String, items: [ExportItem], ratios: [Double], desktop: GalleryLayout, phone: GalleryLayout) -> JSONValue {
        let entries: [JSONValue] = zip(items, ratios).map { item, ratio in
            let isOK = item.failure == nil && item.largestPath != nil
            let sizes: [JSONValue] = displaySizes(of: item).map { .array([.integer(Int64($0.longEdge)), .string($0.path)]) }
            return .object([
                "image": isOK ? item.imagePath.map(JSONValue.string) ?? .null : .null,
                "sizes": .array(isOK ? sizes : []),
                "edge": item.pixelSize.map { .integer(Int64(max($0.width, $0.height))) } ?? .null,
                "thumbnail": isOK ? .string(item.thumbnailPath ?? item.largestPath!) : .null,
                "alt": .string(alternativeText(of: item)),
                "caption": item.image.caption.map(JSONValue.string) ?? .null,
                "credit": item.attribution?.creditLine.map(JSONValue.string) ?? .null,
                "error": isOK ? .null : .string(Self.failureForReaders),
                "url": isOK ? .null : .string(item.source),
                "ratio": .number(isOK ? ratio : 1),
            ])
        }
        return .object([
            "title": .string(title),
            "strip": .object(["cell": .number(PageStyle.filmstripCell), "spacing": .number(PageStyle.filmstripSpacing)]),
            "items": .array(entries),
            "drawn": drawnFrames(desktop: desktop, phone: phone, from: tilesInMarkup),
        ])
    }

    /// The frames of the tiles from `first` on, in both layouts: `[x, y, w, h]` of each tile in a
    /// row, in the percentages of `frameStyle`.
    static func drawnFrames(desktop: GalleryLayout, phone: GalleryLayout, from first: Int) -> JSONValue {
        func percentages(_ layout: GalleryLayout, width: Double) -> JSONValue {
            let height = max(layout.contentHeight, 1)
            var values: [JSONValue] = []
            values.reserveCapacity(max(0, layout.frames.count - first) * 4)
            for frame in layout.frames.dropFirst(first) {
                for (part, whole) in [(frame.x, width), (frame.y, height), (frame.width, width), (frame.height, height)] {
                    values.append(.number(percentage(part, of: whole)))
                }
            }
            return .array(values)
        }
        let widths = PageStyle.exportedWidths
        return .object([
            "first": .integer(Int64(first)),
            "desktop": percentages(desktop, width: widths.desktop),
            "phone": percentages(phone, width: widths.phone),
        ])
    }
}
