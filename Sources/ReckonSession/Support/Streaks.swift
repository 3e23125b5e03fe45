/// Runs of days and charts by day, as `stats` shows them for every mode that keeps days.
enum Streaks {
  /// Days in an activity chart, today included.
  static let chartDays = 14

  /// The run of consecutive days in `days` that ends today, or yesterday (today may still come).
  static func ending(_ days: [Day], today: Day) -> (length: Int, includesToday: Bool) {
    let marked = Set(days)
    let includesToday = marked.contains(today)
    var day = includesToday ? today : today.advanced(by: -1)
    var length = 0
    while marked.contains(day) {
      length += 1
      day = day.advanced(by: -1)
    }
    return (length, includesToday)
  }

  /// The chart's days, oldest first, ending today.
  static func days(endingOn today: Day) -> [Day] {
    (0..<chartDays).reversed().map { today.advanced(by: -$0) }
  }
}
