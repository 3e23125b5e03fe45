/// The flashcards' setting: the target retention, the chance of recall FSRS schedules each
/// card for (`set retention 0.85`). Higher means more reviews a day; Anki allows 0.70 to
/// 0.99 and suggests 0.90, the default.
extension Settings {
  var retention: Double { CardsSettings.retention(modes[CardsSettings.retentionKey]) }
}

enum CardsSettings {
  static let retentionKey = "retention"
  static let retentionRange = 0.7...0.99
  static let defaultRetention = 0.9

  /// The retention saved as `text`, or the default for none (or text that does not read
  /// back: an edited or older database).
  static func retention(_ text: String?) -> Double {
    guard let text, let value = Double(text), retentionRange.contains(value) else { return defaultRetention }
    return value
  }

  static let retention = ModeSetting(
    key: retentionKey,
    usage: """
      set retention 0.9      flashcards: the chance of recall each review aims
                             for (0.7 to 0.99; higher means more reviews)
      """,
    change: { words in
      let example = "set retention 0.9 (or 90%)"
      guard words.count == 1 else {
        return .failure(SettingProblem("set retention takes one number, from 0.7 to 0.99", example: example))
      }
      var text = words[0]
      let percent = text.hasSuffix("%")
      if percent { text.removeLast() }
      guard var value = Double(text), value.isFinite else {
        return .failure(SettingProblem("a retention is a number from 0.7 to 0.99", example: example))
      }
      if percent { value /= 100 }
      guard retentionRange.contains(value), abs((value * 100).rounded() - value * 100) < 1e-9 else {
        return .failure(
          SettingProblem("a retention is from 0.7 to 0.99, in hundredths (0.85, 90%)", example: example))
      }
      return .success(String((value * 100).rounded() / 100))
    },
    shown: { text in
      let value = retention(text)
      return "\(Int((value * 100).rounded()))%" + (text == nil ? " (the default)" : "")
    })
}
