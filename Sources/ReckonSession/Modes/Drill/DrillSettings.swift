/// The drill's own setting: the options used last, which `drill` alone repeats, kept by the
/// session as the text of their arguments (`Settings.modes`) and read back here.
extension Settings {
  var drill: DrillOptions {
    get { DrillOptions.saved(modes[DrillOptions.settingKey]) }
    set { modes[DrillOptions.settingKey] = newValue.arguments }
  }
}

extension DrillOptions {
  static let settingKey = "drill"

  /// `set` lists the options as a drill would use them.
  static let setting = ModeSetting(key: settingKey) { saved($0).arguments }

  /// The options saved as `text`; the defaults for none, or for text that does not read back
  /// (an edited or older database).
  static func saved(_ text: String?) -> DrillOptions {
    guard let text, let options = try? DrillOptions().applying(text.split(separator: " ").map(String.init)) else {
      return DrillOptions()
    }
    return options
  }
}
