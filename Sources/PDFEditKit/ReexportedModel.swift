import PageModel

// The editing model's values that a program names when it calls the kit
// (`PageEditor` takes selections and positions, returns change summaries and
// items, fails with these errors), handed out by name: `import PDFEditKit` is
// enough, and nothing else of the model (its parsers, geometry, session
// internals) is public. The engine is not handed out at all.

public typealias PageSelection = PageModel.PageSelection
public typealias Position = PageModel.Position
public typealias Destination = PageModel.Destination
public typealias ChangeSummary = PageModel.ChangeSummary
public typealias PageItem = PageModel.PageItem
public typealias ItemID = PageModel.ItemID
public typealias SourceID = PageModel.SourceID
public typealias PageSize = PageModel.PageSize
public typealias StampPosition = PageModel.StampPosition
public typealias PageLabelPolicy = PageModel.PageLabelPolicy
public typealias OutlinePolicy = PageModel.OutlinePolicy
public typealias OutputEncryption = PageModel.OutputEncryption
public typealias OutputPermission = PageModel.OutputPermission
public typealias FileError = PageModel.FileError
public typealias SelectionError = PageModel.SelectionError
public typealias EditError = PageModel.EditError
public typealias SizeError = PageModel.SizeError
public typealias LabelSpec = PageModel.LabelSpec
public typealias LabelStyle = PageModel.LabelStyle
public typealias StampEach = PageModel.StampEach
public typealias ArrangedItem = PageModel.ArrangedItem
public typealias PageFinish = PageModel.PageFinish
public typealias DocumentPart = PageModel.DocumentPart
public typealias DigitalSignature = PageModel.DigitalSignature
public typealias StampLength = PageModel.StampLength
public typealias TextColor = PageModel.TextColor
public typealias RedactUnits = PageModel.RedactUnits
public typealias Redaction = PageModel.Redaction
public typealias ImageResampling = PageModel.ImageResampling
public typealias OptimizeSettings = PageModel.OptimizeSettings
