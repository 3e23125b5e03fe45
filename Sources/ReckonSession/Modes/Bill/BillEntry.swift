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
      bill.items.append(
        Bill.Item(number: bill.nextNumber, amount: draft.amount, shares: draft.shares, label: draft.label))
      bill.nextNumber += 1
    case .adjustment(let adjustment):
      // A tip replaces the tip (one tip a bill); taxes, charges and discounts add up.
      if adjustment.kind == .tip { bill.adjustments.removeAll { $0.kind == .tip } }
      bill.adjustments.append(adjustment)
    case .receiptTotal(let total): bill.receiptTotal = total
    case .paid(let payments):
      for payment in payments {
        bill.payments.removeAll { $0.person == payment.person }
        bill.payments.append(payment)
      }
    case .remove(let number): bill.items.removeAll { $0.number == number }
    case .edit(let number, let draft):
      if let index = bill.item(numbered: number) {
        bill.items[index] = Bill.Item(number: number, amount: draft.amount, shares: draft.shares, label: draft.label)
      }
    case .roundUp(let on): bill.roundUp = on
    case .currency(let currency): bill.currency = currency
    }
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
    case .adjustment(let a):
      .object([
        "k": .string("adjust"), "kind": .string(a.kind.rawValue), "p": BillEntry.json(a.percent),
        "a": BillEntry.json(a.amount), "t": .bool(a.afterTax), "d": .bool(a.afterDiscount), "l": .string(a.label),
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
      guard let kind = json["kind"]?.string.flatMap(Bill.Adjustment.Kind.init(rawValue:)),
        let label = json["l"]?.string, case .bool(let afterTax)? = json["t"], case .bool(let afterDiscount)? = json["d"]
      else { return nil }
      let percent = json["p"].flatMap(BillEntry.rational)
      let amount = json["a"].flatMap(BillEntry.rational)
      guard (percent == nil) != (amount == nil) else { return nil }
      self = .adjustment(
        Bill.Adjustment(
          kind: kind, percent: percent, amount: amount, afterTax: afterTax, afterDiscount: afterDiscount, label: label))
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
    default:
      return nil
    }
  }

  /// An exact amount as text, `n/d` (or `n`): nothing lost.
  static func json(_ r: Rational?) -> JSON {
    guard let r else { return .null }
    return .string(r.isInteger ? r.numerator.string() : r.numerator.string() + "/" + r.denominator.string())
  }

  static func rational(_ json: JSON) -> Rational? {
    guard let text = json.string else { return nil }
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
