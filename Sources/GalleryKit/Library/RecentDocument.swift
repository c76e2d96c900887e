import Foundation

/// A document used recently, as `RecentDocuments` lists it.
public struct RecentDocument: Sendable, Equatable {
    /// What was last done with a document.
    public enum Event: String, Sendable, CaseIterable, Codable {
        /// The command that was run on the document (`copied`: it was the destination of `copy`).
        case created, opened, edited, copied, exported, duplicated, renamed, restored
    }

    /// The document's absolute location, links resolved.
    public var url: URL
    /// What was last done with it.
    public var event: Event
    /// When, to the second.
    public var date: Date

    /// A record of `event` on the document at `url` at `date`.
    public init(url: URL, event: Event, date: Date) {
        self.url = url
        self.event = event
        self.date = date
    }
}
