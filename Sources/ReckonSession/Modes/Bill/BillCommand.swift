import ReckonCore

/// `bill [names…]`, `bill open NAME`: a bill split item by item.
struct BillCommand: Command {
  static let help = CommandHelp(
    name: "bill", usage: "bill [NAME…]", summary: "an itemised bill: tax, tip, who owes whom",
    details: """
      bill                 a new bill; people come with their items (ada 12 soup)
      bill ada bob cy      a new bill for these people
      bill open dinner     reopen a saved bill (bill open 2: the second in bills)
      In a bill, help lists what a line can say: items, tax, tip, discounts,
      the receipt's total, who paid; show draws the split, settle says who
      pays whom. Every line is saved as it is typed. Each line of the receipt
      is rounded to the cent as the receipt prints it and shared by the
      largest remainder, so every row and column adds up to the receipt's
      total.
      """, readsSettings: true)

  enum Start {
    case new([String])
    case open(String)
  }

  let start: Start

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? ["open"] : words.first == "open" ? (BillsCommand.saved(in: state).compactMap(\.name)) : []
  }

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    if let first = words.first, first.lowercased == "open" {
      guard words.count == 2 else {
        throw Diagnostic(
          "bill open takes a bill's name or number", at: words.count > 2 ? words[2].span : first.span,
          hint: "bills lists them")
      }
      start = .open(words[1].text)
      return
    }
    if let first = words.first, ["save", "list", "export", "show", "settle"].contains(first.lowercased) {
      throw Diagnostic(
        first.lowercased == "list"
          ? "bills lists the bills" : "\(first.lowercased) works inside a bill: start one, or reopen one first",
        at: first.span, hint: first.lowercased == "list" ? "bills" : "bill open dinner, then \(first.lowercased)")
    }
    var names: [String] = []
    for word in words {
      guard BillLine.isName(word.text) else {
        throw Diagnostic(
          "a person's name is one word of letters: \(Diagnostic.quoted(word.text)) is not", at: word.span,
          hint: "bill ada bob cy")
      }
      guard !BillLine.keywords.contains(word.lowercased) else {
        throw Diagnostic("\(word.text) is a word of the bill's own: call them something else", at: word.span)
      }
      guard !names.contains(where: { $0.lowercased() == word.lowercased }) else {
        throw Diagnostic("\(word.text) is named twice", at: word.span)
      }
      names.append(word.text)
    }
    guard names.count <= 100 else { throw Diagnostic("a bill has at most 100 people", at: words[100].span) }
    start = .new(names)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    state.prepareStore()
    switch start {
    case .new(let names):
      let mode = BillCommand.started(
        [.start(names)], text: (["bill"] + names).joined(separator: " "), name: nil,
        after: (try? state.load(Bills.All(profile: state.profile))) ?? [], in: &state)
      let who = names.isEmpty ? "" : " for \(names.joined(separator: ", "))"
      return .enter(
        mode,
        Reply([
          .note(
            "A new bill\(who). Add items (ada 18.50 pasta, all 14 starter), tax and tip;\n"
              + "show, settle, help, quit.")
        ]))
    case .open(let key):
      let saved = BillsCommand.saved(in: state)
      let found =
        saved.first { $0.name?.lowercased() == key.lowercased() }
        ?? Int(key).flatMap { $0 >= 1 && $0 <= saved.count ? saved[$0 - 1] : nil }
      guard let found else {
        throw Diagnostic(
          "no saved bill called \(key)", at: SourceSpan(0, 0),
          hint: saved.isEmpty ? "there are no saved bills yet" : "bills lists them")
      }
      guard let (mode, warnings) = BillCommand.reopen(found, in: state) else {
        return .stay(Reply([.warning("the bill could not be read")]))
      }
      return .enter(
        mode, Reply(warnings + [.note("\(mode.title) reopened.")] + BillReport(mode.bill).show(title: mode.title)))
    }
  }

  /// A new bill (or trip) begun with its first line's entries, saved: its key is the moment
  /// it started, and one started in the same millisecond as the latest of `saved` (a file of
  /// bills) starts a millisecond later.
  static func started(
    _ entries: [BillEntry], text: String, name: String?, after saved: [Bills.Summary], in state: inout SessionState
  ) -> BillMode {
    let latest = saved.map(\.startedAt).max() ?? .min
    let now = max(state.clock.nowMilliseconds(), latest == .min ? .min : latest + 1)
    var mode = BillMode(startedAt: now, day: state.clock.day(atMilliseconds: now), name: name)
    for entry in entries { entry.apply(to: &mode.bill) }
    mode.lines = [(1, entries)]
    mode.nextLine = 2
    state.save(
      Bills.AddLine(
        profile: state.profile, startedAt: now, day: mode.day, number: 1, text: text,
        entries: BillEntry.encoded(entries), at: now))
    if let name { state.save(Bills.Name(profile: state.profile, startedAt: now, name: name, at: now)) }
    return mode
  }

  /// A saved bill (or trip) as its lines build it, with a warning for lines that could not
  /// be read; nil when its lines cannot be read at all.
  static func reopen(_ found: Bills.Summary, in state: SessionState) -> (mode: BillMode, warnings: [Output])? {
    guard let lines = try? state.load(Bills.Lines(profile: state.profile, startedAt: found.startedAt)) else {
      return nil
    }
    var mode = BillMode(startedAt: found.startedAt, day: found.day, name: found.name)
    var unreadable = 0
    for line in lines {
      guard let entries = BillEntry.decoded(line.entries) else {
        unreadable += 1
        continue
      }
      mode.lines.append((line.number, entries))
    }
    let (bill, skipped) = BillMode.replay(mode.lines)
    mode.bill = bill
    mode.nextLine = (lines.map(\.number).max() ?? 0) + 1
    var outputs: [Output] = []
    if unreadable + skipped > 0 {
      outputs.append(
        .warning("\(Wording.count(unreadable + skipped, "line")) of this bill could not be read, and are left out"))
    }
    return (mode, outputs)
  }
}

/// `bills`: the saved bills, the most recently changed first.
struct BillsCommand: Command {
  static let help = CommandHelp(
    name: "bills", usage: "bills", summary: "list the saved bills",
    details: """
      Each bill with its name (name one inside it: save dinner), the day it
      was started, its people, items and total. bill open NAME (or its number
      here) reopens one.
      """, takesArguments: false, readsSettings: true)

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {}

  /// The profile's bills worth listing (none when they cannot be read): a bill started and
  /// left without a line more, and no name, is not.
  static func saved(in state: SessionState) -> [Bills.Summary] {
    ((try? state.load(Bills.All(profile: state.profile))) ?? []).filter(BillsCommand.isListed)
  }

  static func isListed(_ summary: Bills.Summary) -> Bool { summary.name != nil || summary.lines > 1 }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let saved: [Bills.Summary]
    do {
      saved = try state.load(Bills.All(profile: state.profile)).filter(BillsCommand.isListed)
    } catch {
      return .stay(Reply([.warning("the bills could not be read: \(error.message)")]))
    }
    guard !saved.isEmpty else { return .stay(Reply([.note("No bills yet. Start one: bill ada bob cy")])) }
    var rows: [[String]] = [["no.", "name", "started", "people", "items", "total"]]
    for (i, summary) in saved.prefix(50).enumerated() {
      let bill = BillCommand.reopen(summary, in: state)?.mode.bill ?? Bill()
      let report = BillReport(bill)
      rows.append([
        "\(i + 1)", summary.name ?? "–", summary.day.iso, "\(bill.people.count)", "\(bill.items.count)",
        bill.items.isEmpty ? "–" : report.money(report.split.totalCents) + report.currencySuffix,
      ])
    }
    var outputs: [Output] = [.table(rows)]
    if saved.count > 50 { outputs.append(.note("The 50 most recent of \(saved.count.grouped) bills.")) }
    outputs.append(.note("bill open NAME, or bill open 2: the second here."))
    return .stay(Reply(outputs))
  }
}

enum BillFeature: Feature {
  static let commands: [any Command.Type] = [BillCommand.self, BillsCommand.self, TripCommand.self]
}
