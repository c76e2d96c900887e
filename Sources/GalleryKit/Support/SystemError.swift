import Foundation

/// A system call's failure, its `errno`: what `FileLocation`'s calls throw (as swift-system's
/// `Errno`), instead of a status to test and a global to read before anything changes it.
struct SystemError: Error, Equatable, Sendable {
    var code: Int32

    /// The calling thread's `errno` now.
    static var current: SystemError { SystemError(code: errno) }

    /// `EEXIST`: something has the name already.
    static let exists = SystemError(code: EEXIST)
    /// `EXDEV`: the two names are on different file systems.
    static let crossesDevices = SystemError(code: EXDEV)

    /// Throws `current` unless `status` (a system call's result) is 0.
    static func check(_ status: Int32) throws(SystemError) {
        guard status == 0 else { throw current }
    }
}
