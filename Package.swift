// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Reckon",
  products: [
    .executable(name: "reckon", targets: ["reckon"])
  ],
  dependencies: [
    .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0")
  ],
  targets: [
    // Pure core: numbers, lexer, parser, evaluator, formatting, money. Imports BigInt only.
    .target(
      name: "ReckonCore",
      dependencies: [.product(name: "BigInt", package: "BigInt")]
    ),
    // The session state machine and its modes. Imports ReckonCore only.
    .target(name: "ReckonSession", dependencies: ["ReckonCore"]),
    // libedit, through non-variadic C shims.
    .systemLibrary(
      name: "CLibEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    // A Swift wrapper over libedit: prompt, history file, completion, Ctrl-C.
    .target(name: "LineEditor", dependencies: ["CLibEdit"]),
    // The thin executable: flags, tty detection, the loop, rendering.
    .executableTarget(
      name: "reckon",
      dependencies: ["ReckonSession", "LineEditor"],
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
    .testTarget(name: "EndToEndTests", dependencies: ["reckon"]),
  ],
  swiftLanguageModes: [.v6]
)
