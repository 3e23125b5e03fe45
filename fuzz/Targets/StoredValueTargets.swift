import ReckonCore
import ReckonSession

/// The readers of values that come back later (issue 38: a rates file's date, a flashcard
/// file's schedule, each taken once and then crashing every session): what they accept must be
/// within range, work through every command's arithmetic without trapping, and be kept exactly.
enum StoredValueTargets {
  /// A rates file (the ECB's CSV or a plain list), and the same bytes as the setting the rates
  /// are kept in. Whatever is loaded has a day from the year 1 to 9999 and a rate within its
  /// digits, its age and cross rates work out, and what is kept reads back the same; every
  /// problem names a line inside the file.
  @Sendable static func rates(_ bytes: [UInt8]) {
    let today = 20_419
    let lines = ImportTargets.lineCount(bytes)
    switch RatesFile.read(bytes: bytes, today: today, known: allCodes) {
    case .success(let loaded):
      require(!loaded.rates.isEmpty, "a file loaded with no rates")
      var rates = ExchangeRates()
      for rate in loaded.rates { rates.set(rate) }
      check(rates, today: today)
    case .failure(let failure):
      require(!failure.all.isEmpty, "a refusal without a problem")
      for problem in failure.all {
        require(problem.line >= 1 && problem.line <= lines, "a problem at line \(problem.line) of \(lines)")
        require(!problem.reason.isEmpty, "a problem without a reason")
      }
    }
    let stored = ExchangeRates.read(stored: String(decoding: bytes, as: UTF8.self), days: Day.supportedNumbers)
    for left in stored.leftOut {
      require(left.line >= 1 && left.line <= lines && !left.reason.isEmpty, "a line left out at \(left.line)")
    }
    check(stored.rates, today: today)
  }

  /// Rates as every command uses them, and as the settings keep them.
  static func check(_ rates: ExchangeRates, today: Int) {
    for rate in rates.rates {
      require(Day.supportedNumbers.contains(rate.day), "a rate of day \(rate.day)")
      require(ExchangeRates.problem(with: rate.value) == nil, "a rate of \(rate.value)")
      _ = (Day(number: rate.day).iso, today - rate.day, rate.value.reciprocal)
    }
    let back = ExchangeRates.read(stored: rates.stored, days: Day.supportedNumbers)
    require(back.rates == rates && back.leftOut.isEmpty, "rates kept do not read back the same")
    let currencies = rates.currencies.prefix(8)
    for from in currencies {
      for to in currencies { _ = rates.rate(from: from, to: to) }
    }
  }

  /// Every code of three capital letters: any the file names is known.
  static let allCodes: Set<String> = Set(
    (0..<26 * 26 * 26).map { i in
      String(String.UnicodeScalarView([i / 676, i / 26 % 26, i % 26].map { Unicode.Scalar(UInt8(65 + $0)) }))
    })

  static let now: Int64 = 1_796_676_306_908

  /// `#reckon card:` lines (each line of the input, with and without the mark), and the first
  /// bytes as a row of the store (ten 64-bit values) and as a deck's 21 weights: a schedule
  /// accepted is within range, and reviewed with every rating at times around now (with the
  /// default weights, and with weights accepted) it gives a schedule that is accepted again,
  /// and chances of recall from 0 to 1.
  @Sendable static func schedule(_ bytes: [UInt8]) {
    var random = SeededRandom(seed: 38)
    let weights = doubles(bytes, 21).flatMap { Decks.problem(withWeights: $0) == nil ? $0 : nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(64) {
      for text in [String(line), CardsExport.scheduleMark + " " + line] {
        switch CardsExport.schedule(text) {
        case .card(let ordinal, _, let schedule)?:
          require((1...500).contains(ordinal), "a card \(ordinal)")
          require(schedule.problem == nil, "a schedule accepted that cannot be used")
          exercise(schedule, weights: weights, random: &random)
        case .refused(let reason)?: require(!reason.isEmpty, "a refusal without a reason")
        case nil: require(!text.hasPrefix(CardsExport.scheduleMark), "a schedule line passed over")
        }
      }
    }
    // As the store hands a row over: any 64-bit integers, any doubles, NULLs.
    if let v = integers(bytes, 10) {
      let row = Decks.Schedule(
        phase: Int(v[0] % 5), step: v[9] & 1 == 0 ? nil : Int(v[1] % 3), stability: v[9] & 2 == 0 ? nil : double(v[2]),
        difficulty: v[9] & 4 == 0 ? nil : double(v[3]), due: v[4], lastReview: v[9] & 8 == 0 ? nil : v[5],
        reviews: Int(v[6]), lapses: Int(v[7]))
      if row.problem == nil { exercise(row, weights: weights, random: &random) }
      let review = Decks.LoggedReview(
        key: Decks.Key(deck: "d", note: "n", ordinal: 1, reverse: false), rating: Int(v[8] % 6), at: v[4],
        milliseconds: v[5])
      if review.problem == nil { _ = Day(milliseconds: review.at, utcOffsetSeconds: 3600).iso }
    }
  }

  /// A stored double: a small whole number of days or tenths as often as any bit pattern.
  static func double(_ bits: Int64) -> Double {
    bits & 1 == 0 ? Double(bits % 100_000) / 10 : Double(bitPattern: UInt64(bitPattern: bits))
  }

  static func integers(_ bytes: [UInt8], _ count: Int) -> [Int64]? {
    guard bytes.count >= count * 8 else { return nil }
    return (0..<count).map { i in bytes[i * 8..<i * 8 + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) } }
  }

  static func doubles(_ bytes: [UInt8], _ count: Int) -> [Double]? {
    integers(bytes, count)?.map(double)
  }

  static func exercise(_ schedule: Decks.Schedule, weights: [Double]?, random: inout SeededRandom) {
    for at in [now, now + 3_600_000, now + 400 * 86_400_000, schedule.due, schedule.lastReview ?? now]
    where (Day.supportedMilliseconds.lowerBound...now + 400 * 86_400_000).contains(at) {
      for set in [nil, weights] {
        let recall = schedule.recall(at: at, weights: set)
        require((0...1).contains(recall), "a chance of recall of \(recall)")
        for rating in 1...4 {
          guard let after = schedule.reviewed(rating: rating, at: at, weights: set, retention: 0.9, random: &random)
          else {
            require(false, "rating \(rating) refused")
            return
          }
          require(after.problem == nil, "reviewed, a schedule that cannot be used: \(after.problem ?? "")")
          require(after.lastReview == at && after.due > at, "reviewed at \(at), due \(after.due)")
          require(after.reviews == min(schedule.reviews + 1, Decks.Schedule.maxReviews), "reviews counted wrong")
          require((0...1).contains(after.recall(at: at + 86_400_000, weights: set)), "a chance of recall out of 0-1")
        }
      }
    }
  }
}
