import Foundation

/// Cleans the links a browser hands over when an image is dragged out of a search engine's
/// results: they point at a results page that wraps the real image URL in a query parameter
/// (spec §11.2 lists them).
public enum WrapperURL {
    /// A wrapper: where it is recognised, and which query parameters may hold the image URL.
    struct Rule {
        var hosts: [String]
        var paths: [String]
        var parameters: [String]
    }

    static let rules: [Rule] = [
        // https://www.google.com/imgres?imgurl=<image>&imgrefurl=<page>…
        Rule(hosts: ["google."], paths: ["/imgres"], parameters: ["imgurl"]),
        // https://www.google.com/url?url=<target>… (links in results and in Google Images)
        Rule(hosts: ["google."], paths: ["/url"], parameters: ["url", "q"]),
        // https://www.bing.com/images/search?…&mediaurl=<image>…
        Rule(hosts: ["bing.com"], paths: ["/images/search", "/images/detail"], parameters: ["mediaurl"]),
        // https://duckduckgo.com/?…&iax=images&iai=<image>… and external-content.duckduckgo.com/iu/?u=<image>
        Rule(hosts: ["duckduckgo.com"], paths: ["/", "/iu/", "/iu"], parameters: ["iai", "u", "iurl"]),
        // https://yandex.com/images/search?…&img_url=<image>…
        Rule(hosts: ["yandex."], paths: ["/images/search"], parameters: ["img_url"]),
    ]

    /// The image URL `url` wraps, or `url` itself when it is not a known wrapper.
    /// Wrappers inside wrappers are unwrapped too (at most a few levels).
    public static func unwrap(_ url: URL) -> URL {
        var current = url
        for _ in 0..<4 {
            guard let inner = innerURL(of: current) else { break }
            current = inner
        }
        return current
    }

    private static func innerURL(of url: URL) -> URL? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let host = components.host?.lowercased(),
              let items = components.queryItems
        else { return nil }
        let path = components.path.isEmpty ? "/" : components.path
        for rule in rules where rule.hosts.contains(where: { host.contains($0) }) && rule.paths.contains(path) {
            for name in rule.parameters {
                guard let value = items.first(where: { $0.name == name })?.value,
                      let inner = URL(string: value),
                      let scheme = inner.scheme?.lowercased(), scheme == "http" || scheme == "https",
                      inner.host != nil
                else { continue }
                return inner
            }
        }
        return nil
    }
}
