import Testing

@testable import ReckonSession

/// Decks read from the text files people keep them in: Anki's "Notes in Plain Text" export
/// with its header lines, CSV and Markdown; HTML reduced to text; cloze notes made into a card
/// per deletion; bad rows listed with their line and why.
@Suite struct DeckTextTests {
  static func read(_ text: String, _ name: String) throws -> DeckText {
    switch DeckText.read(text, name: name) {
    case .success(let deck): return deck
    case .failure(let error): throw error
    }
  }

  /// Anki's export of a Basic and a Cloze note, with tags, a deck column and guids, HTML on,
  /// as Anki 2.1.55 and later write it.
  @Test func ankisPlainTextExport() throws {
    let text = """
      #separator:tab
      #html:true
      #guid column:1
      #notetype column:2
      #deck column:3
      #tags column:6
      e7-JpWJ/J]\tBasic\tCapitals\tWhat is the capital of <b>Austria</b>?\tVienna<br>(Wien)\tgeo europe
      Kq9;{sn3!,\tCloze\tCapitals\t{{c1::Canberra}} is the capital of {{c2::Australia::a country}}.\t\tgeo
      bad-row\tBasic\tCapitals
      "x,y"\tBasic\tMisc\t"A field with a ""quote"" and a tab\tinside"\t&lt;back&gt; [sound:a.mp3]\t
      """
    let deck = try Self.read(text, "Capitals.txt")
    #expect(deck.format == .ankiText)
    #expect(deck.notes.count == 3)
    let basic = deck.notes[0]
    #expect(basic.guid == "e7-JpWJ/J]" && basic.deck == "Capitals" && basic.tags == ["geo", "europe"])
    #expect(basic.front == "What is the capital of Austria?")
    #expect(basic.back == "Vienna\n(Wien)")
    #expect(basic.line == 7)
    let cloze = deck.notes[1]
    #expect(cloze.isCloze)
    #expect(
      DeckText.cards(of: cloze).cards == [
        .init(question: "[…] is the capital of Australia.", answer: "Canberra", ordinal: 1),
        .init(question: "Canberra is the capital of [a country].", answer: "Australia", ordinal: 2),
      ])
    // (A tab is a control character: shown as a space.)
    #expect(deck.notes[2].front == "A field with a \"quote\" and a tab inside")
    #expect(deck.notes[2].back == "<back>")
    #expect(deck.skipped == [.init(line: 9, reason: "a note needs a front and a back (the separator is a tab)")])
  }

  @Test func separatorsByName() throws {
    let deck = try Self.read("#separator:Semicolon\n#html:false\nhund;dog\nkatze;cat <b>\n", "de.txt")
    #expect(deck.notes.map(\.front) == ["hund", "katze"])
    #expect(deck.notes[1].back == "cat <b>")  // HTML off: kept as typed
  }

  /// A column number outside a row's 64 fields (0, or one near the limits of an integer) is
  /// said with its line and not used; the rest of the file reads.
  @Test func aColumnOutsideARowIsSaidAndNotUsed() throws {
    let text = "#separator:tab\n#guid column:0\n#deck column:9223372036854775807\n#tags column:x\ng1\tfront\tback\n"
    let deck = try DeckText.read(text, name: "deck.txt").get()
    #expect(
      deck.skipped == [
        .init(line: 2, reason: "the guid column '0' is not a column from 1 to 64: it is not used"),
        .init(line: 3, reason: "the deck column '9223372036854775807' is not a column from 1 to 64: it is not used"),
        .init(line: 4, reason: "the tags column 'x' is not a column from 1 to 64: it is not used"),
      ])
    #expect(deck.notes.map(\.front) == ["g1"] && deck.notes.map(\.back) == ["front"])
  }

  @Test func csvWithAndWithoutHeader() throws {
    let deck = try Self.read("front,back,tags\n\"7 × 8\",56,maths\nsolo\n2+2,4\n", "maths.csv")
    #expect(deck.format == .csv)
    #expect(deck.notes.map { [$0.front, $0.back] } == [["7 × 8", "56"], ["2+2", "4"]])
    #expect(deck.notes[0].tags == ["maths"])
    #expect(deck.skipped == [.init(line: 3, reason: "a row is front,back or front,back,tags: this one has 1 fields")])
  }

  @Test func markdownPairsAndTables() throws {
    let pairs = try Self.read(
      "# Capitals\n\nQ: France?\nA: Paris\n\nQ: Japan?\nA: Tokyo\nand more\n\nQ: lonely?\n", "c.md")
    #expect(pairs.format == .markdown)
    #expect(pairs.notes.map(\.back) == ["Paris", "Tokyo\nand more"])
    #expect(pairs.skipped == [.init(line: 10, reason: "a question with no A: after it")])
    let table = try Self.read("| front | back |\n| --- | --- |\n| uno | one |\n| dos | two |\n| tres |\n", "es.md")
    #expect(table.notes.map { $0.front + "=" + $0.back } == ["uno=one", "dos=two"])
    #expect(table.skipped.map(\.line) == [5])
  }

  /// A file with nothing that can be a card is refused, saying why of its first row.
  @Test func aFileWithNoCardIsRefused() {
    guard case .failure(let error) = DeckText.read("just one column\nand another\n", name: "x.csv") else {
      Issue.record("read")
      return
    }
    #expect(error.message.hasPrefix("it holds no card that can be read as CSV (line 1: a row is front,back"))
  }

  /// Imported text shows no control characters, and HTML entities are decoded once.
  @Test func textIsCleaned() {
    #expect(DeckText.plain(html: "a&amp;b<div>c</div><img src=\"x.png\">\u{7}d") == "a&b\nc\n[image] d")
    #expect(DeckText.clean("  x\u{1B}[31my  ") == "x [31my")
  }
}
