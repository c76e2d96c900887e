import Foundation

/// Waiting for an `flock` with a deadline, for the document folder's lock, the browse index's
/// and the recents file's: `flock` itself either blocks for ever or fails at once.
enum FlockWait {
    /// Takes `operation` (`LOCK_EX` or `LOCK_SH`) on `descriptor`, trying again every `interval`
    /// until `timeout` has passed.
    /// - Returns: 0 once taken, or the error number that ended the wait: `EWOULDBLOCK` when the
    ///   time ran out, anything else when `flock` cannot lock this file at all.
    static func acquire(_ operation: Int32, on descriptor: Int32, within timeout: Duration, retryingEvery interval: Duration) -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let pause = useconds_t(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        while flock(descriptor, operation | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else { return failure }
            guard clock.now < deadline else { return EWOULDBLOCK }
            usleep(pause)
        }
        return 0
    }
}
