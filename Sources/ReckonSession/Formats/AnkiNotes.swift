import ReckonCore

/// Notes as an Anki collection keeps them (a note type's fields and templates, a note's fields
/// in order), made into a deck's notes: a basic note's front and back are its note type's
/// first card rendered (its question, and its answer after the `<hr id=answer>` line), as
/// Anki shows them; a cloze note keeps the text with its deletions. The SQLite side of an
/// `.apkg` (ReckonStore's `AnkiPackage`) reads the rows; this makes them cards.
///
/// A template may have been made to blow up (`{{Front}}` 10,000 times, then `{{FrontSide}}`
/// 300 times: gigabytes from a few kilobytes), so filling one in is bounded: a card's side
/// makes at most `maxSideHTML` of HTML (past it the note is left out, and named), a
/// template has at most `maxTags` replacements, and the whole deck's templates make at most
/// `maxDeckWork` (the notes after that are left out).
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
    /// Its note type's id (`mid`).
    public var type: Int64
    /// Its fields' values, in the note type's order (HTML).
    public var fields: [String]
    public var tags: [String]
    public var deck: String?

    public init(id: Int64, guid: String, type: Int64, fields: [String], tags: [String], deck: String?) {
      self.id = id
      self.guid = guid
      self.type = type
      self.fields = fields
      self.tags = tags
      self.deck = deck
    }
  }

  /// The most HTML a template may make for one side of a card: four times the text a side
  /// may hold (`DeckText.maxSideBytes`), for the markup around it.
  public static let maxSideHTML = 256 << 10
  /// The most replacements (`{{…}}`) one template may have: Anki's own note types have a few.
  public static let maxTags = 10_000
  /// The most work the templates of one deck may make: bytes of HTML, and 64 for each
  /// replacement filled in.
  public static let maxDeckWork = 256 << 20

  /// The deck the notes make, with each note that cannot be a card listed by its id; nil
  /// when `interruption` said to stop (it is asked before each note). The templates make at
  /// most `maxWork` for the deck (`maxDeckWork`; tests give less).
  public static func deck(
    _ notes: [Note], types: [Int64: NoteType], interruption: Interruption = .never, maxWork: Int = maxDeckWork
  ) -> DeckText? {
    var deck = DeckText(format: .ankiPackage)
    var compiled: [Int64: Compiled] = [:]
    var work = 0
    for note in notes {
      if interruption.isRequested { return nil }
      let line = Int(truncatingIfNeeded: note.id)
      guard let type = types[note.type] else {
        deck.skip(line, "its note type is not in the package")
        continue
      }
      let tags = note.tags.filter { !$0.isEmpty }
      if type.isCloze {
        // The field the card's template deletes from ({{cloze:Text}}), else the first.
        let name = clozeField(in: type.question) ?? type.fields.first ?? ""
        let index = type.fields.firstIndex(of: name) ?? 0
        let text = index < note.fields.count ? note.fields[index] : ""
        deck.add(
          DeckText.Note(
            guid: note.guid, deck: note.deck, front: DeckText.plain(html: text), back: "", tags: tags, isCloze: true,
            line: line))
        continue
      }
      guard work <= maxWork else {
        deck.skip(
          line,
          "the notes before it make more than \(DeckText.describe(bytes: maxWork)) of HTML once their templates are "
            + "filled in: the rest are left out")
        break
      }
      let templates = compiled[note.type] ?? Compiled(type)
      compiled[note.type] = templates
      guard let question = templates.question, let answer = templates.answer else {
        deck.skip(line, "its note type, \(type.name), has a template of more than \(maxTags.grouped) replacements")
        continue
      }
      var values = Values(
        fields: note.fields, tags: tags.joined(separator: " "), deck: note.deck ?? "", type: type.name)
      var front = Rendered()
      render(question, 0..<question.count, &values, depth: 0, into: &front)
      // The answer's {{FrontSide}} is the question, unless the answer template has the
      // answer rule: then only what follows it is the answer.
      values.frontSide = templates.answerFollowsRule ? "" : front.html
      var back = Rendered()
      if !front.isCut { render(answer, 0..<answer.count, &values, depth: 0, into: &back) }
      work += front.work + back.work
      for (side, rendered) in [("front", front), ("back", back)] where rendered.isCut {
        deck.skip(
          line,
          "its \(side) is more than \(maxSideHTML >> 10) KB of HTML once its note type's template is filled in "
            + "(a card's side holds at most \(DeckText.maxSideBytes >> 10) KB of text)")
      }
      if front.isCut || back.isCut { continue }
      deck.add(
        DeckText.Note(
          guid: note.guid, deck: note.deck, front: DeckText.plain(html: front.html),
          back: DeckText.plain(html: back.html), tags: tags, isCloze: false, line: line))
    }
    return deck
  }

  /// The field a cloze template deletes from: `NAME` of its first `{{cloze:NAME}}`.
  static func clozeField(in template: String) -> String? {
    guard let at = template.range(ofText: "{{cloze:"), let end = template.range(ofText: "}}", from: at.upperBound)
    else { return nil }
    return String(template[at.upperBound..<end.lowerBound]).trimmingSpaces
  }

  // MARK: Templates

  /// Where a replacement's text comes from: a field (its index in the note type) or one of
  /// Anki's special names.
  enum Source: Equatable {
    case field(Int)
    case frontSide, tags, deck, subdeck, type, card
    /// A name that is no field: nothing.
    case none

    init(_ name: String, fields: [String]) {
      switch name {
      case "FrontSide": self = .frontSide
      case "Tags": self = .tags
      case "Deck": self = .deck
      case "Subdeck": self = .subdeck
      case "Type": self = .type
      case "Card": self = .card
      default: self = fields.firstIndex(of: name).map { .field($0) } ?? .none
      }
    }
  }

  /// A piece of a template, read once per note type.
  enum Token {
    case text(Substring)
    case value(Source)
    /// `{{#name}}` (or `{{^name}}`, `inverted`), and the index of its `{{/name}}` (nil when
    /// it has none: the rest of the template is then left out).
    case section(Source, inverted: Bool, end: Int?)
    /// `{{/name}}`, a comment `{{!…}}`, the box to type in (`{{type:…}}`): nothing shown.
    case nothing
  }

  /// A note type's two templates, read into tokens.
  struct Compiled {
    /// Nil when a template has more than `maxTags` replacements.
    var question: [Token]?
    var answer: [Token]?
    /// Whether the answer template has the answer rule (`<hr id=answer>`): then the answer is
    /// what follows it, and its `{{FrontSide}}` is empty.
    var answerFollowsRule = false

    init(_ type: NoteType) {
      question = AnkiNotes.tokens(of: type.question, fields: type.fields)
      var answerTemplate = type.answer
      for rule in ["<hr id=answer>", "<hr id=\"answer\">", "<hr id='answer'>"] {
        if let at = answerTemplate.range(ofText: rule) {
          answerTemplate = String(answerTemplate[at.upperBound...])
          answerFollowsRule = true
          break
        }
      }
      answer = AnkiNotes.tokens(of: answerTemplate, fields: type.fields)
    }
  }

  /// A template as tokens: `{{Field}}` (and `{{text:Field}}` and other filters, but
  /// `{{type:Field}}`, the box to type in, which is left out), `{{#Field}}…{{/Field}}` shown
  /// when the field holds something, `{{^Field}}…{{/Field}}` when it does not. What a
  /// `<script>` or `<style>` element holds is left out here (it never shows). Nil past
  /// `maxTags` replacements. Each section's end is found by one pass over the tokens, a stack
  /// of open sections for each name.
  static func tokens(of template: String, fields: [String]) -> [Token]? {
    let template = DeckText.withoutScripts(template)
    var tokens: [Token] = []
    var open: [String: [Int]] = [:]
    var rest = template[...]
    var tags = 0
    while let start = rest.range(ofText: "{{") {
      if start.lowerBound > rest.startIndex { tokens.append(.text(rest[rest.startIndex..<start.lowerBound])) }
      guard let close = rest.range(ofText: "}}", from: start.upperBound) else {
        rest = rest[start.lowerBound...]
        break
      }
      tags += 1
      if tags > maxTags { return nil }
      let key = String(rest[start.upperBound..<close.lowerBound]).trimmingSpaces
      rest = rest[close.upperBound...]
      if let kind = key.first, kind == "#" || kind == "^" {
        let name = String(key.dropFirst()).trimmingSpaces
        open[name, default: []].append(tokens.count)
        tokens.append(.section(Source(name, fields: fields), inverted: kind == "^", end: nil))
      } else if key.hasPrefix("/") {
        let name = String(key.dropFirst()).trimmingSpaces
        if let opened = open[name]?.popLast(), case .section(let source, let inverted, _) = tokens[opened] {
          tokens[opened] = .section(source, inverted: inverted, end: tokens.count)
        }
        tokens.append(.nothing)
      } else if key.hasPrefix("!") {
        tokens.append(.nothing)
      } else {
        let parts = key.split(separator: ":", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "").trimmingSpaces
        let filters = parts.dropLast().map { String($0).trimmingSpaces.lowercased() }
        tokens.append(filters.contains("type") ? .nothing : .value(Source(name, fields: fields)))
      }
    }
    if !rest.isEmpty { tokens.append(.text(rest)) }
    return tokens
  }

  /// A note's values, as its templates ask for them.
  struct Values {
    var fields: [String]
    var tags: String
    var deck: String
    var type: String
    var frontSide = ""
    /// Whether each source holds something once its HTML is taken out, as worked out.
    private var filled: [Int: Bool] = [:]

    init(fields: [String], tags: String, deck: String, type: String) {
      self.fields = fields
      self.tags = tags
      self.deck = deck
      self.type = type
    }

    func text(_ source: Source) -> String {
      switch source {
      case .field(let index): index < fields.count ? fields[index] : ""
      case .frontSide: frontSide
      case .tags: tags
      case .deck: deck
      case .subdeck: deck.split(separator: ":").last.map(String.init) ?? deck
      case .type: type
      case .card: "Card 1"
      case .none: ""
      }
    }

    mutating func isFilled(_ source: Source) -> Bool {
      let key: Int =
        switch source {
        case .field(let index): index
        case .frontSide: -1
        case .tags: -2
        case .deck: -3
        case .subdeck: -4
        case .type: -5
        case .card: -6
        case .none: -7
        }
      if let known = filled[key] { return known }
      let isFilled = !DeckText.plain(html: text(source)).isEmpty
      filled[key] = isFilled
      return isFilled
    }
  }

  /// HTML made from a template, at most `maxSideHTML` of it: past that it is cut and
  /// `isCut`. `work` is the bytes made and 64 for each replacement filled in.
  struct Rendered {
    var html = ""
    var isCut = false
    var work = 0

    mutating func append(_ text: some StringProtocol) {
      work += text.utf8.count
      guard html.utf8.count + text.utf8.count <= AnkiNotes.maxSideHTML else {
        isCut = true
        return
      }
      html += text
    }
  }

  /// Fills in `tokens[range]`: each token is visited once (a section's tokens at its own
  /// level; the level above goes on after its end), so the work is the tokens and the HTML
  /// made, both bounded. Sections nest at most 20 deep.
  static func render(
    _ tokens: [Token], _ range: Range<Int>, _ values: inout Values, depth: Int, into out: inout Rendered
  ) {
    var index = range.lowerBound
    while index < range.upperBound, !out.isCut {
      switch tokens[index] {
      case .text(let text): out.append(text)
      case .value(let source):
        out.work += 64
        out.append(values.text(source))
      case .section(let source, let inverted, let end):
        out.work += 64
        // A section with no end within this range hides the rest of it.
        guard let end, end < range.upperBound else { return }
        if values.isFilled(source) != inverted, depth < 20 {
          render(tokens, index + 1..<end, &values, depth: depth + 1, into: &out)
        }
        index = end
      case .nothing: break
      }
      index += 1
    }
  }
}
