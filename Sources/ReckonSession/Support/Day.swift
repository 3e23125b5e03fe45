/// A calendar day in local time, counted from 1970-01-01: what "today", a streak and a
/// day's bar in a chart are made of. Pure arithmetic, no time-zone database: the clock says
/// how far local time is from UTC.
///
/// A day or a moment read from outside (a file, a stored row) is taken only within the years
/// 1 to 9999 (`years`, `supported`, `supportedMilliseconds`): anything else is refused where
/// it is read, with its line or setting. The arithmetic here never traps on any value all the
/// same (a sum that would overflow stops at the limit of `Int`), so a value that slipped
/// through shows as a strange date, never as a crash.
public struct Day: Sendable, Hashable, Comparable, Strideable {
  /// Days since 1970-01-01 (negative before it).
  public var number: Int

  public init(number: Int) { self.number = number }

  /// The years a date read from outside may have.
  public static let years = 1...9999
  /// 0001-01-01 to 9999-12-31, as day numbers.
  public static let supportedNumbers = -719_162...2_932_896
  public static let supported = Day(number: supportedNumbers.lowerBound)...Day(number: supportedNumbers.upperBound)
  /// The moments of those days in milliseconds since 1970 (UTC): where a due time or a
  /// review time read from outside must lie.
  public static let supportedMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

  /// Why `milliseconds`, a moment read from outside, cannot be used; nil when it can.
  public static func problem(milliseconds: Int64) -> String? {
    supportedMilliseconds.contains(milliseconds) ? nil : "\(milliseconds) is not a time from the year 1 to 9999"
  }

  public init(milliseconds: Int64, utcOffsetSeconds: Int) {
    // An offset is hours; one past 2^40 seconds (none is) is taken as that.
    let offset = Int64(min(max(utcOffsetSeconds, -(1 << 40)), 1 << 40)) * 1000
    let (local, overflow) = milliseconds.addingReportingOverflow(offset)
    let moment = overflow ? (milliseconds < 0 ? Int64.min : Int64.max) : local
    // Whole days, counted down (before 1970 too).
    let days = moment / 86_400_000
    number = Int(moment % 86_400_000 < 0 ? days - 1 : days)
  }

  public init?(year: Int, month: Int, day: Int) {
    guard Day.years.contains(year), (1...12).contains(month),
      (1...Day.length(ofMonth: month, year: year)).contains(day)
    else { return nil }
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    number = era * 146_097 + dayOfEra - 719_468
  }

  public static func < (a: Day, b: Day) -> Bool { a.number < b.number }
  public func distance(to other: Day) -> Int { Day.sum(other.number, number, negated: true) }
  public func advanced(by n: Int) -> Day { Day(number: Day.sum(number, n, negated: false)) }

  /// a + b (or a − b), stopping at the limits of `Int` rather than trapping.
  static func sum(_ a: Int, _ b: Int, negated: Bool) -> Int {
    let (result, overflow) = negated ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
    guard overflow else { return result }
    return (negated ? b < 0 : b > 0) ? .max : .min
  }

  /// Year, month (1–12) and day of the month (Hinnant's civil_from_days). A day number
  /// beyond ±2^60 (none read from outside is) is taken as ±2^60.
  public var civil: (year: Int, month: Int, day: Int) {
    let z = min(max(number, -(1 << 60)), 1 << 60) + 719_468
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
