/// The library's version, recorded as the manifest's `generator`.
public enum GalleryKitVersion {
    public static let version = "0.1.0"
    public static let generator = "GalleryKit \(version)"
}
