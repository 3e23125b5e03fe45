import LineEditor
import Testing

@testable import reckon

/// On a Latin-1 terminal (ISO-8859-1 or -15) Reckon writes Latin-1: its own symbols that
/// Latin-1 lacks in ASCII, emoji left out.
@Suite struct Latin1Tests {
  @Test(arguments: [
    ("7 × 8 ÷ 2 · café", [55, 32, 0xD7, 32, 56, 32, 0xF7, 32, 50, 32, 0xB7, 32, 99, 97, 102, 0xE9] as [UInt8]),
    ("0.3333333333…", Array("0.3333333333...".utf8)),
    ("✓ 1.5 s", Array("+ 1.5 s".utf8)),
    ("✗ 7 × 2 = 14", [120, 32, 55, 32, 0xD7, 32, 50, 32, 61, 32, 49, 52]),
    ("≈ 1.414 − 2", Array("~ 1.414 - 2".utf8)),
    ("You are: Owl 🦉", Array("You are: Owl ".utf8)),
    ("名", Array("?".utf8)),
  ])
  func latin1(_ text: String, _ bytes: [UInt8]) {
    #expect(Latin1.encode(text) == bytes)
  }

  @Test func onlyALatin1LocaleIsLatin1() {
    for name in ["C.UTF-8", "en_US.UTF-8", "C", "POSIX", "de_DE.utf8"] {
      #expect(!Terminal.localeIsLatin1 { $0 == "LANG" ? name : nil }, "\(name)")
    }
  }
}
