// The model's values are the kit's vocabulary: `Workspace.apply` takes an `Edit`,
// `read` gives a `Session`, selections are `PageSelection`s. A program that uses
// the kit (the pdfedit CLI, a server, an app) needs them to call it, so the kit
// hands them out with itself: `import PDFEditKit` is enough. The engine is not
// re-exported: its types stay behind the kit.
@_exported import PageModel
