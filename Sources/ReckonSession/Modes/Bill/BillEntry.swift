import ReckonCore

/// What one line typed in a bill does, with every amount already worked out: the form a
/// line is saved in, so that reopening a bill gives the same bill whatever `ans` and the
/// variables hold then.
enum BillEntry: Sendable, Equatable {
  /// The bill starts, with its people named (`bill ada bob`: then a name it does not know is a
  /// mistake) or none (they come with the items).
  case start([String])
  /// People join the bill (`add eve`, or a new name at the start of an item).
  case people([String])
  /// An item; `currency` is the currency its amount was given in, when it had one.
  case item(ItemDraft)
  case adjustment(Bill.Adjustment)
  case receiptTotal(Rational)
  /// Who paid: each person named replaces what was said of them before; the others stay.
  case paid([Bill.Payment])
  case remove(Int)
  case edit(Int, ItemDraft)
  case roundUp(Bool)
  /// Someone joins items typed before they came (`eve joins 3 5`), with a share of one.
  case join(Int, [Int])
  /// A tax, tip, charge or discount taken off the bill (`remove tax`): its place among the
  /// bill's adjustments, and what it was (to check, and to say).
  case removeAdjustment(Int, Bill.Adjustment)
  /// One changed (`edit tax 9%`): its place, and what it is now.
  case editAdjustment(Int, Bill.Adjustment)
  /// What a person was said to have paid, taken back (`remove paid bob`).
  case unpaid(Int)
  /// The receipt's total, taken back (`remove total`).
  case removeTotal
  /// The bill is a trip's ledger (`trip ski`).
  case trip
  /// An expense: an item someone paid for (`ada paid 120 EUR fuel for all`).
  case expense(payer: Int, ItemDraft)
  /// A saved bill brought into a trip (`include dinner`): each person's share of it and
  /// what each paid, by name, in the trip's currency.
  case include(Included)

  struct Included: Sendable, Equatable {
    var label: String
    var people: [String]
    var shares: [Rational]
    var paid: [Rational]
  }
  /// The bill's currency, set by the first amount given in one.
  case currency(BillCurrency)

  /// An item before it has its number.
  struct ItemDraft: Sendable, Equatable {
    var amount: Rational
    var shares: [Bill.Share]
    var label: String
  }

  /// Whether the entry fits the bill as it stands (a saved line from a damaged or hand-edited
  /// file may name a person or an item the bill does not have).
  func fits(_ bill: Bill) -> Bool {
    let people = bill.people.count
    switch self {
    case .item(let draft): return draft.shares.allSatisfy { $0.person < people }
    case .edit(let number, let draft):
      return bill.item(numbered: number) != nil && draft.shares.allSatisfy { $0.person < people }
    case .paid(let payments): return payments.allSatisfy { $0.person < people }
    case .remove(let number): return bill.item(numbered: number) != nil
    case .join(let person, let numbers): return person < people && numbers.allSatisfy { bill.item(numbered: $0) != nil }
    case .removeAdjustment(let index, let adjustment):
      return bill.adjustments.indices.contains(index) && bill.adjustments[index] == adjustment
    case .editAdjustment(let index, let adjustment):
      return bill.adjustments.indices.contains(index) && bill.adjustments[index].kind == adjustment.kind
    case .unpaid(let person): return person < people
    case .expense(let payer, let draft): return payer < people && draft.shares.allSatisfy { $0.person < people }
    case .include(let included):
      return included.shares.count == included.people.count && included.paid.count == included.people.count
    case .start: return bill.people.isEmpty && bill.items.isEmpty
    default: return true
    }
  }

  /// The bill with this entry applied.
  func apply(to bill: inout Bill) {
    switch self {
    case .start(let names):
      bill.people = names
      bill.namedAtStart = !names.isEmpty
    case .people(let names):
      for name in names where bill.person(named: name) == nil { bill.people.append(name) }
    case .item(let draft):
      bill.items.append(BillEntry.item(draft, numbered: bill.nextNumber, in: bill))
      bill.nextNumber += 1
    case .adjustment(let adjustment):
      // A tip replaces the tip (one tip a bill); taxes, charges and discounts add up.
      if adjustment.kind == .tip { bill.adjustments.removeAll { $0.kind == .tip } }
      bill.adjustments.append(adjustment)
    case .receiptTotal(let total): bill.receiptTotal = total
    case .paid(let payments):
      // What is paid is fixed when it is said: "the rest" (no amount) is the rest now, and a
      // change to the bill later leaves it alone (settle then says who owes whom).
      let named = Set(payments.map(\.person))
      // (What was paid for items, expenses in a trip, counts as paid too.)
      let others =
        bill.payments.filter { !named.contains($0.person) }.reduce(Rational.zero) { $0 + ($1.amount ?? .zero) }
        + bill.items.reduce(Rational.zero) { sum, item in
          sum + item.paidBy.reduce(Rational.zero) { $0 + ($1.amount ?? .zero) }
        }
      let given = payments.reduce(Rational.zero) { $0 + ($1.amount ?? .zero) }
      let open = payments.filter { $0.amount == nil }.map(\.person)
      var rest: [Rational] = []
      if !open.isEmpty {
        let split = BillSplit(bill)
        let scale = Rational(BigInteger.power(10, split.decimals))
        let left = Rational(split.totalCents) / scale - others - given
        let cents = max(((left * scale).rounded(places: 0)).intValue ?? 0, 0)
        rest = open.indices.map { i in
          Rational(cents / open.count + (i < cents % open.count ? 1 : 0)) / scale
        }
      }
      for payment in payments {
        var payment = payment
        if payment.amount == nil, let i = open.firstIndex(of: payment.person) {
          payment.amount = rest[i]
          payment.wasRest = true
        }
        bill.payments.removeAll { $0.person == payment.person }
        bill.payments.append(payment)
      }
    case .removeAdjustment(let index, _): bill.adjustments.remove(at: index)
    case .editAdjustment(let index, let adjustment): bill.adjustments[index] = adjustment
    case .unpaid(let person): bill.payments.removeAll { $0.person == person }
    case .removeTotal: bill.receiptTotal = nil
    case .trip: bill.isTrip = true
    case .expense(let payer, let draft):
      var item = BillEntry.item(draft, numbered: bill.nextNumber, in: bill)
      item.paidBy = [Bill.Payment(person: payer, amount: draft.amount)]
      bill.items.append(item)
      bill.nextNumber += 1
    case .include(let included):
      for name in included.people where bill.person(named: name) == nil { bill.people.append(name) }
      let people = included.people.map { bill.person(named: $0)! }
      let shares = zip(people, included.shares).filter { !$0.1.isZero }.map { Bill.Share(person: $0, weight: $1) }
      let total = included.shares.reduce(Rational.zero, +)
      var item = Bill.Item(number: bill.nextNumber, amount: total, shares: shares, label: included.label)
      item.paidBy = zip(people, included.paid).filter { !$0.1.isZero }.map { Bill.Payment(person: $0, amount: $1) }
      // (A bill of nothing to share still brings in what was paid: shared by no one, it
      // is everyone's, so it is given to those who paid.)
      if item.shares.isEmpty { item.shares = item.paidBy.map { Bill.Share(person: $0.person, weight: .one) } }
      bill.items.append(item)
      bill.nextNumber += 1
    case .remove(let number):
      bill.items.removeAll { $0.number == number }
      bill.itemEdits += 1
    case .edit(let number, let draft):
      bill.itemEdits += 1
      if let index = bill.item(numbered: number) {
        bill.items[index] = BillEntry.item(draft, numbered: number, in: bill)
      }
    case .roundUp(let on): bill.roundUp = on
    case .currency(let currency): bill.currency = currency
    case .join(let person, let numbers):
      bill.itemEdits += 1
      for number in numbers {
        guard let index = bill.item(numbered: number),
          !bill.items[index].shares.contains(where: { $0.person == person })
        else { continue }
        bill.items[index].shares.append(Bill.Share(person: person, weight: .one))
      }
    }
  }

  /// An item as the bill keeps it: `all` (no shares) is everyone in the bill now, so that
  /// someone who joins later is not charged for it.
  static func item(_ draft: ItemDraft, numbered number: Int, in bill: Bill) -> Bill.Item {
    guard draft.shares.isEmpty else {
      return Bill.Item(number: number, amount: draft.amount, shares: draft.shares, label: draft.label)
    }
    return Bill.Item(
      number: number, amount: draft.amount, shares: bill.people.indices.map { Bill.Share(person: $0, weight: .one) },
      label: draft.label, sharedByAll: true)
  }

  // MARK: Saved form

  /// The entries of one line as the store keeps them (JSON).
  static func encoded(_ entries: [BillEntry]) -> String {
    JSON.array(entries.map { ($0.json, 0) }).text
  }

  /// The entries of a saved line; nil when it cannot be read (a damaged row).
  static func decoded(_ text: String) -> [BillEntry]? {
    guard case .success(let json) = JSON.parse(text), case .array(let values) = json else { return nil }
    var entries: [BillEntry] = []
    for (value, _) in values {
      guard let entry = BillEntry(json: value) else { return nil }
      entries.append(entry)
    }
    return entries
  }

  var json: JSON {
    switch self {
    case .start(let names): .object(["k": .string("start"), "n": .array(names.map { (.string($0), 0) })])
    case .people(let names): .object(["k": .string("people"), "n": .array(names.map { (.string($0), 0) })])
    case .item(let draft): .object(["k": .string("item"), "i": draft.json])
    case .adjustment(let a): BillEntry.json(a, kind: "adjust")
    case .removeAdjustment(let index, let a):
      BillEntry.json(a, kind: "unadjust", extra: ("i", .number(Double(index))))
    case .editAdjustment(let index, let a):
      BillEntry.json(a, kind: "readjust", extra: ("i", .number(Double(index))))
    case .unpaid(let person): .object(["k": .string("unpaid"), "p": .number(Double(person))])
    case .removeTotal: .object(["k": .string("untotal")])
    case .trip: .object(["k": .string("trip")])
    case .expense(let payer, let draft):
      .object(["k": .string("expense"), "p": .number(Double(payer)), "i": draft.json])
    case .include(let b):
      .object([
        "k": .string("include"), "l": .string(b.label), "n": .array(b.people.map { (.string($0), 0) }),
        "s": .array(b.shares.map { (BillEntry.json($0), 0) }), "p": .array(b.paid.map { (BillEntry.json($0), 0) }),
      ])
    case .receiptTotal(let total): .object(["k": .string("total"), "a": BillEntry.json(total)])
    case .paid(let payments):
      .object([
        "k": .string("paid"),
        "p": .array(payments.map { (.array([(.number(Double($0.person)), 0), (BillEntry.json($0.amount), 0)]), 0) }),
      ])
    case .remove(let number): .object(["k": .string("remove"), "n": .number(Double(number))])
    case .edit(let number, let draft): .object(["k": .string("edit"), "n": .number(Double(number)), "i": draft.json])
    case .roundUp(let on): .object(["k": .string("round"), "on": .bool(on)])
    case .currency(let c): .object(["k": .string("currency"), "c": .string(c.code), "d": .number(Double(c.decimals))])
    case .join(let person, let numbers):
      .object([
        "k": .string("join"), "p": .number(Double(person)), "n": .array(numbers.map { (.number(Double($0)), 0) }),
      ])
    }
  }

  init?(json: JSON) {
    switch json["k"]?.string {
    case "start", "people":
      guard case .array(let names)? = json["n"] else { return nil }
      let strings = names.compactMap { $0.value.string }
      guard strings.count == names.count, strings.count <= 100 else { return nil }
      self = json["k"]?.string == "start" ? .start(strings) : .people(strings)
    case "item":
      guard let draft = json["i"].flatMap(ItemDraft.init(json:)) else { return nil }
      self = .item(draft)
    case "adjust":
      guard let adjustment = BillEntry.adjustment(json) else { return nil }
      self = .adjustment(adjustment)
    case "unadjust", "readjust":
      guard let adjustment = BillEntry.adjustment(json), let index = json["i"]?.integer, index >= 0 else { return nil }
      self = json["k"]?.string == "unadjust" ? .removeAdjustment(index, adjustment) : .editAdjustment(index, adjustment)
    case "unpaid":
      guard let person = json["p"]?.integer, person >= 0 else { return nil }
      self = .unpaid(person)
    case "untotal": self = .removeTotal
    case "trip": self = .trip
    case "expense":
      guard let payer = json["p"]?.integer, payer >= 0, let draft = json["i"].flatMap(ItemDraft.init(json:)) else {
        return nil
      }
      self = .expense(payer: payer, draft)
    case "include":
      guard let label = json["l"]?.string, case .array(let names)? = json["n"], case .array(let shares)? = json["s"],
        case .array(let paid)? = json["p"], names.count <= 100, shares.count == names.count, paid.count == names.count
      else { return nil }
      let people = names.compactMap { $0.value.string }
      let s = shares.compactMap { BillEntry.rational($0.value) }
      let p = paid.compactMap { BillEntry.rational($0.value) }
      guard people.count == names.count, s.count == names.count, p.count == names.count,
        people.allSatisfy(BillLine.isName), s.allSatisfy({ !$0.isNegative }), p.allSatisfy({ !$0.isNegative })
      else { return nil }
      self = .include(Included(label: label, people: people, shares: s, paid: p))
    case "total":
      guard let total = json["a"].flatMap(BillEntry.rational) else { return nil }
      self = .receiptTotal(total)
    case "paid":
      guard case .array(let list)? = json["p"] else { return nil }
      var payments: [Bill.Payment] = []
      for (pair, _) in list {
        guard case .array(let parts) = pair, parts.count == 2, let person = parts[0].value.integer, person >= 0
        else { return nil }
        payments.append(Bill.Payment(person: person, amount: BillEntry.rational(parts[1].value)))
      }
      self = .paid(payments)
    case "remove":
      guard let number = json["n"]?.integer else { return nil }
      self = .remove(number)
    case "edit":
      guard let number = json["n"]?.integer, let draft = json["i"].flatMap(ItemDraft.init(json:)) else { return nil }
      self = .edit(number, draft)
    case "round":
      guard case .bool(let on)? = json["on"] else { return nil }
      self = .roundUp(on)
    case "currency":
      guard let code = json["c"]?.string, let decimals = json["d"]?.integer, (0...4).contains(decimals) else {
        return nil
      }
      self = .currency(BillCurrency(code: code, decimals: decimals))
    case "join":
      guard let person = json["p"]?.integer, person >= 0, case .array(let list)? = json["n"], list.count <= 1000
      else { return nil }
      let numbers = list.compactMap { $0.value.integer }
      guard numbers.count == list.count else { return nil }
      self = .join(person, numbers)
    default:
      return nil
    }
  }

  static func json(_ a: Bill.Adjustment, kind: String, extra: (String, JSON)? = nil) -> JSON {
    var fields: [(key: String, value: JSON, line: Int)] = [
      ("k", .string(kind), 0), ("kind", .string(a.kind.rawValue), 0), ("p", BillEntry.json(a.percent), 0),
      ("a", BillEntry.json(a.amount), 0), ("t", .bool(a.afterTax), 0), ("d", .bool(a.afterDiscount), 0),
      ("l", .string(a.label), 0), ("e", .bool(a.perItem), 0),
    ]
    if let extra { fields.append((extra.0, extra.1, 0)) }
    return .object(fields)
  }

  static func adjustment(_ json: JSON) -> Bill.Adjustment? {
    guard let kind = json["kind"]?.string.flatMap(Bill.Adjustment.Kind.init(rawValue:)),
      let label = json["l"]?.string, case .bool(let afterTax)? = json["t"], case .bool(let afterDiscount)? = json["d"]
    else { return nil }
    let percent = json["p"].flatMap(BillEntry.rational)
    let amount = json["a"].flatMap(BillEntry.rational)
    guard (percent == nil) != (amount == nil) else { return nil }
    var adjustment = Bill.Adjustment(
      kind: kind, percent: percent, amount: amount, afterTax: afterTax, afterDiscount: afterDiscount, label: label)
    // (Saved before issue 39: no "e", a tax on the subtotal.)
    if case .bool(true)? = json["e"], kind == .tax, percent != nil { adjustment.perItem = true }
    return adjustment
  }

  /// An exact amount as text, `n/d` (or `n`): nothing lost.
  static func json(_ r: Rational?) -> JSON {
    guard let r else { return .null }
    return .string(r.isInteger ? r.numerator.string() : r.numerator.string() + "/" + r.denominator.string())
  }

  static func rational(_ json: JSON) -> Rational? {
    guard var text = json.string else { return nil }
    // (A negative amount is written with its sign: read it back with it.)
    if text.hasPrefix("-") {
      text.removeFirst()
      guard !text.hasPrefix("-"), let magnitude = rational(.string(text)) else { return nil }
      return .zero - magnitude
    }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let n = BigInteger(decimal: parts[0]), n.bitWidth < 4096 else { return nil }
    guard parts.count == 2 else { return Rational(n) }
    guard let d = BigInteger(decimal: parts[1]), !d.isZero, !d.isNegative, d.bitWidth < 4096 else { return nil }
    return Rational(numerator: n, denominator: d)
  }
}

extension BillEntry.ItemDraft {
  var json: JSON {
    .object([
      "a": BillEntry.json(amount), "l": .string(label),
      "w": .array(shares.map { (.array([(.number(Double($0.person)), 0), (BillEntry.json($0.weight), 0)]), 0) }),
    ])
  }

  init?(json: JSON) {
    guard let amount = json["a"].flatMap(BillEntry.rational), let label = json["l"]?.string,
      case .array(let list)? = json["w"]
    else { return nil }
    var shares: [Bill.Share] = []
    for (pair, _) in list {
      guard case .array(let parts) = pair, parts.count == 2, let person = parts[0].value.integer, person >= 0,
        let weight = BillEntry.rational(parts[1].value), !weight.isNegative, !weight.isZero
      else { return nil }
      shares.append(Bill.Share(person: person, weight: weight))
    }
    self.init(amount: amount, shares: shares, label: label)
  }
}
