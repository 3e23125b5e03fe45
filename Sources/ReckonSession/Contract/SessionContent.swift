/// What a mode keeps for the rest of a session beyond its own run (the questions a `quiz
/// load` added, a word list from `--words`): a value its folder defines, kept in
/// `SessionState.content` under its type, so that the session needs no field for it.
public protocol SessionContent: Sendable {
  /// The content before anything is loaded.
  init()
}

/// Each mode's `SessionContent`, one value per type.
public struct ContentShelf: Sendable {
  private var values: [ObjectIdentifier: any Sendable] = [:]

  public init() {}

  /// The content of type `C`, as it was left (new when none was).
  public subscript<C: SessionContent>(_ type: C.Type) -> C {
    get { values[ObjectIdentifier(type)] as? C ?? C() }
    set { values[ObjectIdentifier(type)] = newValue }
  }

  /// Changes the content of type `C` in place: a large bank of questions is not copied.
  public mutating func update<C: SessionContent, R>(_ type: C.Type, _ body: (inout C) throws -> R) rethrows -> R {
    var content = values.removeValue(forKey: ObjectIdentifier(type)) as? C ?? C()
    defer { values[ObjectIdentifier(type)] = content }
    return try body(&content)
  }
}
