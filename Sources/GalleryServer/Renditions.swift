import Foundation
import GalleryKit

/// The display sizes (`Rendition`) the page asks for: from the image cache, or made.
///
/// A size being made is made once however many requests ask for it meanwhile. When the page
/// asks for one size of an image (a grid tile's), its larger sizes (the viewer's, a zoom's) are
/// made *ahead*, from one decode, whenever no request is waiting for a size: a tap on a tile
/// then finds the viewer's picture made. Made on request, the 2048 of a 24-megapixel JPEG takes
/// this 2-core machine 0.6–0.9 s (the decoder alone needs ~0.14 s at half scale); from the
/// cache, about a millisecond.
///
/// Ahead work is bounded: only the most recent `aheadLimit` images wait, and nothing is made
/// ahead without a cache to keep it in.
actor Renditions {
    /// The image bytes a size is made from, read only when one must be made.
    typealias Source = @Sendable () async -> Data?

    private struct Ahead {
        var sha256: String
        var longEdges: [Int]
        var bytes: Source
    }

    /// How many images wait at most to have their larger sizes made ahead: the tiles of about
    /// a screen; older ones (scrolled past) are forgotten.
    static let aheadLimit = 24

    private let fetcher: ImageFetcher
    private var making: [String: Task<[Int: Data], Never>] = [:]
    private var ahead: [Ahead] = []
    private var answering = 0
    private var idle: [CheckedContinuation<Void, Never>] = []
    private var worker: Task<Void, Never>?

    init(fetcher: ImageFetcher) {
        self.fetcher = fetcher
    }

    /// The rendition with this long edge of the image whose bytes have `sha256` (from `bytes`);
    /// `nil` when libvips cannot read the image. Its larger sizes are then made ahead.
    func rendition(longEdge: Int, ofImageWithSHA256 sha256: String, bytes: @escaping Source) async -> Data? {
        answering += 1
        let made = await sizes([longEdge], of: sha256, bytes: bytes)[longEdge]
        answering -= 1
        if answering == 0 {
            for waiter in idle { waiter.resume() }
            idle = []
        }
        if made != nil { planAhead(Ahead(sha256: sha256, longEdges: Rendition.ladder.filter { $0 > longEdge }, bytes: bytes)) }
        return made
    }

    /// Returns once nothing is left to make ahead (for tests).
    func aheadIsDone() async {
        await worker?.value
    }

    /// Forgets what was to be made ahead, and waits for what is being made.
    func stop() async {
        ahead = []
        await worker?.value
    }

    /// The renditions of these long edges: those being made awaited, the others made (or taken
    /// from the cache) in one go.
    private func sizes(_ longEdges: [Int], of sha256: String, bytes: @escaping Source) async -> [Int: Data] {
        let joined = Dictionary(
            longEdges.compactMap { edge in making[key(sha256, edge)].map { (edge, $0) } }, uniquingKeysWith: { a, _ in a })
        let rest = longEdges.filter { joined[$0] == nil }
        var found: [Int: Data] = [:]
        if !rest.isEmpty {
            let fetcher = fetcher
            let task = Task<[Int: Data], Never> {
                let cached = (try? await offloaded { fetcher.cachedRenditions(longEdges: rest, ofImageWithSHA256: sha256) }) ?? [:]
                // Only the sizes the cache lacks are made (the cached ones are not read again).
                let missing = rest.filter { cached[$0] == nil }
                guard !missing.isEmpty, let image = await bytes() else { return cached }
                let made = (try? await offloaded { fetcher.renditions(longEdges: missing, ofImageWithSHA256: sha256) { image } }) ?? [:]
                return cached.merging(made) { kept, _ in kept }
            }
            for edge in rest { making[key(sha256, edge)] = task }
            found = await task.value
            for edge in rest { making[key(sha256, edge)] = nil }
        }
        for (edge, task) in joined { found[edge] = await task.value[edge] }
        return found
    }

    private func planAhead(_ job: Ahead) {
        guard fetcher.cache != nil, !job.longEdges.isEmpty, !ahead.contains(where: { $0.sha256 == job.sha256 }) else { return }
        ahead.append(job)
        if ahead.count > Self.aheadLimit { ahead.removeFirst() }
        if worker == nil { worker = Task { await self.workAhead() } }
    }

    /// Makes the waiting images' larger sizes, oldest first (the page asks for the tiles it
    /// wants most first), one image at a time and only while no request waits for a size.
    private func workAhead() async {
        while true {
            while answering > 0 { await withCheckedContinuation { idle.append($0) } }
            guard !ahead.isEmpty else { break }
            let job = ahead.removeFirst()
            _ = await sizes(job.longEdges, of: job.sha256, bytes: job.bytes)
        }
        worker = nil
    }

    private func key(_ sha256: String, _ longEdge: Int) -> String { ImageCache.key(forRenditionOf: sha256, longEdge: longEdge) }
}
