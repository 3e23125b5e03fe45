import ReckonCore

/// What a line typed in a bill asks for: entries that change the bill, or something to show.
enum BillAction: Sendable {
  /// Entries to apply and save (with a note to show, such as a conversion's rate).
  case change([BillEntry], notes: [String])
  case show
  case settle
  /// Enter alone: the running totals.
  case totals
  case help
  case quit
  case undo
  case save(String)
  /// `export csv FILE`; no file: a new one named after the bill; `-`: the screen.
  case export(BillExport.Format, path: String?)
  /// A line that could mean two things: the question, and what each answer does.
  case ask(String, [Choice])

  struct Choice: Sendable {
    /// What the user types to choose it (`%`, `amount`).
    var answers: [String]
    /// The line as it would have been typed unambiguously (`tax 8.875%`): what is saved.
    var line: String
    var entries: [BillEntry]
    var notes: [String]
  }
}

/// Reads one line typed in a bill: a command word first (`tax`, `tip`, `paid`, `remove`, …),
/// or an item (`ada 18.50 pasta`, `bob cy 24 wine`, `all 14 starter`, `2 x 4.50 beer bob`,
/// `ada:2 bob:1 30 pizza`). Amounts are any expression; a mistake is a diagnostic under the
/// words at fault, and changes nothing.
struct BillLine {
  let line: String
  let words: [Word]
  let bill: Bill
  let state: SessionState
  /// Whether a plain number that may be a rate is asked about (not in the line an answer
  /// makes: `tax 8.88`).
  var asksRateOrAmount = true

  struct Word: Sendable {
    var text: String
    var span: SourceSpan
    var lower: String { text.lowercased() }
  }

  /// A bill's bounds: past them a line is refused (a piped file of a million items would
  /// otherwise take minutes to split after every line).
  static let maxPeople = 100
  static let maxItems = 1000

  /// The words that start a command in a bill; a person may not be called one of them.
  static let keywords: Set<String> = [
    "tax", "tip", "service", "charge", "discount", "coupon", "total", "paid", "remove", "edit", "undo", "show",
    "settle", "round", "help", "quit", "done", "add", "save", "export", "all", "everyone",
    // Words of a line that reads like a sentence ("dee pays 5"), never a person's name.
    "pays", "pay", "owes", "owe", "x", "and", "for", "joins", "join", "include", "trip",
  ]

  init(_ line: String, bill: Bill, state: SessionState) {
    self.line = line
    self.bill = bill
    self.state = state
    var words: [Word] = []
    var current = ""
    var start = 0
    var column = 0
    for scalar in line.unicodeScalars {
      if scalar == " " || scalar == "\t" {
        if !current.isEmpty { words.append(Word(text: current, span: SourceSpan(start, column))) }
        current = ""
      } else {
        if current.isEmpty { start = column }
        current.unicodeScalars.append(scalar)
      }
      column += 1
    }
    if !current.isEmpty { words.append(Word(text: current, span: SourceSpan(start, column))) }
    self.words = words
  }

  func action() throws(Diagnostic) -> BillAction {
    guard let first = words.first else { return .totals }
    let rest = Array(words.dropFirst())
    switch first.lower {
    case "show": return try alone(.show)
    case "settle": return try alone(.settle)
    case "help", "?": return .help
    case "quit", "done", "q": return try alone(.quit)
    case "undo": return try alone(.undo)
    case "round":
      if let word = rest.first, ["off", "no"].contains(word.lower) { return .change([.roundUp(false)], notes: []) }
      return try alone(.change([.roundUp(true)], notes: []))
    case "tax", "tip", "service", "charge", "discount", "coupon": return try adjustment(first, rest)
    case "total":
      guard !rest.isEmpty else {
        throw Diagnostic("total needs the receipt's total", at: first.span, hint: "for example: total 152.97")
      }
      let (amount, notes, currency) = try money(rest)
      guard !amount.isNegative else {
        throw Diagnostic(
          "the receipt's total must not be negative", at: rest[0].span.union(rest.last!.span),
          hint: "for example: total 152.97")
      }
      return .change(currency + [.receiptTotal(amount)], notes: notes)
    case "paid": return try paid(first, rest)
    case "remove", "delete":
      if let word = rest.first, Int(word.text) == nil {
        return try removeLine(first, rest)
      }
      return .change([.remove(try itemNumber(first, rest, usage: "remove 3"))], notes: [])
    case "edit" where rest.first.map({ BillLine.adjustmentWords.contains($0.lower) }) ?? false:
      guard case .change(let entries, let notes) = try adjustment(rest[0], Array(rest.dropFirst())),
        let index = entries.firstIndex(where: { if case .adjustment = $0 { true } else { false } }),
        case .adjustment(let new) = entries[index]
      else { return .change([], notes: []) }
      let at = try adjustmentIndex(rest[0], size: nil, verb: "edit")
      var changed = entries
      changed[index] = .editAdjustment(at, new)
      return .change(changed, notes: notes)
    case "edit":
      let number = try itemNumber(first, Array(rest.prefix(1)), usage: "edit 3 ada 20 pasta", alone: false)
      guard rest.count > 1 else {
        throw Diagnostic(
          "edit needs the item as it should be", at: rest[0].span, hint: "for example: edit 3 ada 20 pasta")
      }
      var (entries, notes) = try item(Array(rest.dropFirst()))
      guard case .item(let draft) = entries.removeLast() else { return .change(entries, notes: notes) }
      return .change(entries + [.edit(number, draft)], notes: notes)
    case "add":
      guard !rest.isEmpty else { throw Diagnostic("add needs names", at: first.span, hint: "for example: add eve") }
      var names: [String] = []
      for word in rest {
        try checkNewName(word, adding: names.count)
        guard bill.person(named: word.text) == nil, !names.contains(word.text) else {
          throw Diagnostic("\(word.text) is in the bill already", at: word.span)
        }
        names.append(word.text)
      }
      return .change([.people(names)], notes: [])
    case "save":
      guard let name = rest.first, rest.count == 1 else {
        throw Diagnostic("save needs one word to name the bill", at: first.span, hint: "for example: save dinner")
      }
      return .save(name.text)
    case "export":
      // export [text|markdown|csv] [FILE]: the format, or the file's ending, says which.
      var format: BillExport.Format?
      var words = rest[...]
      if let word = words.first, let named = BillExport.Format(word: word.lower) {
        format = named
        words.removeFirst()
      }
      guard words.count <= 1 else {
        throw Diagnostic(
          "export takes a format and one file", at: words[words.startIndex + 1].span,
          hint: "export csv dinner.csv (a file's name with a space: not here)")
      }
      if let path = words.first {
        if format == nil, let ending = path.text.split(separator: ".").last.map(String.init),
          path.text.contains("."), let byEnding = BillExport.Format(word: ending.lowercased())
        {
          format = byEnding
        }
        guard let format else {
          throw Diagnostic(
            "no export format \(Diagnostic.quoted(path.text))", at: path.span,
            hint: "export csv, export markdown or export text, then a file's name (or - for the screen)")
        }
        return .export(format, path: path.text)
      }
      return .export(format ?? .text, path: nil)
    case "include":
      guard rest.count == 1 else {
        throw Diagnostic(
          "include takes the name of a saved bill", at: rest.count > 1 ? rest[1].span : first.span,
          hint: "include dinner (bills lists them)")
      }
      return try include(rest[0])
    default:
      if rest.first?.lower == "paid" { return try expense(words) }
      if rest.first.map({ ["joins", "join"].contains($0.lower) }) ?? false {
        return try joins(first, Array(rest.dropFirst()), word: rest[0])
      }
      let (entries, notes) = try item(words)
      return .change(entries, notes: notes)
    }
  }

  /// `ada paid 120 EUR fuel for all`, `bob paid 30 taxi for ada cy`, `cy paid 12 coffee`
  /// (for everyone): an expense, an item someone paid for.
  func expense(_ words: [Word]) throws(Diagnostic) -> BillAction {
    var newPeople: [String] = []
    var said: [String] = []
    guard let payer = try person(words[0], allowNew: true, newPeople: &newPeople, first: true, notes: &said),
      let payerName = payer.name, payer.weight == .one
    else {
      throw Diagnostic(
        "who paid? An expense is a name, paid, the amount, what it was, and for whom", at: words[0].span,
        hint: "ada paid 120 fuel for all")
    }
    var rest = Array(words.dropFirst(2))
    guard !rest.isEmpty else {
      throw Diagnostic(
        "the expense needs its amount", at: words[1].span, hint: "\(payerName) paid 120 fuel for all")
    }
    // For whom: the names after the last "for" (all of them names, or all), or everyone.
    var shares: [(name: String, span: SourceSpan)] = []
    var everyone = true
    if let at = rest.lastIndex(where: { $0.lower == "for" }), at + 1 < rest.count {
      var names: [(String, SourceSpan)] = []
      var all = false
      var ok = true
      for word in rest[(at + 1)...] where ok {
        if ["and", ","].contains(word.lower) { continue }
        let name = word.text.hasSuffix(",") ? String(word.text.dropLast()) : word.text
        if ["all", "everyone"].contains(name.lowercased()) {
          all = true
        } else if let known = bill.person(named: name) {
          names.append((bill.people[known], word.span))
        } else if let new = newPeople.first(where: { $0.lowercased() == name.lowercased() }) {
          names.append((new, word.span))
        } else if !bill.namedAtStart, BillLine.isName(name), !BillLine.keywords.contains(name.lowercased()),
          !isValue(name)
        {
          try checkNewName(Word(text: name, span: word.span), adding: newPeople.count)
          newPeople.append(name)
          names.append((name, word.span))
        } else {
          ok = false
        }
      }
      if ok && (all || !names.isEmpty) {
        guard !(all && !names.isEmpty) else {
          throw Diagnostic("all already means everyone: leave out the names, or all", at: rest[at].span)
        }
        everyone = all
        shares = names
        rest.removeSubrange(at...)
      }
    }
    guard !rest.isEmpty else {
      throw Diagnostic("the expense needs its amount", at: words[1].span, hint: "\(payerName) paid 120 fuel for all")
    }
    let (amount, notes, currency, used) = try leadingMoney(rest)
    guard !amount.isNegative, !amount.isZero else {
      throw Diagnostic("an expense's amount must be more than zero", at: rest[0].span.union(rest[used - 1].span))
    }
    let label = rest.dropFirst(used).map(\.text).joined(separator: " ")
    var people = bill.people
    for name in newPeople where !people.contains(name) { people.append(name) }
    var merged: [Bill.Share] = []
    for share in shares {
      let index = people.firstIndex { $0.lowercased() == share.name.lowercased() }!
      if !merged.contains(where: { $0.person == index }) { merged.append(Bill.Share(person: index, weight: .one)) }
    }
    if everyone && people.isEmpty {
      throw Diagnostic("there is no one in the bill yet for all to share it", at: words[0].span)
    }
    guard bill.nextNumber <= BillLine.maxItems else {
      throw Diagnostic("a bill has at most \(BillLine.maxItems.grouped) items", at: words[0].span)
    }
    let index = people.firstIndex { $0.lowercased() == payerName.lowercased() }!
    let draft = BillEntry.ItemDraft(amount: amount, shares: merged, label: label)
    return .change(
      (newPeople.isEmpty ? [] : [.people(newPeople)]) + currency + [.expense(payer: index, draft)], notes: notes + said)
  }

  /// `include dinner`: a saved bill brought into a trip, each person's share and what each
  /// paid, in the trip's currency (converted at your rate now, and said).
  func include(_ word: Word) throws(Diagnostic) -> BillAction {
    guard bill.isTrip else {
      throw Diagnostic("include brings a bill into a trip: start one with trip ski", at: word.span)
    }
    let saved = (try? state.load(Bills.All(profile: state.profile))) ?? []
    guard let found = saved.first(where: { $0.name?.lowercased() == word.lower }) else {
      throw Diagnostic("no saved bill called \(word.text)", at: word.span, hint: "bills lists them")
    }
    guard let other = BillCommand.reopen(found, in: state)?.mode.bill else {
      throw Diagnostic("the bill \(word.text) could not be read", at: word.span)
    }
    guard !other.isTrip else { throw Diagnostic("\(word.text) is a trip, not a bill", at: word.span) }
    guard !bill.items.contains(where: { $0.label == "bill " + (found.name ?? word.text) }) else {
      throw Diagnostic("the bill \(word.text) is in this trip already", at: word.span)
    }
    guard !other.items.isEmpty else { throw Diagnostic("the bill \(word.text) has no items", at: word.span) }
    let report = BillReport(other)
    let split = report.split
    let paid = split.paidCents(other)
    guard paid.reduce(0, +) == split.totalCents else {
      throw Diagnostic(
        "the bill \(word.text) does not say who paid all of it (\(report.money(paid.reduce(0, +))) of "
          + "\(report.money(split.totalCents)))", at: word.span,
        hint: "bill open \(word.text), then paid ada (or paid ada 100 bob rest)")
    }
    let scale = Rational(BigInteger.power(10, split.decimals))
    var shares = split.cents.map { Rational($0) / scale }
    var payments = paid.map { Rational($0) / scale }
    var entries: [BillEntry] = []
    var notes: [String] = []
    if let code = other.currency?.code, code != bill.currency?.code {
      if bill.currency == nil {
        guard bill.items.isEmpty else {
          throw Diagnostic(
            "the bill \(word.text) is in \(code), and this trip's amounts so far have no currency", at: word.span)
        }
        entries.append(.currency(other.currency!))
      } else {
        // Its total converted at your rate, as an amount typed in the trip is, and each share
        // and payment in proportion.
        let total = shares.reduce(Rational.zero, +)
        let (converted, said, _) = try money(
          Value.quantity(Quantity(.exact(total), try currencyUnit(code, at: word.span))), at: word.span)
        let factor = total.isZero ? Rational.one : converted / total
        shares = shares.map { $0 * factor }
        payments = payments.map { $0 * factor }
        notes += said.map { "the bill \(word.text): \($0)" }
        // To whole cents of the trip's currency, shares and payments alike (both add up to
        // the same converted total, so they still match).
        let decimals = bill.currency?.decimals ?? 2
        let unit = Rational(BigInteger.power(10, decimals))
        shares = Apportion.cents(shares, decimals: decimals).map { Rational($0) / unit }
        payments = Apportion.cents(payments, decimals: decimals).map { Rational($0) / unit }
      }
    }
    // Those of the bill not yet on the trip join it (and are told which shared items they
    // are not in); a trip of named people takes no one else.
    let newcomers = other.people.filter { bill.person(named: $0) == nil }
    if !newcomers.isEmpty {
      guard !bill.namedAtStart else {
        throw Diagnostic(
          "the bill \(word.text) has \(newcomers.joined(separator: ", ")), who \(newcomers.count == 1 ? "is" : "are") "
            + "not on this trip", at: word.span, hint: "add \(newcomers.joined(separator: " ")) first")
      }
      guard bill.people.count + newcomers.count <= BillLine.maxPeople else {
        throw Diagnostic("a trip has at most \(BillLine.maxPeople) people", at: word.span)
      }
      entries.append(.people(newcomers))
    }
    entries.append(
      .include(
        BillEntry.Included(
          label: "bill " + (found.name ?? word.text), people: other.people, shares: shares, paid: payments)))
    return .change(entries, notes: notes)
  }

  /// The unit of a currency by its code, to make an amount in it.
  func currencyUnit(_ code: String, at span: SourceSpan) throws(Diagnostic) -> Unit {
    guard case .quantity(let q)? = try? evaluate(text: "1 " + code, at: span.start), !q.unit.isNone else {
      throw Diagnostic("Reckon does not know the currency \(code)", at: span)
    }
    return q.unit
  }

  /// `eve joins 3 5` (or `eve joins all`: every item typed with all): someone who came later
  /// shares items typed before.
  func joins(_ first: Word, _ rest: [Word], word: Word) throws(Diagnostic) -> BillAction {
    guard let person = bill.person(named: first.text) else { throw unknownPerson(first.text, at: first.span) }
    guard !rest.isEmpty else {
      throw Diagnostic(
        "\(word.lower) needs the items' numbers (show lists them)", at: word.span,
        hint: "\(bill.people[person]) joins 3 5, or \(bill.people[person]) joins all (the items typed with all)")
    }
    var numbers: [Int] = []
    for item in rest {
      if item.lower == "all" || item.lower == "everything" {
        numbers += bill.items.filter { $0.sharedByAll }.map(\.number)
        continue
      }
      numbers.append(try itemNumber(word, [item], usage: "\(bill.people[person]) joins 3", alone: false))
    }
    numbers = numbers.uniqued().filter { n in
      bill.items.first { $0.number == n }!.shares.allSatisfy { $0.person != person }
    }
    guard !numbers.isEmpty else {
      throw Diagnostic("\(bill.people[person]) shares \(rest.count == 1 ? "it" : "them") already", at: rest[0].span)
    }
    return .change([.join(person, numbers)], notes: [])
  }

  static let adjustmentWords: Set<String> = ["tax", "tip", "service", "charge", "discount", "coupon"]

  /// `remove tax`, `remove tax 2%`, `remove coupon`, `remove paid bob`, `remove total`.
  func removeLine(_ first: Word, _ rest: [Word]) throws(Diagnostic) -> BillAction {
    let word = rest[0]
    switch word.lower {
    case "paid", "payment":
      guard rest.count == 2, let person = bill.person(named: rest[1].text) else {
        throw Diagnostic(
          "remove paid needs whose payment", at: rest.count > 1 ? rest[1].span : word.span, hint: "remove paid bob")
      }
      guard bill.payments.contains(where: { $0.person == person }) else {
        throw Diagnostic("\(bill.people[person]) has not been said to pay anything", at: rest[1].span)
      }
      return .change([.unpaid(person)], notes: [])
    case "total":
      guard bill.receiptTotal != nil else { throw Diagnostic("the bill has no receipt's total", at: word.span) }
      return try alone(.change([.removeTotal], notes: []), words: rest)
    case _ where BillLine.adjustmentWords.contains(word.lower):
      let size = rest.count > 1 ? rest.dropFirst().map(\.text).joined(separator: " ") : nil
      let index = try adjustmentIndex(word, size: size, verb: "remove")
      return .change([.removeAdjustment(index, bill.adjustments[index])], notes: [])
    default:
      throw Diagnostic(
        "remove takes an item's number, or a line of the receipt", at: word.span,
        hint: "remove 3, remove tax, remove tip, remove coupon, remove paid bob, remove total")
    }
  }

  /// The place of the tax (tip, …) a line names; asks which when there are several.
  func adjustmentIndex(_ word: Word, size: String?, verb: String) throws(Diagnostic) -> Int {
    let report = BillReport(bill)
    let kind: Bill.Adjustment.Kind =
      switch word.lower {
      case "tax": .tax
      case "tip": .tip
      case "service", "charge": .charge
      default: .discount
      }
    var matches = bill.adjustments.indices.filter { bill.adjustments[$0].kind == kind }
    if word.lower == "coupon" || (word.lower == "discount" && matches.count > 1) {
      let labelled = matches.filter { bill.adjustments[$0].label == word.lower }
      if !labelled.isEmpty { matches = labelled }
    }
    if let size {
      let wanted = size.replacingSpaces()
      matches = matches.filter { i in
        let a = bill.adjustments[i]
        let said = a.percent.map { BillReport.plain($0) + "%" } ?? report.money(a.amount!)
        return said == wanted || said == wanted + ".00" || (a.amount.map { BillReport.plain($0) == wanted } ?? false)
      }
    }
    guard let first = matches.first else {
      throw Diagnostic(
        "the bill has no \(word.lower)\(size.map { " of " + $0 } ?? "")", at: word.span,
        hint: bill.adjustments.isEmpty
          ? "show lists the bill" : "it has: " + bill.adjustments.map(report.describe).joined(separator: ", "))
    }
    guard matches.count == 1 else {
      let sizes = matches.map { i in
        bill.adjustments[i].percent.map { BillReport.plain($0) + "%" } ?? report.money(bill.adjustments[i].amount!)
      }
      throw Diagnostic(
        "the bill has \(matches.count) of those: say which", at: word.span,
        hint: sizes.map { "\(verb) \(word.lower) \($0)" }.joined(separator: ", ")
          + (verb == "edit" ? " (to change one: remove it, then add it as it should be)" : ""))
    }
    return first
  }

  private func alone(_ action: BillAction, words: [Word]) throws(Diagnostic) -> BillAction {
    if words.count > 1 {
      throw Diagnostic("'\(words[0].lower)' takes nothing after it", at: words[1].span.union(words.last!.span))
    }
    return action
  }

  private func alone(_ action: BillAction) throws(Diagnostic) -> BillAction {
    if words.count > 1 {
      throw Diagnostic("'\(words[0].lower)' takes nothing after it", at: words[1].span.union(words.last!.span))
    }
    return action
  }

  // MARK: Items

  /// An item: who had it (names first, or last after the label when none came first), the
  /// amount, what it was. A name inside the label is the label's (`ada 10 gift for bob`).
  func item(_ words: [Word]) throws(Diagnostic) -> ([BillEntry], [String]) {
    var words = words[...]
    var newPeople: [String] = []
    var shares: [(name: String, weight: Rational, span: SourceSpan)] = []
    var everyone = false
    var said: [String] = []
    // Who, at the start. (A word the bill does not know after the first is the amount or the
    // label, not a mistyped name: "ada pasta" lacks its amount.)
    while let word = words.first,
      let who = try person(
        word, allowNew: true, newPeople: &newPeople, first: word.span == self.words.first?.span, notes: &said)
    {
      if who.name == nil { everyone = true } else { shares.append((who.name!, who.weight, word.span)) }
      words.removeFirst()
    }
    let namedFirst = everyone || !shares.isEmpty
    if namedFirst, let verb = words.first, ["pays", "pay", "paid", "owes", "owe"].contains(verb.lower) {
      // "dee pays 5", "bob owes 3": a sentence, not an item.
      let who = shares.first?.name ?? "ada"
      throw Diagnostic(
        "\(verb.text) is not a word of an item: an item is who had it, the amount, then what it was", at: verb.span,
        hint: ["pays", "pay", "paid"].contains(verb.lower)
          ? "to say who paid: paid \(who) \(text(from: verb.span.end).trimmingSpaces)"
          : "settle says who owes whom")
    }
    // "2 x 4.50": a count of the same item.
    var count = Rational.one
    if words.count >= 3, ["x", "×"].contains(words.dropFirst().first!.lower) {
      guard let n = Rational(wholeNumber: words.first!.text), n > 0, n <= 10_000 else {
        throw Diagnostic(
          "the count must be a whole number from 1 to 10,000", at: words.first!.span, hint: "for example: 2 x 4.50 beer"
        )
      }
      count = n
      words.removeFirst(2)
    }
    guard !words.isEmpty else {
      let at = self.words.last?.span ?? SourceSpan(0, 0)
      throw Diagnostic("the item needs an amount", at: at, hint: "for example: ada 18.50 pasta")
    }
    let (amount, notes, currency, used): (Rational, [String], [BillEntry], Int)
    do throws(Diagnostic) {
      (amount, notes, currency, used) = try leadingMoney(Array(words), namedFirst: namedFirst)
    } catch {
      // No digit anywhere: the amount was left out ("ada pasta").
      if !words.contains(where: { $0.text.contains(where: \.isNumber) }) {
        throw Diagnostic(
          "the item needs an amount", at: words.first!.span.union(words.last!.span),
          hint: "who, then the amount, then what: ada 18.50 pasta")
      }
      throw error
    }
    guard !amount.isNegative else {
      throw Diagnostic(
        "an item's amount must not be negative", at: words.first!.span.union(words[words.startIndex + used - 1].span),
        hint: "money off is a discount or a coupon: coupon 5")
    }
    let amountSpan = words.first!.span.union(words[words.startIndex + used - 1].span)
    words.removeFirst(used)
    if namedFirst {
      // The label is all that is left: a person's name in it stays in it, and the echo says so.
      let named = words.filter { bill.person(named: $0.text) != nil || newPeople.contains($0.text) }
      if let first = named.first, !shares.contains(where: { $0.name.lowercased() == first.lower }) {
        let who = (shares.map(\.name) + [first.text]).joined(separator: " ")
        said.append(
          "\(first.text) is part of the label, not charged: to share it with \(first.text), "
            + "put every name first (\(everyone ? "all" : who) \(text(from: amountSpan.start))).")
      }
    } else {
      // Who, at the end (names the bill knows, all, or with weights): "4.50 beer bob and cy".
      var trailing: [(name: String?, weight: Rational, span: SourceSpan)] = []
      while let word = words.last {
        if word.lower == "and", !trailing.isEmpty, words.count >= 2,
          (try? person(words[words.endIndex - 2], allowNew: false, newPeople: &newPeople, notes: &said)) ?? nil != nil
        {
          words.removeLast()
          continue
        }
        guard let who = try person(word, allowNew: false, newPeople: &newPeople, notes: &said) else { break }
        trailing.insert((who.name, who.weight, word.span), at: 0)
        words.removeLast()
      }
      if let first = trailing.first, let before = words.last, BillLine.labelJoiners.contains(before.lower) {
        // "10 gift for bob": bob may have had it, or may be what it was for.
        let name = first.name ?? "all"
        throw Diagnostic(
          "did \(name) have it, or is \(Diagnostic.quoted(before.text + " " + name)) what it was? Say who had it first",
          at: before.span.union(first.span),
          hint: "\(name) \(text(from: amountSpan.start, to: before.span.start))"
            + "(\(name) had it), or \(bill.people.first { $0 != name } ?? "ada") \(text(from: amountSpan.start))"
            + " (for \(name))")
      }
      for who in trailing {
        if who.name == nil { everyone = true } else { shares.append((who.name!, who.weight, who.span)) }
      }
    }
    let label = words.map(\.text).joined(separator: " ")
    guard everyone || !shares.isEmpty else {
      throw Diagnostic(
        "who had it? Put their names first, or all for everyone",
        at: self.words.first!.span.union(self.words.last!.span),
        hint: bill.people.isEmpty
          ? "for example: ada 18.50 pasta, or all 14 starter" : "for example: \(bill.people[0]) \(line)")
    }
    guard !(everyone && !shares.isEmpty) else {
      throw Diagnostic("all already means everyone: leave out the names, or all", at: shares[0].span)
    }
    if label.isEmpty, shares.count >= 2, let last = shares.last, newPeople.contains(last.name) {
      // "dee salmon 19.45": a new name just before the amount, and nothing after it.
      let first = shares[0].name
      throw Diagnostic(
        "is \(last.name) a person, or what \(first) had? An item is the names, then the amount, then what it was",
        at: last.span,
        hint: "\(shares.dropLast().map(\.name).joined(separator: " ")) \(text(from: amountSpan.start)) \(last.name)"
          + " (or, for a person: add \(last.name), then this line again)")
    }
    var people = bill.people
    for name in newPeople where !people.contains(name) { people.append(name) }
    var merged: [Bill.Share] = []
    for share in shares {
      let index = people.firstIndex { $0.lowercased() == share.name.lowercased() }!
      if let i = merged.firstIndex(where: { $0.person == index }) {
        merged[i].weight = merged[i].weight + share.weight
      } else {
        merged.append(Bill.Share(person: index, weight: share.weight))
      }
    }
    if everyone && people.isEmpty {
      throw Diagnostic(
        "there is no one in the bill yet for all to share it", at: self.words.first!.span,
        hint: "name the people first: add ada bob")
    }
    guard bill.nextNumber <= BillLine.maxItems || self.words.first?.lower == "edit" else {
      throw Diagnostic(
        "a bill has at most \(BillLine.maxItems.grouped) items", at: self.words.first!.span,
        hint: "start another bill for the rest")
    }
    let draft = BillEntry.ItemDraft(amount: amount * count, shares: merged, label: label)
    return ((newPeople.isEmpty ? [] : [.people(newPeople)]) + currency + [.item(draft)], notes + said)
  }

  /// Words before a name at the end of a label that make it part of the label
  /// (`gift for bob`): asked about, not guessed.
  static let labelJoiners: Set<String> = [
    "for", "to", "from", "with", "by", "of", "at", "in", "on", "via", "per", "from", "like", "than",
  ]

  /// The line's text from one column (to another, or its end).
  func text(from start: Int, to end: Int? = nil) -> String {
    let scalars = Array(line.unicodeScalars)
    let stop = min(end ?? scalars.count, scalars.count)
    guard start < stop else { return "" }
    var result = String(String.UnicodeScalarView(scalars[start..<stop]))
    while result.last == " " { result.removeLast() }
    return result + (end == nil ? "" : " ")
  }

  /// A word that says who had an item: `all` (name nil), a name (with `:weight`), or nil
  /// when the word is something else (the amount, the label).
  func person(
    _ word: Word, allowNew: Bool, newPeople: inout [String], first: Bool = false, notes: inout [String]
  ) throws(Diagnostic) -> (name: String?, weight: Rational)? {
    if word.lower == "all" || word.lower == "everyone" { return (nil, .one) }
    var name = word.text
    var weight = Rational.one
    if let colon = word.text.firstIndex(of: ":") {
      name = String(word.text[..<colon])
      let text = String(word.text[word.text.index(after: colon)...])
      guard let w = Rational(decimal: text), w > 0, w <= 1000 else {
        throw Diagnostic(
          "a share's weight is a number above 0, up to 1000", at: word.span,
          hint: "ada:2 bob:1 30 pizza: ada has two shares of it, bob one")
      }
      weight = w
    }
    if let index = bill.person(named: name) { return (bill.people[index], weight) }
    if let new = newPeople.first(where: { $0.lowercased() == name.lowercased() }) { return (new, weight) }
    // A currency's name (lev, naira, rand) where a person is expected is a person: the echo
    // says so. A variable, a constant or a currency's code in capitals (EUR 12) is an amount.
    let valued = isValue(name)
    guard allowNew, BillLine.isName(name), !BillLine.keywords.contains(name.lowercased()),
      !valued || (!isVariable(name) && name != name.uppercased())
    else {
      if word.text.firstIndex(of: ":") != nil { throw unknownPerson(name, at: word.span) }
      return nil
    }
    if valued {
      notes.append(
        "\(name) is taken as a person's name here (an amount in \(name) has it after the number: 10 \(name))")
    }
    if bill.namedAtStart {
      guard first || word.text.firstIndex(of: ":") != nil else { return nil }
      throw unknownPerson(name, at: word.span)
    }
    try checkNewName(Word(text: name, span: word.span), adding: newPeople.count)
    newPeople.append(name)
    return (name, weight)
  }

  /// A word that is a name: letters (and `-`, `'`, `_`), starting with a letter.
  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, text.unicodeScalars.count <= 40 else {
      return false
    }
    return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" || $0 == "'" || $0 == "_" }
  }

  /// Whether a word is an amount rather than a name: a variable, `ans`, a constant or a
  /// currency (`pi`, `usd`): something that can be money. A unit of anything else (`pa`, a
  /// pascal; `qg`) is a name.
  func isValue(_ name: String) -> Bool {
    if Environment.answerNames.contains(name) || state.environment.variables[name] != nil { return true }
    if let value = Builtins.constants[name] {
      return (try? MoneyInput.amount(value, at: SourceSpan(0, 0), in: state)) != nil
    }
    // A currency by its code, sign or name (looked up, not evaluated: an unknown word would
    // search for what it might have meant).
    let units = state.evaluator.units
    guard let term = units.term(named: name), term.prefix == 0, term.power == 1 else { return false }
    return units.units[Int(term.unit)].isCurrency
  }

  /// Whether a word is a variable, `ans` or a constant (`pi`): never a person.
  func isVariable(_ name: String) -> Bool {
    name == "ans" || Environment.answerNames.contains(name) || state.environment.variables[name] != nil
      || Builtins.constants[name] != nil
  }

  func checkNewName(_ word: Word, adding: Int = 0) throws(Diagnostic) {
    guard BillLine.isName(word.text) else {
      throw Diagnostic("a person's name is one word of letters: \(Diagnostic.quoted(word.text)) is not", at: word.span)
    }
    guard !BillLine.keywords.contains(word.lower) else {
      throw Diagnostic("\(word.text) is a word of the bill's own: call them something else", at: word.span)
    }
    guard bill.people.count + adding < BillLine.maxPeople else {
      throw Diagnostic("a bill has at most 100 people", at: word.span)
    }
  }

  func unknownPerson(_ name: String, at span: SourceSpan) -> Diagnostic {
    // A mistyped command ("setle", "shwo") rather than a name.
    let commands = [
      "show", "settle", "tax", "tip", "total", "paid", "remove", "edit", "undo", "round", "help", "quit", "add", "save",
      "export", "service", "discount", "coupon",
    ]
    let lower = name.lowercased()
    if let command = commands.first(where: { Suggestions.distance($0, lower, atMost: lower.count >= 4 ? 2 : 1) != nil }
    ),
      !bill.people.contains(where: { Suggestions.distance($0.lowercased(), lower, atMost: 1) != nil })
    {
      return Diagnostic("no command or person called \(name) in a bill", at: span, hint: "did you mean \(command)?")
    }
    let close = bill.people.first { Suggestions.distance($0.lowercased(), name.lowercased(), atMost: 2) != nil }
    return Diagnostic(
      "no one called \(name) in this bill (\(bill.people.joined(separator: ", ")))", at: span,
      hint: close.map { "did you mean \($0)? To add a person: add \(name)" } ?? "to add a person: add \(name)")
  }

  // MARK: Amounts

  /// The amount at the start of `words`: the fewest words that read as an expression (so
  /// `10 in pizza` is 10, not 10 inches), and a currency after them with them, in any case
  /// (`1000+500 JPY`, `10 usd`). Returns the amount in the bill's currency, notes (a
  /// conversion), the currency entry when it sets the bill's, and how many words it took.
  func leadingMoney(_ words: [Word], namedFirst: Bool = true) throws(Diagnostic) -> (
    Rational, [String], [BillEntry], Int
  ) {
    var firstError: Diagnostic?
    let lineEnd = words[0].span.end
    for count in 1...min(words.count, 12) {
      let taken = Array(words.prefix(count))
      do throws(Diagnostic) {
        var value = try evaluate(taken)
        var used = count
        var said: [String] = []
        if count < words.count, value.quantity.map({ $0.unit.isNone }) ?? false {
          let next = words[count]
          if let code = currencyCode(next, namedFirst: namedFirst, notes: &said) {
            // The whole amount is in it: (1000+500) JPY, not 1000 + 500 JPY.
            value = try evaluate(taken, in: code, at: next.span)
            used += 1
          }
        }
        let (amount, notes, currency) = try money(value, at: taken[0].span.union(words[used - 1].span))
        return (amount, notes + said, currency, used)
      } catch {
        if firstError == nil {
          // "12+ dessert": the first word alone ends too soon; say so of the word, not of
          // the line, which goes on.
          firstError =
            error.span.start >= lineEnd && words.count > 1
            ? Diagnostic("the amount \(Diagnostic.quoted(words[0].text)) is not complete", at: words[0].span)
            : error
        }
      }
    }
    if let comma = BillLine.numberWithComma(in: words) { throw comma }
    throw firstError!
  }

  /// Currencies' codes that are also English words: lower case, they are the label's.
  static let codesThatAreWords: Set<String> = [
    "all", "bam", "bob", "cop", "cup", "gel", "mad", "mop", "pen", "sos", "top", "try", "ron", "lei",
  ]

  /// The currency a word after an amount names (`JPY`, `usd`, `€`, `yen`), as the unit's name
  /// to evaluate it with; nil when the word is a person or the label's.
  func currencyCode(_ word: Word, namedFirst: Bool, notes: inout [String]) -> String? {
    let units = state.evaluator.units
    func currency(_ name: String) -> Bool {
      guard let term = units.term(named: name), term.prefix == 0, term.power == 1 else { return false }
      return units.units[Int(term.unit)].isCurrency
    }
    let upper = word.text.uppercased()
    let exact = currency(word.text)
    guard exact || currency(upper) else { return nil }
    if word.text != upper, bill.person(named: word.text) != nil {
      // A person called bob (or lev) is a person where names go.
      if !namedFirst {
        notes.append("\(word.text) is taken as a person (the currency is \(upper), in capitals: 10 \(upper))")
        return nil
      }
    }
    if exact { return word.text }
    if BillLine.codesThatAreWords.contains(word.lower) {
      notes.append("\(Diagnostic.quoted(word.text)) is read as part of the label: for the currency, write \(upper)")
      return nil
    }
    return upper
  }

  /// `16,75` or `1,000`: what a comma in an amount was probably meant to be.
  static func numberWithComma(in words: [Word]) -> Diagnostic? {
    for word in words.prefix(3) {
      let parts = word.text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2, let whole = parts.first, let after = parts.last,
        !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber || $0 == "$" || $0 == "€" || $0 == "£" }),
        !after.isEmpty, after.allSatisfy({ $0.isASCII && $0.isNumber })
      else { continue }
      if after.count == 3 {
        return Diagnostic(
          "a thousands separator: write \(whole)\(after) (a comma is not part of a number)", at: word.span)
      }
      return Diagnostic("a decimal comma: write \(whole).\(after)", at: word.span)
    }
    return nil
  }

  /// The value of words as one expression; an error points into the line.
  func evaluate(_ words: [Word]) throws(Diagnostic) -> Value {
    let start = words[0].span.start
    let text = String(String.UnicodeScalarView(Array(line.unicodeScalars)[start..<words.last!.span.end]))
    return try evaluate(text: text, at: start)
  }

  /// The value of words as one amount in a currency: `(1000+500) JPY`.
  func evaluate(_ words: [Word], in currency: String, at span: SourceSpan) throws(Diagnostic) -> Value {
    let start = words[0].span.start
    let text = String(String.UnicodeScalarView(Array(line.unicodeScalars)[start..<words.last!.span.end]))
    do throws(Diagnostic) {
      return try evaluate(text: "(" + text + ") " + currency, at: start - 1)
    } catch {
      throw Diagnostic(error.message, at: words[0].span.union(span), hint: error.hint)
    }
  }

  func evaluate(text: String, at start: Int) throws(Diagnostic) -> Value {
    do throws(Diagnostic) {
      guard case .expression(let expr, _) = try Parser.parseLine(text, maxExponent: state.digitLimit) else {
        throw Diagnostic(
          "an amount is an expression, such as 18.50 or 3*4.25", at: SourceSpan(0, text.unicodeScalars.count))
      }
      return try state.evaluator.evaluate(expr, in: state.environment)
    } catch {
      var error = error
      error.span = SourceSpan(max(error.span.start + start, 0), max(error.span.end + start, 0))
      error.also = error.also.map { SourceSpan($0.start + start, $0.end + start) }
      throw error
    }
  }

  /// All of `words` as an amount of money.
  func money(_ words: [Word]) throws(Diagnostic) -> (Rational, [String], [BillEntry]) {
    let span = words[0].span.union(words.last!.span)
    var said: [String] = []
    do throws(Diagnostic) {
      if words.count >= 2, let code = currencyCode(words.last!, namedFirst: true, notes: &said) {
        let (amount, notes, currency) = try money(
          try evaluate(Array(words.dropLast()), in: code, at: words.last!.span), at: span)
        return (amount, notes + said, currency)
      }
      return try money(try evaluate(words), at: span)
    } catch {
      if let comma = BillLine.numberWithComma(in: words) { throw comma }
      throw error
    }
  }

  /// A value as money in the bill's currency: a plain number is in it; the first amount with
  /// a currency sets it; one in another currency is converted at the profile's rate.
  func money(_ value: Value, at span: SourceSpan) throws(Diagnostic) -> (Rational, [String], [BillEntry]) {
    var (amount, currency) = try MoneyInput.amount(value, at: span, in: state)
    // Money has a few decimals: an amount like 1e-99999 (exact, and as long as its digits)
    // is rounded to 8 decimals, so that a bill's arithmetic stays small.
    if amount.denominator.bitWidth > 64 { amount = amount.rounded(places: 8) }
    guard let code = currency.code else { return (amount, [], []) }
    guard let billCurrency = bill.currency else {
      guard bill.items.isEmpty && bill.payments.isEmpty && !bill.adjustments.contains(where: { $0.amount != nil }),
        bill.receiptTotal == nil
      else {
        throw Diagnostic(
          "this bill's amounts so far have no currency: give this one as a plain number too", at: span,
          hint: "a bill in \(code) gives its first amount in it: bill, then ada 12 \(code) pasta")
      }
      return (amount, [], [.currency(BillCurrency(code: code, decimals: currency.decimals))])
    }
    guard code != billCurrency.code else { return (amount, [], []) }
    // Another currency: at the profile's rate, exactly.
    guard let target = try? Parser.parseExpression(billCurrency.code),
      case .quantity(let converted, _)? = try? state.evaluator.converted(value, to: target, text: billCurrency.code)
    else {
      throw Diagnostic(
        "this bill is in \(billCurrency.code), and there is no rate from \(code) to \(billCurrency.code)", at: span,
        hint: "set one first: set rate \(code) 1.08 \(billCurrency.code), or give the amount in \(billCurrency.code)")
    }
    guard case .exact(let exact) = converted.number else {
      throw Diagnostic("the rate from \(code) to \(billCurrency.code) is not exact", at: span)
    }
    var note =
      "\(Money.format(amount, decimals: currency.decimals)) \(code) is \(Money.format(exact, decimals: billCurrency.decimals)) \(billCurrency.code) at your rate"
    // A rate more than a week old is said, as the calculator says it.
    let today = state.clock.today().number
    let old = (state.settings.rates.rate(from: code, to: billCurrency.code)?.used ?? []).filter {
      today - $0.day > ExchangeRates.staleDays
    }
    if !old.isEmpty {
      note +=
        " (the rate "
        + old.map { "\($0.from)→\($0.to) is \(today - $0.day) days old" }.joined(separator: ", ")
        + ": set a newer one with set rate or rates load)"
    }
    return (exact, [note], [])
  }

  // MARK: Adjustments and payments

  func adjustment(_ first: Word, _ rest: [Word]) throws(Diagnostic) -> BillAction {
    var words = rest
    var afterTax = false
    var afterDiscount = false
    var roundUp = false
    var perItem: Word?
    while let last = words.last {
      if words.count >= 3, ["per", "each", "by"].contains(words[words.count - 2].lower), last.lower == "item" {
        perItem = words[words.count - 2]
        words.removeLast(2)
      } else if words.count >= 2, words[words.count - 2].lower == "after", ["tax", "taxes"].contains(last.lower) {
        afterTax = true
        words.removeLast(2)
      } else if words.count >= 2, words[words.count - 2].lower == "after",
        ["discount", "discounts"].contains(last.lower)
      {
        afterDiscount = true
        words.removeLast(2)
      } else if words.count >= 2, words[words.count - 2].lower == "before", ["tax", "taxes"].contains(last.lower) {
        words.removeLast(2)
      } else if last.lower == "round", first.lower == "tip" {
        roundUp = true
        words.removeLast()
      } else {
        break
      }
    }
    let kind: Bill.Adjustment.Kind =
      switch first.lower {
      case "tax": .tax
      case "tip": .tip
      case "service", "charge": .charge
      default: .discount
      }
    if afterTax && (kind == .tax || kind == .charge) {
      throw Diagnostic("after tax is for a tip or a discount", at: first.span)
    }
    if afterDiscount && kind != .tip { throw Diagnostic("after discount is for a tip", at: first.span) }
    if let perItem, kind != .tax {
      throw Diagnostic("per item is for a tax: tax 8.875% per item", at: perItem.span.union(words.last!.span))
    }
    guard !words.isEmpty else {
      throw Diagnostic(
        "\(first.lower) needs a percentage or an amount", at: first.span,
        hint:
          "for example: \(first.lower) \(kind == .tax ? "8.875%" : kind == .tip ? "20%" : "10%"), or \(first.lower) 10.53"
      )
    }
    var adjustment = Bill.Adjustment(
      kind: kind, percent: nil, amount: nil, afterTax: afterTax, afterDiscount: afterDiscount, label: first.lower)
    var notes: [String] = []
    var currency: [BillEntry] = []
    // "20 percent", "12.5 pct", "8 per cent": a percentage, as "20%" is.
    var percentWords = 0
    if words.count >= 2, ["percent", "pct", "percentage"].contains(words.last!.lower) {
      percentWords = 1
    } else if words.count >= 3, words.last!.lower == "cent", words[words.count - 2].lower == "per" {
      percentWords = 2
    }
    if percentWords > 0 || words.last!.text.hasSuffix("%") {
      var ws = words
      let last: Word
      if percentWords > 0 {
        let sign = ws.removeLast()
        if percentWords == 2 { ws.removeLast() }
        last = Word(text: sign.text, span: ws.last!.span.union(sign.span))
      } else {
        last = ws.removeLast()
        let number = String(last.text.dropLast())
        if !number.isEmpty { ws.append(Word(text: number, span: SourceSpan(last.span.start, last.span.end - 1))) }
      }
      guard !ws.isEmpty else { throw Diagnostic("a percentage needs its number", at: last.span) }
      let value = try evaluate(ws)
      guard let q = value.quantity, q.unit.isNone, case .exact(let p) = q.number else {
        throw Diagnostic("a percentage is a plain number: 8.875%", at: ws[0].span.union(last.span))
      }
      guard !p.isNegative, p <= 1000 else {
        throw Diagnostic("a percentage must be from 0 to 1000", at: ws[0].span.union(last.span))
      }
      guard p.denominator.bitWidth <= 64 else {
        throw Diagnostic("a percentage has at most a few decimals: 8.875%", at: ws[0].span.union(last.span))
      }
      if kind == .discount && p > 100 {
        throw Diagnostic("a discount of more than 100% would pay the diners", at: ws[0].span.union(last.span))
      }
      adjustment.percent = p
    } else {
      let (amount, n, c) = try money(words)
      guard !amount.isNegative else {
        throw Diagnostic("the amount must not be negative", at: words[0].span.union(words.last!.span))
      }
      if first.lower != "coupon", asksRateOrAmount,
        let (question, asAmount) = rateOrAmount(first, words, amount: amount)
      {
        // Asked: the answer is either line, as if it had been typed so.
        let number = words[0]
        let asRate = replacing(number.span, with: number.text + "%")
        var plain = BillLine(replacing(number.span, with: asAmount), bill: bill, state: state)
        plain.asksRateOrAmount = false
        guard case .change(let rateEntries, let rateNotes) = try BillLine(asRate, bill: bill, state: state).action(),
          case .change(let amountEntries, let amountNotes) = try plain.action()
        else { throw Diagnostic(question, at: number.span) }
        return .ask(
          question,
          [
            BillAction.Choice(
              answers: ["%", "rate", "percent", "r", "p"], line: asRate, entries: rateEntries, notes: rateNotes),
            BillAction.Choice(
              answers: ["amount", "a", "money", "m"], line: plain.line, entries: amountEntries, notes: amountNotes),
          ])
      }
      adjustment.amount = amount
      notes = n
      currency = c
    }
    if perItem != nil {
      guard adjustment.percent != nil else {
        throw Diagnostic("per item needs a percentage: tax 8.875% per item", at: first.span)
      }
      adjustment.perItem = true
    }
    if kind == .discount, first.lower == "coupon" { adjustment.label = "coupon" }
    return .change(currency + [.adjustment(adjustment)] + (roundUp ? [.roundUp(true)] : []), notes: notes)
  }

  /// `tax 8.875`, `tip 20` on a bill of 40: a plain number that may have been meant as a
  /// rate is asked about, not guessed. It is a rate's when it has more decimals than money
  /// has, or when, written without cents, it would be more than 30% of the bill.
  func rateOrAmount(_ first: Word, _ words: [Word], amount: Rational) -> (question: String, amount: String)? {
    guard words.count == 1, let text = words.first?.text, Rational(decimal: text) != nil, amount <= 100 else {
      return nil
    }
    let decimals = bill.currency?.decimals ?? 2
    let written = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
    let split = BillSplit(bill)
    let subtotal = Rational(split.columns.items.reduce(0, +)) / Rational(BigInteger.power(10, decimals))
    let tooMuch = written < decimals && !subtotal.isZero && amount > subtotal * Rational(3) / 10
    guard written > decimals || tooMuch else { return nil }
    let rate = Money.format(subtotal * amount / 100, decimals: decimals)
    let asAmount = Money.format(amount, decimals: decimals)
    return (
      "\(first.lower) \(text): a rate or an amount? Type % for \(text)% (about \(rate) here), or amount for "
        + "\(asAmount)\(written > decimals ? " (money has \(decimals) decimals)" : ""); anything else leaves it",
      asAmount
    )
  }

  /// The line with the text in `span` replaced.
  func replacing(_ span: SourceSpan, with text: String) -> String {
    let scalars = Array(line.unicodeScalars)
    return String(String.UnicodeScalarView(scalars[..<span.start])) + text
      + String(String.UnicodeScalarView(scalars[span.end...]))
  }

  /// `paid ada` (all of it), `paid ada 100 bob 52.97`.
  func paid(_ first: Word, _ rest: [Word]) throws(Diagnostic) -> BillAction {
    guard !rest.isEmpty else {
      throw Diagnostic("paid needs who paid", at: first.span, hint: "for example: paid ada, or paid ada 100 bob 52.97")
    }
    var payments: [Bill.Payment] = []
    var notes: [String] = []
    var currency: [BillEntry] = []
    var i = 0
    while i < rest.count {
      let word = rest[i]
      guard let index = bill.person(named: word.text) else { throw unknownPerson(word.text, at: word.span) }
      if payments.contains(where: { $0.person == index }) {
        throw Diagnostic("\(bill.people[index]) is named twice", at: word.span)
      }
      i += 1
      var amountWords: [Word] = []
      while i < rest.count, bill.person(named: rest[i].text) == nil {
        amountWords.append(rest[i])
        i += 1
      }
      if amountWords.count == 1, ["rest", "all", "everything"].contains(amountWords[0].lower) {
        amountWords = []  // "paid bob rest": what is left now
      }
      if amountWords.isEmpty {
        payments.append(Bill.Payment(person: index, amount: nil))
      } else {
        let (amount, n, c) = try money(amountWords)
        guard !amount.isNegative else { throw Diagnostic("a payment must not be negative", at: amountWords[0].span) }
        payments.append(Bill.Payment(person: index, amount: amount))
        notes += n
        currency += c
      }
    }
    return .change(currency + [.paid(payments)], notes: notes)
  }

  func itemNumber(_ first: Word, _ rest: [Word], usage: String, alone: Bool = true) throws(Diagnostic) -> Int {
    guard let word = rest.first else {
      throw Diagnostic("\(first.lower) needs an item's number (show lists them)", at: first.span, hint: usage)
    }
    if alone, rest.count > 1 { throw Diagnostic("\(first.lower) takes one number", at: rest[1].span) }
    guard let number = Int(word.text),
      bill.item(numbered: number) != nil
    else {
      let numbers = bill.items.map { String($0.number) }
      throw Diagnostic(
        "there is no item \(word.text)", at: word.span,
        hint: numbers.isEmpty ? "the bill has no items yet" : "the items are \(numbers.joined(separator: ", "))")
    }
    return number
  }
}

extension Rational {
  /// A whole number written in digits (`12`), or nil.
  init?(wholeNumber text: String) {
    guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let n = Int(text)
    else { return nil }
    self.init(n)
  }

  /// A plain decimal (`2`, `1.5`, `0.25`) or fraction (`1/3`), or nil.
  init?(decimal text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, text.utf8.count <= 20 else { return nil }
    func decimal(_ s: Substring) -> Rational? {
      let halves = s.split(separator: ".", omittingEmptySubsequences: false)
      guard halves.count <= 2, !s.isEmpty, s.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }),
        let whole = BigInteger(decimal: halves[0].isEmpty ? "0" : halves[0])
      else { return nil }
      guard halves.count == 2, !halves[1].isEmpty else { return halves.count == 1 ? Rational(whole) : nil }
      guard let fraction = BigInteger(decimal: halves[1]) else { return nil }
      let scale = BigInteger.power(10, halves[1].count)
      return Rational(numerator: whole * scale + fraction, denominator: scale)
    }
    guard let n = decimal(parts[0]) else { return nil }
    guard parts.count == 2 else {
      self = n
      return
    }
    guard let d = decimal(parts[1]), !d.isZero else { return nil }
    self = n / d
  }
}

extension String {
  /// The text without spaces (`8.875 %` is `8.875%`).
  func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
