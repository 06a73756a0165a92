/// The `ImageHeaders` stage of the imgtrace pipeline (see DESIGN.md). Filled by its own issue.
public enum ImageHeadersStage {
    /// The stage's name, as the pipeline diagram spells it.
    public static let name = "ImageHeaders"
}
