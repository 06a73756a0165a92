import ImgtraceSupport

enum FileHandleStderr {
    static func write(_ text: String) { PlatformIO.writeStandardError(text) }
}
