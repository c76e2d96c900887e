import Foundation
import GalleryKit

/// One line on the terminal that updates as downloads finish: done/total, bytes, failures.
/// Silent when stderr is not a terminal (a pipe, a log, the tests) or when asked to be quiet.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var shown = false  // guarded by lock

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    @Sendable func show(_ progress: ImageFetcher.Progress) {
        guard enabled else { return }
        let megabytes = Double(progress.bytes) / 1_048_576
        var text = String(format: "\rFetching images: %d/%d, %.1f MB", progress.finished, progress.total, megabytes)
        if progress.failures > 0 { text += ", \(progress.failures) failed" }
        lock.withLock {
            shown = true
            FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
        }
    }

    /// Ends the line so what follows starts on a fresh one.
    func finish() {
        guard enabled, lock.withLock({ shown }) else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
