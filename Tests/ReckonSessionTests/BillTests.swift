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
      bill.adjustments.append(Bill.Adjustment(kind: .tax, percent: percent(&random, 25), amount: nil, label: "tax"))
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
    return bill
  }

  /// Over 3,000 generated bills: the shares add up exactly to the total (the exact total
  /// rounded half away from zero), each is within one cent of the exact share, and with
  /// `round` each is a whole unit no less than the exact share.
  @Test func theSharesAddUpExactlyAndEachIsWithinACent() throws {
    var random = SeededRandom(seed: 2026)
    for _ in 0..<3000 {
      let bill = Self.randomBill(&random)
      let split = BillSplit(bill)
      let exact = split.parts.map(\.total)
      let total = exact.reduce(Rational.zero, +)
      #expect(Rational(split.totalCents) == (total * 100).rounded(places: 0))
      for (p, cents) in split.cents.enumerated() {
        #expect((Rational(cents) - exact[p] * 100).magnitude < 1, "share \(p): \(cents) against \(exact[p])")
        if bill.roundUp { #expect(cents % 100 == 0) }
      }
      // Every column (items, tax, …) adds up to its own rounded total too.
      let tax = split.column { $0.tax }
      #expect(
        Rational(tax.reduce(0, +)) == (split.parts.reduce(Rational.zero) { $0 + $1.tax } * 100).rounded(places: 0))
    }
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
    // Each share rounded alone: one cent too many.
    let alone = split.parts.map { ($0.total * 100).rounded(places: 0).intValue! }
    #expect(alone.reduce(0, +) == 15298)
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
    let csv = Self.text(session.handle("export csv"))
    let rows = try #require(csv.first).split(separator: "\n")
    #expect(rows.first == "who,items,tax,tip,total")
    #expect(rows.last?.hasPrefix("total,120.70,") == true)
    let markdown = try #require(Self.text(session.handle("export markdown")).first)
    #expect(markdown.contains("| --- | --- | --- | ---: |"))
    #expect(BillExport.csvField("cola, \"large\"") == "\"cola, \"\"large\"\"\"")
  }
}
