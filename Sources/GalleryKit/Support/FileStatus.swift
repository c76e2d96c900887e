import Foundation

// The one place that knows how each platform names a file's times in `stat`: Linux's
// `st_atim`, `st_mtim` and `st_ctim`, Darwin's `st_atimespec`, `st_mtimespec` and `st_ctimespec`.
extension stat {
    /// The modification time, in nanoseconds since 1970.
    var modifiedNanoseconds: Int64 {
        #if canImport(Darwin)
            Self.nanoseconds(st_mtimespec)
        #else
            Self.nanoseconds(st_mtim)
        #endif
    }

    /// The status-change time, in nanoseconds since 1970.
    var changedNanoseconds: Int64 {
        #if canImport(Darwin)
            Self.nanoseconds(st_ctimespec)
        #else
            Self.nanoseconds(st_ctim)
        #endif
    }

    /// The access and modification times, as `utimensat` takes them.
    var accessAndModificationTimes: [timespec] {
        #if canImport(Darwin)
            [st_atimespec, st_mtimespec]
        #else
            [st_atim, st_mtim]
        #endif
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
