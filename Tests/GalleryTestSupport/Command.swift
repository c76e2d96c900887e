import Foundation

/// Runs a program and collects what it printed.
public struct CommandResult: Sendable, CustomStringConvertible {
    public var status: Int32
    public var output: String
    public var errorOutput: String

    public var description: String { "exit \(status)\nstdout: \(output)\nstderr: \(errorOutput)" }
}

public enum Command {
    /// The `gallery` binary built beside the test bundle.
    public static var gallery: URL {
        if let path = ProcessInfo.processInfo.environment["GALLERY_BINARY"] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // On macOS the tests run inside an .xctest bundle: Contents/MacOS/<name>.
        while folder.pathExtension == "xctest" || ["MacOS", "Contents"].contains(folder.lastPathComponent) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("gallery")
    }

    /// Runs `gallery` with `arguments` in `folder` and waits for it.
    @discardableResult
    public static func gallery(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> CommandResult {
        try run(gallery, arguments, in: folder, environment: environment)
    }

    /// The environment for programs tests start: this process's, with `XDG_CACHE_HOME`,
    /// `XDG_STATE_HOME` and `XDG_DATA_HOME` in a folder of this test run (removed at exit), so the
    /// browse index, the recents and the Trash that `gallery` commands write never touch the
    /// real home's. Without `COLUMNS`, so that a table is as wide as its cells unless a test
    /// sets it.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(isolatedFolders) { $1 }
        environment["COLUMNS"] = nil
        return environment
    }

    private static let isolatedFolders: [String: String] = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("gallerykit-tests-home-\(getpid())")
        atexit {
            try? FileManager.default.removeItem(
                at: FileManager.default.temporaryDirectory.appendingPathComponent("gallerykit-tests-home-\(getpid())"))
        }
        return [
            "XDG_CACHE_HOME": base.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": base.appendingPathComponent("state").path,
            "XDG_DATA_HOME": base.appendingPathComponent("data").path,
        ]
    }()

    /// Runs `program` and waits for it.
    public static func run(
        _ program: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = Self.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let outputData = ReadAll(output.fileHandleForReading)
        let errorData = ReadAll(errors.fileHandleForReading)
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            output: String(decoding: outputData.wait(), as: UTF8.self),
            errorOutput: String(decoding: errorData.wait(), as: UTF8.self)
        )
    }

    /// Finds a program on PATH.
    public static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Reads a pipe to its end on a background thread.
private final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

extension Command {
    /// Runs `gallery` with `arguments` until it reaches the named `SavePoint` (the library's test
    /// hook), kills it there, and says whether it got there: the handshake that lets a crash test
    /// stop a save exactly where it wants, whatever the machine's speed. A minute at most, as a
    /// bound on a broken hook, not a timing.
    public static func killGallery(
        _ arguments: [String], atSavePoint point: String, in folder: URL, environment: [String: String] = [:]
    ) throws -> Bool {
        let signals = TemporaryFolder()
        let signal = signals.path("paused")
        let process = Process()
        process.executableURL = gallery
        process.arguments = arguments
        process.environment = Self.environment.merging(environment) { $1 }.merging(
            ["GALLERYKIT_PAUSE_AT": point, "GALLERYKIT_PAUSED": signal.path]
        ) { $1 }
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: signal.path), process.isRunning, Date() < deadline { usleep(5_000) }
        let paused = FileManager.default.fileExists(atPath: signal.path)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return paused
    }
}

/// A suite that runs `gallery` in a temporary folder of its own.
public protocol GalleryCommandSuite {
    var folder: TemporaryFolder { get }
}

extension GalleryCommandSuite {
    /// Runs `gallery` with `arguments` in the suite's folder.
    public func gallery(_ arguments: String...) throws -> CommandResult {
        try Command.gallery(arguments, in: folder.url)
    }
}
