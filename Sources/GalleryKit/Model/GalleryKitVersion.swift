/// The library's version, recorded as the manifest's `generator`.
public enum GalleryKitVersion {
    /// The version number, as `gallery --version` prints it.
    public static let version = "0.1.0"
    /// What a saved manifest records as its `generator`: `GalleryKit` and the version.
    public static let generator = "GalleryKit \(version)"
}
