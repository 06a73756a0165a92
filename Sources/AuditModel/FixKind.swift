/// What a finding asks of the developer, as data: the kind of fix and the figures it needs. Rules
/// choose one; `sentence` is the one place its words are written, for every report. Reports that
/// group findings compare kinds, never sentences.
package enum FixKind: Sendable, Hashable {
    // Images loaded at launch.
    case keepLoadedImage
    case excludeFromBundle
    case loadByName(name: String, deviceScale: Int)
    case addScaleVariantOrVector(scale: Int)
    case addScaleVariant(scale: Int)
    case shipAtShownSize
    case recompress
    case moveIntoCatalog
    case downsample
    case decodeOffMainThread
    case shipPictureOnce
    case useOneSpelling
    case lookUpOnce
    case reuseNibInstances
    case keepOneImageAcrossTraits
    case buildImageOutsideViewBody

    // Names that load nothing.
    case matchCase
    case passExtension
    case dropScaleSuffix
    case addIdiomVariant(idiom: String)
    case useCatalogNamespace
    case findNilName
    case moveIntoCatalogForSwiftUI
    case addImageOrRemoveLoad

    /// The toolkit's own code asked, not the app's. `systemImagesGiven`: `--system-images` was
    /// given and does not hold the image either.
    case toolkitMissing(systemImagesGiven: Bool)
    case toolkitRepeats
    case toolkitSlow
    /// `appNamedOne`: the app asks for one of the names, the toolkit for the other.
    case toolkitDuplicates(appNamedOne: Bool)
    case toolkitImagesDuplicate
    case systemImageRepeats

    // The launch as a whole.
    case underBudget(key: String, config: String)
    case explainRegression

    // The capture.
    case captureWithLldbScript
    case captureAgainReadingMemory
    case captureAgainAfterDebuggerCrash
    case readStopReport
    case readProgramOutput
    case recordLonger
    case resolvePendingBreakpoint
    case makeBreakpointPending
    case printFromBreakpoint
    case recordUntilLaunchEnd
    case giveCaptureOutput
    case printWithPortableRegister
    case captureWholeLaunch

    // `imgtrace unused`.
    case searchCodeFirst
    case makeSourcesReadable
    case deleteUnusedImage
    case keepDynamicImage
    case checkNeverLoaded

    /// The fix in words, a sentence or two, as text reports write it.
    package var sentence: String { phrase.text }

    /// The fix in words, a sentence or two, its commands and names quoted apart.
    package var phrase: Phrase {
        switch self {
        case .keepLoadedImage: return "Keep the loaded image, or load it with imageNamed: so the system caches it."
        case .excludeFromBundle: return "Exclude it from the Copy Bundle Resources phase and the archive."
        case .loadByName(let name, let scale): return "Load it by name (`UIImage(named: \"\(name)\")`), so UIKit picks the @\(scale)x variant."
        case .addScaleVariantOrVector(let scale): return "Add a @\(scale)x variant, or use a vector (PDF/SVG) in an asset catalog."
        case .addScaleVariant(let scale): return "Add a @\(scale)x variant so the device decodes only what it shows."
        case .shipAtShownSize: return "Ship it at the size it is shown, or downsample with ImageIO (CGImageSourceCreateThumbnailAtIndex) before display."
        case .recompress: return "Recompress it (HEIF or a lower JPEG quality), or shrink it to the size it is shown."
        case .moveIntoCatalog: return "Move it into an asset catalog so the App Store ships each device only its own scale."
        case .downsample: return "Downsample to the displayed size, split it, or load it after launch."
        case .decodeOffMainThread:
            return
                "Decode it off the main thread (UIImage's prepareForDisplay or byPreparingForDisplay, or a background queue), make it smaller, or load it after the first frame if the first frame does not show it."
        case .shipPictureOnce: return "Ship the picture once and use one name for it."
        case .useOneSpelling: return "Use one spelling of the name so it is cached once."
        case .lookUpOnce: return "Look the image up once (a static or a property) instead of per cell or per view."
        case .reuseNibInstances:
            return
                "Every instance of a nib decodes its image views' images again: a cell built from a nib for each row asks for each row. Register the nib and dequeue reusable cells, so instances are reused."
        case .keepOneImageAcrossTraits:
            return
                "Each trait change (dark mode, size class) re-decodes the images on screen once; more than one per change means views resolve it again: keep one UIImage and let its image asset switch."
        case .buildImageOutsideViewBody:
            return "Each evaluation of a view body asks CoreUI again: expected while views update; if it grows with rows, build the row's Image once outside the body."
        case .matchCase: return "Match the name's case to the asset's exactly."
        case .passExtension: return "Pass the file extension, or move the image into an asset catalog."
        case .dropScaleSuffix: return "Ask for the name without the scale or device suffix."
        case .addIdiomVariant(let idiom): return "Add a universal or \(idiom) variant."
        case .useCatalogNamespace: return "Use the name with the catalog folder's namespace, or turn the namespace off."
        case .findNilName: return "Find the code path that passes no name (the log lines show where in the launch)."
        case .moveIntoCatalogForSwiftUI: return "Move the image into an asset catalog: SwiftUI's `Image(\"name\")` and trait changes look nowhere else."
        case .addImageOrRemoveLoad: return "Add the image to the app, or remove the load."
        case .toolkitMissing(false):
            return
                "Nothing to change in the app: the toolkit's own code asked for it (the code that called the image API is the toolkit's, even where the app's code called that toolkit code; or a name in `toolkit.names`); --system-images with the toolkit's images resolves it."
        case .toolkitMissing(true):
            return
                "Nothing to change in the app: the toolkit's own code asked for it (the code that called the image API is the toolkit's, even where the app's code called that toolkit code; or a name in `toolkit.names`), and the --system-images folders given do not hold it either."
        case .toolkitRepeats:
            return
                "Nothing to change in the app: the toolkit's own code asked for it each time (the code that called the image API is the toolkit's, even where the app's code called that toolkit code; or a name in `toolkit.names`)."
        case .toolkitSlow: return "Nothing to change in the app: the toolkit's own code asked for it."
        case .toolkitDuplicates(let appNamedOne):
            return
                "The toolkit's own code asks for \(appNamedOne ? "the other name" : "these names") itself (the code that called the image API is the toolkit's, even where the app's code called that toolkit code; or a name in `toolkit.names`): nothing to change in the app."
        case .toolkitImagesDuplicate:
            return "These are the toolkit's own images, not the app's: nothing to ship differently; if the app asks for both names itself, use one."
        case .systemImageRepeats:
            return "A system image, most likely asked for by the toolkit's own code (menus, cursors): nothing to change unless the app's code asks for it."
        case .underBudget(let key, let config):
            return "Bring the launch back under the budget, or raise `budgets.\(key)` in \(code: config) if the growth is intended."
        case .explainRegression:
            return
                "Find what the launch added since the baseline; if the growth is intended, write a new baseline (`imgtrace baseline write`) or widen the `baseline:` tolerance."
        case .captureWithLldbScript:
            return
                "Capture with `imgtrace lldb-script` (breakpoints that print each name and continue), and save all of the debugger's output; with a `po` breakpoint of your own, filter Xcode's console to Debugger Output so the app's own lines stay out."
        case .captureAgainReadingMemory:
            return
                "Capture again with `imgtrace lldb-script` (its callback reads each name from the string's memory, through lldb's NSString summary where it can)."
        case .captureAgainAfterDebuggerCrash:
            return "Capture again; if the debugger crashes each time, record another way (`imgtrace record --agent` on Linux, lldb instead of gdb)."
        case .readStopReport:
            return
                "Read the stop report at that line: a crash is the app's to fix first. Otherwise capture again and continue the program after an unexpected stop (`process continue`); on Linux, `imgtrace record` stops nothing."
        case .readProgramOutput:
            return
                "Read the program's own output (record passes it through): a GUI program needs a display (run it under `xvfb-run -a`), and a program must start before its launch can be recorded."
        case .recordLonger: return "Record for longer (a larger --duration, or none so the program runs to its end)."
        case .resolvePendingBreakpoint:
            return
                "The symbol is not in the process as written: check its spelling and class (`+[UIImage imageNamed:]`, `+[NSImage imageNamed:]`) and that the app really links UIKit or AppKit. A stripped library (Debian's GNUstep) has no symbol for its methods: `imgtrace lldb-script` in its default style finds them through the Objective-C runtime at `main` (its `--style print` and hand-set breakpoints cannot), and `imgtrace record` reads the runtime's classes itself."
        case .makeBreakpointPending:
            return
                "Answer `y` to gdb's \"Make breakpoint pending\" (or `set breakpoint pending on`, as `imgtrace lldb-script --format gdb` does), and check the symbol's spelling."
        case .printFromBreakpoint:
            return
                "Make the breakpoint print the name itself (`breakpoint command add -o 'po $arg3' 1`, or `imgtrace lldb-script`), or keep lldb's stop reports (`* thread #1, stop reason = breakpoint 1.1`) in the log when you type `po $arg3` at each stop."
        case .recordUntilLaunchEnd:
            return
                "Record until the launch end is reached (a longer --duration, or none), or give --no-launch-end when the program has no launch end to wait for."
        case .giveCaptureOutput:
            return
                "Give the debugger's console output of a capture (`imgtrace lldb-script` writes one); a plain list of names counts only when some are images the app ships."
        case .printWithPortableRegister:
            return
                "Print the name with the portable register: `po $arg3` or `p (char *)[(id)$arg3 UTF8String]` (`imgtrace lldb-script` writes it); `$r2`/`$x2`/`$rdx` only exist on their own architecture."
        case .captureWholeLaunch: return "Check the capture covers the whole launch (the breakpoints were set before the app started, and the log was not cut)."
        case .searchCodeFirst: return "Run again with `--source-root` to search the code before deleting it: a short Swift literal is not visible in the built app."
        case .makeSourcesReadable: return "Make the source files readable (see the warnings) and run again before deleting it."
        case .deleteUnusedImage:
            return "Delete it from the app. If something outside the code names it (a server, a file the app downloads), list it in `ignore.names`."
        case .keepDynamicImage:
            return
                "Keep it. To let tools that read only the code see it, name it once in code (an asset symbol or a literal), or list it where those tools are told to keep it."
        case .checkNeverLoaded: return "Nothing to change if a screen the launches did not reach uses it; if the code that names it is dead, delete both."
        }
    }
}
