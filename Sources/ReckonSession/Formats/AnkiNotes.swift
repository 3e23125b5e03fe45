/// Notes as an Anki collection keeps them (a note type's fields and templates, a note's fields
/// in order), made into a deck's notes: a basic note's front and back are its note type's
/// first card rendered (its question, and its answer after the `<hr id=answer>` line), as
/// Anki shows them; a cloze note keeps the text with its deletions. The SQLite side of an
/// `.apkg` (ReckonStore's `AnkiPackage`) reads the rows; this makes them cards.
public enum AnkiNotes {
  public struct NoteType: Sendable {
    public var name: String
    public var isCloze: Bool
    /// The fields' names, in order.
    public var fields: [String]
    /// The first card's templates, question and answer (HTML with `{{…}}` replacements).
    public var question: String
    public var answer: String

    public init(name: String, isCloze: Bool, fields: [String], question: String, answer: String) {
      self.name = name
      self.isCloze = isCloze
      self.fields = fields
      self.question = question
      self.answer = answer
    }
  }

  public struct Note: Sendable {
    public var id: Int64
    public var guid: String
    public var type: NoteType?
    /// Its fields' values, in the note type's order (HTML).
    public var fields: [String]
    public var tags: [String]
    public var deck: String?

    public init(id: Int64, guid: String, type: NoteType?, fields: [String], tags: [String], deck: String?) {
      self.id = id
      self.guid = guid
      self.type = type
      self.fields = fields
      self.tags = tags
      self.deck = deck
    }
  }

  /// The deck the notes make, with each note that cannot be a card listed by its id.
  public static func deck(_ notes: [Note]) -> DeckText {
    var deck = DeckText(format: .ankiPackage)
    for note in notes {
      let line = Int(truncatingIfNeeded: note.id)
      guard let type = note.type else {
        deck.skip(line, "its note type is not in the package")
        continue
      }
      var values: [(name: String, value: String)] = []
      for (index, name) in type.fields.enumerated() {
        values.append((name, index < note.fields.count ? note.fields[index] : ""))
      }
      let tags = note.tags.filter { !$0.isEmpty }
      let context = Context(fields: values, tags: tags.joined(separator: " "), deck: note.deck ?? "", type: type.name)
      if type.isCloze {
        // The field the card's template deletes from ({{cloze:Text}}), else the first.
        let name = clozeField(in: type.question) ?? type.fields.first ?? ""
        let text = values.first { $0.name == name }?.value ?? note.fields.first ?? ""
        deck.add(
          DeckText.Note(
            guid: note.guid, deck: note.deck, front: DeckText.plain(html: text), back: "", tags: tags, isCloze: true,
            line: line))
        continue
      }
      let question = render(type.question, context)
      var answerTemplate = type.answer
      var front = question
      for rule in ["<hr id=answer>", "<hr id=\"answer\">", "<hr id='answer'>"] {
        if let at = answerTemplate.range(ofText: rule) {
          answerTemplate = String(answerTemplate[at.upperBound...])
          front = ""
          break
        }
      }
      var context2 = context
      context2.frontSide = front
      deck.add(
        DeckText.Note(
          guid: note.guid, deck: note.deck, front: DeckText.plain(html: question),
          back: DeckText.plain(html: render(answerTemplate, context2)), tags: tags, isCloze: false, line: line))
    }
    return deck
  }

  struct Context {
    var fields: [(name: String, value: String)]
    var tags: String
    var deck: String
    var type: String
    var frontSide = ""

    func value(_ name: String) -> String? {
      switch name {
      case "FrontSide": return frontSide
      case "Tags": return tags
      case "Deck": return deck
      case "Subdeck": return deck.split(separator: ":").last.map(String.init) ?? deck
      case "Type": return type
      case "Card": return "Card 1"
      default: return fields.first { $0.name == name }?.value
      }
    }
  }

  /// The field a cloze template deletes from: `NAME` of its first `{{cloze:NAME}}`.
  static func clozeField(in template: String) -> String? {
    guard let at = template.range(ofText: "{{cloze:"), let end = template.range(ofText: "}}", from: at.upperBound)
    else { return nil }
    return String(template[at.upperBound..<end.lowerBound]).trimmingSpaces
  }

  /// A template with its replacements made: `{{Field}}` (and `{{text:Field}}` and other
  /// filters, but `{{type:Field}}`, the box to type in, which is left out), `{{#Field}}…{{/Field}}`
  /// shown when the field holds something, `{{^Field}}…{{/Field}}` when it does not.
  static func render(_ template: String, _ context: Context, depth: Int = 0) -> String {
    var out = ""
    var rest = template[...]
    while let open = rest.range(ofText: "{{") {
      out += rest[rest.startIndex..<open.lowerBound]
      guard let close = rest.range(ofText: "}}", from: open.upperBound) else {
        rest = rest[open.lowerBound...]
        break
      }
      let key = String(rest[open.upperBound..<close.lowerBound]).trimmingSpaces
      rest = rest[close.upperBound...]
      if let kind = key.first, kind == "#" || kind == "^" {
        let name = String(key.dropFirst()).trimmingSpaces
        // The matching {{/name}}, past any section of the same name inside.
        var depthHere = 1
        var search = rest.startIndex
        var inner = rest[rest.endIndex...]
        var after = rest.endIndex
        while let next = rest.range(ofText: "{{", from: search),
          let nextClose = rest.range(ofText: "}}", from: next.upperBound)
        {
          let tag = String(rest[next.upperBound..<nextClose.lowerBound]).trimmingSpaces
          if tag == "#" + name || tag == "^" + name { depthHere += 1 }
          if tag == "/" + name {
            depthHere -= 1
            if depthHere == 0 {
              inner = rest[rest.startIndex..<next.lowerBound]
              after = nextClose.upperBound
              break
            }
          }
          search = nextClose.upperBound
        }
        let filled = !DeckText.plain(html: context.value(name) ?? "").isEmpty
        if filled == (kind == "#"), depth < 20 { out += render(String(inner), context, depth: depth + 1) }
        rest = rest[after...]
        continue
      }
      if key.hasPrefix("/") || key.hasPrefix("!") { continue }
      let parts = key.split(separator: ":", omittingEmptySubsequences: false)
      let name = String(parts.last ?? "").trimmingSpaces
      let filters = parts.dropLast().map { String($0).trimmingSpaces.lowercased() }
      if filters.contains("type") { continue }
      out += context.value(name) ?? ""
    }
    out += rest
    return out
  }
}
