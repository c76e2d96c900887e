import Dispatch
import Foundation
import GalleryKit

/// What the routes share: the folder, the library's stores, the edit queue, change events and
/// images on their way in.
final class Services: Sendable {
    let configuration: GalleryServer.Configuration
    let folder: DocumentFolder
    let trash: Trash
    let recents: RecentDocuments
    let browser: DocumentBrowser
    let edits = EditQueue()
    let openedDocuments = OpenedDocuments()
    let events: DocumentEvents
    let arrivals: Arrivals
    let fetcher: ImageFetcher
    let remoteImages: RemoteImages
    let renditions: Renditions
    let uploads: URL

    init(configuration: GalleryServer.Configuration, folder: DocumentFolder) {
        self.configuration = configuration
        self.folder = folder
        trash = Trash(directories: configuration.directories)
        recents = RecentDocuments(directories: configuration.directories)
        browser = DocumentBrowser(index: DocumentIndex(directories: configuration.directories))
        events = DocumentEvents(pollInterval: configuration.pollInterval)
        arrivals = Arrivals()
        let capacity = configuration.imageCacheCapacity
        fetcher = ImageFetcher(
            configuration: configuration.fetching,
            cache: capacity > 0 ? ImageCache(directories: configuration.directories, capacity: capacity) : nil)
        renditions = Renditions(fetcher: fetcher)
        remoteImages = RemoteImages(fetcher: fetcher, renditions: renditions)
        uploads = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-serve-\(GalleryServer.randomHex(byteCount: 8))")
    }

    /// Waits for images being fetched, then lets go of the fetcher and the uploads folder.
    func shutdown() async {
        await arrivals.waitForAll()
        await renditions.stop()
        await fetcher.shutdown()
        try? FileManager.default.removeItem(at: uploads)
    }
}

/// Runs blocking work (file I/O, locks, decoding) on Dispatch's threads instead of Swift's
/// cooperative pool, which has a thread per core: a document being saved must not stall every
/// other request.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
