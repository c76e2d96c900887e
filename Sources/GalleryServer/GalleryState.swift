import Foundation
import GalleryKit

/// A gallery as its page shows it: the images (and placeholders for those arriving) in order,
/// and their frames from `GalleryLayout` for the page's width — the layout has one source, the
/// library; the page only positions what it is given.
struct GalleryState: Encodable, Sendable {
    struct Item: Encodable, Sendable {
        var id: String
        /// `ok`, `failed` (an error tile), or `loading` (a placeholder, or an image being tried again).
        var status: String
        var url: String
        var caption: String?
        var error: String?
        var alt: String
        var width: Int?
        var height: Int?
        var hasThumbnail: Bool
        var isCached: Bool
        /// Set on a placeholder: it is not in the document yet.
        var isPlaceholder: Bool
        /// The viewer's filmstrip width of this image when current (`GalleryLayout.filmstrip`,
        /// settled), in CSS pixels; the other cells are `stripCell` squares.
        var stripWidth: Double = GalleryState.stripCell
    }

    /// The side of the viewer's filmstrip cells, in CSS pixels.
    static let stripCell = 56.0

    struct Layout: Encodable, Sendable {
        var style: LayoutStyle
        var width: Double
        var height: Double
        /// `[x, y, width, height]` per item, in CSS pixels.
        var frames: [[Double]]
    }

    var name: String
    var title: String
    var columns: Int
    var canUndo: Bool
    var canRedo: Bool
    var version: String
    /// Why the last images dropped in could not be added (the document was renamed or busy),
    /// until images arrive again.
    var arrivalFailure: String?
    var items: [Item]
    var layout: Layout
}

/// How a gallery page lays out its images.
enum LayoutStyle: String, Encodable, Sendable {
    /// Rows filled edge to edge, images keeping their shapes (the default).
    case justified
    /// The original app's columns, each image as wide as a column.
    case grid

    /// The gap between images, in CSS pixels: less on a phone.
    static func spacing(forWidth width: Double) -> Double { width < 600 ? 4 : 6 }

    /// The frames of items with these aspect ratios for a page `width` wide. The columns setting
    /// gives the grid its columns and the justified rows their height (about as tall as a
    /// column is wide), so the same control changes the images per row in both.
    func layout(aspectRatios: [Double], columns: Int, width: Double) -> GalleryState.Layout {
        let spacing = Self.spacing(forWidth: width)
        let layout = switch self {
        case .grid: GalleryLayout.grid(aspectRatios: aspectRatios, columns: columns, width: width, spacing: spacing)
        case .justified:
            GalleryLayout.justified(
                aspectRatios: aspectRatios, width: width,
                rowHeight: (width - Double(columns - 1) * spacing) / Double(max(columns, 1)), spacing: spacing
            )
        }
        return .init(
            style: self, width: width, height: layout.contentHeight,
            frames: layout.frames.map { [Self.rounded($0.x), Self.rounded($0.y), Self.rounded($0.width), Self.rounded($0.height)] }
        )
    }

    /// Hundredths of a pixel: exact enough, and a tenth of the digits.
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

extension GalleryState {
    /// The state of `gallery`, with `placeholders` standing before the images they will precede
    /// (in their order), laid out for `width`.
    init(
        name: String, gallery: Gallery, canUndo: Bool, canRedo: Bool, version: String,
        placeholders: [Arrivals.Placeholder], retrying: Set<UUID>, arrivalFailure: String? = nil, style: LayoutStyle, width: Double
    ) {
        var before: [UUID: [Arrivals.Placeholder]] = [:]
        var atEnd: [Arrivals.Placeholder] = []
        let present = Set(gallery.images.map(\.id))
        for placeholder in placeholders {
            if let next = placeholder.before, present.contains(next) { before[next, default: []].append(placeholder) } else { atEnd.append(placeholder) }
        }
        var items: [Item] = []
        var ratios: [Double] = []
        items.reserveCapacity(gallery.images.count + placeholders.count)
        func add(_ placeholder: Arrivals.Placeholder) {
            items.append(Item(
                id: placeholder.id.uuidString.lowercased(), status: "loading", url: placeholder.source, alt: "Arriving: \(placeholder.source)",
                hasThumbnail: false, isCached: false, isPlaceholder: true
            ))
            ratios.append(1)
        }
        for (offset, image) in gallery.images.enumerated() {
            before[image.id]?.forEach(add)
            let status = retrying.contains(image.id) ? "loading" : image.hasFailed ? "failed" : "ok"
            let alt = image.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "Image \(offset + 1)"
            items.append(Item(
                id: image.id.uuidString.lowercased(), status: status, url: image.url.absoluteString, caption: image.caption, error: image.error,
                alt: alt, width: image.width, height: image.height, hasThumbnail: image.thumbnail != nil,
                isCached: image.isCached, isPlaceholder: false,
                stripWidth: image.hasFailed ? Self.stripCell : GalleryLayout.filmstrip(
                    aspectRatios: [image.aspectRatio], current: 0, expansion: 1, width: Self.stripCell, height: Self.stripCell
                ).frames[0].width.rounded()
            ))
            ratios.append(image.hasFailed ? 1 : image.aspectRatio)
        }
        atEnd.forEach(add)
        self.init(
            name: name, title: gallery.title, columns: gallery.columns, canUndo: canUndo, canRedo: canRedo, version: version,
            arrivalFailure: arrivalFailure, items: items, layout: style.layout(aspectRatios: ratios, columns: gallery.columns, width: width)
        )
    }
}
