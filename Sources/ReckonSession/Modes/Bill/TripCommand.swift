import ReckonCore

/// `trip ski`: a trip's ledger, a bill of expenses over days and currencies (each paid by
/// someone, converted at your rate of its day), and of bills brought in (`include dinner`),
/// settled once for all of it. `trip ski settle`, `trip ski show` and `trip ski export csv
/// FILE` answer at the calculator's prompt without entering it.
struct TripCommand: Command {
  static let help = CommandHelp(
    name: "trip", usage: "trip NAME [settle|show]",
    summary: "a trip's expenses and bills, settled once",
    details: """
      trip ski               start the trip ski, or go back into it
      trip ski ada bob cy    a new trip for these people
      trip ski settle        who pays whom for the whole trip, from here
      trip ski show          its expenses and each person's part
      trip ski export csv F  write it to a new file (csv, markdown, text)
      In a trip: ada paid 120 EUR fuel for all, bob paid 30 taxi for ada cy
      (an expense: who paid, the amount, what it was, for whom; for everyone
      when no one is named), include dinner (a saved bill: its shares and its
      payments), and every line of a bill. An amount in another currency is
      converted at your rate when it is typed (set rate, rates load), so each
      day's expenses go at that day's rate. Saved as it is typed, like a bill.
      """, readsSettings: true)

  let name: String
  let nameSpan: SourceSpan
  /// The people a new trip starts with (`trip ski ada bob cy`).
  let people: [String]
  /// A line to answer from the calculator's prompt (`settle`, `show`, `export csv F`).
  let action: String?

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty
      ? saved(in: state).compactMap(\.name)
      : words.count == 1 ? ["settle", "show", "export"] : ["csv", "markdown", "text"]
  }

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let first = words.first else {
      throw Diagnostic(
        "trip needs the trip's name", at: arguments.end, hint: "trip ski (a new trip, or the one called ski)")
    }
    guard
      BillLine.isName(first.text) || first.text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
      first.text.count <= 40, !first.text.allSatisfy(\.isNumber)
    else {
      throw Diagnostic(
        "a trip's name is one word of letters, digits, - and _ (with a letter)", at: first.span, hint: "trip ski")
    }
    name = first.text
    nameSpan = first.span
    guard words.count > 1 else {
      action = nil
      people = []
      return
    }
    let verb = words[1].lowercased
    guard ["settle", "show", "export"].contains(verb) else {
      // trip ski ada bob cy: a new trip for these people.
      var names: [String] = []
      for word in words.dropFirst() {
        guard BillLine.isName(word.text), !BillLine.keywords.contains(word.lowercased) else {
          throw Diagnostic(
            "trip \(name) takes settle, show or export after it, or the names of the people on it", at: word.span,
            hint: "trip \(name) settle; trip \(name) ada bob cy (a new trip for them)")
        }
        guard !names.contains(where: { $0.lowercased() == word.lowercased }) else {
          throw Diagnostic("\(word.text) is named twice", at: word.span)
        }
        names.append(word.text)
      }
      guard names.count <= BillLine.maxPeople else {
        throw Diagnostic("a trip has at most \(BillLine.maxPeople) people", at: words[1].span)
      }
      people = names
      action = nil
      return
    }
    people = []
    if verb != "export", words.count > 2 {
      throw Diagnostic("'\(verb)' takes nothing after it", at: words[2].span)
    }
    action = String(String.UnicodeScalarView(arguments.line.unicodeScalars.dropFirst(words[1].span.start)))
  }

  /// The profile's trips.
  /// The profile's trips: the bills whose first line starts a trip.
  static func saved(in state: SessionState) -> [Bills.Summary] {
    BillsCommand.saved(in: state).filter { summary in
      let first = (try? state.load(Bills.Lines(profile: state.profile, startedAt: summary.startedAt)))?.first
      return first.flatMap { BillEntry.decoded($0.entries) }?.contains(.trip) ?? false
    }
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    state.prepareStore()
    let all = (try? state.load(Bills.All(profile: state.profile))) ?? []
    if let found = all.first(where: { $0.name?.lowercased() == name.lowercased() }) {
      if !people.isEmpty {
        throw Diagnostic(
          "there is a trip called \(found.name ?? name) already", at: nameSpan,
          hint: "trip \(found.name ?? name) goes back into it (add eve there adds someone)")
      }
      guard var (mode, outputs) = BillCommand.reopen(found, in: state) else {
        return .stay(Reply([.warning("the trip \(name) could not be read")]))
      }
      guard mode.bill.isTrip else {
        throw Diagnostic(
          "\(found.name ?? name) is a bill, not a trip", at: nameSpan,
          hint: "bill open \(found.name ?? name); or a trip of another name, with include \(found.name ?? name) in it")
      }
      if let action {
        // Answered from here: the trip as it is, and back to the calculator.
        let step = mode.handle(action, in: &state)
        guard case .stay(let reply) = step else { return .stay(Reply(outputs)) }
        return .stay(Reply(outputs + reply.outputs))
      }
      outputs.append(.note("\(mode.title) reopened."))
      outputs += BillReport(mode.bill).show(title: mode.title)
      return .enter(mode, Reply(outputs))
    }
    if action != nil {
      throw Diagnostic(
        "there is no trip called \(name)", at: nameSpan,
        hint: "trip \(name) starts it; bills lists the bills and trips")
    }
    let mode = BillCommand.started(
      [.start(people), .trip], text: (["trip", name] + people).joined(separator: " "), name: name, after: all,
      in: &state)
    return .enter(
      mode,
      Reply([
        .note(
          "A new trip, \(name)\(people.isEmpty ? "" : ", for " + people.joined(separator: ", ")). Add expenses (ada paid 120 EUR fuel for all), bills (include dinner)\n"
            + "and people (add eve); show, settle, export csv FILE, help, quit.")
      ]))
  }
}
