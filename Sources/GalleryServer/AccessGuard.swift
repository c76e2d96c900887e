import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The checks every request passes before any route sees it, the headers every response gets,
/// and every error a route throws turned into the app's one-line JSON answer (`APIError`).
///
/// 1. `Host` names this server (not another site's name pointed here: DNS rebinding).
/// 2. The start's token: `?token=` in the printed URL is swapped for an HttpOnly, SameSite=Strict
///    cookie and a redirect to the same page without it (so it leaves the address bar and
///    history); after that the cookie is required.
/// 3. A change (any method but GET and HEAD) comes from a page of this app: its `Origin` is this
///    server's. With SameSite=Strict another site cannot send the cookie anyway; this is the
///    second lock.
struct AccessGuard: RouterMiddleware {
    typealias Context = BasicRequestContext

    let token: String
    let allowedHosts: Set<String>

    /// The cookie's name, unique to the token so that two servers on one host (cookies ignore
    /// ports) do not overwrite each other's.
    var cookieName: String { "gallery-\(token.prefix(8))" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, allowedHosts.contains(Self.hostName(of: authority)) else {
            return Self.refusal(.misdirectedRequest, "this server answers only to its own address")
        }
        if let offered = request.uri.queryParameters["token"] {
            guard Self.constantTimeEquals(String(offered), token) else {
                return Self.refusal(.forbidden, "the link's token is not this server's; use the URL gallery serve printed")
            }
            var response = Response(status: .seeOther, headers: [.location: request.uri.path])
            response.setCookie(Cookie(name: cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return Self.secured(response)
        }
        guard let cookie = request.cookies[cookieName], Self.constantTimeEquals(cookie.value, token) else {
            return Self.refusal(.unauthorized, "open the URL gallery serve printed (it carries the access token)")
        }
        if request.method != .get, request.method != .head {
            guard let origin = request.headers[.origin], origin == "http://\(authority)" else {
                return Self.refusal(.forbidden, "changes are accepted only from this app's own pages")
            }
        }
        do {
            return Self.secured(try await next(request, context))
        } catch {
            return Self.secured(APIError.from(error).response)
        }
    }

    /// The host of a `Host` header, lowercased, without its port; an IPv6 address keeps its brackets.
    static func hostName(of authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("[") {
            guard let end = lowered.firstIndex(of: "]") else { return lowered }
            return String(lowered[...end])
        }
        return String(lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Compares without stopping at the first difference, so response times tell nothing of the token.
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let left = Array(left.utf8), right = Array(right.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        secured(APIError(status, message).response)
    }

    /// The headers of every response: a Content-Security-Policy that allows only this server's
    /// own files (no inline script or style, no other site's images or connections), no framing,
    /// no MIME sniffing, and no referrer (the first URL carries the token).
    static func secured(_ response: Response) -> Response {
        var response = response
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = contentSecurityPolicy }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:", "connect-src 'self'",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
