/// How long something took, as the modes write it.
enum Durations {
  /// Tenths of a second: `2.3 s`.
  static func seconds(_ milliseconds: Int64) -> String {
    let tenths = milliseconds / 100 + (milliseconds % 100 >= 50 ? 1 : 0)
    return "\(tenths / 10).\(tenths % 10) s"
  }

  /// Minutes and seconds: `4:07`, `60:00`.
  static func minutesAndSeconds(_ milliseconds: Int64) -> String {
    let seconds = max(0, milliseconds) / 1000
    let s = seconds % 60
    return "\(seconds / 60):\(s < 10 ? "0" : "")\(s)"
  }
}
