import Foundation
import GalleryKit

/// A gallery as its page shows it: the images (and placeholders for those arriving) in order,
/// and their frames from `GalleryLayout` for the page's width — the layout has one source, the
/// library; the page only positions what it is given.
struct GalleryState: Sendable {
    struct Item: Sendable {
        var id: String
        /// `ok`, `failed` (an error tile), or `loading` (a placeholder, or an image being tried again).
        var status: String
        var url: String
        var caption: String?
        /// Who made it and under what terms, as one line (`Attribution.creditLine`).
        var credit: String?
        var error: String?
        var alt: String
        var isCached: Bool
        /// Set on a placeholder: it is not in the document yet.
        var isPlaceholder: Bool
        /// The aspect ratio the layouts give it (1, a square, for a failed image): the viewer's
        /// filmstrip widens it towards this.
        var ratio: Double = 1
        /// The image's long edge in pixels as shown, when the document knows it: the page asks
        /// for no rendition larger than the image (`renditions`).
        var edge: Int?
    }

    struct Layout: Sendable {
        var style: PageStyle.Arrangement
        var width: Double
        var height: Double
        /// `[x, y, width, height]` per item, in CSS pixels.
        var frames: [[Double]]
    }

    var name: String
    var title: String
    var columns: Int
    /// The column counts the page may offer (`Gallery.columnRange`): `[lowest, highest]`.
    var columnRange = [Gallery.columnRange.lowerBound, Gallery.columnRange.upperBound]
    /// The viewer's filmstrip: its cells' side and the gap between them, in CSS pixels.
    var strip = ["cell": PageStyle.filmstripCell, "spacing": PageStyle.filmstripSpacing]
    /// The long edges of the renditions the server makes (`Rendition.ladder`), smallest first:
    /// the page asks for the smallest at least as large as the device pixels it fills.
    var renditions = Rendition.ladder
    /// The long edge of the thumbnails the server has (`Thumbnailer.longEdge`): the smallest size.
    var thumbnailEdge = Thumbnailer.longEdge
    var canUndo: Bool
    var canRedo: Bool
    var version: String
    /// Why the last images dropped in could not be added (the document was renamed or busy),
    /// until images arrive again.
    var arrivalFailure: String?
    var items: [Item]
    var layout: Layout
    /// How many items the gallery has: more than `items` holds in an answer cut to its first ones.
    var count: Int

}

extension GalleryState.Layout {
    /// The frames of items with these aspect ratios on a page laid out by `style` (of the first
    /// `limit` of them; the height is the whole layout's).
    init(_ style: PageStyle, aspectRatios: [Double], limit: Int = .max) {
        let layout = style.layout(aspectRatios: aspectRatios)
        self.init(
            style: style.arrangement, width: style.width, height: layout.contentHeight,
            frames: layout.frames.prefix(limit).map {
                [Self.rounded($0.x), Self.rounded($0.y), Self.rounded($0.width), Self.rounded($0.height)]
            }
        )
    }

    /// Hundredths of a pixel: exact enough, and a tenth of the digits.
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

extension GalleryState {
    /// The state of `gallery`, with `placeholders` standing before the images they will precede
    /// (in their order), laid out for `width`; with a `limit`, only the first `limit` items and
    /// their frames (the layout's height and `count` still the whole gallery's): what a page shows
    /// first, before the rest of a large gallery's state has come.
    init(
        name: String, gallery: Gallery, canUndo: Bool, canRedo: Bool, version: String,
        placeholders: [Arrivals.Placeholder], retrying: Set<UUID>, arrivalFailure: String? = nil, arrangement: PageStyle.Arrangement,
        width: Double, limit: Int = .max
    ) {
        var before: [UUID: [Arrivals.Placeholder]] = [:]
        var atEnd: [Arrivals.Placeholder] = []
        // Hashing 100,000 ids takes a while: only when images are arriving.
        let present = placeholders.isEmpty ? [] : Set(gallery.images.map(\.id))
        for placeholder in placeholders {
            if let next = placeholder.before, present.contains(next) {
                before[next, default: []].append(placeholder)
            } else {
                atEnd.append(placeholder)
            }
        }
        var items: [Item] = []
        var ratios: [Double] = []
        items.reserveCapacity(min(gallery.images.count + placeholders.count, limit))
        ratios.reserveCapacity(gallery.images.count + placeholders.count)
        func add(_ placeholder: Arrivals.Placeholder) {
            ratios.append(1)
            guard items.count < limit else { return }
            items.append(
                Item(
                    id: placeholder.id.uuidString.lowercased(), status: "loading", url: placeholder.source,
                    alt: "Arriving: \(placeholder.source)", isCached: false, isPlaceholder: true
                ))
        }
        for offset in gallery.images.indices {
            if !before.isEmpty { before[gallery.images[offset].id]?.forEach(add) }
            ratios.append(gallery.images[offset].hasFailed ? 1 : gallery.images[offset].aspectRatio)
            guard items.count < limit else { continue }
            let image = gallery.images[offset]
            let status = retrying.contains(image.id) ? "loading" : image.hasFailed ? "failed" : "ok"
            let alt = image.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "Image \(offset + 1)"
            items.append(
                Item(
                    id: image.id.uuidString.lowercased(), status: status, url: image.url.absoluteString, caption: image.caption,
                    credit: gallery.attribution(ofImageAt: offset)?.creditLine, error: image.error,
                    alt: alt, isCached: image.isCached, isPlaceholder: false, ratio: ratios[ratios.count - 1],
                    edge: image.width.flatMap { width in image.height.map { max(width, $0) } }
                ))
        }
        atEnd.forEach(add)
        let layout = Layout(
            .screen(width: width, columns: gallery.columns, arrangement: arrangement), aspectRatios: ratios, limit: items.count)
        self.init(
            name: name, title: gallery.title, columns: gallery.columns, canUndo: canUndo, canRedo: canRedo, version: version,
            arrivalFailure: arrivalFailure, items: items, layout: layout, count: ratios.count
        )
    }
}
