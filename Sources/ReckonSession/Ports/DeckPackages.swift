/// Reading a flashcard deck packed as Anki packs one (an `.apkg`: a zip holding an SQLite
/// collection), injected: the session has no SQLite of its own. ReckonStore's `AnkiPackage`
/// reads one in memory.
public protocol DeckPackages: Sendable {
  /// The deck's notes (`AnkiNotes.deck` makes them from the collection's rows), or why the
  /// package cannot be read, in words for the user.
  func deck(fromPackage bytes: [UInt8]) -> Result<DeckText, FileError>
}
