import Foundation

/// A lock held by many at once or by one alone (a readers–writer lock). One who waits to hold
/// it alone goes before those who come to share it after, so a steady flow of sharers cannot
/// keep it waiting for ever.
final class SharedLock: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var sharers = 0
    private var isHeldAlone = false
    private var waitingAlone = 0

    /// Runs `body` holding the lock with others.
    func withShared<T>(_ body: () throws -> T) rethrows -> T {
        condition.withLock {
            while isHeldAlone || waitingAlone > 0 { condition.wait() }
            sharers += 1
        }
        defer {
            condition.withLock {
                sharers -= 1
                if sharers == 0 { condition.broadcast() }
            }
        }
        return try body()
    }

    /// Runs `body` holding the lock alone.
    func withExclusive<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.withLock {
            waitingAlone += 1
            while isHeldAlone || sharers > 0 { condition.wait() }
            waitingAlone -= 1
            isHeldAlone = true
        }
        defer {
            condition.withLock {
                isHeldAlone = false
                condition.broadcast()
            }
        }
        return try body()
    }
}
