/// A calendar day in local time, counted from 1970-01-01: what "today", a streak and a
/// day's bar in a chart are made of. Pure arithmetic, no time-zone database: the clock says
/// how far local time is from UTC.
public struct Day: Sendable, Hashable, Comparable, Strideable {
  /// Days since 1970-01-01 (negative before it).
  public var number: Int

  public init(number: Int) { self.number = number }

  public init(milliseconds: Int64, utcOffsetSeconds: Int) {
    let local = milliseconds + Int64(utcOffsetSeconds) * 1000
    number = Int(local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
  }

  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), (1...Day.length(ofMonth: month, year: year)).contains(day) else { return nil }
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    number = era * 146_097 + dayOfEra - 719_468
  }

  public static func < (a: Day, b: Day) -> Bool { a.number < b.number }
  public func distance(to other: Day) -> Int { other.number - number }
  public func advanced(by n: Int) -> Day { Day(number: number + n) }

  /// Year, month (1–12) and day of the month (Hinnant's civil_from_days).
  public var civil: (year: Int, month: Int, day: Int) {
    let z = number + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// 0 is Monday … 6 is Sunday (1970-01-01 was a Thursday).
  public var weekday: Int { ((number % 7) + 7 + 3) % 7 }

  static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// `2026-11-23`.
  public var iso: String {
    let (y, m, d) = civil
    return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
  }

  /// `Mon 23 Nov`, for charts.
  public var shortLabel: String {
    let (_, m, d) = civil
    return "\(Day.weekdayNames[weekday]) \(d < 10 ? " " : "")\(d) \(Day.monthNames[m - 1])"
  }

  static func length(ofMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
