import Foundation

/// The index's last steps after a listing, run in the background while the caller shows the
/// listing, whose documents are known by then: closing the database (which moves what the
/// listing wrote from the log into it) and, for a first listing, committing the new index,
/// making it durable and putting it in place. They change nothing the listing shows; done
/// first, they kept a first listing of 2,000 documents from printing for 3 to 4 ms.
///
/// The steps run on whichever comes first: a worker thread, or the thread that waits for them.
/// A caller on one of Dispatch's global threads (as `gallery serve` lists) would otherwise wait
/// for a thread that its own wait may be keeping busy.
final class IndexFinishing: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`: the steps until a thread takes them, then their outcome.
    private var steps: (@Sendable () -> Bool)?
    private var isIndexed: Bool?

    /// Steps already done: the index is, or is not, up to date with the listing.
    init(isIndexed: Bool) {
        self.isIndexed = isIndexed
    }

    /// Starts `steps` in the background; they return whether the index is up to date with the listing.
    init(running steps: @escaping @Sendable () -> Bool) {
        self.steps = steps
        DispatchQueue.global().async { self.runUnlessTaken() }
    }

    /// Waits for the steps to end, running them here if no thread has yet: whether the index is
    /// up to date with the listing.
    @discardableResult
    func wait() -> Bool {
        runUnlessTaken()
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let isIndexed { return isIndexed }
            condition.wait()
        }
    }

    private func runUnlessTaken() {
        let taken: (@Sendable () -> Bool)? = condition.withLock {
            defer { steps = nil }
            return steps
        }
        guard let taken else { return }
        let outcome = taken()
        condition.withLock {
            isIndexed = outcome
            condition.broadcast()
        }
    }
}
