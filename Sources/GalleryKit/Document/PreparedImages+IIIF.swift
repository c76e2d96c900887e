import Foundation

extension PreparedImages {
    /// The images of a IIIF manifest, fetched and probed as web images are
    /// (`prepare(_:cache:thumbnails:skippingFailed:optional:fetcher:progress:)`), each with its
    /// canvas's label as its caption and the canvas's credit over what the image says of itself.
    /// An image that cannot be fetched is a failed item, unless `skippingFailed`.
    /// - Throws: `.invalidArgument` for an image URL that is not http(s).
    public static func prepare(
        _ manifest: IIIFManifest, cache: Bool, thumbnails: Bool = true, skippingFailed: Bool = false,
        fetcher: ImageFetcher?, progress: (@Sendable (ImageFetcher.Progress) -> Void)? = nil
    ) async throws -> PreparedImages {
        let sources = try manifest.images.map { try ImageSource($0.url) }
        var prepared = try await prepare(
            sources, cache: cache, thumbnails: thumbnails, skippingFailed: skippingFailed, fetcher: fetcher, progress: progress)
        // Left out, a failed image has no place in `images`: the others keep the manifest's order.
        let leftOut = skippingFailed ? Set(prepared.failures.map(\.position)) : []
        let positions = manifest.images.indices.filter { !leftOut.contains($0) }
        for (offset, position) in zip(prepared.images.indices, positions) {
            let canvas = manifest.images[position]
            if let caption = canvas.caption { prepared.images[offset].caption = String(caption.prefix(Gallery.maximumTextLength)) }
            if let own = canvas.attribution {
                prepared.images[offset].attribution = own.resolved(over: prepared.images[offset].attribution).limited
            }
        }
        return prepared
    }
}
