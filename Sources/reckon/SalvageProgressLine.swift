import Glibc
import ReckonStore
import Synchronization

/// How far the salvage of a damaged database has got, on the terminal's standard error while
/// it works: nothing for the first half second (most salvages are over by then), then one
/// line drawn again in place at most five times a second (`reckon: salvaging
/// reckon.sqlite: reading its pages, 45 % (Ctrl-C stops it; what was copied is kept)`), and
/// cleared when it ends, before the notice that says what was kept.
final class SalvageProgressLine: Sendable {
  /// When the salvage began, when the line was last drawn, and whether one is showing.
  private let state = Mutex<(began: Int64?, drawn: Int64, showing: Bool)>((nil, 0, false))
  let stopsWithCtrlC: Bool

  init(stopsWithCtrlC: Bool) { self.stopsWithCtrlC = stopsWithCtrlC }

  func show(_ progress: SalvageProgress) {
    let now = SystemClock().monotonicMilliseconds()
    let text: String? = state.withLock { state in
      if progress.step == .finishing && progress.fraction >= 1 {
        defer { state = (nil, 0, false) }
        return state.showing ? "\r\u{1B}[K" : nil
      }
      let began = state.began ?? now
      state.began = began
      guard now - began >= 500, now - state.drawn >= 200 else { return nil }
      state.drawn = now
      state.showing = true
      let name = progress.path.split(separator: "/").last.map(String.init) ?? progress.path
      let stop = stopsWithCtrlC ? " (Ctrl-C stops it; what was copied is kept)" : ""
      return "\r\u{1B}[Kreckon: salvaging \(name): \(progress.description)\(stop)"
    }
    guard let text else { return }
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }
}
