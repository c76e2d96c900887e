import Foundation

/// The index's last steps after a listing, run in the background while the caller shows the
/// listing, whose documents are known by then: closing the database (which moves what the
/// listing wrote from the log into it) and, for a first listing, making the new index durable
/// and putting it in place. They change nothing the listing shows; done first, they kept a first
/// listing of 2,000 documents from printing for 2 ms, most of it an `fdatasync`.
final class IndexFinishing: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once, by the steps, before `done` is left; read only after waiting for it.
    private var isIndexed: Bool

    /// Steps already done: the index is, or is not, up to date with the listing.
    init(isIndexed: Bool) {
        self.isIndexed = isIndexed
    }

    /// Starts `steps` in the background; they return whether the index is up to date with the listing.
    init(running steps: @escaping @Sendable () -> Bool) {
        isIndexed = false
        done.enter()
        DispatchQueue.global().async { [self] in
            isIndexed = steps()
            done.leave()
        }
    }

    /// Waits for the steps to end: whether the index is up to date with the listing.
    @discardableResult
    func wait() -> Bool {
        done.wait()
        return isIndexed
    }
}
