import Foundation

/// Cleans the links a browser hands over when an image is dragged out of a search engine's
/// results: they point at a results page that wraps the real image URL in a query parameter
/// (spec §11.2 lists them).
public enum WrapperURL {
    /// A wrapper: where it is recognised, and which query parameters may hold the image URL.
    struct Rule {
        /// The search engine's name as it stands in its domain: `google` for www.google.co.uk.
        var hosts: [String]
        var paths: [String]
        var parameters: [String]
    }

    static let rules: [Rule] = [
        // https://www.google.com/imgres?imgurl=<image>&imgrefurl=<page>…
        Rule(hosts: ["google"], paths: ["/imgres"], parameters: ["imgurl"]),
        // https://www.google.com/url?url=<target>… (links in results and in Google Images)
        Rule(hosts: ["google"], paths: ["/url"], parameters: ["url", "q"]),
        // https://www.bing.com/images/search?…&mediaurl=<image>…
        Rule(hosts: ["bing"], paths: ["/images/search", "/images/detail"], parameters: ["mediaurl"]),
        // https://duckduckgo.com/?…&iax=images&iai=<image>… and external-content.duckduckgo.com/iu/?u=<image>
        Rule(hosts: ["duckduckgo"], paths: ["/", "/iu/", "/iu"], parameters: ["iai", "u", "iurl"]),
        // https://yandex.com/images/search?…&img_url=<image>…
        Rule(hosts: ["yandex"], paths: ["/images/search"], parameters: ["img_url"]),
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

    /// Whether `host` belongs to the search engine `name`: `name` followed only by a public
    /// suffix (`com`, `co.uk`, `com.tr`: short labels), after any subdomains. So
    /// www.google.co.uk and external-content.duckduckgo.com are, google.example.net is not.
    static func isDomain(_ host: String, of name: String) -> Bool {
        let labels = host.split(separator: ".")
        guard let position = labels.lastIndex(where: { $0 == name }) else { return false }
        let suffix = labels[(position + 1)...]
        return (1...2).contains(suffix.count) && suffix.allSatisfy { $0.count <= 3 }
    }

    private static func innerURL(of url: URL) -> URL? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.host?.lowercased(),
            let items = components.queryItems
        else { return nil }
        let path = components.path.isEmpty ? "/" : components.path
        for rule in rules where rule.hosts.contains(where: { isDomain(host, of: $0) }) && rule.paths.contains(path) {
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
