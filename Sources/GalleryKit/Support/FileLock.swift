import Foundation

/// An advisory lock (`flock`) on a file or a folder, held until the value goes away: the one lock
/// of GalleryKit's holders (a document's folder, an export's staging folder, the browse index,
/// the recent documents, the image cache).
///
/// `flock` rather than `fcntl` locks, which a process silently loses when it closes any other
/// descriptor of the same file. Each lock opens the file itself, so two locks of one process
/// exclude each other as two processes' do. `Sendable`: a listing's last steps hold the index's
/// lock in the background until they are done; one thread at a time uses it.
final class FileLock: Sendable {
    enum Mode {
        case shared, exclusive

        var operation: Int32 { self == .shared ? LOCK_SH : LOCK_EX }
    }

    /// Why a lock was not taken.
    enum Failure: Error, Equatable {
        /// The file could not be opened (its `errno`).
        case cannotOpen(SystemError)
        /// Someone else held the lock for the whole wait.
        case timedOut
        /// `flock` cannot lock this file at all (its `errno`).
        case cannotLock(SystemError)
    }

    private let descriptor: Int32

    /// Opens `url` with `flags` (with `O_CREAT`, a lock file of permissions `mode`) and waits up
    /// to `timeout` for the lock, trying again every `interval` (`flock` itself either blocks
    /// for ever or fails at once); a timeout of zero tries once.
    init(
        _ url: URL, opening flags: Int32, mode: mode_t = 0o644, _ lockMode: Mode, within timeout: Duration,
        retryingEvery interval: Duration = .milliseconds(5)
    ) throws(Failure) {
        // Stored only once locked: a throwing init whose properties are all set also runs deinit,
        // and closing the descriptor twice could close another thread's file.
        let descriptor = FileLocation.open(url, flags | O_CLOEXEC, mode: mode)
        guard descriptor >= 0 else { throw .cannotOpen(.current) }
        let failure = Self.acquire(lockMode, on: descriptor, within: timeout, retryingEvery: interval)
        guard failure == 0 else {
            close(descriptor)
            throw failure == EWOULDBLOCK ? .timedOut : .cannotLock(SystemError(code: failure))
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the last descriptor releases the lock.
        close(descriptor)
    }

    /// Changes a held lock to `mode`, waiting up to `timeout`; false if the time ran out.
    /// Converting a flock is not atomic: after a failure the lock held before may be gone too.
    func convert(to mode: Mode, within timeout: Duration, retryingEvery interval: Duration = .milliseconds(5)) -> Bool {
        Self.acquire(mode, on: descriptor, within: timeout, retryingEvery: interval) == 0
    }

    /// Takes `mode` on `descriptor`, trying again every `interval` until `timeout` has passed.
    /// - Returns: 0 once taken, or the error number that ended the wait: `EWOULDBLOCK` when the
    ///   time ran out, anything else when `flock` cannot lock this file at all.
    private static func acquire(_ mode: Mode, on descriptor: Int32, within timeout: Duration, retryingEvery interval: Duration) -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let pause = useconds_t(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        while flock(descriptor, mode.operation | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else { return failure }
            guard clock.now < deadline else { return EWOULDBLOCK }
            usleep(pause)
        }
        return 0
    }
}
