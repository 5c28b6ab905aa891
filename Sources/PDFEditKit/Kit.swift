import PDFEngine
