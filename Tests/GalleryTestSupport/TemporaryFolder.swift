import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("gallerykit-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `data` to the file `name` in the folder.
    /// - Returns: the file.
    public func write(_ data: Data, to name: String) throws -> URL {
        let file = path(name)
        try data.write(to: file)
        return file
    }

    /// Sets the modification time of every file in the folder and below a minute back, so that
    /// a file written or touched next is the most recent of all, however coarse the file
    /// system's clock (its ticks are a few milliseconds): orders of use without sleeping.
    public func setEveryFileBack() throws {
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        for file in files {
            var status = stat()
            guard lstat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            var times = [status.st_atim, status.st_mtim]
            times[1].tv_sec -= 60
            guard utimensat(AT_FDCWD, file.path, times, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        }
    }

    /// The names in the folder, hidden ones included, sorted.
    public func listing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}

/// Where the repository's own files are.
public enum Repository {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let examples = root.appendingPathComponent("Specs/Examples")
    public static let sampleImages = examples.appendingPathComponent("images")

    /// The sample images shipped in `Specs/Examples/images`, sorted by name.
    public static func sampleImageFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sampleImages.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { sampleImages.appendingPathComponent($0) }
    }

    /// A sample JPEG by name fragment.
    public static func sampleImage(_ fragment: String) -> URL {
        sampleImageFiles().first { $0.lastPathComponent.contains(fragment) } ?? sampleImages.appendingPathComponent(fragment)
    }
}

extension TemporaryFolder {
    /// Copies of a sample JPEG made distinct (and `padding` bytes larger) by bytes after its end
    /// marker, which decoders ignore: unique content addresses without an image encoder.
    public func distinctImages(_ count: Int, padding: Int = 0, from sample: URL) throws -> [URL] {
        let original = try Data(contentsOf: sample)
        return try (0..<count).map { index in
            var data = original
            data.append(Data("gallerykit-\(index)-".utf8))
            if padding > 0 {
                var generator = SystemRandomNumberGenerator()
                data.append(Data((0..<padding).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            }
            let url = path("image-\(index).\(sample.pathExtension)")
            try data.write(to: url)
            return url
        }
    }
}
