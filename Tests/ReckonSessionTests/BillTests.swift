import Foundation
import ReckonCore
import ReckonStore
import Testing

@testable import ReckonSession

/// The bill: its arithmetic over thousands of generated bills, its settlement against a
/// brute-force search, and the mode as a user drives it, saved as it goes.
@Suite struct BillTests {
  // MARK: Generated bills

  /// A bill of random people, items (shared, weighted), taxes, tips, charges and discounts.
  static func randomBill(_ random: inout SeededRandom) -> Bill {
    var bill = Bill()
    let people = Int.random(in: 1...20, using: &random)
    bill.people = (0..<people).map { "p\($0)" }
    for number in 1...Int.random(in: 1...60, using: &random) {
      let cents = Int.random(in: 1...20_000, using: &random)
      var shares: [Bill.Share] = []
      if Int.random(in: 0..<4, using: &random) != 0 {
        for person in (0..<people).shuffled(using: &random).prefix(Int.random(in: 1...min(people, 5), using: &random)) {
          shares.append(Bill.Share(person: person, weight: Rational(Int.random(in: 1...3, using: &random))))
        }
      }
      bill.items.append(
        Bill.Item(number: number, amount: Rational(Int64(cents), 100), shares: shares, label: "i\(number)"))
    }
    let percent = { (random: inout SeededRandom, most: Int) in
      Rational(Int64(Int.random(in: 0...most * 1000, using: &random)), 1000)
    }
    if Bool.random(using: &random) {
      var tax = Bill.Adjustment(kind: .tax, percent: percent(&random, 25), amount: nil, label: "tax")
      tax.perItem = Int.random(in: 0..<4, using: &random) == 0
      bill.adjustments.append(tax)
    } else if Bool.random(using: &random) {
      bill.adjustments.append(
        Bill.Adjustment(
          kind: .tax, percent: nil, amount: Rational(Int64(Int.random(in: 0...5000, using: &random)), 100), label: "tax"
        ))
    }
    if Bool.random(using: &random) {
      bill.adjustments.append(
        Bill.Adjustment(
          kind: .tip, percent: percent(&random, 30), amount: nil, afterTax: Bool.random(using: &random),
          afterDiscount: Bool.random(using: &random), label: "tip"))
    }
    if Int.random(in: 0..<3, using: &random) == 0 {
      bill.adjustments.append(
        Bill.Adjustment(kind: .charge, percent: percent(&random, 15), amount: nil, label: "service"))
    }
    if Int.random(in: 0..<3, using: &random) == 0 {
      bill.adjustments.append(
        Bill.Adjustment(
          kind: .discount, percent: percent(&random, 50), amount: nil, afterTax: Bool.random(using: &random),
          label: "discount"))
    }
    if Int.random(in: 0..<4, using: &random) == 0 {
      bill.adjustments.append(
        Bill.Adjustment(
          kind: .discount, percent: nil, amount: Rational(Int64(Int.random(in: 0...500, using: &random)), 100),
          label: "coupon"))
    }
    bill.roundUp = Int.random(in: 0..<10, using: &random) == 0
    // A currency of whole units (JPY) or of three decimals (KWD) now and then.
    switch Int.random(in: 0..<8, using: &random) {
    case 0: bill.currency = BillCurrency(code: "JPY", decimals: 0)
    case 1: bill.currency = BillCurrency(code: "KWD", decimals: 3)
    default: break
    }
    return bill
  }

  /// Over 3,000 generated bills: every line of the receipt is a whole number of cents and
  /// each column adds up to its lines, each person's row adds up to their share, the shares
  /// to the total, and that total is the receipt's (the items and lines added up); each cell
  /// is within a cent of the person's exact part of its lines; with `round` each share is a
  /// whole unit.
  @Test func everyRowAndColumnAddsUpToTheReceiptsLines() throws {
    var random = SeededRandom(seed: 2026)
    for _ in 0..<3000 {
      let bill = Self.randomBill(&random)
      let split = BillSplit(bill)
      let scale = Int(BigInteger.power(10, split.decimals).string())!
      let c = split.columns
      let items = bill.items.reduce(0) { $0 + ((($1.amount * Rational(scale)).rounded(places: 0)).intValue ?? 0) }
      #expect(c.items.reduce(0, +) == items)
      func sum(_ kind: Bill.Adjustment.Kind) -> Int {
        split.lines.filter { $0.adjustment.kind == kind }.reduce(0) { $0 + $1.cents }
      }
      #expect(c.discounts.reduce(0, +) == sum(.discount))
      #expect(c.charges.reduce(0, +) == sum(.charge))
      #expect(c.tax.reduce(0, +) == sum(.tax))
      let roundedUp = bill.roundUp ? c.tip.reduce(0, +) - sum(.tip) : 0
      #expect(c.tip.reduce(0, +) == sum(.tip) + roundedUp)
      #expect(split.totalCents == items - sum(.discount) + sum(.charge) + sum(.tax) + sum(.tip) + roundedUp)
      for p in split.cents.indices {
        #expect(split.cents[p] == c.items[p] - c.discounts[p] + c.charges[p] + c.tax[p] + c.tip[p])
        // Each item's cell and each line's cell is within a cent of the exact part of it.
        let part = split.parts[p]
        let shared = bill.items.filter { $0.shares.isEmpty || $0.shares.contains { $0.person == p } }.count
        func lines(_ kind: Bill.Adjustment.Kind) -> Int { split.lines.filter { $0.adjustment.kind == kind }.count }
        for (cell, exact, count) in [
          (c.items[p], part.items, shared), (c.discounts[p], part.discounts, lines(.discount)),
          (c.tax[p], part.tax, lines(.tax)),
        ] {
          #expect((Rational(cell) - exact * Rational(scale)).magnitude < Rational(max(count, 1)))
        }
        if bill.roundUp { #expect(split.cents[p] % scale == 0) }
      }
    }
  }

  /// The same generated bills against an oracle written apart from Reckon in Python's
  /// `fractions` (scripts/bill-oracle.py): every line of the receipt, and every cell of the
  /// split, the same.
  @Test func theSplitMatchesAPythonFractionsOracle() throws {
    guard let python = Executables.find("python3") else {
      Issue.record("python3 was not found on the PATH: install python3 to run the bill oracle")
      return
    }
    var random = SeededRandom(seed: 39)
    var bills: [Bill] = []
    for _ in 0..<2000 { bills.append(Self.randomBill(&random)) }
    let input = bills.map { Self.oracleJSON($0) }.joined(separator: "\n") + "\n"
    let output = try DifferentialSupport.runScript("bill-oracle.py", [], input: input, python: python)
    let answers = output.split(separator: "\n")
    try #require(answers.count == bills.count)
    var mismatches = 0
    for (bill, answer) in zip(bills, answers) {
      let split = BillSplit(bill)
      let c = split.columns
      let mine =
        "{\"lines\":\(Self.list(split.lines.map(\.cents))),\"total\":\(Self.list(split.cents)),"
        + "\"items\":\(Self.list(c.items)),\"discounts\":\(Self.list(c.discounts)),"
        + "\"charges\":\(Self.list(c.charges)),\"tax\":\(Self.list(c.tax)),\"tip\":\(Self.list(c.tip))}"
      if mine != String(answer) {
        mismatches += 1
        if mismatches <= 3 { Issue.record("bill \(Self.oracleJSON(bill))\nReckon: \(mine)\nPython: \(answer)") }
      }
    }
    #expect(mismatches == 0)
  }

  static func list(_ values: [Int]) -> String { "[" + values.map(String.init).joined(separator: ",") + "]" }

  static func oracleJSON(_ bill: Bill) -> String {
    func r(_ value: Rational?) -> String {
      guard let value else { return "null" }
      return "\"\(value.numerator.string())/\(value.denominator.string())\""
    }
    let items = bill.items.map { item in
      "{\"amount\":\(r(item.amount)),\"shares\":["
        + item.shares.map { "[\($0.person),\(r($0.weight))]" }.joined(separator: ",") + "]}"
    }
    let adjustments = bill.adjustments.map { a in
      "{\"kind\":\"\(a.kind.rawValue)\",\"percent\":\(r(a.percent)),\"amount\":\(r(a.amount)),"
        + "\"afterTax\":\(a.afterTax),\"afterDiscount\":\(a.afterDiscount),\"perItem\":\(a.perItem)}"
    }
    return "{\"people\":\(bill.people.count),\"decimals\":\(bill.currency?.decimals ?? 2),\"round\":\(bill.roundUp),"
      + "\"items\":[\(items.joined(separator: ","))],\"adjustments\":[\(adjustments.joined(separator: ","))]}"
  }

  /// The tie-break is fixed: equal remainders go to the larger share, then the person named
  /// first; never the last person absorbing what is left.
  @Test func tiesGoToTheLargerShareThenTheFirstNamed() {
    // 10.00 among three: 3.333… each; one cent over, to the first.
    #expect(Apportion.cents(Array(repeating: Rational(10, 3), count: 3)) == [334, 333, 333])
    // 0.05 among two by halves: 2.5 cents each, rounded total 5: the first.
    #expect(Apportion.cents([Rational(25, 1000), Rational(25, 1000)]) == [3, 2])
    // Larger share first at equal remainders.
    #expect(Apportion.cents([Rational(105, 1000), Rational(205, 1000)]) == [10, 21])
  }

  // MARK: Settlement

  /// The fewest transfers by brute force: the most groups a set partition can have whose
  /// balances each add up to zero, over every set partition.
  static func bruteForceFewest(_ balances: [Int]) -> Int {
    let people = balances.filter { $0 != 0 }
    guard !people.isEmpty else { return 0 }
    var most = 0
    // Every set partition, as a list of block sums, built person by person.
    func place(_ i: Int, _ blocks: inout [Int]) {
      if i == people.count {
        if blocks.allSatisfy({ $0 == 0 }) { most = max(most, blocks.count) }
        return
      }
      for b in blocks.indices {
        blocks[b] += people[i]
        place(i + 1, &blocks)
        blocks[b] -= people[i]
      }
      blocks.append(people[i])
      place(i + 1, &blocks)
      blocks.removeLast()
    }
    var blocks: [Int] = []
    place(0, &blocks)
    return people.count - most
  }

  @Test func settlingNetsEveryBalanceWithTheFewestTransfers() {
    var random = SeededRandom(seed: 465)
    for round in 0..<1500 {
      let people = Int.random(in: 1...(round < 1200 ? 9 : 20), using: &random)
      // Balances that often cancel in groups (the case a heuristic misses).
      var balances = (0..<people).map { _ in
        Int.random(in: -3...3, using: &random) * [1, 100, 2500][Int.random(in: 0..<3, using: &random)]
      }
      balances[people - 1] -= balances.reduce(0, +)
      let transfers = Settlement.transfers(balances: balances)
      var left = balances
      for t in transfers {
        #expect(t.cents > 0 && t.from != t.to)
        left[t.from] += t.cents
        left[t.to] -= t.cents
      }
      #expect(left.allSatisfy { $0 == 0 }, "\(balances) → \(transfers)")
      let involved = balances.filter { $0 != 0 }.count
      #expect(transfers.count <= max(involved - 1, 0))
      if involved <= 9 {
        #expect(transfers.count == Self.bruteForceFewest(balances), "\(balances)")
      }
    }
  }

  /// Ten to twelve balances, built of groups that cancel (what a largest-first pairing
  /// misses): the exact search finds as few transfers as every set partition does.
  @Test(arguments: [10, 11, 12])
  func theFewestForUpToTwelveBalances(_ people: Int) {
    var random = SeededRandom(seed: UInt64(people))
    for _ in 0..<2 {
      var balances: [Int] = []
      while balances.count < people {
        // A group of 2 to 4 that adds up to zero.
        let size = min(Int.random(in: 2...4, using: &random), people - balances.count)
        var group = (1..<max(size, 1)).map { _ in Int.random(in: -900...900, using: &random) * 7 + 1 }
        group.append(-group.reduce(0, +))
        balances += group.count == 1 ? [0] : group
      }
      balances.shuffle(using: &random)
      let transfers = Settlement.transfers(balances: balances)
      #expect(transfers.count == Self.bruteForceFewest(balances), "\(balances)")
    }
  }

  @Test func twoPairsAreTwoTransfersNotThree() {
    // Greedy largest-first would take three: 10 → 8, 2 → 8… the groups {+10,−10} {+5,−5} take two.
    let transfers = Settlement.transfers(balances: [1000, -500, 500, -1000])
    #expect(transfers.count == 2)
  }

  // MARK: The mode

  static func lines(_ session: inout Session, _ lines: [String]) -> [Reply] { lines.map { session.handle($0) } }

  static func text(_ reply: Reply) -> [String] {
    reply.outputs.compactMap { output in
      switch output {
      case .note(let t), .result(let t), .warning(let t), .heading(let t): t
      case .table(let rows): rows.map { $0.joined(separator: " ") }.joined(separator: "\n")
      case .error(let d, _): "error: " + d.message
      default: nil
      }
    }
  }

  /// The restaurant bill of the issue: four people, a shared starter and wine, 8.875% tax on
  /// the food and a 20% tip on the pre-tax amount. The receipt says 152.97; each person's
  /// share rounded on its own would come to 152.98.
  static let restaurant = [
    "bill ada bob cy dee", "ada 18.50 pasta", "bob 22 steak", "cy 16.75 risotto", "dee 19.45 salmon",
    "all 14 starter", "bob cy 28 wine", "tax 8.875%", "tip 20%",
  ]

  @Test func theRestaurantBillComesToTheReceiptsTotal() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, Self.restaurant)
    let bill = try #require(session.mode as? BillMode).bill
    let split = BillSplit(bill)
    #expect(split.totalCents == 15297)
    #expect(split.cents.reduce(0, +) == 15297)
    // The receipt's lines: the subtotal 118.70, tax 8.875% of it 10.534625 → 10.53, tip 20%
    // of it 23.74; 118.70 + 10.53 + 23.74 = 152.97, and each person's row adds up.
    #expect(split.columns.items.reduce(0, +) == 11870)
    #expect(split.lines.map(\.cents) == [1053, 2374])
    for p in split.cents.indices {
      #expect(split.cents[p] == split.columns.items[p] + split.columns.tax[p] + split.columns.tip[p])
    }
    let check = Self.text(session.handle("total 152.97"))
    #expect(check.contains("The receipt's total, 152.97, matches."))
    // What `food + 8.875% + 20%` gives (the tip on the tax): said where it comes from.
    let wrong = Self.text(session.handle("total 155.08"))
    #expect(wrong.contains { $0.contains("2.11 more") && $0.contains("tip 20% after tax") }, "\(wrong)")
  }

  @Test func itSettlesWhoPaysWhom() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, Self.restaurant)
    let split = BillSplit(try #require(session.mode as? BillMode).bill)
    _ = session.handle("paid ada")
    let settle = Self.text(session.handle("settle"))
    #expect(settle.first == "ada paid 152.97.")
    let owed = split.cents.dropFirst().map { Money.format(cents: BigInteger($0)) }
    #expect(
      Array(settle.dropFirst().prefix(3)).sorted()
        == ["bob pays ada \(owed[0])", "cy pays ada \(owed[1])", "dee pays ada \(owed[2])"].sorted())
    #expect(settle.last == "3 transfers: the fewest that can square 4 balances.")
    // Two people paying part: still squared.
    _ = session.handle("paid ada 100 bob 52.97")
    let two = Self.text(session.handle("settle"))
    #expect(two.first == "ada paid 100.00, bob paid 52.97.")
    // Payments that do not add up are said to (bob's replaces what was said of him).
    _ = session.handle("paid bob 40")
    #expect(Self.text(session.handle("settle")).first?.contains("12.97 is not paid by anyone") == true)
  }

  @Test func itemsAreEditedRemovedAndTakenBack() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill", "ada 10 soup", "bob 3*4.25 salad", "2 x 4.50 beer bob"])
    var bill = try #require(session.mode as? BillMode).bill
    #expect(bill.people == ["ada", "bob"])
    #expect(bill.items.map(\.amount) == [10, Rational(1275, 100), 9])
    #expect(Self.text(session.handle("remove 2")).first == "item 2 removed")
    #expect(Self.text(session.handle("edit 1 ada bob 12 soup")).first == "item 1 is now soup, 12.00, ada, bob")
    bill = try #require(session.mode as? BillMode).bill
    #expect(bill.items.map(\.number) == [1, 3])
    #expect(Self.text(session.handle("undo")).first?.hasPrefix("Took back: item 1 is now") == true)
    #expect(Self.text(session.handle("undo")).first == "Took back: item 2 removed")
    bill = try #require(session.mode as? BillMode).bill
    #expect(bill.items.map(\.number) == [1, 2, 3])
    #expect(bill.items[0].amount == 10)
  }

  @Test func mistakesAreSaidWhereTheyAre() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = session.handle("bill ada bob")
    let unknown = session.handle("adda 12 pasta")
    guard case .error(let d, _)? = unknown.outputs.first else { Issue.record("\(unknown)"); return }
    #expect(d.message == "no one called adda in this bill (ada, bob)")
    #expect(d.hint == "did you mean ada? To add a person: add adda")
    #expect(d.span == SourceSpan(0, 4))
    let badAmount = session.handle("ada 12+ pasta")
    guard case .error(let e, _)? = badAmount.outputs.first else { Issue.record("\(badAmount)"); return }
    #expect(e.span.start >= 4)
    #expect(Self.text(session.handle("ada pasta")).first?.hasPrefix("error:") == true)
    #expect(Self.text(session.handle("remove 9")).first == "error: there is no item 9")
    #expect(Self.text(session.handle("tax")).first == "error: tax needs a percentage or an amount")
    #expect(
      Self.text(session.handle("discount 120%")).first == "error: a discount of more than 100% would pay the diners")
    // A calculator command inside the bill says how to get back.
    #expect(Self.text(session.handle("drill 7")).first?.contains("quit first") == true)
    // Nothing of it changed the bill.
    #expect(try #require(session.mode as? BillMode).bill.items.isEmpty)
  }

  @Test func aBillIsSavedAsItIsTypedAndReopens() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-bill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.path + "/reckon.sqlite"
    var session = testSession(store: SQLiteStore(path: path))
    _ = Self.lines(&session, Self.restaurant + ["x = 5", "undo", "ada ans soda", "save dinner"])
    let before = try #require(session.mode as? BillMode).bill
    // No quit, no finish: as after kill -9. The next start reopens it by name.
    var next = testSession(store: SQLiteStore(path: path))
    _ = next.handle("ans = 1000")
    let opened = next.handle("bill open dinner")
    #expect(Self.text(opened).first == "Bill dinner reopened.")
    let after = try #require(next.mode as? BillMode).bill
    #expect(after == before)
    #expect(Self.text(next.handle("bills")).isEmpty == false)
    _ = next.handle("quit")
    let list = Self.text(next.handle("bills"))
    #expect(list.first?.contains("dinner") == true, "\(list)")
  }

  @Test func aBillInACurrencyRoundsToItsMinorUnit() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill ada bob cy", "all 1000 JPY sushi", "tip 10%"])
    let bill = try #require(session.mode as? BillMode).bill
    #expect(bill.currency == BillCurrency(code: "JPY", decimals: 0))
    let split = BillSplit(bill)
    #expect(split.cents == [367, 367, 366])
    // An amount in another currency without a rate is refused, and says how to give one.
    let other = Self.text(session.handle("ada 5 EUR cake"))
    #expect(other.first?.contains("no rate from EUR to JPY") == true, "\(other)")
    _ = session.handle("quit")
    _ = session.handle("set rate EUR 160 JPY")
    _ = session.handle("bill ada bob")
    _ = session.handle("ada 1000 JPY ramen")
    let converted = Self.text(session.handle("bob 5 EUR cake"))
    #expect(converted.first == "5.00 EUR is 800 JPY at your rate", "\(converted)")
  }

  /// What would make every later line slow is refused with its bound: more than 100 people,
  /// more than 1,000 items, a percentage with thousands of decimals; an amount with them is
  /// rounded to 8 decimals. A name that is also a unit (pa, a pascal) is a name.
  @Test func boundsAndNamesThatAreUnits() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = session.handle("bill")
    let crowd = (0..<101).map { "n" + String(UnicodeScalar(97 + $0 / 26)!) + String(UnicodeScalar(97 + $0 % 26)!) }
    #expect(
      Self.text(session.handle(crowd.joined(separator: " ") + " 10 x")).first == "error: a bill has at most 100 people")
    _ = session.handle("pa 10 soup")
    #expect(try #require(session.mode as? BillMode).bill.people == ["pa"])
    #expect(Self.text(session.handle("tax 1e-999%")).first == "error: a percentage has at most a few decimals: 8.875%")
    _ = session.handle("pa 1e-9999 crumb")
    #expect(try #require(session.mode as? BillMode).bill.items.last?.amount == 0)
    for i in 0..<998 { _ = session.handle("pa 1 dish\(i)") }
    #expect(try #require(session.mode as? BillMode).bill.items.count == 1000)
    #expect(Self.text(session.handle("pa 1 one-too-many")).first == "error: a bill has at most 1,000 items")
  }

  /// What a new user found: each is said, and nothing of the line changes the bill.
  @Test func whatANewUserTriedIsSaidPlainly() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill ada bob", "ada 8 a", "bob 12 b", "tax 10%"])
    let said = { (line: String) in Self.text(session.handle(line)).first ?? "" }
    #expect(said("-2 x 4.50 beer bob") == "error: the count must be a whole number from 1 to 10,000")
    #expect(said("2.0 x 4.50 beer bob") == "error: the count must be a whole number from 1 to 10,000")
    #expect(said("ada -5 refund") == "error: an item's amount must not be negative")
    #expect(said("coupon 25").hasPrefix("error: the discounts would take more off than there is to pay"))
    #expect(said("ada pasta") == "error: the item needs an amount")
    guard case .error(let d, _)? = session.handle("setle").outputs.first else { Issue.record("setle"); return }
    #expect(d.hint == "did you mean settle?")
    #expect(
      said("bob 5 EUR cake")
        == "error: this bill's amounts so far have no currency: give this one as a plain number too")
    #expect(said("bill bob").hasPrefix("You are in a bill: quit it first"))
    #expect(try #require(session.mode as? BillMode).bill.items.count == 2)
    // Payments add up by person; the one with no amount pays what is left.
    _ = session.handle("paid ada 5")
    _ = session.handle("paid bob")
    #expect(Self.text(session.handle("settle")).first == "ada paid 5.00, bob paid 17.00.")
    // Undo says what it took back, as the line left the bill.
    _ = session.handle("all 6 c")
    #expect(said("undo") == "Took back: item 3: c, 6.00, everyone")
    #expect(said("tax 1%") == "tax 1% (with the one before: tax 10% + tax 1%; undo takes this back)")
    _ = session.handle("exit")
    #expect(session.isInCalculator)
  }

  /// Issue 39's misreadings, each as people typed it: a line with its setup, and what the
  /// bill must then hold (or the error it must give, changing nothing).
  @Test(
    arguments: [
      // percent and pct are %.
      (["bill ada", "ada 40 x", "tip 20 percent"], "tip 20% on the subtotal", 4800),
      (["bill ada", "ada 40 x", "tax 8.875 percent"], "tax 8.875%", 4355),
      (["bill ada", "ada 40 x", "service 12.5 pct"], "service 12.5%", 4500),
      (["bill ada", "ada 40 x", "discount 10 per cent"], "discount 10%", 3600),
      // A currency after a sum, or in lower case, is the amount's.
      (["set rate JPY 0.006 EUR", "bill", "ada 12 EUR pasta", "ada 1000+500 JPY ramen"], "1500 JPY is 9.00 EUR", 2100),
      (["set rate USD 0.9 EUR", "bill", "ada 12 EUR pasta", "ada 10 usd beer"], "10.00 USD is 9.00 EUR", 2100),
      // A lower-case code that is also a word stays in the label, and the echo says so.
      (["bill ada", "ada 10 try this"], "'try' is read as part of the label", 1000),
      // A name in a label is the label's.
      (["bill ada bob", "ada 10 gift for bob"], "bob is part of the label, not charged", 1000),
      // A currency's name where a person goes is a person.
      (["bill", "lev 10 beer"], "lev is taken as a person's name here", 1000),
      // A per-item tax rounds each item's tax.
      (["bill ada", "ada 1.15 a", "ada 1.15 b", "ada 1.15 c", "tax 8.875% per item"], "tax 8.875% per item", 375),
      // The receipt's rounding: each line to the cent.
      (["bill ada bob", "ada 21.99 burger", "bob 17.99 salad", "tax 8.875%", "tip 20%"], "tip 20%", 5153),
    ] as [([String], String, Int)])
  func whatPeopleTypeIsReadAsMeant(lines: [String], says: String, totalCents: Int) throws {
    var session = testSession(store: SQLiteStore.inMemory())
    let replies = Self.lines(&session, lines)
    let last = Self.text(replies.last!)
    #expect(last.contains { $0.contains(says) }, "\(last)")
    let bill = try #require(session.mode as? BillMode).bill
    #expect(BillSplit(bill).totalCents == totalCents)
  }

  /// What could mean two things is asked, and changes nothing; a mistake is named.
  @Test(arguments: [
    (
      "tax 8.875",
      "tax 8.875: a rate or an amount? Type % for 8.875% (about 3.55 here), or amount for 8.88 (money has 2 decimals); "
        + "anything else leaves it"
    ),
    (
      "tip 20",
      "tip 20: a rate or an amount? Type % for 20% (about 8.00 here), or amount for 20.00; anything else leaves it"
    ),
    ("ada 10 gift for bob", ""),
    ("10 gift for bob", "error: did bob have it, or is 'for bob' what it was? Say who had it first"),
    (
      "dee salmon 19.45",
      "error: is salmon a person, or what dee had? An item is the names, then the amount, then what it was"
    ),
    ("ada 16,75 fish", "error: a decimal comma: write 16.75"),
    ("ada 1,000 fish", "error: a thousands separator: write 1000 (a comma is not part of a number)"),
    ("remove tax", "error: the bill has no tax"),
    ("edit tip 18%", "error: the bill has no tip"),
    ("remove paid bob", "error: bob has not been said to pay anything"),
  ])
  func whatCouldMeanTwoThingsIsAsked(line: String, error: String) throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill", "ada 21.99 burger", "bob 17.99 salad"])
    let before = try #require(session.mode as? BillMode).bill
    let said = Self.text(session.handle(line))
    if error.isEmpty { return }
    #expect(said.first == error, "\(said)")
    #expect(try #require(session.mode as? BillMode).bill == before)
  }

  /// Every entry reads back as it was saved, a negative amount with its sign (an old
  /// receipt's total of -9 was saved and could not be read: the bill lost the line); a
  /// negative receipt's total is now refused as it is typed.
  @Test func savedEntriesReadBackAsTheyWere() throws {
    let entries: [BillEntry] = [
      .receiptTotal(Rational(-9)), .receiptTotal(Rational(15297, 100)), .trip, .unpaid(1), .removeTotal,
      .join(2, [1, 3]), .expense(payer: 0, BillEntry.ItemDraft(amount: Rational(12), shares: [], label: "fuel")),
      .include(BillEntry.Included(label: "bill x", people: ["ada"], shares: [Rational(3)], paid: [Rational(3)])),
    ]
    #expect(BillEntry.decoded(BillEntry.encoded(entries)) == entries)
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill", "ada 5 x"])
    #expect(Self.text(session.handle("total -9")).first == "error: the receipt's total must not be negative")
  }

  /// The answer to a question is the line as if it had been typed so, and is what is saved;
  /// anything else leaves the question, and says so.
  @Test func aQuestionIsAnsweredByTheNextLine() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill", "ada 21.99 burger", "bob 17.99 salad"])
    _ = session.handle("tax 8.875")
    #expect(Self.text(session.handle("%")).first == "tax 8.875%")
    _ = session.handle("tip 20")
    #expect(Self.text(session.handle("amount")).first == "tip 20.00")
    var mode = try #require(session.mode as? BillMode)
    #expect(BillSplit(mode.bill).totalCents == 3998 + 355 + 2000)
    _ = session.handle("tip 20")
    let left = Self.text(session.handle("show"))
    #expect(left.first == "(The question was left: nothing of the line it asked about was kept.)")
    mode = try #require(session.mode as? BillMode)
    #expect(BillSplit(mode.bill).totalCents == 3998 + 355 + 2000)
    // Saved as the answer made it: reopened, the same bill.
    _ = Self.lines(&session, ["save q", "quit"])
    _ = session.handle("bill open q")
    #expect(try #require(session.mode as? BillMode).bill == mode.bill)
  }

  /// all is the people at the bill when it is typed; one who comes later is told, and joins.
  @Test func allMeansThoseAtTheBillThen() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, ["bill", "ada 5 soup", "bob 3 tea", "all 10 starter"])
    let joined = Self.text(session.handle("eve 7 tiramisu"))
    #expect(joined.first?.contains("eve is not in the earlier shared item 3 starter") == true, "\(joined)")
    #expect(joined.first?.contains("eve joins 3") == true, "\(joined)")
    var split = BillSplit(try #require(session.mode as? BillMode).bill)
    #expect(split.cents == [1000, 800, 700])
    #expect(Self.text(session.handle("eve joins 3")).first == "eve shares item 3 starter")
    split = BillSplit(try #require(session.mode as? BillMode).bill)
    // 10.00 in three: 3.33⅓ each; the cent left over to the first named (no one has been
    // given one yet).
    #expect(split.cents == [834, 633, 1033])
    // So does a bill reopened: its lines replayed give the same.
    #expect(Self.text(session.handle("eve joins 3")).first == "error: eve shares it already")
  }

  /// The split kept between lines (only the new item's work is done) gives what a split
  /// from nothing gives, through items added, removed, edited and joined, people joining
  /// and lines refused.
  @Test func theSplitKeptBetweenLinesIsTheSplitFromNothing() throws {
    var random = SeededRandom(seed: 3939)
    var session = testSession(store: SQLiteStore.inMemory())
    _ = session.handle("bill")
    var people = ["ada"]
    var compared = 0
    for step in 0..<600 {
      let who = people.shuffled(using: &random).prefix(Int.random(in: 1...min(people.count, 3), using: &random))
      let cents = Int.random(in: 0...9999, using: &random)
      let bill = try #require(session.mode as? BillMode).bill
      let line: String
      switch Int.random(in: 0..<20, using: &random) {
      case 0 where !bill.items.isEmpty: line = "remove \(bill.items.randomElement(using: &random)!.number)"
      case 1 where !bill.items.isEmpty:
        line = "edit \(bill.items.randomElement(using: &random)!.number) \(who.joined(separator: " ")) 3.07 x"
      case 2 where !bill.items.isEmpty: line = "\(people.randomElement(using: &random)!) joins all"
      case 3: line = "\(Self.letters(step)) 1.01 new"
      case 4: line = "coupon 99999"  // refused: more off than there is
      case 6: line = "undo"
      case 5: line = "all \(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100) shared"
      default: line = "\(who.joined(separator: " ")) \(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100) dish"
      }
      let said = Self.text(session.handle(line))
      if line.hasPrefix(Self.letters(step) + " "), !said.contains(where: { $0.hasPrefix("error") }) {
        people.append(Self.letters(step))
      }
      let now = try #require(session.mode as? BillMode).bill
      guard let totals = said.last, totals.contains("total") else { continue }
      #expect(totals == Self.text(Reply(BillReport(now).totals)).last, "after \(line)")
      compared += line.hasPrefix("edit") || line.contains("joins") || line == "undo" ? 1 : 0
    }
    #expect(compared > 20, "edits and joins compared: \(compared)")
    #expect(people.count > 10)
  }

  /// A name of letters for a number: 0 is "pa", 27 is "pbb".
  static func letters(_ n: Int) -> String {
    "p" + String(UnicodeScalar(97 + n / 26 % 26)!) + String(UnicodeScalar(97 + n % 26)!)
  }

  /// Every line of the receipt can be removed or changed; a payment is what was paid.
  @Test func taxTipAndPaymentsAreEditedAndRemoved() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(
      &session, ["bill ada bob", "ada 21.99 burger", "bob 17.99 salad", "tax 8.875%", "tax 2%", "tip 20%"])
    let total = { BillSplit(try #require(session.mode as? BillMode).bill).totalCents }
    #expect(try total() == 5233)
    #expect(Self.text(session.handle("remove tax")).first == "error: the bill has 2 of those: say which")
    #expect(Self.text(session.handle("remove tax 2%")).first == "tax 2% removed")
    #expect(try total() == 5153)
    #expect(Self.text(session.handle("edit tip 18%")).first == "now tip 18% on the subtotal")
    #expect(try total() == 5073)
    // paid bob rest is the rest now, and stays what it was when the bill changes.
    #expect(
      Self.text(session.handle("paid ada 30 bob rest")).first
        == "paid: ada 30.00, bob 20.73 (the rest as the bill stands: a later change leaves it as it is)")
    _ = session.handle("ada 2 coffee")
    let bill = try #require(session.mode as? BillMode).bill
    #expect(bill.payments.map(\.amount) == [Rational(30), Rational(2073, 100)])
    #expect(Self.text(session.handle("remove paid bob")).first?.hasPrefix("bob paid nothing") == true)
    #expect(try #require(session.mode as? BillMode).bill.payments.count == 1)
  }

  /// Bills started in the same millisecond (a file of bills) are different bills.
  @Test func billsStartedInOneMillisecondAreKeptApart() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    for (day, amount) in [("monday", 12), ("tuesday", 13), ("wednesday", 14)] {
      _ = Self.lines(&session, ["bill ada bob", "ada \(amount) lunch", "save \(day)", "quit"])
    }
    _ = Self.lines(&session, ["bill", "quit"])  // started and left: not listed
    let list = try #require(Self.text(session.handle("bills")).first).split(separator: "\n")
    #expect(list.count == 4, "\(list)")
    #expect(list.dropFirst().map { $0.split(separator: " ")[1] } == ["wednesday", "tuesday", "monday"])
  }

  @Test func exportsArePlainTextMarkdownAndCSV() throws {
    var session = testSession(store: SQLiteStore.inMemory())
    _ = Self.lines(&session, Self.restaurant + ["bob 2 \"cola, large\""])
    let csv = try #require(Self.text(session.handle("export csv -")).first)
    let rows = Self.csvRows(csv)
    #expect(rows.first == ["no.", "item", "who", "amount", "currency", "ada", "bob", "cy", "dee"])
    #expect(rows.last?.prefix(3) == ["", "total", ""])
    // Every row adds up to its amount, and every person's column to the total row's cell.
    for row in rows.dropFirst() {
      let cells = row[5...].map { Self.cents($0) }
      #expect(cells.reduce(0, +) == Self.cents(row[3]), "\(row)")
    }
    for column in 5..<9 {
      let body = rows.dropFirst().dropLast().map { Self.cents($0[column]) }
      #expect(body.reduce(0, +) == Self.cents(rows.last![column]))
    }
    #expect(rows.contains { $0[1] == "\"cola, large\"" })
    let markdown = try #require(Self.text(session.handle("export markdown -")).first)
    #expect(markdown.contains("| --- | --- | --- | ---: |"))
    #expect(BillExport.csvField("cola, \"large\"") == "\"cola, \"\"large\"\"\"")
    // To a file: a new one, never over one that is there.
    let folder = MemoryFolder()
    session.state.files = folder
    #expect(Self.text(session.handle("export csv dinner.csv")).first?.hasPrefix("Wrote dinner.csv") == true)
    let file = String(decoding: try #require(folder.files["dinner.csv"]), as: UTF8.self)
    #expect(file == csv.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") + "\r\n")
    let again = Self.text(session.handle("export dinner.csv"))
    #expect(again.first?.contains("there is a file there already") == true, "\(again)")
    _ = session.handle("export md")
    _ = session.handle("export markdown")
    #expect(folder.files.keys.sorted().filter { $0.hasSuffix(".md") }.count == 2)
    #expect(Self.text(session.handle("export dinner.pdf")).first == "error: no export format 'dinner.pdf'")
  }

  /// RFC 4180 rows (quoted fields with commas and doubled quotes), for the tests.
  static func csvRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = Array(text.replacingOccurrences(of: "\r\n", with: "\n")).makeIterator()
    while let c = chars.next() {
      if quoted {
        if c == "\"" {
          if let next = chars.next() {
            if next == "\"" {
              field.append("\"")
            } else {
              quoted = false
              if next == "," {
                row.append(field); field = ""
              } else if next == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
              }
            }
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field); field = ""
      } else if c == "\n" {
        row.append(field); rows.append(row); row = []; field = ""
      } else {
        field.append(c)
      }
    }
    row.append(field)
    rows.append(row)
    return rows
  }

  static func cents(_ text: String) -> Int {
    let negative = text.hasPrefix("-")
    let digits = text.filter(\.isNumber)
    return (Int(digits) ?? 0) * (negative ? -1 : 1)
  }
}
