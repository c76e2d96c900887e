import Foundation

/// Work started in the background, whose result a thread waits for when it needs it: a
/// listing's index made aside while the folder is scanned, the index's last steps while the
/// listing is shown.
///
/// The work runs on whichever comes first: a worker thread, or the thread that waits for it.
/// A caller on one of Dispatch's global threads (as `gallery serve` lists) would otherwise wait
/// for a thread that its own wait may be keeping busy.
final class BackgroundWork<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`: the work until a thread takes it, then its result.
    private var work: (@Sendable () -> Result)?
    private var result: Result?

    /// Work already done.
    init(done result: Result) {
        self.result = result
    }

    /// Starts `work` in the background, on a thread of its own: Dispatch's first worker thread
    /// took 1 to 2 ms to start, longer than a listing's scan of 2,000 documents that the work
    /// was meant to run beside.
    init(running work: @escaping @Sendable () -> Result) {
        self.work = work
        Thread.detachNewThread { self.runUnlessTaken() }
    }

    /// Waits for the work to end, running it here if no thread has yet: its result.
    @discardableResult
    func wait() -> Result {
        runUnlessTaken()
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }

    private func runUnlessTaken() {
        let taken: (@Sendable () -> Result)? = condition.withLock {
            defer { work = nil }
            return work
        }
        guard let taken else { return }
        let outcome = taken()
        condition.withLock {
            result = outcome
            condition.broadcast()
        }
        // What the work holds is let go of once its result is out, not before: the index's last
        // steps hold its closed database, whose release (GRDB unregistering it from Foundation's
        // notifications, a first dynamic cast) kept a first listing from ending for 0.4 ms.
        withExtendedLifetime(taken) {}
    }
}
