import ReckonCore

/// A bill being written: each line typed changes it and is saved at once (`Bills.AddLine`),
/// so `kill -9` loses nothing entered; `show`, `settle` and Enter alone look at it.
struct BillMode: Mode {
  /// When the bill started (the wall clock): its key in the store.
  let startedAt: Int64
  let day: Day
  var name: String?
  var bill = Bill()
  /// The lines that built the bill, by number, with what each did: `undo` takes the last.
  var lines: [(number: Int, entries: [BillEntry])] = []
  var nextLine = 1
  /// The items' part of the last split, kept for the next line's (`BillSplit.ItemsPart`).
  var itemsCache: BillSplit.ItemsPart?
  /// A question the last line asked (`tax 8.875`: a rate or an amount?), answered by this one.
  var question: [BillAction.Choice]?
  var questionLeft = false

  /// The most lines a bill keeps (each one is replayed when it is reopened or undone).
  static let maxLines = 10_000

  init(startedAt: Int64, day: Day, name: String? = nil) {
    self.startedAt = startedAt
    self.day = day
    self.name = name
  }

  func prompt(at now: Int64) -> String {
    bill.isTrip ? "trip \(name ?? "")> " : name.map { "bill \($0)> " } ?? "bill> "
  }

  var title: String { bill.isTrip ? "Trip \(name ?? "")" : name.map { "Bill \($0)" } ?? "Bill" }

  /// The bill built again from its lines (after an undo; when reopened).
  static func replay(_ lines: [(number: Int, entries: [BillEntry])]) -> (Bill, skipped: Int) {
    var bill = Bill()
    var skipped = 0
    for line in lines {
      var trial = bill
      var fits = true
      for entry in line.entries {
        guard entry.fits(trial) else {
          fits = false
          break
        }
        entry.apply(to: &trial)
      }
      if fits { bill = trial } else { skipped += 1 }
    }
    return (bill, skipped)
  }

  mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    let asked = question != nil
    let step = handleLine(line, in: &state)
    // A question left unanswered is said to be left, whatever the line did instead.
    guard asked, questionLeft else { return step }
    questionLeft = false
    let note = Output.note("(The question was left: nothing of the line it asked about was kept.)")
    switch step {
    case .stay(var reply):
      reply.outputs.insert(note, at: 0)
      return .stay(reply)
    case .leave(var reply):
      reply.outputs.insert(note, at: 0)
      return .leave(reply)
    default: return step
    }
  }

  mutating func handleLine(_ line: String, in state: inout SessionState) -> ModeStep {
    // "bill save dinner" inside a bill is "save dinner".
    var typed = line
    if typed.lowercased().hasPrefix("bill ") {
      typed = String(typed.dropFirst(5))
      let word = String(typed.prefix { $0 != " " }).lowercased()
      guard ["save", "export", "show", "settle", "help"].contains(word) else {
        return .stay(
          Reply([.note("You are in a bill: quit it first (it is saved), then \(line) at the calculator's prompt.")]))
      }
    }
    if ["exit", "bye"].contains(typed.lowercased()) { typed = "quit" }
    // A comment (a bill kept in a file): "# the starter was shared" or "… # note".
    if let hash = typed.firstIndex(of: "#"), hash == typed.startIndex || typed[typed.index(before: hash)] == " " {
      typed = String(typed[..<hash])
      if typed.allSatisfy({ $0 == " " || $0 == "\t" }) && line.contains(where: { $0 != " " && $0 != "\t" }) {
        return .stay(Reply())
      }
    }
    var action: BillAction
    let saved = line
    if let choices = question {
      question = nil
      let answer = typed.trimmingSpaces.lowercased()
      if let choice = choices.first(where: { $0.answers.contains(answer) }) {
        // The line as if it had been typed so: that is what is saved.
        return handleChange(choice.entries, notes: choice.notes, line: choice.line, in: &state)
      }
      questionLeft = true
    }
    do throws(Diagnostic) {
      action = try BillLine(typed, bill: bill, state: state).action()
    } catch {
      var error = error
      let shift = line.unicodeScalars.count - typed.unicodeScalars.count
      error.span = SourceSpan(error.span.start + shift, error.span.end + shift)
      let first = String(typed.prefix { $0 != " " }).lowercased()
      if !BillLine.keywords.contains(first), bill.person(named: first) == nil,
        let here = Commands.typedInMode(
          typed, here: "In a bill: an item (ada 18.50 pasta), tax, tip, show, settle, help.")
      {
        return .stay(Reply([.note(here)]))
      }
      return .stay(.error(error, line))
    }
    let report = { (bill: Bill) in BillReport(bill) }
    switch action {
    case .totals: return .stay(Reply(report(bill).totals))
    case .show: return .stay(Reply(report(bill).show(title: title)))
    case .settle: return .stay(Reply(report(bill).settle()))
    case .help: return .stay(Reply([.note(BillMode.help)]))
    case .quit:
      let total = report(bill)
      if !bill.items.isEmpty {
        state.environment.answer = .quantity(
          Quantity(.exact(Money.value(cents: BigInteger(total.split.totalCents), decimals: total.decimals)), .none))
      }
      let saved =
        bill.isTrip
        ? " The trip is saved: trip \(name ?? "") goes back into it, trip \(name ?? "") settle settles it."
        : bill.items.isEmpty
          ? "" : name.map { " It is saved as \($0): bill open \($0)." } ?? " It is saved: bills lists it."
      return .leave(
        Reply([.note("Back to the calculator." + saved + (bill.items.isEmpty ? "" : " ans is its total."))]))
    case .undo:
      // (The line that started the bill stays: quit leaves a bill, undo changes it.)
      guard let last = lines.last, !last.entries.contains(where: { if case .start = $0 { true } else { false } })
      else { return .stay(Reply([.note("Nothing to undo.")])) }
      lines.removeLast()
      let description = BillMode.describe(last.entries, in: BillReport(bill))  // as the line left the bill
      (bill, _) = BillMode.replay(lines)
      itemsCache = nil  // (the items kept may be the ones taken back)
      state.save(
        Bills.Undo(profile: state.profile, startedAt: startedAt, number: last.number, at: state.clock.nowMilliseconds())
      )
      return .stay(Reply([.note("Took back: \(description)")] + report(bill).totals))
    case .save(let newName):
      return .stay(save(as: newName, in: &state))
    case .export(let format, let path):
      guard !bill.items.isEmpty else { return .stay(Reply([.note("The bill has no items to export yet.")])) }
      if path == "-" {
        var text = BillExport.text(of: report(bill), title: title, as: format, lineEnd: "\n")
        while text.hasSuffix("\n") { text.removeLast() }
        return .stay(Reply([.result(text)]))
      }
      return .stay(export(BillExport.text(of: report(bill), title: title, as: format), as: format, to: path, in: state))
    case .change(let entries, let notes):
      return handleChange(entries, notes: notes, line: saved, in: &state)
    case .ask(let text, let choices):
      question = choices
      return .stay(Reply([.note(text)]))
    }
  }

  /// A line's entries applied, checked, saved (as `line`) and described; or refused,
  /// changing nothing.
  mutating func handleChange(_ entries: [BillEntry], notes: [String], line: String, in state: inout SessionState)
    -> ModeStep
  {
    guard lines.count < BillMode.maxLines else {
      return .stay(
        .error(
          Diagnostic(
            "a bill keeps at most \(BillMode.maxLines.grouped) lines: start another for the rest",
            at: SourceSpan(0, line.unicodeScalars.count)), line))
    }
    var changed = bill
    for entry in entries { entry.apply(to: &changed) }
    // The bill worked out once: checked, described and totalled from the same split.
    var cache = itemsCache
    let changedReport = BillReport(changed, cache: &cache)
    let split = changedReport.split
    if let over = split.parts.firstIndex(where: { $0.total.isNegative || ($0.items - $0.discounts).isNegative }) {
      return .stay(
        .error(
          Diagnostic(
            "the discounts would take more off than there is to pay (\(changed.people[over])'s share would be "
              + "below zero)", at: SourceSpan(0, line.unicodeScalars.count),
            hint: "a coupon or discount applies to what it is off: check its amount, or undo an earlier one"), line))
    }
    guard split.exactTotal.magnitude < Rational(1_000_000_000_000_000) else {
      return .stay(
        .error(
          Diagnostic(
            "the bill would come to more than money goes up to (10^15)", at: SourceSpan(0, line.unicodeScalars.count)),
          line))
    }
    bill = changed
    itemsCache = cache  // (only for a change that is kept)
    let number = nextLine
    nextLine += 1
    lines.append((number, entries))
    state.save(
      Bills.AddLine(
        profile: state.profile, startedAt: startedAt, day: day, number: number, text: line,
        entries: BillEntry.encoded(entries), at: state.clock.nowMilliseconds()))
    var outputs: [Output] = notes.map { .note($0) }
    outputs.append(.note(BillMode.describe(entries, in: changedReport)))
    if case .receiptTotal? = entries.last, let check = changedReport.receiptCheck {
      outputs.append(check)
    } else {
      outputs += changedReport.totals
    }
    return .stay(Reply(outputs))
  }

  /// Writes an export to a new file: `path`, or one named after the bill in the current
  /// folder (dinner.csv; bill-2026-12-08.csv, then -2, -3 … rather than replace one).
  func export(_ text: String, as format: BillExport.Format, to path: String?, in state: SessionState) -> Reply {
    guard let files = state.files else {
      return Reply([.warning("this session cannot write files: export \(format.rawValue) - shows it here")])
    }
    var bytes = Array(text.utf8)
    if bytes.last != 10 { bytes.append(10) }
    let base = name ?? "bill-\(day.iso)"
    let candidates =
      path.map { [$0] } ?? (1...99).map { $0 == 1 ? "\(base).\(format.ending)" : "\(base)-\($0).\(format.ending)" }
    var lastError: FileError?
    for candidate in candidates {
      do {
        let written = try files.create(candidate, bytes: bytes)
        let what =
          format == .csv
          ? "the items, each line of the receipt and the total, with each person's part (open it in a spreadsheet)"
          : "the items and the split"
        return Reply([.note("Wrote \(written): \(what).")])
      } catch {
        lastError = error
        if path != nil || error.message != "there is a file there already" { break }
      }
    }
    let target = path ?? "\(base).\(format.ending)"
    return Reply([
      .warning(
        "\(target) could not be written: \(lastError?.message ?? "no name was free")"
          + (lastError?.message == "there is a file there already"
            ? " (choose another name: export \(format.rawValue) FILE)" : ""))
    ])
  }

  /// `save dinner`: names the bill, unless another bill has the name.
  mutating func save(as newName: String, in state: inout SessionState) -> Reply {
    guard BillLine.isName(newName) || newName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
      newName.count <= 40
    else {
      return Reply([.warning("a bill's name is one word of letters, digits, - and _ (at most 40): \(newName) is not")])
    }
    guard !newName.allSatisfy(\.isNumber) else {
      return Reply([
        .warning("a bill's name needs a letter: bill open \(newName) opens the bill numbered \(newName) in bills")
      ])
    }
    if name != newName, let others = try? state.load(Bills.All(profile: state.profile)),
      others.contains(where: { $0.name?.lowercased() == newName.lowercased() && $0.startedAt != startedAt })
    {
      return Reply([
        .warning("another bill is called \(newName): choose another name, or open that one with bill open \(newName)")
      ])
    }
    if lines.isEmpty {
      // A bill is kept once it has a line: this one's first says who is in it.
      let entries: [BillEntry] = [.start(bill.people)]
      lines.append((nextLine, entries))
      state.save(
        Bills.AddLine(
          profile: state.profile, startedAt: startedAt, day: day, number: nextLine, text: "bill",
          entries: BillEntry.encoded(entries), at: state.clock.nowMilliseconds()))
      nextLine += 1
    }
    name = newName
    state.save(
      Bills.Name(profile: state.profile, startedAt: startedAt, name: newName, at: state.clock.nowMilliseconds()))
    return Reply([.note("Saved as \(newName): bill open \(newName) reopens it.")])
  }

  /// What a line did, in words: `item 3: pasta, 18.50, ada`, from the bill it left.
  static func describe(_ entries: [BillEntry], in report: BillReport) -> String {
    let bill = report.bill
    let noun = bill.isTrip ? "trip" : "bill"
    var parts: [String] = []
    for entry in entries {
      switch entry {
      case .start(let names): parts.append(names.isEmpty ? "a new bill" : "a bill for \(names.joined(separator: ", "))")
      case .people(let names):
        parts.append(
          "\(names.joined(separator: ", ")) joined the \(noun)" + (bill.namedAtStart ? "" : " (undo if not a name)"))
        // The items typed with all before they came are not theirs: say so, and how to join.
        let before = bill.items.filter { item in
          item.sharedByAll
            && names.contains { name in
              bill.person(named: name).map { p in !item.shares.contains { $0.person == p } } ?? false
            }
        }
        if !before.isEmpty {
          let numbers = before.map { String($0.number) }
          let list = before.prefix(5).map { "\($0.number)" + ($0.label.isEmpty ? "" : " " + $0.label) }
          parts.append(
            "\(names.count == 1 ? names[0] + " is" : "they are") not in the earlier shared "
              + "\(before.count == 1 ? "item" : "items") \(list.joined(separator: ", "))\(before.count > 5 ? ", …" : "")"
              + " (all meant those at the bill then): \(names[0]) joins \(numbers.count > 5 ? "all" : numbers.joined(separator: " ")) puts \(names[0]) in \(before.count == 1 ? "it" : "them")"
          )
        }
      case .join(let person, let numbers):
        let labels = numbers.prefix(5).map { n in
          "\(n)" + (bill.items.first { $0.number == n }.map { $0.label.isEmpty ? "" : " " + $0.label } ?? "")
        }
        parts.append(
          "\(bill.people[person]) shares \(numbers.count == 1 ? "item" : "items") \(labels.joined(separator: ", "))"
            + (numbers.count > 5 ? " and \(numbers.count - 5) more" : ""))
      case .item:
        if let item = bill.items.last {
          parts.append(
            "item \(item.number): \(item.label.isEmpty ? "" : item.label + ", ")\(report.money(item.amount)), \(report.who(item))"
          )
        }
      case .edit(let number, _):
        if let item = bill.items.first(where: { $0.number == number }) {
          parts.append(
            "item \(number) is now \(item.label.isEmpty ? "" : item.label + ", ")\(report.money(item.amount)), \(report.who(item))"
          )
        } else {
          parts.append("item \(number) changed")
        }
      case .remove(let number): parts.append("item \(number) removed")
      case .adjustment(let a):
        // Taxes, charges and discounts add up (a tip replaces the tip): say so when there are two.
        let same = bill.adjustments.filter { $0.kind == a.kind && $0.kind != .tip }
        parts.append(
          report.describe(a)
            + (same.count > 1
              ? " (with the one before: \(same.map(report.describe).joined(separator: " + ")); undo takes this back)"
              : ""))
      case .receiptTotal(let total): parts.append("the receipt's total: \(report.money(total))")
      case .paid(let payments):
        // As the bill keeps them: "the rest" is the rest now, and stays so.
        let kept = payments.compactMap { p in bill.payments.first { $0.person == p.person } }
        let alone = kept.count == 1 && bill.payments.count == 1
        parts.append(
          "paid: "
            + kept.map { payment in
              bill.people[payment.person] + " " + report.money(payment.amount ?? .zero)
                + (payment.wasRest
                  ? " (\(alone ? "all of it" : "the rest") as the bill stands: a later change leaves it as it is)" : "")
            }.joined(separator: ", "))
      case .removeAdjustment(_, let a): parts.append("\(report.describe(a)) removed")
      case .editAdjustment(_, let a): parts.append("now \(report.describe(a))")
      case .unpaid(let person): parts.append("\(bill.people[person]) paid nothing (what was said is taken back)")
      case .removeTotal: parts.append("the receipt's total is taken back")
      case .trip: parts.append("a new trip")
      case .expense:
        if let item = bill.items.last, let payer = item.paidBy.first {
          parts.append(
            "item \(item.number): \(item.label.isEmpty ? "" : item.label + ", ")\(report.money(item.amount)), "
              + "paid by \(bill.people[payer.person]) for \(report.who(item))")
        }
      case .include(let included):
        if let item = bill.items.last {
          parts.append(
            "item \(item.number): \(included.label), \(report.money(item.amount)), shared by "
              + "\(report.who(item)); paid by "
              + item.paidBy.map { bill.people[$0.person] + " " + report.money($0.amount ?? .zero) }.joined(
                separator: ", "))
        }
      case .roundUp(let on):
        parts.append(
          on
            ? report.roundedTip.map { $0.prefix(1).lowercased() + $0.dropFirst() }
              ?? "each share rounded up to a whole unit" : "shares not rounded up")
      case .currency(let c):
        parts.append(
          bill.items.count > 1
            ? "the \(noun) is in \(c.code) from now on (amounts without a currency too)" : "the \(noun) is in \(c.code)"
        )
      }
    }
    return parts.joined(separator: "; ")
  }

  mutating func finish(in state: inout SessionState) -> Reply { Reply() }

  func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    let words = [
      "tax", "tip", "service", "discount", "coupon", "total", "paid", "remove", "edit", "undo", "show", "settle",
      "round", "help", "quit", "add", "save", "export", "all",
    ]
    return (isFirstWord ? words : ["all", "after", "tax", "discount", "round", "text", "markdown", "csv", "joins"])
      + bill.people
  }

  static let help = """
    A bill: each line changes it and is saved at once.
      ada 18.50 pasta       an item: who had it, the amount, what it was
      bob cy 24 wine        shared by those named; all 14 starter: by everyone
                            at the bill now (eve joins 3: a later one too)
      ada:2 bob:1 30 pizza  shared by weight (ada two thirds)
      2 x 4.50 beer bob     a count of the same item (amounts: any expression,
                            with its currency: 1000+500 JPY, 10 usd)
      tax 8.875%            on the food after discounts; tax 10.53: an amount;
                            tax 8.875% per item: each item's tax rounded
      tip 20%               on the subtotal before tax and discounts; also
                            tip 20% after tax, after discount, round; tip 25
      service 10%           a service charge, on the subtotal after discounts
      discount 10%          off before tax (or after tax); coupon 5: an amount
                            (percent and pct mean %: tip 20 percent)
      total 152.97          the receipt's total, checked against the bill
      paid ada              who paid (paid ada 100 bob rest); settle: who
                            pays whom, with the fewest transfers
      show                  the items and the split; Enter alone: the totals
      remove 3, edit 3 …    change an item (show numbers them); undo: the
                            last line back; add eve: someone joins
      remove tax, edit tip 18%, remove paid bob, remove total
      round                 every share up to a whole unit (the tip grows)
      ada paid 120 fuel for all
                            an expense: who paid, the amount, what it was,
                            for whom (everyone when no one is named)
      include dinner        in a trip: a saved bill, its shares and payments
      save dinner           name it (bill open dinner reopens it)
      export csv FILE       write it to a new file (csv, markdown or text;
                            export csv -: here)
      quit                  back to the calculator (ans is the total)
    Each line of the receipt (each item, the tax, the tip) is rounded to the
    cent as the receipt prints it, then shared by the largest remainder: every
    row and column adds up, to the receipt's total.
    """
}
