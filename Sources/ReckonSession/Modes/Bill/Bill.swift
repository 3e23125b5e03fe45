import ReckonCore

/// A bill as its lines have built it: the people, the items, what the receipt adds or takes
/// off, and who paid. Every amount is exact; nothing is rounded until the split
/// (`BillSplit`), once, at the end.
struct Bill: Sendable, Equatable {
  /// In the order they came into the bill: the order of every table, and the tie-break of
  /// the rounding rule.
  var people: [String] = []
  /// Whether the people were named when the bill started (`bill ada bob`): then a name the
  /// bill does not know is a mistake, not a new person.
  var namedAtStart = false
  /// The items, by their number (a removed item's number is not given again).
  var items: [Item] = []
  var adjustments: [Adjustment] = []
  /// The total printed on the receipt (`total 152.97`), to check against.
  var receiptTotal: Rational?
  /// Who paid what (`paid ada`, `paid ada 100 bob 52.97`); nil amount: all of it.
  var payments: [Payment] = []
  /// Whether each share is rounded up to a whole unit, the tip taking the difference.
  var roundUp = false
  /// The bill's currency: the first amount given with one sets it (nil: plain numbers).
  var currency: BillCurrency?
  /// The number the next item gets.
  var nextNumber = 1
  /// How many times an item already in the bill was changed (removed, edited, joined): a
  /// split kept from before is good while this is the same (`BillSplit.ItemsPart`).
  var itemEdits = 0
  /// A trip (`trip ski`): a ledger of expenses, each paid by someone (and of bills brought
  /// in), over days and currencies, settled once for all of it.
  var isTrip = false

  struct Item: Sendable, Equatable {
    var number: Int
    var amount: Rational
    /// Who had it, by person index, with weights (`ada:2 bob:1`); empty: everyone.
    var shares: [Share]
    var label: String
    /// Typed with `all`: shared by everyone in the bill then (not by those who join later,
    /// unless they join it: `eve joins 3`).
    var sharedByAll = false
    /// Who paid for it, and how much (`ada paid 120 fuel for all`; a bill brought into a
    /// trip, its payers): counted with the payments when the bill is settled.
    var paidBy: [Payment] = []
  }

  struct Share: Sendable, Equatable {
    var person: Int
    var weight: Rational
  }

  /// A line of the receipt that is not an item.
  struct Adjustment: Sendable, Equatable {
    enum Kind: String, Sendable, Hashable {
      case tax, tip, charge, discount
    }
    var kind: Kind
    /// A percentage (`tax 8.875%`: 8.875), or nil for an amount.
    var percent: Rational?
    /// An amount (`tax 10.53`), shared in proportion to what each had.
    var amount: Rational?
    /// A discount applied to the taxed amount (`discount 10% after tax`); a tip on the taxed
    /// total (`tip 20% after tax`).
    var afterTax = false
    /// A tip on the amount after discounts (`tip 20% after discount`); by default a tip is
    /// on the amount before them.
    var afterDiscount = false
    /// What the receipt calls it (`service`, `coupon`, `tax`).
    var label: String
    /// A tax rounded on each item's amount and added up (`tax 8.875% per item`), as some
    /// receipts print it, rather than once on the subtotal.
    var perItem = false
  }

  struct Payment: Sendable, Equatable {
    var person: Int
    /// What was paid; nil only in an entry, before it is applied ("the rest").
    var amount: Rational?
    /// Said as "the rest" (`paid bob rest`, `paid ada 100 bob`): the rest when it was said.
    var wasRest = false
  }

  /// The index of a person by name, ignoring case.
  func person(named name: String) -> Int? {
    let lower = name.lowercased()
    return people.firstIndex { $0.lowercased() == lower }
  }

  func item(numbered number: Int) -> Int? { items.firstIndex { $0.number == number } }
}

/// A currency as the bill keeps it: its code and how many decimals its minor unit has.
struct BillCurrency: Sendable, Equatable {
  var code: String
  var decimals: Int
}
