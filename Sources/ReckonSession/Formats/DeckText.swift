import ReckonCore

/// Flashcard decks as people keep them in text, read into notes: Anki's "Notes in Plain
/// Text" export (its `#separator:`, `#html:`, `#tags:`, `#deck:`, `#notetype:` and
/// `#… column:` header lines), CSV with `front,back[,tags]`, and Markdown with `Q:`/`A:`
/// pairs or a two-column table. HTML is reduced to text; a cloze note (`{{c1::…}}`) gives
/// a card per cloze number. A row that cannot be a note is listed with its line and why,
/// and the rest are read; a file with no note at all is refused.
public struct DeckText: Sendable {
  public struct Note: Sendable {
    /// Anki's id of the note, when the file has one: loading the deck again updates it.
    public var guid: String?
    /// The deck the file puts it in (`#deck:`, a deck column), if any.
    public var deck: String?
    public var front: String
    public var back: String
    public var tags: [String]
    /// A cloze note: `front` holds the text with its `{{cN::…}}` deletions.
    public var isCloze: Bool
    /// Its line in the file (a package's: the note's id).
    public var line: Int
    /// The comment lines after it that start `#reckon` (its cards' schedules, as `cards
    /// export` writes them), each with its line in the file.
    public var comments: [Comment] = []

    public init(
      guid: String?, deck: String?, front: String, back: String, tags: [String], isCloze: Bool, line: Int
    ) {
      self.guid = guid
      self.deck = deck
      self.front = front
      self.back = back
      self.tags = tags
      self.isCloze = isCloze
      self.line = line
    }
  }

  /// A comment line of the file and its line number.
  public struct Comment: Sendable, Equatable {
    public var line: Int
    public var text: String
  }

  /// One card to review: the question shown and the answer expected.
  public struct Card: Sendable, Equatable {
    public var question: String
    public var answer: String
    /// Which card of its note (the cloze number; 1 for a basic note).
    public var ordinal: Int
  }

  public struct Skip: Sendable, Equatable {
    public var line: Int
    public var reason: String
  }

  public enum Format: String, Sendable {
    case ankiText = "Anki's plain text", csv = "CSV", markdown = "Markdown", ankiPackage = "an Anki package"

    /// What a row is called in a message: a line of a text file, a note of a package.
    public var row: String { self == .ankiPackage ? "note" : "line" }
  }

  public var format: Format
  public var notes: [Note] = []
  public var skipped: [Skip] = []

  /// The most notes a deck may have.
  public static let maxNotes = 100_000
  /// The most fields a row of Anki's plain text keeps (and so the largest column number).
  public static let maxColumns = 64
  /// The most text a card's question or answer may hold, and a note's front, back (a cloze
  /// note's text) or tags: 64 KiB. A note with more is left out, and named.
  public static let maxSideBytes = 64 << 10
  /// The longest note id (guid) or deck name: 1 KiB (Anki's ids are 10 characters).
  public static let maxNameBytes = 1 << 10
  /// The most a note's cards may take together (`cards(of:)`: each card's question and
  /// answer, and a cloze card's note text): 2 MiB, enough for 500 cloze cards of a note of
  /// 2 KB. The cards past it are left out (`Cards.leftOut`).
  public static let maxNoteBytes = 2 << 20
  /// The most a deck's cards may take in the profile (each card's texts, its deck and note
  /// twice for the indexes, and 64 bytes for the rest): 64 MiB. The notes past it are left
  /// out, so loading a deck never adds more than about that much to the database.
  public static let maxDeckBytes = 64 << 20

  /// The deck in `text`, whose file is called `name` (its extension tells CSV and Markdown
  /// from Anki's text when the file has no header lines).
  public static func read(_ text: String, name: String) -> Result<DeckText, FileError> {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.last == "\r" ? line.dropLast() : line
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    let lower = name.lowercased()
    var deck: DeckText
    if lines.first?.hasPrefix("#") == true && lines.first?.firstIndex(of: ":") != nil || lower.hasSuffix(".txt")
      || lower.hasSuffix(".tsv")
    {
      deck = ankiText(lines)
    } else if lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
      || lines.contains(where: { $0.hasPrefix("Q:") })
    {
      deck = markdown(lines)
    } else {
      deck = csv(lines.joined(separator: "\n"))
    }
    return deck.refusedWhenEmpty()
  }

  /// The deck, or why not when it has no note at all (with the first row left out).
  public func refusedWhenEmpty() -> Result<DeckText, FileError> {
    guard !notes.isEmpty else {
      let why = skipped.first.map { " (\(format.row) \($0.line): \($0.reason))" } ?? ""
      return .failure(FileError("it holds no card that can be read as \(format.rawValue)\(why)"))
    }
    return .success(self)
  }

  // MARK: Anki's plain text

  static func ankiText(_ lines: [Substring]) -> DeckText {
    var deck = DeckText(format: .ankiText)
    var separator = UInt8(ascii: "\t")
    var html = false
    var tagsForAll: [String] = []
    var deckName: String?
    var notetype: String?
    var columns = (tags: Int?.none, deck: Int?.none, notetype: Int?.none, guid: Int?.none)
    var headerLines = 0
    for line in lines {
      guard line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { break }
      headerLines += 1
      let key = line[line.index(after: line.startIndex)..<colon].lowercased()
      let value = String(line[line.index(after: colon)...]).trimmingSpaces
      switch key {
      case "separator":
        let named: String? =
          switch value.lowercased() {
          case "tab": "\t"
          case "comma": ","
          case "semicolon": ";"
          case "space": " "
          case "pipe": "|"
          case "colon": ":"
          default: value.utf8.count == 1 ? value : nil
          }
        if let byte = named?.utf8.first {
          separator = byte
        } else {
          deck.skipped.append(Skip(line: headerLines, reason: "an unknown separator '\(value)': tab is used"))
        }
      case "html": html = value.lowercased() == "true"
      case "tags": tagsForAll = value.split(separator: " ").map(String.init)
      case "deck": deckName = value
      case "notetype": notetype = value
      case "tags column", "deck column", "notetype column", "guid column":
        // A column of a row: from 1 to the most fields a row keeps.
        guard let number = Int(value), (1...DeckText.maxColumns).contains(number) else {
          deck.skipped.append(
            Skip(
              line: headerLines,
              reason:
                "the \(key) \(Diagnostic.quoted(value)) is not a column from 1 to \(DeckText.maxColumns): it is not used"
            ))
          continue
        }
        switch key {
        case "tags column": columns.tags = number
        case "deck column": columns.deck = number
        case "notetype column": columns.notetype = number
        default: columns.guid = number
        }
      default: break  // (#columns:, #if matches:…: what Reckon does not need)
      }
    }
    let body = lines.dropFirst(headerLines).joined(separator: "\n")
    guard
      case .success(let (rows, comments)) = DelimitedText.csvRows(
        body, limits: .init(fieldsPerRow: DeckText.maxColumns, fields: 10_000_000), separator: separator, comments: true
      )
    else {
      deck.skipped.append(Skip(line: headerLines + 1, reason: "more fields than a deck may have"))
      return deck
    }
    let special = [columns.tags, columns.deck, columns.notetype, columns.guid].compactMap { $0 }
    var nextComment = 0
    for (index, row) in rows.enumerated() {
      // The comments between this row and the next are its own.
      var ownComments: [Comment] = []
      let nextRow = index + 1 < rows.count ? rows[index + 1].line : Int.max
      while nextComment < comments.count, comments[nextComment].line < nextRow {
        if comments[nextComment].line > row.line, comments[nextComment].text.hasPrefix("#reckon") {
          ownComments.append(Comment(line: comments[nextComment].line + headerLines, text: comments[nextComment].text))
        }
        nextComment += 1
      }
      let line = row.line + headerLines
      let field = { (column: Int?) -> String? in
        column.flatMap { $0 >= 1 && $0 <= row.fields.count ? row.fields[$0 - 1] : nil }
      }
      let content = row.fields.enumerated().filter { !special.contains($0.offset + 1) }.map(\.element)
      let type = field(columns.notetype) ?? notetype ?? ""
      let isCloze = type.lowercased().holds("cloze") || content.first.map(DeckText.hasCloze) == true
      guard content.count >= (isCloze ? 1 : 2) else {
        deck.skip(line, "a note needs a front and a back (the separator is \(DeckText.describe(separator)))")
        continue
      }
      let text = { (raw: String) in html ? DeckText.plain(html: raw) : DeckText.clean(raw) }
      let tags = (field(columns.tags).map { $0.split(separator: " ").map(String.init) } ?? []) + tagsForAll
      var note = Note(
        guid: field(columns.guid).flatMap { $0.isEmpty ? nil : $0 }, deck: field(columns.deck) ?? deckName,
        front: text(content[0]), back: content.count > 1 ? text(content[1]) : "", tags: tags, isCloze: isCloze,
        line: line)
      note.comments = ownComments
      deck.add(note)
    }
    return deck
  }

  // MARK: CSV

  /// `front,back[,tags]`; a first row `front,back` is a header.
  static func csv(_ text: String) -> DeckText {
    var deck = DeckText(format: .csv)
    guard case .success(let rows) = DelimitedText.csvRows(text, limits: .init(fieldsPerRow: 16, fields: 10_000_000))
    else {
      deck.skipped.append(Skip(line: 1, reason: "more fields than a deck may have"))
      return deck
    }
    for (index, row) in rows.enumerated() {
      if index == 0, row.fields.first?.lowercased().trimmingSpaces == "front" { continue }
      guard row.fields.count >= 2, row.fields.count <= 3 else {
        deck.skip(row.line, "a row is front,back or front,back,tags: this one has \(row.fields.count) fields")
        continue
      }
      deck.add(
        Note(
          guid: nil, deck: nil, front: clean(row.fields[0]), back: clean(row.fields[1]),
          tags: row.fields.count > 2 ? row.fields[2].split(separator: " ").map(String.init) : [],
          isCloze: hasCloze(row.fields[0]), line: row.line))
    }
    return deck
  }

  // MARK: Markdown

  /// `Q: …` then `A: …` (an answer may run over the lines after it, to a blank line or the
  /// next Q:), or a table of two columns whose first row is its header.
  static func markdown(_ lines: [Substring]) -> DeckText {
    var deck = DeckText(format: .markdown)
    var question: (text: String, line: Int)?
    var answer: String?
    func finish() {
      guard let q = question else { return }
      if let answer, !answer.isEmpty {
        deck.add(
          Note(guid: nil, deck: nil, front: clean(q.text), back: clean(answer), tags: [], isCloze: false, line: q.line))
      } else {
        deck.skip(q.line, "a question with no A: after it")
      }
      question = nil
      answer = nil
    }
    var tableRow = 0
    for (index, raw) in lines.enumerated() {
      let line = String(raw).trimmingSpaces
      let number = index + 1
      if line.hasPrefix("Q:") {
        finish()
        question = (String(line.dropFirst(2)).trimmingSpaces, number)
      } else if line.hasPrefix("A:") {
        guard question != nil else {
          deck.skip(number, "an answer with no Q: before it")
          continue
        }
        answer = String(line.dropFirst(2)).trimmingSpaces
      } else if line.isEmpty {
        finish()
        tableRow = 0
      } else if line.hasPrefix("|") {
        finish()
        tableRow += 1
        let cells = line.dropFirst().split(separator: "|", omittingEmptySubsequences: false).map {
          String($0).trimmingSpaces
        }.dropLast(line.hasSuffix("|") ? 1 : 0)
        // The header and the rule under it (| --- | --- |) are not cards.
        if tableRow == 1 || cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }
        guard cells.count == 2 else {
          deck.skip(number, "a table row of a deck has two cells, front and back: this one has \(cells.count)")
          continue
        }
        deck.add(
          Note(
            guid: nil, deck: nil, front: clean(cells[0]), back: clean(cells[1]), tags: [], isCloze: false, line: number)
        )
      } else if answer != nil {
        answer! += "\n" + line
      }
    }
    finish()
    return deck
  }

  // MARK: Notes into cards

  mutating func add(_ note: Note) {
    guard notes.count < DeckText.maxNotes else {
      if skipped.last?.reason.hasPrefix("a deck has at most") != true {
        skip(note.line, "a deck has at most \(DeckText.maxNotes.grouped) notes: the rest are left out")
      }
      return
    }
    if note.front.isEmpty { return skip(note.line, "its front is empty") }
    if !note.isCloze && note.back.isEmpty { return skip(note.line, "its back is empty") }
    let limit = "a card's side holds at most \(DeckText.maxSideBytes >> 10) KB"
    for (what, text) in [(note.isCloze ? "text" : "front", note.front), ("back", note.back)]
    where text.utf8.count > DeckText.maxSideBytes {
      return skip(note.line, "its \(what) is \(DeckText.describe(bytes: text.utf8.count)): \(limit)")
    }
    if note.tags.reduce(0, { $0 + $1.utf8.count + 1 }) > DeckText.maxSideBytes {
      return skip(note.line, "its tags take more than \(DeckText.maxSideBytes >> 10) KB")
    }
    if let guid = note.guid, guid.utf8.count > DeckText.maxNameBytes {
      return skip(note.line, "its id (guid) is longer than \(DeckText.maxNameBytes.grouped) bytes")
    }
    if let deck = note.deck, deck.utf8.count > DeckText.maxNameBytes {
      return skip(note.line, "its deck's name is longer than \(DeckText.maxNameBytes.grouped) bytes")
    }
    if note.isCloze && DeckText.clozes(in: note.front).isEmpty {
      return skip(note.line, "a cloze note with no {{c1::…}}")
    }
    notes.append(note)
  }

  mutating func skip(_ line: Int, _ reason: String) { skipped.append(Skip(line: line, reason: reason)) }

  /// A note's cards, and how many of them were left out.
  public struct Cards: Sendable {
    public var cards: [Card]
    /// The cloze cards past `DeckText.maxNoteBytes`, not made.
    public var leftOut: Int
  }

  /// The cards of a note: one for a basic note (front → back), one per cloze number, in
  /// order, as long as they take at most `limit` together (a card's question and answer,
  /// and a cloze card's note text, which it keeps): the rest are counted, not made.
  public static func cards(of note: Note, limit: Int = DeckText.maxNoteBytes) -> Cards {
    guard note.isCloze else {
      return Cards(cards: [Card(question: note.front, answer: note.back, ordinal: 1)], leftOut: 0)
    }
    let deletions = clozes(in: note.front)
    let numbers = Set(deletions.map(\.number)).sorted()
    var cards: [Card] = []
    var bytes = 0
    for number in numbers {
      var question = ""
      var answer: [String] = []
      var rest = note.front[...]
      for deletion in deletions {
        question += rest[rest.startIndex..<deletion.range.lowerBound]
        if deletion.number == number {
          question += deletion.hint.map { "[\($0)]" } ?? "[…]"
          answer.append(deletion.text)
        } else {
          question += deletion.text
        }
        rest = note.front[deletion.range.upperBound...]
      }
      question += rest
      let card = Card(question: question, answer: answer.joined(separator: ", "), ordinal: number)
      bytes += card.question.utf8.count + card.answer.utf8.count + note.front.utf8.count
      guard bytes <= limit else { break }
      cards.append(card)
    }
    return Cards(cards: cards, leftOut: numbers.count - cards.count)
  }

  struct Cloze {
    var number: Int
    var text: String
    var hint: String?
    var range: Range<String.Index>
  }

  /// The `{{cN::text}}` and `{{cN::text::hint}}` deletions of a cloze text, in order.
  static func clozes(in text: String) -> [Cloze] {
    var found: [Cloze] = []
    var search = text.startIndex
    while let open = text.range(ofText: "{{c", from: search),
      let close = text.range(ofText: "}}", from: open.upperBound)
    {
      var parts: [String] = []
      var inside = String(text[open.upperBound..<close.lowerBound])
      while parts.count < 2, let colons = inside.range(ofText: "::") {
        parts.append(String(inside[..<colons.lowerBound]))
        inside = String(inside[colons.upperBound...])
      }
      parts.append(inside)
      if parts.count >= 2, let number = Int(parts[0]), number >= 1, number <= 500 {
        found.append(
          Cloze(
            number: number, text: parts[1], hint: parts.count > 2 ? parts[2] : nil,
            range: open.lowerBound..<close.upperBound))
      }
      search = close.upperBound
    }
    return found
  }

  static func hasCloze(_ text: String) -> Bool { !clozes(in: text).isEmpty }

  // MARK: Text

  /// A field of plain text: control characters as spaces (line breaks kept), trimmed.
  static func clean(_ text: String) -> String {
    PlainText.withoutControls(text, keepingLineBreaks: true).trimmingSpaces
  }

  /// HTML as the text it shows: tags out (a line break for `<br>`, `<div>` and `<p>`, the
  /// word "image" for a picture), Anki's `[sound:…]` out, entities decoded, then cleaned.
  public static func plain(html: String) -> String {
    var out = ""
    // (Most fields have no tag, or no sound: a look at the bytes first.)
    var rest = (html.utf8.contains(UInt8(ascii: "<")) ? withoutScripts(html) : html)[...]
    while let lt = rest.utf8.firstIndex(of: UInt8(ascii: "<")) {
      out += rest[..<lt]
      guard let gt = rest[lt...].firstIndex(of: ">") else {
        out += rest[lt...]
        rest = ""
        break
      }
      let tag = rest[rest.index(after: lt)..<gt].lowercased()
      let name = tag.drop { $0 == "/" }.prefix { $0.isLetter }
      if ["br", "div", "p", "li"].contains(String(name)) && !out.isEmpty && out.last != "\n" { out += "\n" }
      if name == "img" { out += "[image]" }
      rest = rest[rest.index(after: gt)...]
    }
    out += rest
    // Anki's [sound:…] out, in one pass.
    if out.utf8.contains(UInt8(ascii: "[")) && out.holds("[sound:") {
      var kept = ""
      var text = out[...]
      while let sound = text.range(ofText: "[sound:"), let end = text[sound.upperBound...].firstIndex(of: "]") {
        kept += text[text.startIndex..<sound.lowerBound]
        text = text[text.index(after: end)...]
      }
      out = kept + text
    }
    // The line breaks a template puts around a field (`{{FrontSide}}\n\n<hr id=answer>\n\n`)
    // are not part of the text.
    var text = clean(HTMLEntities.decode(out))[...]
    while text.first == "\n" || text.first == " " { text.removeFirst() }
    while text.last == "\n" || text.last == " " { text.removeLast() }
    return String(text)
  }

  /// HTML without what its `<script>` and `<style>` elements hold (never shown).
  static func withoutScripts(_ html: String) -> String {
    guard html.holds("<script") || html.holds("<style") else { return html }
    var rest = html[...]
    for element in ["script", "style"] {
      var kept = ""
      while let open = rest.range(ofText: "<" + element), let close = rest.range(ofText: "</" + element + ">") {
        kept += rest[rest.startIndex..<open.lowerBound]
        rest = rest[max(close.upperBound, open.upperBound)...]
      }
      rest = (kept + rest)[...]
    }
    return String(rest)
  }

  /// A size as a message gives it: `3.9 MB`, `120 KB`, `312 bytes`.
  public static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20 {
      let tenths = (bytes * 10 + (1 << 19)) >> 20
      return "\(tenths / 10).\(tenths % 10) MB"
    }
    return bytes >= 1 << 10 ? "\((bytes + 512) >> 10) KB" : "\(bytes) bytes"
  }

  static func describe(_ separator: UInt8) -> String {
    switch separator {
    case UInt8(ascii: "\t"): "a tab"
    case UInt8(ascii: ","): "a comma"
    case UInt8(ascii: ";"): "a semicolon"
    default: "'\(String(decoding: [separator], as: UTF8.self))'"
    }
  }
}
