// swift-tools-version:6.0
import PackageDescription

// Members of a module are visible only where it is imported (SE-0444). No target imports
// Foundation (a test in EndToEndTests checks that the release binary links none of it).
let strictImports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

// Release builds put each function in a section of its own, so that the linker can gather the
// code that start-up runs (linker/hot-text.txt) into a few pages instead of a hundred: see
// linker/README.md.
let ownSections: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))
]

// Release builds are built for size (-Osize), every Swift target: the installed binary has a
// 10 MB budget (LinkageTests). With the bill mode it was 10,089,080 bytes at -O; the modes,
// the store, SQLite's layer, the line editor and the executable at -Osize made it 9,900,664;
// with the flashcards' first parts it was 10,003,064, and ReckonCore at -Osize too, 9,847,416.
// Measured against -O in one run: the 100,000-line batch 5% slower (180 against 172 ms),
// start-up, 10000! and 1,000 digits of sin(1) the same. Nor does the optimizer copy a function
// for each closure passed to it (closure specialization: 150 copies, a RatesFile reader twice
// over, each sort's comparator): issue 38's checks took the binary from 9,994,872 bytes to
// 10,027,640, and without the copies it is 9,990,776; the 100,000-line batch (84 against
// 89 ms) and start-up (0.95 against 0.96 ms) the same, measured against the binary before.
let forSize: [SwiftSetting] = [
  .unsafeFlags(["-Osize", "-Xllvm", "-sil-disable-pass=closure-specialize"], .when(configuration: .release))
]

let package = Package(
  name: "Reckon",
  products: [
    .executable(name: "reckon", targets: ["reckon"])
  ],
  targets: [
    // GMP and MPFR, Debian's libgmp-dev and libmpfr-dev (scripts/deps), through a small C shim
    // for their macro-only functions.
    .systemLibrary(name: "CGMP", providers: [.apt(["libgmp-dev", "libmpfr-dev"])]),
    // Pure core: numbers, lexer, parser, evaluator, formatting, money, units. Imports CGMP and
    // the unit table's data (no I/O: bytes embedded in the binary).
    .target(
      name: "ReckonCore", dependencies: ["CGMP", "ReckonData"], swiftSettings: strictImports + ownSections + forSize),
    // The content built into the binary (the trivia bank, quizzes, word lists, HTML's
    // character references, the unit table and physical constants), packed by scripts/pack-data,
    // embedded with C23's #embed, and unpacked on first use through CDecompress.
    .target(
      name: "ReckonData", dependencies: ["CDecompress"],
      exclude: [
        "packed",
        "questions.txt", "questions-2.txt", "personality", "words.txt", "words-more.txt", "blocked-words.txt",
        "html-entities.txt",
        "units.txt",
        "constants.txt", "UNITS-FORMAT.md",
      ]),
    // The session state machine and its modes. Imports ReckonCore and the built-in content.
    .target(
      name: "ReckonSession", dependencies: ["ReckonCore", "ReckonData"],
      swiftSettings: strictImports + ownSections + forSize),
    // SQLite's C interface (Debian's libsqlite3-dev), with a shim for SQLITE_TRANSIENT.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // A small typed layer over it: connections, cached statements, typed binds and columns,
    // transactions, WAL, migrations by user_version. No Foundation.
    .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strictImports + ownSections + forSize),
    // The SQLite store behind the session's Store port, and the reader of Anki's packages.
    // zlib's inflate and Zstandard's decoder, opened with dlopen when an Anki package is read or
    // the built-in content is first needed
    // (zlib1g-dev for zlib.h; the libraries themselves are on every Debian system).
    .target(name: "CDecompress"),
    .target(
      name: "ReckonStore", dependencies: ["ReckonCore", "ReckonSession", "SQLite", "CDecompress"],
      swiftSettings: strictImports + ownSections + forSize),
    .target(name: "CArguments"),
    // libedit, through non-variadic C shims. (No pkgConfig: its -L/usr/lib/… would come
    // before linker/ in the search path.)
    .systemLibrary(
      name: "CLibEdit",
      providers: [.apt(["libedit-dev"])]
    ),
    // A Swift wrapper over libedit: prompt, history file, completion, Ctrl-C.
    .target(name: "LineEditor", dependencies: ["CLibEdit"], swiftSettings: strictImports + ownSections + forSize),
    // The thin executable: flags, tty detection, the loop, rendering.
    .executableTarget(
      name: "reckon",
      dependencies: ["ReckonSession", "ReckonStore", "LineEditor", "CArguments"],
      swiftSettings: strictImports + ownSections + forSize,
      // Release builds are position-dependent: a PIE spends a quarter of its start-up
      // applying ~20,000 relocations (perf: _dl_relocate_object and its page faults). They
      // also link SQLite, libedit and libstdc++ statically and export no symbols: see
      // linker/README.md.
      linkerSettings: [
        .unsafeFlags(
          [
            "-Xclang-linker", "-no-pie", "-L", Context.packageDirectory + "/linker",
            "-Xlinker", "--version-script=" + Context.packageDirectory + "/linker/reckon.exports",
            "-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/linker/hot-text.txt",
            // Identical functions folded into one (the generic specialisations Swift makes
            // many of): 290 KB.
            "-Xlinker", "--icf=all",
            // Unicode's scalar names are never asked for: Sources/CArguments/UnicodeNames.c.
            "-Xlinker", "--wrap=_swift_stdlib_getScalarName", "-Xlinker", "--wrap=_swift_stdlib_getNameAlias",
            // Nor their ages and scripts (24 KB).
            "-Xlinker", "--wrap=_swift_stdlib_getAge", "-Xlinker", "--wrap=_swift_stdlib_getScript",
            "-Xlinker", "--wrap=_swift_stdlib_getScriptExtensions",
          ], .when(platforms: [.linux], configuration: .release))
      ]
    ),
    .testTarget(name: "ReckonCoreTests", dependencies: ["ReckonCore"]),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
    // Transcripts run on a real (in-memory) SQLite store, so they see what users see.
    .testTarget(name: "ReckonSessionTests", dependencies: ["ReckonSession", "ReckonStore"], exclude: ["Transcripts"]),
    .testTarget(
      name: "ReckonStoreTests",
      dependencies: ["ReckonStore", "SQLite"],
      // A database the GRDB release wrote, and how it was made (read through #filePath).
      exclude: ["Fixtures"]),
    .testTarget(name: "EndToEndTests", dependencies: ["reckon", "ReckonSession", "ReckonStore", "SQLite"]),
    // The fuzz targets (fuzz/README.md): functions over arbitrary bytes. The tests replay the
    // seed corpus and every input the fuzzer ever found through them.
    .target(
      name: "ReckonFuzzTargets", dependencies: ["ReckonCore", "ReckonSession", "ReckonStore"],
      path: "fuzz/Targets", swiftSettings: strictImports),
    .testTarget(name: "FuzzRegressionTests", dependencies: ["ReckonFuzzTargets"]),
  ],
  swiftLanguageModes: [.v6],
  // C23, for #embed in ReckonData.
  cLanguageStandard: .c2x
)

// libFuzzer's entry points, built only by fuzz/run (RECKON_FUZZ=1, -sanitize=fuzzer,address):
// libFuzzer supplies main, so an ordinary build could not link it.
if Context.environment["RECKON_FUZZ"] == "1" {
  package.targets += [
    .target(name: "CLibFuzzer", path: "fuzz/CLibFuzzer"),
    .executableTarget(name: "reckon-fuzz", dependencies: ["CLibFuzzer", "ReckonFuzzTargets"], path: "fuzz/Driver"),
  ]
  package.products.append(.executable(name: "reckon-fuzz", targets: ["reckon-fuzz"]))
}
