import Foundation

extension PreparedImages {
    /// The images of a IIIF manifest, in order, each with its canvas's label as its caption and
    /// the canvas's credit over what the image says of itself.
    ///
    /// An image with an image service is not downloaded unless its bytes are to be stored: its
    /// size comes from the service's `info.json`, a few hundred bytes. Any other is fetched and
    /// probed as web images are. An image that cannot be had is a failed item, unless
    /// `skippingFailed`.
    /// - Throws: `.invalidArgument` for an image URL that is not http(s).
    public static func prepare(
        _ manifest: IIIFManifest, cache: Bool, thumbnails: Bool = true, skippingFailed: Bool = false,
        fetcher: ImageFetcher?, progress: (@Sendable (ImageFetcher.Progress) -> Void)? = nil
    ) async throws -> PreparedImages {
        let sized = cache ? [] : manifest.images.indices.filter { manifest.images[$0].serviceInfo != nil }
        let downloaded = manifest.images.indices.filter { !sized.contains($0) }
        let sources = try downloaded.map { try ImageSource(manifest.images[$0].url) }
        var prepared = try await prepare(
            sources, cache: cache, thumbnails: thumbnails, skippingFailed: skippingFailed, fetcher: fetcher, progress: progress)
        var slots = [GalleryImage?](repeating: nil, count: manifest.images.count)
        // Left out, a failed download has no place in `images`: the others keep their order.
        let leftOut = skippingFailed ? Set(prepared.failures.map { downloaded[$0.position] }) : []
        for (image, position) in zip(prepared.images, downloaded.filter { !leftOut.contains($0) }) { slots[position] = image }
        var failures = prepared.failures.map { failure in
            var failure = failure
            failure.position = downloaded[failure.position]
            return failure
        }
        for (position, outcome) in zip(sized, await sizes(of: sized.map { manifest.images[$0] }, fetcher: fetcher)) {
            let url = manifest.images[position].url
            switch outcome {
            case .success(let size):
                slots[position] = GalleryImage(
                    url: url, aspectRatio: Double(size.width) / Double(size.height), width: size.width, height: size.height)
            case .failure(let failure):
                failures.append(Failure(position: position, source: url.absoluteString, reason: failure.reason))
                if !skippingFailed { slots[position] = GalleryImage(url: url, aspectRatio: 1, status: .failed, error: failure.reason) }
            }
        }
        prepared.images = slots.enumerated().compactMap { position, image in
            guard var image else { return nil }
            let canvas = manifest.images[position]
            if let caption = canvas.caption { image.caption = String(caption.prefix(Gallery.maximumTextLength)) }
            if let own = canvas.attribution { image.attribution = own.resolved(over: image.attribution).limited }
            return image
        }
        prepared.failures = failures.sorted { $0.position < $1.position }
        return prepared
    }

    /// The pixel sizes the image services of `images` give in their `info.json`, a few at a time.
    private static func sizes(
        of images: [IIIFManifest.Image], fetcher: ImageFetcher?
    ) async -> [Result<(width: Int, height: Int), FetchFailure>] {
        guard let fetcher else { return images.map { _ in .failure(FetchFailure("no fetcher to ask the image service")) } }
        var results = [Result<(width: Int, height: Int), FetchFailure>](repeating: .failure(FetchFailure("not asked")), count: images.count)
        for start in stride(from: 0, to: images.count, by: 8) {
            await withTaskGroup(of: (Int, Result<(width: Int, height: Int), FetchFailure>).self) { group in
                for index in start..<min(start + 8, images.count) {
                    group.addTask { (index, await size(of: images[index], fetcher: fetcher)) }
                }
                for await (index, result) in group { results[index] = result }
            }
        }
        return results
    }

    private static func size(of image: IIIFManifest.Image, fetcher: ImageFetcher) async -> Result<(width: Int, height: Int), FetchFailure> {
        guard let info = image.serviceInfo else { return .failure(FetchFailure("no image service")) }
        do {
            let data = try await fetcher.document(at: info, maximumBytes: 1 << 20)
            guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data),
                case .integer(let width)? = fields["width"], case .integer(let height)? = fields["height"], width > 0, height > 0
            else { return .failure(FetchFailure("the image service's info.json gives no size")) }
            return .success((Int(width), Int(height)))
        } catch let error as GalleryError {
            return .failure(FetchFailure(error.reason, detail: error.detail))
        } catch {
            return .failure(FetchFailure("\(error)"))
        }
    }
}
