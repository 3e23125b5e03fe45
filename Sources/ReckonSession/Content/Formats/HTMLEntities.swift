/// Decodes the HTML character references that Open Trivia DB puts in its text
/// (`&quot;`, `&#039;`, `&eacute;`, `&#x27;`). An unknown name is left as it is.
public enum HTMLEntities {
  public static func decode(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let after = rest[rest.index(after: amp)...]
      if let semicolon = after.prefix(12).firstIndex(of: ";"), let scalar = scalar(for: after[..<semicolon]) {
        out.unicodeScalars.append(scalar)
        rest = after[after.index(after: semicolon)...]
      } else {
        out += "&"
        rest = after
      }
    }
    return out + rest
  }

  static func scalar(for name: Substring) -> Unicode.Scalar? {
    if name.hasPrefix("#x") || name.hasPrefix("#X") {
      return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
    }
    if name.hasPrefix("#") { return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
    return named[String(name)].flatMap(Unicode.Scalar.init)
  }

  /// HTML's named references for Latin-1 and the common typographic marks.
  static let named: [String: UInt32] = {
    var table: [String: UInt32] = [
      "quot": 34, "amp": 38, "apos": 39, "lt": 60, "gt": 62, "nbsp": 160, "shy": 173,
      "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C,
      "rdquo": 0x201D, "bdquo": 0x201E, "dagger": 0x2020, "bull": 0x2022, "hellip": 0x2026, "prime": 0x2032,
      "Prime": 0x2033, "euro": 0x20AC, "trade": 0x2122, "minus": 0x2212, "times": 215, "divide": 247,
      "pi": 0x3C0, "Pi": 0x3A0, "alpha": 0x3B1, "beta": 0x3B2, "gamma": 0x3B3, "delta": 0x3B4, "Delta": 0x394,
      "mu": 0x3BC, "Omega": 0x3A9, "omega": 0x3C9, "sigma": 0x3C3, "Sigma": 0x3A3, "lambda": 0x3BB,
      "theta": 0x3B8, "epsilon": 0x3B5, "infin": 0x221E, "radic": 0x221A, "ne": 0x2260, "le": 0x2264, "ge": 0x2265,
      "rarr": 0x2192, "larr": 0x2190, "harr": 0x2194, "OElig": 0x152, "oelig": 0x153, "Scaron": 0x160,
      "scaron": 0x161, "Yuml": 0x178, "fnof": 0x192, "circ": 0x2C6, "tilde": 0x2DC, "lrm": 0x200E, "rlm": 0x200F,
      "zwnj": 0x200C, "zwj": 0x200D, "thinsp": 0x2009, "ensp": 0x2002, "emsp": 0x2003, "permil": 0x2030,
      "lsaquo": 0x2039, "rsaquo": 0x203A,
    ]
    // U+00A1 to U+00FF, in order.
    let latin1 = """
      iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 \
      acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde \
      Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute \
      Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde \
      auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute \
      ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
      """
    for (offset, name) in latin1.split(separator: " ").enumerated() { table[String(name)] = 0xA1 + UInt32(offset) }
    return table
  }()
}
