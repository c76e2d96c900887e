import Foundation

/// Where GalleryKit keeps state of its own, by the XDG Base Directory Specification: the browse
/// index in the cache folder, recents in the state folder, the Trash in the data folder.
///
/// Taken from the environment each time, so tests (and users) point them elsewhere by setting
/// `XDG_CACHE_HOME`, `XDG_STATE_HOME`, `XDG_DATA_HOME` or `HOME`.
public struct BaseDirectories: Sendable, Equatable {
    /// Non-essential data that can be rebuilt (`$XDG_CACHE_HOME`, default `~/.cache`).
    public var cache: URL
    /// State that should persist but is not worth backing up (`$XDG_STATE_HOME`, default `~/.local/state`).
    public var state: URL
    /// User data (`$XDG_DATA_HOME`, default `~/.local/share`); the Trash is `data/Trash`.
    public var data: URL

    /// The folders the environment names.
    ///
    /// The specification ignores a variable that is unset, empty or not an absolute path; the
    /// default under `HOME` is used instead (or under the user's home folder when `HOME` is unset).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func folder(_ variable: String, default relative: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(relative, isDirectory: true)
        }
        cache = folder("XDG_CACHE_HOME", default: ".cache")
        state = folder("XDG_STATE_HOME", default: ".local/state")
        data = folder("XDG_DATA_HOME", default: ".local/share")
    }

    /// GalleryKit's own folder inside one of these: `<base>/gallery`.
    public static func gallery(in base: URL) -> URL {
        base.appendingPathComponent("gallery", isDirectory: true)
    }
}
