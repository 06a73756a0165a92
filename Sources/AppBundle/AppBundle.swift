/// The `AppBundle` stage of the imgtrace pipeline (see DESIGN.md). Filled by its own issue.
public enum AppBundleStage {
    /// The stage's name, as the pipeline diagram spells it.
    public static let name = "AppBundle"
}
