import Foundation

/// The mounted file systems, from `/proc/self/mounts`: where to look for volumes' trash folders.
enum MountTable {
    /// Kernel file systems that never hold a user's files (and some of which are slow to stat).
    static let pseudoFileSystems: Set<String> = [
        "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "mqueue", "debugfs", "tracefs", "securityfs",
        "pstore", "bpf", "fusectl", "configfs", "hugetlbfs", "autofs", "binfmt_misc", "nsfs", "rpc_pipefs", "efivarfs",
    ]

    /// The mount points of real file systems, as absolute paths (bytes).
    static func mountPoints() -> [[UInt8]] {
        guard let table = FileLocation.contents(of: URL(fileURLWithPath: "/proc/self/mounts"), limit: 4 << 20) else { return [] }
        return mountPoints(in: table)
    }

    /// The mount points a `/proc/self/mounts` table lists (`device mountpoint type options …`
    /// per line; space, tab, newline and backslash in a path written as `\040`-style octal).
    static func mountPoints(in table: [UInt8]) -> [[UInt8]] {
        var points: [[UInt8]] = []
        for line in table.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count >= 3 else { continue }
            let type = String(decoding: fields[2], as: UTF8.self)
            guard !pseudoFileSystems.contains(type) else { continue }
            let point = unescaped(Array(fields[1]))
            guard point.first == UInt8(ascii: "/"), !points.contains(point) else { continue }
            points.append(point)
        }
        return points
    }

    /// A field with its octal escapes (`\040` for a space) decoded.
    private static func unescaped(_ field: [UInt8]) -> [UInt8] {
        EscapedBytes.decoded(field, escape: UInt8(ascii: "\\"), digits: 3, radix: 8)
    }
}
