import Foundation

/// Work started in the background, whose result a thread waits for when it needs it: a
/// listing's index made aside while the folder is scanned, the index's last steps while the
/// listing is shown.
///
/// The work runs on whichever comes first: its own thread, or the thread that waits for it
/// (which then need not wait for that thread to start).
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`: the work until a thread takes it, then its result.
    private var work: (@Sendable () -> Value)?
    private var result: Value?

    /// Work already done.
    init(done result: Value) {
        self.result = result
    }

    /// Starts `work` in the background, on a thread of its own: Dispatch's first worker thread
    /// took 1.2 to 1.8 ms to start (traced), longer than the scan of 2,000 documents (1.3 to
    /// 1.6 ms) that a first listing's index is made beside. On one of Dispatch's global threads,
    /// a caller (as `gallery serve` lists from them) could also wait for a thread that its own
    /// wait keeps busy.
    init(running work: @escaping @Sendable () -> Value) {
        self.work = work
        Thread.detachNewThread { self.runUnlessTaken() }
    }

    /// Waits for the work to end, running it here if no thread has yet: its result.
    @discardableResult
    func wait() -> Value {
        runUnlessTaken()
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }

    private func runUnlessTaken() {
        let taken: (@Sendable () -> Value)? = condition.withLock {
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
        // notifications, a first dynamic cast) kept a first listing from ending for 0.4 ms
        // (perf, 40 listings). A waiter that ran the work itself still lets go of it first.
        withExtendedLifetime(taken) {}
    }
}
