// swift-tools-version:6.0
import PackageDescription

// Members of a module are visible only where it is imported (SE-0444): Foundation reaches the
// build through BigInt and GRDB, and using it by accident from the executable would link
// ICU into the binary (+50 MB, slower start-up).
let strictImports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
  name: "Reckon",
  products: [
    .executable(name: "reckon", targets: ["reckon"])
  ],
  dependencies: [
    .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
  ],
  targets: [
    // Pure core: numbers, lexer, parser, evaluator, formatting, money. Imports BigInt only.
    .target(
      name: "ReckonCore",
      dependencies: [.product(name: "BigInt", package: "BigInt")],
      swiftSettings: strictImports
    ),
    // The session state machine and its modes. Imports ReckonCore only.
    .target(name: "ReckonSession", dependencies: ["ReckonCore"], swiftSettings: strictImports),
    // The SQLite store (GRDB) behind the session's Store port. Not linked into reckon yet:
    // GRDB brings all of Foundation with it (+60 MB, +0.7 ms start-up); see ARCHITECTURE.md.
    .target(
      name: "ReckonStore",
      dependencies: ["ReckonSession", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // libedit, through non-variadic C shims.
    .systemLibrary(
      name: "CLibEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    // A Swift wrapper over libedit: prompt, history file, completion, Ctrl-C.
    .target(name: "LineEditor", dependencies: ["CLibEdit"], swiftSettings: strictImports),
    // The thin executable: flags, tty detection, the loop, rendering.
    .executableTarget(
      name: "reckon",
      dependencies: ["ReckonSession", "LineEditor"],
      swiftSettings: strictImports,
      // Release builds are position-dependent: a PIE spends a quarter of its start-up
      // applying ~70,000 relocations (perf: _dl_relocate_object and its page faults).
      linkerSettings: [
        .unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))
      ]
    ),
    .testTarget(
      name: "ReckonCoreTests",
      dependencies: ["ReckonCore", .product(name: "BigInt", package: "BigInt")]
    ),
    .testTarget(name: "ReckonSessionTests", dependencies: ["ReckonSession"], exclude: ["Transcripts"]),
    .testTarget(name: "ReckonStoreTests", dependencies: ["ReckonStore"]),
    .testTarget(name: "EndToEndTests", dependencies: ["reckon"]),
  ],
  swiftLanguageModes: [.v6]
)
