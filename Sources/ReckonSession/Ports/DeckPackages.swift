import ReckonCore

/// Reading a flashcard deck packed as Anki packs one (an `.apkg`: a zip holding an SQLite
/// collection), injected: the session has no SQLite of its own. ReckonStore's `AnkiPackage`
/// reads one in memory.
public protocol DeckPackages: Sendable {
  /// The deck's notes (`AnkiNotes.deck` makes them from the collection's rows), or why the
  /// package cannot be read, in words for the user. The reader asks `interruption` as it
  /// goes (Ctrl-C at the prompt), and stops with `FileError.interrupted` when it says so.
  func deck(fromPackage bytes: [UInt8], interruption: Interruption) -> Result<DeckText, FileError>
}

extension FileError {
  /// What a reader that was stopped by Ctrl-C answers: nothing of the file is kept.
  public static let interrupted = FileError("interrupted (Ctrl-C): nothing of it was read")
}
