"""The printed sheets, built with reportlab: one module per document.

Each module's ``build(sheet, paper)`` takes the plain rows gathered by
``tournaments.reads.sheets`` and returns the PDF's bytes; nothing here touches the
ORM or a request.
"""
