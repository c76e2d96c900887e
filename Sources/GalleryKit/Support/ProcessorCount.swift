import Foundation

/// The processors this process may use, read once: Foundation reads the cgroup's quota files on
/// every `activeProcessorCount`, two files opened and read each time (0.1–0.2 ms), and a big
/// gallery's reading and printing ask several times.
package enum ProcessorCount {
    package static let active = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
