import CGMP

/// The libraries behind Reckon's numbers, as `reckon --version` names them.
public enum NumberLibraries {
  /// "GMP 6.2.1, MPFR 4.2.0": the versions linked into this binary.
  public static var versions: String {
    let gmp = String(cString: __gmp_version)
    let mpfr = String(cString: mpfr_get_version())
    return "GMP \(gmp), MPFR \(mpfr)"
  }
}
